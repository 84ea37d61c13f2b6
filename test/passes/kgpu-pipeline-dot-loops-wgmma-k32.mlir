// RUN: kiln-opt %s -split-input-file -kgpu-assign-layouts="num-warps=4 mma-version=3" -kgpu-pipeline-dot-loops="num-stages=3 wgmma=true" | FileCheck %s
// RUN: kiln-opt %s -split-input-file -kgpu-assign-layouts="num-warps=4 mma-version=3" -kgpu-pipeline-dot-loops="num-stages=3 wgmma=true" -kgpu-convert-to-llvm | FileCheck %s --check-prefix=LLVM
// RUN: kiln-opt %s -split-input-file -kgpu-assign-layouts="num-warps=4 mma-version=3 num-stages=2" -kgpu-pipeline-dot-loops="num-stages=2 wgmma=true" | FileCheck %s --check-prefix=S2
// RUN: kiln-opt %s -split-input-file -kgpu-assign-layouts="num-warps=4 mma-version=3 num-stages=15" | FileCheck %s --check-prefix=S15

// wgmma for a K block of 32 16-bit elements (64-byte rows; Inductor's
// 64x64x32 configs): every row of a K-major tile still takes a whole
// 128-byte swizzle row, half of it used, so the 8-row atoms stay 1024
// bytes apart and the descriptors are those of a K of 64 (leading offset
// 16 >> 4, stride offset 1024 >> 4, 128-byte swizzle). wgmma reads only
// the two K steps the tile has: the second at +32 bytes (2 >> 4 units).
// Both are one inline asm statement (the 32 accumulators tied), its
// descriptor operands A's and B's of each K step in turn.
//
// A 64x32 (K-major): 64 rows x 128 bytes = 8192 bytes a slot (4096 of
// data); B 32x64 N-major: 32 rows of 128 bytes = 4096. Three of each:
// 3 * 8192 + 3 * 4096 = 36864 bytes.
// CHECK: #kgpu.mma<{version = 2, warpsPerCTA = [4, 1], instrShape = [16, 8]}>
// CHECK-LABEL: tt.func public @k32
// CHECK: kgpu.async_copy {{.*}} {offset = 0 : i64, rowStride = 32 : i64, slotBytes = 8192 : i64, swizzle = 1 : i32}
// CHECK: kgpu.async_copy {{.*}} {offset = 24576 : i64, rowStride = 64 : i64, slotBytes = 4096 : i64, swizzle = 2 : i32}
// CHECK: kgpu.local_dot {{.*}} {aOffset = 0 : i64, aSlotBytes = 8192 : i64, aType = tensor<64x32xf16, #{{.*}}>, bOffset = 24576 : i64, bSlotBytes = 4096 : i64, bType = tensor<32x64xf16, #{{.*}}>, noWait, numSlots = 3 : i32, wgmma}
//
// Over 2 stages a K of 32 stays on mma.sync (warps 2 x 2, padded rows):
// the short wgmmas of such a step left the next slot's copies exposed
// and ran slower than mma.sync on the H200 (kgpu-assign-layouts
// num-stages).
// S2: #kgpu.mma<{version = 2, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
// S2-LABEL: tt.func public @k32
// S2: kgpu.async_copy {{.*}} {offset = 0 : i64, rowStride = 40 : i64, slotBytes = 5120 : i64}
// S2-NOT: wgmma
//
// A K of 32 takes wgmma's layout only where its slots fit the 227 KB of
// shared memory: over 15 stages @k32's (8192 + 4096 bytes a stage) do,
// @k32_bt's (8192 + 8192, B K-major) do not, and it keeps mma.sync's,
// whose padded slots are smaller (helper-44's 128x256x32 over 5 stages
// failed to compile otherwise).
// S15: #kgpu.mma<{version = 2, warpsPerCTA = [4, 1], instrShape = [16, 8]}>
// S15-LABEL: tt.func public @k32(
// S15: #kgpu.mma<{version = 2, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
// S15-LABEL: tt.func public @k32_bt(
// LLVM: kgpu.shared = 36864 : i32
// LLVM-LABEL: llvm.func @k32
// LLVM-NOT: nvvm.wgmma.mma_async
// LLVM: %[[CA:[0-9]+]] = llvm.mlir.constant(4611686293305360384 : i64)
// LLVM-NEXT: %[[DA:[0-9]+]] = llvm.or %{{.*}}, %[[CA]] : i64
// LLVM: %[[CB:[0-9]+]] = llvm.mlir.constant(4611686293309489152 : i64)
// LLVM-NEXT: %[[DB:[0-9]+]] = llvm.or %{{.*}}, %[[CB]] : i64
// LLVM-NEXT: nvvm.wgmma.fence.aligned
// LLVM-NEXT: %[[K1:.+]] = llvm.mlir.constant(2 : i64) : i64
// LLVM-NEXT: %[[A1:.+]] = llvm.add %[[DA]], %[[K1]] : i64
// LLVM-NEXT: %[[K1B:.+]] = llvm.mlir.constant(128 : i64) : i64
// LLVM-NEXT: %[[B1:.+]] = llvm.add %[[DB]], %[[K1B]] : i64
// LLVM-NEXT: llvm.inline_asm has_side_effects asm_dialect = att "{\0A.reg .pred p;\0Asetp.ne.b32 p, 1, 0;\0A
// LLVM-NOT: wgmma
// LLVM-SAME: wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 {$0, {{[^}]*}}, $31}, $64, $65, p, 1,  1, 0,  1;\0A
// LLVM-NOT: wgmma
// LLVM-SAME: wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 {$0, {{[^}]*}}, $31}, $66, $67, p, 1,  1, 0,  1;\0A}"
// LLVM-SAME: "{{(=f,){32}0,([0-9]+,){30}31,l,l,l,l}}" %{{[^:]*}}, %[[DA]], %[[DB]], %[[A1]], %[[B1]] : (f32,
// LLVM-NOT: wgmma.mma_async
// LLVM: nvvm.wgmma.commit.group.sync.aligned
tt.func public @k32(%a: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %b: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %c: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %n: i32) {
  %zero = arith.constant dense<0.0> : tensor<64x64xf32>
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %stepA = arith.constant dense<32> : tensor<64x32xi32>
  %stepB = arith.constant dense<2048> : tensor<32x64xi32>
  %sa = arith.constant dense<32> : tensor<64x1xi32>
  %sb = arith.constant dense<64> : tensor<32x1xi32>
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
  %rkb = tt.broadcast %rkb2 : tensor<32x1xi32> -> tensor<32x64xi32>
  %rn2 = tt.expand_dims %rm {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
  %rnb = tt.broadcast %rn2 : tensor<1x64xi32> -> tensor<32x64xi32>
  %offb = arith.addi %rkb, %rnb : tensor<32x64xi32>
  %pb = tt.splat %b : !tt.ptr<f16> -> tensor<32x64x!tt.ptr<f16>>
  %pb0 = tt.addptr %pb, %offb : tensor<32x64x!tt.ptr<f16>>, tensor<32x64xi32>
  %r:3 = scf.for %k = %c0 to %n step %c1 iter_args(%xa = %pa0, %xb = %pb0, %acc = %zero) -> (tensor<64x32x!tt.ptr<f16>>, tensor<32x64x!tt.ptr<f16>>, tensor<64x64xf32>) : i32 {
    %va = tt.load %xa : tensor<64x32x!tt.ptr<f16>>
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

// B read as N rows of K (tt.trans of a 64x32 load): B is K-major like A,
// 64 rows of 128 bytes = 8192 bytes a slot; both descriptors K-major, and
// both step 32 bytes along the rows for the second K step.
// CHECK-LABEL: tt.func public @k32_bt
// CHECK: kgpu.async_copy {{.*}} {offset = 0 : i64, rowStride = 32 : i64, slotBytes = 8192 : i64, swizzle = 1 : i32}
// CHECK: kgpu.async_copy {{.*}} {offset = 24576 : i64, rowStride = 32 : i64, slotBytes = 8192 : i64, swizzle = 1 : i32}
// LLVM: kgpu.shared = 49152 : i32
// LLVM-LABEL: llvm.func @k32_bt
// LLVM-NOT: nvvm.wgmma.mma_async
// LLVM: %[[CA:[0-9]+]] = llvm.mlir.constant(4611686293305360384 : i64)
// LLVM-NEXT: %[[DA:[0-9]+]] = llvm.or %{{.*}}, %[[CA]] : i64
// LLVM: %[[CB:[0-9]+]] = llvm.mlir.constant(4611686293305360384 : i64)
// LLVM-NEXT: %[[DB:[0-9]+]] = llvm.or %{{.*}}, %[[CB]] : i64
// LLVM-NEXT: nvvm.wgmma.fence.aligned
// LLVM-NEXT: %[[K1:.+]] = llvm.mlir.constant(2 : i64) : i64
// LLVM-NEXT: %[[A1:.+]] = llvm.add %[[DA]], %[[K1]] : i64
// LLVM-NEXT: %[[K1B:.+]] = llvm.mlir.constant(2 : i64) : i64
// LLVM-NEXT: %[[B1:.+]] = llvm.add %[[DB]], %[[K1B]] : i64
// LLVM-NEXT: llvm.inline_asm has_side_effects asm_dialect = att "{\0A.reg .pred p;\0Asetp.ne.b32 p, 1, 0;\0A
// LLVM-NOT: wgmma
// LLVM-SAME: wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 {$0, {{[^}]*}}, $31}, $64, $65, p, 1,  1, 0,  0;\0A
// LLVM-NOT: wgmma
// LLVM-SAME: wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 {$0, {{[^}]*}}, $31}, $66, $67, p, 1,  1, 0,  0;\0A}"
// LLVM-SAME: "{{(=f,){32}0,([0-9]+,){30}31,l,l,l,l}}" %{{[^:]*}}, %[[DA]], %[[DB]], %[[A1]], %[[B1]] : (f32,
// LLVM-NOT: wgmma.mma_async
// LLVM: nvvm.wgmma.commit.group.sync.aligned
// LLVM-NOT: nvvm.wgmma.mma_async
tt.func public @k32_bt(%a: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %b: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %c: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %n: i32) {
  %zero = arith.constant dense<0.0> : tensor<64x64xf32>
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %stepA = arith.constant dense<32> : tensor<64x32xi32>
  %stepB = arith.constant dense<32> : tensor<64x32xi32>
  %sa = arith.constant dense<32> : tensor<64x1xi32>
  %sb = arith.constant dense<64> : tensor<32x1xi32>
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
  %rn2 = tt.expand_dims %rm {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
  %pb = tt.splat %b : !tt.ptr<f16> -> tensor<64x32x!tt.ptr<f16>>
  %pb0 = tt.addptr %pb, %offa : tensor<64x32x!tt.ptr<f16>>, tensor<64x32xi32>
  %r:3 = scf.for %k = %c0 to %n step %c1 iter_args(%xa = %pa0, %xb = %pb0, %acc = %zero) -> (tensor<64x32x!tt.ptr<f16>>, tensor<64x32x!tt.ptr<f16>>, tensor<64x64xf32>) : i32 {
    %va = tt.load %xa : tensor<64x32x!tt.ptr<f16>>
    %vbt = tt.load %xb : tensor<64x32x!tt.ptr<f16>>
    %vb = tt.trans %vbt {order = array<i32: 1, 0>} : tensor<64x32xf16> -> tensor<32x64xf16>
    %d = tt.dot %va, %vb, %acc : tensor<64x32xf16> * tensor<32x64xf16> -> tensor<64x64xf32>
    %na = tt.addptr %xa, %stepA : tensor<64x32x!tt.ptr<f16>>, tensor<64x32xi32>
    %nb = tt.addptr %xb, %stepB : tensor<64x32x!tt.ptr<f16>>, tensor<64x32xi32>
    scf.yield %na, %nb, %d : tensor<64x32x!tt.ptr<f16>>, tensor<64x32x!tt.ptr<f16>>, tensor<64x64xf32>
  }
  %rc = tt.broadcast %rn2 : tensor<1x64xi32> -> tensor<64x64xi32>
  %pc = tt.splat %c : !tt.ptr<f32> -> tensor<64x64x!tt.ptr<f32>>
  %pc2 = tt.addptr %pc, %rc : tensor<64x64x!tt.ptr<f32>>, tensor<64x64xi32>
  tt.store %pc2, %r#2 : tensor<64x64x!tt.ptr<f32>>
  tt.return
}

// -----

// A K block of 16 (32-byte rows) stays on mma.sync: warps 2 x 2, padded
// rows (24 and 72 elements) read with ldmatrix, no swizzle.
// CHECK: #kgpu.mma<{version = 2, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
// CHECK-LABEL: tt.func public @k16
// CHECK: kgpu.async_copy {{.*}} {offset = 0 : i64, rowStride = 24 : i64, slotBytes = 3072 : i64}
// CHECK: kgpu.async_copy {{.*}} {offset = 9216 : i64, rowStride = 72 : i64, slotBytes = 2304 : i64}
// LLVM-LABEL: llvm.func @k16
// LLVM-NOT: nvvm.wgmma.mma_async
// LLVM: nvvm.mma.sync
// LLVM-NOT: nvvm.wgmma.mma_async
tt.func public @k16(%a: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %b: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %c: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %n: i32) {
  %zero = arith.constant dense<0.0> : tensor<64x64xf32>
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %stepA = arith.constant dense<16> : tensor<64x16xi32>
  %stepB = arith.constant dense<1024> : tensor<16x64xi32>
  %sa = arith.constant dense<16> : tensor<64x1xi32>
  %sb = arith.constant dense<64> : tensor<16x1xi32>
  %rm = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
  %rm2 = tt.expand_dims %rm {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
  %rma = arith.muli %rm2, %sa : tensor<64x1xi32>
  %rmab = tt.broadcast %rma : tensor<64x1xi32> -> tensor<64x16xi32>
  %rk = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
  %rk2 = tt.expand_dims %rk {axis = 0 : i32} : tensor<16xi32> -> tensor<1x16xi32>
  %rka = tt.broadcast %rk2 : tensor<1x16xi32> -> tensor<64x16xi32>
  %offa = arith.addi %rmab, %rka : tensor<64x16xi32>
  %pa = tt.splat %a : !tt.ptr<f16> -> tensor<64x16x!tt.ptr<f16>>
  %pa0 = tt.addptr %pa, %offa : tensor<64x16x!tt.ptr<f16>>, tensor<64x16xi32>
  %rkb1 = tt.expand_dims %rk {axis = 1 : i32} : tensor<16xi32> -> tensor<16x1xi32>
  %rkb2 = arith.muli %rkb1, %sb : tensor<16x1xi32>
  %rkb = tt.broadcast %rkb2 : tensor<16x1xi32> -> tensor<16x64xi32>
  %rn2 = tt.expand_dims %rm {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
  %rnb = tt.broadcast %rn2 : tensor<1x64xi32> -> tensor<16x64xi32>
  %offb = arith.addi %rkb, %rnb : tensor<16x64xi32>
  %pb = tt.splat %b : !tt.ptr<f16> -> tensor<16x64x!tt.ptr<f16>>
  %pb0 = tt.addptr %pb, %offb : tensor<16x64x!tt.ptr<f16>>, tensor<16x64xi32>
  %r:3 = scf.for %k = %c0 to %n step %c1 iter_args(%xa = %pa0, %xb = %pb0, %acc = %zero) -> (tensor<64x16x!tt.ptr<f16>>, tensor<16x64x!tt.ptr<f16>>, tensor<64x64xf32>) : i32 {
    %va = tt.load %xa : tensor<64x16x!tt.ptr<f16>>
    %vb = tt.load %xb : tensor<16x64x!tt.ptr<f16>>
    %d = tt.dot %va, %vb, %acc : tensor<64x16xf16> * tensor<16x64xf16> -> tensor<64x64xf32>
    %na = tt.addptr %xa, %stepA : tensor<64x16x!tt.ptr<f16>>, tensor<64x16xi32>
    %nb = tt.addptr %xb, %stepB : tensor<16x64x!tt.ptr<f16>>, tensor<16x64xi32>
    scf.yield %na, %nb, %d : tensor<64x16x!tt.ptr<f16>>, tensor<16x64x!tt.ptr<f16>>, tensor<64x64xf32>
  }
  %rc = tt.broadcast %rn2 : tensor<1x64xi32> -> tensor<64x64xi32>
  %pc = tt.splat %c : !tt.ptr<f32> -> tensor<64x64x!tt.ptr<f32>>
  %pc2 = tt.addptr %pc, %rc : tensor<64x64x!tt.ptr<f32>>, tensor<64x64xi32>
  tt.store %pc2, %r#2 : tensor<64x64x!tt.ptr<f32>>
  tt.return
}
