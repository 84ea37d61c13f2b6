// RUN: kiln-opt %s -split-input-file -verify-diagnostics

//===----------------------------------------------------------------------===//
// Parse errors
//===----------------------------------------------------------------------===//

// Pointer address spaces are non-negative integers.
// expected-error @+1 {{pointer address space must be non-negative, got -1}}
tt.func @ptr_negative_address_space(%p: !tt.ptr<f32, -1>) {
  tt.return
}

// -----

// A tensor descriptor's block must be a ranked tensor.
// expected-error @+2 {{invalid kind of type specified: expected builtin.tensor, but found 'f32'}}
// expected-error @+1 {{failed to parse TT_TensorDescType parameter 'blockType'}}
tt.func @tensordesc_of_scalar(%d: !tt.tensordesc<f32>) {
  tt.return
}

// -----

// Cache modifiers are keywords of the CacheModifier enum.
tt.func @unknown_cache_modifier(%p: !tt.ptr<f32>) {
  // expected-error @+1 {{expected string or keyword containing one of the following enum values for attribute 'cache' [none, ca, cg, wb, cs, wt, cv]}}
  %0 = tt.load %p cacheModifier = foo : !tt.ptr<f32>
  tt.return
}

// -----

// Eviction policies are keywords of the EvictionPolicy enum.
tt.func @unknown_eviction_policy(%p: !tt.ptr<f32>, %v: f32) {
  // expected-error @+1 {{expected string or keyword containing one of the following enum values for attribute 'evict' [evict_normal, evict_first, evict_last]}}
  tt.store %p, %v evictionPolicy = evict_sometimes : !tt.ptr<f32>
  tt.return
}

// -----

// atomic_rmw operations are keywords of the RMWOp enum.
tt.func @unknown_atomic_rmw_op(%p: !tt.ptr<f32>, %v: f32) {
  // expected-error @+1 {{expected string or keyword containing one of the following enum values for attribute 'atomic_rmw_op' [and, or, xor, add, fadd, max, min, umax, umin, exch]}}
  %0 = tt.atomic_rmw fmul, relaxed, gpu, %p, %v : (!tt.ptr<f32>, f32) -> f32
  tt.return
}

// -----

// Program axes are x, y and z.
tt.func @unknown_program_axis() {
  // expected-error @+1 {{expected string or keyword containing one of the following enum values for attribute 'axis' [x, y, z]}}
  %0 = tt.get_program_id w : i32
  tt.return
}

// -----

//===----------------------------------------------------------------------===//
// Construction and shapes
//===----------------------------------------------------------------------===//

// make_range needs start < end.
tt.func @make_range_empty() {
  // expected-error @+1 {{'tt.make_range' op start 16 must be less than end 16}}
  %0 = tt.make_range {end = 16 : i32, start = 16 : i32} : tensor<0xi32>
  tt.return
}

// -----

// make_range produces a 1-D tensor.
tt.func @make_range_rank() {
  // expected-error @+1 {{'tt.make_range' op result must be a 1-D tensor, got 'tensor<4x4xi32>'}}
  %0 = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<4x4xi32>
  tt.return
}

// -----

// make_range's result size is end - start.
tt.func @make_range_size() {
  // expected-error @+1 {{'tt.make_range' op result has 64 elements but the range [32, 64) has 32}}
  %0 = tt.make_range {end = 64 : i32, start = 32 : i32} : tensor<64xi32>
  tt.return
}

// -----

// make_range produces i32 elements.
tt.func @make_range_i64() {
  // expected-error @+1 {{'tt.make_range' op result #0 must be ranked tensor of 32-bit signless integer values, but got 'tensor<16xi64>'}}
  %0 = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi64>
  tt.return
}

// -----

// splat takes a scalar.
tt.func @splat_of_tensor(%x: tensor<4xf32>) {
  // expected-error @+1 {{'tt.splat' op source must be a scalar, got 'tensor<4xf32>'}}
  %0 = tt.splat %x : tensor<4xf32> -> tensor<4x4xf32>
  tt.return
}

// -----

// splat keeps the element type.
tt.func @splat_element_type(%x: f32) {
  // expected-error @+1 {{'tt.splat' op result element type 'f16' does not match the source type 'f32'}}
  %0 = tt.splat %x : f32 -> tensor<16xf16>
  tt.return
}

// -----

// unsplat takes a tensor whose dimensions are all 1.
tt.func @unsplat_shape(%x: tensor<1x2xf32>) {
  // expected-error @+1 {{'tt.unsplat' op source must have every dimension 1, got 1x2}}
  %0 = tt.unsplat %x : tensor<1x2xf32> -> f32
  tt.return
}

// -----

// unsplat returns the element type.
tt.func @unsplat_type(%x: tensor<1x1xf32>) {
  // expected-error @+1 {{'tt.unsplat' op result type 'i32' does not match the source element type 'f32'}}
  %0 = tt.unsplat %x : tensor<1x1xf32> -> i32
  tt.return
}

// -----

// expand_dims' axis may be at most the source rank.
tt.func @expand_dims_axis(%x: tensor<16xi32>) {
  // expected-error @+1 {{'tt.expand_dims' op axis 2 is out of range for a rank-1 source}}
  %0 = tt.expand_dims %x {axis = 2 : i32} : tensor<16xi32> -> tensor<16x1xi32>
  tt.return
}

// -----

// expand_dims inserts the 1 at `axis`.
tt.func @expand_dims_shape(%x: tensor<16xi32>) {
  // expected-error @+1 {{'tt.expand_dims' op result shape 16x1 should be 1x16 (source with a 1 inserted at axis 0)}}
  %0 = tt.expand_dims %x {axis = 0 : i32} : tensor<16xi32> -> tensor<16x1xi32>
  tt.return
}

// -----

// expand_dims keeps the element type.
tt.func @expand_dims_element_type(%x: tensor<16xi32>) {
  // expected-error @+1 {{'tt.expand_dims' op result element type 'i64' does not match the source element type 'i32'}}
  %0 = tt.expand_dims %x {axis = 1 : i32} : tensor<16xi32> -> tensor<16x1xi64>
  tt.return
}

// -----

// reshape keeps the number of elements.
tt.func @reshape_count(%x: tensor<16x16xf32>) {
  // expected-error @+1 {{'tt.reshape' op source has 256 elements but the result has 128}}
  %0 = tt.reshape %x : tensor<16x16xf32> -> tensor<128xf32>
  tt.return
}

// -----

// reshape keeps the element type.
tt.func @reshape_element_type(%x: tensor<16x16xf32>) {
  // expected-error @+1 {{'tt.reshape' op result element type 'i32' does not match the source element type 'f32'}}
  %0 = tt.reshape %x allow_reorder : tensor<16x16xf32> -> tensor<256xi32>
  tt.return
}

// -----

// broadcast keeps the rank.
tt.func @broadcast_rank(%x: tensor<16xf32>) {
  // expected-error @+1 {{'tt.broadcast' op source rank 1 differs from result rank 2}}
  %0 = tt.broadcast %x : tensor<16xf32> -> tensor<16x16xf32>
  tt.return
}

// -----

// broadcast keeps the element type.
tt.func @broadcast_element_type(%x: tensor<16x1xf32>) {
  // expected-error @+1 {{'tt.broadcast' op result element type 'f16' does not match the source element type 'f32'}}
  %0 = tt.broadcast %x : tensor<16x1xf32> -> tensor<16x8xf16>
  tt.return
}

// -----

// broadcast only stretches dimensions of size 1.
tt.func @broadcast_non_unit(%x: tensor<16x2xf32>) {
  // expected-error @+1 {{'tt.broadcast' op cannot broadcast dimension 1 of size 2 to 8 (only size-1 dimensions broadcast)}}
  %0 = tt.broadcast %x : tensor<16x2xf32> -> tensor<16x8xf32>
  tt.return
}

// -----

