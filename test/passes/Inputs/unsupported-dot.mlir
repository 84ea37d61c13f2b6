// Input of kgpu-convert-to-llvm*.mlir: a tt.dot on f8E4M3FN operands that
// tt-upcast-f8-dot-operands has not made f16 (the lowering multiplies
// f16/bf16/f32/i8 only).
tt.func public @small_dot(%out: !tt.ptr<f32>) {
  %a = arith.constant dense<1.000000e+00> : tensor<16x16xf8E4M3FN>
  %b = arith.constant dense<2.000000e+00> : tensor<16x16xf8E4M3FN>
  %c = arith.constant dense<0.000000e+00> : tensor<16x16xf32>
  %d = tt.dot %a, %b, %c : tensor<16x16xf8E4M3FN> * tensor<16x16xf8E4M3FN> -> tensor<16x16xf32>
  %ps = tt.splat %out : !tt.ptr<f32> -> tensor<16x16x!tt.ptr<f32>>
  tt.store %ps, %d : tensor<16x16x!tt.ptr<f32>>
  tt.return
}
