// RUN: kiln-opt %s -split-input-file -tt-upcast-f8-dot-operands -kgpu-assign-layouts="num-warps=2 mma-version=2" -kgpu-pipeline-dot-loops=num-stages=3 | FileCheck %s --enable-var-scope
// RUN: kiln-opt %s -split-input-file -tt-upcast-f8-dot-operands -kgpu-assign-layouts="num-warps=2 mma-version=2" -kgpu-pipeline-dot-loops=num-stages=3 -kgpu-convert-to-llvm="arch=sm_90a ptx-version=80" | FileCheck %s --check-prefix=LLVM --enable-var-scope
// RUN: kiln-opt %s -split-input-file -tt-upcast-f8-dot-operands -kgpu-assign-layouts="num-warps=4 mma-version=3" "-kgpu-pipeline-dot-loops=num-stages=3 wgmma" | FileCheck %s --check-prefix=WGMMA --enable-var-scope
// RUN: kiln-opt %s -split-input-file -tt-upcast-f8-dot-operands -kgpu-assign-layouts="num-warps=2 mma-version=2" -kgpu-pipeline-dot-loops=num-stages=3 -kgpu-convert-to-llvm="arch=sm_80 ptx-version=80" | FileCheck %s --check-prefix=SM80 --enable-var-scope
// RUN: kiln-opt %S/Inputs/local-dot-f8-invalid.mlir -split-input-file -verify-diagnostics -kgpu-convert-to-llvm="arch=sm_90a ptx-version=80"

