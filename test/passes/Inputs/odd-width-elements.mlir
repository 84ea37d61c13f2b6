// Global memory elements of widths other than 1, 8, 16, 32 or 64 bits:
// each function is rejected by name (-split-input-file, -verify-diagnostics).
// A masked 4-wide i24 load once crashed the lowering (helper-66): its
// vector did not fit the 32-bit words of a predicated load.
tt.func public @load_i24(%a: !tt.ptr<i24> {tt.divisibility = 16 : i32}, %c: !tt.ptr<i32> {tt.divisibility = 16 : i32}, %n: i32) {
  %r = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
  %r2 = tt.expand_dims %r {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
  %rb = tt.broadcast %r2 : tensor<1x64xi32> -> tensor<128x64xi32>
  %rm = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32>
  %rm2 = tt.expand_dims %rm {axis = 1 : i32} : tensor<128xi32> -> tensor<128x1xi32>
  %ns = tt.splat %n : i32 -> tensor<128x1xi32>
  %m1 = arith.cmpi slt, %rm2, %ns : tensor<128x1xi32>
  %m = tt.broadcast %m1 : tensor<128x1xi1> -> tensor<128x64xi1>
  %pa0 = tt.splat %a : !tt.ptr<i24> -> tensor<128x64x!tt.ptr<i24>>
  %pa = tt.addptr %pa0, %rb : tensor<128x64x!tt.ptr<i24>>, tensor<128x64xi32>
  // expected-error @+1 {{'tt.load' of 'i24' elements is not supported: global memory elements are 1, 8, 16, 32 or 64 bits wide}}
  %x = tt.load %pa, %m : tensor<128x64x!tt.ptr<i24>>
  %y = arith.extsi %x : tensor<128x64xi24> to tensor<128x64xi32>
  %pc0 = tt.splat %c : !tt.ptr<i32> -> tensor<128x64x!tt.ptr<i32>>
  %pc = tt.addptr %pc0, %rb : tensor<128x64x!tt.ptr<i32>>, tensor<128x64xi32>
  tt.store %pc, %y : tensor<128x64x!tt.ptr<i32>>
  tt.return
}

// -----

tt.func public @store_i12(%c: !tt.ptr<i12> {tt.divisibility = 16 : i32}) {
  %r = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32>
  %v = arith.trunci %r : tensor<128xi32> to tensor<128xi12>
  %pc0 = tt.splat %c : !tt.ptr<i12> -> tensor<128x!tt.ptr<i12>>
  %pc = tt.addptr %pc0, %r : tensor<128x!tt.ptr<i12>>, tensor<128xi32>
  // expected-error @+1 {{'tt.store' of 'i12' elements is not supported}}
  tt.store %pc, %v : tensor<128x!tt.ptr<i12>>
  tt.return
}

// -----

tt.func public @atomic_i48(%p: !tt.ptr<i48>) {
  %r = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32>
  %v = arith.extsi %r : tensor<128xi32> to tensor<128xi48>
  %s = tt.splat %p : !tt.ptr<i48> -> tensor<128x!tt.ptr<i48>>
  %a = tt.addptr %s, %r : tensor<128x!tt.ptr<i48>>, tensor<128xi32>
  // expected-error @+1 {{'tt.atomic_rmw' of 'i48' elements is not supported}}
  %old = tt.atomic_rmw add, relaxed, gpu, %a, %v : (tensor<128x!tt.ptr<i48>>, tensor<128xi48>) -> tensor<128xi48>
  tt.return
}
