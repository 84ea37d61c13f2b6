// RUN: kiln-opt %s -split-input-file -kgpu-assign-layouts="num-warps=4 mma-version=3" | FileCheck %s --check-prefix=LAYOUT --enable-var-scope
// RUN: kiln-opt %s -split-input-file -kgpu-assign-layouts="num-warps=4 mma-version=2" -kgpu-convert-to-llvm | FileCheck %s --enable-var-scope
// RUN: kiln-opt %s -split-input-file --kiln-ttir-to-llvm-nvptx="num-warps=4 arch=sm_90a num-stages=3" | FileCheck %s --check-prefix=PIPE --enable-var-scope

// f32 tt.dot with inputPrecision = tf32 on tensor cores: mma.sync
// m16n8k8 with .tf32 multiplicands (PTX ISA 9.7.14.5.7).
//
// 32x16 times 16x32 on 4 warps: 2 x 4 instruction tiles of 16x8; warps
// double along N, then M: warpsPerCTA = [2, 2], each warp one 16-row tile
// and two 8-column tiles. Per 8-wide K step (2 steps) each thread loads
// 4 A and 2 x 2 B elements from shared memory (A 32 x (16 + 8), B
// 16 x (32 + 8) f32: 3072 + 2560 bytes; the epilogue store's layout
// conversion needs 32 x 32 x 4 = 4096), rounds each with
// cvt.rna.tf32.f32 (8 per step, 16 in all) and issues 2 mma.sync: 4 in all.
// LAYOUT: #[[$MMA:.*]] = #kgpu.mma<{version = 2, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
// LAYOUT-LABEL: tt.func public @dot_tf32
// LAYOUT: tt.dot {{.*}} inputPrecision = tf32 : tensor<32x16xf32, #{{.*}}> * tensor<16x32xf32, #{{.*}}> -> tensor<32x32xf32, #[[$MMA]]>
// CHECK: kgpu.shared = 5632 : i32
// CHECK-LABEL: llvm.func @dot_tf32
// CHECK-COUNT-8: "cvt.rna.tf32.f32 $0, $1;"
// CHECK: nvvm.mma.sync A[{{.*}}, {{.*}}, {{.*}}, {{.*}}] B[{{.*}}, {{.*}}] C[{{.*}}] {layoutA = #nvvm.mma_layout<row>, layoutB = #nvvm.mma_layout<col>, multiplicandAPtxType = #nvvm.mma_type<tf32>, multiplicandBPtxType = #nvvm.mma_type<tf32>, shape = #nvvm.shape<m = 16, n = 8, k = 8>} : (i32, i32, f32) -> !llvm.struct<(f32, f32, f32, f32)>
// CHECK: nvvm.mma.sync {{.*}} shape = #nvvm.shape<m = 16, n = 8, k = 8>} : (i32, i32, f32)
// CHECK-COUNT-8: "cvt.rna.tf32.f32 $0, $1;"
// CHECK-COUNT-2: nvvm.mma.sync {{.*}} shape = #nvvm.shape<m = 16, n = 8, k = 8>} : (i32, i32, f32)
// CHECK-NOT: nvvm.mma.sync
// CHECK-NOT: cvt.rna.tf32
// CHECK-NOT: llvm.intr.fma
// CHECK: llvm.return
tt.func public @dot_tf32(%a: tensor<32x16xf32>, %b: tensor<16x32xf32>, %p: !tt.ptr<f32>) {
  %c = arith.constant dense<0.0> : tensor<32x32xf32>
  %d = tt.dot %a, %b, %c, inputPrecision = tf32 : tensor<32x16xf32> * tensor<16x32xf32> -> tensor<32x32xf32>
  %ps = tt.splat %p : !tt.ptr<f32> -> tensor<32x32x!tt.ptr<f32>>
  tt.store %ps, %d : tensor<32x32x!tt.ptr<f32>>
  tt.return
}

// -----

// tf32x3: each operand x splits into hi = tf32(x) and lo = tf32(x - hi),
// and each tile takes three mma.sync, small terms first: a_lo * b_hi,
// a_hi * b_lo, a_hi * b_hi (each result feeding the next as C). Twice the
// roundings (16 per K step), three times the mma.sync (12 in all).
// CHECK-LABEL: llvm.func @dot_tf32x3
// The first A element of the first K step: x, hi, lo; the tile's first
// mma.sync takes lo, its third (after a_hi * b_lo) hi, each accumulating
// onto the previous one's result.
// CHECK: %[[X:.*]] = llvm.load %{{.*}} : !llvm.ptr<3> -> f32
// CHECK-NEXT: %[[XB:.*]] = llvm.bitcast %[[X]] : f32 to i32
// CHECK-NEXT: %[[HIR:.*]] = llvm.inline_asm asm_dialect = att "cvt.rna.tf32.f32 $0, $1;", "=r,r" %[[XB]] : (i32) -> i32
// CHECK-NEXT: %[[HIF:.*]] = llvm.bitcast %[[HIR]] : i32 to f32
// CHECK-NEXT: %[[LO:.*]] = llvm.fsub %[[X]], %[[HIF]] : f32
// CHECK-NEXT: %[[LOB:.*]] = llvm.bitcast %[[LO]] : f32 to i32
// CHECK-NEXT: %[[LOR:.*]] = llvm.inline_asm asm_dialect = att "cvt.rna.tf32.f32 $0, $1;", "=r,r" %[[LOB]] : (i32) -> i32
// CHECK-NEXT: %[[LOF:.*]] = llvm.bitcast %[[LOR]] : i32 to f32
// CHECK-NEXT: %[[LOI:.*]] = llvm.bitcast %[[LOF]] : f32 to i32
// CHECK-NEXT: %[[HII:.*]] = llvm.bitcast %[[HIF]] : f32 to i32
// CHECK: %[[D1:.*]] = nvvm.mma.sync A[%[[LOI]], {{.*}}] B[{{.*}}] C[{{.*}}] {{.*}} shape = #nvvm.shape<m = 16, n = 8, k = 8>}
// CHECK: %[[C1:.*]] = llvm.extractvalue %[[D1]][0]
// CHECK: %[[D2:.*]] = nvvm.mma.sync A[%[[HII]], {{.*}}] B[{{.*}}] C[%[[C1]], {{.*}}]
// CHECK: %[[C2:.*]] = llvm.extractvalue %[[D2]][0]
// CHECK: nvvm.mma.sync A[%[[HII]], {{.*}}] B[{{.*}}] C[%[[C2]], {{.*}}]
// CHECK-COUNT-9: nvvm.mma.sync {{.*}} shape = #nvvm.shape<m = 16, n = 8, k = 8>} : (i32, i32, f32)
// CHECK-NOT: nvvm.mma.sync
// CHECK: llvm.return
tt.func public @dot_tf32x3(%a: tensor<32x16xf32>, %b: tensor<16x32xf32>, %p: !tt.ptr<f32>) {
  %c = arith.constant dense<0.0> : tensor<32x32xf32>
  %d = tt.dot %a, %b, %c, inputPrecision = tf32x3 : tensor<32x16xf32> * tensor<16x32xf32> -> tensor<32x32xf32>
  %ps = tt.splat %p : !tt.ptr<f32> -> tensor<32x32x!tt.ptr<f32>>
  tt.store %ps, %d : tensor<32x32x!tt.ptr<f32>>
  tt.return
}

