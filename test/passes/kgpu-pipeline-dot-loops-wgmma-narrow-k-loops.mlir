// RUN: kiln-opt %s -split-input-file -kgpu-assign-layouts="num-warps=4 mma-version=3" -kgpu-pipeline-dot-loops="num-stages=3 wgmma=true" | FileCheck %s
// RUN: kiln-opt %s -split-input-file -kgpu-assign-layouts="num-warps=4 mma-version=3" -kgpu-pipeline-dot-loops="num-stages=3 wgmma=true" -kgpu-convert-to-llvm | FileCheck %s --check-prefix=LLVM

// K loops with narrow tiles (wgmmaNarrowTile: N 16, below a multiple of
// 64) keep mma.sync, pipelined on its padded slots, even where the
// layout's warps all lie along M (64 rows, 4 warps): wgmma takes such
// tiles only in attention's loops. (helper-46's break-test: these went to
// wgmma, and the tf32 one, B read N-contiguous, failed to compile.)
// CHECK-LABEL: tt.func public @narrow_n16(
// CHECK: kgpu.local_dot {{.*}}bType = tensor<32x16xf16, #{{.*}}>, numSlots = 3 : i32}
// LLVM-LABEL: llvm.func @narrow_n16(
// LLVM-NOT: wgmma
// LLVM: nvvm.mma.sync {{.*}}shape = #nvvm.shape<m = 16, n = 8, k = 16>
tt.func public @narrow_n16(%a: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %b: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %c: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %n: i32) {
  %zero = arith.constant dense<0.0> : tensor<64x16xf32>
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %stepA = arith.constant dense<32> : tensor<64x32xi32>
  %stepB = arith.constant dense<512> : tensor<32x16xi32>
  %sa = arith.constant dense<32> : tensor<64x1xi32>
  %sb = arith.constant dense<16> : tensor<32x1xi32>
  %rn = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
  %rm = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
  %rm2 = tt.expand_dims %rm {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
  %rma = arith.muli %rm2, %sa : tensor<64x1xi32>
  %rmab = tt.broadcast %rma : tensor<64x1xi32> -> tensor<64x32xi32>
  %rk = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32>
  %rk2 = tt.expand_dims %rk {axis = 0 : i32} : tensor<32xi32> -> tensor<1x32xi32>
  %rka = tt.broadcast %rk2 : tensor<1x32xi32> -> tensor<64x32xi32>
  %offa = arith.addi %rmab, %rka : tensor<64x32xi32>
  %pa = tt.splat %a : !tt.ptr<f16> -> tensor<64x32x!tt.ptr<f16>>
  %pa0 = tt.addptr %pa, %offa : tensor<64x32x!tt.ptr<f16>>, tensor<64x32xi32>
  %rkb1 = tt.expand_dims %rk {axis = 1 : i32} : tensor<32xi32> -> tensor<32x1xi32>
  %rkb2 = arith.muli %rkb1, %sb : tensor<32x1xi32>
  %rkb = tt.broadcast %rkb2 : tensor<32x1xi32> -> tensor<32x16xi32>
  %rn2 = tt.expand_dims %rn {axis = 0 : i32} : tensor<16xi32> -> tensor<1x16xi32>
  %rnb = tt.broadcast %rn2 : tensor<1x16xi32> -> tensor<32x16xi32>
  %offb = arith.addi %rkb, %rnb : tensor<32x16xi32>
  %pb = tt.splat %b : !tt.ptr<f16> -> tensor<32x16x!tt.ptr<f16>>
  %pb0 = tt.addptr %pb, %offb : tensor<32x16x!tt.ptr<f16>>, tensor<32x16xi32>
  %r:3 = scf.for %k = %c0 to %n step %c1 iter_args(%xa = %pa0, %xb = %pb0, %acc = %zero) -> (tensor<64x32x!tt.ptr<f16>>, tensor<32x16x!tt.ptr<f16>>, tensor<64x16xf32>) : i32 {
    %va = tt.load %xa : tensor<64x32x!tt.ptr<f16>>
    %vb = tt.load %xb : tensor<32x16x!tt.ptr<f16>>
    %d = tt.dot %va, %vb, %acc : tensor<64x32xf16> * tensor<32x16xf16> -> tensor<64x16xf32>
    %na = tt.addptr %xa, %stepA : tensor<64x32x!tt.ptr<f16>>, tensor<64x32xi32>
    %nb = tt.addptr %xb, %stepB : tensor<32x16x!tt.ptr<f16>>, tensor<32x16xi32>
    scf.yield %na, %nb, %d : tensor<64x32x!tt.ptr<f16>>, tensor<32x16x!tt.ptr<f16>>, tensor<64x16xf32>
  }
  %rc = tt.broadcast %rn2 : tensor<1x16xi32> -> tensor<64x16xi32>
  %pc = tt.splat %c : !tt.ptr<f32> -> tensor<64x16x!tt.ptr<f32>>
  %pc2 = tt.addptr %pc, %rc : tensor<64x16x!tt.ptr<f32>>, tensor<64x16xi32>
  tt.store %pc2, %r#2 : tensor<64x16x!tt.ptr<f32>>
  tt.return
}


// -----

// CHECK-LABEL: tt.func public @narrow_n16_tf32(
// CHECK: kgpu.local_dot {{.*}}bType = tensor<32x16xf32, #{{.*}}>, numSlots = 3 : i32}
// LLVM-LABEL: llvm.func @narrow_n16_tf32(
// LLVM-NOT: wgmma
// LLVM: nvvm.mma.sync {{.*}}shape = #nvvm.shape<m = 16, n = 8, k = 8>
tt.func public @narrow_n16_tf32(%a: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %b: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %c: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %n: i32) {
  %zero = arith.constant dense<0.0> : tensor<64x16xf32>
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %stepA = arith.constant dense<32> : tensor<64x32xi32>
  %stepB = arith.constant dense<512> : tensor<32x16xi32>
  %sa = arith.constant dense<32> : tensor<64x1xi32>
  %sb = arith.constant dense<16> : tensor<32x1xi32>
  %rn = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
  %rm = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
  %rm2 = tt.expand_dims %rm {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
  %rma = arith.muli %rm2, %sa : tensor<64x1xi32>
  %rmab = tt.broadcast %rma : tensor<64x1xi32> -> tensor<64x32xi32>
  %rk = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32>
  %rk2 = tt.expand_dims %rk {axis = 0 : i32} : tensor<32xi32> -> tensor<1x32xi32>
  %rka = tt.broadcast %rk2 : tensor<1x32xi32> -> tensor<64x32xi32>
  %offa = arith.addi %rmab, %rka : tensor<64x32xi32>
  %pa = tt.splat %a : !tt.ptr<f32> -> tensor<64x32x!tt.ptr<f32>>
  %pa0 = tt.addptr %pa, %offa : tensor<64x32x!tt.ptr<f32>>, tensor<64x32xi32>
  %rkb1 = tt.expand_dims %rk {axis = 1 : i32} : tensor<32xi32> -> tensor<32x1xi32>
  %rkb2 = arith.muli %rkb1, %sb : tensor<32x1xi32>
  %rkb = tt.broadcast %rkb2 : tensor<32x1xi32> -> tensor<32x16xi32>
  %rn2 = tt.expand_dims %rn {axis = 0 : i32} : tensor<16xi32> -> tensor<1x16xi32>
  %rnb = tt.broadcast %rn2 : tensor<1x16xi32> -> tensor<32x16xi32>
  %offb = arith.addi %rkb, %rnb : tensor<32x16xi32>
  %pb = tt.splat %b : !tt.ptr<f32> -> tensor<32x16x!tt.ptr<f32>>
  %pb0 = tt.addptr %pb, %offb : tensor<32x16x!tt.ptr<f32>>, tensor<32x16xi32>
  %r:3 = scf.for %k = %c0 to %n step %c1 iter_args(%xa = %pa0, %xb = %pb0, %acc = %zero) -> (tensor<64x32x!tt.ptr<f32>>, tensor<32x16x!tt.ptr<f32>>, tensor<64x16xf32>) : i32 {
    %va = tt.load %xa : tensor<64x32x!tt.ptr<f32>>
    %vb = tt.load %xb : tensor<32x16x!tt.ptr<f32>>
    %d = tt.dot %va, %vb, %acc, inputPrecision = tf32 : tensor<64x32xf32> * tensor<32x16xf32> -> tensor<64x16xf32>
    %na = tt.addptr %xa, %stepA : tensor<64x32x!tt.ptr<f32>>, tensor<64x32xi32>
    %nb = tt.addptr %xb, %stepB : tensor<32x16x!tt.ptr<f32>>, tensor<32x16xi32>
    scf.yield %na, %nb, %d : tensor<64x32x!tt.ptr<f32>>, tensor<32x16x!tt.ptr<f32>>, tensor<64x16xf32>
  }
  %rc = tt.broadcast %rn2 : tensor<1x16xi32> -> tensor<64x16xi32>
  %pc = tt.splat %c : !tt.ptr<f32> -> tensor<64x16x!tt.ptr<f32>>
  %pc2 = tt.addptr %pc, %rc : tensor<64x16x!tt.ptr<f32>>, tensor<64x16xi32>
  tt.store %pc2, %r#2 : tensor<64x16x!tt.ptr<f32>>
  tt.return
}

