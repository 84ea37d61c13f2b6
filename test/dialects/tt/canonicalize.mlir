// RUN: kiln-opt %s -canonicalize | FileCheck %s --enable-var-scope

//===----------------------------------------------------------------------===//
// Folders: splat / broadcast / expand_dims of constants, no-op broadcast,
// addptr by zero
//===----------------------------------------------------------------------===//

// CHECK-LABEL: tt.func @splat_of_constant()
// CHECK-NOT:     tt.splat
// CHECK-NEXT:    [[CST:%.*]] = arith.constant dense<1.500000e+00> : tensor<128xf32>
// CHECK-NEXT:    [[CSTI:%.*]] = arith.constant dense<-3> : tensor<4x8xi32>
// CHECK-NEXT:    tt.return [[CST]], [[CSTI]] : tensor<128xf32>, tensor<4x8xi32>
tt.func @splat_of_constant() -> (tensor<128xf32>, tensor<4x8xi32>) {
  %c = arith.constant 1.5 : f32
  %ci = arith.constant -3 : i32
  %0 = tt.splat %c : f32 -> tensor<128xf32>
  %1 = tt.splat %ci : i32 -> tensor<4x8xi32>
  tt.return %0, %1 : tensor<128xf32>, tensor<4x8xi32>
}

// A splat of a non-constant scalar stays.
// CHECK-LABEL: tt.func @splat_of_argument(
// CHECK-SAME:      [[P:%[^:]+]]: !tt.ptr<f32>, [[S:%[^:]+]]: f32)
// CHECK-NEXT:    [[PS:%.*]] = tt.splat [[P]] : !tt.ptr<f32> -> tensor<4x!tt.ptr<f32>>
// CHECK-NEXT:    [[SS:%.*]] = tt.splat [[S]] : f32 -> tensor<4xf32>
// CHECK-NEXT:    tt.return [[PS]], [[SS]]
tt.func @splat_of_argument(%p: !tt.ptr<f32>, %s: f32) -> (tensor<4x!tt.ptr<f32>>, tensor<4xf32>) {
  %0 = tt.splat %p : !tt.ptr<f32> -> tensor<4x!tt.ptr<f32>>
  %1 = tt.splat %s : f32 -> tensor<4xf32>
  tt.return %0, %1 : tensor<4x!tt.ptr<f32>>, tensor<4xf32>
}

// CHECK-LABEL: tt.func @broadcast_of_splat_constant()
// CHECK-NOT:     tt.broadcast
// CHECK-NEXT:    [[CST:%.*]] = arith.constant dense<7> : tensor<64x128xi32>
// CHECK-NEXT:    tt.return [[CST]] : tensor<64x128xi32>
tt.func @broadcast_of_splat_constant() -> tensor<64x128xi32> {
  %c = arith.constant dense<7> : tensor<1x128xi32>
  %0 = tt.broadcast %c : tensor<1x128xi32> -> tensor<64x128xi32>
  tt.return %0 : tensor<64x128xi32>
}

// splat then broadcast of a constant folds all the way.
// CHECK-LABEL: tt.func @broadcast_of_splat_of_constant()
// CHECK-NEXT:    [[CST:%.*]] = arith.constant dense<true> : tensor<32x16xi1>
// CHECK-NEXT:    tt.return [[CST]] : tensor<32x16xi1>
tt.func @broadcast_of_splat_of_constant() -> tensor<32x16xi1> {
  %t = arith.constant true
  %0 = tt.splat %t : i1 -> tensor<32x1xi1>
  %1 = tt.broadcast %0 : tensor<32x1xi1> -> tensor<32x16xi1>
  tt.return %1 : tensor<32x16xi1>
}

// CHECK-LABEL: tt.func @expand_dims_of_splat_constant()
// CHECK-NOT:     tt.expand_dims
// CHECK-NEXT:    [[CST:%.*]] = arith.constant dense<2.000000e+00> : tensor<128x1xf16>
// CHECK-NEXT:    tt.return [[CST]] : tensor<128x1xf16>
tt.func @expand_dims_of_splat_constant() -> tensor<128x1xf16> {
  %c = arith.constant dense<2.0> : tensor<128xf16>
  %0 = tt.expand_dims %c {axis = 1 : i32} : tensor<128xf16> -> tensor<128x1xf16>
  tt.return %0 : tensor<128x1xf16>
}

