// RUN: kiln-opt %s -split-input-file -kgpu-assign-layouts="num-warps=4 mma-version=2" -kgpu-pipeline-dot-loops=num-stages=3 | FileCheck %s --enable-var-scope
// RUN: kiln-opt %s -split-input-file -kgpu-assign-layouts="num-warps=4 mma-version=2" -kgpu-pipeline-dot-loops=num-stages=3 -kgpu-convert-to-llvm | FileCheck %s --check-prefix=LLVM --enable-var-scope
// RUN: kiln-opt %s -split-input-file -kgpu-assign-layouts="num-warps=4 mma-version=2" -kgpu-pipeline-dot-loops=num-stages=5 | FileCheck %s --check-prefix=FIVE --enable-var-scope

// A tf32 K loop (f32 A 64x32 and B 32x64, B N-contiguous): its tiles are
// copied by cp.async into 3 slots of f32 rows, A's padded by 4 elements
// and B's by 8 (A 64 x 36 x 4 = 9216 bytes, B 32 x 72 x 4 = 9216: the
// m16n8k8 .tf32 fragment reads then fall in distinct banks), and local_dot
// multiplies from the slot with mma.sync.m16n8k8 .tf32, each element
// rounded to tf32 (cvt.rna.tf32.f32) as it is read.
// CHECK-LABEL: tt.func public @tf32_loop
// CHECK:         kgpu.async_copy
// CHECK:         scf.for
// CHECK:           kgpu.local_dot %{{.*}} slot %{{.*}} {aOffset = 0 : i64, aSlotBytes = 9216 : i64, aType = tensor<64x32xf32, {{.*}}>, bOffset = 27648 : i64, bSlotBytes = 9216 : i64, bType = tensor<32x64xf32, {{.*}}>, numSlots = 3 : i32}
// CHECK-NOT:     tt.dot
// LLVM-LABEL: llvm.func @tf32_loop
// LLVM:         nvvm.cp.async.shared.global
// LLVM:         scf.for
// LLVM:           llvm.load {{.*}} : !llvm.ptr<3> -> f32
// LLVM:           llvm.inline_asm {{.*}}"cvt.rna.tf32.f32 $0, $1;"
// LLVM:           nvvm.mma.sync {{.*}} multiplicandAPtxType = #nvvm.mma_type<tf32>, multiplicandBPtxType = #nvvm.mma_type<tf32>, shape = #nvvm.shape<m = 16, n = 8, k = 8>}
tt.func public @tf32_loop(%a: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %b: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %c: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %n: i32) {
  %zero = arith.constant dense<0.0> : tensor<64x64xf32>
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %stepA = arith.constant dense<32> : tensor<64x32xi32>
  %rk = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32>
  %rk2 = tt.expand_dims %rk {axis = 0 : i32} : tensor<32xi32> -> tensor<1x32xi32>
  %rka = tt.broadcast %rk2 : tensor<1x32xi32> -> tensor<64x32xi32>
  %pa = tt.splat %a : !tt.ptr<f32> -> tensor<64x32x!tt.ptr<f32>>
  %pa0 = tt.addptr %pa, %rka : tensor<64x32x!tt.ptr<f32>>, tensor<64x32xi32>
  %rn = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
  %rn2 = tt.expand_dims %rn {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
  %rnb = tt.broadcast %rn2 : tensor<1x64xi32> -> tensor<32x64xi32>
  %pb = tt.splat %b : !tt.ptr<f32> -> tensor<32x64x!tt.ptr<f32>>
  %pb0 = tt.addptr %pb, %rnb : tensor<32x64x!tt.ptr<f32>>, tensor<32x64xi32>
  %stepB = arith.constant dense<2048> : tensor<32x64xi32>
  %r:3 = scf.for %k = %c0 to %n step %c1 iter_args(%xa = %pa0, %xb = %pb0, %acc = %zero) -> (tensor<64x32x!tt.ptr<f32>>, tensor<32x64x!tt.ptr<f32>>, tensor<64x64xf32>) : i32 {
    %va = tt.load %xa : tensor<64x32x!tt.ptr<f32>>
    %vb = tt.load %xb : tensor<32x64x!tt.ptr<f32>>
    %d = tt.dot %va, %vb, %acc, inputPrecision = tf32 : tensor<64x32xf32> * tensor<32x64xf32> -> tensor<64x64xf32>
    %na = tt.addptr %xa, %stepA : tensor<64x32x!tt.ptr<f32>>, tensor<64x32xi32>
    %nb = tt.addptr %xb, %stepB : tensor<32x64x!tt.ptr<f32>>, tensor<32x64xi32>
    scf.yield %na, %nb, %d : tensor<64x32x!tt.ptr<f32>>, tensor<32x64x!tt.ptr<f32>>, tensor<64x64xf32>
  }
  %rm = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
  %rm2 = tt.expand_dims %rm {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
  %s64 = arith.constant dense<64> : tensor<64x1xi32>
  %rmo = arith.muli %rm2, %s64 : tensor<64x1xi32>
  %rmb = tt.broadcast %rmo : tensor<64x1xi32> -> tensor<64x64xi32>
  %rnc = tt.broadcast %rn2 : tensor<1x64xi32> -> tensor<64x64xi32>
  %off = arith.addi %rmb, %rnc : tensor<64x64xi32>
  %pc = tt.splat %c : !tt.ptr<f32> -> tensor<64x64x!tt.ptr<f32>>
  %pc0 = tt.addptr %pc, %off : tensor<64x64x!tt.ptr<f32>>, tensor<64x64xi32>
  tt.store %pc0, %r#2 : tensor<64x64x!tt.ptr<f32>>
  tt.return
}

// -----

// tf32x3: the same loop; local_dot takes tf32x3 and issues three mma.sync
// per tile (a_lo * b_hi, a_hi * b_lo, a_hi * b_hi).
// CHECK-LABEL: tt.func public @tf32x3_loop
// CHECK:         kgpu.local_dot {{.*}}tf32x3
// LLVM-LABEL: llvm.func @tf32x3_loop
// LLVM-COUNT-3: nvvm.mma.sync {{.*}}multiplicandAPtxType = #nvvm.mma_type<tf32>
tt.func public @tf32x3_loop(%a: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %b: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %c: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %n: i32) {
  %zero = arith.constant dense<0.0> : tensor<64x64xf32>
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %stepA = arith.constant dense<32> : tensor<64x32xi32>
  %rk = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32>
  %rk2 = tt.expand_dims %rk {axis = 0 : i32} : tensor<32xi32> -> tensor<1x32xi32>
  %rka = tt.broadcast %rk2 : tensor<1x32xi32> -> tensor<64x32xi32>
  %pa = tt.splat %a : !tt.ptr<f32> -> tensor<64x32x!tt.ptr<f32>>
  %pa0 = tt.addptr %pa, %rka : tensor<64x32x!tt.ptr<f32>>, tensor<64x32xi32>
  %rn = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
  %rn2 = tt.expand_dims %rn {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
  %rnb = tt.broadcast %rn2 : tensor<1x64xi32> -> tensor<32x64xi32>
  %pb = tt.splat %b : !tt.ptr<f32> -> tensor<32x64x!tt.ptr<f32>>
  %pb0 = tt.addptr %pb, %rnb : tensor<32x64x!tt.ptr<f32>>, tensor<32x64xi32>
  %stepB = arith.constant dense<2048> : tensor<32x64xi32>
  %r:3 = scf.for %k = %c0 to %n step %c1 iter_args(%xa = %pa0, %xb = %pb0, %acc = %zero) -> (tensor<64x32x!tt.ptr<f32>>, tensor<32x64x!tt.ptr<f32>>, tensor<64x64xf32>) : i32 {
    %va = tt.load %xa : tensor<64x32x!tt.ptr<f32>>
    %vb = tt.load %xb : tensor<32x64x!tt.ptr<f32>>
    %d = tt.dot %va, %vb, %acc, inputPrecision = tf32x3 : tensor<64x32xf32> * tensor<32x64xf32> -> tensor<64x64xf32>
    %na = tt.addptr %xa, %stepA : tensor<64x32x!tt.ptr<f32>>, tensor<64x32xi32>
    %nb = tt.addptr %xb, %stepB : tensor<32x64x!tt.ptr<f32>>, tensor<32x64xi32>
    scf.yield %na, %nb, %d : tensor<64x32x!tt.ptr<f32>>, tensor<32x64x!tt.ptr<f32>>, tensor<64x64xf32>
  }
  %pc = tt.splat %c : !tt.ptr<f32> -> tensor<64x64x!tt.ptr<f32>>
  %rm = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
  %rm2 = tt.expand_dims %rm {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
  %s64 = arith.constant dense<64> : tensor<64x1xi32>
  %rmo = arith.muli %rm2, %s64 : tensor<64x1xi32>
  %rmb = tt.broadcast %rmo : tensor<64x1xi32> -> tensor<64x64xi32>
  %rnc = tt.broadcast %rn2 : tensor<1x64xi32> -> tensor<64x64xi32>
  %off = arith.addi %rmb, %rnc : tensor<64x64xi32>
  %pc0 = tt.addptr %pc, %off : tensor<64x64x!tt.ptr<f32>>, tensor<64x64xi32>
  tt.store %pc0, %r#2 : tensor<64x64x!tt.ptr<f32>>
  tt.return
}

// -----

// An ieee f32 dot runs on CUDA cores: its loop is not pipelined.
// CHECK-LABEL: tt.func public @ieee_loop
// CHECK-NOT:     kgpu.local_dot
// CHECK:         tt.dot
tt.func public @ieee_loop(%a: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %b: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %c: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %n: i32) {
  %zero = arith.constant dense<0.0> : tensor<64x64xf32>
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %stepA = arith.constant dense<32> : tensor<64x32xi32>
  %rk = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32>
  %rk2 = tt.expand_dims %rk {axis = 0 : i32} : tensor<32xi32> -> tensor<1x32xi32>
  %rka = tt.broadcast %rk2 : tensor<1x32xi32> -> tensor<64x32xi32>
  %pa = tt.splat %a : !tt.ptr<f32> -> tensor<64x32x!tt.ptr<f32>>
  %pa0 = tt.addptr %pa, %rka : tensor<64x32x!tt.ptr<f32>>, tensor<64x32xi32>
  %rn = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
  %rn2 = tt.expand_dims %rn {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
  %rnb = tt.broadcast %rn2 : tensor<1x64xi32> -> tensor<32x64xi32>
  %pb = tt.splat %b : !tt.ptr<f32> -> tensor<32x64x!tt.ptr<f32>>
  %pb0 = tt.addptr %pb, %rnb : tensor<32x64x!tt.ptr<f32>>, tensor<32x64xi32>
  %stepB = arith.constant dense<2048> : tensor<32x64xi32>
  %r:3 = scf.for %k = %c0 to %n step %c1 iter_args(%xa = %pa0, %xb = %pb0, %acc = %zero) -> (tensor<64x32x!tt.ptr<f32>>, tensor<32x64x!tt.ptr<f32>>, tensor<64x64xf32>) : i32 {
    %va = tt.load %xa : tensor<64x32x!tt.ptr<f32>>
    %vb = tt.load %xb : tensor<32x64x!tt.ptr<f32>>
    %d = tt.dot %va, %vb, %acc, inputPrecision = ieee : tensor<64x32xf32> * tensor<32x64xf32> -> tensor<64x64xf32>
    %na = tt.addptr %xa, %stepA : tensor<64x32x!tt.ptr<f32>>, tensor<64x32xi32>
    %nb = tt.addptr %xb, %stepB : tensor<32x64x!tt.ptr<f32>>, tensor<32x64xi32>
    scf.yield %na, %nb, %d : tensor<64x32x!tt.ptr<f32>>, tensor<32x64x!tt.ptr<f32>>, tensor<64x64xf32>
  }
  %pc = tt.splat %c : !tt.ptr<f32> -> tensor<64x64x!tt.ptr<f32>>
  %rm = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
  %rm2 = tt.expand_dims %rm {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
  %s64 = arith.constant dense<64> : tensor<64x1xi32>
  %rmo = arith.muli %rm2, %s64 : tensor<64x1xi32>
  %rmb = tt.broadcast %rmo : tensor<64x1xi32> -> tensor<64x64xi32>
  %rnc = tt.broadcast %rn2 : tensor<1x64xi32> -> tensor<64x64xi32>
  %off = arith.addi %rmb, %rnc : tensor<64x64xi32>
  %pc0 = tt.addptr %pc, %off : tensor<64x64x!tt.ptr<f32>>, tensor<64x64xi32>
  tt.store %pc0, %r#2 : tensor<64x64x!tt.ptr<f32>>
  tt.return
}

// -----

// A tf32 dot with K = 4 (not a multiple of m16n8k8's K) whose accumulator
// shares the mma layout of an eligible dot before the loop: it runs on
// CUDA cores, so its loop is not pipelined (local_dot would read K steps of
// 8 past its slots).
// CHECK-LABEL: tt.func public @tf32_k4_in_mma_layout
// CHECK-NOT:     kgpu.local_dot
// CHECK:         tt.return
tt.func public @tf32_k4_in_mma_layout(%a: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %b: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %c: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %n: i32) {
  %zero = arith.constant dense<0.0> : tensor<32x32xf32>
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %pa8 = tt.splat %a : !tt.ptr<f32> -> tensor<32x8x!tt.ptr<f32>>
  %pb8 = tt.splat %b : !tt.ptr<f32> -> tensor<8x32x!tt.ptr<f32>>
  %a8 = tt.load %pa8 : tensor<32x8x!tt.ptr<f32>>
  %b8 = tt.load %pb8 : tensor<8x32x!tt.ptr<f32>>
  %init = tt.dot %a8, %b8, %zero, inputPrecision = tf32 : tensor<32x8xf32> * tensor<8x32xf32> -> tensor<32x32xf32>
  %pa = tt.splat %a : !tt.ptr<f32> -> tensor<32x4x!tt.ptr<f32>>
  %pb = tt.splat %b : !tt.ptr<f32> -> tensor<4x32x!tt.ptr<f32>>
  %r = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %init) -> (tensor<32x32xf32>) : i32 {
    %va = tt.load %pa : tensor<32x4x!tt.ptr<f32>>
    %vb = tt.load %pb : tensor<4x32x!tt.ptr<f32>>
    %d = tt.dot %va, %vb, %acc, inputPrecision = tf32 : tensor<32x4xf32> * tensor<4x32xf32> -> tensor<32x32xf32>
    scf.yield %d : tensor<32x32xf32>
  }
  %pc = tt.splat %c : !tt.ptr<f32> -> tensor<32x32x!tt.ptr<f32>>
  tt.store %pc, %r : tensor<32x32x!tt.ptr<f32>>
  tt.return
}

// -----

// f32 slots are twice the size of 16-bit ones: A 64x64 and B 64x128 take
// 17408 + 34816 bytes a slot. With 3 stages (156672 bytes) the loop is
// pipelined; with 5 (261120, over sm_90's 227 KB per CTA) it stays as it
// is and compiles unpipelined, as it did before f32 slots.
// CHECK-LABEL: tt.func public @tf32_big_slots
// CHECK:         kgpu.local_dot {{.*}}numSlots = 3
// FIVE-LABEL: tt.func public @tf32_big_slots
// FIVE-NOT:     kgpu.local_dot
// FIVE:         tt.return
tt.func public @tf32_big_slots(%a: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %b: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %c: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %n: i32) {
  %zero = arith.constant dense<0.0> : tensor<64x128xf32>
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %rk = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
  %rk2 = tt.expand_dims %rk {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
  %rka = tt.broadcast %rk2 : tensor<1x64xi32> -> tensor<64x64xi32>
  %pa = tt.splat %a : !tt.ptr<f32> -> tensor<64x64x!tt.ptr<f32>>
  %pa0 = tt.addptr %pa, %rka : tensor<64x64x!tt.ptr<f32>>, tensor<64x64xi32>
  %rn = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32>
  %rn2 = tt.expand_dims %rn {axis = 0 : i32} : tensor<128xi32> -> tensor<1x128xi32>
  %rnb = tt.broadcast %rn2 : tensor<1x128xi32> -> tensor<64x128xi32>
  %pb = tt.splat %b : !tt.ptr<f32> -> tensor<64x128x!tt.ptr<f32>>
  %pb0 = tt.addptr %pb, %rnb : tensor<64x128x!tt.ptr<f32>>, tensor<64x128xi32>
  %r = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<64x128xf32>) : i32 {
    %va = tt.load %pa0 : tensor<64x64x!tt.ptr<f32>>
    %vb = tt.load %pb0 : tensor<64x128x!tt.ptr<f32>>
    %d = tt.dot %va, %vb, %acc, inputPrecision = tf32 : tensor<64x64xf32> * tensor<64x128xf32> -> tensor<64x128xf32>
    scf.yield %d : tensor<64x128xf32>
  }
  %pc = tt.splat %c : !tt.ptr<f32> -> tensor<64x128x!tt.ptr<f32>>
  %pcc = tt.addptr %pc, %rnb : tensor<64x128x!tt.ptr<f32>>, tensor<64x128xi32>
  tt.store %pcc, %r : tensor<64x128x!tt.ptr<f32>>
  tt.return
}
