// RUN: kiln-opt %s -kgpu-assign-layouts="num-warps=4 mma-version=2" -kgpu-pipeline-dot-loops=num-stages=3 | FileCheck %s
// RUN: kiln-opt %s -kgpu-assign-layouts="num-warps=4 mma-version=3" -kgpu-pipeline-dot-loops=num-stages=3 | FileCheck %s
// RUN: kiln-opt %s -kgpu-assign-layouts="num-warps=4 mma-version=2" -kgpu-pipeline-dot-loops=num-stages=3 -canonicalize -kgpu-convert-to-llvm="arch=sm_90a" | FileCheck %s --check-prefix=LLVM
// RUN: kiln-opt %s -kgpu-assign-layouts="num-warps=4 mma-version=3" -kgpu-pipeline-dot-loops=num-stages=3 -canonicalize -kgpu-convert-to-llvm="arch=sm_90a" | FileCheck %s --check-prefix=LLVM

// A K loop of constant trip count 0 is not pipelined, in the mma.sync
// (cp.async K loop) and the wgmma (slot loop) forms alike: it has nothing
// to overlap, and its prologue copies would fill slots that no op reads
// once -canonicalize folds the loop away (kgpu-convert-to-llvm rejected
// that IR: "fills no slots ...").
// CHECK-LABEL: tt.func public @never_runs
// CHECK-NOT: kgpu.async_copy
// CHECK: scf.for
// CHECK: tt.load
// CHECK: tt.dot
// CHECK-NOT: kgpu.async
// CHECK: tt.return
// LLVM-LABEL: llvm.func @never_runs
// LLVM-NOT: cp.async
// LLVM: llvm.return
tt.func public @never_runs(%a: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %b: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %c: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %K: i32 {tt.divisibility = 16 : i32}, %n: i32) {
  %zero = arith.constant dense<0.0> : tensor<64x64xf32>
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c32 = arith.constant 32 : i32
  %stepA = arith.constant dense<32> : tensor<64x32xi32>
  %rk = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32>
  %rk2 = tt.expand_dims %rk {axis = 0 : i32} : tensor<32xi32> -> tensor<1x32xi32>
  %rka = tt.broadcast %rk2 : tensor<1x32xi32> -> tensor<64x32xi32>
  %pa = tt.splat %a : !tt.ptr<f16> -> tensor<64x32x!tt.ptr<f16>>
  %pa0 = tt.addptr %pa, %rka : tensor<64x32x!tt.ptr<f16>>, tensor<64x32xi32>
  %rn = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
  %rn2 = tt.expand_dims %rn {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
  %rnb = tt.broadcast %rn2 : tensor<1x64xi32> -> tensor<32x64xi32>
  %pb = tt.splat %b : !tt.ptr<f16> -> tensor<32x64x!tt.ptr<f16>>
  %pb0 = tt.addptr %pb, %rnb : tensor<32x64x!tt.ptr<f16>>, tensor<32x64xi32>
  %stepB = arith.constant dense<2048> : tensor<32x64xi32>
  %r:3 = scf.for %k = %c0 to %c0 step %c1 iter_args(%xa = %pa0, %xb = %pb0, %acc = %zero) -> (tensor<64x32x!tt.ptr<f16>>, tensor<32x64x!tt.ptr<f16>>, tensor<64x64xf32>) : i32 {
    %kk = arith.muli %k, %c32 : i32
    %left = arith.subi %K, %kk : i32
    %lefts = tt.splat %left : i32 -> tensor<1x32xi32>
    %m1 = arith.cmpi slt, %rk2, %lefts : tensor<1x32xi32>
    %ma = tt.broadcast %m1 : tensor<1x32xi1> -> tensor<64x32xi1>
    %cst = arith.constant dense<0.0> : tensor<64x32xf16>
    %va = tt.load %xa, %ma, %cst : tensor<64x32x!tt.ptr<f16>>
    %vb = tt.load %xb : tensor<32x64x!tt.ptr<f16>>
    %d = tt.dot %va, %vb, %acc : tensor<64x32xf16> * tensor<32x64xf16> -> tensor<64x64xf32>
    %na = tt.addptr %xa, %stepA : tensor<64x32x!tt.ptr<f16>>, tensor<64x32xi32>
    %nb = tt.addptr %xb, %stepB : tensor<32x64x!tt.ptr<f16>>, tensor<32x64xi32>
    scf.yield %na, %nb, %d : tensor<64x32x!tt.ptr<f16>>, tensor<32x64x!tt.ptr<f16>>, tensor<64x64xf32>
  }
  %rc = tt.broadcast %rn2 : tensor<1x64xi32> -> tensor<64x64xi32>
  %pc = tt.splat %c : !tt.ptr<f32> -> tensor<64x64x!tt.ptr<f32>>
  %pc2 = tt.addptr %pc, %rc : tensor<64x64x!tt.ptr<f32>>, tensor<64x64xi32>
  tt.store %pc2, %r#2 : tensor<64x64x!tt.ptr<f32>>
  tt.return
}

// -----

// Not pipelined: the body also stores (only the loads' address arithmetic,
// the loads and the dot may be in the loop), and a load with a nonzero