// Only splat constants fold; expand_dims of a non-splat constant stays.
// CHECK-LABEL: tt.func @expand_dims_of_dense_constant()
// CHECK-NEXT:    [[CST:%.*]] = arith.constant dense<[1, 2]> : tensor<2xi32>
// CHECK-NEXT:    [[E:%.*]] = tt.expand_dims [[CST]] {axis = 0 : i32} : tensor<2xi32> -> tensor<1x2xi32>
// CHECK-NEXT:    tt.return [[E]] : tensor<1x2xi32>
tt.func @expand_dims_of_dense_constant() -> tensor<1x2xi32> {
  %c = arith.constant dense<[1, 2]> : tensor<2xi32>
  %0 = tt.expand_dims %c {axis = 0 : i32} : tensor<2xi32> -> tensor<1x2xi32>
  tt.return %0 : tensor<1x2xi32>
}

// A broadcast to the source's own type is the source.
// CHECK-LABEL: tt.func @broadcast_same_type(
// CHECK-SAME:      [[X:%[^:]+]]: tensor<32x64xf32>)
// CHECK-NOT:     tt.broadcast
// CHECK-NEXT:    tt.return [[X]] : tensor<32x64xf32>
tt.func @broadcast_same_type(%x: tensor<32x64xf32>) -> tensor<32x64xf32> {
  %0 = tt.broadcast %x : tensor<32x64xf32> -> tensor<32x64xf32>
  tt.return %0 : tensor<32x64xf32>
}

// A broadcast that stretches a non-constant value stays.
// CHECK-LABEL: tt.func @broadcast_kept(
// CHECK-SAME:      [[X:%[^:]+]]: tensor<32x1xf32>)
// CHECK-NEXT:    [[B:%.*]] = tt.broadcast [[X]] : tensor<32x1xf32> -> tensor<32x64xf32>
// CHECK-NEXT:    tt.return [[B]] : tensor<32x64xf32>
tt.func @broadcast_kept(%x: tensor<32x1xf32>) -> tensor<32x64xf32> {
  %0 = tt.broadcast %x : tensor<32x1xf32> -> tensor<32x64xf32>
  tt.return %0 : tensor<32x64xf32>
}

// CHECK-LABEL: tt.func @addptr_zero_scalar(
// CHECK-SAME:      [[P:%[^:]+]]: !tt.ptr<f32>)
// CHECK-NOT:     tt.addptr
// CHECK-NEXT:    tt.return [[P]], [[P]] : !tt.ptr<f32>, !tt.ptr<f32>
tt.func @addptr_zero_scalar(%p: !tt.ptr<f32>) -> (!tt.ptr<f32>, !tt.ptr<f32>) {
  %c0_i32 = arith.constant 0 : i32
  %c0_i64 = arith.constant 0 : i64
  %0 = tt.addptr %p, %c0_i32 : !tt.ptr<f32>, i32
  %1 = tt.addptr %p, %c0_i64 : !tt.ptr<f32>, i64
  tt.return %0, %1 : !tt.ptr<f32>, !tt.ptr<f32>
}

// CHECK-LABEL: tt.func @addptr_zero_tensor(
// CHECK-SAME:      [[P:%[^:]+]]: tensor<128x!tt.ptr<f16>>, [[S:%[^:]+]]: !tt.ptr<f16>)
// CHECK-NOT:     tt.addptr
// CHECK-NEXT:    [[PS:%.*]] = tt.splat [[S]] : !tt.ptr<f16> -> tensor<128x!tt.ptr<f16>>
// CHECK-NEXT:    tt.return [[P]], [[PS]] : tensor<128x!tt.ptr<f16>>, tensor<128x!tt.ptr<f16>>
tt.func @addptr_zero_tensor(%p: tensor<128x!tt.ptr<f16>>, %s: !tt.ptr<f16>) -> (tensor<128x!tt.ptr<f16>>, tensor<128x!tt.ptr<f16>>) {
  %zero = arith.constant dense<0> : tensor<128xi32>
  %c0 = arith.constant 0 : i32
  %0 = tt.addptr %p, %zero : tensor<128x!tt.ptr<f16>>, tensor<128xi32>
  // Zero splatted: the splat folds to a dense zero, then the addptr folds.
  %1 = tt.splat %s : !tt.ptr<f16> -> tensor<128x!tt.ptr<f16>>
  %2 = tt.splat %c0 : i32 -> tensor<128xi32>
  %3 = tt.addptr %1, %2 : tensor<128x!tt.ptr<f16>>, tensor<128xi32>
  tt.return %0, %3 : tensor<128x!tt.ptr<f16>>, tensor<128x!tt.ptr<f16>>
}

// A non-zero offset keeps the addptr.
// CHECK-LABEL: tt.func @addptr_nonzero(
// CHECK-SAME:      [[P:%[^:]+]]: !tt.ptr<f32>)
// CHECK-NEXT:    [[C:%.*]] = arith.constant 4 : i32
// CHECK-NEXT:    [[A:%.*]] = tt.addptr [[P]], [[C]] : !tt.ptr<f32>, i32
// CHECK-NEXT:    tt.return [[A]] : !tt.ptr<f32>
tt.func @addptr_nonzero(%p: !tt.ptr<f32>) -> !tt.ptr<f32> {
  %c4 = arith.constant 4 : i32
  %0 = tt.addptr %p, %c4 : !tt.ptr<f32>, i32
  tt.return %0 : !tt.ptr<f32>
}

