// A batched (3-D) tt.dot, which the lowerings do not take yet.
tt.func public @bmm(%a: tensor<2x16x16xf16>, %b: tensor<2x16x16xf16>, %p: !tt.ptr<f32>) {
  %c = arith.constant dense<0.0> : tensor<2x16x16xf32>
  %d = tt.dot %a, %b, %c : tensor<2x16x16xf16> * tensor<2x16x16xf16> -> tensor<2x16x16xf32>
  %ps = tt.splat %p : !tt.ptr<f32> -> tensor<2x16x16x!tt.ptr<f32>>
  tt.store %ps, %d : tensor<2x16x16x!tt.ptr<f32>>
  tt.return
}