// trans' order has one entry per dimension.
tt.func @trans_order_size(%x: tensor<16x32xf32>) {
  // expected-error @+1 {{'tt.trans' op order has 3 entries but the rank is 2}}
  %0 = tt.trans %x {order = array<i32: 2, 1, 0>} : tensor<16x32xf32> -> tensor<32x16xf32>
  tt.return
}

// -----

// trans' order is a permutation.
tt.func @trans_order_repeat(%x: tensor<16x32xf32>) {
  // expected-error @+1 {{'tt.trans' op order must be a permutation of [0, 2), got entry 0}}
  %0 = tt.trans %x {order = array<i32: 0, 0>} : tensor<16x32xf32> -> tensor<16x16xf32>
  tt.return
}

// -----

// trans' result takes the source dimensions in `order`.
tt.func @trans_shape(%x: tensor<16x32xf32>) {
  // expected-error @+1 {{'tt.trans' op result shape 16x32 should be 32x16 (source dimensions taken in `order`)}}
  %0 = tt.trans %x {order = array<i32: 1, 0>} : tensor<16x32xf32> -> tensor<16x32xf32>
  tt.return
}

// -----

// trans keeps the element type.
tt.func @trans_element_type(%x: tensor<16x32xf32>) {
  // expected-error @+1 {{'tt.trans' op result element type 'f16' does not match the source element type 'f32'}}
  %0 = tt.trans %x {order = array<i32: 1, 0>} : tensor<16x32xf32> -> tensor<32x16xf16>
  tt.return
}

// -----

// cat's operands have one type.
tt.func @cat_operand_types(%a: tensor<16xf32>, %b: tensor<32xf32>) {
  // expected-error @+1 {{'tt.cat' op requires all operands to have the same type}}
  %0 = "tt.cat"(%a, %b) : (tensor<16xf32>, tensor<32xf32>) -> tensor<48xf32>
  tt.return
}

// -----

// cat keeps the rank.
tt.func @cat_rank(%a: tensor<16xf32>) {
  // expected-error @+1 {{'tt.cat' op result rank 2 differs from operand rank 1}}
  %0 = tt.cat %a, %a : tensor<16xf32> -> tensor<2x16xf32>
  tt.return
}

// -----

// cat's result has twice the elements of an operand.
tt.func @cat_count(%a: tensor<16xf32>) {
  // expected-error @+1 {{'tt.cat' op result has 16 elements, expected twice the operand's 16}}
  %0 = tt.cat %a, %a : tensor<16xf32> -> tensor<16xf32>
  tt.return
}

// -----

// join appends a minor dimension of 2.
tt.func @join_shape(%a: tensor<16xf32>) {
  // expected-error @+1 {{'tt.join' op result shape 2x16 should be 16x2 (operand shape with a minor dimension of 2)}}
  %0 = tt.join %a, %a : tensor<16xf32> -> tensor<2x16xf32>
  tt.return
}

// -----

// split needs a minor dimension of 2.
tt.func @split_minor_dim(%a: tensor<16x4xf32>) {
  // expected-error @+1 {{'tt.split' op source's minor dimension must be 2, got shape 16x4}}
  %0, %1 = tt.split %a : tensor<16x4xf32> -> tensor<16xf32>
  tt.return
}

// -----

// split's results drop the minor dimension.
tt.func @split_result_shape(%a: tensor<16x2xf32>) {
  // expected-error @+1 {{'tt.split' op result shape 8 should be 16}}
  %0, %1 = tt.split %a : tensor<16x2xf32> -> tensor<8xf32>
  tt.return
}

// -----

// split's two results have one type.
tt.func @split_result_types(%a: tensor<16x2xf32>) {
  // expected-error @+1 {{'tt.split' op failed to verify that all of {outLHS, outRHS} have same type}}
  %0:2 = "tt.split"(%a) : (tensor<16x2xf32>) -> (tensor<16xf32>, tensor<16xf16>)
  tt.return
}

// -----

//===----------------------------------------------------------------------===//
// Pointers and memory
//===----------------------------------------------------------------------===//

// addptr's offset has the shape of the pointer.
tt.func @addptr_shape(%p: !tt.ptr<f32>, %o: tensor<16xi32>) {
  // expected-error @+1 {{'tt.addptr' op offset shape 16 does not match pointer shape scalar}}
  %0 = "tt.addptr"(%p, %o) : (!tt.ptr<f32>, tensor<16xi32>) -> !tt.ptr<f32>
  tt.return
}

// -----

// addptr returns the type of its pointer operand.
tt.func @addptr_result_type(%p: !tt.ptr<f32>, %o: i32) {
  // expected-error @+1 {{'tt.addptr' op failed to verify that all of {ptr, result} have same type}}
  %0 = "tt.addptr"(%p, %o) : (!tt.ptr<f32>, i32) -> !tt.ptr<f16>
  tt.return
}

// -----

// advance moves a block pointer.
tt.func @advance_not_block_pointer(%p: !tt.ptr<f32>, %i: i32) {
  // expected-error @+1 {{'tt.advance' op operand must be a block pointer, got '!tt.ptr<f32>'}}
  %0 = tt.advance %p, [%i] : <f32>
  tt.return
}

// -----

// advance takes one offset per block dimension.
tt.func @advance_offset_count(%p: !tt.ptr<tensor<16x16xf32>>, %i: i32) {
  // expected-error @+1 {{'tt.advance' op takes 2 offsets for a rank-2 block, got 1}}
  %0 = tt.advance %p, [%i] : <tensor<16x16xf32>>
  tt.return
}

// -----

// load's result is the pointee type.
tt.func @load_result_type(%p: tensor<16x!tt.ptr<f32>>) {
  // expected-error @+1 {{'tt.load' op failed to verify that result matches the pointee of ptr}}
  %0 = "tt.load"(%p) <{operandSegmentSizes = array<i32: 1, 0, 0>}> : (tensor<16x!tt.ptr<f32>>) -> tensor<16xf16>
  tt.return
}

// -----

// load's mask is i1 of the pointer's shape.
tt.func @load_mask_shape(%p: tensor<16x!tt.ptr<f32>>, %m: tensor<8xi1>) {
  // expected-error @+1 {{'tt.load' op failed to verify that mask is i1 of the shape of ptr}}
  %0 = "tt.load"(%p, %m) <{operandSegmentSizes = array<i32: 1, 1, 0>}> : (tensor<16x!tt.ptr<f32>>, tensor<8xi1>) -> tensor<16xf32>
  tt.return
}

// -----

// load's `other` has the pointee type.
tt.func @load_other_type(%p: tensor<16x!tt.ptr<f32>>, %m: tensor<16xi1>, %o: tensor<16xf16>) {
  // expected-error @+1 {{'tt.load' op failed to verify that other matches the pointee of ptr}}
  %0 = "tt.load"(%p, %m, %o) <{operandSegmentSizes = array<i32: 1, 1, 1>}> : (tensor<16x!tt.ptr<f32>>, tensor<16xi1>, tensor<16xf16>) -> tensor<16xf32>
  tt.return
}

// -----

// load's `other` is only meaningful with a mask. (An i1 pointee is used: with
// any other pointee the optional-operand TypesMatchWith on `mask` checks
// `other` against the mask type first and reports that instead.)
tt.func @load_other_without_mask(%p: tensor<16x!tt.ptr<i1>>, %o: tensor<16xi1>) {
  // expected-error @+1 {{'tt.load' op `other` requires a mask}}
  %0 = "tt.load"(%p, %o) <{operandSegmentSizes = array<i32: 1, 0, 1>}> : (tensor<16x!tt.ptr<i1>>, tensor<16xi1>) -> tensor<16xi1>
  tt.return
}

// -----