//===----------------------------------------------------------------------===//
// Loads with a constant mask
//===----------------------------------------------------------------------===//

// An all-true mask reads everything: mask and other go, the cache modifier,
// eviction policy and volatility stay.
// CHECK-LABEL: tt.func @load_all_true_mask(
// CHECK-SAME:      [[P:%[^:]+]]: tensor<128x!tt.ptr<f32>>, [[O:%[^:]+]]: tensor<128xf32>)
// CHECK-NOT:     arith.constant
// CHECK-NEXT:    [[L0:%.*]] = tt.load [[P]] : tensor<128x!tt.ptr<f32>>
// CHECK-NEXT:    [[L1:%.*]] = tt.load [[P]] cacheModifier = ca evictionPolicy = evict_last {isVolatile = true} : tensor<128x!tt.ptr<f32>>
// CHECK-NEXT:    tt.return [[L0]], [[L1]] : tensor<128xf32>, tensor<128xf32>
tt.func @load_all_true_mask(%p: tensor<128x!tt.ptr<f32>>, %o: tensor<128xf32>) -> (tensor<128xf32>, tensor<128xf32>) {
  %true = arith.constant dense<true> : tensor<128xi1>
  %0 = tt.load %p, %true : tensor<128x!tt.ptr<f32>>
  %1 = tt.load %p, %true, %o cacheModifier = ca evictionPolicy = evict_last {isVolatile = true} : tensor<128x!tt.ptr<f32>>
  tt.return %0, %1 : tensor<128xf32>, tensor<128xf32>
}

// The same for a scalar load with an `i1 true` mask.
// CHECK-LABEL: tt.func @load_scalar_true_mask(
// CHECK-SAME:      [[P:%[^:]+]]: !tt.ptr<i32>, [[O:%[^:]+]]: i32)
// CHECK-NEXT:    [[L:%.*]] = tt.load [[P]] : !tt.ptr<i32>
// CHECK-NEXT:    tt.return [[L]] : i32
tt.func @load_scalar_true_mask(%p: !tt.ptr<i32>, %o: i32) -> i32 {
  %true = arith.constant true
  %0 = tt.load %p, %true, %o : !tt.ptr<i32>
  tt.return %0 : i32
}

// An all-false mask reads nothing: the result is `other`.
// CHECK-LABEL: tt.func @load_all_false_mask_other(
// CHECK-SAME:      [[P:%[^:]+]]: tensor<128x!tt.ptr<f32>>, [[O:%[^:]+]]: tensor<128xf32>)
// CHECK-NOT:     tt.load
// CHECK-NEXT:    tt.return [[O]] : tensor<128xf32>
tt.func @load_all_false_mask_other(%p: tensor<128x!tt.ptr<f32>>, %o: tensor<128xf32>) -> tensor<128xf32> {
  %false = arith.constant dense<false> : tensor<128xi1>
  %0 = tt.load %p, %false, %o : tensor<128x!tt.ptr<f32>>
  tt.return %0 : tensor<128xf32>
}

// An all-false mask without `other`: the elements are undefined (poison).
// CHECK-LABEL: tt.func @load_all_false_mask_poison(
// CHECK-SAME:      [[P:%[^:]+]]: tensor<128x!tt.ptr<f32>>)
// CHECK-NOT:     tt.load
// CHECK-NEXT:    [[POISON:%.*]] = ub.poison : tensor<128xf32>
// CHECK-NEXT:    tt.return [[POISON]] : tensor<128xf32>
tt.func @load_all_false_mask_poison(%p: tensor<128x!tt.ptr<f32>>) -> tensor<128xf32> {
  %false = arith.constant dense<false> : tensor<128xi1>
  %0 = tt.load %p, %false : tensor<128x!tt.ptr<f32>>
  tt.return %0 : tensor<128xf32>
}

// A constant mask that is neither all-true nor all-false keeps the load.
// CHECK-LABEL: tt.func @load_mixed_constant_mask(
// CHECK-SAME:      [[P:%[^:]+]]: tensor<2x!tt.ptr<f32>>)
// CHECK-NEXT:    [[M:%.*]] = arith.constant dense<[true, false]> : tensor<2xi1>
// CHECK-NEXT:    [[L:%.*]] = tt.load [[P]], [[M]] : tensor<2x!tt.ptr<f32>>
// CHECK-NEXT:    tt.return [[L]] : tensor<2xf32>
tt.func @load_mixed_constant_mask(%p: tensor<2x!tt.ptr<f32>>) -> tensor<2xf32> {
  %m = arith.constant dense<[true, false]> : tensor<2xi1>
  %0 = tt.load %p, %m : tensor<2x!tt.ptr<f32>>
  tt.return %0 : tensor<2xf32>
}

