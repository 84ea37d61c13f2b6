// RUN: kiln-opt %s -kgpu-assign-layouts="num-warps=4 mma-version=3 num-stages=4" | FileCheck %s --check-prefix=LAYOUT
// RUN: kiln-opt %s -kgpu-assign-layouts="num-warps=4 mma-version=3 num-stages=4 register-a=false" | FileCheck %s --check-prefix=OFF
// RUN: kiln-opt %s -kgpu-assign-layouts="num-warps=4 mma-version=3 num-stages=4" -kgpu-pipeline-dot-loops="num-stages=4 wgmma=true" | FileCheck %s --check-prefix=PIPE

// kgpu-assign-layouts' register-a and what kgpu-pipeline-dot-loops makes
// of it: a K loop whose A the loop scales by a per-K vector before a wgmma
// dot (bench/conformance/kernels_layouts/bt_kscale_*). The A tile leaves
// its load (coalesced, blocked) through a conversion to the accumulator's
// layout, where the scale is applied; the pipeline then copies the raw A
// tile with cp.async into slots of its own (rows of 32 + 8 bf16: 80
// bytes, so the 8 rows a wgmma A-fragment read touches fall in distinct
// banks), beside B's, four slots deep with the carried pointers three
// iterations ahead, and reads it back in the accumulator's layout
// (kgpu.local_load): the dot takes A from registers. The scale vector
// stays a register load, one iteration ahead. On 4 warps each iteration
// waits for its multiply (on 8 or more the multiply stays in flight
// across the back edge: kgpu.wgmma_pack_a_first). Without register-a
// the whole A chain is blocked and the loop only prefetches into
// registers, one iteration ahead.

// LAYOUT-LABEL: tt.func public @kscale_a
// LAYOUT:         scf.for
// LAYOUT:           %[[X:.*]] = tt.load {{.*}} : tensor<64x32x!tt.ptr<bf16>, #blocked{{[0-9]*}}>
// LAYOUT-NEXT:      %[[XM:.*]] = kgpu.convert_layout %[[X]] : tensor<64x32xbf16, #blocked{{[0-9]*}}> -> tensor<64x32xbf16, #mma>
// LAYOUT:           tt.load {{.*}} : tensor<32x!tt.ptr<f32>, #slice{{[0-9]*}}>
// LAYOUT:           tt.expand_dims {{.*}} -> tensor<1x32xf32, #mma>
// LAYOUT:           arith.extf %[[XM]] : tensor<64x32xbf16, #mma> to tensor<64x32xf32, #mma>
// LAYOUT:           arith.mulf {{.*}} : tensor<64x32xf32, #mma>
// LAYOUT:           %[[XA:.*]] = arith.truncf {{.*}} : tensor<64x32xf32, #mma> to tensor<64x32xbf16, #mma>
// LAYOUT:           tt.dot %[[XA]], {{.*}} : tensor<64x32xbf16, #mma> * tensor<32x64xbf16, #blocked{{[0-9]*}}> -> tensor<64x64xf32, #mma>

// OFF-LABEL: tt.func public @kscale_a
// OFF-NOT:     kgpu.convert_layout {{.*}} -> tensor<64x32xbf16, #mma>
// OFF:         tt.dot {{.*}} : tensor<64x32xbf16, #blocked{{[0-9]*}}> * tensor<32x64xbf16, #blocked{{[0-9]*}}> -> tensor<64x64xf32, #mma>

