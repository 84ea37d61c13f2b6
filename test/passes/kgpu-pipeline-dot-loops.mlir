// RUN: kiln-opt %s -split-input-file -kgpu-assign-layouts="num-warps=4 mma-version=2" -kgpu-pipeline-dot-loops=num-stages=3 | FileCheck %s --enable-var-scope
// RUN: kiln-opt %s -split-input-file -kgpu-assign-layouts="num-warps=4 mma-version=2" -kgpu-pipeline-dot-loops=num-stages=3 -kgpu-convert-to-llvm | FileCheck %s --check-prefix=LLVM --enable-var-scope
// RUN: kiln-opt %s -split-input-file -kgpu-assign-layouts="num-warps=4 mma-version=2" -kgpu-pipeline-dot-loops=num-stages=1 | FileCheck %s --check-prefix=OFF
// RUN: kiln-opt %s -split-input-file -kgpu-assign-layouts="num-warps=4 mma-version=2" -kgpu-pipeline-dot-loops=num-stages=3 | FileCheck %s --check-prefix=KMAJOR --enable-var-scope
// RUN: kiln-opt %s -split-input-file -kgpu-assign-layouts="num-warps=4 mma-version=2" -kgpu-pipeline-dot-loops=num-stages=3 -kgpu-convert-to-llvm | FileCheck %s --check-prefix=KMAJOR-LLVM --enable-var-scope