// padding applies to block-pointer loads only.
tt.func @load_padding_without_block_pointer(%p: tensor<16x!tt.ptr<f32>>) {
  // expected-error @+1 {{'tt.load' op padding is only valid with a block pointer}}
  %0 = tt.load %p {padding = 1 : i32} : tensor<16x!tt.ptr<f32>>
  tt.return
}

// -----

// boundaryCheck applies to block-pointer loads only.
tt.func @load_boundary_check_without_block_pointer(%p: tensor<16x!tt.ptr<f32>>) {
  // expected-error @+1 {{'tt.load' op boundaryCheck is only valid with a block pointer, got 'tensor<16x!tt.ptr<f32>>'}}
  %0 = tt.load %p {boundaryCheck = array<i32: 0>} : tensor<16x!tt.ptr<f32>>
  tt.return
}

// -----

// boundaryCheck names distinct dimensions of the block.
tt.func @load_boundary_check_range(%p: !tt.ptr<tensor<16x16xf32>>) {
  // expected-error @+1 {{'tt.load' op boundaryCheck dimension 2 is out of range or repeated for a rank-2 block}}
  %0 = tt.load %p {boundaryCheck = array<i32: 0, 2>} : !tt.ptr<tensor<16x16xf32>>
  tt.return
}

// -----

// A block-pointer load is bounded by boundaryCheck, not by a mask.
tt.func @load_block_pointer_mask(%p: !tt.ptr<tensor<16x16xf32>>, %m: tensor<16x16xi1>) {
  // expected-error @+1 {{'tt.load' op cannot take a mask with a block pointer; use boundaryCheck}}
  %0 = tt.load %p, %m : !tt.ptr<tensor<16x16xf32>>
  tt.return
}

// -----

// store's value has the pointee type.
tt.func @store_value_type(%p: tensor<16x!tt.ptr<f32>>, %v: tensor<16xf16>) {
  // expected-error @+1 {{'tt.store' op failed to verify that value matches the pointee of ptr}}
  "tt.store"(%p, %v) : (tensor<16x!tt.ptr<f32>>, tensor<16xf16>) -> ()
  tt.return
}

// -----

// store's mask is i1 of the pointer's shape.
tt.func @store_mask_shape(%p: tensor<16x!tt.ptr<f32>>, %v: tensor<16xf32>, %m: tensor<8xi1>) {
  // expected-error @+1 {{'tt.store' op failed to verify that mask is i1 of the shape of ptr}}
  "tt.store"(%p, %v, %m) : (tensor<16x!tt.ptr<f32>>, tensor<16xf32>, tensor<8xi1>) -> ()
  tt.return
}

// -----

// boundaryCheck applies to block-pointer stores only.
tt.func @store_boundary_check_without_block_pointer(%p: !tt.ptr<f32>, %v: f32) {
  // expected-error @+1 {{'tt.store' op boundaryCheck is only valid with a block pointer, got '!tt.ptr<f32>'}}
  tt.store %p, %v {boundaryCheck = array<i32: 0>} : !tt.ptr<f32>
  tt.return
}

// -----

// boundaryCheck does not repeat a dimension.
tt.func @store_boundary_check_repeat(%p: !tt.ptr<tensor<16x16xf32>>, %v: tensor<16x16xf32>) {
  // expected-error @+1 {{'tt.store' op boundaryCheck dimension 1 is out of range or repeated for a rank-2 block}}
  tt.store %p, %v {boundaryCheck = array<i32: 1, 1>} : !tt.ptr<tensor<16x16xf32>>
  tt.return
}

// -----

// A block-pointer store takes no mask.
tt.func @store_block_pointer_mask(%p: !tt.ptr<tensor<16x16xf32>>, %v: tensor<16x16xf32>, %m: tensor<16x16xi1>) {
  // expected-error @+1 {{'tt.store' op cannot take a mask with a block pointer; use boundaryCheck}}
  tt.store %p, %v, %m : !tt.ptr<tensor<16x16xf32>>
  tt.return
}

// -----

// atomic_rmw's value has the pointee type.
tt.func @atomic_rmw_value_type(%p: tensor<16x!tt.ptr<f32>>, %v: tensor<16xf16>) {
  // expected-error @+1 {{'tt.atomic_rmw' op value type 'tensor<16xf16>' does not match the pointee type 'tensor<16xf32>'}}
  %0 = tt.atomic_rmw fadd, relaxed, gpu, %p, %v : (tensor<16x!tt.ptr<f32>>, tensor<16xf16>) -> tensor<16xf16>
  tt.return
}

// -----

// atomic_rmw returns the old value, of the value's type.
tt.func @atomic_rmw_result_type(%p: !tt.ptr<i32>, %v: i32) {
  // expected-error @+1 {{'tt.atomic_rmw' op result type 'i64' does not match the value type 'i32'}}
  %0 = tt.atomic_rmw add, relaxed, gpu, %p, %v : (!tt.ptr<i32>, i32) -> i64
  tt.return
}

// -----

// atomic_rmw's mask is i1 of the pointer's shape.
tt.func @atomic_rmw_mask_shape(%p: tensor<16x!tt.ptr<i32>>, %v: tensor<16xi32>, %m: tensor<8xi1>) {
  // expected-error @+1 {{'tt.atomic_rmw' op mask type 'tensor<8xi1>' should be 'tensor<16xi1>'}}
  %0 = tt.atomic_rmw max, acq_rel, gpu, %p, %v, %m : (tensor<16x!tt.ptr<i32>>, tensor<16xi32>, tensor<8xi1>) -> tensor<16xi32>
  tt.return
}

// -----

// fadd is a float atomic.
tt.func @atomic_rmw_fadd_int(%p: !tt.ptr<i32>, %v: i32) {
  // expected-error @+1 {{'tt.atomic_rmw' op fadd needs a float element type, got 'i32'}}
  %0 = tt.atomic_rmw fadd, relaxed, gpu, %p, %v : (!tt.ptr<i32>, i32) -> i32
  tt.return
}

// -----

// Bitwise atomics need integers.
tt.func @atomic_rmw_xor_float(%p: tensor<16x!tt.ptr<f32>>, %v: tensor<16xf32>) {
  // expected-error @+1 {{'tt.atomic_rmw' op xor needs an integer element type, got 'f32'}}
  %0 = tt.atomic_rmw xor, relaxed, gpu, %p, %v : (tensor<16x!tt.ptr<f32>>, tensor<16xf32>) -> tensor<16xf32>
  tt.return
}

// -----

// Unsigned min/max atomics need integers.
tt.func @atomic_rmw_umax_float(%p: !tt.ptr<f32>, %v: f32) {
  // expected-error @+1 {{'tt.atomic_rmw' op umax needs an integer element type, got 'f32'}}
  %0 = tt.atomic_rmw umax, relaxed, gpu, %p, %v : (!tt.ptr<f32>, f32) -> f32
  tt.return
}

// -----

// atomic_cas' cmp and val have the pointee type.
tt.func @atomic_cas_operand_types(%p: !tt.ptr<i32>, %c: i64, %v: i32) {
  // expected-error @+1 {{'tt.atomic_cas' op cmp and val must have the pointee type 'i32', got 'i64' and 'i32'}}
  %0 = tt.atomic_cas acq_rel, gpu, %p, %c, %v : (!tt.ptr<i32>, i64, i32) -> i32
  tt.return
}

// -----

// atomic_cas returns the old value, of the pointee type.
tt.func @atomic_cas_result_type(%p: !tt.ptr<i32>, %c: i32) {
  // expected-error @+1 {{'tt.atomic_cas' op result type 'i64' does not match the pointee type 'i32'}}
  %0 = tt.atomic_cas acq_rel, gpu, %p, %c, %c : (!tt.ptr<i32>, i32, i32) -> i64
  tt.return
}

// -----

