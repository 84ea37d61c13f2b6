// RUN: kiln-opt %s -split-input-file -kgpu-assign-layouts="num-warps=4 mma-version=3" -kgpu-pipeline-dot-loops="num-stages=3 wgmma=true" | FileCheck %s
// RUN: kiln-opt %s -split-input-file -kgpu-assign-layouts="num-warps=4 mma-version=3" -kgpu-pipeline-dot-loops="num-stages=3 wgmma=true" -kgpu-convert-to-llvm | FileCheck %s --check-prefix=LLVM

// tf32 K loops on wgmma (sm_90a): m64nNk8 .tf32, one K step per 8 f32
// (32 bytes), which reads A and B K-major only (PTX ISA 9.7.15.5.1: the
// transpose operands exist for .f16 / .bf16 alone). Here B is tt.trans of
// a 64x32 load (K contiguous): A 64x32 and B's 64 rows of K are copied by
// rows (16-byte cp.async) into 64 rows of 128 bytes (8192 bytes) each,
// both descriptors K-major (leading offset 16 >> 4, stride offset
// 1024 >> 4, 128-byte swizzle). 3 x (8192 + 8192) = 49152 bytes.
// The four K steps (K 32) are one inline asm statement, the 32
// accumulators tied, each wgmma line without imm-trans-a / imm-trans-b.
// CHECK: #kgpu.mma<{version = 2, warpsPerCTA = [4, 1], instrShape = [16, 8]}>
// CHECK-LABEL: tt.func public @tf32_bt
// CHECK: kgpu.async_copy {{.*}} {offset = 0 : i64, rowStride = 32 : i64, slotBytes = 8192 : i64, swizzle = 1 : i32} : tensor<64x32x!tt.ptr<f32>
// CHECK: kgpu.async_copy {{.*}} {offset = 24576 : i64, rowStride = 32 : i64, slotBytes = 8192 : i64, swizzle = 1 : i32} : tensor<64x32x!tt.ptr<f32>
// CHECK: kgpu.local_dot {{.*}}bKMajor{{.*}}wgmma
// LLVM: kgpu.shared = 49152 : i32
// LLVM-LABEL: llvm.func @tf32_bt
// LLVM-NOT: nvvm.cp.async.shared.global {{.*}}, 4, cache
// LLVM-NOT: nvvm.wgmma.mma_async
// LLVM: llvm.mlir.constant(4611686293305360384 : i64)
// LLVM: llvm.mlir.constant(4611686293305360384 : i64)
// LLVM: nvvm.wgmma.fence.aligned
// LLVM-NOT: wgmma.mma_async
// LLVM: llvm.inline_asm has_side_effects asm_dialect = att "{\0A.reg .pred p;\0Asetp.ne.b32 p, 1, 0;\0A
// LLVM-NOT: wgmma
// LLVM-SAME: wgmma.mma_async.sync.aligned.m64n64k8.f32.tf32.tf32 {$0, {{[^}]*}}, $31}, $64, $65, p, 1,  1;\0A
// LLVM-NOT: wgmma
// LLVM-SAME: wgmma.mma_async.sync.aligned.m64n64k8.f32.tf32.tf32 {$0, {{[^}]*}}, $31}, $66, $67, p, 1,  1;\0A
// LLVM-NOT: wgmma
// LLVM-SAME: wgmma.mma_async.sync.aligned.m64n64k8.f32.tf32.tf32 {$0, {{[^}]*}}, $31}, $68, $69, p, 1,  1;\0A
// LLVM-NOT: wgmma
// LLVM-SAME: wgmma.mma_async.sync.aligned.m64n64k8.f32.tf32.tf32 {$0, {{[^}]*}}, $31}, $70, $71, p, 1,  1;\0A}"
// LLVM-SAME: "{{(=f,){32}0,([0-9]+,){30}31,(l,){7}l}}"
// LLVM-NOT: wgmma.mma_async
// LLVM: nvvm.wgmma.commit.group.sync.aligned
// LLVM-NOT: nvvm.wgmma.mma_async
// LLVM-NOT: nvvm.mma.sync
tt.func public @tf32_bt(%a: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %b: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %c: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %n: i32) {
  %zero = arith.constant dense<0.0> : tensor<64x64xf32>
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %stepA = arith.constant dense<32> : tensor<64x32xi32>
  %stepB = arith.constant dense<32> : tensor<64x32xi32>
  %sa = arith.constant dense<32> : tensor<64x1xi32>
  %sb = arith.constant dense<64> : tensor<32x1xi32>
  %rm = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
  %rm2 = tt.expand_dims %rm {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
  %rma = arith.muli %rm2, %sa : tensor<64x1xi32>
  %rmab = tt.broadcast %rma : tensor<64x1xi32> -> tensor<64x32xi32>
  %rk = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32>
  %rk2 = tt.expand_dims %rk {axis = 0 : i32} : tensor<32xi32> -> tensor<1x32xi32>
  %rka = tt.broadcast %rk2 : tensor<1x32xi32> -> tensor<64x32xi32>
  %offa = arith.addi %rmab, %rka : tensor<64x32xi32>
  %pa = tt.splat %a : !tt.ptr<f32> -> tensor<64x32x!tt.ptr<f32>>
  %pa0 = tt.addptr %pa, %offa : tensor<64x32x!tt.ptr<f32>>, tensor<64x32xi32>
  %rn2 = tt.expand_dims %rm {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
  %pb = tt.splat %b : !tt.ptr<f32> -> tensor<64x32x!tt.ptr<f32>>
  %pb0 = tt.addptr %pb, %offa : tensor<64x32x!tt.ptr<f32>>, tensor<64x32xi32>
  %r:3 = scf.for %k = %c0 to %n step %c1 iter_args(%xa = %pa0, %xb = %pb0, %acc = %zero) -> (tensor<64x32x!tt.ptr<f32>>, tensor<64x32x!tt.ptr<f32>>, tensor<64x64xf32>) : i32 {
    %va = tt.load %xa : tensor<64x32x!tt.ptr<f32>>
    %vbt = tt.load %xb : tensor<64x32x!tt.ptr<f32>>
    %vb = tt.trans %vbt {order = array<i32: 1, 0>} : tensor<64x32xf32> -> tensor<32x64xf32>
    %d = tt.dot %va, %vb, %acc, inputPrecision = tf32 : tensor<64x32xf32> * tensor<32x64xf32> -> tensor<64x64xf32>
    %na = tt.addptr %xa, %stepA : tensor<64x32x!tt.ptr<f32>>, tensor<64x32xi32>
    %nb = tt.addptr %xb, %stepB : tensor<64x32x!tt.ptr<f32>>, tensor<64x32xi32>
    scf.yield %na, %nb, %d : tensor<64x32x!tt.ptr<f32>>, tensor<64x32x!tt.ptr<f32>>, tensor<64x64xf32>
  }
  %rc = tt.broadcast %rn2 : tensor<1x64xi32> -> tensor<64x64xi32>
  %pc = tt.splat %c : !tt.ptr<f32> -> tensor<64x64x!tt.ptr<f32>>
  %pc2 = tt.addptr %pc, %rc : tensor<64x64x!tt.ptr<f32>>, tensor<64x64xi32>
  tt.store %pc2, %r#2 : tensor<64x64x!tt.ptr<f32>>
  tt.return
}

// -----

// B contiguous along N: wgmma's tf32 form would need it copied transposed
// 4 bytes at a time (as Triton 3.6 does), which ran 1.2-1.9x slower on
// the H200 than mma.sync .tf32 reading it row-major; it keeps mma.sync's
// layout (warps 2 x 2) and padded f32 rows.
// CHECK: #kgpu.mma<{version = 2, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
// CHECK-LABEL: tt.func public @tf32(
// CHECK: kgpu.async_copy {{.*}} {offset = 0 : i64, rowStride = 36 : i64, slotBytes = 9216 : i64}
// CHECK: kgpu.async_copy {{.*}} {offset = 27648 : i64, rowStride = 72 : i64, slotBytes = 9216 : i64}
// LLVM-LABEL: llvm.func @tf32(
// LLVM-NOT: nvvm.wgmma.mma_async
// LLVM: nvvm.mma.sync
// LLVM-NOT: nvvm.wgmma.mma_async
tt.func public @tf32(%a: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %b: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %c: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %n: i32) {
  %zero = arith.constant dense<0.0> : tensor<64x64xf32>
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %stepA = arith.constant dense<32> : tensor<64x32xi32>
  %stepB = arith.constant dense<2048> : tensor<32x64xi32>
  %sa = arith.constant dense<32> : tensor<64x1xi32>
  %sb = arith.constant dense<64> : tensor<32x1xi32>
  %rm = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
  %rm2 = tt.expand_dims %rm {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
  %rma = arith.muli %rm2, %sa : tensor<64x1xi32>
  %rmab = tt.broadcast %rma : tensor<64x1xi32> -> tensor<64x32xi32>
  %rk = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32>
  %rk2 = tt.expand_dims %rk {axis = 0 : i32} : tensor<32xi32> -> tensor<1x32xi32>
  %rka = tt.broadcast %rk2 : tensor<1x32xi32> -> tensor<64x32xi32>
  %offa = arith.addi %rmab, %rka : tensor<64x32xi32>
  %pa = tt.splat %a : !tt.ptr<f32> -> tensor<64x32x!tt.ptr<f32>>
  %pa0 = tt.addptr %pa, %offa : tensor<64x32x!tt.ptr<f32>>, tensor<64x32xi32>
  %rkb1 = tt.expand_dims %rk {axis = 1 : i32} : tensor<32xi32> -> tensor<32x1xi32>
  %rkb2 = arith.muli %rkb1, %sb : tensor<32x1xi32>
  %rkb = tt.broadcast %rkb2 : tensor<32x1xi32> -> tensor<32x64xi32>
  %rn2 = tt.expand_dims %rm {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
  %rnb = tt.broadcast %rn2 : tensor<1x64xi32> -> tensor<32x64xi32>
  %offb = arith.addi %rkb, %rnb : tensor<32x64xi32>
  %pb = tt.splat %b : !tt.ptr<f32> -> tensor<32x64x!tt.ptr<f32>>
  %pb0 = tt.addptr %pb, %offb : tensor<32x64x!tt.ptr<f32>>, tensor<32x64xi32>
  %r:3 = scf.for %k = %c0 to %n step %c1 iter_args(%xa = %pa0, %xb = %pb0, %acc = %zero) -> (tensor<64x32x!tt.ptr<f32>>, tensor<32x64x!tt.ptr<f32>>, tensor<64x64xf32>) : i32 {
    %va = tt.load %xa : tensor<64x32x!tt.ptr<f32>>
    %vb = tt.load %xb : tensor<32x64x!tt.ptr<f32>>
    %d = tt.dot %va, %vb, %acc, inputPrecision = tf32 : tensor<64x32xf32> * tensor<32x64xf32> -> tensor<64x64xf32>
    %na = tt.addptr %xa, %stepA : tensor<64x32x!tt.ptr<f32>>, tensor<64x32xi32>
    %nb = tt.addptr %xb, %stepB : tensor<32x64x!tt.ptr<f32>>, tensor<32x64xi32>
    scf.yield %na, %nb, %d : tensor<64x32x!tt.ptr<f32>>, tensor<32x64x!tt.ptr<f32>>, tensor<64x64xf32>
  }
  %rc = tt.broadcast %rn2 : tensor<1x64xi32> -> tensor<64x64xi32>
  %pc = tt.splat %c : !tt.ptr<f32> -> tensor<64x64x!tt.ptr<f32>>
  %pc2 = tt.addptr %pc, %rc : tensor<64x64x!tt.ptr<f32>>, tensor<64x64xi32>
  tt.store %pc2, %r#2 : tensor<64x64x!tt.ptr<f32>>
  tt.return
}

// -----

// tf32x3 (three tf32 products per element) stays on mma.sync .tf32.
// CHECK-LABEL: tt.func public @tf32x3
// CHECK: kgpu.async_copy {{.*}} {offset = 0 : i64, rowStride = 36 : i64, slotBytes = 9216 : i64}
// LLVM-LABEL: llvm.func @tf32x3
// LLVM-NOT: nvvm.wgmma.mma_async
// LLVM: nvvm.mma.sync
// LLVM-NOT: nvvm.wgmma.mma_async
tt.func public @tf32x3(%a: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %b: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %c: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %n: i32) {
  %zero = arith.constant dense<0.0> : tensor<64x64xf32>
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %stepA = arith.constant dense<32> : tensor<64x32xi32>
  %stepB = arith.constant dense<2048> : tensor<32x64xi32>
  %sa = arith.constant dense<32> : tensor<64x1xi32>
  %sb = arith.constant dense<64> : tensor<32x1xi32>
  %rm = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
  %rm2 = tt.expand_dims %rm {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
  %rma = arith.muli %rm2, %sa : tensor<64x1xi32>
  %rmab = tt.broadcast %rma : tensor<64x1xi32> -> tensor<64x32xi32>
  %rk = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32>
  %rk2 = tt.expand_dims %rk {axis = 0 : i32} : tensor<32xi32> -> tensor<1x32xi32>
  %rka = tt.broadcast %rk2 : tensor<1x32xi32> -> tensor<64x32xi32>
  %offa = arith.addi %rmab, %rka : tensor<64x32xi32>
  %pa = tt.splat %a : !tt.ptr<f32> -> tensor<64x32x!tt.ptr<f32>>
  %pa0 = tt.addptr %pa, %offa : tensor<64x32x!tt.ptr<f32>>, tensor<64x32xi32>
  %rkb1 = tt.expand_dims %rk {axis = 1 : i32} : tensor<32xi32> -> tensor<32x1xi32>
  %rkb2 = arith.muli %rkb1, %sb : tensor<32x1xi32>
  %rkb = tt.broadcast %rkb2 : tensor<32x1xi32> -> tensor<32x64xi32>
  %rn2 = tt.expand_dims %rm {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
  %rnb = tt.broadcast %rn2 : tensor<1x64xi32> -> tensor<32x64xi32>
  %offb = arith.addi %rkb, %rnb : tensor<32x64xi32>
  %pb = tt.splat %b : !tt.ptr<f32> -> tensor<32x64x!tt.ptr<f32>>
  %pb0 = tt.addptr %pb, %offb : tensor<32x64x!tt.ptr<f32>>, tensor<32x64xi32>
  %r:3 = scf.for %k = %c0 to %n step %c1 iter_args(%xa = %pa0, %xb = %pb0, %acc = %zero) -> (tensor<64x32x!tt.ptr<f32>>, tensor<32x64x!tt.ptr<f32>>, tensor<64x64xf32>) : i32 {
    %va = tt.load %xa : tensor<64x32x!tt.ptr<f32>>
    %vb = tt.load %xb : tensor<32x64x!tt.ptr<f32>>
    %d = tt.dot %va, %vb, %acc, inputPrecision = tf32x3 : tensor<64x32xf32> * tensor<32x64xf32> -> tensor<64x64xf32>
    %na = tt.addptr %xa, %stepA : tensor<64x32x!tt.ptr<f32>>, tensor<64x32xi32>
    %nb = tt.addptr %xb, %stepB : tensor<32x64x!tt.ptr<f32>>, tensor<32x64xi32>
    scf.yield %na, %nb, %d : tensor<64x32x!tt.ptr<f32>>, tensor<32x64x!tt.ptr<f32>>, tensor<64x64xf32>
  }
  %rc = tt.broadcast %rn2 : tensor<1x64xi32> -> tensor<64x64xi32>
  %pc = tt.splat %c : !tt.ptr<f32> -> tensor<64x64x!tt.ptr<f32>>
  %pc2 = tt.addptr %pc, %rc : tensor<64x64x!tt.ptr<f32>>, tensor<64x64xi32>
  tt.store %pc2, %r#2 : tensor<64x64x!tt.ptr<f32>>
  tt.return
}

// -----

// The same with B's base pointer of unknown alignment: a 4-byte copy per
// element along K, which wgmma is not given (bReadKMajor wants more than
// one element per copy); mma.sync's layout, and the loop stays unpipelined
// (mma.sync .tf32 reads B row-major only), as before tf32 took wgmma.
// CHECK-LABEL: tt.func public @tf32_bt_unaligned
// CHECK-NOT: kgpu.async_copy
// CHECK: tt.dot
// LLVM-LABEL: llvm.func @tf32_bt_unaligned
// LLVM-NOT: nvvm.wgmma.mma_async
// LLVM: nvvm.mma.sync
// LLVM-NOT: nvvm.wgmma.mma_async
tt.func public @tf32_bt_unaligned(%a: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %b: !tt.ptr<f32>, %c: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %n: i32) {
  %zero = arith.constant dense<0.0> : tensor<64x64xf32>
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %stepA = arith.constant dense<32> : tensor<64x32xi32>
  %stepB = arith.constant dense<32> : tensor<64x32xi32>
  %sa = arith.constant dense<32> : tensor<64x1xi32>
  %sb = arith.constant dense<64> : tensor<32x1xi32>
  %rm = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
  %rm2 = tt.expand_dims %rm {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
  %rma = arith.muli %rm2, %sa : tensor<64x1xi32>
  %rmab = tt.broadcast %rma : tensor<64x1xi32> -> tensor<64x32xi32>
  %rk = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32>
  %rk2 = tt.expand_dims %rk {axis = 0 : i32} : tensor<32xi32> -> tensor<1x32xi32>
  %rka = tt.broadcast %rk2 : tensor<1x32xi32> -> tensor<64x32xi32>
  %offa = arith.addi %rmab, %rka : tensor<64x32xi32>
  %pa = tt.splat %a : !tt.ptr<f32> -> tensor<64x32x!tt.ptr<f32>>
  %pa0 = tt.addptr %pa, %offa : tensor<64x32x!tt.ptr<f32>>, tensor<64x32xi32>
  %rn2 = tt.expand_dims %rm {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
  %pb = tt.splat %b : !tt.ptr<f32> -> tensor<64x32x!tt.ptr<f32>>
  %pb0 = tt.addptr %pb, %offa : tensor<64x32x!tt.ptr<f32>>, tensor<64x32xi32>
  %r:3 = scf.for %k = %c0 to %n step %c1 iter_args(%xa = %pa0, %xb = %pb0, %acc = %zero) -> (tensor<64x32x!tt.ptr<f32>>, tensor<64x32x!tt.ptr<f32>>, tensor<64x64xf32>) : i32 {
    %va = tt.load %xa : tensor<64x32x!tt.ptr<f32>>
    %vbt = tt.load %xb : tensor<64x32x!tt.ptr<f32>>
    %vb = tt.trans %vbt {order = array<i32: 1, 0>} : tensor<64x32xf32> -> tensor<32x64xf32>
    %d = tt.dot %va, %vb, %acc, inputPrecision = tf32 : tensor<64x32xf32> * tensor<32x64xf32> -> tensor<64x64xf32>
    %na = tt.addptr %xa, %stepA : tensor<64x32x!tt.ptr<f32>>, tensor<64x32xi32>
    %nb = tt.addptr %xb, %stepB : tensor<64x32x!tt.ptr<f32>>, tensor<64x32xi32>
    scf.yield %na, %nb, %d : tensor<64x32x!tt.ptr<f32>>, tensor<64x32x!tt.ptr<f32>>, tensor<64x64xf32>
  }
  %rc = tt.broadcast %rn2 : tensor<1x64xi32> -> tensor<64x64xi32>
  %pc = tt.splat %c : !tt.ptr<f32> -> tensor<64x64x!tt.ptr<f32>>
  %pc2 = tt.addptr %pc, %rc : tensor<64x64x!tt.ptr<f32>>, tensor<64x64xi32>
  tt.store %pc2, %r#2 : tensor<64x64x!tt.ptr<f32>>
  tt.return
}
