// A TTIR reduction whose tt.reduce is misspelled (generic form).
tt.func public @row_sum(%p: !tt.ptr<f32>, %q: !tt.ptr<f32>) {
  %r = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32>
  %ps = tt.splat %p : !tt.ptr<f32> -> tensor<128x!tt.ptr<f32>>
  %pp = tt.addptr %ps, %r : tensor<128x!tt.ptr<f32>>, tensor<128xi32>
  %x = tt.load %pp : tensor<128x!tt.ptr<f32>>
  %s = "tt.reduc"(%x) <{axis = 0 : i32}> ({
  ^bb0(%a: f32, %b: f32):
    %t = arith.addf %a, %b : f32
    tt.reduce.return %t : f32
  }) : (tensor<128xf32>) -> f32
  tt.store %q, %s : !tt.ptr<f32>
  tt.return
}