// make_tensor_ptr produces a block pointer.
tt.func @make_tensor_ptr_not_block(%p: !tt.ptr<f32>, %s: i64, %o: i32) {
  // expected-error @+1 {{'tt.make_tensor_ptr' op result must be a pointer to a tensor, got '!tt.ptr<f32>'}}
  %0 = tt.make_tensor_ptr %p, [%s], [%s], [%o] {order = array<i32: 0>} : <f32>
  tt.return
}

// -----

// make_tensor_ptr takes one shape, stride and offset per block dimension.
tt.func @make_tensor_ptr_count(%p: !tt.ptr<f32>, %s: i64, %o: i32) {
  // expected-error @+1 {{'tt.make_tensor_ptr' op takes 2 shape, stride and offset values for a rank-2 block, got 1}}
  %0 = tt.make_tensor_ptr %p, [%s], [%s], [%o] {order = array<i32: 0>} : <tensor<16x16xf32>>
  tt.return
}

// -----

// make_tensor_ptr's order is a permutation of the block dimensions.
tt.func @make_tensor_ptr_order(%p: !tt.ptr<f32>, %s: i64, %o: i32) {
  // expected-error @+1 {{'tt.make_tensor_ptr' op order must be a permutation of [0, 2), got entry 2}}
  %0 = tt.make_tensor_ptr %p, [%s, %s], [%s, %s], [%o, %o] {order = array<i32: 2, 0>} : <tensor<16x16xf32>>
  tt.return
}

// -----

// make_tensor_ptr's base points to the block's element type.
tt.func @make_tensor_ptr_base_type(%p: !tt.ptr<f16>, %s: i64, %o: i32) {
  // expected-error @+1 {{'tt.make_tensor_ptr' op failed to verify that base points to the element type of the block}}
  %0 = "tt.make_tensor_ptr"(%p, %s, %o) <{order = array<i32: 0>}> : (!tt.ptr<f16>, i64, i32) -> !tt.ptr<tensor<16xf32>>
  tt.return
}

// -----

// make_tensor_ptr's shape operands are i64 (and offsets i32).
tt.func @make_tensor_ptr_shape_i32(%p: !tt.ptr<f32>, %o: i32) {
  // expected-error @+1 {{'tt.make_tensor_ptr' op operand #1 must be variadic of 64-bit signless integer, but got 'i32'}}
  %0 = "tt.make_tensor_ptr"(%p, %o, %o, %o) <{order = array<i32: 0>}> : (!tt.ptr<f32>, i32, i32, i32) -> !tt.ptr<tensor<16xf32>>
  tt.return
}

// -----

//===----------------------------------------------------------------------===//
// Tensor descriptors
//===----------------------------------------------------------------------===//

// make_tensor_descriptor takes one shape and stride per block dimension.
tt.func @make_tensor_descriptor_count(%p: !tt.ptr<f16>, %i: i32, %s: i64) {
  // expected-error @+1 {{'tt.make_tensor_descriptor' op takes 2 shape and stride values for a rank-2 block, got 1}}
  %0 = tt.make_tensor_descriptor %p, [%i], [%s] : <f16>, <tensor<64x64xf16>>
  tt.return
}

// -----

// make_tensor_descriptor's base pointee and block element have one width.
tt.func @make_tensor_descriptor_width(%p: !tt.ptr<f32>, %i: i32, %s: i64) {
  // expected-error @+1 {{'tt.make_tensor_descriptor' op base pointee 'f32' and block element type 'f16' differ in width}}
  %0 = tt.make_tensor_descriptor %p, [%i], [%s] : <f32>, <tensor<64xf16>>
  tt.return
}

// -----

// descriptor_load takes one index per block dimension.
tt.func @descriptor_load_index_count(%d: !tt.tensordesc<tensor<64x64xf16>>, %i: i32) {
  // expected-error @+1 {{'tt.descriptor_load' op takes 2 indices for a rank-2 descriptor, got 1}}
  %0 = tt.descriptor_load %d[%i] : !tt.tensordesc<tensor<64x64xf16>> -> tensor<64x64xf16>
  tt.return
}

// -----

// descriptor_load returns the block's element type.
tt.func @descriptor_load_element_type(%d: !tt.tensordesc<tensor<64x64xf16>>, %i: i32) {
  // expected-error @+1 {{'tt.descriptor_load' op result element type 'f32' does not match the descriptor's block element type 'f16'}}
  %0 = tt.descriptor_load %d[%i, %i] : !tt.tensordesc<tensor<64x64xf16>> -> tensor<64x64xf32>
  tt.return
}

// -----

// descriptor_load returns the block, less leading unit dimensions only.
tt.func @descriptor_load_shape(%d: !tt.tensordesc<tensor<2x64xf16>>, %i: i32) {
  // expected-error @+1 {{'tt.descriptor_load' op result shape 64 does not match the descriptor's block shape 2x64}}
  %0 = tt.descriptor_load %d[%i, %i] : !tt.tensordesc<tensor<2x64xf16>> -> tensor<64xf16>
  tt.return
}

// -----

// descriptor_store stores a whole block.
tt.func @descriptor_store_shape(%d: !tt.tensordesc<tensor<64x64xf16>>, %i: i32, %v: tensor<32x64xf16>) {
  // expected-error @+1 {{'tt.descriptor_store' op stored value shape 32x64 does not match the descriptor's block shape 64x64}}
  tt.descriptor_store %d[%i, %i], %v : !tt.tensordesc<tensor<64x64xf16>>, tensor<32x64xf16>
  tt.return
}

// -----

// descriptor_reduce reduces a block of the descriptor's element type.
tt.func @descriptor_reduce_element_type(%d: !tt.tensordesc<tensor<64xf32>>, %i: i32, %v: tensor<64xi32>) {
  // expected-error @+1 {{'tt.descriptor_reduce' op reduced value element type 'i32' does not match the descriptor's block element type 'f32'}}
  tt.descriptor_reduce add, %d[%i], %v : !tt.tensordesc<tensor<64xf32>>, tensor<64xi32>
  tt.return
}

// -----

// descriptor_gather reads rows through a 1xN descriptor.
tt.func @descriptor_gather_block(%d: !tt.tensordesc<tensor<2x64xf16>>, %x: tensor<8xi32>, %y: i32) {
  // expected-error @+1 {{'tt.descriptor_gather' op descriptor block must be 1xN for gather/scatter, got 2x64}}
  %0 = tt.descriptor_gather %d[%x, %y] : (!tt.tensordesc<tensor<2x64xf16>>, tensor<8xi32>, i32) -> tensor<8x64xf16>
  tt.return
}

// -----

// descriptor_gather's row offsets are 1-D.
tt.func @descriptor_gather_offsets(%d: !tt.tensordesc<tensor<1x64xf16>>, %x: tensor<8x1xi32>, %y: i32) {
  // expected-error @+1 {{'tt.descriptor_gather' op x_offsets must be 1-D, got 8x1}}
  %0 = tt.descriptor_gather %d[%x, %y] : (!tt.tensordesc<tensor<1x64xf16>>, tensor<8x1xi32>, i32) -> tensor<8x64xf16>
  tt.return
}

// -----

// descriptor_gather returns one row per offset.
tt.func @descriptor_gather_rows(%d: !tt.tensordesc<tensor<1x64xf16>>, %x: tensor<8xi32>, %y: i32) {
  // expected-error @+1 {{'tt.descriptor_gather' op value shape 16x64 must be [8, N]}}
  %0 = tt.descriptor_gather %d[%x, %y] : (!tt.tensordesc<tensor<1x64xf16>>, tensor<8xi32>, i32) -> tensor<16x64xf16>
  tt.return
}

// -----

// descriptor_scatter writes values of the descriptor's element type.
tt.func @descriptor_scatter_element_type(%d: !tt.tensordesc<tensor<1x64xf16>>, %x: tensor<8xi32>, %y: i32, %v: tensor<8x64xf32>) {
  // expected-error @+1 {{'tt.descriptor_scatter' op value element type 'f32' does not match the descriptor's 'f16'}}
  tt.descriptor_scatter %d[%x, %y], %v : !tt.tensordesc<tensor<1x64xf16>>, tensor<8xi32>, i32, tensor<8x64xf32>
  tt.return
}

