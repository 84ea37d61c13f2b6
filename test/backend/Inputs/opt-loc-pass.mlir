// Float max has no PTX atom instruction: kgpu-convert-to-llvm's error, at a
// location naming /dev/zero.
tt.func public @fmax(%p: !tt.ptr<f32>) {
  %r = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32>
  %v = arith.constant dense<1.0> : tensor<128xf32>
  %s = tt.splat %p : !tt.ptr<f32> -> tensor<128x!tt.ptr<f32>>
  %a = tt.addptr %s, %r : tensor<128x!tt.ptr<f32>>, tensor<128xi32>
  %old = tt.atomic_rmw max, relaxed, gpu, %a, %v : (tensor<128x!tt.ptr<f32>>, tensor<128xf32>) -> tensor<128xf32> loc("/dev/zero":7:1)
  tt.return
}
