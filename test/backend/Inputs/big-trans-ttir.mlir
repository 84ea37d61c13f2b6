// A transpose of 512x512 f32 goes through 1 MiB of shared memory, more than
// an sm_90 CTA may use.
tt.func public @big_trans(%p: !tt.ptr<f32> {tt.divisibility = 16 : i32}) {
  %x = arith.constant dense<1.0> : tensor<512x512xf32>
  %t = tt.trans %x {order = array<i32: 1, 0>} : tensor<512x512xf32> -> tensor<512x512xf32>
  %s = tt.splat %p : !tt.ptr<f32> -> tensor<512x512x!tt.ptr<f32>>
  tt.store %s, %t : tensor<512x512x!tt.ptr<f32>>
  tt.return
}