// -----

//===----------------------------------------------------------------------===//
// Dot
//===----------------------------------------------------------------------===//

// dot works on 2-D or batched 3-D operands.
tt.func @dot_rank(%a: tensor<16xf16>, %c: tensor<16xf32>) {
  // expected-error @+1 {{'tt.dot' op operands must be 2-D or batched 3-D, got rank 1}}
  %0 = tt.dot %a, %a, %c : tensor<16xf16> * tensor<16xf16> -> tensor<16xf32>
  tt.return
}

// -----

// dot's operands have one rank.
tt.func @dot_rank_mismatch(%a: tensor<16x16xf16>, %b: tensor<2x16x16xf16>, %c: tensor<16x16xf32>) {
  // expected-error @+1 {{'tt.dot' op operand ranks differ: a 2, b 3, c 2}}
  %0 = tt.dot %a, %b, %c : tensor<16x16xf16> * tensor<2x16x16xf16> -> tensor<16x16xf32>
  tt.return
}

// -----

// dot's reduction dimensions agree.
tt.func @dot_k(%a: tensor<16x32xf16>, %b: tensor<16x64xf16>, %c: tensor<16x64xf32>) {
  // expected-error @+1 {{'tt.dot' op K of a (16x32) is 32 but K of b (16x64) is 16}}
  %0 = tt.dot %a, %b, %c : tensor<16x32xf16> * tensor<16x64xf16> -> tensor<16x64xf32>
  tt.return
}

// -----

// dot's accumulator is M x N.
tt.func @dot_accumulator(%a: tensor<16x32xf16>, %b: tensor<32x64xf16>, %c: tensor<16x32xf32>) {
  // expected-error @+1 {{'tt.dot' op accumulator shape 16x32 should be 16x64 (M of a by N of b)}}
  %0 = tt.dot %a, %b, %c : tensor<16x32xf16> * tensor<32x64xf16> -> tensor<16x32xf32>
  tt.return
}

// -----

// Batched dot operands share the batch size.
tt.func @dot_batch(%a: tensor<2x16x32xf16>, %b: tensor<4x32x64xf16>, %c: tensor<2x16x64xf32>) {
  // expected-error @+1 {{'tt.dot' op batch sizes differ: a 2, b 4, c 2}}
  %0 = tt.dot %a, %b, %c : tensor<2x16x32xf16> * tensor<4x32x64xf16> -> tensor<2x16x64xf32>
  tt.return
}

// -----

// dot's a and b have one element type (any two f8 types excepted).
tt.func @dot_element_types(%a: tensor<16x32xf16>, %b: tensor<32x64xbf16>, %c: tensor<16x64xf32>) {
  // expected-error @+1 {{'tt.dot' op element types of a ('f16') and b ('bf16') must match}}
  %0 = tt.dot %a, %b, %c : tensor<16x32xf16> * tensor<32x64xbf16> -> tensor<16x64xf32>
  tt.return
}

// -----

// dot's accumulator and result have one type.
tt.func @dot_result_type(%a: tensor<16x32xf16>, %b: tensor<32x64xf16>, %c: tensor<16x64xf16>) {
  // expected-error @+1 {{'tt.dot' op failed to verify that all of {c, d} have same type}}
  %0 = "tt.dot"(%a, %b, %c) : (tensor<16x32xf16>, tensor<32x64xf16>, tensor<16x64xf16>) -> tensor<16x64xf32>
  tt.return
}

// -----

// dot_scaled's operands have one rank of at least 2.
tt.func @dot_scaled_rank(%a: tensor<16x32xf16>, %b: tensor<2x32x64xf16>, %c: tensor<16x64xf32>) {
  // expected-error @+1 {{'tt.dot_scaled' op operands must have the same rank >= 2}}
  %0 = tt.dot_scaled %a, %b, %c lhs = fp16 rhs = fp16 {fastMath = false} : tensor<16x32xf16> * tensor<2x32x64xf16> -> tensor<16x64xf32>
  tt.return
}

// -----

// dot_scaled's accumulator is M x N.
tt.func @dot_scaled_accumulator(%a: tensor<128x32xi8>, %as: tensor<128x2xi8>, %b: tensor<64x128xbf16>, %c: tensor<128x64xf32>) {
  // expected-error @+1 {{'tt.dot_scaled' op accumulator shape 128x64 should be 128x128}}
  %0 = tt.dot_scaled %a scale %as, %b, %c lhs = e2m1 rhs = bf16 {fastMath = false} : tensor<128x32xi8>, tensor<128x2xi8> * tensor<64x128xbf16> -> tensor<128x64xf32>
  tt.return
}

// -----

//===----------------------------------------------------------------------===//
// Reduce, scan, map_elementwise
//===----------------------------------------------------------------------===//

// reduce's operands have one shape.
tt.func @reduce_operand_shapes(%a: tensor<16xf32>, %b: tensor<32xi32>) {
  // expected-error @+1 {{'tt.reduce' op operand #1 has shape 32 but operand #0 has shape 16}}
  %0:2 = "tt.reduce"(%a, %b) <{axis = 0 : i32}> ({
  ^bb0(%x: f32, %xi: i32, %y: f32, %yi: i32):
    tt.reduce.return %x, %xi : f32, i32
  }) : (tensor<16xf32>, tensor<32xi32>) -> (f32, i32)
  tt.return
}

// -----

// reduce needs at least one operand.
tt.func @reduce_no_operands() {
  // expected-error @+1 {{'tt.reduce' op needs at least one operand}}
  "tt.reduce"() <{axis = 0 : i32}> ({
  ^bb0:
    "tt.reduce.return"() : () -> ()
  }) : () -> ()
  tt.return
}

// -----

// reduce's axis is a dimension of the operands.
tt.func @reduce_axis(%a: tensor<16x8xf32>) {
  // expected-error @+1 {{'tt.reduce' op axis 2 is out of range for rank 2}}
  %0 = "tt.reduce"(%a) <{axis = 2 : i32}> ({
  ^bb0(%x: f32, %y: f32):
    %s = arith.addf %x, %y : f32
    tt.reduce.return %s : f32
  }) : (tensor<16x8xf32>) -> tensor<16xf32>
  tt.return
}

// -----

// reduce has one result per operand.
tt.func @reduce_result_count(%a: tensor<16xf32>) {
  // expected-error @+1 {{'tt.reduce' op has 1 operands but 2 results}}
  %0:2 = "tt.reduce"(%a) <{axis = 0 : i32}> ({
  ^bb0(%x: f32, %y: f32):
    tt.reduce.return %x : f32
  }) : (tensor<16xf32>) -> (f32, f32)
  tt.return
}

// -----

// Each reduce result is its operand without the reduced axis.
tt.func @reduce_result_type(%a: tensor<16x8xf32>) {
  // expected-error @+1 {{'tt.reduce' op result #0 has type 'tensor<8xf32>' but reducing axis 1 of 'tensor<16x8xf32>' gives 'tensor<16xf32>'}}
  %0 = "tt.reduce"(%a) <{axis = 1 : i32}> ({
  ^bb0(%x: f32, %y: f32):
    %s = arith.addf %x, %y : f32
    tt.reduce.return %s : f32
  }) : (tensor<16x8xf32>) -> tensor<8xf32>
  tt.return
}

// -----

// Reducing a 1-D tensor gives a scalar.
tt.func @reduce_1d_result(%a: tensor<16xf32>) {
  // expected-error @+1 {{'tt.reduce' op result #0 has type 'tensor<1xf32>' but reducing axis 0 of 'tensor<16xf32>' gives 'f32'}}
  %0 = "tt.reduce"(%a) <{axis = 0 : i32}> ({
  ^bb0(%x: f32, %y: f32):
    %s = arith.addf %x, %y : f32
    tt.reduce.return %s : f32
  }) : (tensor<16xf32>) -> tensor<1xf32>
  tt.return
}