// The matmul K loop: A (64x32) and B (32x64) f16 tiles loaded through
// loop-carried pointers under a K-bound mask, multiplied into an mma.sync
// accumulator. With 3 stages: a prologue copies the tiles of iterations 0
// and 1 into slots 0 and 1 (one async group each, masked off when the loop
// has fewer iterations); each iteration waits until at most 1 group is in
// flight (its own slot has landed), copies iteration i+2 into slot
// (i+2) % 3, and multiplies slot i % 3 from shared memory; after the loop
// every copy is drained.
// Shared memory: A slots 64 x (32 + 8) x 2 B = 5120 B, B slots 32 x (64 + 8)
// x 2 B = 4608 B, 3 of each: B's region starts at 15360, 29184 B in all.
// CHECK-LABEL: tt.func public @pipelined
// CHECK: kgpu.async_wait 0
// CHECK: kgpu.async_copy {{.*}} {offset = 0 : i64, rowStride = 40 : i64, slotBytes = 5120 : i64}
// CHECK: kgpu.async_copy {{.*}} {offset = 15360 : i64, rowStride = 72 : i64, slotBytes = 4608 : i64}
// CHECK: kgpu.async_commit_group
// CHECK: kgpu.async_copy
// CHECK: kgpu.async_copy
// CHECK: kgpu.async_commit_group
// CHECK: scf.for %[[IV:[^ ]+]] = {{.*}} to %[[UB:[^ ]+]] step %[[STEP:[^ ]+]] iter_args(%{{[^ ]+}} = %{{[^ ]+}}, %[[SLOT:[^ ]+]] = %c0_i32
// CHECK-NOT: arith.remsi
// CHECK: kgpu.async_wait 1
// CHECK: %[[REFILL:.+]] = arith.select %{{.+}}, %c2_i32, %{{.+}} : i32
// Whether iteration i + 2 exists is asked in i64 (the i32 sum wraps near
// INT32_MAX and would read as an iteration that exists).
// CHECK: %[[S64:.+]] = arith.extsi %[[STEP]] : i32 to i64
// CHECK: %[[AHEAD:.+]] = arith.muli %[[S64]], %c2_i64 : i64
// CHECK: %[[IV64:.+]] = arith.extsi %[[IV]] : i32 to i64
// CHECK: %[[NEXT:.+]] = arith.addi %[[IV64]], %[[AHEAD]] : i64
// CHECK: %[[UB64:.+]] = arith.extsi %[[UB]] : i32 to i64
// CHECK: arith.cmpi slt, %[[NEXT]], %[[UB64]] : i64
// CHECK: kgpu.async_copy {{.*}} slot %[[REFILL]]
// CHECK: kgpu.async_copy {{.*}} slot %[[REFILL]]
// CHECK: kgpu.async_commit_group
// CHECK: kgpu.local_dot %{{.+}} slot %[[SLOT]] {aOffset = 0 : i64, aSlotBytes = 5120 : i64, aType = tensor<64x32xf16, {{.*}}>, bOffset = 15360 : i64, bSlotBytes = 4608 : i64, bType = tensor<32x64xf16, {{.*}}>, numSlots = 3 : i32}
// CHECK-NOT: arith.remsi
// CHECK: %[[NEXT:.+]] = arith.select %{{.+}}, %c0_i32{{.*}}, %{{.+}} : i32
// CHECK: scf.yield %{{.+}}, %[[NEXT]]
// CHECK: kgpu.async_wait 0
// CHECK-NOT: tt.load
// CHECK-NOT: tt.dot
// CHECK: tt.return
//
// Per stage and thread (128 threads): A's 64x32 and B's 32x64 in 2
// cp.async of 16 bytes each (.cg; A's mask's src-size operand zero-fills
// rows past K). B shares its column indices with the epilogue's f32 store:
// kgpu-assign-layouts gives each use a copy of them, so that B is not
// loaded in the store's layout (4 consecutive elements per thread, 8-byte
// copies).
// LLVM: kgpu.shared = 29184 : i32
// LLVM-LABEL: llvm.func @pipelined
// LLVM-COUNT-4: nvvm.cp.async.shared.global {{.*}}, 16, cache = cg, {{.*}} : !llvm.ptr<3>, !llvm.ptr<1>, i32
// LLVM-NEXT: nvvm.cp.async.commit.group
// LLVM-COUNT-4: nvvm.cp.async.shared.global {{.*}}, 16, cache = cg
// LLVM-NEXT: nvvm.cp.async.commit.group
// LLVM: nvvm.cp.async.wait.group 1
// LLVM: nvvm.barrier0
// LLVM-COUNT-4: nvvm.cp.async.shared.global {{.*}}, 16, cache = cg
// LLVM-NEXT: nvvm.cp.async.commit.group
// LLVM: nvvm.ldmatrix
// LLVM: nvvm.mma.sync
// LLVM: nvvm.cp.async.wait.group 0
// OFF-LABEL: tt.func public @pipelined
// OFF-NOT: kgpu.async_copy
// OFF: tt.dot
tt.func public @pipelined(%a: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %b: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %c: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %K: i32 {tt.divisibility = 16 : i32}, %n: i32) {
  %zero = arith.constant dense<0.0> : tensor<64x64xf32>
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c32 = arith.constant 32 : i32
  %stepA = arith.constant dense<32> : tensor<64x32xi32>
  %rk = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32>
  %rk2 = tt.expand_dims %rk {axis = 0 : i32} : tensor<32xi32> -> tensor<1x32xi32>
  %rka = tt.broadcast %rk2 : tensor<1x32xi32> -> tensor<64x32xi32>
  %pa = tt.splat %a : !tt.ptr<f16> -> tensor<64x32x!tt.ptr<f16>>
  %pa0 = tt.addptr %pa, %rka : tensor<64x32x!tt.ptr<f16>>, tensor<64x32xi32>
  %rn = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
  %rn2 = tt.expand_dims %rn {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
  %rnb = tt.broadcast %rn2 : tensor<1x64xi32> -> tensor<32x64xi32>
  %pb = tt.splat %b : !tt.ptr<f16> -> tensor<32x64x!tt.ptr<f16>>
  %pb0 = tt.addptr %pb, %rnb : tensor<32x64x!tt.ptr<f16>>, tensor<32x64xi32>
  %stepB = arith.constant dense<2048> : tensor<32x64xi32>
  %r:3 = scf.for %k = %c0 to %n step %c1 iter_args(%xa = %pa0, %xb = %pb0, %acc = %zero) -> (tensor<64x32x!tt.ptr<f16>>, tensor<32x64x!tt.ptr<f16>>, tensor<64x64xf32>) : i32 {
    %kk = arith.muli %k, %c32 : i32
    %left = arith.subi %K, %kk : i32
    %lefts = tt.splat %left : i32 -> tensor<1x32xi32>
    %m1 = arith.cmpi slt, %rk2, %lefts : tensor<1x32xi32>
    %ma = tt.broadcast %m1 : tensor<1x32xi1> -> tensor<64x32xi1>
    %cst = arith.constant dense<0.0> : tensor<64x32xf16>
    %va = tt.load %xa, %ma, %cst : tensor<64x32x!tt.ptr<f16>>
    %vb = tt.load %xb : tensor<32x64x!tt.ptr<f16>>
    %d = tt.dot %va, %vb, %acc : tensor<64x32xf16> * tensor<32x64xf16> -> tensor<64x64xf32>
    %na = tt.addptr %xa, %stepA : tensor<64x32x!tt.ptr<f16>>, tensor<64x32xi32>
    %nb = tt.addptr %xb, %stepB : tensor<32x64x!tt.ptr<f16>>, tensor<32x64xi32>
    scf.yield %na, %nb, %d : tensor<64x32x!tt.ptr<f16>>, tensor<32x64x!tt.ptr<f16>>, tensor<64x64xf32>
  }
  %rc = tt.broadcast %rn2 : tensor<1x64xi32> -> tensor<64x64xi32>
  %pc = tt.splat %c : !tt.ptr<f32> -> tensor<64x64x!tt.ptr<f32>>
  %pc2 = tt.addptr %pc, %rc : tensor<64x64x!tt.ptr<f32>>, tensor<64x64xi32>
  tt.store %pc2, %r#2 : tensor<64x64x!tt.ptr<f32>>
  tt.return
}

// -----

// Not pipelined: the body also stores (only the loads' address arithmetic,
// the loads and the dot may be in the loop), and a load with a nonzero
// `other` could not be zero-filled.
// CHECK-LABEL: tt.func public @not_pipelined
// CHECK-NOT: kgpu.async_copy
// CHECK: tt.dot
// CHECK: tt.dot
// CHECK: tt.load {{.*}}isVolatile = true
// CHECK: tt.dot
tt.func public @not_pipelined(%a: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %p: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %n: i32) {
  %zero = arith.constant dense<0.0> : tensor<16x16xf32>
  %one = arith.constant dense<1.0> : tensor<16x16xf16>
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %r = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
  %r2 = tt.expand_dims %r {axis = 0 : i32} : tensor<16xi32> -> tensor<1x16xi32>
  %rb = tt.broadcast %r2 : tensor<1x16xi32> -> tensor<16x16xi32>
  %pa = tt.splat %a : !tt.ptr<f16> -> tensor<16x16x!tt.ptr<f16>>
  %pa0 = tt.addptr %pa, %rb : tensor<16x16x!tt.ptr<f16>>, tensor<16x16xi32>
  %m = arith.constant dense<true> : tensor<16x16xi1>
  %x = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<16x16xf32>) : i32 {
    %va = tt.load %pa0 : tensor<16x16x!tt.ptr<f16>>
    %vb = tt.load %pa0 : tensor<16x16x!tt.ptr<f16>>
    %d = tt.dot %va, %vb, %acc : tensor<16x16xf16> * tensor<16x16xf16> -> tensor<16x16xf32>
    %ps = tt.splat %p : !tt.ptr<f32> -> tensor<16x16x!tt.ptr<f32>>
    %pf = tt.addptr %ps, %rb : tensor<16x16x!tt.ptr<f32>>, tensor<16x16xi32>
    tt.store %pf, %d : tensor<16x16x!tt.ptr<f32>>
    scf.yield %d : tensor<16x16xf32>
  }
  %y = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %x) -> (tensor<16x16xf32>) : i32 {
    %va = tt.load %pa0, %m, %one : tensor<16x16x!tt.ptr<f16>>
    %vb = tt.load %pa0 : tensor<16x16x!tt.ptr<f16>>
    %d = tt.dot %va, %vb, %acc : tensor<16x16xf16> * tensor<16x16xf16> -> tensor<16x16xf32>
    scf.yield %d : tensor<16x16xf32>
  }
  // Nor a volatile load.
  %z = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %y) -> (tensor<16x16xf32>) : i32 {
    %va = tt.load %pa0 {isVolatile = true} : tensor<16x16x!tt.ptr<f16>>
    %vb = tt.load %pa0 : tensor<16x16x!tt.ptr<f16>>
    %d = tt.dot %va, %vb, %acc : tensor<16x16xf16> * tensor<16x16xf16> -> tensor<16x16xf32>
    scf.yield %d : tensor<16x16xf32>
  }
  %ps = tt.splat %p : !tt.ptr<f32> -> tensor<16x16x!tt.ptr<f32>>
  %pf = tt.addptr %ps, %rb : tensor<16x16x!tt.ptr<f32>>, tensor<16x16xi32>
  tt.store %pf, %z : tensor<16x16x!tt.ptr<f32>>
  tt.return
}