// PIPE-LABEL: tt.func public @kscale_a
// PIPE-COUNT-3: kgpu.async_commit_group
// PIPE:         scf.for {{.*}} iter_args({{.*}}, %[[SLOT:[a-z0-9_]+]] = %c0_i32{{[_0-9]*}}, %[[AHEAD_A:[a-z0-9_]+]] = %{{[a-z0-9_]+}}, %[[AHEAD_B:[a-z0-9_]+]] = %{{[a-z0-9_]+}}, %[[SCALE:[a-z0-9_]+]] = %{{[a-z0-9_]+}})
// The scale vector, left in registers, is loaded one iteration ahead.
// PIPE:           tt.load {{.*}} : tensor<32x!tt.ptr<f32>, #slice{{[0-9]*}}>
// PIPE:           kgpu.async_wait 2
// PIPE:           kgpu.async_copy %[[AHEAD_B]], {{.*}} {offset = 0 : i64, rowStride = 64 : i64, slotBytes = 4096 : i64, swizzle = 2 : i32} : tensor<32x64x!tt.ptr<bf16>
// PIPE:           kgpu.async_copy %[[AHEAD_A]], {{.*}} {offset = 16384 : i64, rowStride = 40 : i64, slotBytes = 5120 : i64} : tensor<64x32x!tt.ptr<bf16>
// PIPE-NEXT:      kgpu.async_commit_group
// PIPE-NOT:       tt.load {{.*}} : tensor<64x32x!tt.ptr<bf16>
// PIPE:           %[[A:.*]] = kgpu.local_load slot %[[SLOT]] {numSlots = 4 : i32, offset = 16384 : i64, rowStride = 40 : i64, slotBytes = 5120 : i64} : tensor<64x32xbf16, #mma>
// PIPE:           tt.expand_dims %[[SCALE]]
// PIPE:           arith.extf %[[A]]
// PIPE:           kgpu.local_dot {{.*}} a {{.*}} : tensor<64x32xbf16, #mma> slot %[[SLOT]] {{.*}}numSlots = 4
// PIPE:           kgpu.wgmma_wait 0
// PIPE:         kgpu.async_wait 0
tt.func public @kscale_a(%a: !tt.ptr<bf16> {tt.divisibility = 16 : i32}, %b: !tt.ptr<bf16> {tt.divisibility = 16 : i32}, %s: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %o: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %n: i32) {
  %zero = arith.constant dense<0.0> : tensor<64x64xf32>
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c32 = arith.constant 32 : i32
  %lda = arith.constant dense<1024> : tensor<64x1xi32>
  %ldb = arith.constant dense<64> : tensor<32x1xi32>
  %ldo = arith.constant dense<64> : tensor<64x1xi32>
  %step_a = arith.constant dense<32> : tensor<64x32xi32>
  %step_b = arith.constant dense<2048> : tensor<32x64xi32>
  %rows = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
  %ks = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32>
  %r2 = tt.expand_dims %rows {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
  %ar = arith.muli %r2, %lda : tensor<64x1xi32>
  %arb = tt.broadcast %ar : tensor<64x1xi32> -> tensor<64x32xi32>
  %k2 = tt.expand_dims %ks {axis = 0 : i32} : tensor<32xi32> -> tensor<1x32xi32>
  %k2b = tt.broadcast %k2 : tensor<1x32xi32> -> tensor<64x32xi32>
  %aoff = arith.addi %arb, %k2b : tensor<64x32xi32>
  %as = tt.splat %a : !tt.ptr<bf16> -> tensor<64x32x!tt.ptr<bf16>>
  %ap0 = tt.addptr %as, %aoff : tensor<64x32x!tt.ptr<bf16>>, tensor<64x32xi32>
  %kc = tt.expand_dims %ks {axis = 1 : i32} : tensor<32xi32> -> tensor<32x1xi32>
  %br = arith.muli %kc, %ldb : tensor<32x1xi32>
  %brb = tt.broadcast %br : tensor<32x1xi32> -> tensor<32x64xi32>
  %c2 = tt.expand_dims %rows {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
  %c2b = tt.broadcast %c2 : tensor<1x64xi32> -> tensor<32x64xi32>
  %boff = arith.addi %brb, %c2b : tensor<32x64xi32>
  %bs = tt.splat %b : !tt.ptr<bf16> -> tensor<32x64x!tt.ptr<bf16>>
  %bp0 = tt.addptr %bs, %boff : tensor<32x64x!tt.ptr<bf16>>, tensor<32x64xi32>
  %res:3 = scf.for %k = %c0 to %n step %c1 iter_args(%ap = %ap0, %bp = %bp0, %acc = %zero) -> (tensor<64x32x!tt.ptr<bf16>>, tensor<32x64x!tt.ptr<bf16>>, tensor<64x64xf32>) : i32 {
    %x = tt.load %ap : tensor<64x32x!tt.ptr<bf16>>
    %y = tt.load %bp : tensor<32x64x!tt.ptr<bf16>>
    %k32 = arith.muli %k, %c32 : i32
    %sk = tt.addptr %s, %k32 : !tt.ptr<f32>, i32
    %sks = tt.splat %sk : !tt.ptr<f32> -> tensor<32x!tt.ptr<f32>>
    %skp = tt.addptr %sks, %ks : tensor<32x!tt.ptr<f32>>, tensor<32xi32>
    %sc = tt.load %skp : tensor<32x!tt.ptr<f32>>
    %sc2 = tt.expand_dims %sc {axis = 0 : i32} : tensor<32xf32> -> tensor<1x32xf32>
    %xf = arith.extf %x : tensor<64x32xbf16> to tensor<64x32xf32>
    %scb = tt.broadcast %sc2 : tensor<1x32xf32> -> tensor<64x32xf32>
    %xs = arith.mulf %xf, %scb : tensor<64x32xf32>
    %xa = arith.truncf %xs : tensor<64x32xf32> to tensor<64x32xbf16>
    %d = tt.dot %xa, %y, %acc : tensor<64x32xbf16> * tensor<32x64xbf16> -> tensor<64x64xf32>
    %apn = tt.addptr %ap, %step_a : tensor<64x32x!tt.ptr<bf16>>, tensor<64x32xi32>
    %bpn = tt.addptr %bp, %step_b : tensor<32x64x!tt.ptr<bf16>>, tensor<32x64xi32>
    scf.yield %apn, %bpn, %d : tensor<64x32x!tt.ptr<bf16>>, tensor<32x64x!tt.ptr<bf16>>, tensor<64x64xf32>
  }
  %or = arith.muli %r2, %ldo : tensor<64x1xi32>
  %orb = tt.broadcast %or : tensor<64x1xi32> -> tensor<64x64xi32>
  %ocb = tt.broadcast %c2 : tensor<1x64xi32> -> tensor<64x64xi32>
  %ooff = arith.addi %orb, %ocb : tensor<64x64xi32>
  %os = tt.splat %o : !tt.ptr<f32> -> tensor<64x64x!tt.ptr<f32>>
  %op = tt.addptr %os, %ooff : tensor<64x64x!tt.ptr<f32>>, tensor<64x64xi32>
  tt.store %op, %res#2 : tensor<64x64x!tt.ptr<f32>>
  tt.return
}

// B computed in the loop too (scaled): wgmma would need it in shared
// memory after the scale, so nothing changes; A keeps a blocked layout.
// LAYOUT-LABEL: tt.func public @both_scaled
// LAYOUT-NOT:     kgpu.convert_layout {{.*}} -> tensor<64x32xbf16, #mma>
// LAYOUT:         tt.dot {{.*}} : tensor<64x32xbf16, #blocked{{[0-9]*}}> * tensor<32x64xbf16, #blocked{{[0-9]*}}> -> tensor<64x64xf32, #mma>
tt.func public @both_scaled(%a: !tt.ptr<bf16> {tt.divisibility = 16 : i32}, %b: !tt.ptr<bf16> {tt.divisibility = 16 : i32}, %o: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %n: i32) {
  %zero = arith.constant dense<0.0> : tensor<64x64xf32>
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %two_a = arith.constant dense<2.0> : tensor<64x32xbf16>
  %two_b = arith.constant dense<2.0> : tensor<32x64xbf16>
  %lda = arith.constant dense<1024> : tensor<64x1xi32>
  %ldb = arith.constant dense<64> : tensor<32x1xi32>
  %ldo = arith.constant dense<64> : tensor<64x1xi32>
  %step_a = arith.constant dense<32> : tensor<64x32xi32>
  %step_b = arith.constant dense<2048> : tensor<32x64xi32>
  %rows = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
  %ks = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32>
  %r2 = tt.expand_dims %rows {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
  %ar = arith.muli %r2, %lda : tensor<64x1xi32>
  %arb = tt.broadcast %ar : tensor<64x1xi32> -> tensor<64x32xi32>
  %k2 = tt.expand_dims %ks {axis = 0 : i32} : tensor<32xi32> -> tensor<1x32xi32>
  %k2b = tt.broadcast %k2 : tensor<1x32xi32> -> tensor<64x32xi32>
  %aoff = arith.addi %arb, %k2b : tensor<64x32xi32>
  %as = tt.splat %a : !tt.ptr<bf16> -> tensor<64x32x!tt.ptr<bf16>>
  %ap0 = tt.addptr %as, %aoff : tensor<64x32x!tt.ptr<bf16>>, tensor<64x32xi32>
  %kc = tt.expand_dims %ks {axis = 1 : i32} : tensor<32xi32> -> tensor<32x1xi32>
  %br = arith.muli %kc, %ldb : tensor<32x1xi32>
  %brb = tt.broadcast %br : tensor<32x1xi32> -> tensor<32x64xi32>
  %c2 = tt.expand_dims %rows {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
  %c2b = tt.broadcast %c2 : tensor<1x64xi32> -> tensor<32x64xi32>
  %boff = arith.addi %brb, %c2b : tensor<32x64xi32>
  %bs = tt.splat %b : !tt.ptr<bf16> -> tensor<32x64x!tt.ptr<bf16>>
  %bp0 = tt.addptr %bs, %boff : tensor<32x64x!tt.ptr<bf16>>, tensor<32x64xi32>
  %res:3 = scf.for %k = %c0 to %n step %c1 iter_args(%ap = %ap0, %bp = %bp0, %acc = %zero) -> (tensor<64x32x!tt.ptr<bf16>>, tensor<32x64x!tt.ptr<bf16>>, tensor<64x64xf32>) : i32 {
    %x = tt.load %ap : tensor<64x32x!tt.ptr<bf16>>
    %y = tt.load %bp : tensor<32x64x!tt.ptr<bf16>>
    %xa = arith.mulf %x, %two_a : tensor<64x32xbf16>
    %ya = arith.mulf %y, %two_b : tensor<32x64xbf16>
    %d = tt.dot %xa, %ya, %acc : tensor<64x32xbf16> * tensor<32x64xbf16> -> tensor<64x64xf32>
    %apn = tt.addptr %ap, %step_a : tensor<64x32x!tt.ptr<bf16>>, tensor<64x32xi32>
    %bpn = tt.addptr %bp, %step_b : tensor<32x64x!tt.ptr<bf16>>, tensor<32x64xi32>
    scf.yield %apn, %bpn, %d : tensor<64x32x!tt.ptr<bf16>>, tensor<32x64x!tt.ptr<bf16>>, tensor<64x64xf32>
  }
  %or = arith.muli %r2, %ldo : tensor<64x1xi32>
  %orb = tt.broadcast %or : tensor<64x1xi32> -> tensor<64x64xi32>
  %ocb = tt.broadcast %c2 : tensor<1x64xi32> -> tensor<64x64xi32>
  %ooff = arith.addi %orb, %ocb : tensor<64x64xi32>
  %os = tt.splat %o : !tt.ptr<f32> -> tensor<64x64x!tt.ptr<f32>>
  %op = tt.addptr %os, %ooff : tensor<64x64x!tt.ptr<f32>>, tensor<64x64xi32>
  tt.store %op, %res#2 : tensor<64x64x!tt.ptr<f32>>
  tt.return
}
