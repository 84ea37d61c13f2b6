// RUN: kiln-opt %s -kgpu-assign-layouts="num-warps=4 mma-version=3" -kgpu-pipeline-dot-loops="num-stages=3 wgmma=true" | FileCheck %s

// An A stored K x M in a square tile (64 x 64 x 64; Triton's TTIR of
// x^T @ y, kernels_k32's k64_at_mmajor_square_*): one tt.make_range gives
// A's rows, A's columns and B's rows, and A's row offsets also index the
// result's store, so A's load shared the store's group and its layout
// (contiguous along N) although A is contiguous along M; the loop was not
// pipelined. kgpu-assign-layouts now gives an operand load whose group
// holds an access contiguous along the other dimension index computations
// of its own (as it does for an access of another shape): A's load is
// read along M, copied transposed and multiplied MN-major.
// CHECK-LABEL: tt.func public @a_m_major_square
// CHECK: kgpu.async_copy {{.*}} {offset = 0 : i64, rowStride = 64 : i64, slotBytes = 8192 : i64, swizzle = 2 : i32, transpose} : tensor<64x64x!tt.ptr<f16>
// CHECK: kgpu.async_copy {{.*}} {offset = 24576 : i64, rowStride = 64 : i64, slotBytes = 8192 : i64, swizzle = 2 : i32} : tensor<64x64x!tt.ptr<f16>
// CHECK: scf.for
// CHECK: kgpu.local_dot {{.*}}aMMajor{{.*}}wgmma
module {
  tt.func public @a_m_major_square(%arg0: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %arg1: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %arg2: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg3: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg4: i32 {tt.divisibility = 16 : i32}, %arg5: i32 {tt.divisibility = 16 : i32}, %arg6: i32 {tt.divisibility = 16 : i32}, %arg7: i32 {tt.divisibility = 16 : i32}, %arg8: i32 {tt.divisibility = 16 : i32}, %arg9: i32 {tt.divisibility = 16 : i32}) attributes {noinline = false} {
    %c-449_i32 = arith.constant -449 : i32
    %cst = arith.constant dense<0.000000e+00> : tensor<64x64xf32>
    %c1_i32 = arith.constant 1 : i32
    %c0_i32 = arith.constant 0 : i32
    %c64_i32 = arith.constant 64 : i32
    %0 = tt.get_program_id x : i32
    %1 = tt.get_program_id y : i32
    %2 = arith.muli %0, %c64_i32 : i32
    %3 = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
    %4 = tt.splat %2 : i32 -> tensor<64xi32>
    %5 = arith.addi %4, %3 : tensor<64xi32>
    %6 = arith.muli %1, %c64_i32 : i32
    %7 = tt.splat %6 : i32 -> tensor<64xi32>
    %8 = arith.addi %7, %3 : tensor<64xi32>
    %9 = tt.expand_dims %5 {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
    %10 = tt.splat %arg0 : !tt.ptr<f16> -> tensor<64x1x!tt.ptr<f16>>
    %11 = tt.addptr %10, %9 : tensor<64x1x!tt.ptr<f16>>, tensor<64x1xi32>
    %12 = tt.expand_dims %3 {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
    %13 = tt.splat %arg7 : i32 -> tensor<1x64xi32>
    %14 = arith.muli %12, %13 : tensor<1x64xi32>
    %15 = tt.broadcast %11 : tensor<64x1x!tt.ptr<f16>> -> tensor<64x64x!tt.ptr<f16>>
    %16 = tt.broadcast %14 : tensor<1x64xi32> -> tensor<64x64xi32>
    %17 = tt.addptr %15, %16 : tensor<64x64x!tt.ptr<f16>>, tensor<64x64xi32>
    %18 = tt.expand_dims %3 {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
    %19 = tt.splat %arg8 : i32 -> tensor<64x1xi32>
    %20 = arith.muli %18, %19 : tensor<64x1xi32>
    %21 = tt.splat %arg1 : !tt.ptr<f16> -> tensor<64x1x!tt.ptr<f16>>
    %22 = tt.addptr %21, %20 : tensor<64x1x!tt.ptr<f16>>, tensor<64x1xi32>
    %23 = tt.expand_dims %8 {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
    %24 = tt.broadcast %22 : tensor<64x1x!tt.ptr<f16>> -> tensor<64x64x!tt.ptr<f16>>
    %25 = tt.broadcast %23 : tensor<1x64xi32> -> tensor<64x64xi32>
    %26 = tt.addptr %24, %25 : tensor<64x64x!tt.ptr<f16>>, tensor<64x64xi32>
    %27 = tt.splat %arg9 : i32 -> tensor<64x1xi32>
    %28 = arith.muli %9, %27 : tensor<64x1xi32>
    %29 = tt.splat %arg2 : !tt.ptr<f32> -> tensor<64x1x!tt.ptr<f32>>
    %30 = tt.addptr %29, %28 : tensor<64x1x!tt.ptr<f32>>, tensor<64x1xi32>
    %31 = tt.broadcast %30 : tensor<64x1x!tt.ptr<f32>> -> tensor<64x64x!tt.ptr<f32>>
    %32 = tt.addptr %31, %25 : tensor<64x64x!tt.ptr<f32>>, tensor<64x64xi32>
    %33 = arith.addi %arg6, %c-449_i32 : i32
    %34 = arith.divsi %33, %c64_i32 : i32
    %35:3 = scf.for %arg10 = %c0_i32 to %34 step %c1_i32 iter_args(%arg11 = %17, %arg12 = %26, %arg13 = %cst) -> (tensor<64x64x!tt.ptr<f16>>, tensor<64x64x!tt.ptr<f16>>, tensor<64x64xf32>)  : i32 {
      %36 = tt.load %arg11 : tensor<64x64x!tt.ptr<f16>>
      %37 = tt.load %arg12 : tensor<64x64x!tt.ptr<f16>>
      %38 = tt.dot %36, %37, %arg13, inputPrecision = tf32 : tensor<64x64xf16> * tensor<64x64xf16> -> tensor<64x64xf32>
      %39 = arith.muli %arg7, %c64_i32 : i32
      %40 = tt.splat %39 : i32 -> tensor<64x64xi32>
      %41 = tt.addptr %arg11, %40 : tensor<64x64x!tt.ptr<f16>>, tensor<64x64xi32>
      %42 = arith.muli %arg8, %c64_i32 : i32
      %43 = tt.splat %42 : i32 -> tensor<64x64xi32>
      %44 = tt.addptr %arg12, %43 : tensor<64x64x!tt.ptr<f16>>, tensor<64x64xi32>
      scf.yield %41, %44, %38 : tensor<64x64x!tt.ptr<f16>>, tensor<64x64x!tt.ptr<f16>>, tensor<64x64xf32>
    }
    tt.store %32, %35#2 : tensor<64x64x!tt.ptr<f32>>
    tt.return
  }
}
