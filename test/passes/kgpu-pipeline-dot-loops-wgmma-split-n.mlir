// RUN: kiln-opt %s -split-input-file -kgpu-assign-layouts="num-warps=8 mma-version=3" -kgpu-pipeline-dot-loops="num-stages=3 wgmma=true" | FileCheck %s
// RUN: kiln-opt %s -split-input-file -kgpu-assign-layouts="num-warps=8 mma-version=3" -kgpu-pipeline-dot-loops="num-stages=3 wgmma=true" -kgpu-convert-to-llvm | FileCheck %s --check-prefix=LLVM
// RUN: kiln-opt %s -split-input-file -kgpu-assign-layouts="num-warps=8 mma-version=2" -kgpu-pipeline-dot-loops="num-stages=3" | FileCheck %s --check-prefix=MMA
// RUN: kiln-opt %s -split-input-file -kgpu-assign-layouts="num-warps=8 mma-version=3 num-stages=2" -kgpu-pipeline-dot-loops="num-stages=2 wgmma=true" | FileCheck %s --check-prefix=S2
// RUN: kiln-opt %s -split-input-file -kgpu-assign-layouts="num-warps=8 mma-version=3" -kgpu-pipeline-dot-loops="num-stages=3 wgmma=false" -kgpu-convert-to-llvm | FileCheck %s --check-prefix=SYNC

