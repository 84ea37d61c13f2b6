// RUN: kiln-opt %s -split-input-file -verify-diagnostics

// Verifier errors of the kgpu layouts and ops. An attribute's diagnostic is
// reported at the attribute inside the tensor type, hence `@+1` on the line
// holding the type.

//===----------------------------------------------------------------------===//
// #kgpu.blocked
//===----------------------------------------------------------------------===//

// All four arrays of a blocked layout have one entry per dimension.
// expected-error @+1 {{sizePerThread, threadsPerWarp, warpsPerCTA and order must have the same length}}
tt.func @blocked_sizes_mismatch(%a: tensor<16x16xf32, #kgpu.blocked<{sizePerThread = [1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>>) {
  tt.return
}

// -----

// sizePerThread entries are powers of two.
// expected-error @+1 {{sizePerThread entries must be powers of two, got 3}}
tt.func @blocked_size_per_thread_not_pow2(%a: tensor<96xf32, #kgpu.blocked<{sizePerThread = [3], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>>) {
  tt.return
}

// -----

// threadsPerWarp entries are powers of two (0 included).
// expected-error @+1 {{threadsPerWarp entries must be powers of two, got 0}}
tt.func @blocked_threads_zero(%a: tensor<16x16xf32, #kgpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [0, 32], warpsPerCTA = [1, 1], order = [1, 0]}>>) {
  tt.return
}

// -----

// warpsPerCTA entries are powers of two.
// expected-error @+1 {{warpsPerCTA entries must be powers of two, got 6}}
tt.func @blocked_warps_not_pow2(%a: tensor<128xf32, #kgpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [6], order = [0]}>>) {
  tt.return
}

// -----

// The lanes of a warp multiply to the warp size, 32 or 64.
// expected-error @+1 {{threadsPerWarp must multiply to the warp size (32 or 64), got 16}}
tt.func @blocked_lanes_not_warp_size(%a: tensor<16x16xf32, #kgpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 4], warpsPerCTA = [1, 1], order = [1, 0]}>>) {
  tt.return
}

// -----

// order is a permutation of the dimensions: no repeated entry...
// expected-error @+1 {{order must be a permutation of [0, 2), got entry 1}}
tt.func @blocked_order_repeated(%a: tensor<16x16xf32, #kgpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 1], order = [1, 1]}>>) {
  tt.return
}

// -----

// ...and no entry out of range.
// expected-error @+1 {{order must be a permutation of [0, 2), got entry 2}}
tt.func @blocked_order_out_of_range(%a: tensor<16x16xf32, #kgpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 1], order = [2, 0]}>>) {
  tt.return
}

// -----

//===----------------------------------------------------------------------===//
// #kgpu.slice
//===----------------------------------------------------------------------===//

// The sliced dimension exists in the parent.
// expected-error @+1 {{slice dim 2 out of range for rank-2 parent}}
tt.func @slice_dim_out_of_range(%a: tensor<16xf32, #kgpu.slice<{dim = 2, parent = #kgpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>}>>) {
  tt.return
}

// -----

// A slice's parent distributes the tensor over threads; a shared layout
// does not.
// expected-error @+1 {{slice parent must be a distributed layout, got #kgpu.shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>}}
tt.func @slice_of_shared(%a: tensor<16xf32, #kgpu.slice<{dim = 0, parent = #kgpu.shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>}>>) {
  tt.return
}

// -----

// Slicing a rank-1 layout would leave a rank-0 tensor.
// expected-error @+1 {{slice parent must have rank >= 2}}
tt.func @slice_of_rank1(%a: tensor<16xf32, #kgpu.slice<{dim = 0, parent = #kgpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>}>>) {
  tt.return
}

// -----

//===----------------------------------------------------------------------===//
// #kgpu.shared
//===----------------------------------------------------------------------===//

// Swizzle vectors hold at least one element.
// expected-error @+1 {{vec, perPhase and maxPhase must be positive}}
tt.func @shared_vec_zero(%a: tensor<32x32xf16, #kgpu.shared<{vec = 0, perPhase = 1, maxPhase = 1, order = [1, 0]}>>) {
  tt.return
}

// -----

//===----------------------------------------------------------------------===//
// kgpu.convert_layout
//===----------------------------------------------------------------------===//

#b0 = #kgpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#b1 = #kgpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// convert_layout may not change the shape.
tt.func @convert_layout_shape(%a: tensor<128xf32, #b0>) {
  // expected-error @+1 {{'kgpu.convert_layout' op may only change the layout, got 'tensor<128xf32, #kgpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>>' -> 'tensor<256xf32, #kgpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>>'}}
  %b = kgpu.convert_layout %a : tensor<128xf32, #b0> -> tensor<256xf32, #b1>
  tt.return
}