// -----

// The combiner takes two scalars per operand.
tt.func @reduce_combiner_arity(%a: tensor<16xf32>) {
  // expected-error @+1 {{'tt.reduce' op combiner region must take 2 arguments (two per operand), got 3}}
  %0 = "tt.reduce"(%a) <{axis = 0 : i32}> ({
  ^bb0(%x: f32, %y: f32, %z: f32):
    tt.reduce.return %x : f32
  }) : (tensor<16xf32>) -> f32
  tt.return
}

// -----

// The combiner's arguments are the operands' element types.
tt.func @reduce_combiner_argument_type(%a: tensor<16xf32>, %b: tensor<16xi32>) {
  // expected-error @+1 {{'tt.reduce' op combiner argument #3 has type 'f32' but operand #1 has element type 'i32'}}
  %0:2 = "tt.reduce"(%a, %b) <{axis = 0 : i32}> ({
  ^bb0(%x: f32, %xi: i32, %y: f32, %yi: f32):
    tt.reduce.return %x, %xi : f32, i32
  }) : (tensor<16xf32>, tensor<16xi32>) -> (f32, i32)
  tt.return
}

// -----

// The combiner yields one value per operand.
tt.func @reduce_return_count(%a: tensor<16xf32>) {
  %0 = "tt.reduce"(%a) <{axis = 0 : i32}> ({
  ^bb0(%x: f32, %y: f32):
    // expected-error @+1 {{'tt.reduce.return' op must yield 1 values, one per operand, got 2}}
    tt.reduce.return %x, %y : f32, f32
  }) : (tensor<16xf32>) -> f32
  tt.return
}

// -----

// The combiner yields the operands' element types.
tt.func @reduce_return_type(%a: tensor<16xf32>) {
  %0 = "tt.reduce"(%a) <{axis = 0 : i32}> ({
  ^bb0(%x: f32, %y: f32):
    %i = arith.fptosi %x : f32 to i32
    // expected-error @+1 {{'tt.reduce.return' op yields 'i32' as value #0 but operand #0 has element type 'f32'}}
    tt.reduce.return %i : i32
  }) : (tensor<16xf32>) -> f32
  tt.return
}

// -----

// tt.reduce.return only terminates a tt.reduce combiner.
tt.func @reduce_return_outside(%x: f32) {
  // expected-error @+1 {{'tt.reduce.return' op expects parent op 'tt.reduce'}}
  tt.reduce.return %x : f32
}

// -----

// scan's results have the operands' types.
tt.func @scan_result_type(%a: tensor<16x8xf32>) {
  // expected-error @+1 {{'tt.scan' op result #0 has type 'tensor<16xf32>' but operand #0 has type 'tensor<16x8xf32>'}}
  %0 = "tt.scan"(%a) <{axis = 1 : i32, reverse = false}> ({
  ^bb0(%x: f32, %y: f32):
    %s = arith.addf %x, %y : f32
    tt.scan.return %s : f32
  }) : (tensor<16x8xf32>) -> tensor<16xf32>
  tt.return
}

// -----

// scan's operands have one shape.
tt.func @scan_operand_shapes(%a: tensor<16xf32>, %b: tensor<8xf32>) {
  // expected-error @+1 {{'tt.scan' op operand #1 has shape 8 but operand #0 has shape 16}}
  %0:2 = "tt.scan"(%a, %b) <{axis = 0 : i32, reverse = false}> ({
  ^bb0(%x: f32, %y: f32, %z: f32, %w: f32):
    tt.scan.return %x, %y : f32, f32
  }) : (tensor<16xf32>, tensor<8xf32>) -> (tensor<16xf32>, tensor<8xf32>)
  tt.return
}

// -----

// scan's axis is a dimension of the operands.
tt.func @scan_axis(%a: tensor<16xf32>) {
  // expected-error @+1 {{'tt.scan' op axis 1 is out of range for rank 1}}
  %0 = "tt.scan"(%a) <{axis = 1 : i32, reverse = true}> ({
  ^bb0(%x: f32, %y: f32):
    %s = arith.addf %x, %y : f32
    tt.scan.return %s : f32
  }) : (tensor<16xf32>) -> tensor<16xf32>
  tt.return
}

// -----

// scan's combiner takes the operands' element types.
tt.func @scan_combiner_argument_type(%a: tensor<16xi32>) {
  // expected-error @+1 {{'tt.scan' op combiner argument #0 has type 'f32' but operand #0 has element type 'i32'}}
  %0 = "tt.scan"(%a) <{axis = 0 : i32, reverse = false}> ({
  ^bb0(%x: f32, %y: f32):
    %s = arith.addf %x, %y : f32
    tt.scan.return %s : f32
  }) : (tensor<16xi32>) -> tensor<16xi32>
  tt.return
}

// -----

// map_elementwise's pack is a power of two.
tt.func @map_elementwise_pack(%a: tensor<16xf32>) {
  // expected-error @+1 {{'tt.map_elementwise' op pack must be a power of two, got 0}}
  %0 = "tt.map_elementwise"(%a) <{pack = 0 : i32}> ({
  ^bb0(%x: f32):
    tt.map_elementwise.return %x : f32
  }) : (tensor<16xf32>) -> tensor<16xf32>
  tt.return
}

// -----

// map_elementwise's results have the operands' shape.
tt.func @map_elementwise_result_shape(%a: tensor<16xf32>) {
  // expected-error @+1 {{'tt.map_elementwise' op result #0 has shape 8 but the operands have shape 16}}
  %0 = "tt.map_elementwise"(%a) <{pack = 1 : i32}> ({
  ^bb0(%x: f32):
    tt.map_elementwise.return %x : f32
  }) : (tensor<16xf32>) -> tensor<8xf32>
  tt.return
}

// -----

// map_elementwise's region takes pack scalars per operand.
tt.func @map_elementwise_arguments(%a: tensor<16xf32>) {
  // expected-error @+1 {{'tt.map_elementwise' op region must take 2 scalars (pack x operands), got 1}}
  %0 = "tt.map_elementwise"(%a) <{pack = 2 : i32}> ({
  ^bb0(%x: f32):
    tt.map_elementwise.return %x, %x : f32, f32
  }) : (tensor<16xf32>) -> tensor<16xf32>
  tt.return
}

// -----

// map_elementwise's region yields pack scalars per result.
tt.func @map_elementwise_return_count(%a: tensor<16xf32>) {
  %0 = "tt.map_elementwise"(%a) <{pack = 2 : i32}> ({
  ^bb0(%x: f32, %y: f32):
    // expected-error @+1 {{'tt.map_elementwise.return' op must yield 2 scalars (pack x results), got 1}}
    tt.map_elementwise.return %x : f32
  }) : (tensor<16xf32>) -> tensor<16xf32>
  tt.return
}

// -----

// map_elementwise's region arguments have the operands' element types,
// operand-major.
tt.func @map_elementwise_argument_type(%a: tensor<16xf32>, %b: tensor<16xi32>) {
  // expected-error @+1 {{'tt.map_elementwise' op region argument #1 has type 'f32' but operand #1 has element type 'i32'}}
  %0 = "tt.map_elementwise"(%a, %b) <{pack = 1 : i32}> ({
  ^bb0(%x: f32, %y: f32):
    tt.map_elementwise.return %x : f32
  }) : (tensor<16xf32>, tensor<16xi32>) -> tensor<16xf32>
  tt.return
}

// -----

