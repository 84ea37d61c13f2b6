// A 64x64 (32-wide K steps) f32 matmul loop with inputPrecision = tf32, B
// K-contiguous, f32 output.
tt.func public @matmul_tf32(%a: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %b: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %c: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %n: i32) {
  %zero = arith.constant dense<0.0> : tensor<64x64xf32>
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c32 = arith.constant 32 : i32
  %ldb = arith.constant dense<4096> : tensor<1x64xi32>
  %rk = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32>
  %rka = tt.expand_dims %rk {axis = 0 : i32} : tensor<32xi32> -> tensor<1x32xi32>
  %rkb = tt.expand_dims %rk {axis = 1 : i32} : tensor<32xi32> -> tensor<32x1xi32>
  %rnB = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
  %rnB2 = tt.expand_dims %rnB {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
  %rnb = arith.muli %rnB2, %ldb : tensor<1x64xi32>
  %rn = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
  %rn2 = tt.expand_dims %rn {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
  %r = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<64x64xf32>) : i32 {
    %kk = arith.muli %k, %c32 : i32
    %kks = tt.splat %kk : i32 -> tensor<1x32xi32>
    %ka = arith.addi %rka, %kks : tensor<1x32xi32>
    %kab = tt.broadcast %ka : tensor<1x32xi32> -> tensor<64x32xi32>
    %pa = tt.splat %a : !tt.ptr<f32> -> tensor<64x32x!tt.ptr<f32>>
    %pa1 = tt.addptr %pa, %kab : tensor<64x32x!tt.ptr<f32>>, tensor<64x32xi32>
    %kbs = tt.splat %kk : i32 -> tensor<32x1xi32>
    %kb = arith.addi %rkb, %kbs : tensor<32x1xi32>
    %kbb = tt.broadcast %kb : tensor<32x1xi32> -> tensor<32x64xi32>
    %nbb = tt.broadcast %rnb : tensor<1x64xi32> -> tensor<32x64xi32>
    %offb = arith.addi %kbb, %nbb : tensor<32x64xi32>
    %pb = tt.splat %b : !tt.ptr<f32> -> tensor<32x64x!tt.ptr<f32>>
    %pb1 = tt.addptr %pb, %offb : tensor<32x64x!tt.ptr<f32>>, tensor<32x64xi32>
    %va = tt.load %pa1 : tensor<64x32x!tt.ptr<f32>>
    %vb = tt.load %pb1 : tensor<32x64x!tt.ptr<f32>>
    %d = tt.dot %va, %vb, %acc, inputPrecision = tf32 : tensor<64x32xf32> * tensor<32x64xf32> -> tensor<64x64xf32>
    scf.yield %d : tensor<64x64xf32>
  }
  %rc = tt.broadcast %rn2 : tensor<1x64xi32> -> tensor<64x64xi32>
  %pc = tt.splat %c : !tt.ptr<f32> -> tensor<64x64x!tt.ptr<f32>>
  %pc2 = tt.addptr %pc, %rc : tensor<64x64x!tt.ptr<f32>>, tensor<64x64xi32>
  tt.store %pc2, %r : tensor<64x64x!tt.ptr<f32>>
  tt.return
}
