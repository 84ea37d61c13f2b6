// RUN: kiln-opt %s -split-input-file --kiln-ttir-to-llvm-amdgpu='num-warps=4' | FileCheck %s --enable-var-scope
// RUN: kiln-opt %s -split-input-file -kgpu-assign-layouts='num-warps=4 threads-per-warp=64 mma-version=4' | FileCheck %s --check-prefix=LAYOUT
// RUN: not kiln-opt %s -split-input-file -kgpu-assign-layouts='num-warps=4 threads-per-warp=64 mma-version=4' -kgpu-convert-to-llvm=target=nvptx 2>&1 | FileCheck %s --check-prefix=FOREIGN

// tt.dot on AMD CDNA matrix cores: 16x16 MFMA accumulators on 64-lane
// wavefronts. 64x64 f16 times 64x64 on 4 wavefronts: 4 x 4 tiles of 16x16,
// waves doubled along M then N (warpsPerCTA = [2, 2]: 32x32 per wave, 2 x 2
// MFMA tiles), 64 / 16 = 4 K steps: 16 v_mfma_f32_16x16x16f16 per dot.
// Each lane's A operand is 4 consecutive K elements of row l % 16
// (<4 x half>); B's 4 are K rows 4 * (l / 16) .. + 3 of column l % 16.
// LAYOUT: #kgpu.mfma<{warpsPerCTA = [2, 2], instrShape = [16, 16]}>
// CHECK-LABEL: llvm.func @dot_f16
// A's 4 K elements per lane are consecutive: one 8-byte LDS read.
// CHECK: llvm.load {{.*}} {alignment = 8 : i64} : !llvm.ptr<3> -> vector<4xf16>
// CHECK-COUNT-16: rocdl.mfma.f32.16x16x16f16 {{.*}} : (vector<4xf16>, vector<4xf16>, vector<4xf32>, i32, i32, i32) -> vector<4xf32>
// CHECK-NOT: rocdl.mfma
// CHECK: llvm.return
tt.func public @dot_f16(%a: tensor<64x64xf16>, %b: tensor<64x64xf16>, %p: !tt.ptr<f32>) {
  %c = arith.constant dense<0.0> : tensor<64x64xf32>
  %d = tt.dot %a, %b, %c : tensor<64x64xf16> * tensor<64x64xf16> -> tensor<64x64xf32>
  %ps = tt.splat %p : !tt.ptr<f32> -> tensor<64x64x!tt.ptr<f32>>
  tt.store %ps, %d : tensor<64x64x!tt.ptr<f32>>
  tt.return
}

// -----

// bf16: v_mfma_f32_16x16x16bf16_1k takes the bf16 bits as <4 x i16>.
// 16x16x16 on 4 waves: one tile, the extra waves replicate along M.
// LAYOUT: #kgpu.mfma<{warpsPerCTA = [4, 1], instrShape = [16, 16]}>
// CHECK-LABEL: llvm.func @dot_bf16
// CHECK: llvm.load {{.*}} {alignment = 8 : i64} : !llvm.ptr<3> -> vector<4xbf16>
// CHECK-NEXT: llvm.bitcast {{.*}} : vector<4xbf16> to vector<4xi16>
// CHECK: rocdl.mfma.f32.16x16x16bf16.1k {{.*}} : (vector<4xi16>, vector<4xi16>, vector<4xf32>, i32, i32, i32) -> vector<4xf32>
// CHECK-NOT: rocdl.mfma
tt.func public @dot_bf16(%a: tensor<16x16xbf16>, %b: tensor<16x16xbf16>, %p: !tt.ptr<f32>) {
  %c = arith.constant dense<0.0> : tensor<16x16xf32>
  %d = tt.dot %a, %b, %c : tensor<16x16xbf16> * tensor<16x16xbf16> -> tensor<16x16xf32>
  %ps = tt.splat %p : !tt.ptr<f32> -> tensor<16x16x!tt.ptr<f32>>
  tt.store %ps, %d : tensor<16x16x!tt.ptr<f32>>
  tt.return
}

// -----

// f32 with inputPrecision = ieee: v_mfma_f32_16x16x4f32, one K element per
// lane and instruction (16 / 4 = 4 steps). With Triton's default tf32 the
// dot stays on the FMA path (MFMA f32 does not round to tf32).
// CHECK-LABEL: llvm.func @dot_f32
// CHECK-COUNT-4: rocdl.mfma.f32.16x16x4f32 {{.*}} : (f32, f32, vector<4xf32>, i32, i32, i32) -> vector<4xf32>
// CHECK-NOT: rocdl.mfma
// CHECK-LABEL: llvm.func @dot_tf32
// CHECK-NOT: rocdl.mfma
// CHECK: llvm.intr.fma
tt.func public @dot_f32(%a: tensor<16x16xf32>, %b: tensor<16x16xf32>, %p: !tt.ptr<f32>) {
  %c = arith.constant dense<0.0> : tensor<16x16xf32>
  %d = tt.dot %a, %b, %c, inputPrecision = ieee : tensor<16x16xf32> * tensor<16x16xf32> -> tensor<16x16xf32>
  %ps = tt.splat %p : !tt.ptr<f32> -> tensor<16x16x!tt.ptr<f32>>
  tt.store %ps, %d : tensor<16x16x!tt.ptr<f32>>
  tt.return
}
tt.func public @dot_tf32(%a: tensor<16x16xf32>, %b: tensor<16x16xf32>, %p: !tt.ptr<f32>) {
  %c = arith.constant dense<0.0> : tensor<16x16xf32>
  %d = tt.dot %a, %b, %c, inputPrecision = tf32 : tensor<16x16xf32> * tensor<16x16xf32> -> tensor<16x16xf32>
  %ps = tt.splat %p : !tt.ptr<f32> -> tensor<16x16x!tt.ptr<f32>>
  tt.store %ps, %d : tensor<16x16x!tt.ptr<f32>>
  tt.return
}

// -----

// tf32 on AMDGPU: the FMA path rounds the operands to tf32 with integer
// ops (+0x1000, clear the 13 low bits), not NVPTX's cvt.rna.tf32.f32.
// CHECK-LABEL: llvm.func @dot_tf32_rounding
// CHECK-NOT: llvm.inline_asm
// CHECK-DAG: %[[HALF:.*]] = llvm.mlir.constant(4096 : i32) : i32
// CHECK-DAG: %[[MASK:.*]] = llvm.mlir.constant(-8192 : i32) : i32
// CHECK: llvm.add %{{.*}}, %[[HALF]] : i32
// CHECK-NEXT: llvm.and %{{.*}}, %[[MASK]] : i32
// CHECK: llvm.intr.fma
tt.func public @dot_tf32_rounding(%a: tensor<16x16xf32>, %b: tensor<16x16xf32>, %p: !tt.ptr<f32>) {
  %c = arith.constant dense<0.0> : tensor<16x16xf32>
  %d = tt.dot %a, %b, %c, inputPrecision = tf32 : tensor<16x16xf32> * tensor<16x16xf32> -> tensor<16x16xf32>
  %ps = tt.splat %p : !tt.ptr<f32> -> tensor<16x16x!tt.ptr<f32>>
  tt.store %ps, %d : tensor<16x16x!tt.ptr<f32>>
  tt.return
}

// An AMD MFMA layout handed to the NVPTX lowering is an error naming it.
// FOREIGN: error: the #kgpu.mfma (AMD MFMA) layout of this result has no lowering for target nvptx (kgpu-assign-layouts mma-version 4 is for amdgpu)
