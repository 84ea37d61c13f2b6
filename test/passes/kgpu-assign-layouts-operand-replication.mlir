// RUN: kiln-opt %s -kgpu-assign-layouts="num-warps=4 mma-version=2" | FileCheck %s

// A matmul whose epilogue loads a residual tile of the accumulator's shape
// (32x128) leaves its K loop through one conversion, so the first grouping
// finds no access in the accumulator's group to isolate. The A tile
// (32x64) shares its row offsets with the residual's and the store's
// pointers; it still gets a layout of its own: 8 lanes along a row of
// 64 bf16 (16 bytes each), every element in one thread. Before, it took
// the epilogue's 32x128 layout (16 lanes along a row), so lanes 8-15 of
// each row copied the columns of lanes 0-7 again: 4 cp.async of 16 bytes
// per thread and stage for A instead of 2.

// CHECK-DAG: [[$EPI:#blocked[0-9]*]] = #kgpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-DAG: [[$A:#blocked[0-9]*]] = #kgpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-LABEL: tt.func public @biasres
// CHECK:         scf.for
// CHECK:           tt.load {{.*}} : tensor<32x64x!tt.ptr<bf16>, [[$A]]>
// CHECK:           tt.load {{.*}} : tensor<64x128x!tt.ptr<bf16>, [[$EPI]]>
// CHECK:           tt.dot {{.*}} -> tensor<32x128xf32, #mma>
// CHECK:         kgpu.convert_layout {{.*}} : tensor<32x128xf32, #mma> -> tensor<32x128xf32, [[$EPI]]>
// CHECK:         tt.load {{.*}} : tensor<32x128x!tt.ptr<bf16>, [[$EPI]]>
// CHECK:         tt.store {{.*}} : tensor<32x128x!tt.ptr<bf16>, [[$EPI]]>
tt.func public @biasres(%a: !tt.ptr<bf16> {tt.divisibility = 16 : i32}, %b: !tt.ptr<bf16> {tt.divisibility = 16 : i32}, %r: !tt.ptr<bf16> {tt.divisibility = 16 : i32}, %o: !tt.ptr<bf16> {tt.divisibility = 16 : i32}, %K: i32) {
  %zero = arith.constant dense<0.0> : tensor<32x128xf32>
  %c0 = arith.constant 0 : i32
  %c64 = arith.constant 64 : i32
  %c64a = arith.constant dense<64> : tensor<32x1xi32>
  %c128b = arith.constant dense<128> : tensor<64x1xi32>
  %c128o = arith.constant dense<128> : tensor<32x1xi32>
  %step_a = arith.constant dense<64> : tensor<32x64xi32>
  %step_b = arith.constant dense<8192> : tensor<64x128xi32>
  %rows = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32>
  %ks = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
  %cols = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32>
  %rows2 = tt.expand_dims %rows {axis = 1 : i32} : tensor<32xi32> -> tensor<32x1xi32>
  %arow = arith.muli %rows2, %c64a : tensor<32x1xi32>
  %arowb = tt.broadcast %arow : tensor<32x1xi32> -> tensor<32x64xi32>
  %acol = tt.expand_dims %ks {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
  %acolb = tt.broadcast %acol : tensor<1x64xi32> -> tensor<32x64xi32>
  %aoff = arith.addi %arowb, %acolb : tensor<32x64xi32>
  %as = tt.splat %a : !tt.ptr<bf16> -> tensor<32x64x!tt.ptr<bf16>>
  %ap0 = tt.addptr %as, %aoff : tensor<32x64x!tt.ptr<bf16>>, tensor<32x64xi32>
  %brow = tt.expand_dims %ks {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
  %brows = arith.muli %brow, %c128b : tensor<64x1xi32>
  %browb = tt.broadcast %brows : tensor<64x1xi32> -> tensor<64x128xi32>
  %cols2 = tt.expand_dims %cols {axis = 0 : i32} : tensor<128xi32> -> tensor<1x128xi32>
  %bcolb = tt.broadcast %cols2 : tensor<1x128xi32> -> tensor<64x128xi32>
  %boff = arith.addi %browb, %bcolb : tensor<64x128xi32>
  %bs = tt.splat %b : !tt.ptr<bf16> -> tensor<64x128x!tt.ptr<bf16>>
  %bp0 = tt.addptr %bs, %boff : tensor<64x128x!tt.ptr<bf16>>, tensor<64x128xi32>
  %res:3 = scf.for %k = %c0 to %K step %c64 iter_args(%ap = %ap0, %bp = %bp0, %acc = %zero) -> (tensor<32x64x!tt.ptr<bf16>>, tensor<64x128x!tt.ptr<bf16>>, tensor<32x128xf32>) : i32 {
    %x = tt.load %ap : tensor<32x64x!tt.ptr<bf16>>
    %y = tt.load %bp : tensor<64x128x!tt.ptr<bf16>>
    %d = tt.dot %x, %y, %acc : tensor<32x64xbf16> * tensor<64x128xbf16> -> tensor<32x128xf32>
    %apn = tt.addptr %ap, %step_a : tensor<32x64x!tt.ptr<bf16>>, tensor<32x64xi32>
    %bpn = tt.addptr %bp, %step_b : tensor<64x128x!tt.ptr<bf16>>, tensor<64x128xi32>
    scf.yield %apn, %bpn, %d : tensor<32x64x!tt.ptr<bf16>>, tensor<64x128x!tt.ptr<bf16>>, tensor<32x128xf32>
  }
  %orow = arith.muli %rows2, %c128o : tensor<32x1xi32>
  %orowb = tt.broadcast %orow : tensor<32x1xi32> -> tensor<32x128xi32>
  %ocolb = tt.broadcast %cols2 : tensor<1x128xi32> -> tensor<32x128xi32>
  %ooff = arith.addi %orowb, %ocolb : tensor<32x128xi32>
  %rs = tt.splat %r : !tt.ptr<bf16> -> tensor<32x128x!tt.ptr<bf16>>
  %rp = tt.addptr %rs, %ooff : tensor<32x128x!tt.ptr<bf16>>, tensor<32x128xi32>
  %rv = tt.load %rp : tensor<32x128x!tt.ptr<bf16>>
  %rf = arith.extf %rv : tensor<32x128xbf16> to tensor<32x128xf32>
  %sum = arith.addf %res#2, %rf : tensor<32x128xf32>
  %out = arith.truncf %sum : tensor<32x128xf32> to tensor<32x128xbf16>
  %os = tt.splat %o : !tt.ptr<bf16> -> tensor<32x128x!tt.ptr<bf16>>
  %op = tt.addptr %os, %ooff : tensor<32x128x!tt.ptr<bf16>>, tensor<32x128xi32>
  tt.store %op, %out : tensor<32x128x!tt.ptr<bf16>>
  tt.return
}
