// RUN: kiln-opt %s -split-input-file -kgpu-convert-to-llvm="arch=sm_80 ptx-version=78" | FileCheck %s

// A tt.dot whose A is in the accumulator's layout, warps along M only, but
// with 16 x 32 warp tiles wider than A's K (16): A's registers are not
// the m16n8 fragments accLayoutAPair reads (row block 1 starts at register
// 16, not 8), so A is staged through shared memory and read with ldmatrix
// like any other A: 2 row blocks of A (M 256 on 8 warps), 4 ldmatrix.x4
// .trans of B (8 N tiles, two each), 16 mma.sync.
// CHECK-LABEL: llvm.func @wide_tile_register_a
// CHECK-COUNT-2: nvvm.ldmatrix {{.*}}layout = #nvvm.mma_layout<row>
// CHECK-COUNT-4: nvvm.ldmatrix {{.*}}layout = #nvvm.mma_layout<col>
// CHECK-NOT: nvvm.ldmatrix
// CHECK-COUNT-16: nvvm.mma.sync
// CHECK-NOT: nvvm.mma.sync
// CHECK: llvm.return
#rows = #kgpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [8, 1], order = [1, 0]}>
#w = #kgpu.mma<{version = 2, warpsPerCTA = [8, 1], instrShape = [16, 32]}>
module attributes {"kgpu.num-warps" = 8 : i32, "kgpu.threads-per-warp" = 32 : i32} {
  tt.func public @wide_tile_register_a(%a: tensor<256x16xf16, #rows>, %v: tensor<16x64xf16, #rows>, %p: !tt.ptr<f32>) {
    %z = arith.constant dense<0.0> : tensor<256x64xf32, #w>
    %aw = kgpu.convert_layout %a : tensor<256x16xf16, #rows> -> tensor<256x16xf16, #w>
    %d = tt.dot %aw, %v, %z : tensor<256x16xf16, #w> * tensor<16x64xf16, #rows> -> tensor<256x64xf32, #w>
    %ps = tt.splat %p : !tt.ptr<f32> -> tensor<256x64x!tt.ptr<f32>, #w>
    tt.store %ps, %d : tensor<256x64x!tt.ptr<f32>, #w>
    tt.return
  }
}
