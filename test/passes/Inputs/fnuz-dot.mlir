// Input of kgpu-convert-to-llvm-dot.mlir: a tt.dot on f8E4M3FNUZ operands
// (an f8 format tt-upcast-f8-dot-operands leaves alone), through the
// whole pipelines: rejected by name, no crash.
tt.func public @fnuz_dot(%pa: !tt.ptr<f8E4M3FNUZ>, %out: !tt.ptr<f32>) {
  %sa = tt.splat %pa : !tt.ptr<f8E4M3FNUZ> -> tensor<16x16x!tt.ptr<f8E4M3FNUZ>>
  %a = tt.load %sa : tensor<16x16x!tt.ptr<f8E4M3FNUZ>>
  %c = arith.constant dense<0.000000e+00> : tensor<16x16xf32>
  %d = tt.dot %a, %a, %c : tensor<16x16xf8E4M3FNUZ> * tensor<16x16xf8E4M3FNUZ> -> tensor<16x16xf32>
  %ps = tt.splat %out : !tt.ptr<f32> -> tensor<16x16x!tt.ptr<f32>>
  tt.store %ps, %d : tensor<16x16x!tt.ptr<f32>>
  tt.return
}
