// RUN: kiln-opt %s -split-input-file -kgpu-assign-layouts="num-warps=4" "-kgpu-convert-to-llvm=arch=sm_90a ptx-version=80" | FileCheck %s --enable-var-scope
// RUN: not kiln-opt %s -split-input-file -kgpu-assign-layouts="num-warps=4" "-kgpu-convert-to-llvm=arch=sm_80 ptx-version=80" 2>&1 | FileCheck %s --check-prefix=SM80

// tt.fp_to_fp to f8 (f32 -> f8E4M3FN, as an fp8 attention converts P
// before P @ V): two values per cvt.rn.satfinite.e4m3x2.f32 (PTX ISA
// 9.7.9.21), rounding to nearest even and saturating to the largest finite
// value, as Triton 3.6 converts. The instruction puts its first operand's
// conversion in the upper byte, so each pair is given second value first
// and the vector<2xi8> holds the pair in order. Each thread holds 4
// contiguous f32 (one 16-byte load): 2 conversions, then one 4-byte store.
// CHECK-LABEL: llvm.func @f32_to_e4m3
// CHECK: %[[V:.+]] = llvm.load {{.*}} -> vector<4xf32>
// CHECK: %[[X0:.+]] = llvm.extractelement %[[V]][%{{.*}} : i32] : vector<4xf32>
// CHECK: %[[X1:.+]] = llvm.extractelement %[[V]][%{{.*}} : i32] : vector<4xf32>
// CHECK: %[[X2:.+]] = llvm.extractelement %[[V]][%{{.*}} : i32] : vector<4xf32>
// CHECK: %[[X3:.+]] = llvm.extractelement %[[V]][%{{.*}} : i32] : vector<4xf32>
// CHECK: nvvm.convert.f32x2.to.f8x2 %[[X1]], %[[X0]] {rnd = #nvvm.fp_rnd_mode<rn>, sat = #nvvm.sat_mode<satfinite>} : vector<2xi8>(f8E4M3FN)
// CHECK: nvvm.convert.f32x2.to.f8x2 %[[X3]], %[[X2]] {rnd = #nvvm.fp_rnd_mode<rn>, sat = #nvvm.sat_mode<satfinite>} : vector<2xi8>(f8E4M3FN)
// CHECK-NOT: nvvm.convert.f32x2.to.f8x2
// CHECK: llvm.store {{.*}} : vector<4xi8>, !llvm.ptr<1>
// SM80: error: fp_to_fp from 'f32' to 'f8E4M3FN' is not supported by the NVPTX lowering on this target (NVPTX: cvt.rn.satfinite, sm_90 or later, or sm_89 with --ptx-version 81
tt.func public @f32_to_e4m3(%x: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %y: !tt.ptr<f8E4M3FN> {tt.divisibility = 16 : i32}) {
  %r = tt.make_range {end = 512 : i32, start = 0 : i32} : tensor<512xi32>
  %px = tt.splat %x : !tt.ptr<f32> -> tensor<512x!tt.ptr<f32>>
  %p = tt.addptr %px, %r : tensor<512x!tt.ptr<f32>>, tensor<512xi32>
  %a = tt.load %p : tensor<512x!tt.ptr<f32>>
  %s = tt.fp_to_fp %a, rounding = rtne : tensor<512xf32> -> tensor<512xf8E4M3FN>
  %py = tt.splat %y : !tt.ptr<f8E4M3FN> -> tensor<512x!tt.ptr<f8E4M3FN>>
  %q = tt.addptr %py, %r : tensor<512x!tt.ptr<f8E4M3FN>>, tensor<512xi32>
  tt.store %q, %s : tensor<512x!tt.ptr<f8E4M3FN>>
  tt.return
}

// -----

// f16 -> f8E5M2 with one element per thread: the f16 is extended to f32
// (exactly, so the value is rounded once) and converted beside itself; the
// first byte is kept.
// CHECK-LABEL: llvm.func @f16_to_e5m2
// CHECK: %[[H:.+]] = llvm.load {{.*}} -> f16
// CHECK: %[[F:.+]] = llvm.fpext %[[H]] : f16 to f32
// CHECK: %[[P:.+]] = nvvm.convert.f32x2.to.f8x2 %[[F]], %[[F]] {rnd = #nvvm.fp_rnd_mode<rn>, sat = #nvvm.sat_mode<satfinite>} : vector<2xi8>(f8E5M2)
// CHECK: llvm.extractelement %[[P]][%{{.*}} : i32] : vector<2xi8>
// CHECK-NOT: nvvm.convert.f32x2.to.f8x2
// CHECK: llvm.store {{.*}} : i8, !llvm.ptr<1>
// SM80: error: fp_to_fp from 'f16' to 'f8E5M2' is not supported by the NVPTX lowering on this target
tt.func public @f16_to_e5m2(%x: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %y: !tt.ptr<f8E5M2> {tt.divisibility = 16 : i32}) {
  %r = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32>
  %px = tt.splat %x : !tt.ptr<f16> -> tensor<128x!tt.ptr<f16>>
  %p = tt.addptr %px, %r : tensor<128x!tt.ptr<f16>>, tensor<128xi32>
  %a = tt.load %p : tensor<128x!tt.ptr<f16>>
  %s = tt.fp_to_fp %a, rounding = rtne : tensor<128xf16> -> tensor<128xf8E5M2>
  %py = tt.splat %y : !tt.ptr<f8E5M2> -> tensor<128x!tt.ptr<f8E5M2>>
  %q = tt.addptr %py, %r : tensor<128x!tt.ptr<f8E5M2>>, tensor<128xi32>
  tt.store %q, %s : tensor<128x!tt.ptr<f8E5M2>>
  tt.return
}

// -----

// arith.select on f8 elements (tl.where on f8 values) picks the i8 bit
// patterns (was an LLVM verifier failure: 'llvm.insertelement' op operand
// #1 must be primitive LLVM type, but got 'f8E4M3FN'; helper-70). It needs
// no conversion instruction, so sm_80 lowers it too.
// CHECK-LABEL: llvm.func @select_e4m3
// CHECK: llvm.select %{{.*}}, %{{.*}}, %{{.*}} : i1, i8
// CHECK: llvm.return
tt.func public @select_e4m3(%x: !tt.ptr<f8E4M3FN> {tt.divisibility = 16 : i32}, %y: !tt.ptr<f8E4M3FN> {tt.divisibility = 16 : i32}) {
  %r = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32>
  %c64 = arith.constant dense<64> : tensor<128xi32>
  %low = arith.cmpi slt, %r, %c64 : tensor<128xi32>
  %px = tt.splat %x : !tt.ptr<f8E4M3FN> -> tensor<128x!tt.ptr<f8E4M3FN>>
  %p = tt.addptr %px, %r : tensor<128x!tt.ptr<f8E4M3FN>>, tensor<128xi32>
  %a = tt.load %p : tensor<128x!tt.ptr<f8E4M3FN>>
  %py = tt.splat %y : !tt.ptr<f8E4M3FN> -> tensor<128x!tt.ptr<f8E4M3FN>>
  %q = tt.addptr %py, %r : tensor<128x!tt.ptr<f8E4M3FN>>, tensor<128xi32>
  %b = tt.load %q : tensor<128x!tt.ptr<f8E4M3FN>>
  %s = arith.select %low, %a, %b : tensor<128xi1>, tensor<128xf8E4M3FN>
  tt.store %q, %s : tensor<128x!tt.ptr<f8E4M3FN>>
  tt.return
}
