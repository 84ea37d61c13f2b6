// RUN: kiln-opt %s -kgpu-assign-layouts="num-warps=4 mma-version=2" -kgpu-pipeline-dot-loops="num-stages=3 stage-tiles=true" | FileCheck %s

// An i48 tile (a multiple of 8 bits, but not 8, 16, 32 or 64) is not
// staged: kgpu.local_load cannot read it back, and staging it made the
// pass's output fail the verifier (helper-66). B still is. (No lowering:
// kgpu-convert-to-llvm rejects i48 loads, test/passes/kgpu-convert-to-llvm.mlir.)
// CHECK-LABEL: tt.func public @a_i48_not_staged
// CHECK-NOT: kgpu.async_copy {{.+}} : tensor<64x64x!tt.ptr<i48>
// CHECK: scf.for
// CHECK-NOT: kgpu.local_load {{.+}} : tensor<64x64xi48
// CHECK: tt.load {{.+}} : tensor<64x64x!tt.ptr<i48>
tt.func public @a_i48_not_staged(%a: !tt.ptr<i48> {tt.divisibility = 16 : i32}, %b: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %s: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %c: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %n: i32, %kmax: i32) {
  %zero = arith.constant dense<0.0> : tensor<64x128xf32>
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %cK = arith.constant 64 : i32
  %stepA = arith.constant dense<64> : tensor<64x64xi32>
  %stepB = arith.constant dense<8192> : tensor<64x128xi32>
  %rM = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
  %rK = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
  %rN = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32>
  %am = tt.expand_dims %rM {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
  %amS = arith.constant dense<64> : tensor<64x1xi32>
  %amo = arith.muli %am, %amS : tensor<64x1xi32>
  %ak = tt.expand_dims %rK {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
  %amb = tt.broadcast %amo : tensor<64x1xi32> -> tensor<64x64xi32>
  %akb = tt.broadcast %ak : tensor<1x64xi32> -> tensor<64x64xi32>
  %aoff = arith.addi %amb, %akb : tensor<64x64xi32>
  %pa0 = tt.splat %a : !tt.ptr<i48> -> tensor<64x64x!tt.ptr<i48>>
  %pa = tt.addptr %pa0, %aoff : tensor<64x64x!tt.ptr<i48>>, tensor<64x64xi32>
  %bk = tt.expand_dims %rK {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
  %bkS = arith.constant dense<128> : tensor<64x1xi32>
  %bko = arith.muli %bk, %bkS : tensor<64x1xi32>
  %bn = tt.expand_dims %rN {axis = 0 : i32} : tensor<128xi32> -> tensor<1x128xi32>
  %bkb = tt.broadcast %bko : tensor<64x1xi32> -> tensor<64x128xi32>
  %bnb = tt.broadcast %bn : tensor<1x128xi32> -> tensor<64x128xi32>
  %boff = arith.addi %bkb, %bnb : tensor<64x128xi32>
  %pb0 = tt.splat %b : !tt.ptr<f16> -> tensor<64x128x!tt.ptr<f16>>
  %pb = tt.addptr %pb0, %boff : tensor<64x128x!tt.ptr<f16>>, tensor<64x128xi32>
  %kmaxr = tt.splat %kmax : i32 -> tensor<64x1xi32>
  %rowok = arith.cmpi slt, %am, %kmaxr : tensor<64x1xi32>
  %rowmask = tt.broadcast %rowok : tensor<64x1xi1> -> tensor<64x64xi1>
  %kmaxn = tt.splat %kmax : i32 -> tensor<1x128xi32>
  %colok = arith.cmpi slt, %bn, %kmaxn : tensor<1x128xi32>
  %colmask = tt.broadcast %colok : tensor<1x128xi1> -> tensor<64x128xi1>
  %otherA = arith.constant dense<0> : tensor<64x64xi48>
  %LB = arith.constant 0 : i32
  %UB = arith.addi %n, %c0 : i32
  %ST = arith.constant 1 : i32
  %r:3 = scf.for %k = %LB to %UB step %ST iter_args(%ppa = %pa, %ppb = %pb, %acc = %zero) -> (tensor<64x64x!tt.ptr<i48>>, tensor<64x128x!tt.ptr<f16>>, tensor<64x128xf32>) : i32 {
    %kk = arith.muli %k, %cK : i32
    %kks = tt.splat %kk : i32 -> tensor<64x64xi32>
    %kcol = arith.addi %kks, %akb : tensor<64x64xi32>
    %kmaxk = tt.splat %kmax : i32 -> tensor<64x64xi32>
    %kmask = arith.cmpi slt, %kcol, %kmaxk : tensor<64x64xi32>
    %kks2 = tt.splat %kk : i32 -> tensor<64x128xi32>
    %bkb2 = tt.broadcast %bk : tensor<64x1xi32> -> tensor<64x128xi32>
    %krow = arith.addi %kks2, %bkb2 : tensor<64x128xi32>
    %kmaxk2 = tt.splat %kmax : i32 -> tensor<64x128xi32>
    %kmaskB = arith.cmpi slt, %krow, %kmaxk2 : tensor<64x128xi32>
    %x = tt.load %ppa, %rowmask, %otherA : tensor<64x64x!tt.ptr<i48>>
    %y = tt.load %ppb : tensor<64x128x!tt.ptr<f16>>
    %x32 = arith.sitofp %x : tensor<64x64xi48> to tensor<64x64xf32>
    %sp = tt.addptr %s, %kk : !tt.ptr<f32>, i32
    %spv = tt.splat %sp : !tt.ptr<f32> -> tensor<64x!tt.ptr<f32>>
    %spk = tt.addptr %spv, %rK : tensor<64x!tt.ptr<f32>>, tensor<64xi32>
    %sk = tt.load %spk : tensor<64x!tt.ptr<f32>>
    %sk2 = tt.expand_dims %sk {axis = 0 : i32} : tensor<64xf32> -> tensor<1x64xf32>
    %skb = tt.broadcast %sk2 : tensor<1x64xf32> -> tensor<64x64xf32>
    %xs = arith.mulf %x32, %skb : tensor<64x64xf32>
    %xh = arith.truncf %xs : tensor<64x64xf32> to tensor<64x64xf16>
    %d = tt.dot %xh, %y, %acc : tensor<64x64xf16> * tensor<64x128xf16> -> tensor<64x128xf32>
    %npa = tt.addptr %ppa, %stepA : tensor<64x64x!tt.ptr<i48>>, tensor<64x64xi32>
    %npb = tt.addptr %ppb, %stepB : tensor<64x128x!tt.ptr<f16>>, tensor<64x128xi32>
    scf.yield %npa, %npb, %d : tensor<64x64x!tt.ptr<i48>>, tensor<64x128x!tt.ptr<f16>>, tensor<64x128xf32>
  }
  %cm = tt.expand_dims %rM {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
  %cmS = arith.constant dense<128> : tensor<64x1xi32>
  %cmo = arith.muli %cm, %cmS : tensor<64x1xi32>
  %cmb = tt.broadcast %cmo : tensor<64x1xi32> -> tensor<64x128xi32>
  %cn = tt.expand_dims %rN {axis = 0 : i32} : tensor<128xi32> -> tensor<1x128xi32>
  %cnb = tt.broadcast %cn : tensor<1x128xi32> -> tensor<64x128xi32>
  %coff = arith.addi %cmb, %cnb : tensor<64x128xi32>
  %pc0 = tt.splat %c : !tt.ptr<f32> -> tensor<64x128x!tt.ptr<f32>>
  %pc = tt.addptr %pc0, %coff : tensor<64x128x!tt.ptr<f32>>, tensor<64x128xi32>
  tt.store %pc, %r#2 : tensor<64x128x!tt.ptr<f32>>
  tt.return
}
