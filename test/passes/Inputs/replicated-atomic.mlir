// A tensor atomic whose old value is used, on a layout that replicates
// elements (64 elements, 128 or 256 threads).
tt.func public @k(%p: !tt.ptr<f16>) {
  %r = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
  %s = tt.splat %p : !tt.ptr<f16> -> tensor<64x!tt.ptr<f16>>
  %a = tt.addptr %s, %r : tensor<64x!tt.ptr<f16>>, tensor<64xi32>
  %v = tt.load %a : tensor<64x!tt.ptr<f16>>
  %o = tt.atomic_rmw fadd, relaxed, gpu, %a, %v : (tensor<64x!tt.ptr<f16>>, tensor<64xf16>) -> tensor<64xf16>
  tt.store %a, %o : tensor<64x!tt.ptr<f16>>
  tt.return
}
