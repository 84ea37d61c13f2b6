#mma = #kgpu.mma<{version = 2, warpsPerCTA = [4, 1], instrShape = [16, 8]}>
module attributes {"kgpu.num-warps" = 4 : i32, "kgpu.threads-per-warp" = 32 : i32} {
  tt.func public @mma_scan(%p: !tt.ptr<f32>, %f: f32) {
    %x = tt.splat %f : f32 -> tensor<64x16xf32, #mma>
    %c = "tt.scan"(%x) <{axis = 1 : i32, reverse = false}> ({
    ^bb0(%u: f32, %v: f32):
      %t = arith.addf %u, %v : f32
      tt.scan.return %t : f32
    }) : (tensor<64x16xf32, #mma>) -> tensor<64x16xf32, #mma>
    %s = tt.splat %p : !tt.ptr<f32> -> tensor<64x16x!tt.ptr<f32>, #mma>
    tt.store %s, %c : tensor<64x16x!tt.ptr<f32>, #mma>
    tt.return
  }
}
