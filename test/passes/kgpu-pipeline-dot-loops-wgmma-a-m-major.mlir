// RUN: kiln-opt %s -kgpu-assign-layouts="num-warps=8 mma-version=3" -kgpu-pipeline-dot-loops="num-stages=3 wgmma=true" | FileCheck %s
// RUN: kiln-opt %s -kgpu-assign-layouts="num-warps=8 mma-version=3" -kgpu-pipeline-dot-loops="num-stages=3 wgmma=true" -kgpu-convert-to-llvm | FileCheck %s --check-prefix=LLVM
// RUN: kiln-opt %s -kgpu-assign-layouts="num-warps=8 mma-version=2" -kgpu-pipeline-dot-loops="num-stages=3" | FileCheck %s --check-prefix=SYNC

// A stored K x M (contiguous along M, as x^T @ y gives it) in a wgmma K
// loop: the pipeline copies A's tile transposed, K rows of M (16-byte
// cp.async along M), in swizzle 2's arrangement (an N-major B's: 64-row
// column blocks 1024 bytes apart, 8-row K groups 1024 * 128 / 64 = 2048
// apart; 64 x 256 = 16384 bytes a slot), and wgmma reads it MN-major
// (imm-trans-a: layout col). Each warpgroup's 64 rows are one column block
// (its start 1024 bytes further, `group * 1024`); a K step of 16 rows
// advances the descriptor 2 x 2048 bytes (256 units), B's 2 x 1024 (128).
// The four K steps are one inline asm statement (imm-trans-a 1 for the
// M-major A, imm-trans-b 1 for the N-major B), the 32 accumulators tied,
// its descriptor operands A's and B's of each K step in turn.
// CHECK: #kgpu.mma<{version = 2, warpsPerCTA = [8, 1], instrShape = [16, 8]}>
// CHECK-LABEL: tt.func public @a_m_major
// CHECK: kgpu.async_copy {{.*}} {offset = 0 : i64, rowStride = 128 : i64, slotBytes = 16384 : i64, swizzle = 2 : i32, transpose} : tensor<128x64x!tt.ptr<f16>
// CHECK: kgpu.async_copy {{.*}} {offset = 49152 : i64, rowStride = 64 : i64, slotBytes = 8192 : i64, swizzle = 2 : i32} : tensor<64x64x!tt.ptr<f16>
// CHECK: kgpu.local_dot {{.*}}aMMajor{{.*}}wgmma
// LLVM: kgpu.shared = 73728 : i32
// LLVM-LABEL: llvm.func @a_m_major
// LLVM: llvm.mlir.constant(1024 : i64)
// LLVM-NOT: nvvm.wgmma.mma_async
// LLVM: %[[CA:[0-9]+]] = llvm.mlir.constant(4611686568187396096 : i64)
// LLVM-NEXT: %[[DA:[0-9]+]] = llvm.or %{{.*}}, %[[CA]] : i64
// LLVM: %[[CB:[0-9]+]] = llvm.mlir.constant(4611686293309489152 : i64)
// LLVM-NEXT: %[[DB:[0-9]+]] = llvm.or %{{.*}}, %[[CB]] : i64
// LLVM-NEXT: nvvm.wgmma.fence.aligned
// LLVM-NEXT: %[[KA1:.+]] = llvm.mlir.constant(256 : i64) : i64
// LLVM-NEXT: %[[A1:.+]] = llvm.add %[[DA]], %[[KA1]] : i64
// LLVM-NEXT: %[[KB1:.+]] = llvm.mlir.constant(128 : i64) : i64
// LLVM-NEXT: %[[B1:.+]] = llvm.add %[[DB]], %[[KB1]] : i64
// LLVM-NEXT: %[[KA2:.+]] = llvm.mlir.constant(512 : i64) : i64
// LLVM-NEXT: %[[A2:.+]] = llvm.add %[[DA]], %[[KA2]] : i64
// LLVM-NEXT: %[[KB2:.+]] = llvm.mlir.constant(256 : i64) : i64
// LLVM-NEXT: %[[B2:.+]] = llvm.add %[[DB]], %[[KB2]] : i64
// LLVM-NEXT: %[[KA3:.+]] = llvm.mlir.constant(768 : i64) : i64
// LLVM-NEXT: %[[A3:.+]] = llvm.add %[[DA]], %[[KA3]] : i64
// LLVM-NEXT: %[[KB3:.+]] = llvm.mlir.constant(384 : i64) : i64
// LLVM-NEXT: %[[B3:.+]] = llvm.add %[[DB]], %[[KB3]] : i64
// LLVM-NEXT: llvm.inline_asm has_side_effects asm_dialect = att "{\0A.reg .pred p;\0Asetp.ne.b32 p, 1, 0;\0A
// LLVM-NOT: wgmma
// LLVM-SAME: wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 {$0, {{[^}]*}}, $31}, $64, $65, p, 1,  1, 1,  1;\0A
// LLVM-NOT: wgmma
// LLVM-SAME: wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 {$0, {{[^}]*}}, $31}, $66, $67, p, 1,  1, 1,  1;\0A
// LLVM-NOT: wgmma
// LLVM-SAME: wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 {$0, {{[^}]*}}, $31}, $68, $69, p, 1,  1, 1,  1;\0A
// LLVM-NOT: wgmma
// LLVM-SAME: wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 {$0, {{[^}]*}}, $31}, $70, $71, p, 1,  1, 1,  1;\0A}"
// LLVM-SAME: "{{(=f,){32}0,([0-9]+,){30}31,(l,){7}l}}" %{{[^:]*}}, %[[DA]], %[[DB]], %[[A1]], %[[B1]], %[[A2]], %[[B2]], %[[A3]], %[[B3]] : (f32,
// LLVM-NOT: wgmma.mma_async
// LLVM: nvvm.wgmma.commit.group.sync.aligned
// LLVM-NOT: nvvm.wgmma.mma_async
//
// mma.sync reads its slots with ldmatrix by rows of K: such a loop is not
// pipelined there.
// SYNC-LABEL: tt.func public @a_m_major
// SYNC-NOT: kgpu.async_copy
// SYNC: tt.dot
tt.func public @a_m_major(%a: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %b: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %c: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %n: i32) {
  %zero = arith.constant dense<0.0> : tensor<128x64xf32>
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %stepA = arith.constant dense<8192> : tensor<128x64xi32>
  %stepB = arith.constant dense<4096> : tensor<64x64xi32>
  %sa = arith.constant dense<128> : tensor<1x64xi32>
  %sb = arith.constant dense<64> : tensor<64x1xi32>
  %rm = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32>
  %rm2 = tt.expand_dims %rm {axis = 1 : i32} : tensor<128xi32> -> tensor<128x1xi32>
  %rmb = tt.broadcast %rm2 : tensor<128x1xi32> -> tensor<128x64xi32>
  %rk = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
  %rk2 = tt.expand_dims %rk {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
  %rka = arith.muli %rk2, %sa : tensor<1x64xi32>
  %rkab = tt.broadcast %rka : tensor<1x64xi32> -> tensor<128x64xi32>
  %offa = arith.addi %rmb, %rkab : tensor<128x64xi32>
  %pa = tt.splat %a : !tt.ptr<f16> -> tensor<128x64x!tt.ptr<f16>>
  %pa0 = tt.addptr %pa, %offa : tensor<128x64x!tt.ptr<f16>>, tensor<128x64xi32>
  %rkb1 = tt.expand_dims %rk {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
  %rkb2 = arith.muli %rkb1, %sb : tensor<64x1xi32>
  %rkb = tt.broadcast %rkb2 : tensor<64x1xi32> -> tensor<64x64xi32>
  %rnb = tt.broadcast %rk2 : tensor<1x64xi32> -> tensor<64x64xi32>
  %offb = arith.addi %rkb, %rnb : tensor<64x64xi32>
  %pb = tt.splat %b : !tt.ptr<f16> -> tensor<64x64x!tt.ptr<f16>>
  %pb0 = tt.addptr %pb, %offb : tensor<64x64x!tt.ptr<f16>>, tensor<64x64xi32>
  %r:3 = scf.for %k = %c0 to %n step %c1 iter_args(%xa = %pa0, %xb = %pb0, %acc = %zero) -> (tensor<128x64x!tt.ptr<f16>>, tensor<64x64x!tt.ptr<f16>>, tensor<128x64xf32>) : i32 {
    %va = tt.load %xa : tensor<128x64x!tt.ptr<f16>>
    %vb = tt.load %xb : tensor<64x64x!tt.ptr<f16>>
    %d = tt.dot %va, %vb, %acc : tensor<128x64xf16> * tensor<64x64xf16> -> tensor<128x64xf32>
    %na = tt.addptr %xa, %stepA : tensor<128x64x!tt.ptr<f16>>, tensor<128x64xi32>
    %nb = tt.addptr %xb, %stepB : tensor<64x64x!tt.ptr<f16>>, tensor<64x64xi32>
    scf.yield %na, %nb, %d : tensor<128x64x!tt.ptr<f16>>, tensor<64x64x!tt.ptr<f16>>, tensor<128x64xf32>
  }
  %rc = tt.broadcast %rk2 : tensor<1x64xi32> -> tensor<128x64xi32>
  %pc = tt.splat %c : !tt.ptr<f32> -> tensor<128x64x!tt.ptr<f32>>
  %pc2 = tt.addptr %pc, %rc : tensor<128x64x!tt.ptr<f32>>, tensor<128x64xi32>
  tt.store %pc2, %r#2 : tensor<128x64x!tt.ptr<f32>>
  tt.return
}
