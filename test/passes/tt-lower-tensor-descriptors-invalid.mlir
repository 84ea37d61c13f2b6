// RUN: kiln-opt %s -split-input-file -verify-diagnostics -tt-lower-tensor-descriptors

// What tt-lower-tensor-descriptors does not lower is an error naming the op
// and the way the descriptor flows, never a crash or a wrong rewrite.

// A descriptor passed to the kernel (a host-side TMA descriptor).
// expected-error @+1 {{tensor descriptor argument #0 ('!tt.tensordesc<tensor<64x64xf16>>') is not supported: kiln lowers descriptors made in the kernel by tt.make_tensor_descriptor only (host-side TMA descriptors are not supported yet)}}
tt.func public @argument(%d: !tt.tensordesc<tensor<64x64xf16>>, %i: i32) {
  %v = tt.descriptor_load %d[%i, %i] : !tt.tensordesc<tensor<64x64xf16>> -> tensor<64x64xf16>
  tt.return
}

// -----

// tt.descriptor_reduce (TMA reductions) has no lowering yet.
tt.func public @reduce(%p: !tt.ptr<f32>, %n: i32, %v: tensor<64xf32>) {
  %c1_i64 = arith.constant 1 : i64
  %d = tt.make_tensor_descriptor %p, [%n], [%c1_i64] : <f32>, <tensor<64xf32>>
  // expected-error @+1 {{'tt.descriptor_reduce' is not supported yet (tt-lower-tensor-descriptors lowers descriptor_load, descriptor_store, descriptor_gather and descriptor_scatter)}}
  tt.descriptor_reduce add, %d[%n], %v : !tt.tensordesc<tensor<64xf32>>, tensor<64xf32>
  tt.return
}

// -----

// A descriptor carried by a loop.
tt.func public @loop_carried(%p: !tt.ptr<f16>, %n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c1_i64 = arith.constant 1 : i64
  // expected-note @+1 {{descriptor made here}}
  %d = tt.make_tensor_descriptor %p, [%n], [%c1_i64] : <f16>, <tensor<64xf16>>
  // expected-error @+1 {{tensor descriptor flows into 'scf.for' (operand #3): kiln lowers a descriptor only where tt.descriptor_load/store/gather/scatter use the tt.make_tensor_descriptor result directly (not through loop-carried values, scf.if results, calls or returns)}}
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%dd = %d) -> (!tt.tensordesc<tensor<64xf16>>) : i32 {
    %v = tt.descriptor_load %dd[%i] : !tt.tensordesc<tensor<64xf16>> -> tensor<64xf16>
    scf.yield %dd : !tt.tensordesc<tensor<64xf16>>
  }
  tt.return
}

// -----

// A descriptor chosen by an scf.if.
tt.func public @if_result(%p: !tt.ptr<f16>, %q: !tt.ptr<f16>, %n: i32, %c: i1) {
  %c1_i64 = arith.constant 1 : i64
  // expected-note @+1 {{descriptor made here}}
  %d = tt.make_tensor_descriptor %p, [%n], [%c1_i64] : <f16>, <tensor<64xf16>>
  %e = tt.make_tensor_descriptor %q, [%n], [%c1_i64] : <f16>, <tensor<64xf16>>
  %r = scf.if %c -> (!tt.tensordesc<tensor<64xf16>>) {
    // expected-error @+1 {{tensor descriptor flows into 'scf.yield' (operand #0)}}
    scf.yield %d : !tt.tensordesc<tensor<64xf16>>
  } else {
    scf.yield %e : !tt.tensordesc<tensor<64xf16>>
  }
  %v = tt.descriptor_load %r[%n] : !tt.tensordesc<tensor<64xf16>> -> tensor<64xf16>
  tt.return
}

// -----

// A descriptor returned by a function.
tt.func @returned(%p: !tt.ptr<f16>, %n: i32) -> !tt.tensordesc<tensor<64xf16>> {
  %c1_i64 = arith.constant 1 : i64
  // expected-note @+1 {{descriptor made here}}
  %d = tt.make_tensor_descriptor %p, [%n], [%c1_i64] : <f16>, <tensor<64xf16>>
  // expected-error @+1 {{tensor descriptor flows into 'tt.return' (operand #0)}}
  tt.return %d : !tt.tensordesc<tensor<64xf16>>
}

// -----

// A descriptor that a call returns.
tt.func private @make_desc() -> !tt.tensordesc<tensor<64xf16>>
tt.func public @call_result(%n: i32) {
  %d = tt.call @make_desc() : () -> !tt.tensordesc<tensor<64xf16>>
  // expected-error @+1 {{'tt.descriptor_load' of a descriptor that is the result of 'tt.call' is not supported: kiln lowers descriptors made by tt.make_tensor_descriptor and used directly}}
  %v = tt.descriptor_load %d[%n] : !tt.tensordesc<tensor<64xf16>> -> tensor<64xf16>
  tt.return
}

// -----

// NaN padding of an integer block.
tt.func public @nan_integer(%p: !tt.ptr<i32>, %n: i32) {
  %c1_i64 = arith.constant 1 : i64
  // expected-error @+1 {{padding = nan needs a floating-point block element type that has a NaN, got 'i32'}}
  %d = tt.make_tensor_descriptor %p, [%n], [%c1_i64] {padding = 2 : i32} : <i32>, <tensor<64xi32>>
  %v = tt.descriptor_load %d[%n] : !tt.tensordesc<tensor<64xi32>> -> tensor<64xi32>
  tt.return
}

// -----

// NaN padding of a float type without a NaN (f4E2M1FN is finite only).
tt.func public @nan_finite_only(%p: !tt.ptr<f4E2M1FN>, %n: i32) {
  %c1_i64 = arith.constant 1 : i64
  // expected-error @+1 {{padding = nan needs a floating-point block element type that has a NaN, got 'f4E2M1FN'}}
  %d = tt.make_tensor_descriptor %p, [%n], [%c1_i64] {padding = 2 : i32} : <f4E2M1FN>, <tensor<64xf4E2M1FN>>
  tt.return
}

// -----

// A block of pointers.
tt.func public @pointer_block(%p: !tt.ptr<!tt.ptr<f32>>, %n: i32) {
  %c1_i64 = arith.constant 1 : i64
  // expected-error @+1 {{tensor descriptor of 'tensor<64x!tt.ptr<f32>>' over a base pointing to '!tt.ptr<f32>' is not supported: block and base elements must be integers or floats}}
  %d = tt.make_tensor_descriptor %p, [%n], [%c1_i64] : <!tt.ptr<f32>>, <tensor<64x!tt.ptr<f32>>>
  tt.return
}

// -----

// A rank-0 value (a 1-element block with its one dimension dropped).
tt.func public @rank0(%p: !tt.ptr<f32>, %n: i32) {
  %c1_i64 = arith.constant 1 : i64
  %d = tt.make_tensor_descriptor %p, [%n], [%c1_i64] : <f32>, <tensor<1xf32>>
  // expected-error @+1 {{'tt.descriptor_load' of a rank-0 value is not supported}}
  %v = tt.descriptor_load %d[%n] : !tt.tensordesc<tensor<1xf32>> -> tensor<f32>
  tt.return
}