// K loops of f8 dots (tt-upcast-f8-dot-operands puts a tt.fp_to_fp to f16
// between each load and the dot). Where A is K-contiguous (rows of K) and
// B is too (stored transposed, N rows of K), the slots hold the f8 bytes,
// rows padded by 16 bytes: A 32 x (64 + 16) = 2560 B, B 64 x 80 = 5120 B,
// B's region after A's 3 slots at 7680; 23040 B in all.
//
// `acc += tl.dot(a, b)` (f8 TTIR from Triton keeps the dot from zero and
// an arith.addf): local_dot multiplies from zero and the loop adds.
// CHECK-LABEL: tt.func public @f8_acc_plus
// CHECK-NOT: tt.fp_to_fp
// CHECK: kgpu.async_copy {{.*}} {offset = 0 : i64, rowStride = 80 : i64, slotBytes = 2560 : i64} : tensor<32x64x!tt.ptr<f8E4M3FN>
// CHECK: kgpu.async_copy {{.*}} {offset = 7680 : i64, rowStride = 80 : i64, slotBytes = 5120 : i64, transpose} : tensor<64x64x!tt.ptr<f8E4M3FN>
// CHECK: scf.for {{.*}} iter_args(%[[ACC:[^ ]+]] = %{{[^ ]+}}, %[[SLOT:[^ ]+]] = %c0_i32
// CHECK: %[[ZERO:.+]] = arith.constant dense<0.000000e+00> : tensor<32x64xf32, #mma>
// CHECK: %[[D:.+]] = kgpu.local_dot %[[ZERO]] slot %[[SLOT]] {aOffset = 0 : i64, aSlotBytes = 2560 : i64, aType = tensor<32x64xf8E4M3FN, {{.*}}>, bKMajor, bOffset = 7680 : i64, bSlotBytes = 5120 : i64, bType = tensor<64x64xf8E4M3FN, {{.*}}>, numSlots = 3 : i32}
// CHECK: %[[SUM:.+]] = arith.addf %[[ACC]], %[[D]] : tensor<32x64xf32, #mma>
// CHECK: scf.yield %[[SUM]]
// CHECK-NOT: tt.dot
// CHECK: tt.return
//
// Per stage and thread (64 threads): A in 2 cp.async of 16 bytes, B in 4.
// Per 32-wide K step each warp reads A (2 row tiles of 16) and B (4 N
// tiles of 8 over 2 matrices each) with 2 + 2 ldmatrix.x4 on bytes, upcasts
// 2 x 2 x 4 A and 4 x 2 x 2 B byte pairs (cvt.rn.f16x2.e4m3x2) and issues
// 2 x 4 x 2 m16n8k16 f16 mma.sync, the first of each tile from the zero
// accumulator; two K steps: 8 ldmatrix, 64 conversions, 32 mma.sync. Then
// the loop adds the 32 sums to its accumulator.
// LLVM: kgpu.shared = 23040 : i32
// LLVM-LABEL: llvm.func @f8_acc_plus
// LLVM-COUNT-6: nvvm.cp.async.shared.global {{.*}}, 16, cache = cg
// LLVM: nvvm.cp.async.commit.group
// LLVM-COUNT-6: nvvm.cp.async.shared.global {{.*}}, 16, cache = cg
// LLVM: nvvm.cp.async.commit.group
// LLVM: scf.for
// LLVM: nvvm.cp.async.wait.group 1
// LLVM-COUNT-6: nvvm.cp.async.shared.global {{.*}}, 16, cache = cg
// LLVM: nvvm.cp.async.commit.group
// LLVM: %[[Z:.+]] = llvm.mlir.constant(0.000000e+00 : f32) : f32
// LLVM-COUNT-4: nvvm.ldmatrix {{.*}}layout = #nvvm.mma_layout<row>, num = 4 : i32
// LLVM-NOT: nvvm.mma.sync
// LLVM: nvvm.convert.f8x2.to.f16x2 %{{.*}} : vector<2xi8>(f8E4M3FN) -> vector<2xf16>
// LLVM: nvvm.mma.sync A[{{.*}}] B[{{.*}}] C[%[[Z]], %[[Z]], %[[Z]], %[[Z]]] {layoutA = #nvvm.mma_layout<row>, layoutB = #nvvm.mma_layout<col>, shape = #nvvm.shape<m = 16, n = 8, k = 16>} : (vector<2xf16>, vector<2xf16>, f32)
// LLVM-COUNT-15: nvvm.mma.sync
// LLVM-COUNT-4: nvvm.ldmatrix {{.*}}layout = #nvvm.mma_layout<row>, num = 4 : i32
// LLVM-COUNT-16: nvvm.mma.sync
// LLVM-NOT: nvvm.mma.sync
// LLVM-NOT: nvvm.ldmatrix
// LLVM: llvm.fadd
// LLVM: llvm.return
//
// sm_80 has no cvt.rn.f16x2.e4m3x2: each of the 64 bytes a thread upcasts
// per K step takes the integer conversion (passes/FloatConversions.h,
// its subnormal table 0x232221201E1C1800), then the same 32 mma.sync.
// SM80-LABEL: llvm.func @f8_acc_plus
// SM80-NOT: nvvm.convert.f8x2
// SM80: scf.for
// SM80-COUNT-64: llvm.mlir.constant(2531622362363467776 : i64) : i64
// SM80-NOT: llvm.mlir.constant(2531622362363467776 : i64)
// SM80-COUNT-16: nvvm.mma.sync {{.*}} shape = #nvvm.shape<m = 16, n = 8, k = 16>} : (vector<2xf16>, vector<2xf16>, f32)
// SM80-COUNT-64: llvm.mlir.constant(2531622362363467776 : i64) : i64
// SM80-NOT: llvm.mlir.constant(2531622362363467776 : i64)
// SM80-COUNT-16: nvvm.mma.sync {{.*}} shape = #nvvm.shape<m = 16, n = 8, k = 16>} : (vector<2xf16>, vector<2xf16>, f32)
// SM80-NOT: nvvm.mma.sync
// SM80: llvm.return
tt.func public @f8_acc_plus(%a: !tt.ptr<f8E4M3FN> {tt.divisibility = 16 : i32}, %b: !tt.ptr<f8E4M3FN> {tt.divisibility = 16 : i32}, %c: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %n: i32) {
  %zero = arith.constant dense<0.0> : tensor<32x64xf32>
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c64 = arith.constant 64 : i32
  %lda = arith.constant dense<1024> : tensor<32x1xi32>
  %ldb = arith.constant dense<1024> : tensor<1x64xi32>
  %rm = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32>
  %rm2 = tt.expand_dims %rm {axis = 1 : i32} : tensor<32xi32> -> tensor<32x1xi32>
  %rma = arith.muli %rm2, %lda : tensor<32x1xi32>
  %rk = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
  %rka = tt.expand_dims %rk {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
  %rkb = tt.expand_dims %rk {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
  %rn = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
  %rn2 = tt.expand_dims %rn {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
  %rnb = arith.muli %rn2, %ldb : tensor<1x64xi32>
  %r = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<32x64xf32>) : i32 {
    %kk = arith.muli %k, %c64 : i32
    %kks = tt.splat %kk : i32 -> tensor<1x64xi32>
    %ka = arith.addi %rka, %kks : tensor<1x64xi32>
    %kab = tt.broadcast %ka : tensor<1x64xi32> -> tensor<32x64xi32>
    %mab = tt.broadcast %rma : tensor<32x1xi32> -> tensor<32x64xi32>
    %offa = arith.addi %kab, %mab : tensor<32x64xi32>
    %pa = tt.splat %a : !tt.ptr<f8E4M3FN> -> tensor<32x64x!tt.ptr<f8E4M3FN>>
    %pa1 = tt.addptr %pa, %offa : tensor<32x64x!tt.ptr<f8E4M3FN>>, tensor<32x64xi32>
    %kbs = tt.splat %kk : i32 -> tensor<64x1xi32>
    %kb = arith.addi %rkb, %kbs : tensor<64x1xi32>
    %kbb = tt.broadcast %kb : tensor<64x1xi32> -> tensor<64x64xi32>
    %nbb = tt.broadcast %rnb : tensor<1x64xi32> -> tensor<64x64xi32>
    %offb = arith.addi %kbb, %nbb : tensor<64x64xi32>
    %pb = tt.splat %b : !tt.ptr<f8E4M3FN> -> tensor<64x64x!tt.ptr<f8E4M3FN>>
    %pb1 = tt.addptr %pb, %offb : tensor<64x64x!tt.ptr<f8E4M3FN>>, tensor<64x64xi32>
    %va = tt.load %pa1 : tensor<32x64x!tt.ptr<f8E4M3FN>>
    %vb = tt.load %pb1 : tensor<64x64x!tt.ptr<f8E4M3FN>>
    %d = tt.dot %va, %vb, %zero : tensor<32x64xf8E4M3FN> * tensor<64x64xf8E4M3FN> -> tensor<32x64xf32>
    %s = arith.addf %acc, %d : tensor<32x64xf32>
    scf.yield %s : tensor<32x64xf32>
  }
  %rc = tt.broadcast %rn2 : tensor<1x64xi32> -> tensor<32x64xi32>
  %pc = tt.splat %c : !tt.ptr<f32> -> tensor<32x64x!tt.ptr<f32>>
  %pc2 = tt.addptr %pc, %rc : tensor<32x64x!tt.ptr<f32>>, tensor<32x64xi32>
  tt.store %pc2, %r : tensor<32x64x!tt.ptr<f32>>
  tt.return
}

// -----

// The accumulator carried by the dot itself (tt.dot %a, %b, %acc), e5m2:
// the same slots, local_dot multiplies into the carried accumulator, no
// addf; the conversions are cvt.rn.f16x2.e5m2x2.
// CHECK-LABEL: tt.func public @f8_e5m2_dot_acc
// CHECK: scf.for {{.*}} iter_args(%[[ACC:[^ ]+]] = %{{[^ ]+}}, %[[SLOT:[^ ]+]] = %c0_i32
// CHECK: %[[D:.+]] = kgpu.local_dot %[[ACC]] slot %[[SLOT]] {aOffset = 0 : i64, aSlotBytes = 2560 : i64, aType = tensor<32x64xf8E5M2, {{.*}}>, bKMajor, bOffset = 7680 : i64, bSlotBytes = 5120 : i64, bType = tensor<64x64xf8E5M2, {{.*}}>, numSlots = 3 : i32}
// CHECK-NOT: arith.addf
// CHECK: scf.yield %[[D]]
// LLVM-LABEL: llvm.func @f8_e5m2_dot_acc
// LLVM: nvvm.convert.f8x2.to.f16x2 %{{.*}} : vector<2xi8>(f8E5M2) -> vector<2xf16>
// LLVM-NOT: llvm.fadd
// LLVM: llvm.return
//
// With 4 warps on sm_90a: 32 rows are fewer than one wgmma's 64, so the
// f8 slots are multiplied with mma.sync (kgpu-pipeline-dot-loops-wgmma-
// forms.mlir has the wgmma case).
// WGMMA-LABEL: tt.func public @f8_e5m2_dot_acc
// WGMMA: kgpu.local_dot
// WGMMA-NOT: wgmma
// WGMMA-SAME: bKMajor
// WGMMA-NOT: kgpu.wgmma_wait
// WGMMA: tt.return
tt.func public @f8_e5m2_dot_acc(%a: !tt.ptr<f8E5M2> {tt.divisibility = 16 : i32}, %b: !tt.ptr<f8E5M2> {tt.divisibility = 16 : i32}, %c: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %n: i32) {
  %zero = arith.constant dense<0.0> : tensor<32x64xf32>
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c64 = arith.constant 64 : i32
  %lda = arith.constant dense<1024> : tensor<32x1xi32>
  %ldb = arith.constant dense<1024> : tensor<1x64xi32>
  %rm = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32>
  %rm2 = tt.expand_dims %rm {axis = 1 : i32} : tensor<32xi32> -> tensor<32x1xi32>
  %rma = arith.muli %rm2, %lda : tensor<32x1xi32>
  %rk = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
  %rka = tt.expand_dims %rk {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
  %rkb = tt.expand_dims %rk {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
  %rn = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
  %rn2 = tt.expand_dims %rn {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
  %rnb = arith.muli %rn2, %ldb : tensor<1x64xi32>
  %r = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<32x64xf32>) : i32 {
    %kk = arith.muli %k, %c64 : i32
    %kks = tt.splat %kk : i32 -> tensor<1x64xi32>
    %ka = arith.addi %rka, %kks : tensor<1x64xi32>
    %kab = tt.broadcast %ka : tensor<1x64xi32> -> tensor<32x64xi32>
    %mab = tt.broadcast %rma : tensor<32x1xi32> -> tensor<32x64xi32>
    %offa = arith.addi %kab, %mab : tensor<32x64xi32>
    %pa = tt.splat %a : !tt.ptr<f8E5M2> -> tensor<32x64x!tt.ptr<f8E5M2>>
    %pa1 = tt.addptr %pa, %offa : tensor<32x64x!tt.ptr<f8E5M2>>, tensor<32x64xi32>
    %kbs = tt.splat %kk : i32 -> tensor<64x1xi32>
    %kb = arith.addi %rkb, %kbs : tensor<64x1xi32>
    %kbb = tt.broadcast %kb : tensor<64x1xi32> -> tensor<64x64xi32>
    %nbb = tt.broadcast %rnb : tensor<1x64xi32> -> tensor<64x64xi32>
    %offb = arith.addi %kbb, %nbb : tensor<64x64xi32>
    %pb = tt.splat %b : !tt.ptr<f8E5M2> -> tensor<64x64x!tt.ptr<f8E5M2>>
    %pb1 = tt.addptr %pb, %offb : tensor<64x64x!tt.ptr<f8E5M2>>, tensor<64x64xi32>
    %va = tt.load %pa1 : tensor<32x64x!tt.ptr<f8E5M2>>
    %vb = tt.load %pb1 : tensor<64x64x!tt.ptr<f8E5M2>>
    %d = tt.dot %va, %vb, %acc : tensor<32x64xf8E5M2> * tensor<64x64xf8E5M2> -> tensor<32x64xf32>
    scf.yield %d : tensor<32x64xf32>
  }
  %rc = tt.broadcast %rn2 : tensor<1x64xi32> -> tensor<32x64xi32>
  %pc = tt.splat %c : !tt.ptr<f32> -> tensor<32x64x!tt.ptr<f32>>
  %pc2 = tt.addptr %pc, %rc : tensor<32x64x!tt.ptr<f32>>, tensor<32x64xi32>
  tt.store %pc2, %r : tensor<32x64x!tt.ptr<f32>>
  tt.return
}

// -----

// B N-contiguous (K rows of N): ldmatrix cannot transpose bytes, so the
// loop is not pipelined (the dot stages its upcast f16 operands).
// CHECK-LABEL: tt.func public @f8_b_n_major
// CHECK-NOT: kgpu.async_copy
// CHECK-NOT: kgpu.local_dot
// CHECK: tt.fp_to_fp
// CHECK: tt.dot
// CHECK: tt.return
tt.func public @f8_b_n_major(%a: !tt.ptr<f8E4M3FN> {tt.divisibility = 16 : i32}, %b: !tt.ptr<f8E4M3FN> {tt.divisibility = 16 : i32}, %c: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %n: i32) {
  %zero = arith.constant dense<0.0> : tensor<32x64xf32>
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c64 = arith.constant 64 : i32
  %lda = arith.constant dense<1024> : tensor<32x1xi32>
  %ldb = arith.constant dense<1024> : tensor<1x64xi32>
  %rm = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32>
  %rm2 = tt.expand_dims %rm {axis = 1 : i32} : tensor<32xi32> -> tensor<32x1xi32>
  %rma = arith.muli %rm2, %lda : tensor<32x1xi32>
  %rk = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
  %rka = tt.expand_dims %rk {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
  %rkb = tt.expand_dims %rk {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
  %rn = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
  %rn2 = tt.expand_dims %rn {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
  %rnb = arith.muli %rn2, %ldb : tensor<1x64xi32>
  %r = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<32x64xf32>) : i32 {
    %kk = arith.muli %k, %c64 : i32
    %kks = tt.splat %kk : i32 -> tensor<1x64xi32>
    %ka = arith.addi %rka, %kks : tensor<1x64xi32>
    %kab = tt.broadcast %ka : tensor<1x64xi32> -> tensor<32x64xi32>
    %mab = tt.broadcast %rma : tensor<32x1xi32> -> tensor<32x64xi32>
    %offa = arith.addi %kab, %mab : tensor<32x64xi32>
    %pa = tt.splat %a : !tt.ptr<f8E4M3FN> -> tensor<32x64x!tt.ptr<f8E4M3FN>>
    %pa1 = tt.addptr %pa, %offa : tensor<32x64x!tt.ptr<f8E4M3FN>>, tensor<32x64xi32>
    %kbs = tt.splat %kk : i32 -> tensor<64x1xi32>
    %kb0 = arith.addi %rkb, %kbs : tensor<64x1xi32>
    %ldk = arith.constant dense<1024> : tensor<64x1xi32>
    %kb = arith.muli %kb0, %ldk : tensor<64x1xi32>
    %kbb = tt.broadcast %kb : tensor<64x1xi32> -> tensor<64x64xi32>
    %nbb = tt.broadcast %rn2 : tensor<1x64xi32> -> tensor<64x64xi32>
    %offb = arith.addi %kbb, %nbb : tensor<64x64xi32>
    %pb = tt.splat %b : !tt.ptr<f8E4M3FN> -> tensor<64x64x!tt.ptr<f8E4M3FN>>
    %pb1 = tt.addptr %pb, %offb : tensor<64x64x!tt.ptr<f8E4M3FN>>, tensor<64x64xi32>
    %va = tt.load %pa1 : tensor<32x64x!tt.ptr<f8E4M3FN>>
    %vb = tt.load %pb1 : tensor<64x64x!tt.ptr<f8E4M3FN>>
    %d = tt.dot %va, %vb, %zero : tensor<32x64xf8E4M3FN> * tensor<64x64xf8E4M3FN> -> tensor<32x64xf32>
    %s = arith.addf %acc, %d : tensor<32x64xf32>
    scf.yield %s : tensor<32x64xf32>
  }
  %rc = tt.broadcast %rn2 : tensor<1x64xi32> -> tensor<32x64xi32>
  %pc = tt.splat %c : !tt.ptr<f32> -> tensor<32x64x!tt.ptr<f32>>
  %pc2 = tt.addptr %pc, %rc : tensor<32x64x!tt.ptr<f32>>, tensor<32x64xi32>
  tt.store %pc2, %r : tensor<32x64x!tt.ptr<f32>>
  tt.return
}

// -----

// The same `acc + dot(a, b, 0)` loop on f16 (Triton folds f16's into the
// dot, but TTIR may carry it): 16-bit slots, A 32 x (64 + 8) x 2 = 4608 B,
// B 64 x 72 x 2 = 9216 B after A's 3 slots; local_dot from zero and the
// addf in the loop.
// CHECK-LABEL: tt.func public @f16_acc_plus
// CHECK: scf.for {{.*}} iter_args(%[[ACC:[^ ]+]] = %{{[^ ]+}}, %[[SLOT:[^ ]+]] = %c0_i32
// CHECK: %[[ZERO:.+]] = arith.constant dense<0.000000e+00> : tensor<32x64xf32, #mma>
// CHECK: %[[D:.+]] = kgpu.local_dot %[[ZERO]] slot %[[SLOT]] {aOffset = 0 : i64, aSlotBytes = 4608 : i64, aType = tensor<32x64xf16, {{.*}}>, bKMajor, bOffset = 13824 : i64, bSlotBytes = 9216 : i64, bType = tensor<64x64xf16, {{.*}}>, numSlots = 3 : i32}
// CHECK: %[[SUM:.+]] = arith.addf %[[ACC]], %[[D]] : tensor<32x64xf32, #mma>
// CHECK: scf.yield %[[SUM]]
// LLVM-LABEL: llvm.func @f16_acc_plus
// LLVM-NOT: nvvm.convert.f8x2
// LLVM: llvm.return
//
// With 4 warps on sm_90a too: 32 rows are fewer than one wgmma's 64, so
// the loop is pipelined for mma.sync.
// WGMMA-LABEL: tt.func public @f16_acc_plus
// WGMMA: kgpu.local_dot
// WGMMA-NOT: wgmma
// WGMMA: arith.addf
// WGMMA: tt.return
tt.func public @f16_acc_plus(%a: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %b: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %c: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %n: i32) {
  %zero = arith.constant dense<0.0> : tensor<32x64xf32>
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c64 = arith.constant 64 : i32
  %lda = arith.constant dense<1024> : tensor<32x1xi32>
  %ldb = arith.constant dense<1024> : tensor<1x64xi32>
  %rm = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32>
  %rm2 = tt.expand_dims %rm {axis = 1 : i32} : tensor<32xi32> -> tensor<32x1xi32>
  %rma = arith.muli %rm2, %lda : tensor<32x1xi32>
  %rk = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
  %rka = tt.expand_dims %rk {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
  %rkb = tt.expand_dims %rk {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
  %rn = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
  %rn2 = tt.expand_dims %rn {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
  %rnb = arith.muli %rn2, %ldb : tensor<1x64xi32>
  %r = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<32x64xf32>) : i32 {
    %kk = arith.muli %k, %c64 : i32
    %kks = tt.splat %kk : i32 -> tensor<1x64xi32>
    %ka = arith.addi %rka, %kks : tensor<1x64xi32>
    %kab = tt.broadcast %ka : tensor<1x64xi32> -> tensor<32x64xi32>
    %mab = tt.broadcast %rma : tensor<32x1xi32> -> tensor<32x64xi32>
    %offa = arith.addi %kab, %mab : tensor<32x64xi32>
    %pa = tt.splat %a : !tt.ptr<f16> -> tensor<32x64x!tt.ptr<f16>>
    %pa1 = tt.addptr %pa, %offa : tensor<32x64x!tt.ptr<f16>>, tensor<32x64xi32>
    %kbs = tt.splat %kk : i32 -> tensor<64x1xi32>
    %kb = arith.addi %rkb, %kbs : tensor<64x1xi32>
    %kbb = tt.broadcast %kb : tensor<64x1xi32> -> tensor<64x64xi32>
    %nbb = tt.broadcast %rnb : tensor<1x64xi32> -> tensor<64x64xi32>
    %offb = arith.addi %kbb, %nbb : tensor<64x64xi32>
    %pb = tt.splat %b : !tt.ptr<f16> -> tensor<64x64x!tt.ptr<f16>>
    %pb1 = tt.addptr %pb, %offb : tensor<64x64x!tt.ptr<f16>>, tensor<64x64xi32>
    %va = tt.load %pa1 : tensor<32x64x!tt.ptr<f16>>
    %vb = tt.load %pb1 : tensor<64x64x!tt.ptr<f16>>
    %d = tt.dot %va, %vb, %zero : tensor<32x64xf16> * tensor<64x64xf16> -> tensor<32x64xf32>
    %s = arith.addf %acc, %d : tensor<32x64xf32>
    scf.yield %s : tensor<32x64xf32>
  }
  %rc = tt.broadcast %rn2 : tensor<1x64xi32> -> tensor<32x64xi32>
  %pc = tt.splat %c : !tt.ptr<f32> -> tensor<32x64x!tt.ptr<f32>>
  %pc2 = tt.addptr %pc, %rc : tensor<32x64x!tt.ptr<f32>>, tensor<32x64xi32>
  tt.store %pc2, %r : tensor<32x64x!tt.ptr<f32>>
  tt.return
}

// -----

// 128 rows on 4 warps: the accumulator takes 64 registers a thread, so a
// wgmma product from zero fits beside it (wgmmaFromZeroFits):
// kgpu-assign-layouts gives this dot, whose sum the loop adds, wgmma's
// layout (isLoopCarriedDot), and the loop is a wgmma loop whose copies for
// iteration i + 2 are issued right after the slot wait (the previous
// iteration retired its group), whose group is retired in its own
// iteration (wgmma_wait 0) and added to the carried sum; nothing is in
// flight after the loop (no scf.if guard).
// WGMMA: #mma = #kgpu.mma<{version = 2, warpsPerCTA = [4, 1], instrShape = [16, 8]}>
// WGMMA-LABEL: tt.func public @f16_acc_plus_m128
// WGMMA: scf.for {{.*}} iter_args(%[[ACC:[^ ]+]] = %{{[^ ]+}}, %[[SLOT:[^ ]+]] = %{{[^ ]+}})
// WGMMA-NEXT: kgpu.async_wait 1
// WGMMA: kgpu.async_copy
// WGMMA: kgpu.async_copy
// WGMMA: %[[ZERO:.+]] = arith.constant dense<0.000000e+00> : tensor<128x64xf32, #mma>
// WGMMA-NEXT: %[[D:.+]] = kgpu.local_dot %[[ZERO]] slot %[[SLOT]] {{.*}}noWait{{.*}}wgmma{{.*}} : tensor<128x64xf32, #mma>
// WGMMA-NEXT: %[[W:.+]] = kgpu.wgmma_wait 0 %[[D]] : tensor<128x64xf32, #mma>
// WGMMA-NEXT: %[[SUM:.+]] = arith.addf %[[ACC]], %[[W]] : tensor<128x64xf32, #mma>
// WGMMA-NOT: kgpu.async_copy
// WGMMA: scf.yield %[[SUM]]
// WGMMA-NEXT: }
// WGMMA-NEXT: kgpu.async_wait 0
// WGMMA-NOT: scf.if
// WGMMA: tt.return
// CHECK-LABEL: tt.func public @f16_acc_plus_m128
// CHECK: kgpu.local_dot
// CHECK: arith.addf
tt.func public @f16_acc_plus_m128(%a: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %b: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %c: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %n: i32) {
  %zero = arith.constant dense<0.0> : tensor<128x64xf32>
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c64 = arith.constant 64 : i32
  %lda = arith.constant dense<1024> : tensor<128x1xi32>
  %ldb = arith.constant dense<1024> : tensor<1x64xi32>
  %rm = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32>
  %rm2 = tt.expand_dims %rm {axis = 1 : i32} : tensor<128xi32> -> tensor<128x1xi32>
  %rma = arith.muli %rm2, %lda : tensor<128x1xi32>
  %rk = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
  %rka = tt.expand_dims %rk {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
  %rkb = tt.expand_dims %rk {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
  %rn = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
  %rn2 = tt.expand_dims %rn {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
  %rnB = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
  %rnB2 = tt.expand_dims %rnB {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
  %rnb = arith.muli %rnB2, %ldb : tensor<1x64xi32>
  %r = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<128x64xf32>) : i32 {
    %kk = arith.muli %k, %c64 : i32
    %kks = tt.splat %kk : i32 -> tensor<1x64xi32>
    %ka = arith.addi %rka, %kks : tensor<1x64xi32>
    %kab = tt.broadcast %ka : tensor<1x64xi32> -> tensor<128x64xi32>
    %mab = tt.broadcast %rma : tensor<128x1xi32> -> tensor<128x64xi32>
    %offa = arith.addi %kab, %mab : tensor<128x64xi32>
    %pa = tt.splat %a : !tt.ptr<f16> -> tensor<128x64x!tt.ptr<f16>>
    %pa1 = tt.addptr %pa, %offa : tensor<128x64x!tt.ptr<f16>>, tensor<128x64xi32>
    %kbs = tt.splat %kk : i32 -> tensor<64x1xi32>
    %kb = arith.addi %rkb, %kbs : tensor<64x1xi32>
    %kbb = tt.broadcast %kb : tensor<64x1xi32> -> tensor<64x64xi32>
    %nbb = tt.broadcast %rnb : tensor<1x64xi32> -> tensor<64x64xi32>
    %offb = arith.addi %kbb, %nbb : tensor<64x64xi32>
    %pb = tt.splat %b : !tt.ptr<f16> -> tensor<64x64x!tt.ptr<f16>>
    %pb1 = tt.addptr %pb, %offb : tensor<64x64x!tt.ptr<f16>>, tensor<64x64xi32>
    %va = tt.load %pa1 : tensor<128x64x!tt.ptr<f16>>
    %vb = tt.load %pb1 : tensor<64x64x!tt.ptr<f16>>
    %d = tt.dot %va, %vb, %zero : tensor<128x64xf16> * tensor<64x64xf16> -> tensor<128x64xf32>
    %s = arith.addf %acc, %d : tensor<128x64xf32>
    scf.yield %s : tensor<128x64xf32>
  }
  %rc = tt.broadcast %rn2 : tensor<1x64xi32> -> tensor<128x64xi32>
  %pc = tt.splat %c : !tt.ptr<f32> -> tensor<128x64x!tt.ptr<f32>>
  %pc2 = tt.addptr %pc, %rc : tensor<128x64x!tt.ptr<f32>>, tensor<128x64xi32>
  tt.store %pc2, %r : tensor<128x64x!tt.ptr<f32>>
  tt.return
}

// -----

// e4m3 x e5m2: the dot upcasts both, but slots hold one format (local_dot
// decodes A and B alike), so the loop is not pipelined and compiles as
// before.
// CHECK-LABEL: tt.func public @f8_mixed_formats
// CHECK-NOT: kgpu.local_dot
// CHECK: tt.fp_to_fp {{.*}}f8E4M3FN
// CHECK: tt.fp_to_fp {{.*}}f8E5M2
// CHECK: tt.dot
// CHECK: tt.return
// LLVM-LABEL: llvm.func @f8_mixed_formats
// LLVM-NOT: nvvm.cp.async
// LLVM: nvvm.convert.f8x2.to.f16x2 %{{.*}} : vector<2xi8>(f8E4M3FN)
// LLVM: nvvm.convert.f8x2.to.f16x2 %{{.*}} : vector<2xi8>(f8E5M2)
// LLVM: llvm.return
tt.func public @f8_mixed_formats(%a: !tt.ptr<f8E4M3FN> {tt.divisibility = 16 : i32}, %b: !tt.ptr<f8E5M2> {tt.divisibility = 16 : i32}, %c: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %n: i32) {
  %zero = arith.constant dense<0.0> : tensor<32x64xf32>
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c64 = arith.constant 64 : i32
  %lda = arith.constant dense<1024> : tensor<32x1xi32>
  %ldb = arith.constant dense<1024> : tensor<1x64xi32>
  %rm = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32>
  %rm2 = tt.expand_dims %rm {axis = 1 : i32} : tensor<32xi32> -> tensor<32x1xi32>
  %rma = arith.muli %rm2, %lda : tensor<32x1xi32>
  %rk = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
  %rka = tt.expand_dims %rk {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
  %rkb = tt.expand_dims %rk {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
  %rn = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
  %rn2 = tt.expand_dims %rn {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
  %rnb = arith.muli %rn2, %ldb : tensor<1x64xi32>
  %r = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<32x64xf32>) : i32 {
    %kk = arith.muli %k, %c64 : i32
    %kks = tt.splat %kk : i32 -> tensor<1x64xi32>
    %ka = arith.addi %rka, %kks : tensor<1x64xi32>
    %kab = tt.broadcast %ka : tensor<1x64xi32> -> tensor<32x64xi32>
    %mab = tt.broadcast %rma : tensor<32x1xi32> -> tensor<32x64xi32>
    %offa = arith.addi %kab, %mab : tensor<32x64xi32>
    %pa = tt.splat %a : !tt.ptr<f8E4M3FN> -> tensor<32x64x!tt.ptr<f8E4M3FN>>
    %pa1 = tt.addptr %pa, %offa : tensor<32x64x!tt.ptr<f8E4M3FN>>, tensor<32x64xi32>
    %kbs = tt.splat %kk : i32 -> tensor<64x1xi32>
    %kb = arith.addi %rkb, %kbs : tensor<64x1xi32>
    %kbb = tt.broadcast %kb : tensor<64x1xi32> -> tensor<64x64xi32>
    %nbb = tt.broadcast %rnb : tensor<1x64xi32> -> tensor<64x64xi32>
    %offb = arith.addi %kbb, %nbb : tensor<64x64xi32>
    %pb = tt.splat %b : !tt.ptr<f8E5M2> -> tensor<64x64x!tt.ptr<f8E5M2>>
    %pb1 = tt.addptr %pb, %offb : tensor<64x64x!tt.ptr<f8E5M2>>, tensor<64x64xi32>
    %va = tt.load %pa1 : tensor<32x64x!tt.ptr<f8E4M3FN>>
    %vb = tt.load %pb1 : tensor<64x64x!tt.ptr<f8E5M2>>
    %d = tt.dot %va, %vb, %zero : tensor<32x64xf8E4M3FN> * tensor<64x64xf8E5M2> -> tensor<32x64xf32>
    %s = arith.addf %acc, %d : tensor<32x64xf32>
    scf.yield %s : tensor<32x64xf32>
  }
  %rc = tt.broadcast %rn2 : tensor<1x64xi32> -> tensor<32x64xi32>
  %pc = tt.splat %c : !tt.ptr<f32> -> tensor<32x64x!tt.ptr<f32>>
  %pc2 = tt.addptr %pc, %rc : tensor<32x64x!tt.ptr<f32>>, tensor<32x64xi32>
  tt.store %pc2, %r : tensor<32x64x!tt.ptr<f32>>
  tt.return
}