// -----

#b0 = #kgpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#b1 = #kgpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// convert_layout may not change the element type.
tt.func @convert_layout_element_type(%a: tensor<128xf32, #b0>) {
  // expected-error @+1 {{'kgpu.convert_layout' op may only change the layout, got 'tensor<128xf32, #kgpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>>' -> 'tensor<128xf16, #kgpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>>'}}
  %b = kgpu.convert_layout %a : tensor<128xf32, #b0> -> tensor<128xf16, #b1>
  tt.return
}

// -----

// mma versions: 2 (mma.sync) and 3 (wgmma).
// expected-error @+1 {{mma version must be 2 (mma.sync) or 3 (wgmma), got 1}}
tt.func @mma_version(%a: tensor<16x8xf32, #kgpu.mma<{version = 1, warpsPerCTA = [1, 1], instrShape = [16, 8]}>>) {
  tt.return
}

// -----

// An mma.sync warp tile is 16 rows of whole m16n8 tiles, a power of two
// of them (instrShape [16, W], W in 8..256).
// expected-error @+1 {{mma.sync instrShape must be [16, N] with N a power of two in [8, 256] (a warp's tile: N / 8 m16n8 tiles side by side), got [16, 24]}}
tt.func @mma_sync_warp_tile(%a: tensor<64x48xf32, #kgpu.mma<{version = 2, warpsPerCTA = [4, 2], instrShape = [16, 24]}>>) {
  tt.return
}

// -----

// expected-error @+1 {{mma.sync instrShape must be [16, N] with N a power of two in [8, 256] (a warp's tile: N / 8 m16n8 tiles side by side), got [32, 8]}}
tt.func @mma_sync_warp_rows(%a: tensor<64x48xf32, #kgpu.mma<{version = 2, warpsPerCTA = [4, 2], instrShape = [32, 8]}>>) {
  tt.return
}

// -----

// wgmma's M is 64 per warpgroup.
// expected-error @+1 {{wgmma instrShape M must be 64, got 32}}
tt.func @wgmma_m(%a: tensor<64x64xf32, #kgpu.mma<{version = 3, warpsPerCTA = [4, 1], instrShape = [32, 64, 16]}>>) {
  tt.return
}

// -----

// wgmma runs on whole warpgroups of 4 warps.
// expected-error @+1 {{wgmma needs whole warpgroups (warps a multiple of 4), got 2}}
tt.func @wgmma_warps(%a: tensor<64x64xf32, #kgpu.mma<{version = 3, warpsPerCTA = [2, 1], instrShape = [64, 64, 16]}>>) {
  tt.return
}

// -----

// A dot operand is A (0) or B (1).
// expected-error @+1 {{dot operand index must be 0 (A) or 1 (B), got 2}}
tt.func @dot_op_index(%a: tensor<16x16xf16, #kgpu.dot_op<{opIdx = 2, parent = #kgpu.mma<{version = 2, warpsPerCTA = [1, 1], instrShape = [16, 8]}>, kWidth = 8}>>) {
  tt.return
}

// -----

// wgmma_wait returns its values unchanged: the result types are theirs.
tt.func @wgmma_wait_types(%a: tensor<64x64xf32>) {
  // expected-error @+1 {{all of {values, results} have same type}}
  %w = "kgpu.wgmma_wait"(%a) {pending = 0 : i32} : (tensor<64x64xf32>) -> tensor<64x64xf16>
  tt.return
}

// -----

//===----------------------------------------------------------------------===//
// Unsigned lists (every layout's counts, shapes and orders)
//===----------------------------------------------------------------------===//

// A negative entry is named, not wrapped around to 2^32 - 4.
// expected-error @+2 {{expected an integer in [0, 4294967295], got -4}}
// expected-error @+1 {{failed to parse KGPU_BlockedEncodingAttr parameter 'sizePerThread'}}
tt.func @blocked_negative(%a: tensor<16x16xf32, #kgpu.blocked<{sizePerThread = [1, -4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>>) {
  tt.return
}

// -----

// expected-error @+2 {{expected an integer in [0, 4294967295], got -8}}
// expected-error @+1 {{failed to parse KGPU_MmaEncodingAttr parameter 'instrShape'}}
tt.func @mma_negative(%a: tensor<64x64xf32, #kgpu.mma<{version = 2, warpsPerCTA = [4, 1], instrShape = [16, -8]}>>) {
  tt.return
}

// -----

// Nor is an entry beyond 32 bits cut to its low bits.
// expected-error @+2 {{expected an integer in [0, 4294967295], got 4294967297}}
// expected-error @+1 {{failed to parse KGPU_BlockedEncodingAttr parameter 'order'}}
tt.func @order_too_large(%a: tensor<16x16xf32, #kgpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [4294967297, 0]}>>) {
  tt.return
}

