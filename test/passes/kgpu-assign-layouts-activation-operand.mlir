// RUN: kiln-opt %s -kgpu-assign-layouts="num-warps=4 mma-version=2" | FileCheck %s

// A dot whose operands are computed from loaded tiles (an activation on A
// and on B before the dot, as in bench/conformance/kernels_heavy/h_ainv_*):
// neither load feeds the dot directly, and the A tile's load shares its
// row and K offsets with B's load and the epilogue's store (64x128). It gets a
// layout of its own (8 lanes along a row of 64 bf16), so each element of
// A is loaded and activated by one thread. Before, A took the 64x128
// layout (16 lanes along a row), and every element was loaded and its
// exp computed by two threads.

// CHECK-DAG: [[$WIDE:#blocked[0-9]*]] = #kgpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-DAG: [[$A:#blocked[0-9]*]] = #kgpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-LABEL: tt.func public @activated_a
// CHECK:         scf.for
// CHECK:           tt.load {{.*}} : tensor<64x64x!tt.ptr<bf16>, [[$A]]>
// CHECK:           tt.load {{.*}} : tensor<64x128x!tt.ptr<bf16>, [[$WIDE]]>
// CHECK:           math.exp {{.*}} : tensor<64x64xf32, [[$A]]>
// CHECK:           tt.dot {{.*}} -> tensor<64x128xf32, #mma>
// CHECK:         tt.store {{.*}} : tensor<64x128x!tt.ptr<f32>,
// A broadcast row (a 1x128 bias loaded in the epilogue's 64x128 layout,
// four rows of lanes holding the same elements) keeps the epilogue's
// layout: every lane loading the same few elements costs less than a
// conversion.
// CHECK-LABEL: tt.func public @bias_row
// CHECK:         tt.load {{.*}} : tensor<1x128x!tt.ptr<f32>, [[EPI:#blocked[0-9]*]]>
// CHECK:         tt.load {{.*}} : tensor<64x128x!tt.ptr<bf16>, [[EPI]]>
// CHECK:         tt.store {{.*}} : tensor<64x128x!tt.ptr<f32>, [[EPI]]>
tt.func public @activated_a(%a: !tt.ptr<bf16> {tt.divisibility = 16 : i32}, %b: !tt.ptr<bf16> {tt.divisibility = 16 : i32}, %o: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %K: i32) {
  %zero = arith.constant dense<0.0> : tensor<64x128xf32>
  %c0 = arith.constant 0 : i32
  %c64 = arith.constant 64 : i32
  %c64a = arith.constant dense<64> : tensor<64x1xi32>
  %c128 = arith.constant dense<128> : tensor<64x1xi32>
  %step_a = arith.constant dense<64> : tensor<64x64xi32>
  %step_b = arith.constant dense<8192> : tensor<64x128xi32>
  %rows = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
  %cols = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32>
  %rows2 = tt.expand_dims %rows {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
  %arow = arith.muli %rows2, %c64a : tensor<64x1xi32>
  %arowb = tt.broadcast %arow : tensor<64x1xi32> -> tensor<64x64xi32>
  %kc = tt.expand_dims %rows {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
  %kcb = tt.broadcast %kc : tensor<1x64xi32> -> tensor<64x64xi32>
  %aoff = arith.addi %arowb, %kcb : tensor<64x64xi32>
  %as = tt.splat %a : !tt.ptr<bf16> -> tensor<64x64x!tt.ptr<bf16>>
  %ap0 = tt.addptr %as, %aoff : tensor<64x64x!tt.ptr<bf16>>, tensor<64x64xi32>
  %brow = arith.muli %rows2, %c128 : tensor<64x1xi32>
  %browb = tt.broadcast %brow : tensor<64x1xi32> -> tensor<64x128xi32>
  %cols2 = tt.expand_dims %cols {axis = 0 : i32} : tensor<128xi32> -> tensor<1x128xi32>
  %colsb = tt.broadcast %cols2 : tensor<1x128xi32> -> tensor<64x128xi32>
  %boff = arith.addi %browb, %colsb : tensor<64x128xi32>
  %bs = tt.splat %b : !tt.ptr<bf16> -> tensor<64x128x!tt.ptr<bf16>>
  %bp0 = tt.addptr %bs, %boff : tensor<64x128x!tt.ptr<bf16>>, tensor<64x128xi32>
  %res:3 = scf.for %k = %c0 to %K step %c64 iter_args(%ap = %ap0, %bp = %bp0, %acc = %zero) -> (tensor<64x64x!tt.ptr<bf16>>, tensor<64x128x!tt.ptr<bf16>>, tensor<64x128xf32>) : i32 {
    %x = tt.load %ap : tensor<64x64x!tt.ptr<bf16>>
    %y = tt.load %bp : tensor<64x128x!tt.ptr<bf16>>
    %xf = arith.extf %x : tensor<64x64xbf16> to tensor<64x64xf32>
    %xe = math.exp %xf : tensor<64x64xf32>
    %xa = arith.truncf %xe : tensor<64x64xf32> to tensor<64x64xbf16>
    %yf = arith.extf %y : tensor<64x128xbf16> to tensor<64x128xf32>
    %ys = arith.mulf %yf, %yf : tensor<64x128xf32>
    %ya = arith.truncf %ys : tensor<64x128xf32> to tensor<64x128xbf16>
    %d = tt.dot %xa, %ya, %acc : tensor<64x64xbf16> * tensor<64x128xbf16> -> tensor<64x128xf32>
    %apn = tt.addptr %ap, %step_a : tensor<64x64x!tt.ptr<bf16>>, tensor<64x64xi32>
    %bpn = tt.addptr %bp, %step_b : tensor<64x128x!tt.ptr<bf16>>, tensor<64x128xi32>
    scf.yield %apn, %bpn, %d : tensor<64x64x!tt.ptr<bf16>>, tensor<64x128x!tt.ptr<bf16>>, tensor<64x128xf32>
  }
  %os = tt.splat %o : !tt.ptr<f32> -> tensor<64x128x!tt.ptr<f32>>
  %op = tt.addptr %os, %boff : tensor<64x128x!tt.ptr<f32>>, tensor<64x128xi32>
  tt.store %op, %res#2 : tensor<64x128x!tt.ptr<f32>>
  tt.return
}

tt.func public @bias_row(%a: !tt.ptr<bf16> {tt.divisibility = 16 : i32}, %b: !tt.ptr<bf16> {tt.divisibility = 16 : i32}, %bias: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %r: !tt.ptr<bf16> {tt.divisibility = 16 : i32}, %o: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %K: i32) {
  %zero = arith.constant dense<0.0> : tensor<64x128xf32>
  %c0 = arith.constant 0 : i32
  %c64 = arith.constant 64 : i32
  %c128 = arith.constant dense<128> : tensor<64x1xi32>
  %step_a = arith.constant dense<64> : tensor<64x64xi32>
  %step_b = arith.constant dense<8192> : tensor<64x128xi32>
  %rows = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
  %cols = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32>
  %rows2 = tt.expand_dims %rows {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
  %arow = arith.muli %rows2, %c128 : tensor<64x1xi32>
  %arowb = tt.broadcast %arow : tensor<64x1xi32> -> tensor<64x64xi32>
  %kc = tt.expand_dims %rows {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
  %kcb = tt.broadcast %kc : tensor<1x64xi32> -> tensor<64x64xi32>
  %aoff = arith.addi %arowb, %kcb : tensor<64x64xi32>
  %as = tt.splat %a : !tt.ptr<bf16> -> tensor<64x64x!tt.ptr<bf16>>
  %ap0 = tt.addptr %as, %aoff : tensor<64x64x!tt.ptr<bf16>>, tensor<64x64xi32>
  %browb = tt.broadcast %arow : tensor<64x1xi32> -> tensor<64x128xi32>
  %cols2 = tt.expand_dims %cols {axis = 0 : i32} : tensor<128xi32> -> tensor<1x128xi32>
  %colsb = tt.broadcast %cols2 : tensor<1x128xi32> -> tensor<64x128xi32>
  %boff = arith.addi %browb, %colsb : tensor<64x128xi32>
  %bs = tt.splat %b : !tt.ptr<bf16> -> tensor<64x128x!tt.ptr<bf16>>
  %bp0 = tt.addptr %bs, %boff : tensor<64x128x!tt.ptr<bf16>>, tensor<64x128xi32>
  %res:3 = scf.for %k = %c0 to %K step %c64 iter_args(%ap = %ap0, %bp = %bp0, %acc = %zero) -> (tensor<64x64x!tt.ptr<bf16>>, tensor<64x128x!tt.ptr<bf16>>, tensor<64x128xf32>) : i32 {
    %x = tt.load %ap : tensor<64x64x!tt.ptr<bf16>>
    %y = tt.load %bp : tensor<64x128x!tt.ptr<bf16>>
    %d = tt.dot %x, %y, %acc : tensor<64x64xbf16> * tensor<64x128xbf16> -> tensor<64x128xf32>
    %apn = tt.addptr %ap, %step_a : tensor<64x64x!tt.ptr<bf16>>, tensor<64x64xi32>
    %bpn = tt.addptr %bp, %step_b : tensor<64x128x!tt.ptr<bf16>>, tensor<64x128xi32>
    scf.yield %apn, %bpn, %d : tensor<64x64x!tt.ptr<bf16>>, tensor<64x128x!tt.ptr<bf16>>, tensor<64x128xf32>
  }
  %bias1 = tt.splat %bias : !tt.ptr<f32> -> tensor<1x128x!tt.ptr<f32>>
  %biasp = tt.addptr %bias1, %cols2 : tensor<1x128x!tt.ptr<f32>>, tensor<1x128xi32>
  %bv = tt.load %biasp : tensor<1x128x!tt.ptr<f32>>
  %bvb = tt.broadcast %bv : tensor<1x128xf32> -> tensor<64x128xf32>
  %rs = tt.splat %r : !tt.ptr<bf16> -> tensor<64x128x!tt.ptr<bf16>>
  %rp = tt.addptr %rs, %boff : tensor<64x128x!tt.ptr<bf16>>, tensor<64x128xi32>
  %rv = tt.load %rp : tensor<64x128x!tt.ptr<bf16>>
  %rf = arith.extf %rv : tensor<64x128xbf16> to tensor<64x128xf32>
  %s1 = arith.addf %res#2, %rf : tensor<64x128xf32>
  %s2 = arith.addf %s1, %bvb : tensor<64x128xf32>
  %os = tt.splat %o : !tt.ptr<f32> -> tensor<64x128x!tt.ptr<f32>>
  %op = tt.addptr %os, %boff : tensor<64x128x!tt.ptr<f32>>, tensor<64x128xi32>
  tt.store %op, %s2 : tensor<64x128x!tt.ptr<f32>>
  tt.return
}
