// RUN: kiln-opt %s -split-input-file -kgpu-assign-layouts="num-warps=4 mma-version=2" -kgpu-pipeline-dot-loops=num-stages=3 | FileCheck %s --enable-var-scope
// RUN: kiln-opt %s -split-input-file -kgpu-assign-layouts="num-warps=4 mma-version=2" -kgpu-pipeline-dot-loops=num-stages=3 -canonicalize -cse -kgpu-convert-to-llvm | FileCheck %s --check-prefix=LLVM
// RUN: kiln-opt %s -split-input-file -kgpu-assign-layouts="num-warps=4 mma-version=2" -kgpu-pipeline-dot-loops=num-stages=1 | FileCheck %s --check-prefix=OFF
// Before kgpu-assign-layouts (no layouts to count registers with): every
// loop is left as it is.
// RUN: kiln-opt %s -split-input-file -kgpu-pipeline-dot-loops=num-stages=3 | FileCheck %s --check-prefix=NOLAYOUT
// NOLAYOUT-LABEL: tt.func public @b_scaled
// NOLAYOUT: scf.for
// NOLAYOUT-NEXT: tt.load

// Loops kgpu-pipeline-dot-loops can neither stage (matchLoop) nor slot
// (matchSlotLoop): their tile loads are prefetched one iteration ahead
// into registers.

