// RUN: kiln-opt %s -kgpu-assign-layouts=num-warps=2 | FileCheck %s
// RUN: kiln-opt %s -kgpu-assign-layouts=num-warps=2 -kgpu-convert-to-llvm | FileCheck %s --check-prefix=LLVM

// A CUDA-core (f32, ieee) dot whose B is stored K-contiguous (N rows of
// K): B's pointers share the column offsets with the result's store,
// whose elements are contiguous along N. Without a tensor-core layout the
// whole group used to be blocked for the store, and B was read along N,
// one 4-byte element at a time. The operand load now gets its own copy of
// the index computations, so its layout follows its own contiguity (K,
// dimension 0) and it reads 16 bytes at a time. (H200: 75.4-76.2 -> 66.9-
// 67.4 us for the conformance kernel dot_f32_ieee_bt_32x64x32_w2_s3.)
// CHECK: #[[B:blocked[0-9]*]] = #kgpu.blocked<{sizePerThread = [4, 1], {{.*}}order = [0, 1]}>
// CHECK-LABEL: tt.func public @fma_bt
// CHECK: tt.load {{.*}} : tensor<32x64x!tt.ptr<f32>, #[[B]]>
// CHECK: tt.dot {{.*}} * tensor<32x64xf32, #[[B]]> -> tensor<32x64xf32, #[[C:blocked[0-9]*]]>
// CHECK: tt.store {{.*}} : tensor<32x64x!tt.ptr<f32>, #[[C]]>
// LLVM-LABEL: llvm.func @fma_bt
// LLVM-COUNT-8: llvm.load {{.*}} {alignment = 16 : i64} : !llvm.ptr<1> -> vector<4xf32>
// LLVM-NOT: llvm.load {{.*}} : !llvm.ptr<1> -> f32
tt.func public @fma_bt(%a: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %b: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %c: !tt.ptr<f32> {tt.divisibility = 16 : i32}) {
  %zero = arith.constant dense<0.0> : tensor<32x64xf32>
  %c32 = arith.constant dense<32> : tensor<32x1xi32>
  %c32n = arith.constant dense<32> : tensor<1x64xi32>
  %c64 = arith.constant dense<64> : tensor<32x1xi32>
  %rm = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32>
  %rn = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
  // A: 32 x 32, row-major.
  %am = tt.expand_dims %rm {axis = 1 : i32} : tensor<32xi32> -> tensor<32x1xi32>
  %ak = tt.expand_dims %rm {axis = 0 : i32} : tensor<32xi32> -> tensor<1x32xi32>
  %ar = arith.muli %am, %c32 : tensor<32x1xi32>
  %arb = tt.broadcast %ar : tensor<32x1xi32> -> tensor<32x32xi32>
  %akb = tt.broadcast %ak : tensor<1x32xi32> -> tensor<32x32xi32>
  %aoff = arith.addi %arb, %akb : tensor<32x32xi32>
  %as = tt.splat %a : !tt.ptr<f32> -> tensor<32x32x!tt.ptr<f32>>
  %ap = tt.addptr %as, %aoff : tensor<32x32x!tt.ptr<f32>>, tensor<32x32xi32>
  %x = tt.load %ap : tensor<32x32x!tt.ptr<f32>>
  // B: 32 (K) x 64 (N) at b + k + n * 32 (K contiguous).
  %bk = tt.expand_dims %rm {axis = 1 : i32} : tensor<32xi32> -> tensor<32x1xi32>
  %bn = tt.expand_dims %rn {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
  %bnr = arith.muli %bn, %c32n : tensor<1x64xi32>
  %bkb = tt.broadcast %bk : tensor<32x1xi32> -> tensor<32x64xi32>
  %bnb = tt.broadcast %bnr : tensor<1x64xi32> -> tensor<32x64xi32>
  %boff = arith.addi %bkb, %bnb : tensor<32x64xi32>
  %bs = tt.splat %b : !tt.ptr<f32> -> tensor<32x64x!tt.ptr<f32>>
  %bp = tt.addptr %bs, %boff : tensor<32x64x!tt.ptr<f32>>, tensor<32x64xi32>
  %y = tt.load %bp : tensor<32x64x!tt.ptr<f32>>
  %d = tt.dot %x, %y, %zero, inputPrecision = ieee : tensor<32x32xf32> * tensor<32x64xf32> -> tensor<32x64xf32>
  // C: 32 x 64, row-major, sharing the column offsets %bn with B.
  %cr = arith.muli %am, %c64 : tensor<32x1xi32>
  %crb = tt.broadcast %cr : tensor<32x1xi32> -> tensor<32x64xi32>
  %cnb = tt.broadcast %bn : tensor<1x64xi32> -> tensor<32x64xi32>
  %coff = arith.addi %crb, %cnb : tensor<32x64xi32>
  %cs = tt.splat %c : !tt.ptr<f32> -> tensor<32x64x!tt.ptr<f32>>
  %cp = tt.addptr %cs, %coff : tensor<32x64x!tt.ptr<f32>>, tensor<32x64xi32>
  tt.store %cp, %d : tensor<32x64x!tt.ptr<f32>>
  tt.return
}
