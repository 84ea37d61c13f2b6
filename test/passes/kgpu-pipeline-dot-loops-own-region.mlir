// RUN: kiln-opt %s -kgpu-pipeline-dot-loops=num-stages=3 | FileCheck %s
// RUN: kiln-opt %s -kgpu-pipeline-dot-loops=num-stages=3 -kgpu-convert-to-llvm | FileCheck %s --check-prefix=LLVM

// A K loop whose loads' pointers need a layout conversion (the K offsets,
// computed in the loop, index A's columns and B's rows in two layouts, as
// in the convolution template): the conversion uses shared memory at
// offset 0, in the prologue's copies of the slice and in the loop, while
// the copies are in flight. The slots take a region of their own
// (kgpu.own_shared_memory), placed above what the ops that run while
// copies are in flight use (from the prologue's first copy to the loop's
// end: the 32 x i32 conversion, 128 bytes, rounded up to 1024): 1024 +
// 15360 + 3 x 4608 = 30208. The epilogue's 64x64 f32 conversion (16384
// bytes), after the loop's last wait, reuses the slots' bytes. (The
// input is kgpu-assign-layouts' output from before it gave each use of
// such index vectors a copy of its own.)
// CHECK-LABEL: tt.func public @converted_index
// CHECK: kgpu.convert_layout
// CHECK: kgpu.async_copy {{.*}} {kgpu.own_shared_memory, offset = 0 : i64, rowStride = 40 : i64, slotBytes = 5120 : i64}
// CHECK: kgpu.async_copy {{.*}} {kgpu.own_shared_memory, offset = 15360 : i64, rowStride = 72 : i64, slotBytes = 4608 : i64}
// CHECK: scf.for
// CHECK: kgpu.convert_layout
// CHECK: kgpu.async_copy {{.*}} {kgpu.own_shared_memory, offset = 0 : i64
// CHECK: kgpu.local_dot {{.*}}kgpu.own_shared_memory
// LLVM: kgpu.shared = 30208 : i32
// LLVM-LABEL: llvm.func @converted_index
// LLVM: llvm.getelementptr %{{.*}}[1024]
// LLVM: nvvm.cp.async.shared.global
// LLVM: llvm.return
module attributes {"kgpu.num-warps" = 4 : i32, "kgpu.threads-per-warp" = 32 : i32} {
  tt.func public @converted_index(%arg0: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %arg1: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %arg2: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg3: i32) {
    %cst = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #kgpu.mma<{version = 2, warpsPerCTA = [2, 2], instrShape = [16, 8]}>>
    %c0_i32 = arith.constant 0 : i32
    %c1_i32 = arith.constant 1 : i32
    %c32_i32 = arith.constant 32 : i32
    %cst_0 = arith.constant dense<4096> : tensor<64x1xi32, #kgpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>>
    %cst_1 = arith.constant dense<64> : tensor<32x1xi32, #kgpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>>
    %0 = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #kgpu.slice<{dim = 0, parent = #kgpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>}>>
    %1 = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #kgpu.slice<{dim = 1, parent = #kgpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>}>>
    %2 = tt.expand_dims %1 {axis = 1 : i32} : tensor<64xi32, #kgpu.slice<{dim = 1, parent = #kgpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>}>> -> tensor<64x1xi32, #kgpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>>
    %3 = arith.muli %2, %cst_0 : tensor<64x1xi32, #kgpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>>
    %4 = tt.broadcast %3 : tensor<64x1xi32, #kgpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>> -> tensor<64x32xi32, #kgpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>>
    %5 = tt.expand_dims %0 {axis = 0 : i32} : tensor<64xi32, #kgpu.slice<{dim = 0, parent = #kgpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>}>> -> tensor<1x64xi32, #kgpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>>
    %6 = tt.broadcast %5 : tensor<1x64xi32, #kgpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>> -> tensor<32x64xi32, #kgpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>>
    %7 = scf.for %arg4 = %c0_i32 to %arg3 step %c1_i32 iter_args(%arg5 = %cst) -> (tensor<64x64xf32, #kgpu.mma<{version = 2, warpsPerCTA = [2, 2], instrShape = [16, 8]}>>)  : i32 {
      %12 = arith.muli %arg4, %c32_i32 : i32
      %13 = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #kgpu.slice<{dim = 0, parent = #kgpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>}>>
      %14 = tt.splat %12 : i32 -> tensor<32xi32, #kgpu.slice<{dim = 0, parent = #kgpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>}>>
      %15 = arith.addi %13, %14 : tensor<32xi32, #kgpu.slice<{dim = 0, parent = #kgpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>}>>
      %16 = tt.expand_dims %15 {axis = 0 : i32} : tensor<32xi32, #kgpu.slice<{dim = 0, parent = #kgpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>}>> -> tensor<1x32xi32, #kgpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>>
      %17 = tt.broadcast %16 : tensor<1x32xi32, #kgpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>> -> tensor<64x32xi32, #kgpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>>
      %18 = arith.addi %4, %17 : tensor<64x32xi32, #kgpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>>
      %19 = tt.splat %arg0 : !tt.ptr<f16> -> tensor<64x32x!tt.ptr<f16>, #kgpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>>
      %20 = tt.addptr %19, %18 : tensor<64x32x!tt.ptr<f16>, #kgpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>>, tensor<64x32xi32, #kgpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>>
      %21 = kgpu.convert_layout %15 : tensor<32xi32, #kgpu.slice<{dim = 0, parent = #kgpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>}>> -> tensor<32xi32, #kgpu.slice<{dim = 1, parent = #kgpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>}>>
      %22 = tt.expand_dims %21 {axis = 1 : i32} : tensor<32xi32, #kgpu.slice<{dim = 1, parent = #kgpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>}>> -> tensor<32x1xi32, #kgpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>>
      %23 = arith.muli %22, %cst_1 : tensor<32x1xi32, #kgpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>>
      %24 = tt.broadcast %23 : tensor<32x1xi32, #kgpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>> -> tensor<32x64xi32, #kgpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>>
      %25 = arith.addi %24, %6 : tensor<32x64xi32, #kgpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>>
      %26 = tt.splat %arg1 : !tt.ptr<f16> -> tensor<32x64x!tt.ptr<f16>, #kgpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>>
      %27 = tt.addptr %26, %25 : tensor<32x64x!tt.ptr<f16>, #kgpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>>, tensor<32x64xi32, #kgpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>>
      %28 = tt.load %20 : tensor<64x32x!tt.ptr<f16>, #kgpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>>
      %29 = tt.load %27 : tensor<32x64x!tt.ptr<f16>, #kgpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>>
      %30 = tt.dot %28, %29, %arg5 : tensor<64x32xf16, #kgpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>> * tensor<32x64xf16, #kgpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>> -> tensor<64x64xf32, #kgpu.mma<{version = 2, warpsPerCTA = [2, 2], instrShape = [16, 8]}>>
      scf.yield %30 : tensor<64x64xf32, #kgpu.mma<{version = 2, warpsPerCTA = [2, 2], instrShape = [16, 8]}>>
    }
    %8 = tt.broadcast %5 : tensor<1x64xi32, #kgpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>> -> tensor<64x64xi32, #kgpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>>
    %9 = tt.splat %arg2 : !tt.ptr<f32> -> tensor<64x64x!tt.ptr<f32>, #kgpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>>
    %10 = tt.addptr %9, %8 : tensor<64x64x!tt.ptr<f32>, #kgpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>>, tensor<64x64xi32, #kgpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>>
    %11 = kgpu.convert_layout %7 : tensor<64x64xf32, #kgpu.mma<{version = 2, warpsPerCTA = [2, 2], instrShape = [16, 8]}>> -> tensor<64x64xf32, #kgpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>>
    tt.store %10, %11 : tensor<64x64x!tt.ptr<f32>, #kgpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>>
    tt.return
  }
}
