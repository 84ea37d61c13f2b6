// A row sum (tt.reduce over 64-lane wavefronts), for the AMDGPU backend tests.
tt.func public @row_sum(%p: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %out: !tt.ptr<f32>, %n: i32 {tt.divisibility = 16 : i32}) {
  %r = tt.make_range {end = 4096 : i32, start = 0 : i32} : tensor<4096xi32>
  %nn = tt.splat %n : i32 -> tensor<4096xi32>
  %m = arith.cmpi slt, %r, %nn : tensor<4096xi32>
  %s = tt.splat %p : !tt.ptr<f32> -> tensor<4096x!tt.ptr<f32>>
  %a = tt.addptr %s, %r : tensor<4096x!tt.ptr<f32>>, tensor<4096xi32>
  %x = tt.load %a, %m : tensor<4096x!tt.ptr<f32>>
  %sum = "tt.reduce"(%x) <{axis = 0 : i32}> ({
  ^bb0(%u: f32, %v: f32):
    %w = arith.addf %u, %v : f32
    tt.reduce.return %w : f32
  }) : (tensor<4096xf32>) -> f32
  tt.store %out, %sum : !tt.ptr<f32>
  tt.return
}
