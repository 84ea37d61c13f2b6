// RUN: kiln-opt %s -split-input-file -kgpu-assign-layouts="num-warps=8 mma-version=2" | FileCheck %s --check-prefix=LAYOUT --enable-var-scope
// RUN: kiln-opt %s -split-input-file -kgpu-assign-layouts="num-warps=8 mma-version=2" -kgpu-convert-to-llvm | FileCheck %s --enable-var-scope
// RUN: not kiln-opt %s -kgpu-assign-layouts="num-warps=8 threads-per-warp=64 mma-version=2" 2>&1 | FileCheck %s --check-prefix=WAVE64
// RUN: not kiln-opt %s -kgpu-assign-layouts="num-warps=8 mma-version=4" 2>&1 | FileCheck %s --check-prefix=WAVE32
// RUN: not kiln-opt %s -kgpu-assign-layouts="num-warps=8 mma-version=7" 2>&1 | FileCheck %s --check-prefix=BADVERSION

// tt.dot on tensor cores with mma.sync.m16n8k16 (PTX ISA 9.7.14.5.8).
//
// 128x64 f16 times 64x256 f16 on 8 warps: 8 tiles of 16 rows and 32 tiles
// of 8 columns; warps double along N while N has more tiles per warp, then
// along M: warpsPerCTA = [2, 4], each warp 64x64 (4 x 8 instruction tiles).
// The accumulator and everything sharing its layout (the loop-carried value
// and its initial constant) get #mma; the global load and store keep
// coalesced blocked layouts behind kgpu.convert_layout.
// LAYOUT: #[[$MMA:.*]] = #kgpu.mma<{version = 2, warpsPerCTA = [2, 4], instrShape = [16, 8]}>
// LAYOUT-LABEL: tt.func public @matmul_loop
// LAYOUT: arith.constant dense<0.000000e+00> : tensor<128x256xf32, #[[$MMA]]>
// LAYOUT: scf.for {{.*}} -> (tensor<128x256xf32, #[[$MMA]]>)
// LAYOUT: tt.dot {{.*}} -> tensor<128x256xf32, #[[$MMA]]>
// LAYOUT: kgpu.convert_layout {{.*}} : tensor<128x256xf32, #[[$MMA]]> -> tensor<128x256xf32, #blocked
// LAYOUT: tt.store {{.*}} : tensor<128x256x!tt.ptr<f32>, #blocked
//
// Lowering, per 16-wide K step (64 / 16 = 4 steps): each warp loads its
// 4 A fragments with ldmatrix.x4 and its 8 B fragments (two N tiles per
// ldmatrix.x4.trans), then issues 4 x 8 = 32 mma.sync: 16 ldmatrix and 128
// mma.sync per dot. Shared memory: the dot stages A 128 x (64 + 8) and B
// 64 x (256 + 8) f16 (rows padded by 16 bytes) = 18432 + 33792 = 52224
// bytes; the epilogue's conversion needs 128 x (256 + 8) f32 = 135168
// (rows padded against bank conflicts, convertLayoutStrides); ops reuse
// the same bytes, so the kernel needs the larger.
// CHECK: kgpu.shared = 135168 : i32
// CHECK-LABEL: llvm.func @matmul_loop
// CHECK-COUNT-4: nvvm.ldmatrix {{.*}} {eltType = #nvvm.ld_st_matrix_elt_type<b16>, layout = #nvvm.mma_layout<row>, num = 4 : i32, shape = #nvvm.ld_st_matrix_shape<m = 8, n = 8>}
// CHECK-COUNT-4: nvvm.ldmatrix {{.*}} {eltType = #nvvm.ld_st_matrix_elt_type<b16>, layout = #nvvm.mma_layout<col>, num = 4 : i32, shape = #nvvm.ld_st_matrix_shape<m = 8, n = 8>}
// CHECK: nvvm.mma.sync A[{{.*}}] B[{{.*}}] C[{{.*}}] {layoutA = #nvvm.mma_layout<row>, layoutB = #nvvm.mma_layout<col>, shape = #nvvm.shape<m = 16, n = 8, k = 16>} : (vector<2xf16>, vector<2xf16>, f32) -> !llvm.struct<(f32, f32, f32, f32)>
// CHECK-COUNT-127: nvvm.mma.sync
// CHECK-NOT: nvvm.mma.sync
// The epilogue's conversion stores the accumulator's column pairs (c0 c1,
// c2 c3 of each tile: 4 x 8 tiles x 2 pairs per thread) as aligned vectors.
// CHECK: nvvm.barrier0
// CHECK-COUNT-64: llvm.store {{.*}} {alignment = 8 : i64} : vector<2xf32>, !llvm.ptr<3>
// CHECK-NOT: llvm.store {{.*}} !llvm.ptr<3>
// CHECK: nvvm.barrier0
// CHECK: llvm.return
tt.func public @matmul_loop(%a: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %b: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %c: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %n: i32) {
  %zero = arith.constant dense<0.0> : tensor<128x256xf32>
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %ra = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
  %ra2 = tt.expand_dims %ra {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
  %rab = tt.broadcast %ra2 : tensor<1x64xi32> -> tensor<128x64xi32>
  %pa = tt.splat %a : !tt.ptr<f16> -> tensor<128x64x!tt.ptr<f16>>
  %pa2 = tt.addptr %pa, %rab : tensor<128x64x!tt.ptr<f16>>, tensor<128x64xi32>
  %rb = tt.make_range {end = 256 : i32, start = 0 : i32} : tensor<256xi32>
  %rb2 = tt.expand_dims %rb {axis = 0 : i32} : tensor<256xi32> -> tensor<1x256xi32>
  %rbb = tt.broadcast %rb2 : tensor<1x256xi32> -> tensor<64x256xi32>
  %pb = tt.splat %b : !tt.ptr<f16> -> tensor<64x256x!tt.ptr<f16>>
  %pb2 = tt.addptr %pb, %rbb : tensor<64x256x!tt.ptr<f16>>, tensor<64x256xi32>
  %acc = scf.for %i = %c0 to %n step %c1 iter_args(%x = %zero) -> (tensor<128x256xf32>) : i32 {
    %va = tt.load %pa2 : tensor<128x64x!tt.ptr<f16>>
    %vb = tt.load %pb2 : tensor<64x256x!tt.ptr<f16>>
    %d = tt.dot %va, %vb, %x : tensor<128x64xf16> * tensor<64x256xf16> -> tensor<128x256xf32>
    scf.yield %d : tensor<128x256xf32>
  }
  %rc = tt.broadcast %rb2 : tensor<1x256xi32> -> tensor<128x256xi32>
  %pc = tt.splat %c : !tt.ptr<f32> -> tensor<128x256x!tt.ptr<f32>>
  %pc2 = tt.addptr %pc, %rc : tensor<128x256x!tt.ptr<f32>>, tensor<128x256xi32>
  tt.store %pc2, %acc : tensor<128x256x!tt.ptr<f32>>
  tt.return
}

// -----

// bf16 operands: ldmatrix registers go to mma.sync as i32 (bf16 pairs).
// 16x16 times 16x8 on 8 warps: one instruction tile; warps beyond the
// tiles replicate along M (warpsPerCTA = [8, 1]).
// LAYOUT: #kgpu.mma<{version = 2, warpsPerCTA = [8, 1], instrShape = [16, 8]}>
// CHECK-LABEL: llvm.func @dot_bf16
// CHECK: nvvm.mma.sync {{.*}} multiplicandAPtxType = #nvvm.mma_type<bf16>, multiplicandBPtxType = #nvvm.mma_type<bf16>{{.*}} : (i32, i32, f32) -> !llvm.struct<(f32, f32, f32, f32)>
// CHECK-NOT: nvvm.mma.sync
tt.func public @dot_bf16(%a: tensor<16x16xbf16>, %b: tensor<16x8xbf16>, %p: !tt.ptr<f32>) {
  %c = arith.constant dense<0.0> : tensor<16x8xf32>
  %d = tt.dot %a, %b, %c : tensor<16x16xbf16> * tensor<16x8xbf16> -> tensor<16x8xf32>
  %ps = tt.splat %p : !tt.ptr<f32> -> tensor<16x8x!tt.ptr<f32>>
  tt.store %ps, %d : tensor<16x8x!tt.ptr<f32>>
  tt.return
}

// -----

// Not eligible for mma.sync: K = 8 is not a multiple of 16 for f16
// operands. The accumulator shares its layout group with the tf32 dot's,
// which m16n8k8 .tf32 can compute, so both results get #mma; the f16 dot
// still runs on the CUDA-core loop (it takes any accumulator layout), the
// tf32 one on mma.sync (m16n8k8 only, no m16n8k16).
// LAYOUT-LABEL: tt.func public @not_mma
// LAYOUT: tt.dot {{.*}} : tensor<16x8xf16, {{.*}}> * tensor<8x16xf16, {{.*}}> -> tensor<16x16xf32, #mma>
// CHECK-LABEL: llvm.func @not_mma
// CHECK-NOT: nvvm.mma.sync
// CHECK: llvm.intr.fma
// CHECK: nvvm.mma.sync {{.*}} multiplicandAPtxType = #nvvm.mma_type<tf32>, multiplicandBPtxType = #nvvm.mma_type<tf32>, shape = #nvvm.shape<m = 16, n = 8, k = 8>}
// CHECK-NOT: k = 16
// CHECK: llvm.return
tt.func public @not_mma(%a: tensor<16x8xf16>, %b: tensor<8x16xf16>, %x: tensor<16x16xf32>, %y: tensor<16x16xf32>, %p: !tt.ptr<f32>) {
  %c = arith.constant dense<0.0> : tensor<16x16xf32>
  %d = tt.dot %a, %b, %c : tensor<16x8xf16> * tensor<8x16xf16> -> tensor<16x16xf32>
  %e = tt.dot %x, %y, %d, inputPrecision = tf32 : tensor<16x16xf32> * tensor<16x16xf32> -> tensor<16x16xf32>
  %ps = tt.splat %p : !tt.ptr<f32> -> tensor<16x16x!tt.ptr<f32>>
  tt.store %ps, %e : tensor<16x16x!tt.ptr<f32>>
  tt.return
}

// A tensor-core layout version for the other vendor's warp width, or one
// that does not exist, is an error (it used to fall back to CUDA-core
// layouts without a word).
// WAVE64: error: mma-version 2 (NVIDIA tensor cores) needs 32-lane warps (threads-per-warp=32), got threads-per-warp=64
// WAVE32: error: mma-version 4 (AMD MFMA) needs 64-lane wavefronts (threads-per-warp=64), got threads-per-warp=32
// BADVERSION: error: mma-version must be 0 (no tensor cores), 2 (mma.sync), 3 (wgmma) or 4 (AMD MFMA), got 7
