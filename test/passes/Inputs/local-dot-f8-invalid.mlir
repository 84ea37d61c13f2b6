// kgpu.local_dot operands kiln cannot read (kgpu-pipeline-dot-loops never
// writes these; hand-written IR): errors, not crashes.
#blocked = #kgpu.blocked<{sizePerThread = [1, 16], threadsPerWarp = [8, 4], warpsPerCTA = [2, 1], order = [1, 0]}>
#blocked1 = #kgpu.blocked<{sizePerThread = [16, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 2], order = [0, 1]}>
#mma = #kgpu.mma<{version = 2, warpsPerCTA = [1, 2], instrShape = [16, 8]}>
module attributes {"kgpu.num-warps" = 2 : i32, "kgpu.threads-per-warp" = 32 : i32} {
  tt.func public @f8_b_not_k_major(%p: !tt.ptr<f32>) {
    %acc = arith.constant dense<0.0> : tensor<32x64xf32, #mma>
    %slot = arith.constant 0 : i32
    // expected-error @+1 {{local_dot on f8 slots needs B stored N rows of K (bKMajor) and K a multiple of 32}}
    %d = kgpu.local_dot %acc slot %slot {aOffset = 0 : i64, aSlotBytes = 2560 : i64, aType = tensor<32x64xf8E4M3FN, #blocked>, bOffset = 7680 : i64, bSlotBytes = 5120 : i64, bType = tensor<64x64xf8E4M3FN, #blocked1>, numSlots = 3 : i32} : tensor<32x64xf32, #mma> -> tensor<32x64xf32, #mma>
    %ps = tt.splat %p : !tt.ptr<f32> -> tensor<32x64x!tt.ptr<f32>, #mma>
    tt.store %ps, %d : tensor<32x64x!tt.ptr<f32>, #mma>
    tt.return
  }
}

// -----

#blocked = #kgpu.blocked<{sizePerThread = [1, 16], threadsPerWarp = [8, 4], warpsPerCTA = [2, 1], order = [1, 0]}>
#blocked1 = #kgpu.blocked<{sizePerThread = [16, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 2], order = [0, 1]}>
#mma = #kgpu.mma<{version = 2, warpsPerCTA = [1, 2], instrShape = [16, 8]}>
module attributes {"kgpu.num-warps" = 2 : i32, "kgpu.threads-per-warp" = 32 : i32} {
  tt.func public @f8_k16(%p: !tt.ptr<f32>) {
    %acc = arith.constant dense<0.0> : tensor<32x64xf32, #mma>
    %slot = arith.constant 0 : i32
    // expected-error @+1 {{local_dot on f8 slots needs B stored N rows of K (bKMajor) and K a multiple of 32}}
    %d = kgpu.local_dot %acc slot %slot {aOffset = 0 : i64, aSlotBytes = 1024 : i64, aType = tensor<32x16xf8E4M3FN, #blocked>, bKMajor, bOffset = 3072 : i64, bSlotBytes = 2048 : i64, bType = tensor<16x64xf8E4M3FN, #blocked1>, numSlots = 3 : i32} : tensor<32x64xf32, #mma> -> tensor<32x64xf32, #mma>
    %ps = tt.splat %p : !tt.ptr<f32> -> tensor<32x64x!tt.ptr<f32>, #mma>
    tt.store %ps, %d : tensor<32x64x!tt.ptr<f32>, #mma>
    tt.return
  }
}

// -----

#blocked = #kgpu.blocked<{sizePerThread = [1, 16], threadsPerWarp = [8, 4], warpsPerCTA = [2, 1], order = [1, 0]}>
#blocked1 = #kgpu.blocked<{sizePerThread = [16, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 2], order = [0, 1]}>
#mma = #kgpu.mma<{version = 2, warpsPerCTA = [1, 2], instrShape = [16, 8]}>
module attributes {"kgpu.num-warps" = 2 : i32, "kgpu.threads-per-warp" = 32 : i32} {
  tt.func public @mixed_slots(%p: !tt.ptr<f32>) {
    %acc = arith.constant dense<0.0> : tensor<32x64xf32, #mma>
    %slot = arith.constant 0 : i32
    // expected-error @+1 {{local_dot multiplies f16, bf16, f8E4M3FN, f8E5M2 or f32 (tf32) slots of one type, not 'f8E4M3FN' x 'f16'}}
    %d = kgpu.local_dot %acc slot %slot {aOffset = 0 : i64, aSlotBytes = 2560 : i64, aType = tensor<32x64xf8E4M3FN, #blocked>, bKMajor, bOffset = 7680 : i64, bSlotBytes = 10240 : i64, bType = tensor<64x64xf16, #blocked1>, numSlots = 3 : i32} : tensor<32x64xf32, #mma> -> tensor<32x64xf32, #mma>
    %ps = tt.splat %p : !tt.ptr<f32> -> tensor<32x64x!tt.ptr<f32>, #mma>
    tt.store %ps, %d : tensor<32x64x!tt.ptr<f32>, #mma>
    tt.return
  }
}

// -----

// A from registers in a layout that is not the accumulator's (warps along
// N): the thread does not hold its A fragments.
#blocked1 = #kgpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [2, 1], order = [1, 0]}>
#mma = #kgpu.mma<{version = 2, warpsPerCTA = [1, 2], instrShape = [16, 8]}>
module attributes {"kgpu.num-warps" = 2 : i32, "kgpu.threads-per-warp" = 32 : i32} {
  tt.func public @register_a_layout(%p: !tt.ptr<f32>, %a: tensor<32x64xf16, #mma>) {
    %acc = arith.constant dense<0.0> : tensor<32x64xf32, #mma>
    %slot = arith.constant 0 : i32
    // expected-error @+1 {{local_dot's register A must be the aType tile, 16-bit, in the accumulator's layout with the warps along M only and 16 x 8 warp tiles, got 'tensor<32x64xf16, #kgpu.mma<{version = 2, warpsPerCTA = [1, 2], instrShape = [16, 8]}>>'}}
    %d = kgpu.local_dot %acc a %a : tensor<32x64xf16, #mma> slot %slot {aOffset = 0 : i64, aSlotBytes = 0 : i64, aType = tensor<32x64xf16, #mma>, bOffset = 0 : i64, bSlotBytes = 9216 : i64, bType = tensor<64x64xf16, #blocked1>, numSlots = 2 : i32} : tensor<32x64xf32, #mma> -> tensor<32x64xf32, #mma>
    %ps = tt.splat %p : !tt.ptr<f32> -> tensor<32x64x!tt.ptr<f32>, #mma>
    tt.store %ps, %d : tensor<32x64x!tt.ptr<f32>, #mma>
    tt.return
  }
}

// -----

// f32 (tf32) slots with B stored transposed: the tf32 fragments are read
// from row-major B only.
#blocked = #kgpu.blocked<{sizePerThread = [1, 16], threadsPerWarp = [8, 4], warpsPerCTA = [2, 1], order = [1, 0]}>
#blocked1 = #kgpu.blocked<{sizePerThread = [16, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 2], order = [0, 1]}>
#mma = #kgpu.mma<{version = 2, warpsPerCTA = [1, 2], instrShape = [16, 8]}>
module attributes {"kgpu.num-warps" = 2 : i32, "kgpu.threads-per-warp" = 32 : i32} {
  tt.func public @tf32_b_k_major(%p: !tt.ptr<f32>) {
    %acc = arith.constant dense<0.0> : tensor<32x64xf32, #mma>
    %slot = arith.constant 0 : i32
    // expected-error @+1 {{local_dot on f32 slots (tf32) reads A from its slot and either B row-major (mma.sync, tf32 or tf32x3) or B stored N rows of K (wgmma, tf32 only)}}
    %d = kgpu.local_dot %acc slot %slot {aOffset = 0 : i64, aSlotBytes = 5120 : i64, aType = tensor<32x32xf32, #blocked>, bKMajor, bOffset = 15360 : i64, bSlotBytes = 10240 : i64, bType = tensor<32x64xf32, #blocked1>, numSlots = 3 : i32} : tensor<32x64xf32, #mma> -> tensor<32x64xf32, #mma>
    %ps = tt.splat %p : !tt.ptr<f32> -> tensor<32x64x!tt.ptr<f32>, #mma>
    tt.store %ps, %d : tensor<32x64x!tt.ptr<f32>, #mma>
    tt.return
  }
}

// -----

// A stored K rows of M (aMMajor) without wgmma: mma.sync reads its slots
// with ldmatrix by rows of K.
#blocked = #kgpu.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#blocked1 = #kgpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #kgpu.mma<{version = 2, warpsPerCTA = [4, 1], instrShape = [16, 8]}>
module attributes {"kgpu.num-warps" = 4 : i32, "kgpu.threads-per-warp" = 32 : i32} {
  tt.func public @a_m_major_mma_sync(%p: !tt.ptr<f32>) {
    %acc = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
    %slot = arith.constant 0 : i32
    // expected-error @+1 {{local_dot's aMMajor (A stored K rows of M) is for wgmma on 16-bit A slots only}}
    %d = kgpu.local_dot %acc slot %slot {aMMajor, aOffset = 0 : i64, aSlotBytes = 8192 : i64, aType = tensor<64x64xf16, #blocked>, bOffset = 24576 : i64, bSlotBytes = 8192 : i64, bType = tensor<64x64xf16, #blocked1>, numSlots = 3 : i32} : tensor<64x64xf32, #mma> -> tensor<64x64xf32, #mma>
    %ps = tt.splat %p : !tt.ptr<f32> -> tensor<64x64x!tt.ptr<f32>, #mma>
    tt.store %ps, %d : tensor<64x64x!tt.ptr<f32>, #mma>
    tt.return
  }
}

// -----

// wgmma with the warpgroups splitting N (warps 4 x 2): each warpgroup
// multiplies N / 2 columns, whole 64-column blocks; an N of 64 leaves 32.
#blocked = #kgpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [8, 1], order = [1, 0]}>
#mma = #kgpu.mma<{version = 2, warpsPerCTA = [4, 2], instrShape = [16, 8]}>
module attributes {"kgpu.num-warps" = 8 : i32, "kgpu.threads-per-warp" = 32 : i32} {
  tt.func public @split_n_narrow(%p: !tt.ptr<f32>) {
    %acc = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
    %slot = arith.constant 0 : i32
    // expected-error @+1 {{local_dot with wgmma and 2 warps along N needs 16-bit slots, warps along M a multiple of 4, M a multiple of 16 x those, K of 16 and N of 64 x 2 (at most 256 each)}}
    %d = kgpu.local_dot %acc slot %slot {aOffset = 0 : i64, aSlotBytes = 8192 : i64, aType = tensor<64x64xf16, #blocked>, bOffset = 24576 : i64, bSlotBytes = 8192 : i64, bType = tensor<64x64xf16, #blocked>, numSlots = 3 : i32, wgmma} : tensor<64x64xf32, #mma> -> tensor<64x64xf32, #mma>
    %ps = tt.splat %p : !tt.ptr<f32> -> tensor<64x64x!tt.ptr<f32>, #mma>
    tt.store %ps, %d : tensor<64x64x!tt.ptr<f32>, #mma>
    tt.return
  }
}

// -----

// wgmma with the warpgroups splitting N multiplies each warpgroup's N / 2
// columns as one contiguous part of B's slot: the accumulator's warp
// columns must own those parts (instrShape [16, 64] here), not 8-column
// tiles dealt to them in turn (instrShape [16, 8]).
#blocked = #kgpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [8, 1], order = [1, 0]}>
#mma = #kgpu.mma<{version = 2, warpsPerCTA = [4, 2], instrShape = [16, 8]}>
module attributes {"kgpu.num-warps" = 8 : i32, "kgpu.threads-per-warp" = 32 : i32} {
  tt.func public @split_n_dealt(%p: !tt.ptr<f32>) {
    %acc = arith.constant dense<0.0> : tensor<64x128xf32, #mma>
    %slot = arith.constant 0 : i32
    // expected-error @+1 {{local_dot with wgmma and 2 warps along N needs each warp column to own N / 2 contiguous columns (accumulator instrShape [16, 64]), got #kgpu.mma<{version = 2, warpsPerCTA = [4, 2], instrShape = [16, 8]}>}}
    %d = kgpu.local_dot %acc slot %slot {aOffset = 0 : i64, aSlotBytes = 8192 : i64, aType = tensor<64x64xf16, #blocked>, bOffset = 24576 : i64, bSlotBytes = 16384 : i64, bType = tensor<64x128xf16, #blocked>, numSlots = 3 : i32, wgmma} : tensor<64x128xf32, #mma> -> tensor<64x128xf32, #mma>
    %ps = tt.splat %p : !tt.ptr<f32> -> tensor<64x128x!tt.ptr<f32>, #mma>
    tt.store %ps, %d : tensor<64x128x!tt.ptr<f32>, #mma>
    tt.return
  }
}

// -----

// A copy into slots no kgpu.local_dot reads: the local_dot that reads slots
// is what sizes and places them in shared memory.
#blocked = #kgpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"kgpu.num-warps" = 4 : i32, "kgpu.threads-per-warp" = 32 : i32} {
  tt.func public @copy_without_local_dot(%p: !tt.ptr<f16> {tt.divisibility = 16 : i32}) {
    %slot = arith.constant 0 : i32
    %r = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #kgpu.slice<{dim = 0, parent = #blocked}>>
    %c = tt.expand_dims %r {axis = 0 : i32} : tensor<64xi32, #kgpu.slice<{dim = 0, parent = #blocked}>> -> tensor<1x64xi32, #blocked>
    %cb = tt.broadcast %c : tensor<1x64xi32, #blocked> -> tensor<32x64xi32, #blocked>
    %ps = tt.splat %p : !tt.ptr<f16> -> tensor<32x64x!tt.ptr<f16>, #blocked>
    %pp = tt.addptr %ps, %cb : tensor<32x64x!tt.ptr<f16>, #blocked>, tensor<32x64xi32, #blocked>
    // expected-error @+1 {{async copy to shared memory at offset 0 (slot bytes 4096) fills no slots a kgpu.local_dot (its A or B offset and slot bytes) or kgpu.local_load reads: the op reading them sizes and places the slots}}
    kgpu.async_copy %pp slot %slot {offset = 0 : i64, rowStride = 64 : i64, slotBytes = 4096 : i64} : tensor<32x64x!tt.ptr<f16>, #blocked>
    kgpu.async_commit_group
    kgpu.async_wait 0
    tt.return
  }
}

// -----

// An accumulator narrower than its layout's warp tiles (64 x 32 in 16 x 64
// tiles on 2 warp columns): the mma.sync lowering reads a warp tile's B
// fragments at constant column offsets that would run past N.
#rows = #kgpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [8, 1], order = [1, 0]}>
#w = #kgpu.mma<{version = 2, warpsPerCTA = [4, 2], instrShape = [16, 64]}>
module attributes {"kgpu.num-warps" = 8 : i32, "kgpu.threads-per-warp" = 32 : i32} {
  tt.func public @wide_tile_narrow_n(%a: tensor<64x32xf16, #rows>, %b: tensor<32x32xf16, #rows>, %p: !tt.ptr<f32>) {
    %z = arith.constant dense<0.0> : tensor<64x32xf32, #w>
    // expected-error @+1 {{tt.dot's accumulator layout #kgpu.mma<{version = 2, warpsPerCTA = [4, 2], instrShape = [16, 64]}> has warp tiles wider than its N (32) divides: N must be a multiple of instrShape[1] x the warps along N}}
    %d = tt.dot %a, %b, %z : tensor<64x32xf16, #rows> * tensor<32x32xf16, #rows> -> tensor<64x32xf32, #w>
    %ps = tt.splat %p : !tt.ptr<f32> -> tensor<64x32x!tt.ptr<f32>, #w>
    tt.store %ps, %d : tensor<64x32x!tt.ptr<f32>, #w>
    tt.return
  }
}

// -----

// The same for a kgpu.local_dot on mma.sync (no wgmma): N 64 in 16 x 64
// tiles on 2 warp columns.
#blocked = #kgpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [8, 1], order = [1, 0]}>
#w = #kgpu.mma<{version = 2, warpsPerCTA = [4, 2], instrShape = [16, 64]}>
module attributes {"kgpu.num-warps" = 8 : i32, "kgpu.threads-per-warp" = 32 : i32} {
  tt.func public @wide_tile_local_dot(%p: !tt.ptr<f32>) {
    %acc = arith.constant dense<0.0> : tensor<64x64xf32, #w>
    %slot = arith.constant 0 : i32
    // expected-error @+1 {{local_dot's accumulator layout #kgpu.mma<{version = 2, warpsPerCTA = [4, 2], instrShape = [16, 64]}> has warp tiles wider than its N (64) divides: N must be a multiple of instrShape[1] x the warps along N}}
    %d = kgpu.local_dot %acc slot %slot {aOffset = 0 : i64, aSlotBytes = 9216 : i64, aType = tensor<64x64xf16, #blocked>, bOffset = 27648 : i64, bSlotBytes = 9216 : i64, bType = tensor<64x64xf16, #blocked>, numSlots = 3 : i32} : tensor<64x64xf32, #w> -> tensor<64x64xf32, #w>
    %ps = tt.splat %p : !tt.ptr<f32> -> tensor<64x64x!tt.ptr<f32>, #w>
    tt.store %ps, %d : tensor<64x64x!tt.ptr<f32>, #w>
    tt.return
  }
}