// map_elementwise's yielded values have the results' element types, checked
// in every block that returns.
tt.func @map_elementwise_return_type(%a: tensor<16xi32>, %c: i1) {
  %0 = "tt.map_elementwise"(%a) <{pack = 1 : i32}> ({
  ^bb0(%x: i32):
    cf.cond_br %c, ^bb1, ^bb2
  ^bb1:
    tt.map_elementwise.return %x : i32
  ^bb2:
    %f = arith.constant 1.0 : f32
    // expected-error @+1 {{'tt.map_elementwise.return' op yields 'f32' as value #0 but result #0 has element type 'i32'}}
    tt.map_elementwise.return %f : f32
  }) : (tensor<16xi32>) -> tensor<16xi32>
  tt.return
}

// -----

// atomic_rmw takes scalar or tensor pointers, not block pointers.
tt.func @atomic_rmw_block_pointer(%p: !tt.ptr<tensor<16xf32>>, %v: tensor<16xf32>) {
  // expected-error @+1 {{'tt.atomic_rmw' op cannot operate on a block pointer}}
  %0 = tt.atomic_rmw fadd, relaxed, gpu, %p, %v : (!tt.ptr<tensor<16xf32>>, tensor<16xf32>) -> tensor<16xf32>
  tt.return
}

// -----

// atomic_cas takes scalar or tensor pointers, not block pointers.
tt.func @atomic_cas_block_pointer(%p: !tt.ptr<tensor<16xi32>>, %v: tensor<16xi32>) {
  // expected-error @+1 {{'tt.atomic_cas' op cannot operate on a block pointer}}
  %0 = tt.atomic_cas acq_rel, gpu, %p, %v, %v : (!tt.ptr<tensor<16xi32>>, tensor<16xi32>, tensor<16xi32>) -> tensor<16xi32>
  tt.return
}

// -----

//===----------------------------------------------------------------------===//
// Elementwise ops and casts
//===----------------------------------------------------------------------===//

// fp_to_fp keeps the shape.
tt.func @fp_to_fp_shape(%a: tensor<16xf16>) {
  // expected-error @+1 {{'tt.fp_to_fp' op source shape 16 differs from result shape 8}}
  %0 = tt.fp_to_fp %a : tensor<16xf16> -> tensor<8xf32>
  tt.return
}

// -----

// A float downcast names its rounding mode.
tt.func @fp_to_fp_downcast_rounding(%a: tensor<16xf32>) {
  // expected-error @+1 {{'tt.fp_to_fp' op a downcast from 'f32' to 'f8E4M3FN' needs a rounding mode (rtne or rtz)}}
  %0 = tt.fp_to_fp %a : tensor<16xf32> -> tensor<16xf8E4M3FN>
  tt.return
}

// -----

// bitcast keeps the shape.
tt.func @bitcast_shape(%a: tensor<16xf32>) {
  // expected-error @+1 {{'tt.bitcast' op source shape 16 differs from result shape scalar}}
  %0 = tt.bitcast %a : tensor<16xf32> -> i32
  tt.return
}

// -----

// bitcast keeps the element width.
tt.func @bitcast_width(%a: tensor<16xf32>) {
  // expected-error @+1 {{'tt.bitcast' op cannot bitcast 32-bit elements to 16-bit elements}}
  %0 = tt.bitcast %a : tensor<16xf32> -> tensor<16xi16>
  tt.return
}

// -----

// Pointers are 64 bits wide for bitcast.
tt.func @bitcast_pointer_width(%p: !tt.ptr<f32>) {
  // expected-error @+1 {{'tt.bitcast' op cannot bitcast 64-bit elements to 32-bit elements}}
  %0 = tt.bitcast %p : !tt.ptr<f32> -> i32
  tt.return
}

// -----

// int_to_ptr keeps the shape.
tt.func @int_to_ptr_shape(%a: tensor<16xi64>) {
  // expected-error @+1 {{'tt.int_to_ptr' op source shape 16 differs from result shape 8}}
  %0 = tt.int_to_ptr %a : tensor<16xi64> -> tensor<8x!tt.ptr<f32>>
  tt.return
}

// -----

// int_to_ptr takes i64.
tt.func @int_to_ptr_i32(%a: i32) {
  // expected-error @+1 {{'tt.int_to_ptr' op operand #0 must be 64-bit signless integer or ranked tensor of 64-bit signless integer values, but got 'i32'}}
  %0 = tt.int_to_ptr %a : i32 -> !tt.ptr<f32>
  tt.return
}

// -----

// ptr_to_int keeps the shape.
tt.func @ptr_to_int_shape(%p: !tt.ptr<f32>) {
  // expected-error @+1 {{'tt.ptr_to_int' op source shape scalar differs from result shape 16}}
  %0 = tt.ptr_to_int %p : !tt.ptr<f32> -> tensor<16xi64>
  tt.return
}

// -----

// extern_elementwise names a device function.
tt.func @extern_elementwise_symbol(%a: tensor<16xf32>) {
  // expected-error @+1 {{'tt.extern_elementwise' op symbol must name a device function}}
  %0 = tt.extern_elementwise %a {libname = "", libpath = "", pure = true, symbol = ""} : (tensor<16xf32>) -> tensor<16xf32>
  tt.return
}

// -----

// extern_elementwise's tensor operands have the result's shape.
tt.func @extern_elementwise_shape(%a: tensor<16xf32>) {
  // expected-error @+1 {{'tt.extern_elementwise' op operand #0 has shape 16 but the result has shape 8}}
  %0 = tt.extern_elementwise %a {libname = "", libpath = "", pure = true, symbol = "__nv_expf"} : (tensor<16xf32>) -> tensor<8xf32>
  tt.return
}

// -----

// elementwise_inline_asm packs at least one element.
tt.func @inline_asm_packed_element(%a: tensor<16xi32>) {
  // expected-error @+1 {{'tt.elementwise_inline_asm' op packed_element must be between 1 and 64, got 0}}
  %0 = tt.elementwise_inline_asm "mov.b32 $0, $1;" {constraints = "=r,r", packed_element = 0 : i32, pure = true} %a : tensor<16xi32> -> tensor<16xi32>
  tt.return
}

// -----

// A negative packed_element is read signed (the attribute's getter reads
// -2 as 4294967294, and the lowering went on to build that many operands).
tt.func @inline_asm_packed_element_negative(%a: tensor<16xi32>) {
  // expected-error @+1 {{'tt.elementwise_inline_asm' op packed_element must be between 1 and 64, got -2}}
  %0 = tt.elementwise_inline_asm "mov.b32 $0, $1;" {constraints = "=r,r", packed_element = -2 : i32, pure = true} %a : tensor<16xi32> -> tensor<16xi32>
  tt.return
}

// -----

// elementwise_inline_asm's tensors have one shape.
tt.func @inline_asm_shape(%a: tensor<16xi32>) {
  // expected-error @+1 {{'tt.elementwise_inline_asm' op result #0 has shape 8, expected 16}}
  %0 = tt.elementwise_inline_asm "mov.b32 $0, $1;" {constraints = "=r,r", packed_element = 1 : i32, pure = true} %a : tensor<16xi32> -> tensor<8xi32>
  tt.return
}

// -----

// elementwise_inline_asm's tensor operands have one shape.
tt.func @inline_asm_operand_shape(%a: tensor<16xi32>, %b: tensor<8xi32>) {
  // expected-error @+1 {{'tt.elementwise_inline_asm' op operand #1 has shape 8, expected 16}}
  %0 = tt.elementwise_inline_asm "add.s32 $0, $1, $2;" {constraints = "=r,r,r", packed_element = 1 : i32, pure = true} %a, %b : tensor<16xi32>, tensor<8xi32> -> tensor<16xi32>
  tt.return
}

// -----

// extern_elementwise's `pure` is a required attribute.
tt.func @extern_elementwise_missing_pure(%a: tensor<16xf32>) {
  // expected-error @+1 {{'tt.extern_elementwise' op requires attribute 'pure'}}
  %0 = tt.extern_elementwise %a {libname = "", libpath = "", symbol = "__nv_expf"} : (tensor<16xf32>) -> tensor<16xf32>
  tt.return
}

