// Errors of kgpu-convert-to-llvm on kgpu.local_load (RUN line in
// ../kgpu-convert-to-llvm-local-load.mlir).

#bl = #kgpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"kgpu.num-warps" = 4 : i32, "kgpu.threads-per-warp" = 32 : i32} {
  tt.func public @own(%p: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %q: !tt.ptr<f16> {tt.divisibility = 16 : i32}) {
    %s = arith.constant 0 : i32
    %r = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #kgpu.slice<{dim = 0, parent = #bl}>>
    %c = tt.expand_dims %r {axis = 0 : i32} : tensor<64xi32, #kgpu.slice<{dim = 0, parent = #bl}>> -> tensor<1x64xi32, #bl>
    %cb = tt.broadcast %c : tensor<1x64xi32, #bl> -> tensor<16x64xi32, #bl>
    %ps = tt.splat %p : !tt.ptr<f16> -> tensor<16x64x!tt.ptr<f16>, #bl>
    %pp = tt.addptr %ps, %cb : tensor<16x64x!tt.ptr<f16>, #bl>, tensor<16x64xi32, #bl>
    kgpu.async_copy %pp slot %s {kgpu.own_shared_memory, offset = 0 : i64, rowStride = 64 : i64, slotBytes = 2048 : i64} : tensor<16x64x!tt.ptr<f16>, #bl>
    kgpu.async_commit_group
    kgpu.async_wait 0
    // Slots of its own need a loop, or a wait for every copy after the
    // read, to place them (this was an internal error).
    // expected-error @+1 {{kgpu.local_load with kgpu.own_shared_memory is neither in a loop after its copies nor followed by a kgpu.async_wait 0: its slots cannot be placed}}
    %x = kgpu.local_load slot %s {kgpu.own_shared_memory, offset = 0 : i64, rowStride = 64 : i64, slotBytes = 2048 : i64, numSlots = 1 : i32} : tensor<16x64xf16, #bl>
    %qs = tt.splat %q : !tt.ptr<f16> -> tensor<16x64x!tt.ptr<f16>, #bl>
    %qq = tt.addptr %qs, %cb : tensor<16x64x!tt.ptr<f16>, #bl>, tensor<16x64xi32, #bl>
    tt.store %qq, %x : tensor<16x64x!tt.ptr<f16>, #bl>
    tt.return
  }
}
