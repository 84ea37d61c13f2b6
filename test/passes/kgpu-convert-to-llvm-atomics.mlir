// RUN: kiln-opt %s -split-input-file -kgpu-assign-layouts=num-warps=4 -kgpu-convert-to-llvm | FileCheck %s --enable-var-scope
// RUN: not kiln-opt %S/Inputs/unsupported-atomic.mlir -kgpu-assign-layouts=num-warps=4 -kgpu-convert-to-llvm 2>&1 | FileCheck %s --check-prefix=UNSUP

// Tensor atomics are predicated by their mask (and by ownership where the
// layout replicates elements); PTX atom with the op's semantics and scope.
// CHECK-LABEL: llvm.func @atomics
// CHECK: "mov.b32 $0, 0;\0A\09@$3 atom.global.acq_rel.gpu.add.f32 $0, [ $1 + 0 ], $2;", "=r,l,r,b"
// CHECK: "mov.b32 $0, 0;\0A\09@$4 atom.global.relaxed.cta.cas.b32 $0, [ $1 + 0 ], $2, $3;", "=r,l,r,r,b"
tt.func public @atomics(%p: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %q: !tt.ptr<i32> {tt.divisibility = 16 : i32}) {
  %r = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32>
  %one = arith.constant dense<1.0> : tensor<128xf32>
  %m = arith.constant dense<true> : tensor<128xi1>
  %s = tt.splat %p : !tt.ptr<f32> -> tensor<128x!tt.ptr<f32>>
  %a = tt.addptr %s, %r : tensor<128x!tt.ptr<f32>>, tensor<128xi32>
  %old = tt.atomic_rmw fadd, acq_rel, gpu, %a, %one, %m : (tensor<128x!tt.ptr<f32>>, tensor<128xf32>, tensor<128xi1>) -> tensor<128xf32>
  %qs = tt.splat %q : !tt.ptr<i32> -> tensor<128x!tt.ptr<i32>>
  %qa = tt.addptr %qs, %r : tensor<128x!tt.ptr<i32>>, tensor<128xi32>
  %prev = tt.atomic_cas relaxed, cta, %qa, %r, %r : (tensor<128x!tt.ptr<i32>>, tensor<128xi32>, tensor<128xi32>) -> tensor<128xi32>
  tt.return
}

// -----

// A scalar atomic runs in thread 0 only; its result reaches every thread
// through shared memory: thread 0 stores it under an scf.if (no blocks of
// its own, which an enclosing scf.while's region could not hold).
// CHECK: kgpu.shared = 16 : i32
// CHECK-LABEL: llvm.func @scalar_atomic
// CHECK: [[TID:%.+]] = nvvm.read.ptx.sreg.tid.x : i32
// CHECK: [[ISZERO:%.+]] = llvm.icmp "eq" [[TID]]
// CHECK: "mov.b32 $0, 0;\0A\09@$3 atom.global.relaxed.gpu.add.u32 $0, [ $1 + 0 ], $2;"
// CHECK: [[ZERO:%.+]] = llvm.icmp "eq"
// CHECK: scf.if [[ZERO]] {
// CHECK-NEXT: llvm.store
// CHECK-NEXT: }
// CHECK: nvvm.barrier0
// CHECK: llvm.load
tt.func public @scalar_atomic(%p: !tt.ptr<i32> {tt.divisibility = 16 : i32}, %out: !tt.ptr<i32> {tt.divisibility = 16 : i32}) {
  %c1 = arith.constant 1 : i32
  %old = tt.atomic_rmw add, relaxed, gpu, %p, %c1 : (!tt.ptr<i32>, i32) -> i32
  tt.store %out, %old : !tt.ptr<i32>
  tt.return
}

// UNSUP: error: 'tt.atomic_rmw' on 'f32' is not supported by the NVPTX lowering yet

// -----

// A reduction inside a loop reuses its shared memory every iteration, so it
// waits for the previous iteration's readers before storing.
// CHECK-LABEL: llvm.func @reduce_in_loop
// CHECK: scf.for
// CHECK: nvvm.barrier0
// CHECK: llvm.mlir.addressof @kgpu_shared_memory
// CHECK: llvm.store {{.*}} : f32, !llvm.ptr<3>
// CHECK: nvvm.barrier0
tt.func public @reduce_in_loop(%p: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %out: !tt.ptr<f32>) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c4 = arith.constant 4 : i32
  %z = arith.constant 0.0 : f32
  %r = tt.make_range {end = 512 : i32, start = 0 : i32} : tensor<512xi32>
  %s = tt.splat %p : !tt.ptr<f32> -> tensor<512x!tt.ptr<f32>>
  %a = tt.addptr %s, %r : tensor<512x!tt.ptr<f32>>, tensor<512xi32>
  %acc = scf.for %i = %c0 to %c4 step %c1 iter_args(%t = %z) -> (f32) : i32 {
    %x = tt.load %a : tensor<512x!tt.ptr<f32>>
    %sum = "tt.reduce"(%x) <{axis = 0 : i32}> ({
    ^bb0(%u: f32, %v: f32):
      %w = arith.addf %u, %v : f32
      tt.reduce.return %w : f32
    }) : (tensor<512xf32>) -> f32
    %n = arith.addf %t, %sum : f32
    scf.yield %n : f32
  }
  tt.store %out, %acc : !tt.ptr<f32>
  tt.return
}

// -----

// tt.assert: where any element of the condition is false the thread calls
// the CUDA device runtime's __assertfail with the message, the file and
// line of the op's location and the kernel's name.
// CHECK-DAG: llvm.mlir.global internal constant @kgpu_assert_msg_{{[0-9A-F]+}}("index out of bounds\00") {addr_space = 1 : i32
// CHECK-DAG: llvm.mlir.global internal constant @kgpu_assert_file_{{[0-9A-F]+}}("k.py\00") {addr_space = 1 : i32
// CHECK-DAG: llvm.mlir.global internal constant @kgpu_assert_func_{{[0-9A-F]+}}("assert_kernel\00") {addr_space = 1 : i32
// CHECK-DAG: llvm.func @__assertfail(!llvm.ptr, !llvm.ptr, i32, !llvm.ptr, i64)
// CHECK-LABEL: llvm.func @assert_kernel
// CHECK: scf.if %{{.+}} {
// CHECK-NEXT: } else {
// CHECK: llvm.call @__assertfail
tt.func public @assert_kernel(%p: !tt.ptr<i32> {tt.divisibility = 16 : i32}) {
  %r = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32>
  %c = arith.constant dense<100> : tensor<128xi32>
  %ok = arith.cmpi slt, %r, %c : tensor<128xi32>
  tt.assert %ok, "index out of bounds" : tensor<128xi1> loc("k.py":7:3)
  tt.return
}
