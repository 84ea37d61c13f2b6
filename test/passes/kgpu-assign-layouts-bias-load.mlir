// RUN: kiln-opt %s -split-input-file -kgpu-assign-layouts="num-warps=8 mma-version=3" | FileCheck %s
// RUN: kiln-opt %s -split-input-file -kgpu-assign-layouts="num-warps=8 mma-version=2" | FileCheck %s
// RUN: kiln-opt %s -split-input-file -kgpu-assign-layouts="num-warps=4 mma-version=3" | FileCheck %s --check-prefix=W4

// C = relu(A B + bias) (bench/conformance/kernels_dots/dot_bf16_epilogue_*,
// locations dropped): the column offsets index B's loads, the result's
// store and the bias load, whose values are added to the mma accumulator.
// The offsets' group meets several slices (of the store's blocked layout,
// of the accumulator's mma layout), so a convert_layout of the loaded bias
// follows whichever it takes, and in the store's slice all 8 warps would
// load all 256 values (each lane 32 bytes, half of every sector unused).
// The group is blocked instead: one element per thread, loaded once.
// CHECK-DAG: #[[$ROW:.*]] = #kgpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [8], order = [0]}>
// CHECK-DAG: #[[$MMA:.*]] = #kgpu.mma<
// CHECK-DAG: #[[$ACC:.*]] = #kgpu.slice<{dim = 0, parent = #[[$MMA]]}>
// CHECK-LABEL: tt.func public @bias_epilogue
// CHECK: %[[BIAS:.*]] = tt.load %{{.*}}, %{{.*}}, %{{.*}} : tensor<256x!tt.ptr<f32>, #[[$ROW]]>
// CHECK-NEXT: %[[C:.*]] = kgpu.convert_layout %[[BIAS]] : tensor<256xf32, #[[$ROW]]> -> tensor<256xf32, #[[$ACC]]>
// CHECK-NEXT: tt.expand_dims %[[C]] {axis = 0 : i32} : tensor<256xf32, #[[$ACC]]> -> tensor<1x256xf32, #[[$MMA]]>
module {
  tt.func public @bias_epilogue(%a: !tt.ptr<bf16> {tt.divisibility = 16 : i32}, %b: !tt.ptr<bf16> {tt.divisibility = 16 : i32}, %c: !tt.ptr<bf16> {tt.divisibility = 16 : i32}, %bias: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %M: i32 {tt.divisibility = 16 : i32}, %N: i32 {tt.divisibility = 16 : i32}, %K: i32 {tt.divisibility = 16 : i32}, %stride_am: i32 {tt.divisibility = 16 : i32}, %stride_bk: i32 {tt.divisibility = 16 : i32}, %stride_bn: i32 {tt.divisibility = 16 : i32}, %stride_cm: i32 {tt.divisibility = 16 : i32}) attributes {noinline = false} {
    %c63_i32 = arith.constant 63 : i32
    %c1_i32 = arith.constant 1 : i32
    %c0_i32 = arith.constant 0 : i32
    %cst = arith.constant dense<0.000000e+00> : tensor<128x256xf32>
    %acc = arith.constant dense<0.000000e+00> : tensor<256xf32>
    %cst_0 = arith.constant dense<64> : tensor<128x64xi32>
    %c64_i32 = arith.constant 64 : i32
    %c256_i32 = arith.constant 256 : i32
    %c128_i32 = arith.constant 128 : i32
    %c24_i32 = arith.constant 24 : i32
    %N_1 = arith.subi %N, %c24_i32 : i32
    %pid_m = tt.get_program_id x : i32
    %pid_n = tt.get_program_id y : i32
    %offs_m = arith.muli %pid_m, %c128_i32 : i32
    %offs_m_2 = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32>
    %offs_m_3 = tt.splat %offs_m : i32 -> tensor<128xi32>
    %offs_m_4 = arith.addi %offs_m_3, %offs_m_2 : tensor<128xi32>
    %offs_n = arith.muli %pid_n, %c256_i32 : i32
    %offs_n_5 = tt.make_range {end = 256 : i32, start = 0 : i32} : tensor<256xi32>
    %offs_n_6 = tt.splat %offs_n : i32 -> tensor<256xi32>
    %offs_n_7 = arith.addi %offs_n_6, %offs_n_5 : tensor<256xi32>
    %offs_k = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
    %am = tt.splat %M : i32 -> tensor<128xi32>
    %am_8 = arith.remsi %offs_m_4, %am : tensor<128xi32>
    %bn = tt.splat %N_1 : i32 -> tensor<256xi32>
    %bn_9 = arith.remsi %offs_n_7, %bn : tensor<256xi32>
    %a_ptrs = tt.expand_dims %am_8 {axis = 1 : i32} : tensor<128xi32> -> tensor<128x1xi32>
    %a_ptrs_10 = tt.splat %stride_am : i32 -> tensor<128x1xi32>
    %a_ptrs_11 = arith.muli %a_ptrs, %a_ptrs_10 : tensor<128x1xi32>
    %a_ptrs_12 = tt.splat %a : !tt.ptr<bf16> -> tensor<128x1x!tt.ptr<bf16>>
    %a_ptrs_13 = tt.addptr %a_ptrs_12, %a_ptrs_11 : tensor<128x1x!tt.ptr<bf16>>, tensor<128x1xi32>
    %a_ptrs_14 = tt.expand_dims %offs_k {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
    %a_ptrs_15 = tt.broadcast %a_ptrs_13 : tensor<128x1x!tt.ptr<bf16>> -> tensor<128x64x!tt.ptr<bf16>>
    %a_ptrs_16 = tt.broadcast %a_ptrs_14 : tensor<1x64xi32> -> tensor<128x64xi32>
    %a_ptrs_17 = tt.addptr %a_ptrs_15, %a_ptrs_16 : tensor<128x64x!tt.ptr<bf16>>, tensor<128x64xi32>
    %b_ptrs = tt.expand_dims %offs_k {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
    %b_ptrs_18 = tt.splat %stride_bk : i32 -> tensor<64x1xi32>
    %b_ptrs_19 = arith.muli %b_ptrs, %b_ptrs_18 : tensor<64x1xi32>
    %b_ptrs_20 = tt.splat %b : !tt.ptr<bf16> -> tensor<64x1x!tt.ptr<bf16>>
    %b_ptrs_21 = tt.addptr %b_ptrs_20, %b_ptrs_19 : tensor<64x1x!tt.ptr<bf16>>, tensor<64x1xi32>
    %b_ptrs_22 = tt.expand_dims %bn_9 {axis = 0 : i32} : tensor<256xi32> -> tensor<1x256xi32>
    %b_ptrs_23 = tt.broadcast %b_ptrs_21 : tensor<64x1x!tt.ptr<bf16>> -> tensor<64x256x!tt.ptr<bf16>>
    %b_ptrs_24 = tt.broadcast %b_ptrs_22 : tensor<1x256xi32> -> tensor<64x256xi32>
    %b_ptrs_25 = tt.addptr %b_ptrs_23, %b_ptrs_24 : tensor<64x256x!tt.ptr<bf16>>, tensor<64x256xi32>
    %c_mask = tt.expand_dims %offs_m_4 {axis = 1 : i32} : tensor<128xi32> -> tensor<128x1xi32>
    %c_mask_26 = tt.splat %M : i32 -> tensor<128x1xi32>
    %c_mask_27 = arith.cmpi slt, %c_mask, %c_mask_26 : tensor<128x1xi32>
    %c_mask_28 = tt.expand_dims %offs_n_7 {axis = 0 : i32} : tensor<256xi32> -> tensor<1x256xi32>
    %c_mask_29 = tt.splat %N_1 : i32 -> tensor<1x256xi32>
    %c_mask_30 = arith.cmpi slt, %c_mask_28, %c_mask_29 : tensor<1x256xi32>
    %c_mask_31 = tt.broadcast %c_mask_27 : tensor<128x1xi1> -> tensor<128x256xi1>
    %c_mask_32 = tt.broadcast %c_mask_30 : tensor<1x256xi1> -> tensor<128x256xi1>
    %c_mask_33 = arith.andi %c_mask_31, %c_mask_32 : tensor<128x256xi1>
    %0 = arith.addi %K, %c63_i32 : i32
    %1 = arith.divsi %0, %c64_i32 : i32
    %acc_34:3 = scf.for %kb = %c0_i32 to %1 step %c1_i32 iter_args(%a_ptrs_43 = %a_ptrs_17, %b_ptrs_44 = %b_ptrs_25, %acc_45 = %cst) -> (tensor<128x64x!tt.ptr<bf16>>, tensor<64x256x!tt.ptr<bf16>>, tensor<128x256xf32>)  : i32 {
      %x = tt.load %a_ptrs_43 : tensor<128x64x!tt.ptr<bf16>>
      %y = tt.load %b_ptrs_44 : tensor<64x256x!tt.ptr<bf16>>
      %acc_46 = tt.dot %x, %y, %acc_45, inputPrecision = tf32 : tensor<128x64xbf16> * tensor<64x256xbf16> -> tensor<128x256xf32>
      %a_ptrs_47 = tt.addptr %a_ptrs_43, %cst_0 : tensor<128x64x!tt.ptr<bf16>>, tensor<128x64xi32>
      %b_ptrs_48 = arith.muli %stride_bk, %c64_i32 : i32
      %b_ptrs_49 = tt.splat %b_ptrs_48 : i32 -> tensor<64x256xi32>
      %b_ptrs_50 = tt.addptr %b_ptrs_44, %b_ptrs_49 : tensor<64x256x!tt.ptr<bf16>>, tensor<64x256xi32>
      scf.yield %a_ptrs_47, %b_ptrs_50, %acc_46 : tensor<128x64x!tt.ptr<bf16>>, tensor<64x256x!tt.ptr<bf16>>, tensor<128x256xf32>
    }
    %acc_35 = arith.cmpi slt, %offs_n_7, %bn : tensor<256xi32>
    %acc_36 = tt.splat %bias : !tt.ptr<f32> -> tensor<256x!tt.ptr<f32>>
    %acc_37 = tt.addptr %acc_36, %offs_n_7 : tensor<256x!tt.ptr<f32>>, tensor<256xi32>
    %acc_38 = tt.load %acc_37, %acc_35, %acc : tensor<256x!tt.ptr<f32>>
    %acc_39 = tt.expand_dims %acc_38 {axis = 0 : i32} : tensor<256xf32> -> tensor<1x256xf32>
    %acc_40 = tt.broadcast %acc_39 : tensor<1x256xf32> -> tensor<128x256xf32>
    %acc_41 = arith.addf %acc_34#2, %acc_40 : tensor<128x256xf32>
    %acc_42 = arith.maxnumf %acc_41, %cst : tensor<128x256xf32>
    %2 = tt.splat %stride_cm : i32 -> tensor<128x1xi32>
    %3 = arith.muli %c_mask, %2 : tensor<128x1xi32>
    %4 = tt.splat %c : !tt.ptr<bf16> -> tensor<128x1x!tt.ptr<bf16>>
    %5 = tt.addptr %4, %3 : tensor<128x1x!tt.ptr<bf16>>, tensor<128x1xi32>
    %6 = tt.broadcast %5 : tensor<128x1x!tt.ptr<bf16>> -> tensor<128x256x!tt.ptr<bf16>>
    %7 = tt.broadcast %c_mask_28 : tensor<1x256xi32> -> tensor<128x256xi32>
    %8 = tt.addptr %6, %7 : tensor<128x256x!tt.ptr<bf16>>, tensor<128x256xi32>
    %9 = arith.truncf %acc_42 : tensor<128x256xf32> to tensor<128x256xbf16>
    tt.store %8, %9, %c_mask_33 : tensor<128x256x!tt.ptr<bf16>>
    tt.return
  }
}

// -----
// Without a tensor-core accumulator the rule above does not apply: here
// (a helper's break-test kernel, locations dropped) the 16-element row
// vector %rv meets the slices of two blocked tiles and stays in the
// first's slice. Blocked, it cost two more conversions and ptxas spilled
// 7460 bytes instead of 856.
// CHECK-LABEL: tt.func public @no_accumulator
// CHECK: tt.load %{{.*}} : tensor<16x!tt.ptr<f32>, #slice{{[0-9]*}}>
// W4-LABEL: tt.func public @no_accumulator
// W4: tt.load %{{.*}} : tensor<16x!tt.ptr<f32>, #slice{{[0-9]*}}>
module {
  tt.func public @no_accumulator(%x: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %w: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %b: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %out: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %N: i32 {tt.divisibility = 16 : i32}, %R: i32 {tt.divisibility = 16 : i32}) attributes {noinline = false} {
    %rv = arith.constant 4096 : i32
    %c1048576_i32 = arith.constant 1048576 : i32
    %wv = arith.constant dense<-1.000000e+00> : tensor<1024xf32>
    %c64_i32 = arith.constant 64 : i32
    %c16_i32 = arith.constant 16 : i32
    %c8_i32 = arith.constant 8 : i32
    %pid = tt.get_program_id y : i32
    %pid_0 = arith.muli %pid, %c8_i32 : i32
    %pid_1 = tt.get_program_id x : i32
    %pid_2 = arith.addi %pid_0, %pid_1 : i32
    %rows = arith.muli %pid_2, %c16_i32 : i32
    %rows_3 = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
    %rows_4 = tt.splat %rows : i32 -> tensor<16xi32>
    %rows_5 = arith.addi %rows_4, %rows_3 : tensor<16xi32>
    %cols = tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32>
    %wv_6 = arith.divsi %N, %c64_i32 : i32
    %wv_7 = tt.splat %wv_6 : i32 -> tensor<1024xi32>
    %wv_8 = arith.cmpi slt, %cols, %wv_7 : tensor<1024xi32>
    %wv_9 = tt.splat %w : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>>
    %wv_10 = tt.addptr %wv_9, %cols : tensor<1024x!tt.ptr<f32>>, tensor<1024xi32>
    %wv_11 = tt.load %wv_10, %wv_8, %wv : tensor<1024x!tt.ptr<f32>>
    %x1 = tt.expand_dims %rows_5 {axis = 1 : i32} : tensor<16xi32> -> tensor<16x1xi32>
    %x1_12 = tt.splat %N : i32 -> tensor<16x1xi32>
    %x1_13 = arith.muli %x1, %x1_12 : tensor<16x1xi32>
    %x1_14 = tt.splat %x : !tt.ptr<f32> -> tensor<16x1x!tt.ptr<f32>>
    %x1_15 = tt.addptr %x1_14, %x1_13 : tensor<16x1x!tt.ptr<f32>>, tensor<16x1xi32>
    %x1_16 = tt.expand_dims %cols {axis = 0 : i32} : tensor<1024xi32> -> tensor<1x1024xi32>
    %x1_17 = tt.broadcast %x1_15 : tensor<16x1x!tt.ptr<f32>> -> tensor<16x1024x!tt.ptr<f32>>
    %x1_18 = tt.broadcast %x1_16 : tensor<1x1024xi32> -> tensor<16x1024xi32>
    %x1_19 = tt.addptr %x1_17, %x1_18 : tensor<16x1024x!tt.ptr<f32>>, tensor<16x1024xi32>
    %x1_20 = tt.load %x1_19 : tensor<16x1024x!tt.ptr<f32>>
    %x2 = tt.addptr %x, %c1048576_i32 : !tt.ptr<f32>, i32
    %x2_21 = tt.expand_dims %cols {axis = 1 : i32} : tensor<1024xi32> -> tensor<1024x1xi32>
    %x2_22 = tt.splat %N : i32 -> tensor<1024x1xi32>
    %x2_23 = arith.muli %x2_21, %x2_22 : tensor<1024x1xi32>
    %x2_24 = tt.splat %x2 : !tt.ptr<f32> -> tensor<1024x1x!tt.ptr<f32>>
    %x2_25 = tt.addptr %x2_24, %x2_23 : tensor<1024x1x!tt.ptr<f32>>, tensor<1024x1xi32>
    %x2_26 = tt.expand_dims %rows_5 {axis = 0 : i32} : tensor<16xi32> -> tensor<1x16xi32>
    %x2_27 = tt.broadcast %x2_25 : tensor<1024x1x!tt.ptr<f32>> -> tensor<1024x16x!tt.ptr<f32>>
    %x2_28 = tt.broadcast %x2_26 : tensor<1x16xi32> -> tensor<1024x16xi32>
    %x2_29 = tt.addptr %x2_27, %x2_28 : tensor<1024x16x!tt.ptr<f32>>, tensor<1024x16xi32>
    %x2_30 = tt.load %x2_29 : tensor<1024x16x!tt.ptr<f32>>
    %y1 = tt.expand_dims %wv_11 {axis = 0 : i32} : tensor<1024xf32> -> tensor<1x1024xf32>
    %y1_31 = tt.broadcast %y1 : tensor<1x1024xf32> -> tensor<16x1024xf32>
    %y1_32 = arith.mulf %x1_20, %y1_31 : tensor<16x1024xf32>
    %y2 = tt.expand_dims %wv_11 {axis = 1 : i32} : tensor<1024xf32> -> tensor<1024x1xf32>
    %y2_33 = tt.broadcast %y2 : tensor<1024x1xf32> -> tensor<1024x16xf32>
    %y2_34 = arith.addf %x2_30, %y2_33 : tensor<1024x16xf32>
    %rv_35 = tt.addptr %b, %rv : !tt.ptr<f32>, i32
    %rv_36 = tt.splat %rv_35 : !tt.ptr<f32> -> tensor<16x!tt.ptr<f32>>
    %rv_37 = tt.addptr %rv_36, %rows_5 : tensor<16x!tt.ptr<f32>>, tensor<16xi32>
    %rv_38 = tt.load %rv_37 : tensor<16x!tt.ptr<f32>>
    %y1_39 = tt.expand_dims %rv_38 {axis = 1 : i32} : tensor<16xf32> -> tensor<16x1xf32>
    %y1_40 = tt.broadcast %y1_39 : tensor<16x1xf32> -> tensor<16x1024xf32>
    %y1_41 = arith.subf %y1_32, %y1_40 : tensor<16x1024xf32>
    %y2_42 = tt.expand_dims %rv_38 {axis = 0 : i32} : tensor<16xf32> -> tensor<1x16xf32>
    %y2_43 = tt.broadcast %y2_42 : tensor<1x16xf32> -> tensor<1024x16xf32>
    %y2_44 = arith.subf %y2_34, %y2_43 : tensor<1024x16xf32>
    %0 = tt.splat %out : !tt.ptr<f32> -> tensor<16x1x!tt.ptr<f32>>
    %1 = tt.addptr %0, %x1_13 : tensor<16x1x!tt.ptr<f32>>, tensor<16x1xi32>
    %2 = tt.broadcast %1 : tensor<16x1x!tt.ptr<f32>> -> tensor<16x1024x!tt.ptr<f32>>
    %3 = tt.addptr %2, %x1_18 : tensor<16x1024x!tt.ptr<f32>>, tensor<16x1024xi32>
    tt.store %3, %y1_41 : tensor<16x1024x!tt.ptr<f32>>
    %4 = tt.addptr %out, %c1048576_i32 : !tt.ptr<f32>, i32
    %5 = tt.splat %4 : !tt.ptr<f32> -> tensor<1024x1x!tt.ptr<f32>>
    %6 = tt.addptr %5, %x2_23 : tensor<1024x1x!tt.ptr<f32>>, tensor<1024x1xi32>
    %7 = tt.broadcast %6 : tensor<1024x1x!tt.ptr<f32>> -> tensor<1024x16x!tt.ptr<f32>>
    %8 = tt.addptr %7, %x2_28 : tensor<1024x16x!tt.ptr<f32>>, tensor<1024x16xi32>
    tt.store %8, %y2_44 : tensor<1024x16x!tt.ptr<f32>>
    tt.return
  }
}
