// RUN: kiln-opt %s -kgpu-assign-layouts="num-warps=4 mma-version=2" | FileCheck %s

// The K offsets computed in the loop (kk = k * 32 + arange(32)) index A's
// columns (a slice of A's layout) and B's rows (a slice of B's): the two
// demands disagree. Instead of a kgpu.convert_layout, which would move the
// vector through shared memory between barriers every iteration, the
// range, splat and add are computed again in the second layout. The only
// conversion left is the epilogue's, after the loop.
// CHECK-LABEL: tt.func public @shared_k_offsets
// CHECK: scf.for
// CHECK: %[[R1:.*]] = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #[[S1:.*]]>
// CHECK: %[[K1:.*]] = arith.addi %[[R1]], %{{.*}} : tensor<32xi32, #[[S1]]>
// CHECK: tt.expand_dims %[[K1]] {axis = 0 : i32}
// CHECK: %[[R2:.*]] = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #[[S2:.*]]>
// CHECK: %[[K2:.*]] = arith.addi %[[R2]], %{{.*}} : tensor<32xi32, #[[S2]]>
// CHECK: tt.expand_dims %[[K2]] {axis = 1 : i32}
// CHECK-NOT: kgpu.convert_layout
// CHECK: scf.yield
// CHECK: kgpu.convert_layout {{.*}} #mma
tt.func public @shared_k_offsets(%a: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %b: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %c: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %n: i32) {
  %zero = arith.constant dense<0.0> : tensor<64x64xf32>
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c32 = arith.constant 32 : i32
  %lda = arith.constant dense<4096> : tensor<64x1xi32>
  %ldb = arith.constant dense<64> : tensor<32x1xi32>
  %rm = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
  %rm1 = tt.expand_dims %rm {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
  %rma = arith.muli %rm1, %lda : tensor<64x1xi32>
  %rmb = tt.broadcast %rma : tensor<64x1xi32> -> tensor<64x32xi32>
  %rn2 = tt.expand_dims %rm {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
  %rnb = tt.broadcast %rn2 : tensor<1x64xi32> -> tensor<32x64xi32>
  %r = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<64x64xf32>) : i32 {
    %kk = arith.muli %k, %c32 : i32
    %rk = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32>
    %kks = tt.splat %kk : i32 -> tensor<32xi32>
    %ks = arith.addi %rk, %kks : tensor<32xi32>
    %ka = tt.expand_dims %ks {axis = 0 : i32} : tensor<32xi32> -> tensor<1x32xi32>
    %kab = tt.broadcast %ka : tensor<1x32xi32> -> tensor<64x32xi32>
    %offa = arith.addi %rmb, %kab : tensor<64x32xi32>
    %pa = tt.splat %a : !tt.ptr<f16> -> tensor<64x32x!tt.ptr<f16>>
    %pa1 = tt.addptr %pa, %offa : tensor<64x32x!tt.ptr<f16>>, tensor<64x32xi32>
    %kb = tt.expand_dims %ks {axis = 1 : i32} : tensor<32xi32> -> tensor<32x1xi32>
    %kbm = arith.muli %kb, %ldb : tensor<32x1xi32>
    %kbb = tt.broadcast %kbm : tensor<32x1xi32> -> tensor<32x64xi32>
    %offb = arith.addi %kbb, %rnb : tensor<32x64xi32>
    %pb = tt.splat %b : !tt.ptr<f16> -> tensor<32x64x!tt.ptr<f16>>
    %pb1 = tt.addptr %pb, %offb : tensor<32x64x!tt.ptr<f16>>, tensor<32x64xi32>
    %va = tt.load %pa1 : tensor<64x32x!tt.ptr<f16>>
    %vb = tt.load %pb1 : tensor<32x64x!tt.ptr<f16>>
    %d = tt.dot %va, %vb, %acc : tensor<64x32xf16> * tensor<32x64xf16> -> tensor<64x64xf32>
    scf.yield %d : tensor<64x64xf32>
  }
  %rs0 = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
  %rs1 = tt.expand_dims %rs0 {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
  %rc = tt.broadcast %rs1 : tensor<1x64xi32> -> tensor<64x64xi32>
  %pc = tt.splat %c : !tt.ptr<f32> -> tensor<64x64x!tt.ptr<f32>>
  %pc2 = tt.addptr %pc, %rc : tensor<64x64x!tt.ptr<f32>>, tensor<64x64xi32>
  tt.store %pc2, %r : tensor<64x64x!tt.ptr<f32>>
  tt.return
}

// A value several operands share (x_i = x_{i-1} + x_{i-1}) is copied once,
// not once per use: six adds and one and in each layout (found by a
// break-test run: without that, the copies grew to 2^5 leaves).
// CHECK-LABEL: tt.func public @shared_subexpressions
// CHECK: scf.for
// CHECK-COUNT-6: arith.addi {{.*}} : tensor<32xi32, #slice{{[0-9]*}}>
// CHECK-NEXT: arith.andi
// CHECK-COUNT-6: arith.addi {{.*}} : tensor<32xi32, #slice{{[0-9]*}}>
// CHECK-NEXT: tt.make_range
// CHECK-NEXT: arith.andi
// CHECK-NOT: arith.addi {{.*}} : tensor<32xi32
// CHECK-NOT: kgpu.convert_layout
// CHECK: scf.yield
tt.func public @shared_subexpressions(%a: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %b: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %c: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %n: i32) {
  %zero = arith.constant dense<0.0> : tensor<64x64xf32>
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c32 = arith.constant 32 : i32
  %lda = arith.constant dense<4096> : tensor<64x1xi32>
  %ldb = arith.constant dense<64> : tensor<32x1xi32>
  %rm = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
  %rm1 = tt.expand_dims %rm {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
  %rma = arith.muli %rm1, %lda : tensor<64x1xi32>
  %rmb = tt.broadcast %rma : tensor<64x1xi32> -> tensor<64x32xi32>
  %rn2 = tt.expand_dims %rm {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
  %rnb = tt.broadcast %rn2 : tensor<1x64xi32> -> tensor<32x64xi32>

  %r = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<64x64xf32>) : i32 {
    %kk = arith.muli %k, %c32 : i32
    %rk = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32>
    %kks = tt.splat %kk : i32 -> tensor<32xi32>
    %x0 = arith.addi %rk, %kks : tensor<32xi32>
    %x1 = arith.addi %x0, %x0 : tensor<32xi32>
    %x2 = arith.addi %x1, %x1 : tensor<32xi32>
    %x3 = arith.addi %x2, %x2 : tensor<32xi32>
    %x4 = arith.addi %x3, %x3 : tensor<32xi32>
    %x5 = arith.addi %x4, %x4 : tensor<32xi32>
    %ks = arith.andi %x5, %rk : tensor<32xi32>
    %ka = tt.expand_dims %ks {axis = 0 : i32} : tensor<32xi32> -> tensor<1x32xi32>
    %kab = tt.broadcast %ka : tensor<1x32xi32> -> tensor<64x32xi32>
    %offa = arith.addi %rmb, %kab : tensor<64x32xi32>
    %pa = tt.splat %a : !tt.ptr<f16> -> tensor<64x32x!tt.ptr<f16>>
    %pa1 = tt.addptr %pa, %offa : tensor<64x32x!tt.ptr<f16>>, tensor<64x32xi32>
    %kb = tt.expand_dims %ks {axis = 1 : i32} : tensor<32xi32> -> tensor<32x1xi32>
    %kbm = arith.muli %kb, %ldb : tensor<32x1xi32>
    %kbb = tt.broadcast %kbm : tensor<32x1xi32> -> tensor<32x64xi32>
    %offb = arith.addi %kbb, %rnb : tensor<32x64xi32>
    %pb = tt.splat %b : !tt.ptr<f16> -> tensor<32x64x!tt.ptr<f16>>
    %pb1 = tt.addptr %pb, %offb : tensor<32x64x!tt.ptr<f16>>, tensor<32x64xi32>
    %va = tt.load %pa1 : tensor<64x32x!tt.ptr<f16>>
    %vb = tt.load %pb1 : tensor<32x64x!tt.ptr<f16>>
    %d = tt.dot %va, %vb, %acc : tensor<64x32xf16> * tensor<32x64xf16> -> tensor<64x64xf32>

    scf.yield %d : tensor<64x64xf32>
  }
  %rs0 = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
  %rs1 = tt.expand_dims %rs0 {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
  %rc = tt.broadcast %rs1 : tensor<1x64xi32> -> tensor<64x64xi32>
  %pc = tt.splat %c : !tt.ptr<f32> -> tensor<64x64x!tt.ptr<f32>>
  %pc2 = tt.addptr %pc, %rc : tensor<64x64x!tt.ptr<f32>>, tensor<64x64xi32>
  tt.store %pc2, %r : tensor<64x64x!tt.ptr<f32>>
  tt.return
}
