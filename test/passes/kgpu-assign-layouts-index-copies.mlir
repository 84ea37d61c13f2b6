// RUN: kiln-opt %s -kgpu-assign-layouts="num-warps=4 mma-version=2" | FileCheck %s

// A row-offset tensor (%qrow) that both a dot operand's pointers (Q) and
// a mask on the dot's result use must not put that operand's load into
// the accumulator's layout: once the store is isolated and a dot operand
// is still loaded in the mma layout, every use of an index computation
// gets a copy of its own and the grouping runs again. Both operand loads
// keep coalesced blocked layouts, the mask is computed in the mma layout,
// and the only conversion is the store's (before: Q and K loaded in the
// mma layout and the store's value converted there and back).

// CHECK-LABEL: tt.func public @coupled
// CHECK:         tt.load {{.*}} : tensor<64x32x!tt.ptr<f16>, #blocked>
// CHECK:         tt.load {{.*}} : tensor<32x64x!tt.ptr<f16>, #blocked1>
// CHECK:         tt.dot {{.*}} -> tensor<64x64xf32, #mma>
// CHECK:         arith.cmpi slt, {{.*}} : tensor<64x1xi32, #mma>
// CHECK:         arith.select {{.*}} : tensor<64x64xi1, #mma>, tensor<64x64xf32, #mma>
// CHECK:         kgpu.convert_layout {{.*}} : tensor<64x64xf32, #mma> -> tensor<64x64xf32, #blocked2>
// CHECK-NOT:     kgpu.convert_layout
// CHECK:         tt.store {{.*}} : tensor<64x64x!tt.ptr<f32>, #blocked2>
tt.func public @coupled(%q: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %k: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %o: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %lim: i32) {
  %zero = arith.constant dense<0.0> : tensor<64x64xf32>
  %c32 = arith.constant dense<32> : tensor<64x1xi32>
  %c64r = arith.constant dense<64> : tensor<32x1xi32>
  %c64o = arith.constant dense<64> : tensor<64x1xi32>
  %rows = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
  %rows2 = tt.expand_dims %rows {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
  %qrow = arith.muli %rows2, %c32 : tensor<64x1xi32>
  %kcols = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32>
  %kcols2 = tt.expand_dims %kcols {axis = 0 : i32} : tensor<32xi32> -> tensor<1x32xi32>
  %qrowb = tt.broadcast %qrow : tensor<64x1xi32> -> tensor<64x32xi32>
  %kcolsb = tt.broadcast %kcols2 : tensor<1x32xi32> -> tensor<64x32xi32>
  %qoff = arith.addi %qrowb, %kcolsb : tensor<64x32xi32>
  %qs = tt.splat %q : !tt.ptr<f16> -> tensor<64x32x!tt.ptr<f16>>
  %qp = tt.addptr %qs, %qoff : tensor<64x32x!tt.ptr<f16>>, tensor<64x32xi32>
  %qv = tt.load %qp : tensor<64x32x!tt.ptr<f16>>
  %krow = tt.expand_dims %kcols {axis = 1 : i32} : tensor<32xi32> -> tensor<32x1xi32>
  %kr = arith.muli %krow, %c64r : tensor<32x1xi32>
  %cols = tt.expand_dims %rows {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
  %krb = tt.broadcast %kr : tensor<32x1xi32> -> tensor<32x64xi32>
  %colsk = tt.broadcast %cols : tensor<1x64xi32> -> tensor<32x64xi32>
  %koff = arith.addi %krb, %colsk : tensor<32x64xi32>
  %ks = tt.splat %k : !tt.ptr<f16> -> tensor<32x64x!tt.ptr<f16>>
  %kp = tt.addptr %ks, %koff : tensor<32x64x!tt.ptr<f16>>, tensor<32x64xi32>
  %kv = tt.load %kp : tensor<32x64x!tt.ptr<f16>>
  %s = tt.dot %qv, %kv, %zero : tensor<64x32xf16> * tensor<32x64xf16> -> tensor<64x64xf32>
  %lims = tt.splat %lim : i32 -> tensor<64x1xi32>
  %keep = arith.cmpi slt, %qrow, %lims : tensor<64x1xi32>
  %keepb = tt.broadcast %keep : tensor<64x1xi1> -> tensor<64x64xi1>
  %masked = arith.select %keepb, %s, %zero : tensor<64x64xi1>, tensor<64x64xf32>
  %orow = arith.muli %rows2, %c64o : tensor<64x1xi32>
  %orowb = tt.broadcast %orow : tensor<64x1xi32> -> tensor<64x64xi32>
  %colso = tt.broadcast %cols : tensor<1x64xi32> -> tensor<64x64xi32>
  %ooff = arith.addi %orowb, %colso : tensor<64x64xi32>
  %os = tt.splat %o : !tt.ptr<f32> -> tensor<64x64x!tt.ptr<f32>>
  %op = tt.addptr %os, %ooff : tensor<64x64x!tt.ptr<f32>>, tensor<64x64xi32>
  tt.store %op, %masked : tensor<64x64x!tt.ptr<f32>>
  tt.return
}
