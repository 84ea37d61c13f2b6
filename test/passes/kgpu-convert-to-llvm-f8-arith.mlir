// RUN: not kiln-opt %s -split-input-file -kgpu-assign-layouts="num-warps=4" "-kgpu-convert-to-llvm=arch=sm_90a" 2>&1 | FileCheck %s

// Float arithmetic on f8 elements (which the lowering keeps as i8
// registers) is a clear error naming the op and the element type, not an
// LLVM verifier failure on the lowered op (was: 'llvm.fadd' op operand #0
// must be floating point ..., got '!llvm.struct<(i8, ...)>').

// CHECK: error: 'arith.addf' on 'f8E4M3FN' elements is not supported by the NVPTX lowering: convert them to f16 or f32 first (tt.fp_to_fp)
// CHECK-NOT: llvm.fadd
tt.func public @f8_add(%x: !tt.ptr<f8E4M3FN> {tt.divisibility = 16 : i32}, %y: !tt.ptr<f8E4M3FN> {tt.divisibility = 16 : i32}) {
  %r = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32>
  %px = tt.splat %x : !tt.ptr<f8E4M3FN> -> tensor<128x!tt.ptr<f8E4M3FN>>
  %p = tt.addptr %px, %r : tensor<128x!tt.ptr<f8E4M3FN>>, tensor<128xi32>
  %a = tt.load %p : tensor<128x!tt.ptr<f8E4M3FN>>
  %s = arith.addf %a, %a : tensor<128xf8E4M3FN>
  %py = tt.splat %y : !tt.ptr<f8E4M3FN> -> tensor<128x!tt.ptr<f8E4M3FN>>
  %q = tt.addptr %py, %r : tensor<128x!tt.ptr<f8E4M3FN>>, tensor<128xi32>
  tt.store %q, %s : tensor<128x!tt.ptr<f8E4M3FN>>
  tt.return
}

// -----

// CHECK: error: 'arith.mulf' on 'f8E5M2' elements is not supported by the NVPTX lowering
tt.func public @f8_mul(%x: !tt.ptr<f8E5M2> {tt.divisibility = 16 : i32}, %y: !tt.ptr<f8E5M2> {tt.divisibility = 16 : i32}) {
  %r = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32>
  %px = tt.splat %x : !tt.ptr<f8E5M2> -> tensor<128x!tt.ptr<f8E5M2>>
  %p = tt.addptr %px, %r : tensor<128x!tt.ptr<f8E5M2>>, tensor<128xi32>
  %a = tt.load %p : tensor<128x!tt.ptr<f8E5M2>>
  %s = arith.mulf %a, %a : tensor<128xf8E5M2>
  %py = tt.splat %y : !tt.ptr<f8E5M2> -> tensor<128x!tt.ptr<f8E5M2>>
  %q = tt.addptr %py, %r : tensor<128x!tt.ptr<f8E5M2>>, tensor<128xi32>
  tt.store %q, %s : tensor<128x!tt.ptr<f8E5M2>>
  tt.return
}

// -----

// Round toward zero has no f8 instruction: a clear error.
// CHECK: error: fp_to_fp from 'f32' to 'f8E4M3FN' must round to nearest even (rounding = rtne) on the NVPTX lowering
tt.func public @f32_to_e4m3_rtz(%x: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %y: !tt.ptr<f8E4M3FN> {tt.divisibility = 16 : i32}) {
  %r = tt.make_range {end = 512 : i32, start = 0 : i32} : tensor<512xi32>
  %px = tt.splat %x : !tt.ptr<f32> -> tensor<512x!tt.ptr<f32>>
  %p = tt.addptr %px, %r : tensor<512x!tt.ptr<f32>>, tensor<512xi32>
  %a = tt.load %p : tensor<512x!tt.ptr<f32>>
  %s = tt.fp_to_fp %a, rounding = rtz : tensor<512xf32> -> tensor<512xf8E4M3FN>
  %py = tt.splat %y : !tt.ptr<f8E4M3FN> -> tensor<512x!tt.ptr<f8E4M3FN>>
  %q = tt.addptr %py, %r : tensor<512x!tt.ptr<f8E4M3FN>>, tensor<512xi32>
  tt.store %q, %s : tensor<512x!tt.ptr<f8E4M3FN>>
  tt.return
}

// -----

// f64 to f8 and f8 to f8 have no lowering (Triton 3.6 fails on both too,
// in its NVPTX lowering: "Unsupported rounding mode for conversion" and a
// failed pass pipeline): a clear error naming both types.
// CHECK: error: fp_to_fp from 'f64' to 'f8E4M3FN' is not supported by the NVPTX lowering yet
tt.func public @f64_to_e4m3(%x: !tt.ptr<f64> {tt.divisibility = 16 : i32}, %y: !tt.ptr<f8E4M3FN> {tt.divisibility = 16 : i32}) {
  %r = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32>
  %px = tt.splat %x : !tt.ptr<f64> -> tensor<128x!tt.ptr<f64>>
  %p = tt.addptr %px, %r : tensor<128x!tt.ptr<f64>>, tensor<128xi32>
  %a = tt.load %p : tensor<128x!tt.ptr<f64>>
  %s = tt.fp_to_fp %a, rounding = rtne : tensor<128xf64> -> tensor<128xf8E4M3FN>
  %py = tt.splat %y : !tt.ptr<f8E4M3FN> -> tensor<128x!tt.ptr<f8E4M3FN>>
  %q = tt.addptr %py, %r : tensor<128x!tt.ptr<f8E4M3FN>>, tensor<128xi32>
  tt.store %q, %s : tensor<128x!tt.ptr<f8E4M3FN>>
  tt.return
}

// -----

// CHECK: error: fp_to_fp from 'f8E5M2' to 'f8E4M3FN' is not supported by the NVPTX lowering yet
tt.func public @e5m2_to_e4m3(%x: !tt.ptr<f8E5M2> {tt.divisibility = 16 : i32}, %y: !tt.ptr<f8E4M3FN> {tt.divisibility = 16 : i32}) {
  %r = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32>
  %px = tt.splat %x : !tt.ptr<f8E5M2> -> tensor<128x!tt.ptr<f8E5M2>>
  %p = tt.addptr %px, %r : tensor<128x!tt.ptr<f8E5M2>>, tensor<128xi32>
  %a = tt.load %p : tensor<128x!tt.ptr<f8E5M2>>
  %s = tt.fp_to_fp %a, rounding = rtne : tensor<128xf8E5M2> -> tensor<128xf8E4M3FN>
  %py = tt.splat %y : !tt.ptr<f8E4M3FN> -> tensor<128x!tt.ptr<f8E4M3FN>>
  %q = tt.addptr %py, %r : tensor<128x!tt.ptr<f8E4M3FN>>, tensor<128xi32>
  tt.store %q, %s : tensor<128x!tt.ptr<f8E4M3FN>>
  tt.return
}