// -----

// clampf's operands and result have one type.
tt.func @clampf_types(%a: tensor<16xf32>, %b: tensor<16xf16>) {
  // expected-error @+1 {{'tt.clampf' op requires the same type for all operands and results}}
  %0 = "tt.clampf"(%a, %b, %a) <{propagateNan = 0 : i32}> : (tensor<16xf32>, tensor<16xf16>, tensor<16xf32>) -> tensor<16xf32>
  tt.return
}

// -----

// mulhiui is an integer op.
tt.func @mulhiui_float(%a: f32) {
  // expected-error @+1 {{'tt.mulhiui' op operand #0 must be}}
  %0 = tt.mulhiui %a, %a : f32
  tt.return
}

// -----

//===----------------------------------------------------------------------===//
// Histogram, gather, print, assert
//===----------------------------------------------------------------------===//

// histogram works on 1-D tensors.
tt.func @histogram_rank(%a: tensor<4x16xi32>) {
  // expected-error @+1 {{'tt.histogram' op source and result must be 1-D, got 'tensor<4x16xi32>' and 'tensor<16xi32>'}}
  %0 = tt.histogram %a : tensor<4x16xi32> -> tensor<16xi32>
  tt.return
}

// -----

// histogram's mask is i1 of the source's shape.
tt.func @histogram_mask(%a: tensor<64xi32>, %m: tensor<32xi1>) {
  // expected-error @+1 {{'tt.histogram' op failed to verify that mask is i1 of the shape of src}}
  %0 = "tt.histogram"(%a, %m) : (tensor<64xi32>, tensor<32xi1>) -> tensor<16xi32>
  tt.return
}

// -----

// gather's indices have the source's rank.
tt.func @gather_rank(%src: tensor<16x32xf32>, %idx: tensor<16xi32>) {
  // expected-error @+1 {{'tt.gather' op indices rank 1 differs from source rank 2}}
  %0 = tt.gather %src[%idx] {axis = 0 : i32} : (tensor<16x32xf32>, tensor<16xi32>) -> tensor<16xf32>
  tt.return
}

// -----

// gather's axis is a dimension of the source.
tt.func @gather_axis(%src: tensor<16x32xf32>, %idx: tensor<16x4xi32>) {
  // expected-error @+1 {{'tt.gather' op axis 2 is out of range for rank 2}}
  %0 = tt.gather %src[%idx] {axis = 2 : i32} : (tensor<16x32xf32>, tensor<16x4xi32>) -> tensor<16x4xf32>
  tt.return
}

// -----

// gather's result has the indices' shape.
tt.func @gather_result_shape(%src: tensor<16x32xf32>, %idx: tensor<16x4xi32>) {
  // expected-error @+1 {{'tt.gather' op result shape 16x32 must equal the indices shape 16x4}}
  %0 = tt.gather %src[%idx] {axis = 1 : i32} : (tensor<16x32xf32>, tensor<16x4xi32>) -> tensor<16x32xf32>
  tt.return
}

// -----

// gather keeps the source's element type.
tt.func @gather_element_type(%src: tensor<16x32xf32>, %idx: tensor<16x4xi32>) {
  // expected-error @+1 {{'tt.gather' op result element type 'f16' does not match the source element type 'f32'}}
  %0 = tt.gather %src[%idx] {axis = 1 : i32} : (tensor<16x32xf32>, tensor<16x4xi32>) -> tensor<16x4xf16>
  tt.return
}

// -----

// gather's indices match the source outside the gather axis.
tt.func @gather_non_axis_dim(%src: tensor<16x32xf32>, %idx: tensor<8x4xi32>) {
  // expected-error @+1 {{'tt.gather' op indices dimension 0 is 8 but the source's is 16}}
  %0 = tt.gather %src[%idx] {axis = 1 : i32} : (tensor<16x32xf32>, tensor<8x4xi32>) -> tensor<8x4xf32>
  tt.return
}

// -----

// print's isSigned has one entry per value.
tt.func @print_is_signed(%a: tensor<16xi32>) {
  // expected-error @+1 {{'tt.print' op isSigned has 2 entries for 1 values}}
  tt.print "x: " {hex = false, isSigned = array<i32: 1, 1>} : %a : tensor<16xi32>
  tt.return
}

// -----

// assert's condition is i1 or a tensor of i1.
tt.func @assert_condition(%a: tensor<16xi32>) {
  // expected-error @+1 {{'tt.assert' op operand #0 must be}}
  tt.assert %a, "bad" : tensor<16xi32>
  tt.return
}

// -----

//===----------------------------------------------------------------------===//
// Functions
//===----------------------------------------------------------------------===//

// A call names an existing tt.func.
tt.func @call_missing(%a: i32) {
  // expected-error @+1 {{'tt.call' op 'missing' does not reference a valid tt.func}}
  tt.call @missing(%a) : (i32) -> ()
  tt.return
}

// -----

// A call's operand and result types are the callee's.
tt.func private @callee(%a: i32) -> i32 {
  tt.return %a : i32
}
tt.func @call_type_mismatch(%a: i64) {
  // expected-error @+1 {{'tt.call' op call type '(i64) -> i32' does not match the callee's type '(i32) -> i32'}}
  %0 = tt.call @callee(%a) : (i64) -> i32
  tt.return
}

// -----

// tt.return returns as many values as the function.
tt.func @return_count(%a: i32) -> i32 {
  // expected-error @+1 {{'tt.return' op returns 0 values but 'return_count' returns 1}}
  tt.return
}

// -----

// tt.return's values have the function's result types.
tt.func @return_type(%a: i32) -> f32 {
  // expected-error @+1 {{'tt.return' op value #0 has type 'i32' but 'return_type' returns 'f32'}}
  tt.return %a : i32
}

// -----

// A function's entry block takes the signature's argument types.
// (Reported by the FunctionOpInterface verifier, which runs before
// tt.func's own.)
// expected-error @+1 {{'tt.func' op type of entry block argument #0('i64') must match the type of the corresponding argument in function signature('i32')}}
"tt.func"() <{function_type = (i32) -> (), sym_name = "entry_block_types"}> ({
^bb0(%a: i64):
  "tt.return"() : () -> ()
}) : () -> ()

// -----

// A function's entry block takes as many arguments as the signature.
// expected-error @+1 {{'tt.func' op entry block must have 1 arguments to match function signature}}
"tt.func"() <{function_type = (i32) -> (), sym_name = "entry_block_count"}> ({
  "tt.return"() : () -> ()
}) : () -> ()

// -----

// A negative axis is reported as written (I32 attributes are signed).
tt.func @expand_dims_negative_axis(%a: tensor<16xf32>) {
  // expected-error @+1 {{'tt.expand_dims' op axis -1 is out of range for a rank-1 source}}
  %0 = tt.expand_dims %a {axis = -1 : i32} : tensor<16xf32> -> tensor<16x1xf32>
  tt.return
}

// -----

// An axis hint on an argument is a positive integer: the lowering's vector
// widths follow from it (0 read as "divisible by anything" gave vadd
// 16-byte vector loads).
// expected-error @+1 {{'tt.func' op argument #0's 'tt.divisibility' must be a positive integer, got 0 : i32}}
tt.func public @divisibility_zero(%p: !tt.ptr<f32> {tt.divisibility = 0 : i32}) {
  tt.return
}

// -----

// expected-error @+1 {{'tt.func' op argument #1's 'tt.divisibility' must be a positive integer, got -16 : i32}}
tt.func public @divisibility_negative(%p: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %n: i32 {tt.divisibility = -16 : i32}) {
  tt.return
}

// -----

// expected-error @+1 {{'tt.func' op argument #0's 'tt.contiguity' must be a positive integer, got "16"}}
tt.func public @contiguity_string(%p: !tt.ptr<f32> {tt.contiguity = "16"}) {
  tt.return
}