// -----

// A K-contiguous B (B = W^T, as Inductor's mm templates read weights): B's
// threads run along K, so its tile is copied transposed (N rows of K
// elements, padded) and read with ldmatrix without .trans. With wgmma the
// transposed B is K-major like A (swizzle 1, imm-trans-b 0: layoutB col).
// KMAJOR-LABEL: tt.func public @k_major_b
// KMAJOR: kgpu.async_copy {{.*}} {offset = 0 : i64, rowStride = 40 : i64, slotBytes = 5120 : i64} : tensor<64x32x!tt.ptr<f16>
// KMAJOR: kgpu.async_copy {{.*}} {offset = 15360 : i64, rowStride = 40 : i64, slotBytes = 5120 : i64, transpose} : tensor<32x64x!tt.ptr<f16>
// KMAJOR: kgpu.local_dot {{.*}}bKMajor
// KMAJOR-LLVM-LABEL: llvm.func @k_major_b
// KMAJOR-LLVM: nvvm.ldmatrix {{.*}}layout = #nvvm.mma_layout<row>
// KMAJOR-LLVM-NOT: layout = #nvvm.mma_layout<col>
// KMAJOR-LLVM: llvm.return
tt.func public @k_major_b(%a: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %b: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %c: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %n: i32) {
  %zero = arith.constant dense<0.0> : tensor<64x64xf32>
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c32 = arith.constant 32 : i32
  %ldb = arith.constant dense<4096> : tensor<1x64xi32>
  %rk = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32>
  %rka = tt.expand_dims %rk {axis = 0 : i32} : tensor<32xi32> -> tensor<1x32xi32>
  %rkb = tt.expand_dims %rk {axis = 1 : i32} : tensor<32xi32> -> tensor<32x1xi32>
  %rnB = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
  %rnB2 = tt.expand_dims %rnB {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
  %rnb = arith.muli %rnB2, %ldb : tensor<1x64xi32>
  %rn = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
  %rn2 = tt.expand_dims %rn {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
  %r = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<64x64xf32>) : i32 {
    %kk = arith.muli %k, %c32 : i32
    %kks = tt.splat %kk : i32 -> tensor<1x32xi32>
    %ka = arith.addi %rka, %kks : tensor<1x32xi32>
    %kab = tt.broadcast %ka : tensor<1x32xi32> -> tensor<64x32xi32>
    %pa = tt.splat %a : !tt.ptr<f16> -> tensor<64x32x!tt.ptr<f16>>
    %pa1 = tt.addptr %pa, %kab : tensor<64x32x!tt.ptr<f16>>, tensor<64x32xi32>
    %kbs = tt.splat %kk : i32 -> tensor<32x1xi32>
    %kb = arith.addi %rkb, %kbs : tensor<32x1xi32>
    %kbb = tt.broadcast %kb : tensor<32x1xi32> -> tensor<32x64xi32>
    %nbb = tt.broadcast %rnb : tensor<1x64xi32> -> tensor<32x64xi32>
    %offb = arith.addi %kbb, %nbb : tensor<32x64xi32>
    %pb = tt.splat %b : !tt.ptr<f16> -> tensor<32x64x!tt.ptr<f16>>
    %pb1 = tt.addptr %pb, %offb : tensor<32x64x!tt.ptr<f16>>, tensor<32x64xi32>
    %va = tt.load %pa1 : tensor<64x32x!tt.ptr<f16>>
    %vb = tt.load %pb1 : tensor<32x64x!tt.ptr<f16>>
    %d = tt.dot %va, %vb, %acc : tensor<64x32xf16> * tensor<32x64xf16> -> tensor<64x64xf32>
    scf.yield %d : tensor<64x64xf32>
  }
  %rc = tt.broadcast %rn2 : tensor<1x64xi32> -> tensor<64x64xi32>
  %pc = tt.splat %c : !tt.ptr<f32> -> tensor<64x64x!tt.ptr<f32>>
  %pc2 = tt.addptr %pc, %rc : tensor<64x64x!tt.ptr<f32>>, tensor<64x64xi32>
  tt.store %pc2, %r : tensor<64x64x!tt.ptr<f32>>
  tt.return
}

// -----

// B = tt.trans of an N x K tile loaded along K (B^T in memory, as a
// transpose written in the kernel reads it): the tile is copied as loaded,
// N rows of K elements (padded), not transposed; local_dot reads it as a
// K-major B, and the trans goes away.
// KMAJOR-LABEL: tt.func public @trans_b
// KMAJOR: kgpu.async_copy {{.*}} {offset = 15360 : i64, rowStride = 40 : i64, slotBytes = 5120 : i64} : tensor<64x32x!tt.ptr<f16>
// KMAJOR: scf.for
// KMAJOR-NOT: tt.trans
// KMAJOR: kgpu.local_dot {{.*}}bKMajor, bOffset = 15360 : i64, bSlotBytes = 5120 : i64, bType = tensor<32x64xf16
// KMAJOR-LLVM-LABEL: llvm.func @trans_b
// KMAJOR-LLVM: nvvm.ldmatrix {{.*}}layout = #nvvm.mma_layout<row>
// KMAJOR-LLVM-NOT: layout = #nvvm.mma_layout<col>
// KMAJOR-LLVM: llvm.return
tt.func public @trans_b(%a: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %b: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %c: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %n: i32) {
  %zero = arith.constant dense<0.0> : tensor<64x64xf32>
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c32 = arith.constant 32 : i32
  %ldb = arith.constant dense<4096> : tensor<64x1xi32>
  %rk = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32>
  %rka = tt.expand_dims %rk {axis = 0 : i32} : tensor<32xi32> -> tensor<1x32xi32>
  %rn = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
  %rn1 = tt.expand_dims %rn {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
  %rnb = arith.muli %rn1, %ldb : tensor<64x1xi32>
  %rn2 = tt.expand_dims %rn {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
  %r = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<64x64xf32>) : i32 {
    %kk = arith.muli %k, %c32 : i32
    %kks = tt.splat %kk : i32 -> tensor<1x32xi32>
    %ka = arith.addi %rka, %kks : tensor<1x32xi32>
    %kab = tt.broadcast %ka : tensor<1x32xi32> -> tensor<64x32xi32>
    %pa = tt.splat %a : !tt.ptr<f16> -> tensor<64x32x!tt.ptr<f16>>
    %pa1 = tt.addptr %pa, %kab : tensor<64x32x!tt.ptr<f16>>, tensor<64x32xi32>
    %nbb = tt.broadcast %rnb : tensor<64x1xi32> -> tensor<64x32xi32>
    %offb = arith.addi %nbb, %kab : tensor<64x32xi32>
    %pb = tt.splat %b : !tt.ptr<f16> -> tensor<64x32x!tt.ptr<f16>>
    %pb1 = tt.addptr %pb, %offb : tensor<64x32x!tt.ptr<f16>>, tensor<64x32xi32>
    %va = tt.load %pa1 : tensor<64x32x!tt.ptr<f16>>
    %vbt = tt.load %pb1 : tensor<64x32x!tt.ptr<f16>>
    %vb = tt.trans %vbt {order = array<i32: 1, 0>} : tensor<64x32xf16> -> tensor<32x64xf16>
    %d = tt.dot %va, %vb, %acc : tensor<64x32xf16> * tensor<32x64xf16> -> tensor<64x64xf32>
    scf.yield %d : tensor<64x64xf32>
  }
  %rc = tt.broadcast %rn2 : tensor<1x64xi32> -> tensor<64x64xi32>
  %pc = tt.splat %c : !tt.ptr<f32> -> tensor<64x64x!tt.ptr<f32>>
  %pc2 = tt.addptr %pc, %rc : tensor<64x64x!tt.ptr<f32>>, tensor<64x64xi32>
  tt.store %pc2, %r : tensor<64x64x!tt.ptr<f32>>
  tt.return
}

// -----

// A's mask varies along M (a convolution's padding rows): pipelined too.
// Each copy is masked by the load's mask (computed for its iteration)
// and the iteration's existence; masked-off elements are zero-filled, the
// `other` of the load.
// KMAJOR-LABEL: tt.func public @mask_along_m
// KMAJOR: %[[M0:.*]] = arith.andi %{{.*}}, %{{.*}} : tensor<64x64xi1, #blocked>
// KMAJOR-NEXT: kgpu.async_copy %{{.*}}, %[[M0]] slot %{{.*}} {offset = 0 : i64, rowStride = 72 : i64, slotBytes = 9216 : i64}
// KMAJOR: scf.for
// KMAJOR: %[[MI:.*]] = arith.andi %{{.*}}, %{{.*}} : tensor<64x64xi1, #blocked>
// KMAJOR-NEXT: kgpu.async_copy %{{.*}}, %[[MI]] slot %{{.*}} {offset = 0 : i64
// KMAJOR: kgpu.local_dot
// KMAJOR-NOT: tt.dot
tt.func public @mask_along_m(%a: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %c: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %lim: i32, %n: i32) {
  %zero = arith.constant dense<0.0> : tensor<64x64xf32>
  %zf = arith.constant dense<0.0> : tensor<64x64xf16>
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %rm = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
  %rm2 = tt.expand_dims %rm {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
  %rk2 = tt.expand_dims %rm {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
  %rkb = tt.broadcast %rk2 : tensor<1x64xi32> -> tensor<64x64xi32>
  %pa = tt.splat %a : !tt.ptr<f16> -> tensor<64x64x!tt.ptr<f16>>
  %pa1 = tt.addptr %pa, %rkb : tensor<64x64x!tt.ptr<f16>>, tensor<64x64xi32>
  %r = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<64x64xf32>) : i32 {
    %ks = tt.splat %k : i32 -> tensor<64x1xi32>
    %row = arith.addi %rm2, %ks : tensor<64x1xi32>
    %lims = tt.splat %lim : i32 -> tensor<64x1xi32>
    %m1 = arith.cmpi slt, %row, %lims : tensor<64x1xi32>
    %m = tt.broadcast %m1 : tensor<64x1xi1> -> tensor<64x64xi1>
    %va = tt.load %pa1, %m, %zf : tensor<64x64x!tt.ptr<f16>>
    %vb = tt.load %pa1 : tensor<64x64x!tt.ptr<f16>>
    %d = tt.dot %va, %vb, %acc : tensor<64x64xf16> * tensor<64x64xf16> -> tensor<64x64xf32>
    scf.yield %d : tensor<64x64xf32>
  }
  %rc = tt.broadcast %rk2 : tensor<1x64xi32> -> tensor<64x64xi32>
  %pc = tt.splat %c : !tt.ptr<f32> -> tensor<64x64x!tt.ptr<f32>>
  %pc2 = tt.addptr %pc, %rc : tensor<64x64x!tt.ptr<f32>>, tensor<64x64xi32>
  tt.store %pc2, %r : tensor<64x64x!tt.ptr<f32>>
  tt.return
}

// -----

// B re-read every iteration through a pointer defined before the loop (no
// address arithmetic in the body for it): the copies use the outer value.
// KMAJOR-LABEL: tt.func public @invariant_b
// KMAJOR: scf.for
// KMAJOR: kgpu.async_copy
// KMAJOR: kgpu.async_copy %{{.*}}, %{{.*}} slot
// KMAJOR: kgpu.local_dot
tt.func public @invariant_b(%a: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %b: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %c: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %n: i32) {
  %zero = arith.constant dense<0.0> : tensor<64x64xf32>
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c64 = arith.constant 64 : i32
  %rk = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
  %rk2 = tt.expand_dims %rk {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
  %rkb = tt.broadcast %rk2 : tensor<1x64xi32> -> tensor<64x64xi32>
  %pb = tt.splat %b : !tt.ptr<f16> -> tensor<64x64x!tt.ptr<f16>>
  %pb0 = tt.addptr %pb, %rkb : tensor<64x64x!tt.ptr<f16>>, tensor<64x64xi32>
  %r = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<64x64xf32>) : i32 {
    %kk = arith.muli %k, %c64 : i32
    %ks = tt.splat %kk : i32 -> tensor<64x64xi32>
    %ka = arith.addi %rkb, %ks : tensor<64x64xi32>
    %pa = tt.splat %a : !tt.ptr<f16> -> tensor<64x64x!tt.ptr<f16>>
    %pa1 = tt.addptr %pa, %ka : tensor<64x64x!tt.ptr<f16>>, tensor<64x64xi32>
    %va = tt.load %pa1 : tensor<64x64x!tt.ptr<f16>>
    %vb = tt.load %pb0 : tensor<64x64x!tt.ptr<f16>>
    %d = tt.dot %va, %vb, %acc : tensor<64x64xf16> * tensor<64x64xf16> -> tensor<64x64xf32>
    scf.yield %d : tensor<64x64xf32>
  }
  %pc = tt.splat %c : !tt.ptr<f32> -> tensor<64x64x!tt.ptr<f32>>
  %pc2 = tt.addptr %pc, %rkb : tensor<64x64x!tt.ptr<f32>>, tensor<64x64xi32>
  tt.store %pc2, %r : tensor<64x64x!tt.ptr<f32>>
  tt.return
}

// -----

// Not pipelined: the address arithmetic goes through an op that moves data
// through shared memory (tt.trans), which would share bytes with the
// pipeline's slots.
// KMAJOR-LABEL: tt.func public @smem_in_slice
// KMAJOR-NOT: kgpu.async_copy
// KMAJOR: tt.dot
tt.func public @smem_in_slice(%a: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %c: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %n: i32) {
  %zero = arith.constant dense<0.0> : tensor<64x64xf32>
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %rk = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
  %rk2 = tt.expand_dims %rk {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
  %rkb = tt.broadcast %rk2 : tensor<1x64xi32> -> tensor<64x64xi32>
  %pa = tt.splat %a : !tt.ptr<f16> -> tensor<64x64x!tt.ptr<f16>>
  %r = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<64x64xf32>) : i32 {
    %k1 = tt.splat %k : i32 -> tensor<1x1xi32>
    %kt = tt.trans %k1 {order = array<i32: 1, 0>} : tensor<1x1xi32> -> tensor<1x1xi32>
    %ks = tt.unsplat %kt : tensor<1x1xi32> -> i32
    %kk = tt.splat %ks : i32 -> tensor<64x64xi32>
    %ka = arith.addi %rkb, %kk : tensor<64x64xi32>
    %pa1 = tt.addptr %pa, %ka : tensor<64x64x!tt.ptr<f16>>, tensor<64x64xi32>
    %va = tt.load %pa1 : tensor<64x64x!tt.ptr<f16>>
    %vb = tt.load %pa1 : tensor<64x64x!tt.ptr<f16>>
    %d = tt.dot %va, %vb, %acc : tensor<64x64xf16> * tensor<64x64xf16> -> tensor<64x64xf32>
    scf.yield %d : tensor<64x64xf32>
  }
  %pc = tt.splat %c : !tt.ptr<f32> -> tensor<64x64x!tt.ptr<f32>>
  %pc2 = tt.addptr %pc, %rkb : tensor<64x64x!tt.ptr<f32>>, tensor<64x64xi32>
  tt.store %pc2, %r : tensor<64x64x!tt.ptr<f32>>
  tt.return
}
