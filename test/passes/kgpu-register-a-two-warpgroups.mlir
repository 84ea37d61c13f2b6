// RUN: kiln-opt %s -split-input-file -kgpu-assign-layouts="num-warps=8 mma-version=3 num-stages=3" | FileCheck %s --check-prefix=S3
// RUN: kiln-opt %s -split-input-file -kgpu-assign-layouts="num-warps=8 mma-version=3 num-stages=4" | FileCheck %s --check-prefix=S4

// register-a on two warpgroups (8 warps along M) with one 64-row block of
// A each: a 128-row A that the loop computes with special-function work
// (silu: an exp and a division) keeps A in shared memory with fewer than
// 4 stages and goes through registers with 4 (measured on the H200:
// docs/BENCHMARKS.md, thirty-sixth session); computed with a multiply
// only, A goes through registers either way.

// S3-LABEL: tt.func public @silu_a
// S3-NOT:     kgpu.convert_layout {{.*}} -> tensor<128x32xf16, #mma>
// S3:         tt.dot {{.*}} : tensor<128x32xf16, #blocked{{[0-9]*}}> * tensor<32x64xf16, #blocked{{[0-9]*}}> -> tensor<128x64xf32, #mma>
// S4-LABEL: tt.func public @silu_a
// S4:         %[[X:.*]] = tt.load {{.*}} : tensor<128x32x!tt.ptr<f16>, #blocked{{[0-9]*}}>
// S4-NEXT:    kgpu.convert_layout %[[X]] : tensor<128x32xf16, #blocked{{[0-9]*}}> -> tensor<128x32xf16, #mma>
// S4:         math.exp {{.*}} : tensor<128x32xf32, #mma>
// S4:         tt.dot {{.*}} : tensor<128x32xf16, #mma> * tensor<32x64xf16, #blocked{{[0-9]*}}> -> tensor<128x64xf32, #mma>
tt.func public @silu_a(%a: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %b: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %o: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %n: i32) {
  %zero = arith.constant dense<0.0> : tensor<128x64xf32>
  %one = arith.constant dense<1.0> : tensor<128x32xf32>
  %zero32 = arith.constant dense<0.0> : tensor<128x32xf32>
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %lda = arith.constant dense<1024> : tensor<128x1xi32>
  %ldb = arith.constant dense<64> : tensor<32x1xi32>
  %ldo = arith.constant dense<64> : tensor<128x1xi32>
  %step_a = arith.constant dense<32> : tensor<128x32xi32>
  %step_b = arith.constant dense<2048> : tensor<32x64xi32>
  %rows = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32>
  %cols = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
  %ks = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32>
  %r2 = tt.expand_dims %rows {axis = 1 : i32} : tensor<128xi32> -> tensor<128x1xi32>
  %ar = arith.muli %r2, %lda : tensor<128x1xi32>
  %arb = tt.broadcast %ar : tensor<128x1xi32> -> tensor<128x32xi32>
  %k2 = tt.expand_dims %ks {axis = 0 : i32} : tensor<32xi32> -> tensor<1x32xi32>
  %k2b = tt.broadcast %k2 : tensor<1x32xi32> -> tensor<128x32xi32>
  %aoff = arith.addi %arb, %k2b : tensor<128x32xi32>
  %as = tt.splat %a : !tt.ptr<f16> -> tensor<128x32x!tt.ptr<f16>>
  %ap0 = tt.addptr %as, %aoff : tensor<128x32x!tt.ptr<f16>>, tensor<128x32xi32>
  %kc = tt.expand_dims %ks {axis = 1 : i32} : tensor<32xi32> -> tensor<32x1xi32>
  %br = arith.muli %kc, %ldb : tensor<32x1xi32>
  %brb = tt.broadcast %br : tensor<32x1xi32> -> tensor<32x64xi32>
  %c2 = tt.expand_dims %cols {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
  %c2b = tt.broadcast %c2 : tensor<1x64xi32> -> tensor<32x64xi32>
  %boff = arith.addi %brb, %c2b : tensor<32x64xi32>
  %bs = tt.splat %b : !tt.ptr<f16> -> tensor<32x64x!tt.ptr<f16>>
  %bp0 = tt.addptr %bs, %boff : tensor<32x64x!tt.ptr<f16>>, tensor<32x64xi32>
  %res:3 = scf.for %k = %c0 to %n step %c1 iter_args(%ap = %ap0, %bp = %bp0, %acc = %zero) -> (tensor<128x32x!tt.ptr<f16>>, tensor<32x64x!tt.ptr<f16>>, tensor<128x64xf32>) : i32 {
    %x = tt.load %ap : tensor<128x32x!tt.ptr<f16>>
    %y = tt.load %bp : tensor<32x64x!tt.ptr<f16>>
    %xf = arith.extf %x : tensor<128x32xf16> to tensor<128x32xf32>
    %neg = arith.subf %zero32, %xf : tensor<128x32xf32>
    %e = math.exp %neg : tensor<128x32xf32>
    %den = arith.addf %e, %one : tensor<128x32xf32>
    %sig = arith.divf %one, %den : tensor<128x32xf32>
    %xs = arith.mulf %xf, %sig : tensor<128x32xf32>
    %xa = arith.truncf %xs : tensor<128x32xf32> to tensor<128x32xf16>
    %d = tt.dot %xa, %y, %acc : tensor<128x32xf16> * tensor<32x64xf16> -> tensor<128x64xf32>
    %apn = tt.addptr %ap, %step_a : tensor<128x32x!tt.ptr<f16>>, tensor<128x32xi32>
    %bpn = tt.addptr %bp, %step_b : tensor<32x64x!tt.ptr<f16>>, tensor<32x64xi32>
    scf.yield %apn, %bpn, %d : tensor<128x32x!tt.ptr<f16>>, tensor<32x64x!tt.ptr<f16>>, tensor<128x64xf32>
  }
  %or = arith.muli %r2, %ldo : tensor<128x1xi32>
  %orb = tt.broadcast %or : tensor<128x1xi32> -> tensor<128x64xi32>
  %ocb = tt.broadcast %c2 : tensor<1x64xi32> -> tensor<128x64xi32>
  %ooff = arith.addi %orb, %ocb : tensor<128x64xi32>
  %os = tt.splat %o : !tt.ptr<f32> -> tensor<128x64x!tt.ptr<f32>>
  %op = tt.addptr %os, %ooff : tensor<128x64x!tt.ptr<f32>>, tensor<128x64xi32>
  tt.store %op, %res#2 : tensor<128x64x!tt.ptr<f32>>
  tt.return
}

// -----

// S3-LABEL: tt.func public @squared_a
// S3:         %[[X:.*]] = tt.load {{.*}} : tensor<128x32x!tt.ptr<f16>, #blocked{{[0-9]*}}>
// S3-NEXT:    kgpu.convert_layout %[[X]] : tensor<128x32xf16, #blocked{{[0-9]*}}> -> tensor<128x32xf16, #mma>
// S3:         tt.dot {{.*}} : tensor<128x32xf16, #mma> * tensor<32x64xf16, #blocked{{[0-9]*}}> -> tensor<128x64xf32, #mma>
// S4-LABEL: tt.func public @squared_a
// S4:         tt.dot {{.*}} : tensor<128x32xf16, #mma> * tensor<32x64xf16, #blocked{{[0-9]*}}> -> tensor<128x64xf32, #mma>
tt.func public @squared_a(%a: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %b: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %o: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %n: i32) {
  %zero = arith.constant dense<0.0> : tensor<128x64xf32>
  %one = arith.constant dense<1.0> : tensor<128x32xf32>
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %lda = arith.constant dense<1024> : tensor<128x1xi32>
  %ldb = arith.constant dense<64> : tensor<32x1xi32>
  %ldo = arith.constant dense<64> : tensor<128x1xi32>
  %step_a = arith.constant dense<32> : tensor<128x32xi32>
  %step_b = arith.constant dense<2048> : tensor<32x64xi32>
  %rows = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32>
  %cols = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
  %ks = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32>
  %r2 = tt.expand_dims %rows {axis = 1 : i32} : tensor<128xi32> -> tensor<128x1xi32>
  %ar = arith.muli %r2, %lda : tensor<128x1xi32>
  %arb = tt.broadcast %ar : tensor<128x1xi32> -> tensor<128x32xi32>
  %k2 = tt.expand_dims %ks {axis = 0 : i32} : tensor<32xi32> -> tensor<1x32xi32>
  %k2b = tt.broadcast %k2 : tensor<1x32xi32> -> tensor<128x32xi32>
  %aoff = arith.addi %arb, %k2b : tensor<128x32xi32>
  %as = tt.splat %a : !tt.ptr<f16> -> tensor<128x32x!tt.ptr<f16>>
  %ap0 = tt.addptr %as, %aoff : tensor<128x32x!tt.ptr<f16>>, tensor<128x32xi32>
  %kc = tt.expand_dims %ks {axis = 1 : i32} : tensor<32xi32> -> tensor<32x1xi32>
  %br = arith.muli %kc, %ldb : tensor<32x1xi32>
  %brb = tt.broadcast %br : tensor<32x1xi32> -> tensor<32x64xi32>
  %c2 = tt.expand_dims %cols {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
  %c2b = tt.broadcast %c2 : tensor<1x64xi32> -> tensor<32x64xi32>
  %boff = arith.addi %brb, %c2b : tensor<32x64xi32>
  %bs = tt.splat %b : !tt.ptr<f16> -> tensor<32x64x!tt.ptr<f16>>
  %bp0 = tt.addptr %bs, %boff : tensor<32x64x!tt.ptr<f16>>, tensor<32x64xi32>
  %res:3 = scf.for %k = %c0 to %n step %c1 iter_args(%ap = %ap0, %bp = %bp0, %acc = %zero) -> (tensor<128x32x!tt.ptr<f16>>, tensor<32x64x!tt.ptr<f16>>, tensor<128x64xf32>) : i32 {
    %x = tt.load %ap : tensor<128x32x!tt.ptr<f16>>
    %y = tt.load %bp : tensor<32x64x!tt.ptr<f16>>
    %xf = arith.extf %x : tensor<128x32xf16> to tensor<128x32xf32>
    %xs = arith.mulf %xf, %xf : tensor<128x32xf32>
    %xa = arith.truncf %xs : tensor<128x32xf32> to tensor<128x32xf16>
    %d = tt.dot %xa, %y, %acc : tensor<128x32xf16> * tensor<32x64xf16> -> tensor<128x64xf32>
    %apn = tt.addptr %ap, %step_a : tensor<128x32x!tt.ptr<f16>>, tensor<128x32xi32>
    %bpn = tt.addptr %bp, %step_b : tensor<32x64x!tt.ptr<f16>>, tensor<32x64xi32>
    scf.yield %apn, %bpn, %d : tensor<128x32x!tt.ptr<f16>>, tensor<32x64x!tt.ptr<f16>>, tensor<128x64xf32>
  }
  %or = arith.muli %r2, %ldo : tensor<128x1xi32>
  %orb = tt.broadcast %or : tensor<128x1xi32> -> tensor<128x64xi32>
  %ocb = tt.broadcast %c2 : tensor<1x64xi32> -> tensor<128x64xi32>
  %ooff = arith.addi %orb, %ocb : tensor<128x64xi32>
  %os = tt.splat %o : !tt.ptr<f32> -> tensor<128x64x!tt.ptr<f32>>
  %op = tt.addptr %os, %ooff : tensor<128x64x!tt.ptr<f32>>, tensor<128x64xi32>
  tt.store %op, %res#2 : tensor<128x64x!tt.ptr<f32>>
  tt.return
}