// -----

// kgpu.local_load reads back a 2-D tile of a blocked layout from slots
// that hold it.
#bl = #kgpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
tt.func @local_load_short_slot(%s: i32) {
  // expected-error @+1 {{'kgpu.local_load' op slots of 1024 bytes cannot hold 16 rows of 64 x 2 bytes}}
  %x = kgpu.local_load slot %s {offset = 0 : i64, rowStride = 64 : i64, slotBytes = 1024 : i64, numSlots = 3 : i32} : tensor<16x64xf16, #bl>
  tt.return
}

// -----

#bl = #kgpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
tt.func @local_load_short_row(%s: i32) {
  // expected-error @+1 {{'kgpu.local_load' op row stride 32 is shorter than a row of 64 elements}}
  %x = kgpu.local_load slot %s {offset = 0 : i64, rowStride = 32 : i64, slotBytes = 2048 : i64, numSlots = 3 : i32} : tensor<16x64xf16, #bl>
  tt.return
}

// -----

#bl = #kgpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
tt.func @local_load_unaligned(%s: i32) {
  // expected-error @+1 {{'kgpu.local_load' op offset 8 and slot bytes 2048 must be multiples of 16}}
  %x = kgpu.local_load slot %s {offset = 8 : i64, rowStride = 64 : i64, slotBytes = 2048 : i64, numSlots = 3 : i32} : tensor<16x64xf16, #bl>
  tt.return
}

// -----

#bl = #kgpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
tt.func @local_load_no_slots(%s: i32) {
  // expected-error @+1 {{'kgpu.local_load' op needs at least one slot, got 0}}
  %x = kgpu.local_load slot %s {offset = 0 : i64, rowStride = 64 : i64, slotBytes = 2048 : i64, numSlots = 0 : i32} : tensor<16x64xf16, #bl>
  tt.return
}

// -----

tt.func @local_load_no_layout(%s: i32) {
  // expected-error @+1 {{'kgpu.local_load' op reads a 2-D tile of static shape in a #kgpu.blocked or mma.sync-form #kgpu.mma layout, got 'tensor<16x64xf16>'}}
  %x = kgpu.local_load slot %s {offset = 0 : i64, rowStride = 64 : i64, slotBytes = 2048 : i64, numSlots = 3 : i32} : tensor<16x64xf16>
  tt.return
}

// -----

#bl = #kgpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
tt.func @local_load_bits(%s: i32) {
  // expected-error @+1 {{'kgpu.local_load' op reads 8-, 16-, 32- or 64-bit integers or floats, got 'i1'}}
  %x = kgpu.local_load slot %s {offset = 0 : i64, rowStride = 64 : i64, slotBytes = 2048 : i64, numSlots = 3 : i32} : tensor<16x64xi1, #bl>
  tt.return
}

// -----

// Its lowering moves 1-, 2-, 4- or 8-byte elements (i24 was accepted and
// read through 6-byte-aligned vectors).
#bl = #kgpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
tt.func @local_load_i24(%s: i32) {
  // expected-error @+1 {{'kgpu.local_load' op reads 8-, 16-, 32- or 64-bit integers or floats, got 'i24'}}
  %x = kgpu.local_load slot %s {offset = 0 : i64, rowStride = 64 : i64, slotBytes = 3088 : i64, numSlots = 3 : i32} : tensor<16x64xi24, #bl>
  tt.return
}

// -----

// A dynamic shape crashed the lowering.
#bl = #kgpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
tt.func @local_load_dynamic(%s: i32) {
  // expected-error @+1 {{'kgpu.local_load' op reads a 2-D tile of static shape in a #kgpu.blocked or mma.sync-form #kgpu.mma layout, got 'tensor<?x64xf16, #kgpu.blocked}}
  %x = kgpu.local_load slot %s {offset = 0 : i64, rowStride = 64 : i64, slotBytes = 2048 : i64, numSlots = 3 : i32} : tensor<?x64xf16, #bl>
  tt.return
}

// -----

// rows * rowStride * bytes wrapped around for a huge row stride.
#bl = #kgpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
tt.func @local_load_huge_stride(%s: i32) {
  // expected-error @+1 {{'kgpu.local_load' op row stride 576460752303423488 and slot bytes 2048 must be at most 2^24 elements and 2^30 bytes}}
  %x = kgpu.local_load slot %s {offset = 0 : i64, rowStride = 576460752303423488 : i64, slotBytes = 2048 : i64, numSlots = 3 : i32} : tensor<16x64xf16, #bl>
  tt.return
}