//===----------------------------------------------------------------------===//
// Stores with a constant mask
//===----------------------------------------------------------------------===//

// An all-true mask is dropped; the cache modifier and eviction policy stay.
// CHECK-LABEL: tt.func @store_all_true_mask(
// CHECK-SAME:      [[P:%[^:]+]]: tensor<128x!tt.ptr<f32>>, [[V:%[^:]+]]: tensor<128xf32>)
// CHECK-NEXT:    tt.store [[P]], [[V]] : tensor<128x!tt.ptr<f32>>
// CHECK-NEXT:    tt.store [[P]], [[V]] cacheModifier = cs evictionPolicy = evict_first : tensor<128x!tt.ptr<f32>>
// CHECK-NEXT:    tt.return
tt.func @store_all_true_mask(%p: tensor<128x!tt.ptr<f32>>, %v: tensor<128xf32>) {
  %true = arith.constant dense<true> : tensor<128xi1>
  tt.store %p, %v, %true : tensor<128x!tt.ptr<f32>>
  tt.store %p, %v, %true cacheModifier = cs evictionPolicy = evict_first : tensor<128x!tt.ptr<f32>>
  tt.return
}

// The all-true mask made by splatting `true` (as Triton emits it).
// CHECK-LABEL: tt.func @store_splat_true_mask(
// CHECK-SAME:      [[P:%[^:]+]]: tensor<64x!tt.ptr<i8>>, [[V:%[^:]+]]: tensor<64xi8>)
// CHECK-NEXT:    tt.store [[P]], [[V]] : tensor<64x!tt.ptr<i8>>
// CHECK-NEXT:    tt.return
tt.func @store_splat_true_mask(%p: tensor<64x!tt.ptr<i8>>, %v: tensor<64xi8>) {
  %true = arith.constant true
  %m = tt.splat %true : i1 -> tensor<64xi1>
  tt.store %p, %v, %m : tensor<64x!tt.ptr<i8>>
  tt.return
}

// An all-false mask writes nothing: the store goes.
// CHECK-LABEL: tt.func @store_all_false_mask(
// CHECK-SAME:      [[P:%[^:]+]]: tensor<128x!tt.ptr<f32>>, [[V:%[^:]+]]: tensor<128xf32>, [[S:%[^:]+]]: !tt.ptr<f32>, [[X:%[^:]+]]: f32)
// CHECK-NEXT:    tt.return
tt.func @store_all_false_mask(%p: tensor<128x!tt.ptr<f32>>, %v: tensor<128xf32>, %s: !tt.ptr<f32>, %x: f32) {
  %false = arith.constant dense<false> : tensor<128xi1>
  %f = arith.constant false
  tt.store %p, %v, %false : tensor<128x!tt.ptr<f32>>
  tt.store %s, %x, %f : !tt.ptr<f32>
  tt.return
}

//===----------------------------------------------------------------------===//
// Negative case: nothing to simplify
//===----------------------------------------------------------------------===//

// Masks that are not constants, and a non-zero offset, leave everything as
// it is.
// CHECK-LABEL: tt.func @non_constant_mask(
// CHECK-SAME:      [[P:%[^:]+]]: tensor<128x!tt.ptr<f32>>, [[M:%[^:]+]]: tensor<128xi1>, [[O:%[^:]+]]: tensor<128xf32>, [[OFF:%[^:]+]]: tensor<128xi32>)
// CHECK-NEXT:    [[L:%.*]] = tt.load [[P]], [[M]], [[O]] : tensor<128x!tt.ptr<f32>>
// CHECK-NEXT:    [[A:%.*]] = tt.addptr [[P]], [[OFF]] : tensor<128x!tt.ptr<f32>>, tensor<128xi32>
// CHECK-NEXT:    tt.store [[A]], [[L]], [[M]] : tensor<128x!tt.ptr<f32>>
// CHECK-NEXT:    tt.return [[L]] : tensor<128xf32>
tt.func @non_constant_mask(%p: tensor<128x!tt.ptr<f32>>, %m: tensor<128xi1>, %o: tensor<128xf32>, %off: tensor<128xi32>) -> tensor<128xf32> {
  %0 = tt.load %p, %m, %o : tensor<128x!tt.ptr<f32>>
  %1 = tt.addptr %p, %off : tensor<128x!tt.ptr<f32>>, tensor<128xi32>
  tt.store %1, %0, %m : tensor<128x!tt.ptr<f32>>
  tt.return %0 : tensor<128xf32>
}
