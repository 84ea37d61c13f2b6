tt.func public @sixteen_warps(%p: !tt.ptr<f32> {tt.divisibility = 16 : i32}) {
  %r = tt.make_range {end = 4096 : i32, start = 0 : i32} : tensor<4096xi32>
  %s = tt.splat %p : !tt.ptr<f32> -> tensor<4096x!tt.ptr<f32>>
  %a = tt.addptr %s, %r : tensor<4096x!tt.ptr<f32>>, tensor<4096xi32>
  %x = tt.load %a : tensor<4096x!tt.ptr<f32>>
  %c = "tt.scan"(%x) <{axis = 0 : i32, reverse = false}> ({
  ^bb0(%u: f32, %v: f32):
    %t = arith.addf %u, %v : f32
    tt.scan.return %t : f32
  }) : (tensor<4096xf32>) -> tensor<4096xf32>
  tt.store %a, %c : tensor<4096x!tt.ptr<f32>>
  tt.return
}
