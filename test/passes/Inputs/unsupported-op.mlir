// Input of kgpu-convert-to-llvm.mlir: tt.histogram, which the NVPTX
// lowering does not handle yet.
tt.func public @hist(%x: tensor<128xi32>, %out: !tt.ptr<i32>) {
  %h = tt.histogram %x : tensor<128xi32> -> tensor<16xi32>
  %r = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
  %ps = tt.splat %out : !tt.ptr<i32> -> tensor<16x!tt.ptr<i32>>
  %pa = tt.addptr %ps, %r : tensor<16x!tt.ptr<i32>>, tensor<16xi32>
  tt.store %pa, %h : tensor<16x!tt.ptr<i32>>
  tt.return
}
