// RUN: kiln-opt %s -kgpu-convert-to-llvm -canonicalize | FileCheck %s --enable-var-scope

// An f32 mma accumulator converted to a blocked layout whose threads read 8
// consecutive f32 of a row (two 16-byte loads each) goes through rows of
// two chunk planes (chunkPlaneRowBytes): 16-byte chunk k of a row sits in
// plane k % 2 at position k / 2, each plane followed by 16 bytes of
// padding. In plain padded rows the 8 lanes of each load phase read chunks
// 0, 2, ..., 14 of a row, and chunks 8 apart share banks (ncu on the H200,
// triton_mm.26SCPAPX's epilogue: 32768 bank conflicts in 65536 load
// wavefronts; 0 in 32768 with planes, store wavefronts unchanged). The
// shared memory per row is the same (the row's bytes + 32).

// 64 x 64 f32 on 4 warps ([2, 2], each warp 32 x 32): rows of 256 + 32 =
// 288 bytes, planes 128 + 16 = 144 bytes apart (18432 bytes; the module
// takes @wide's 64 x 544 = 34816).
// CHECK: kgpu.shared = 34816
// CHECK-LABEL: llvm.func @planes
// The thread's column bytes x placed at (x / 16 % 2) * 144 + x / 32 * 16
// + x % 16.
// CHECK-DAG:     %[[C144:.*]] = llvm.mlir.constant(144 : i32) : i32
// CHECK:         %[[PLANE:.*]] = llvm.mul %{{.*}}, %[[C144]] : i32
// Pair stores: an m16n8 tile's 8 columns (32 bytes, chunks 2j and 2j + 1)
// are 16 bytes of each plane; the CTA tile repeats every 16 columns (64
// bytes: 32 bytes of a plane) and every 32 rows (9216 bytes); rows 8 down
// are 2304 bytes on.
// CHECK:         %[[S:.*]] = llvm.getelementptr %{{.*}}[%{{.*}}] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
// CHECK-NEXT:    llvm.getelementptr %[[S]][2304] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
// CHECK-NEXT:    llvm.getelementptr %[[S]][32] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
// CHECK-NEXT:    llvm.getelementptr %[[S]][2336] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
// CHECK-NEXT:    llvm.getelementptr %[[S]][64] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
// CHECK-NEXT:    llvm.getelementptr %[[S]][2368] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
// CHECK-NEXT:    llvm.getelementptr %[[S]][96] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
// CHECK-NEXT:    llvm.getelementptr %[[S]][2400] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
// CHECK-NEXT:    llvm.getelementptr %[[S]][9216] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
// CHECK:         llvm.store %{{.*}}, %[[S]] {alignment = 8 : i64} : vector<2xf32>, !llvm.ptr<3>
// CHECK-COUNT-15: llvm.store %{{.*}} {alignment = 8 : i64} : vector<2xf32>, !llvm.ptr<3>
// CHECK:         nvvm.barrier0
// Loads: a thread's two chunks are one plane apart (144 bytes); its 4
// rows are 16 rows (4608 bytes) apart.
// CHECK:         %[[L:.*]] = llvm.getelementptr %{{.*}}[%{{.*}}] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
// CHECK-NEXT:    %[[L1:.*]] = llvm.getelementptr %[[L]][144] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
// CHECK-NEXT:    %[[L2:.*]] = llvm.getelementptr %[[L]][4608] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
// CHECK-NEXT:    llvm.getelementptr %[[L]][4752] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
// CHECK:         llvm.load %[[L]] {alignment = 16 : i64} : !llvm.ptr<3> -> vector<4xf32>
// CHECK:         llvm.load %[[L1]] {alignment = 16 : i64} : !llvm.ptr<3> -> vector<4xf32>
// CHECK:         llvm.load %[[L2]] {alignment = 16 : i64} : !llvm.ptr<3> -> vector<4xf32>

// 64 x 128 f32 with warps along M (addmm_gelu's epilogue): rows of 512 +
// 32 bytes, planes 272 bytes apart; 16 lanes along a row.
// CHECK-LABEL: llvm.func @wide
// CHECK:         %[[W:.*]] = llvm.getelementptr %{{.*}}[%{{.*}}] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
// CHECK-NEXT:    llvm.getelementptr %[[W]][4352] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
// CHECK-NEXT:    llvm.getelementptr %[[W]][16] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
// CHECK:         llvm.getelementptr %[[W]][240] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
// CHECK-NEXT:    llvm.getelementptr %[[W]][4592] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
// CHECK:         nvvm.barrier0
// CHECK:         %[[WL:.*]] = llvm.getelementptr %{{.*}}[%{{.*}}] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
// CHECK-NEXT:    llvm.getelementptr %[[WL]][272] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
// CHECK-NEXT:    llvm.getelementptr %[[WL]][4352] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8

