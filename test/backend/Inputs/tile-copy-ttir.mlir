// A 64x64 f16 tile copied with row offsets (pid * 64 + r) * 64: each thread
// reads and writes rows 16 apart, constant offsets from one row pointer.
tt.func public @tile_copy(%src: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %dst: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %row0: i32) {
  %pid = tt.get_program_id x : i32
  %c64 = arith.constant 64 : i32
  %start = arith.muli %pid, %c64 : i32
  %rows = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
  %sp = tt.splat %start : i32 -> tensor<64xi32>
  %r = arith.addi %sp, %rows : tensor<64xi32>
  %r2 = tt.expand_dims %r {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
  %stride = arith.constant dense<64> : tensor<64x1xi32>
  %roff = arith.muli %r2, %stride : tensor<64x1xi32>
  %cols = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
  %c2 = tt.expand_dims %cols {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
  %rb = tt.broadcast %roff : tensor<64x1xi32> -> tensor<64x64xi32>
  %cb = tt.broadcast %c2 : tensor<1x64xi32> -> tensor<64x64xi32>
  %off = arith.addi %rb, %cb : tensor<64x64xi32>
  %ps = tt.splat %src : !tt.ptr<f16> -> tensor<64x64x!tt.ptr<f16>>
  %pa = tt.addptr %ps, %off : tensor<64x64x!tt.ptr<f16>>, tensor<64x64xi32>
  %x = tt.load %pa : tensor<64x64x!tt.ptr<f16>>
  %pd = tt.splat %dst : !tt.ptr<f16> -> tensor<64x64x!tt.ptr<f16>>
  %pb = tt.addptr %pd, %off : tensor<64x64x!tt.ptr<f16>>, tensor<64x64xi32>
  tt.store %pb, %x : tensor<64x64x!tt.ptr<f16>>
  tt.return
}
