// RUN: kiln-opt %s -split-input-file -verify-diagnostics -kgpu-assign-layouts=num-warps=4 -kgpu-convert-to-llvm
// RUN: not kiln-opt %s -split-input-file -kgpu-assign-layouts=num-warps=64 2>&1 | FileCheck %s --check-prefix=WARPS
// RUN: not kiln-opt %S/Inputs/too-much-shared.mlir -kgpu-assign-layouts=num-warps=4 -kgpu-convert-to-llvm 2>&1 | FileCheck %s --check-prefix=SHARED
// RUN: not kiln-opt %S/Inputs/too-much-shared.mlir -kgpu-assign-layouts='num-warps=4 threads-per-warp=64' -kgpu-convert-to-llvm 2>&1 | FileCheck %s --check-prefix=LANES

// Kernels the NVPTX path rejects by name instead of lowering them wrongly.

// WARPS: error: num-warps must be at most 32 (1024 threads per CTA), got 64
// SHARED: too-much-shared.mlir:{{[0-9]+}}:{{[0-9]+}}: error: the kernel needs 1048576 bytes of shared memory (num-warps 4) but a CTA may use at most 232448 on nvptx: 'tt.trans' moves the most data through shared memory
// LANES: error: kgpu.threads-per-warp is 64 but NVPTX warps have 32 threads

// A rank-0 tensor.
tt.func public @rank0(%p: !tt.ptr<f32>) {
  // expected-error @+1 {{rank-0 tensor 'tensor<f32>' is not supported; use a scalar}}
  %c = arith.constant dense<1.0> : tensor<f32>
  tt.return
}

// -----

// A shape that is not a power of two (a reduction over it would count the
// replicated elements twice).
tt.func public @npot(%p: !tt.ptr<f32>) {
  // expected-error @+1 {{tensor 'tensor<100xf32>' has a dimension that is not a power of two (100); distributed layouts need power-of-two shapes}}
  %c = arith.constant dense<1.0> : tensor<100xf32>
  tt.return
}

// -----

// An empty tensor.
tt.func public @empty(%p: !tt.ptr<f32>) {
  // expected-error @+1 {{tensor 'tensor<0xf32>' has a dimension that is not a power of two (0)}}
  %c = arith.constant dense<1.0> : tensor<0xf32>
  tt.return
}

// -----

// More elements than one CTA may hold.
tt.func public @huge(%p: !tt.ptr<f32>) {
  // expected-error @+1 {{tensor 'tensor<2097152xi32>' has 2097152 elements; at most 1048576 are supported}}
  %r = tt.make_range {end = 2097152 : i32, start = 0 : i32} : tensor<2097152xi32>
  tt.return
}

// -----

// A kernel returns nothing.
// expected-error @+1 {{kernel 'ret' must return nothing, it returns 1 value(s)}}
tt.func public @ret(%a: i32) -> i32 {
  tt.return %a : i32
}

// -----

// A public function without a body is not a kernel.
// expected-error @+1 {{kernel 'decl' has no body}}
tt.func public @decl(%a: i32)

// -----

// Kernels take global pointers.
// expected-error @+1 {{kernel argument #0 '!tt.ptr<f32, 3>' is not a global (address space 1) pointer}}
tt.func public @shared_arg(%p: !tt.ptr<f32, 3>) {
  tt.return
}

// -----

// Kernels are launched from the host, not called.
tt.func public @callee(%a: i32) {
  tt.return
}
tt.func public @caller(%a: i32) {
  // expected-error @+1 {{call to kernel 'callee': kernels are launched from the host only}}
  tt.call @callee(%a) : (i32) -> ()
  tt.return
}

// -----

// Recursion has no call stack on this path.
tt.func private @rec(%a: i32) {
  // expected-error @+1 {{recursive call to 'rec' is not supported}}
  tt.call @rec(%a) : (i32) -> ()
  tt.return
}
tt.func public @entry(%a: i32) {
  tt.call @rec(%a) : (i32) -> ()
  tt.return
}

// -----

// kgpu.pack marks kgpu-convert-to-llvm's own struct packs; input that
// carries it is rejected by name, not taken for one of them.
tt.func public @forged_pack(%out: !tt.ptr<i32>, %n: i32) {
  // expected-error @+1 {{the attribute 'kgpu.pack' is reserved for kgpu-convert-to-llvm's own struct packs; the input must not carry it}}
  %m = "builtin.unrealized_conversion_cast"(%n, %n) {kgpu.pack} : (i32, i32) -> i64
  %t = arith.trunci %m : i64 to i32
  tt.store %out, %t : !tt.ptr<i32>
  tt.return
}