// Plain padded rows (64 + 8 f32, offsets in f32) where the destination's
// threads read 16 bytes of a row (no two loads of a thread in one row) or
// have 4 lanes along a row (a load phase spans two rows).
// CHECK-LABEL: llvm.func @row4
// CHECK:         %[[R:.*]] = llvm.getelementptr %{{.*}}[%{{.*}}] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32
// CHECK-NEXT:    llvm.getelementptr %[[R]][576] : (!llvm.ptr<3>) -> !llvm.ptr<3>, f32
// CHECK-NOT:     -> !llvm.ptr<3>, i8
// CHECK-LABEL: llvm.func @narrow
// CHECK:         %[[N:.*]] = llvm.getelementptr %{{.*}}[%{{.*}}] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32
// CHECK-NEXT:    llvm.getelementptr %[[N]][576] : (!llvm.ptr<3>) -> !llvm.ptr<3>, f32
// CHECK-NOT:     -> !llvm.ptr<3>, i8
// CHECK-LABEL: llvm.func @f16_acc
// CHECK-NOT:     -> !llvm.ptr<3>, i8
// CHECK:         llvm.return

#mma = #kgpu.mma<{version = 2, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
#mma4 = #kgpu.mma<{version = 2, warpsPerCTA = [4, 1], instrShape = [16, 8]}>
#row8 = #kgpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#wide = #kgpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#row4 = #kgpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#narrow = #kgpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"kgpu.num-warps" = 4 : i32, "kgpu.threads-per-warp" = 32 : i32} {
tt.func public @planes(%p: !tt.ptr<f32>, %q: !tt.ptr<f32>) {
  %sp = tt.splat %p : !tt.ptr<f32> -> tensor<64x64x!tt.ptr<f32>, #mma>
  %v = tt.load %sp : tensor<64x64x!tt.ptr<f32>, #mma>
  %c = kgpu.convert_layout %v : tensor<64x64xf32, #mma> -> tensor<64x64xf32, #row8>
  %sq = tt.splat %q : !tt.ptr<f32> -> tensor<64x64x!tt.ptr<f32>, #row8>
  tt.store %sq, %c : tensor<64x64x!tt.ptr<f32>, #row8>
  tt.return
}
tt.func public @wide(%p: !tt.ptr<f32>, %q: !tt.ptr<f32>) {
  %sp = tt.splat %p : !tt.ptr<f32> -> tensor<64x128x!tt.ptr<f32>, #mma4>
  %v = tt.load %sp : tensor<64x128x!tt.ptr<f32>, #mma4>
  %c = kgpu.convert_layout %v : tensor<64x128xf32, #mma4> -> tensor<64x128xf32, #wide>
  %sq = tt.splat %q : !tt.ptr<f32> -> tensor<64x128x!tt.ptr<f32>, #wide>
  tt.store %sq, %c : tensor<64x128x!tt.ptr<f32>, #wide>
  tt.return
}
tt.func public @row4(%p: !tt.ptr<f32>, %q: !tt.ptr<f32>) {
  %sp = tt.splat %p : !tt.ptr<f32> -> tensor<64x64x!tt.ptr<f32>, #mma>
  %v = tt.load %sp : tensor<64x64x!tt.ptr<f32>, #mma>
  %c = kgpu.convert_layout %v : tensor<64x64xf32, #mma> -> tensor<64x64xf32, #row4>
  %sq = tt.splat %q : !tt.ptr<f32> -> tensor<64x64x!tt.ptr<f32>, #row4>
  tt.store %sq, %c : tensor<64x64x!tt.ptr<f32>, #row4>
  tt.return
}
tt.func public @narrow(%p: !tt.ptr<f32>, %q: !tt.ptr<f32>) {
  %sp = tt.splat %p : !tt.ptr<f32> -> tensor<64x64x!tt.ptr<f32>, #mma>
  %v = tt.load %sp : tensor<64x64x!tt.ptr<f32>, #mma>
  %c = kgpu.convert_layout %v : tensor<64x64xf32, #mma> -> tensor<64x64xf32, #narrow>
  %sq = tt.splat %q : !tt.ptr<f32> -> tensor<64x64x!tt.ptr<f32>, #narrow>
  tt.store %sq, %c : tensor<64x64x!tt.ptr<f32>, #narrow>
  tt.return
}
// 16-bit elements keep plain padded rows (a thread's 8 f16 are one load).
tt.func public @f16_acc(%p: !tt.ptr<f16>, %q: !tt.ptr<f16>) {
  %sp = tt.splat %p : !tt.ptr<f16> -> tensor<64x128x!tt.ptr<f16>, #mma4>
  %v = tt.load %sp : tensor<64x128x!tt.ptr<f16>, #mma4>
  %c = kgpu.convert_layout %v : tensor<64x128xf16, #mma4> -> tensor<64x128xf16, #wide>
  %sq = tt.splat %q : !tt.ptr<f16> -> tensor<64x128x!tt.ptr<f16>, #wide>
  tt.store %sq, %c : tensor<64x128x!tt.ptr<f16>, #wide>
  tt.return
}
}