// 64 rows on 8 warps with B read K-contiguous (tt.trans of a 128 x 32
// tile): too few rows for two warpgroups along M, so the warpgroups split
// N: warps 4 x 2, each warp column owning 64 contiguous columns
// (instrShape [16, 64]: a warp's tile is 8 m16n8 tiles side by side, what
// one wgmma m64n64k16 writes for its warpgroup). B's copy (N rows of K,
// swizzle 1) stores the tile as it is, and each warpgroup multiplies
// m64n64k16 on its half, B's descriptor 64 rows x 128 bytes = 8192 bytes
// further for warpgroup 1. A 64x32: 8192 bytes a slot; B 128 rows of 128
// bytes: 16384. Three of each: 73728 bytes.
// CHECK: #mma = #kgpu.mma<{version = 2, warpsPerCTA = [4, 2], instrShape = [16, 64]}>
// CHECK-LABEL: tt.func public @split_n_bt
// CHECK-NOT: interleave
// CHECK: kgpu.async_copy {{.*}} {offset = 0 : i64, rowStride = 32 : i64, slotBytes = 8192 : i64, swizzle = 1 : i32}
// CHECK: kgpu.async_copy {{.*}} {offset = 24576 : i64, rowStride = 32 : i64, slotBytes = 16384 : i64, swizzle = 1 : i32}
// CHECK: scf.for
// CHECK: kgpu.local_dot {{.*}} {aOffset = 0 : i64, aSlotBytes = 8192 : i64, aType = tensor<64x32xf16, #{{.*}}>, bKMajor, bOffset = 24576 : i64, bSlotBytes = 16384 : i64, bType = tensor<32x128xf16, #{{.*}}>, noWait, numSlots = 3 : i32, wgmma} : tensor<64x128xf32, #mma>
//
// The warpgroup (warp / 4): row block group % 1, N part group / 1, B at
// +8192 bytes a part; both descriptors K-major. Its two K steps are one
// inline asm of two m64n64k16 (its 64 of the 128 columns; imm-trans-b 0),
// the 32 accumulators tied.
// LLVM: kgpu.shared = 73728 : i32
// LLVM-LABEL: llvm.func @split_n_bt
// LLVM: %[[WG:.*]] = llvm.zext %{{.*}} : i32 to i64
// LLVM: %[[ONE:.*]] = llvm.mlir.constant(1 : i64) : i64
// LLVM-NEXT: %[[ROWS:.*]] = llvm.urem %[[WG]], %[[ONE]] : i64
// LLVM-NEXT: %[[PART:.*]] = llvm.udiv %[[WG]], %[[ONE]] : i64
// LLVM: llvm.mlir.constant(24576 : i64)
// LLVM: %[[PB:.*]] = llvm.mlir.constant(8192 : i64) : i64
// LLVM-NEXT: llvm.mul %[[PART]], %[[PB]] : i64
// LLVM-NOT: nvvm.wgmma.mma_async
// LLVM: llvm.mlir.constant(4611686293305360384 : i64)
// LLVM: llvm.mlir.constant(4611686293305360384 : i64)
// LLVM: nvvm.wgmma.fence.aligned
// LLVM-NOT: wgmma.mma_async
// LLVM: llvm.inline_asm has_side_effects asm_dialect = att "{\0A.reg .pred p;\0Asetp.ne.b32 p, 1, 0;\0A
// LLVM-NOT: wgmma
// LLVM-SAME: wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 {$0, {{[^}]*}}, $31}, $64, $65, p, 1,  1, 0,  0;\0A
// LLVM-NOT: wgmma
// LLVM-SAME: wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 {$0, {{[^}]*}}, $31}, $66, $67, p, 1,  1, 0,  0;\0A}"
// LLVM-SAME: "{{(=f,){32}0,([0-9]+,){30}31,l,l,l,l}}"
// LLVM-NOT: wgmma.mma_async
// LLVM: nvvm.wgmma.commit.group.sync.aligned
// LLVM-NOT: nvvm.wgmma.mma_async
//
// mma.sync (sm_90, no wgmma) splits the warps as before, without
// interleave.
// MMA-LABEL: tt.func public @split_n_bt
// MMA-NOT: interleave
// MMA: kgpu.local_dot
// MMA-NOT: wgmma
//
// The same layout on mma.sync (kgpu-pipeline-dot-loops without wgmma):
// each warp multiplies its 8 m16n8 tiles per K step of 16, 2 steps.
// SYNC-LABEL: llvm.func @split_n_bt
// SYNC-COUNT-16: nvvm.mma.sync
// SYNC-NOT: nvvm.mma.sync
// SYNC-NOT: wgmma
// SYNC: llvm.return
tt.func public @split_n_bt(%a: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %b: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %c: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %n: i32) {
  %zero = arith.constant dense<0.0> : tensor<64x128xf32>
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %stepA = arith.constant dense<32> : tensor<64x32xi32>
  %stepB = arith.constant dense<32> : tensor<128x32xi32>
  %sa = arith.constant dense<32> : tensor<64x1xi32>
  %sb = arith.constant dense<1024> : tensor<128x1xi32>
  %rm = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
  %rn = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32>
  %rk = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32>
  %rm2 = tt.expand_dims %rm {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
  %rma = arith.muli %rm2, %sa : tensor<64x1xi32>
  %rmab = tt.broadcast %rma : tensor<64x1xi32> -> tensor<64x32xi32>
  %rk2 = tt.expand_dims %rk {axis = 0 : i32} : tensor<32xi32> -> tensor<1x32xi32>
  %rka = tt.broadcast %rk2 : tensor<1x32xi32> -> tensor<64x32xi32>
  %offa = arith.addi %rmab, %rka : tensor<64x32xi32>
  %pa = tt.splat %a : !tt.ptr<f16> -> tensor<64x32x!tt.ptr<f16>>
  %pa0 = tt.addptr %pa, %offa : tensor<64x32x!tt.ptr<f16>>, tensor<64x32xi32>
  %rn1 = tt.expand_dims %rn {axis = 1 : i32} : tensor<128xi32> -> tensor<128x1xi32>
  %rnb1 = arith.muli %rn1, %sb : tensor<128x1xi32>
  %rnb = tt.broadcast %rnb1 : tensor<128x1xi32> -> tensor<128x32xi32>
  %rkb = tt.broadcast %rk2 : tensor<1x32xi32> -> tensor<128x32xi32>
  %offb = arith.addi %rnb, %rkb : tensor<128x32xi32>
  %pb = tt.splat %b : !tt.ptr<f16> -> tensor<128x32x!tt.ptr<f16>>
  %pb0 = tt.addptr %pb, %offb : tensor<128x32x!tt.ptr<f16>>, tensor<128x32xi32>
  %r:3 = scf.for %k = %c0 to %n step %c1 iter_args(%xa = %pa0, %xb = %pb0, %acc = %zero) -> (tensor<64x32x!tt.ptr<f16>>, tensor<128x32x!tt.ptr<f16>>, tensor<64x128xf32>) : i32 {
    %va = tt.load %xa : tensor<64x32x!tt.ptr<f16>>
    %vb = tt.load %xb : tensor<128x32x!tt.ptr<f16>>
    %vbt = tt.trans %vb {order = array<i32: 1, 0>} : tensor<128x32xf16> -> tensor<32x128xf16>
    %d = tt.dot %va, %vbt, %acc : tensor<64x32xf16> * tensor<32x128xf16> -> tensor<64x128xf32>
    %na = tt.addptr %xa, %stepA : tensor<64x32x!tt.ptr<f16>>, tensor<64x32xi32>
    %nb = tt.addptr %xb, %stepB : tensor<128x32x!tt.ptr<f16>>, tensor<128x32xi32>
    scf.yield %na, %nb, %d : tensor<64x32x!tt.ptr<f16>>, tensor<128x32x!tt.ptr<f16>>, tensor<64x128xf32>
  }
  %rn2 = tt.expand_dims %rn {axis = 0 : i32} : tensor<128xi32> -> tensor<1x128xi32>
  %rc = tt.broadcast %rn2 : tensor<1x128xi32> -> tensor<64x128xi32>
  %pc = tt.splat %c : !tt.ptr<f32> -> tensor<64x128x!tt.ptr<f32>>
  %pc2 = tt.addptr %pc, %rc : tensor<64x128x!tt.ptr<f32>>, tensor<64x128xi32>
  tt.store %pc2, %r#2 : tensor<64x128x!tt.ptr<f32>>
  tt.return
}

// -----

// The same with B read N-contiguous (Inductor's bmm, 64x128x32): the
// warpgroups split N too, and B's copy (K rows of N, swizzle 2) stores the
// tile as it is: warpgroup 1's 64 columns are the slot's second 64-column
// block, 1024 bytes further (B MN-major: leading offset 1024 between the
// column blocks, stride 2048 between 8-row K groups). The fifteenth
// session's layout dealt 8-column tiles to the warp columns in turn, so
// this copy interleaved and each shared-memory phase wrote both halves
// (2-way bank conflicts; triton_bmm 8.4 -> 9.8 us on the H200), and such
// dots kept mma.sync. A 64x32: 8192 bytes a slot; B 32 rows of 256 bytes:
// 8192.
// CHECK: #mma = #kgpu.mma<{version = 2, warpsPerCTA = [4, 2], instrShape = [16, 64]}>
// CHECK-LABEL: tt.func public @split_n(
// CHECK-NOT: interleave
// CHECK: kgpu.async_copy {{.*}} {offset = 24576 : i64, rowStride = 128 : i64, slotBytes = 8192 : i64, swizzle = 2 : i32}
// CHECK: scf.for
// CHECK: kgpu.local_dot {{.*}} {aOffset = 0 : i64, aSlotBytes = 8192 : i64, aType = tensor<64x32xf16, #{{.*}}>, bOffset = 24576 : i64, bSlotBytes = 8192 : i64, bType = tensor<32x128xf16, #{{.*}}>, noWait, numSlots = 3 : i32, wgmma} : tensor<64x128xf32, #mma>
// Each warpgroup: one inline asm of two m64n64k16 (the two K steps;
// imm-trans-b 1 for the N-major B), the 32 accumulators tied.
// LLVM-LABEL: llvm.func @split_n(
// LLVM: %[[WG:.*]] = llvm.zext %{{.*}} : i32 to i64
// LLVM: %[[ONE:.*]] = llvm.mlir.constant(1 : i64) : i64
// LLVM-NEXT: %[[ROWS:.*]] = llvm.urem %[[WG]], %[[ONE]] : i64
// LLVM-NEXT: %[[PART:.*]] = llvm.udiv %[[WG]], %[[ONE]] : i64
// LLVM: llvm.mlir.constant(24576 : i64)
// LLVM: %[[PB:.*]] = llvm.mlir.constant(1024 : i64) : i64
// LLVM-NEXT: llvm.mul %[[PART]], %[[PB]] : i64
// LLVM-NOT: nvvm.wgmma.mma_async
// LLVM: llvm.mlir.constant(4611686568187396096 : i64)
// LLVM: nvvm.wgmma.fence.aligned
// LLVM-NOT: wgmma.mma_async
// LLVM: llvm.inline_asm has_side_effects asm_dialect = att "{\0A.reg .pred p;\0Asetp.ne.b32 p, 1, 0;\0A
// LLVM-NOT: wgmma
// LLVM-SAME: wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 {$0, {{[^}]*}}, $31}, $64, $65, p, 1,  1, 0,  1;\0A
// LLVM-NOT: wgmma
// LLVM-SAME: wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 {$0, {{[^}]*}}, $31}, $66, $67, p, 1,  1, 0,  1;\0A}"
// LLVM-SAME: "{{(=f,){32}0,([0-9]+,){30}31,l,l,l,l}}"
// LLVM-NOT: wgmma.mma_async
// LLVM: nvvm.wgmma.commit.group.sync.aligned
// LLVM-NOT: nvvm.wgmma.mma_async
// MMA-LABEL: tt.func public @split_n(
// MMA-NOT: interleave
// MMA: kgpu.local_dot
// MMA-NOT: wgmma
// SYNC-LABEL: llvm.func @split_n(
// SYNC-COUNT-16: nvvm.mma.sync
// SYNC-NOT: nvvm.mma.sync
// SYNC-NOT: wgmma
// SYNC: llvm.return
tt.func public @split_n(%a: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %b: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %c: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %n: i32) {
  %zero = arith.constant dense<0.0> : tensor<64x128xf32>
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %stepA = arith.constant dense<32> : tensor<64x32xi32>
  %stepB = arith.constant dense<4096> : tensor<32x128xi32>
  %sa = arith.constant dense<32> : tensor<64x1xi32>
  %sb = arith.constant dense<128> : tensor<32x1xi32>
  %rn = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32>
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
  %rkb = tt.broadcast %rkb2 : tensor<32x1xi32> -> tensor<32x128xi32>
  %rn2 = tt.expand_dims %rn {axis = 0 : i32} : tensor<128xi32> -> tensor<1x128xi32>
  %rnb = tt.broadcast %rn2 : tensor<1x128xi32> -> tensor<32x128xi32>
  %offb = arith.addi %rkb, %rnb : tensor<32x128xi32>
  %pb = tt.splat %b : !tt.ptr<f16> -> tensor<32x128x!tt.ptr<f16>>
  %pb0 = tt.addptr %pb, %offb : tensor<32x128x!tt.ptr<f16>>, tensor<32x128xi32>
  %r:3 = scf.for %k = %c0 to %n step %c1 iter_args(%xa = %pa0, %xb = %pb0, %acc = %zero) -> (tensor<64x32x!tt.ptr<f16>>, tensor<32x128x!tt.ptr<f16>>, tensor<64x128xf32>) : i32 {
    %va = tt.load %xa : tensor<64x32x!tt.ptr<f16>>
    %vb = tt.load %xb : tensor<32x128x!tt.ptr<f16>>
    %d = tt.dot %va, %vb, %acc : tensor<64x32xf16> * tensor<32x128xf16> -> tensor<64x128xf32>
    %na = tt.addptr %xa, %stepA : tensor<64x32x!tt.ptr<f16>>, tensor<64x32xi32>
    %nb = tt.addptr %xb, %stepB : tensor<32x128x!tt.ptr<f16>>, tensor<32x128xi32>
    scf.yield %na, %nb, %d : tensor<64x32x!tt.ptr<f16>>, tensor<32x128x!tt.ptr<f16>>, tensor<64x128xf32>
  }
  %rc = tt.broadcast %rn2 : tensor<1x128xi32> -> tensor<64x128xi32>
  %pc = tt.splat %c : !tt.ptr<f32> -> tensor<64x128x!tt.ptr<f32>>
  %pc2 = tt.addptr %pc, %rc : tensor<64x128x!tt.ptr<f32>>, tensor<64x128xi32>
  tt.store %pc2, %r#2 : tensor<64x128x!tt.ptr<f32>>
  tt.return
}

// -----

// B scaled inside the loop: kgpu-pipeline-dot-loops cannot copy it into
// wgmma's slots, so the dot would run mma.sync on the split-N layout,
// which reads more fragments per mma.sync than mma.sync's own [2, 4]
// split (H200, twenty-fifth session: 14.59 -> 15.17 us); it keeps [2, 4].
// CHECK: #mma = #kgpu.mma<{version = 2, warpsPerCTA = [2, 4], instrShape = [16, 8]}>
// CHECK-LABEL: tt.func public @split_n_scaled_b(
// CHECK-NOT: kgpu.wgmma_split_n
// CHECK: tt.dot
// CHECK-NOT: kgpu.wgmma_split_n
// CHECK: tt.return
// LLVM-LABEL: llvm.func @split_n_scaled_b(
// LLVM-NOT: wgmma
// LLVM: llvm.return
// MMA-LABEL: tt.func public @split_n_scaled_b(
// S2-LABEL: tt.func public @split_n_scaled_b(
// SYNC-LABEL: llvm.func @split_n_scaled_b(
tt.func public @split_n_scaled_b(%a: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %b: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %c: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %n: i32) {
  %zero = arith.constant dense<0.0> : tensor<64x128xf32>
  %two = arith.constant dense<2.0> : tensor<32x128xf16>
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %stepA = arith.constant dense<32> : tensor<64x32xi32>
  %stepB = arith.constant dense<4096> : tensor<32x128xi32>
  %sa = arith.constant dense<32> : tensor<64x1xi32>
  %sb = arith.constant dense<128> : tensor<32x1xi32>
  %rn = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32>
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
  %rkb = tt.broadcast %rkb2 : tensor<32x1xi32> -> tensor<32x128xi32>
  %rn2 = tt.expand_dims %rn {axis = 0 : i32} : tensor<128xi32> -> tensor<1x128xi32>
  %rnb = tt.broadcast %rn2 : tensor<1x128xi32> -> tensor<32x128xi32>
  %offb = arith.addi %rkb, %rnb : tensor<32x128xi32>
  %pb = tt.splat %b : !tt.ptr<f16> -> tensor<32x128x!tt.ptr<f16>>
  %pb0 = tt.addptr %pb, %offb : tensor<32x128x!tt.ptr<f16>>, tensor<32x128xi32>
  %r:3 = scf.for %k = %c0 to %n step %c1 iter_args(%xa = %pa0, %xb = %pb0, %acc = %zero) -> (tensor<64x32x!tt.ptr<f16>>, tensor<32x128x!tt.ptr<f16>>, tensor<64x128xf32>) : i32 {
    %va = tt.load %xa : tensor<64x32x!tt.ptr<f16>>
    %vb0 = tt.load %xb : tensor<32x128x!tt.ptr<f16>>
    %vb = arith.mulf %vb0, %two : tensor<32x128xf16>
    %d = tt.dot %va, %vb, %acc : tensor<64x32xf16> * tensor<32x128xf16> -> tensor<64x128xf32>
    %na = tt.addptr %xa, %stepA : tensor<64x32x!tt.ptr<f16>>, tensor<64x32xi32>
    %nb = tt.addptr %xb, %stepB : tensor<32x128x!tt.ptr<f16>>, tensor<32x128xi32>
    scf.yield %na, %nb, %d : tensor<64x32x!tt.ptr<f16>>, tensor<32x128x!tt.ptr<f16>>, tensor<64x128xf32>
  }
  %rc = tt.broadcast %rn2 : tensor<1x128xi32> -> tensor<64x128xi32>
  %pc = tt.splat %c : !tt.ptr<f32> -> tensor<64x128x!tt.ptr<f32>>
  %pc2 = tt.addptr %pc, %rc : tensor<64x128x!tt.ptr<f32>>, tensor<64x128xi32>
  tt.store %pc2, %r#2 : tensor<64x128x!tt.ptr<f32>>
  tt.return
}

// -----

// 256 x 128 x 32 over 2 stages: wgmma at K 32 wants 3 or more, so
// kgpu-assign-layouts keeps mma.sync, whose warps (splitWarps) happen to
// be 4 x 2 too. Only dots kgpu-assign-layouts chose for the N split
// (kgpu.wgmma_split_n) take wgmma with warps along N, so this loop stays
// on mma.sync, pipelined (helper-47's break-test: it went to wgmma).
// S2: #mma = #kgpu.mma<{version = 2, warpsPerCTA = [4, 2], instrShape = [16, 8]}>
// S2-LABEL: tt.func public @mma_sync_4x2
// S2-NOT: interleave
// S2: kgpu.local_dot {{.*}}numSlots = 2 : i32}
// S2-NOT: wgmma
// CHECK-LABEL: tt.func public @mma_sync_4x2
// LLVM-LABEL: llvm.func @mma_sync_4x2
// MMA-LABEL: tt.func public @mma_sync_4x2
tt.func public @mma_sync_4x2(%a: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %b: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %c: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %n: i32) {
  %zero = arith.constant dense<0.0> : tensor<256x128xf32>
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %stepA = arith.constant dense<32> : tensor<256x32xi32>
  %stepB = arith.constant dense<32> : tensor<128x32xi32>
  %sa = arith.constant dense<32> : tensor<256x1xi32>
  %sb = arith.constant dense<1024> : tensor<128x1xi32>
  %rm = tt.make_range {end = 256 : i32, start = 0 : i32} : tensor<256xi32>
  %rn = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32>
  %rk = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32>
  %rm2 = tt.expand_dims %rm {axis = 1 : i32} : tensor<256xi32> -> tensor<256x1xi32>
  %rma = arith.muli %rm2, %sa : tensor<256x1xi32>
  %rmab = tt.broadcast %rma : tensor<256x1xi32> -> tensor<256x32xi32>
  %rk2 = tt.expand_dims %rk {axis = 0 : i32} : tensor<32xi32> -> tensor<1x32xi32>
  %rka = tt.broadcast %rk2 : tensor<1x32xi32> -> tensor<256x32xi32>
  %offa = arith.addi %rmab, %rka : tensor<256x32xi32>
  %pa = tt.splat %a : !tt.ptr<f16> -> tensor<256x32x!tt.ptr<f16>>
  %pa0 = tt.addptr %pa, %offa : tensor<256x32x!tt.ptr<f16>>, tensor<256x32xi32>
  %rn1 = tt.expand_dims %rn {axis = 1 : i32} : tensor<128xi32> -> tensor<128x1xi32>
  %rnb1 = arith.muli %rn1, %sb : tensor<128x1xi32>
  %rnb = tt.broadcast %rnb1 : tensor<128x1xi32> -> tensor<128x32xi32>
  %rkb = tt.broadcast %rk2 : tensor<1x32xi32> -> tensor<128x32xi32>
  %offb = arith.addi %rnb, %rkb : tensor<128x32xi32>
  %pb = tt.splat %b : !tt.ptr<f16> -> tensor<128x32x!tt.ptr<f16>>
  %pb0 = tt.addptr %pb, %offb : tensor<128x32x!tt.ptr<f16>>, tensor<128x32xi32>
  %r:3 = scf.for %k = %c0 to %n step %c1 iter_args(%xa = %pa0, %xb = %pb0, %acc = %zero) -> (tensor<256x32x!tt.ptr<f16>>, tensor<128x32x!tt.ptr<f16>>, tensor<256x128xf32>) : i32 {
    %va = tt.load %xa : tensor<256x32x!tt.ptr<f16>>
    %vb = tt.load %xb : tensor<128x32x!tt.ptr<f16>>
    %vbt = tt.trans %vb {order = array<i32: 1, 0>} : tensor<128x32xf16> -> tensor<32x128xf16>
    %d = tt.dot %va, %vbt, %acc : tensor<256x32xf16> * tensor<32x128xf16> -> tensor<256x128xf32>
    %na = tt.addptr %xa, %stepA : tensor<256x32x!tt.ptr<f16>>, tensor<256x32xi32>
    %nb = tt.addptr %xb, %stepB : tensor<128x32x!tt.ptr<f16>>, tensor<128x32xi32>
    scf.yield %na, %nb, %d : tensor<256x32x!tt.ptr<f16>>, tensor<128x32x!tt.ptr<f16>>, tensor<256x128xf32>
  }
  %rn2 = tt.expand_dims %rn {axis = 0 : i32} : tensor<128xi32> -> tensor<1x128xi32>
  %rc = tt.broadcast %rn2 : tensor<1x128xi32> -> tensor<256x128xi32>
  %pc = tt.splat %c : !tt.ptr<f32> -> tensor<256x128x!tt.ptr<f32>>
  %pc2 = tt.addptr %pc, %rc : tensor<256x128x!tt.ptr<f32>>, tensor<256x128xi32>
  tt.store %pc2, %r#2 : tensor<256x128x!tt.ptr<f32>>
  tt.return
}
