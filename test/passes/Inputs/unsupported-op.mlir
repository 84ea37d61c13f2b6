// Input of kgpu-convert-to-llvm.mlir: tt.dot_scaled (tl.dot_scaled), which
// the NVPTX lowering does not handle yet.
tt.func public @scaled(%a: tensor<64x64xf8E4M3FN>, %sa: tensor<64x2xi8>, %b: tensor<64x64xf8E4M3FN>, %sb: tensor<64x2xi8>, %c: tensor<64x64xf32>, %out: !tt.ptr<f32>) {
  %d = tt.dot_scaled %a scale %sa, %b scale %sb, %c lhs = e4m3 rhs = e4m3 {fastMath = false} : tensor<64x64xf8E4M3FN>, tensor<64x2xi8> * tensor<64x64xf8E4M3FN>, tensor<64x2xi8> -> tensor<64x64xf32>
  %ps = tt.splat %out : !tt.ptr<f32> -> tensor<64x64x!tt.ptr<f32>>
  tt.store %ps, %d : tensor<64x64x!tt.ptr<f32>>
  tt.return
}
