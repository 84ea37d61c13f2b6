#a = #kgpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [2, 2], order = [1, 0]}>
#b = #kgpu.blocked<{sizePerThread = [2, 1], threadsPerWarp = [16, 2], warpsPerCTA = [1, 4], order = [0, 1]}>
module attributes {"kgpu.num-warps" = 4 : i32, "kgpu.threads-per-warp" = 32 : i32} {
tt.func public @cvt(%p: !tt.ptr<i64>) {
  %r = tt.make_range {end = 4 : i32, start = 0 : i32} : tensor<4xi32, #kgpu.slice<{dim = 0, parent = #a}>>
  %r2 = tt.expand_dims %r {axis = 0 : i32} : tensor<4xi32, #kgpu.slice<{dim = 0, parent = #a}>> -> tensor<1x4xi32, #a>
  %rb = tt.broadcast %r2 : tensor<1x4xi32, #a> -> tensor<2x4xi32, #a>
  %sp = tt.splat %p : !tt.ptr<i64> -> tensor<2x4x!tt.ptr<i64>, #a>
  %pp = tt.addptr %sp, %rb : tensor<2x4x!tt.ptr<i64>, #a>, tensor<2x4xi32, #a>
  %v = tt.load %pp : tensor<2x4x!tt.ptr<i64>, #a>
  %c = kgpu.convert_layout %v : tensor<2x4xi64, #a> -> tensor<2x4xi64, #b>
  %pc = kgpu.convert_layout %pp : tensor<2x4x!tt.ptr<i64>, #a> -> tensor<2x4x!tt.ptr<i64>, #b>
  tt.store %pc, %c : tensor<2x4x!tt.ptr<i64>, #b>
  tt.return
}
}
