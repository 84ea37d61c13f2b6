// RUN: kiln-opt %s -kgpu-assign-layouts="num-warps=4 mma-version=3" "-kgpu-pipeline-dot-loops=num-stages=3 wgmma" | FileCheck %s --check-prefix=WGMMA --enable-var-scope

// `acc + dot(a, b, 0)` (the addf form, f16), 256 rows on 4 warps: the
// accumulator's warps split M only ([4, 1]), as a wgmma loop's would, but
// the addf form is multiplied with mma.sync, so the loop is pipelined with
// the wgmma option too (it used to be left unpipelined on sm_90a only).
// WGMMA: #mma = #kgpu.mma<{version = 2, warpsPerCTA = [4, 1], instrShape = [16, 8]}>
// WGMMA-LABEL: tt.func public @f16_acc_plus_m256
// WGMMA: kgpu.local_dot {{.*}} : tensor<256x64xf32, #mma>
// WGMMA-NOT: wgmma
// WGMMA: arith.addf
// WGMMA: tt.return
tt.func public @f16_acc_plus_m256(%a: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %b: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %c: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %n: i32) {
  %zero = arith.constant dense<0.0> : tensor<256x64xf32>
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c64 = arith.constant 64 : i32
  %lda = arith.constant dense<1024> : tensor<256x1xi32>
  %ldb = arith.constant dense<1024> : tensor<1x64xi32>
  %rm = tt.make_range {end = 256 : i32, start = 0 : i32} : tensor<256xi32>
  %rm2 = tt.expand_dims %rm {axis = 1 : i32} : tensor<256xi32> -> tensor<256x1xi32>
  %rma = arith.muli %rm2, %lda : tensor<256x1xi32>
  %rk = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
  %rka = tt.expand_dims %rk {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
  %rkb = tt.expand_dims %rk {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
  %rn = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
  %rn2 = tt.expand_dims %rn {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
  %rnB = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
  %rnB2 = tt.expand_dims %rnB {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
  %rnb = arith.muli %rnB2, %ldb : tensor<1x64xi32>
  %r = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<256x64xf32>) : i32 {
    %kk = arith.muli %k, %c64 : i32
    %kks = tt.splat %kk : i32 -> tensor<1x64xi32>
    %ka = arith.addi %rka, %kks : tensor<1x64xi32>
    %kab = tt.broadcast %ka : tensor<1x64xi32> -> tensor<256x64xi32>
    %mab = tt.broadcast %rma : tensor<256x1xi32> -> tensor<256x64xi32>
    %offa = arith.addi %kab, %mab : tensor<256x64xi32>
    %pa = tt.splat %a : !tt.ptr<f16> -> tensor<256x64x!tt.ptr<f16>>
    %pa1 = tt.addptr %pa, %offa : tensor<256x64x!tt.ptr<f16>>, tensor<256x64xi32>
    %kbs = tt.splat %kk : i32 -> tensor<64x1xi32>
    %kb = arith.addi %rkb, %kbs : tensor<64x1xi32>
    %kbb = tt.broadcast %kb : tensor<64x1xi32> -> tensor<64x64xi32>
    %nbb = tt.broadcast %rnb : tensor<1x64xi32> -> tensor<64x64xi32>
    %offb = arith.addi %kbb, %nbb : tensor<64x64xi32>
    %pb = tt.splat %b : !tt.ptr<f16> -> tensor<64x64x!tt.ptr<f16>>
    %pb1 = tt.addptr %pb, %offb : tensor<64x64x!tt.ptr<f16>>, tensor<64x64xi32>
    %va = tt.load %pa1 : tensor<256x64x!tt.ptr<f16>>
    %vb = tt.load %pb1 : tensor<64x64x!tt.ptr<f16>>
    %d = tt.dot %va, %vb, %zero : tensor<256x64xf16> * tensor<64x64xf16> -> tensor<256x64xf32>
    %s = arith.addf %acc, %d : tensor<256x64xf32>
    scf.yield %s : tensor<256x64xf32>
  }
  %rc = tt.broadcast %rn2 : tensor<1x64xi32> -> tensor<256x64xi32>
  %pc = tt.splat %c : !tt.ptr<f32> -> tensor<256x64x!tt.ptr<f32>>
  %pc2 = tt.addptr %pc, %rc : tensor<256x64x!tt.ptr<f32>>, tensor<256x64xi32>
  tt.store %pc2, %r : tensor<256x64x!tt.ptr<f32>>
  tt.return
}