// B scaled in the loop (y * 2 before the dot): no cp.async staging (the
// dot's B is not a load), so both tiles are loaded one iteration ahead.
// Before the loop: iteration 0's tiles, masked by whether it exists
// (lb < ub, in i64). At the top of each iteration: the pointers advanced
// once more and iteration i + 1's tiles, masked by i + 1 < ub, carried to
// the next iteration; the dot reads this iteration's carried tiles.
// CHECK-LABEL: tt.func public @b_scaled
// CHECK: %[[LB:.+]] = arith.extsi %c0_i32 : i32 to i64
// CHECK: %[[FIRST:.+]] = arith.addi %[[LB]], %{{.+}} : i64
// CHECK: %[[UB:.+]] = arith.extsi %[[N:.+]] : i32 to i64
// CHECK: %[[LIVE0:.+]] = arith.cmpi slt, %[[FIRST]], %[[UB]] : i64
// CHECK: %[[M0:.+]] = tt.splat %[[LIVE0]] : i1 -> tensor<64x32xi1
// CHECK: %[[A0:.+]] = tt.load %[[PA:[^ ,]+]], %[[M0]] : tensor<64x32x!tt.ptr<f16>
// CHECK: %[[M1:.+]] = tt.splat %[[LIVE0]] : i1 -> tensor<32x64xi1
// CHECK: %[[B0:.+]] = tt.load %[[PB:[^ ,]+]], %[[M1]] : tensor<32x64x!tt.ptr<f16>
// CHECK: scf.for %[[IV:[^ ]+]] = %c0_i32 to %[[N]] step %c1_i32 iter_args(%[[CA:[^ ]+]] = %[[PA]], %[[CB:[^ ]+]] = %[[PB]], %[[ACC:[^ ]+]] = %{{[^ ]+}}, %[[TA:[^ ]+]] = %[[A0]], %[[TB:[^ ]+]] = %[[B0]])
// CHECK: %[[NA:.+]] = tt.addptr %[[CA]]
// CHECK: %[[NB:.+]] = tt.addptr %[[CB]]
// CHECK: %[[IV64:.+]] = arith.extsi %[[IV]] : i32 to i64
// CHECK: %[[NEXT:.+]] = arith.addi %[[IV64]], %{{.+}} : i64
// CHECK: %[[LIVE:.+]] = arith.cmpi slt, %[[NEXT]], %{{.+}} : i64
// CHECK: %[[MA:.+]] = tt.splat %[[LIVE]]
// CHECK: %[[XA:.+]] = tt.load %[[NA]], %[[MA]]
// CHECK: %[[MB:.+]] = tt.splat %[[LIVE]]
// CHECK: %[[XB:.+]] = tt.load %[[NB]], %[[MB]]
// CHECK: %[[S:.+]] = arith.mulf %[[TB]], %{{.+}}
// CHECK: %[[D:.+]] = tt.dot %[[TA]], %[[S]], %[[ACC]]
// CHECK: scf.yield %{{.+}}, %{{.+}}, %[[D]], %[[XA]], %[[XB]]
// CHECK-NOT: tt.load
// CHECK: tt.store
// The prefetched loads are predicated 16-byte global loads; the dot stays
// on mma.sync.
// LLVM-LABEL: llvm.func @b_scaled
// LLVM: ld.global.v4.b32
// LLVM: nvvm.mma.sync
// OFF-LABEL: tt.func public @b_scaled
// OFF: scf.for
// OFF-NEXT: tt.load
tt.func public @b_scaled(%a: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %b: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %c: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %n: i32) {
  %zero = arith.constant dense<0.0> : tensor<64x64xf32>
  %two = arith.constant dense<2.0> : tensor<32x64xf16>
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %stepA = arith.constant dense<32> : tensor<64x32xi32>
  %stepB = arith.constant dense<2048> : tensor<32x64xi32>
  %r64 = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
  %r32 = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32>
  %am = tt.expand_dims %r64 {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
  %c64v = arith.constant dense<64> : tensor<64x1xi32>
  %amo = arith.muli %am, %c64v : tensor<64x1xi32>
  %ak = tt.expand_dims %r32 {axis = 0 : i32} : tensor<32xi32> -> tensor<1x32xi32>
  %amb = tt.broadcast %amo : tensor<64x1xi32> -> tensor<64x32xi32>
  %akb = tt.broadcast %ak : tensor<1x32xi32> -> tensor<64x32xi32>
  %aoff = arith.addi %amb, %akb : tensor<64x32xi32>
  %pa0 = tt.splat %a : !tt.ptr<f16> -> tensor<64x32x!tt.ptr<f16>>
  %pa = tt.addptr %pa0, %aoff : tensor<64x32x!tt.ptr<f16>>, tensor<64x32xi32>
  %bk = tt.expand_dims %r32 {axis = 1 : i32} : tensor<32xi32> -> tensor<32x1xi32>
  %c64k = arith.constant dense<64> : tensor<32x1xi32>
  %bko = arith.muli %bk, %c64k : tensor<32x1xi32>
  %bn = tt.expand_dims %r64 {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
  %bkb = tt.broadcast %bko : tensor<32x1xi32> -> tensor<32x64xi32>
  %bnb = tt.broadcast %bn : tensor<1x64xi32> -> tensor<32x64xi32>
  %boff = arith.addi %bkb, %bnb : tensor<32x64xi32>
  %pb0 = tt.splat %b : !tt.ptr<f16> -> tensor<32x64x!tt.ptr<f16>>
  %pb = tt.addptr %pb0, %boff : tensor<32x64x!tt.ptr<f16>>, tensor<32x64xi32>
  %r:3 = scf.for %k = %c0 to %n step %c1 iter_args(%ppa = %pa, %ppb = %pb, %acc = %zero) -> (tensor<64x32x!tt.ptr<f16>>, tensor<32x64x!tt.ptr<f16>>, tensor<64x64xf32>) : i32 {
    %x = tt.load %ppa : tensor<64x32x!tt.ptr<f16>>
    %y = tt.load %ppb : tensor<32x64x!tt.ptr<f16>>
    %ys = arith.mulf %y, %two : tensor<32x64xf16>
    %d = tt.dot %x, %ys, %acc : tensor<64x32xf16> * tensor<32x64xf16> -> tensor<64x64xf32>
    %npa = tt.addptr %ppa, %stepA : tensor<64x32x!tt.ptr<f16>>, tensor<64x32xi32>
    %npb = tt.addptr %ppb, %stepB : tensor<32x64x!tt.ptr<f16>>, tensor<32x64xi32>
    scf.yield %npa, %npb, %d : tensor<64x32x!tt.ptr<f16>>, tensor<32x64x!tt.ptr<f16>>, tensor<64x64xf32>
  }
  %cm = tt.expand_dims %r64 {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
  %cmo = arith.muli %cm, %c64v : tensor<64x1xi32>
  %cmb = tt.broadcast %cmo : tensor<64x1xi32> -> tensor<64x64xi32>
  %cn = tt.expand_dims %r64 {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
  %cnb = tt.broadcast %cn : tensor<1x64xi32> -> tensor<64x64xi32>
  %coff = arith.addi %cmb, %cnb : tensor<64x64xi32>
  %pc0 = tt.splat %c : !tt.ptr<f32> -> tensor<64x64x!tt.ptr<f32>>
  %pc = tt.addptr %pc0, %coff : tensor<64x64x!tt.ptr<f32>>, tensor<64x64xi32>
  tt.store %pc, %r#2 : tensor<64x64x!tt.ptr<f32>>
  tt.return
}

// -----

// A upcast and scaled by a per-K vector loaded in the loop (bt_kscale):
// the scale's load is prefetched too, its pointer computed from the
// induction variable (iv + 1 for the next iteration); a masked load keeps
// its mask and `other`, and-ed with the iteration's existence.
// CHECK-LABEL: tt.func public @a_kscale
// CHECK: tt.load %{{.+}}, %{{.+}}, %{{.+}} : tensor<64x32x!tt.ptr<f16>
// CHECK: tt.load %{{.+}}, %{{.+}} : tensor<32x64x!tt.ptr<f16>
// CHECK: tt.load %{{.+}}, %{{.+}} : tensor<32x!tt.ptr<f32>
// CHECK: scf.for %[[IV:[^ ]+]] = {{.+}} iter_args(%{{[^ ]+}} = %{{[^ ]+}}, %{{[^ ]+}} = %{{[^ ]+}}, %{{[^ ]+}} = %{{[^ ]+}}, %[[TA:[^ ]+]] = %{{[^ ]+}}, %[[TB:[^ ]+]] = %{{[^ ]+}}, %[[TS:[^ ]+]] = %{{[^ ]+}})
// CHECK: %[[NIV:.+]] = arith.addi %[[IV]], %c1_i32 : i32
// CHECK: %[[SK:.+]] = arith.muli %[[NIV]], %c32_i32 : i32
// CHECK: tt.addptr %{{.+}}, %[[SK]] : !tt.ptr<f32>, i32
// CHECK: %[[LIVE:.+]] = arith.cmpi slt
// CHECK: %[[LM:.+]] = tt.splat %[[LIVE]] : i1 -> tensor<64x32xi1
// CHECK: %[[AM:.+]] = arith.andi %{{.+}}, %[[LM]] : tensor<64x32xi1
// CHECK: tt.load %{{.+}}, %[[AM]], %{{.+}} : tensor<64x32x!tt.ptr<f16>
// CHECK: tt.load {{.+}} : tensor<32x64x!tt.ptr<f16>
// CHECK: tt.load {{.+}} : tensor<32x!tt.ptr<f32>
// CHECK: tt.expand_dims %[[TS]]
// CHECK: arith.extf %[[TA]]
// CHECK: tt.dot %{{.+}}, %[[TB]]
tt.func public @a_kscale(%a: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %b: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %s: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %c: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %n: i32, %kmax: i32) {
  %zero = arith.constant dense<0.0> : tensor<64x64xf32>
  %ozero = arith.constant dense<0.0> : tensor<64x32xf16>
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c32 = arith.constant 32 : i32
  %stepA = arith.constant dense<32> : tensor<64x32xi32>
  %stepB = arith.constant dense<2048> : tensor<32x64xi32>
  %r64 = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
  %r32 = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32>
  %am = tt.expand_dims %r64 {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
  %c64v = arith.constant dense<64> : tensor<64x1xi32>
  %amo = arith.muli %am, %c64v : tensor<64x1xi32>
  %ak = tt.expand_dims %r32 {axis = 0 : i32} : tensor<32xi32> -> tensor<1x32xi32>
  %amb = tt.broadcast %amo : tensor<64x1xi32> -> tensor<64x32xi32>
  %akb = tt.broadcast %ak : tensor<1x32xi32> -> tensor<64x32xi32>
  %aoff = arith.addi %amb, %akb : tensor<64x32xi32>
  %pa0 = tt.splat %a : !tt.ptr<f16> -> tensor<64x32x!tt.ptr<f16>>
  %pa = tt.addptr %pa0, %aoff : tensor<64x32x!tt.ptr<f16>>, tensor<64x32xi32>
  %bk = tt.expand_dims %r32 {axis = 1 : i32} : tensor<32xi32> -> tensor<32x1xi32>
  %c64k = arith.constant dense<64> : tensor<32x1xi32>
  %bko = arith.muli %bk, %c64k : tensor<32x1xi32>
  %bn = tt.expand_dims %r64 {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
  %bkb = tt.broadcast %bko : tensor<32x1xi32> -> tensor<32x64xi32>
  %bnb = tt.broadcast %bn : tensor<1x64xi32> -> tensor<32x64xi32>
  %boff = arith.addi %bkb, %bnb : tensor<32x64xi32>
  %pb0 = tt.splat %b : !tt.ptr<f16> -> tensor<32x64x!tt.ptr<f16>>
  %pb = tt.addptr %pb0, %boff : tensor<32x64x!tt.ptr<f16>>, tensor<32x64xi32>
  %kmaxv = tt.splat %kmax : i32 -> tensor<64x32xi32>
  %r:3 = scf.for %k = %c0 to %n step %c1 iter_args(%ppa = %pa, %ppb = %pb, %acc = %zero) -> (tensor<64x32x!tt.ptr<f16>>, tensor<32x64x!tt.ptr<f16>>, tensor<64x64xf32>) : i32 {
    %kk = arith.muli %k, %c32 : i32
    %kkv = tt.splat %kk : i32 -> tensor<64x32xi32>
    %kcol = arith.addi %kkv, %akb : tensor<64x32xi32>
    %amask = arith.cmpi slt, %kcol, %kmaxv : tensor<64x32xi32>
    %x = tt.load %ppa, %amask, %ozero : tensor<64x32x!tt.ptr<f16>>
    %y = tt.load %ppb : tensor<32x64x!tt.ptr<f16>>
    %sp = tt.addptr %s, %kk : !tt.ptr<f32>, i32
    %spv = tt.splat %sp : !tt.ptr<f32> -> tensor<32x!tt.ptr<f32>>
    %spk = tt.addptr %spv, %r32 : tensor<32x!tt.ptr<f32>>, tensor<32xi32>
    %sk = tt.load %spk : tensor<32x!tt.ptr<f32>>
    %sk2 = tt.expand_dims %sk {axis = 0 : i32} : tensor<32xf32> -> tensor<1x32xf32>
    %x32 = arith.extf %x : tensor<64x32xf16> to tensor<64x32xf32>
    %skb = tt.broadcast %sk2 : tensor<1x32xf32> -> tensor<64x32xf32>
    %xs = arith.mulf %x32, %skb : tensor<64x32xf32>
    %xh = arith.truncf %xs : tensor<64x32xf32> to tensor<64x32xf16>
    %d = tt.dot %xh, %y, %acc : tensor<64x32xf16> * tensor<32x64xf16> -> tensor<64x64xf32>
    %npa = tt.addptr %ppa, %stepA : tensor<64x32x!tt.ptr<f16>>, tensor<64x32xi32>
    %npb = tt.addptr %ppb, %stepB : tensor<32x64x!tt.ptr<f16>>, tensor<32x64xi32>
    scf.yield %npa, %npb, %d : tensor<64x32x!tt.ptr<f16>>, tensor<32x64x!tt.ptr<f16>>, tensor<64x64xf32>
  }
  %cm = tt.expand_dims %r64 {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
  %cmo = arith.muli %cm, %c64v : tensor<64x1xi32>
  %cmb = tt.broadcast %cmo : tensor<64x1xi32> -> tensor<64x64xi32>
  %cn = tt.expand_dims %r64 {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
  %cnb = tt.broadcast %cn : tensor<1x64xi32> -> tensor<64x64xi32>
  %coff = arith.addi %cmb, %cnb : tensor<64x64xi32>
  %pc0 = tt.splat %c : !tt.ptr<f32> -> tensor<64x64x!tt.ptr<f32>>
  %pc = tt.addptr %pc0, %coff : tensor<64x64x!tt.ptr<f32>>, tensor<64x64xi32>
  tt.store %pc, %r#2 : tensor<64x64x!tt.ptr<f32>>
  tt.return
}

// -----

// Left as they are: a loop that stores (a later iteration's tile could be
// what this one writes), a volatile load, a pointer read from memory
// (pointer chasing), a tile beyond the register budget (a 128x128 f32 B:
// 128 registers per thread), and a loop without a dot.
// CHECK-LABEL: tt.func public @left_alone
// CHECK: scf.for
// CHECK-NEXT: tt.load
// CHECK: tt.store
// CHECK: scf.for
// CHECK-NEXT: tt.load
// CHECK: scf.for
// CHECK-NEXT: tt.load
// CHECK: scf.for
// CHECK-NEXT: tt.load
// CHECK: scf.for
// CHECK-NEXT: tt.load
// CHECK: tt.return
tt.func public @left_alone(%a: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %b: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %bf: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %idx: !tt.ptr<i32> {tt.divisibility = 16 : i32}, %c: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %n: i32) {
  %zero = arith.constant dense<0.0> : tensor<64x64xf32>
  %zero128 = arith.constant dense<0.0> : tensor<64x128xf32>
  %two = arith.constant dense<2.0> : tensor<32x64xf16>
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %stepA = arith.constant dense<32> : tensor<64x32xi32>
  %stepB = arith.constant dense<2048> : tensor<32x64xi32>
  %r64 = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
  %r32 = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32>
  %r128 = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32>
  %am = tt.expand_dims %r64 {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
  %c64v = arith.constant dense<64> : tensor<64x1xi32>
  %amo = arith.muli %am, %c64v : tensor<64x1xi32>
  %ak = tt.expand_dims %r32 {axis = 0 : i32} : tensor<32xi32> -> tensor<1x32xi32>
  %amb = tt.broadcast %amo : tensor<64x1xi32> -> tensor<64x32xi32>
  %akb = tt.broadcast %ak : tensor<1x32xi32> -> tensor<64x32xi32>
  %aoff = arith.addi %amb, %akb : tensor<64x32xi32>
  %pa0 = tt.splat %a : !tt.ptr<f16> -> tensor<64x32x!tt.ptr<f16>>
  %pa = tt.addptr %pa0, %aoff : tensor<64x32x!tt.ptr<f16>>, tensor<64x32xi32>
  %bk = tt.expand_dims %r32 {axis = 1 : i32} : tensor<32xi32> -> tensor<32x1xi32>
  %c64k = arith.constant dense<64> : tensor<32x1xi32>
  %bko = arith.muli %bk, %c64k : tensor<32x1xi32>
  %bn = tt.expand_dims %r64 {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
  %bkb = tt.broadcast %bko : tensor<32x1xi32> -> tensor<32x64xi32>
  %bnb = tt.broadcast %bn : tensor<1x64xi32> -> tensor<32x64xi32>
  %boff = arith.addi %bkb, %bnb : tensor<32x64xi32>
  %pb0 = tt.splat %b : !tt.ptr<f16> -> tensor<32x64x!tt.ptr<f16>>
  %pb = tt.addptr %pb0, %boff : tensor<32x64x!tt.ptr<f16>>, tensor<32x64xi32>
  %cm = tt.expand_dims %r64 {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
  %cmo = arith.muli %cm, %c64v : tensor<64x1xi32>
  %cmb = tt.broadcast %cmo : tensor<64x1xi32> -> tensor<64x64xi32>
  %cn = tt.expand_dims %r64 {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
  %cnb = tt.broadcast %cn : tensor<1x64xi32> -> tensor<64x64xi32>
  %coff = arith.addi %cmb, %cnb : tensor<64x64xi32>
  %pc0 = tt.splat %c : !tt.ptr<f32> -> tensor<64x64x!tt.ptr<f32>>
  %pc = tt.addptr %pc0, %coff : tensor<64x64x!tt.ptr<f32>>, tensor<64x64xi32>
  // A store in the loop.
  %r1:3 = scf.for %k = %c0 to %n step %c1 iter_args(%ppa = %pa, %ppb = %pb, %acc = %zero) -> (tensor<64x32x!tt.ptr<f16>>, tensor<32x64x!tt.ptr<f16>>, tensor<64x64xf32>) : i32 {
    %x = tt.load %ppa : tensor<64x32x!tt.ptr<f16>>
    %y = tt.load %ppb : tensor<32x64x!tt.ptr<f16>>
    %ys = arith.mulf %y, %two : tensor<32x64xf16>
    %d = tt.dot %x, %ys, %acc : tensor<64x32xf16> * tensor<32x64xf16> -> tensor<64x64xf32>
    tt.store %pc, %d : tensor<64x64x!tt.ptr<f32>>
    %npa = tt.addptr %ppa, %stepA : tensor<64x32x!tt.ptr<f16>>, tensor<64x32xi32>
    %npb = tt.addptr %ppb, %stepB : tensor<32x64x!tt.ptr<f16>>, tensor<32x64xi32>
    scf.yield %npa, %npb, %d : tensor<64x32x!tt.ptr<f16>>, tensor<32x64x!tt.ptr<f16>>, tensor<64x64xf32>
  }
  // A volatile load.
  %r2:3 = scf.for %k = %c0 to %n step %c1 iter_args(%ppa = %pa, %ppb = %pb, %acc = %r1#2) -> (tensor<64x32x!tt.ptr<f16>>, tensor<32x64x!tt.ptr<f16>>, tensor<64x64xf32>) : i32 {
    %x = tt.load %ppa {isVolatile = true} : tensor<64x32x!tt.ptr<f16>>
    %y = tt.load %ppb : tensor<32x64x!tt.ptr<f16>>
    %ys = arith.mulf %y, %two : tensor<32x64xf16>
    %d = tt.dot %x, %ys, %acc : tensor<64x32xf16> * tensor<32x64xf16> -> tensor<64x64xf32>
    %npa = tt.addptr %ppa, %stepA : tensor<64x32x!tt.ptr<f16>>, tensor<64x32xi32>
    %npb = tt.addptr %ppb, %stepB : tensor<32x64x!tt.ptr<f16>>, tensor<32x64xi32>
    scf.yield %npa, %npb, %d : tensor<64x32x!tt.ptr<f16>>, tensor<32x64x!tt.ptr<f16>>, tensor<64x64xf32>
  }
  // B's row offsets read from memory in the loop.
  %ip = tt.splat %idx : !tt.ptr<i32> -> tensor<32x!tt.ptr<i32>>
  %ipk = tt.addptr %ip, %r32 : tensor<32x!tt.ptr<i32>>, tensor<32xi32>
  %r3:2 = scf.for %k = %c0 to %n step %c1 iter_args(%ppa = %pa, %acc = %r2#2) -> (tensor<64x32x!tt.ptr<f16>>, tensor<64x64xf32>) : i32 {
    %x = tt.load %ppa : tensor<64x32x!tt.ptr<f16>>
    %rows = tt.load %ipk : tensor<32x!tt.ptr<i32>>
    %rows2 = tt.expand_dims %rows {axis = 1 : i32} : tensor<32xi32> -> tensor<32x1xi32>
    %rowsb = tt.broadcast %rows2 : tensor<32x1xi32> -> tensor<32x64xi32>
    %pbk = tt.addptr %pb, %rowsb : tensor<32x64x!tt.ptr<f16>>, tensor<32x64xi32>
    %y = tt.load %pbk : tensor<32x64x!tt.ptr<f16>>
    %ys = arith.mulf %y, %two : tensor<32x64xf16>
    %d = tt.dot %x, %ys, %acc : tensor<64x32xf16> * tensor<32x64xf16> -> tensor<64x64xf32>
    %npa = tt.addptr %ppa, %stepA : tensor<64x32x!tt.ptr<f16>>, tensor<64x32xi32>
    scf.yield %npa, %d : tensor<64x32x!tt.ptr<f16>>, tensor<64x64xf32>
  }
  // A 128x128 f32 B (tf32 dot, scaled): 128 registers per thread.
  %bk2 = tt.expand_dims %r128 {axis = 1 : i32} : tensor<128xi32> -> tensor<128x1xi32>
  %c128k = arith.constant dense<128> : tensor<128x1xi32>
  %bko2 = arith.muli %bk2, %c128k : tensor<128x1xi32>
  %bn2 = tt.expand_dims %r128 {axis = 0 : i32} : tensor<128xi32> -> tensor<1x128xi32>
  %bkb2 = tt.broadcast %bko2 : tensor<128x1xi32> -> tensor<128x128xi32>
  %bnb2 = tt.broadcast %bn2 : tensor<1x128xi32> -> tensor<128x128xi32>
  %boff2 = arith.addi %bkb2, %bnb2 : tensor<128x128xi32>
  %pbf0 = tt.splat %bf : !tt.ptr<f32> -> tensor<128x128x!tt.ptr<f32>>
  %pbf = tt.addptr %pbf0, %boff2 : tensor<128x128x!tt.ptr<f32>>, tensor<128x128xi32>
  %stepBF = arith.constant dense<16384> : tensor<128x128xi32>
  %twof = arith.constant dense<2.0> : tensor<128x128xf32>
  %aff = arith.constant dense<1.0> : tensor<64x128xf32>
  %r4:2 = scf.for %k = %c0 to %n step %c1 iter_args(%ppb = %pbf, %acc = %zero128) -> (tensor<128x128x!tt.ptr<f32>>, tensor<64x128xf32>) : i32 {
    %y = tt.load %ppb : tensor<128x128x!tt.ptr<f32>>
    %ys = arith.mulf %y, %twof : tensor<128x128xf32>
    %d = tt.dot %aff, %ys, %acc, inputPrecision = tf32 : tensor<64x128xf32> * tensor<128x128xf32> -> tensor<64x128xf32>
    %npb = tt.addptr %ppb, %stepBF : tensor<128x128x!tt.ptr<f32>>, tensor<128x128xi32>
    scf.yield %npb, %d : tensor<128x128x!tt.ptr<f32>>, tensor<64x128xf32>
  }
  // No dot: a row sum.
  %r5:2 = scf.for %k = %c0 to %n step %c1 iter_args(%ppa = %pa, %sum = %r3#1) -> (tensor<64x32x!tt.ptr<f16>>, tensor<64x64xf32>) : i32 {
    %x = tt.load %ppa : tensor<64x32x!tt.ptr<f16>>
    %x32 = arith.extf %x : tensor<64x32xf16> to tensor<64x32xf32>
    %rs = "tt.reduce"(%x32) <{axis = 1 : i32}> ({
    ^bb0(%l: f32, %r: f32):
      %s = arith.addf %l, %r : f32
      tt.reduce.return %s : f32
    }) : (tensor<64x32xf32>) -> tensor<64xf32>
    %rs2 = tt.expand_dims %rs {axis = 1 : i32} : tensor<64xf32> -> tensor<64x1xf32>
    %rsb = tt.broadcast %rs2 : tensor<64x1xf32> -> tensor<64x64xf32>
    %ns = arith.addf %sum, %rsb : tensor<64x64xf32>
    %npa = tt.addptr %ppa, %stepA : tensor<64x32x!tt.ptr<f16>>, tensor<64x32xi32>
    scf.yield %npa, %ns : tensor<64x32x!tt.ptr<f16>>, tensor<64x64xf32>
  }
  tt.store %pc, %r5#1 : tensor<64x64x!tt.ptr<f32>>
  %pc2 = tt.addptr %pc, %coff : tensor<64x64x!tt.ptr<f32>>, tensor<64x64xi32>
  %r4s = "tt.reduce"(%r4#1) <{axis = 1 : i32}> ({
  ^bb0(%l: f32, %r: f32):
    %s = arith.addf %l, %r : f32
    tt.reduce.return %s : f32
  }) : (tensor<64x128xf32>) -> tensor<64xf32>
  %r4s2 = tt.expand_dims %r4s {axis = 1 : i32} : tensor<64xf32> -> tensor<64x1xf32>
  %r4sb = tt.broadcast %r4s2 : tensor<64x1xf32> -> tensor<64x64xf32>
  tt.store %pc2, %r4sb : tensor<64x64x!tt.ptr<f32>>
  tt.return
}

// -----

// Left alone for register pressure: a 64x128 f32 accumulator on 4 warps
// (64 registers per thread), A 64x64 and B 64x128 f16 tiles (48), and B
// upcast to f32 to be scaled (64): 176 > 144 (kMaxPrefetchPressureRegisters).
// The same loop with B scaled in f16 (a 32-register temporary, 144) is
// prefetched.
// CHECK-LABEL: tt.func public @pressure
// CHECK: scf.for
// CHECK-NEXT: tt.load
// CHECK: tt.dot %{{[0-9]+}},
// CHECK: scf.for {{.*}} -> ({{.*}}, tensor<64x64xf16, {{.*}}>, tensor<64x128xf16, {{.*}}>)
// CHECK: tt.dot %arg
tt.func public @pressure(%a: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %b: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %c: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %n: i32) {
  %zero = arith.constant dense<0.0> : tensor<64x128xf32>
  %two = arith.constant dense<2.0> : tensor<64x128xf32>
  %twoh = arith.constant dense<2.0> : tensor<64x128xf16>
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %stepA = arith.constant dense<64> : tensor<64x64xi32>
  %stepB = arith.constant dense<8192> : tensor<64x128xi32>
  %r64 = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
  %r128 = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32>
  %am = tt.expand_dims %r64 {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
  %c64v = arith.constant dense<64> : tensor<64x1xi32>
  %amo = arith.muli %am, %c64v : tensor<64x1xi32>
  %ak = tt.expand_dims %r64 {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
  %amb = tt.broadcast %amo : tensor<64x1xi32> -> tensor<64x64xi32>
  %akb = tt.broadcast %ak : tensor<1x64xi32> -> tensor<64x64xi32>
  %aoff = arith.addi %amb, %akb : tensor<64x64xi32>
  %pa0 = tt.splat %a : !tt.ptr<f16> -> tensor<64x64x!tt.ptr<f16>>
  %pa = tt.addptr %pa0, %aoff : tensor<64x64x!tt.ptr<f16>>, tensor<64x64xi32>
  %c128k = arith.constant dense<128> : tensor<64x1xi32>
  %bko = arith.muli %am, %c128k : tensor<64x1xi32>
  %bn = tt.expand_dims %r128 {axis = 0 : i32} : tensor<128xi32> -> tensor<1x128xi32>
  %bkb = tt.broadcast %bko : tensor<64x1xi32> -> tensor<64x128xi32>
  %bnb = tt.broadcast %bn : tensor<1x128xi32> -> tensor<64x128xi32>
  %boff = arith.addi %bkb, %bnb : tensor<64x128xi32>
  %pb0 = tt.splat %b : !tt.ptr<f16> -> tensor<64x128x!tt.ptr<f16>>
  %pb = tt.addptr %pb0, %boff : tensor<64x128x!tt.ptr<f16>>, tensor<64x128xi32>
  %r:3 = scf.for %k = %c0 to %n step %c1 iter_args(%ppa = %pa, %ppb = %pb, %acc = %zero) -> (tensor<64x64x!tt.ptr<f16>>, tensor<64x128x!tt.ptr<f16>>, tensor<64x128xf32>) : i32 {
    %x = tt.load %ppa : tensor<64x64x!tt.ptr<f16>>
    %y = tt.load %ppb : tensor<64x128x!tt.ptr<f16>>
    %y32 = arith.extf %y : tensor<64x128xf16> to tensor<64x128xf32>
    %ys32 = arith.mulf %y32, %two : tensor<64x128xf32>
    %ys = arith.truncf %ys32 : tensor<64x128xf32> to tensor<64x128xf16>
    %d = tt.dot %x, %ys, %acc : tensor<64x64xf16> * tensor<64x128xf16> -> tensor<64x128xf32>
    %npa = tt.addptr %ppa, %stepA : tensor<64x64x!tt.ptr<f16>>, tensor<64x64xi32>
    %npb = tt.addptr %ppb, %stepB : tensor<64x128x!tt.ptr<f16>>, tensor<64x128xi32>
    scf.yield %npa, %npb, %d : tensor<64x64x!tt.ptr<f16>>, tensor<64x128x!tt.ptr<f16>>, tensor<64x128xf32>
  }
  %r2:3 = scf.for %k = %c0 to %n step %c1 iter_args(%ppa = %pa, %ppb = %pb, %acc = %r#2) -> (tensor<64x64x!tt.ptr<f16>>, tensor<64x128x!tt.ptr<f16>>, tensor<64x128xf32>) : i32 {
    %x = tt.load %ppa : tensor<64x64x!tt.ptr<f16>>
    %y = tt.load %ppb : tensor<64x128x!tt.ptr<f16>>
    %ys = arith.mulf %y, %twoh : tensor<64x128xf16>
    %d = tt.dot %x, %ys, %acc : tensor<64x64xf16> * tensor<64x128xf16> -> tensor<64x128xf32>
    %npa = tt.addptr %ppa, %stepA : tensor<64x64x!tt.ptr<f16>>, tensor<64x64xi32>
    %npb = tt.addptr %ppb, %stepB : tensor<64x128x!tt.ptr<f16>>, tensor<64x128xi32>
    scf.yield %npa, %npb, %d : tensor<64x64x!tt.ptr<f16>>, tensor<64x128x!tt.ptr<f16>>, tensor<64x128xf32>
  }
  %cm = tt.expand_dims %r64 {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
  %cmo = arith.muli %cm, %c128k : tensor<64x1xi32>
  %cmb = tt.broadcast %cmo : tensor<64x1xi32> -> tensor<64x128xi32>
  %coff = arith.addi %cmb, %bnb : tensor<64x128xi32>
  %pc0 = tt.splat %c : !tt.ptr<f32> -> tensor<64x128x!tt.ptr<f32>>
  %pc = tt.addptr %pc0, %coff : tensor<64x128x!tt.ptr<f32>>, tensor<64x128xi32>
  tt.store %pc, %r2#2 : tensor<64x128x!tt.ptr<f32>>
  tt.return
}

// -----

// A loop from 3 in steps of 2: the next iteration is iv + 2, whether it
// exists asked as iv + 1 * 2 < ub in i64; the first one's tiles before the
// loop are those of iteration 3. A tile of pointers (a gather's row
// pointers, read in the loop) is prefetched too, counted at 64 bits per
// element.
// CHECK-LABEL: tt.func public @lb_step
// CHECK: %[[LB:.+]] = arith.extsi %c3_i32 : i32 to i64
// CHECK: arith.addi %[[LB]], %{{.+}} : i64
// CHECK: tt.load %{{.+}}, %{{.+}} : tensor<64x32x!tt.ptr<f16>
// CHECK: tt.load %{{.+}}, %{{.+}} : tensor<32x!tt.ptr<!tt.ptr<f32>>
// CHECK: scf.for %[[IV:[^ ]+]] = %c3_i32 to %{{[^ ]+}} step %c2_i32
// CHECK: %[[S64:.+]] = arith.extsi %c2_i32 : i32 to i64
// CHECK: %[[AHEAD:.+]] = arith.muli %[[S64]], %c1_i64 : i64
// CHECK: %[[IV64:.+]] = arith.extsi %[[IV]] : i32 to i64
// CHECK: arith.addi %[[IV64]], %[[AHEAD]] : i64
// CHECK: tt.load %{{.+}}, %{{.+}} : tensor<64x32x!tt.ptr<f16>
// CHECK: tt.load %{{.+}}, %{{.+}} : tensor<32x!tt.ptr<!tt.ptr<f32>>
// CHECK: tt.dot
tt.func public @lb_step(%a: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %b: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %pp: !tt.ptr<!tt.ptr<f32>> {tt.divisibility = 16 : i32}, %c: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %n: i32) {
  %zero = arith.constant dense<0.0> : tensor<64x64xf32>
  %c2 = arith.constant 2 : i32
  %c3 = arith.constant 3 : i32
  %stepA = arith.constant dense<64> : tensor<64x32xi32>
  %r64 = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
  %r32 = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32>
  %am = tt.expand_dims %r64 {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
  %c64v = arith.constant dense<64> : tensor<64x1xi32>
  %amo = arith.muli %am, %c64v : tensor<64x1xi32>
  %ak = tt.expand_dims %r32 {axis = 0 : i32} : tensor<32xi32> -> tensor<1x32xi32>
  %amb = tt.broadcast %amo : tensor<64x1xi32> -> tensor<64x32xi32>
  %akb = tt.broadcast %ak : tensor<1x32xi32> -> tensor<64x32xi32>
  %aoff = arith.addi %amb, %akb : tensor<64x32xi32>
  %pa0 = tt.splat %a : !tt.ptr<f16> -> tensor<64x32x!tt.ptr<f16>>
  %pa = tt.addptr %pa0, %aoff : tensor<64x32x!tt.ptr<f16>>, tensor<64x32xi32>
  %bk = tt.expand_dims %r32 {axis = 1 : i32} : tensor<32xi32> -> tensor<32x1xi32>
  %c64k = arith.constant dense<64> : tensor<32x1xi32>
  %bko = arith.muli %bk, %c64k : tensor<32x1xi32>
  %bn = tt.expand_dims %r64 {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
  %bkb = tt.broadcast %bko : tensor<32x1xi32> -> tensor<32x64xi32>
  %bnb = tt.broadcast %bn : tensor<1x64xi32> -> tensor<32x64xi32>
  %boff = arith.addi %bkb, %bnb : tensor<32x64xi32>
  %pb0 = tt.splat %b : !tt.ptr<f16> -> tensor<32x64x!tt.ptr<f16>>
  %pb = tt.addptr %pb0, %boff : tensor<32x64x!tt.ptr<f16>>, tensor<32x64xi32>
  %y = tt.load %pb : tensor<32x64x!tt.ptr<f16>>
  %pps = tt.splat %pp : !tt.ptr<!tt.ptr<f32>> -> tensor<32x!tt.ptr<!tt.ptr<f32>>>
  %ppv = tt.addptr %pps, %r32 : tensor<32x!tt.ptr<!tt.ptr<f32>>>, tensor<32xi32>
  %q0 = tt.splat %c : !tt.ptr<f32> -> tensor<32x!tt.ptr<f32>>
  %r:3 = scf.for %k = %c3 to %n step %c2 iter_args(%ppa = %pa, %acc = %zero, %q = %q0) -> (tensor<64x32x!tt.ptr<f16>>, tensor<64x64xf32>, tensor<32x!tt.ptr<f32>>) : i32 {
    %x = tt.load %ppa : tensor<64x32x!tt.ptr<f16>>
    %p = tt.load %ppv : tensor<32x!tt.ptr<!tt.ptr<f32>>>
    %d = tt.dot %x, %y, %acc : tensor<64x32xf16> * tensor<32x64xf16> -> tensor<64x64xf32>
    %npa = tt.addptr %ppa, %stepA : tensor<64x32x!tt.ptr<f16>>, tensor<64x32xi32>
    scf.yield %npa, %d, %p : tensor<64x32x!tt.ptr<f16>>, tensor<64x64xf32>, tensor<32x!tt.ptr<f32>>
  }
  %cm = tt.expand_dims %r64 {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
  %cmo = arith.muli %cm, %c64v : tensor<64x1xi32>
  %cmb = tt.broadcast %cmo : tensor<64x1xi32> -> tensor<64x64xi32>
  %cnb = tt.broadcast %bn : tensor<1x64xi32> -> tensor<64x64xi32>
  %coff = arith.addi %cmb, %cnb : tensor<64x64xi32>
  %pc0 = tt.splat %c : !tt.ptr<f32> -> tensor<64x64x!tt.ptr<f32>>
  %pc = tt.addptr %pc0, %coff : tensor<64x64x!tt.ptr<f32>>, tensor<64x64xi32>
  tt.store %pc, %r#1 : tensor<64x64x!tt.ptr<f32>>
  %qv = arith.constant dense<1.0> : tensor<32xf32>
  tt.store %r#2, %qv : tensor<32x!tt.ptr<f32>>
  tt.return
}
