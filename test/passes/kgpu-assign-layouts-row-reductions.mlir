// RUN: kiln-opt %s -split-input-file -kgpu-assign-layouts="num-warps=2" | FileCheck %s

// Rows of 512 f16 (8 a thread, 256 a warp) reduced along the row, the
// contiguous dimension, as Inductor's persistent layer norms do (the
// corpus' triton_per_fused_clone_native_layer_norm_transpose_0 is 8 x 512
// on 2 warps). The warps go along the rows, so each row's sum combines
// within one warp; with them along the columns every row would be split
// between the two warps and combined through shared memory.
// CHECK-DAG: #[[$ROWS:.*]] = #kgpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [1, 32], warpsPerCTA = [2, 1], order = [1, 0]}>
// CHECK-LABEL: tt.func public @row_sums
// CHECK: tt.load %{{.*}} : tensor<8x512x!tt.ptr<f16>, #[[$ROWS]]>
// CHECK: "tt.reduce"(%{{.*}}) <{axis = 1 : i32}>
module {
  tt.func public @row_sums(%in: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %out: !tt.ptr<f32> {tt.divisibility = 16 : i32}) attributes {noinline = false} {
    %cols = tt.make_range {end = 512 : i32, start = 0 : i32} : tensor<512xi32>
    %rows = tt.make_range {end = 8 : i32, start = 0 : i32} : tensor<8xi32>
    %r = tt.expand_dims %rows {axis = 1 : i32} : tensor<8xi32> -> tensor<8x1xi32>
    %c512 = arith.constant dense<512> : tensor<8x1xi32>
    %roff = arith.muli %r, %c512 : tensor<8x1xi32>
    %c = tt.expand_dims %cols {axis = 0 : i32} : tensor<512xi32> -> tensor<1x512xi32>
    %rb = tt.broadcast %roff : tensor<8x1xi32> -> tensor<8x512xi32>
    %cb = tt.broadcast %c : tensor<1x512xi32> -> tensor<8x512xi32>
    %off = arith.addi %rb, %cb : tensor<8x512xi32>
    %base = tt.splat %in : !tt.ptr<f16> -> tensor<8x512x!tt.ptr<f16>>
    %ptrs = tt.addptr %base, %off : tensor<8x512x!tt.ptr<f16>>, tensor<8x512xi32>
    %x = tt.load %ptrs : tensor<8x512x!tt.ptr<f16>>
    %xf = arith.extf %x : tensor<8x512xf16> to tensor<8x512xf32>
    %sum = "tt.reduce"(%xf) <{axis = 1 : i32}> ({
    ^bb0(%a: f32, %b: f32):
      %s = arith.addf %a, %b : f32
      tt.reduce.return %s : f32
    }) : (tensor<8x512xf32>) -> tensor<8xf32>
    %obase = tt.splat %out : !tt.ptr<f32> -> tensor<8x!tt.ptr<f32>>
    %optrs = tt.addptr %obase, %rows : tensor<8x!tt.ptr<f32>>, tensor<8xi32>
    tt.store %optrs, %sum : tensor<8x!tt.ptr<f32>>
    tt.return
  }
}

// -----

// The same rows, not reduced: the warps stay along the contiguous
// dimension (lanes, then warps, fastest dimension first).
// CHECK-DAG: #[[$COLS:.*]] = #kgpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [1, 32], warpsPerCTA = [1, 2], order = [1, 0]}>
// CHECK-LABEL: tt.func public @row_copy
// CHECK: tt.load %{{.*}} : tensor<8x512x!tt.ptr<f16>, #[[$COLS]]>
module {
  tt.func public @row_copy(%in: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %out: !tt.ptr<f16> {tt.divisibility = 16 : i32}) attributes {noinline = false} {
    %cols = tt.make_range {end = 512 : i32, start = 0 : i32} : tensor<512xi32>
    %rows = tt.make_range {end = 8 : i32, start = 0 : i32} : tensor<8xi32>
    %r = tt.expand_dims %rows {axis = 1 : i32} : tensor<8xi32> -> tensor<8x1xi32>
    %c512 = arith.constant dense<512> : tensor<8x1xi32>
    %roff = arith.muli %r, %c512 : tensor<8x1xi32>
    %c = tt.expand_dims %cols {axis = 0 : i32} : tensor<512xi32> -> tensor<1x512xi32>
    %rb = tt.broadcast %roff : tensor<8x1xi32> -> tensor<8x512xi32>
    %cb = tt.broadcast %c : tensor<1x512xi32> -> tensor<8x512xi32>
    %off = arith.addi %rb, %cb : tensor<8x512xi32>
    %base = tt.splat %in : !tt.ptr<f16> -> tensor<8x512x!tt.ptr<f16>>
    %ptrs = tt.addptr %base, %off : tensor<8x512x!tt.ptr<f16>>, tensor<8x512xi32>
    %x = tt.load %ptrs : tensor<8x512x!tt.ptr<f16>>
    %obase = tt.splat %out : !tt.ptr<f16> -> tensor<8x512x!tt.ptr<f16>>
    %optrs = tt.addptr %obase, %off : tensor<8x512x!tt.ptr<f16>>, tensor<8x512xi32>
    tt.store %optrs, %x : tensor<8x512x!tt.ptr<f16>>
    tt.return
  }
}
