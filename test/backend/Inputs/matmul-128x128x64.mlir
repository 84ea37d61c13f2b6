// A 128x128 (64-wide K steps) matmul loop on f16 with an f32 accumulator,
// the tile of the corpus triton_mm.5N6M6GSD (4 warps: one warpgroup, two
// 64-row blocks), for the NVPTX backend tests.
tt.func public @matmul_tile(%a: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %b: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %c: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %n: i32) {
  %zero = arith.constant dense<0.0> : tensor<128x128xf32>
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %stepA = arith.constant dense<64> : tensor<128x64xi32>
  %stepB = arith.constant dense<8192> : tensor<64x128xi32>
  %rk = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
  %rk2 = tt.expand_dims %rk {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
  %rka = tt.broadcast %rk2 : tensor<1x64xi32> -> tensor<128x64xi32>
  %pa = tt.splat %a : !tt.ptr<f16> -> tensor<128x64x!tt.ptr<f16>>
  %pa0 = tt.addptr %pa, %rka : tensor<128x64x!tt.ptr<f16>>, tensor<128x64xi32>
  %rn = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32>
  %rn2 = tt.expand_dims %rn {axis = 0 : i32} : tensor<128xi32> -> tensor<1x128xi32>
  %rnb = tt.broadcast %rn2 : tensor<1x128xi32> -> tensor<64x128xi32>
  %pb = tt.splat %b : !tt.ptr<f16> -> tensor<64x128x!tt.ptr<f16>>
  %pb0 = tt.addptr %pb, %rnb : tensor<64x128x!tt.ptr<f16>>, tensor<64x128xi32>
  %r:3 = scf.for %k = %c0 to %n step %c1 iter_args(%xa = %pa0, %xb = %pb0, %acc = %zero) -> (tensor<128x64x!tt.ptr<f16>>, tensor<64x128x!tt.ptr<f16>>, tensor<128x128xf32>) : i32 {
    %va = tt.load %xa : tensor<128x64x!tt.ptr<f16>>
    %vb = tt.load %xb : tensor<64x128x!tt.ptr<f16>>
    %d = tt.dot %va, %vb, %acc : tensor<128x64xf16> * tensor<64x128xf16> -> tensor<128x128xf32>
    %na = tt.addptr %xa, %stepA : tensor<128x64x!tt.ptr<f16>>, tensor<128x64xi32>
    %nb = tt.addptr %xb, %stepB : tensor<64x128x!tt.ptr<f16>>, tensor<64x128xi32>
    scf.yield %na, %nb, %d : tensor<128x64x!tt.ptr<f16>>, tensor<64x128x!tt.ptr<f16>>, tensor<128x128xf32>
  }
  %rc = tt.broadcast %rn2 : tensor<1x128xi32> -> tensor<128x128xi32>
  %pc = tt.splat %c : !tt.ptr<f32> -> tensor<128x128x!tt.ptr<f32>>
  %pc2 = tt.addptr %pc, %rc : tensor<128x128x!tt.ptr<f32>>, tensor<128x128xi32>
  tt.store %pc2, %r#2 : tensor<128x128x!tt.ptr<f32>>
  tt.return
}