// -----

// ieee (the default when the attribute is absent, as in Triton's TTIR)
// keeps exact f32 products: the CUDA-core FMA loop, no tensor cores.
// LAYOUT-LABEL: tt.func public @dot_ieee
// LAYOUT-NOT: #kgpu.mma
// CHECK-LABEL: llvm.func @dot_ieee
// CHECK-NOT: nvvm.mma.sync
// CHECK-NOT: cvt.rna.tf32
// CHECK: llvm.intr.fma
tt.func public @dot_ieee(%a: tensor<32x16xf32>, %b: tensor<16x32xf32>, %p: !tt.ptr<f32>) {
  %c = arith.constant dense<0.0> : tensor<32x32xf32>
  %d = tt.dot %a, %b, %c : tensor<32x16xf32> * tensor<16x32xf32> -> tensor<32x32xf32>
  %ps = tt.splat %p : !tt.ptr<f32> -> tensor<32x32x!tt.ptr<f32>>
  tt.store %ps, %d : tensor<32x32x!tt.ptr<f32>>
  tt.return
}

// -----

// A shape wgmma would take for f16 (M = 16 x 4 warps, K and N multiples of
// 64) keeps mma.sync's warp split for tf32 (no tf32 wgmma in kiln):
// [2, 2], not [4, 1]. In a K loop the tiles are software-pipelined into
// f32 slots (kgpu-pipeline-dot-loops-tf32.mlir): cp.async copies, mma.sync
// m16n8k8 .tf32 on the slots, no wgmma.
// LAYOUT: #[[$MMA:.*]] = #kgpu.mma<{version = 2, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
// LAYOUT-LABEL: tt.func public @tf32_loop
// LAYOUT: tt.dot {{.*}} -> tensor<64x64xf32, #[[$MMA]]>
// PIPE-LABEL: llvm.func @tf32_loop
// PIPE-NOT: wgmma
// PIPE: nvvm.cp.async.shared.global
// PIPE-NOT: wgmma
// PIPE: nvvm.mma.sync {{.*}} multiplicandAPtxType = #nvvm.mma_type<tf32>, multiplicandBPtxType = #nvvm.mma_type<tf32>, shape = #nvvm.shape<m = 16, n = 8, k = 8>}
// PIPE-NOT: wgmma
// PIPE: llvm.return
tt.func public @tf32_loop(%a: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %b: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %c: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %n: i32) {
  %zero = arith.constant dense<0.0> : tensor<64x64xf32>
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %r = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
  %r2 = tt.expand_dims %r {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
  %rb = tt.broadcast %r2 : tensor<1x64xi32> -> tensor<64x64xi32>
  %pa = tt.splat %a : !tt.ptr<f32> -> tensor<64x64x!tt.ptr<f32>>
  %pa2 = tt.addptr %pa, %rb : tensor<64x64x!tt.ptr<f32>>, tensor<64x64xi32>
  %pb = tt.splat %b : !tt.ptr<f32> -> tensor<64x64x!tt.ptr<f32>>
  %pb2 = tt.addptr %pb, %rb : tensor<64x64x!tt.ptr<f32>>, tensor<64x64xi32>
  %acc = scf.for %i = %c0 to %n step %c1 iter_args(%x = %zero) -> (tensor<64x64xf32>) : i32 {
    %va = tt.load %pa2 : tensor<64x64x!tt.ptr<f32>>
    %vb = tt.load %pb2 : tensor<64x64x!tt.ptr<f32>>
    %d = tt.dot %va, %vb, %x, inputPrecision = tf32 : tensor<64x64xf32> * tensor<64x64xf32> -> tensor<64x64xf32>
    scf.yield %d : tensor<64x64xf32>
  }
  %pc = tt.splat %c : !tt.ptr<f32> -> tensor<64x64x!tt.ptr<f32>>
  %pc2 = tt.addptr %pc, %rb : tensor<64x64x!tt.ptr<f32>>, tensor<64x64xi32>
  tt.store %pc2, %acc : tensor<64x64x!tt.ptr<f32>>
  tt.return
}
