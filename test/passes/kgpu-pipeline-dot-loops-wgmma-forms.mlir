// RUN: kiln-opt %s -split-input-file -tt-upcast-f8-dot-operands -kgpu-assign-layouts="num-warps=4 mma-version=3" "-kgpu-pipeline-dot-loops=num-stages=3 wgmma" | FileCheck %s --check-prefix=WGMMA --enable-var-scope
// RUN: kiln-opt %s -split-input-file -tt-upcast-f8-dot-operands -kgpu-assign-layouts="num-warps=4 mma-version=3" "-kgpu-pipeline-dot-loops=num-stages=3 wgmma" "-kgpu-convert-to-llvm=arch=sm_90a ptx-version=80" | FileCheck %s --check-prefix=LLVM --enable-var-scope

// The forms of a wgmma-sized K loop (4 warps, sm_90a) besides the 16-bit
// dot that carries its accumulator (kgpu-pipeline-dot-loops-wgmma.mlir).

// `acc + dot(a, b, 0)` (the addf form, f16), 256 rows on 4 warps: the
// accumulator takes 128 registers a thread, too many to hold a wgmma
// product from zero beside it (wgmmaFromZeroFits; 64 rows fewer do:
// kgpu-pipeline-dot-loops-f8.mlir's f16_acc_plus_m128), so the dot keeps
// mma.sync's layout (warps along M only, [4, 1], for this shape) and the
// loop is pipelined for mma.sync with the wgmma option too.
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

// -----

// f8 (e4m3), A and B K-contiguous, the accumulator carried by the dot, 128
// rows on 4 warps, maxNumImpreciseAcc 2^30 (Triton's default for f8): wgmma's
// e4m3 form on f8 slots, no upcast. A K of 64
// bytes fills half of each 128-byte swizzle row: A slots 128 x 128 B =
// 16384, B 64 x 128 B = 8192 after A's 3 slots at 49152. Per K step of
// 32 bytes, one m64n64k32 per 64-row block: 2 blocks x 2 steps = 4, in
// one inline asm statement, K step by K step over the blocks (accumulators
// $0-$31 and $32-$63, all tied); f8 has no transpose immediates.
// WGMMA-LABEL: tt.func public @f8_wgmma_128x64x64
// WGMMA: kgpu.async_copy {{.*}} {offset = 0 : i64, rowStride = 64 : i64, slotBytes = 16384 : i64, swizzle = 1 : i32} : tensor<128x64x!tt.ptr<f8E4M3FN>
// WGMMA: kgpu.async_copy {{.*}} {offset = 49152 : i64, rowStride = 64 : i64, slotBytes = 8192 : i64, swizzle = 1 : i32, transpose} : tensor<64x64x!tt.ptr<f8E4M3FN>
// WGMMA: kgpu.local_dot {{.*}}aType = tensor<128x64xf8E4M3FN, {{.*}}bKMajor{{.*}}bType = tensor<64x64xf8E4M3FN, {{.*}}noWait{{.*}}wgmma
// WGMMA-NOT: tt.fp_to_fp
// WGMMA: tt.return
// LLVM-LABEL: llvm.func @f8_wgmma_128x64x64
// LLVM-NOT: nvvm.wgmma.mma_async
// LLVM-NOT: nvvm.convert.f8x2
// LLVM: nvvm.wgmma.fence.aligned
// LLVM-NOT: wgmma.mma_async
// LLVM: llvm.inline_asm has_side_effects asm_dialect = att "{\0A.reg .pred p;\0Asetp.ne.b32 p, 1, 0;\0A
// LLVM-NOT: wgmma
// LLVM-SAME: wgmma.mma_async.sync.aligned.m64n64k32.f32.e4m3.e4m3 {$0, {{[^}]*}}, $31}, $128, $129, p, 1,  1;\0A
// LLVM-NOT: wgmma
// LLVM-SAME: wgmma.mma_async.sync.aligned.m64n64k32.f32.e4m3.e4m3 {$32, {{[^}]*}}, $63}, $130, $131, p, 1,  1;\0A
// LLVM-NOT: wgmma
// LLVM-SAME: wgmma.mma_async.sync.aligned.m64n64k32.f32.e4m3.e4m3 {$0, {{[^}]*}}, $31}, $132, $133, p, 1,  1;\0A
// LLVM-NOT: wgmma
// LLVM-SAME: wgmma.mma_async.sync.aligned.m64n64k32.f32.e4m3.e4m3 {$32, {{[^}]*}}, $63}, $134, $135, p, 1,  1;\0A}"
// LLVM-SAME: "{{(=f,){64}0,([0-9]+,){62}63,(l,){7}l}}"
// LLVM-NOT: wgmma.mma_async
// LLVM: nvvm.wgmma.commit.group.sync.aligned
// LLVM-NOT: nvvm.wgmma.mma_async
// LLVM-NOT: nvvm.convert.f8x2
// LLVM: llvm.return
tt.func public @f8_wgmma_128x64x64(%a: !tt.ptr<f8E4M3FN> {tt.divisibility = 16 : i32}, %b: !tt.ptr<f8E4M3FN> {tt.divisibility = 16 : i32}, %c: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %n: i32) {
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
    %pa = tt.splat %a : !tt.ptr<f8E4M3FN> -> tensor<128x64x!tt.ptr<f8E4M3FN>>
    %pa1 = tt.addptr %pa, %offa : tensor<128x64x!tt.ptr<f8E4M3FN>>, tensor<128x64xi32>
    %kbs = tt.splat %kk : i32 -> tensor<64x1xi32>
    %kb = arith.addi %rkb, %kbs : tensor<64x1xi32>
    %kbb = tt.broadcast %kb : tensor<64x1xi32> -> tensor<64x64xi32>
    %nbb = tt.broadcast %rnb : tensor<1x64xi32> -> tensor<64x64xi32>
    %offb = arith.addi %kbb, %nbb : tensor<64x64xi32>
    %pb = tt.splat %b : !tt.ptr<f8E4M3FN> -> tensor<64x64x!tt.ptr<f8E4M3FN>>
    %pb1 = tt.addptr %pb, %offb : tensor<64x64x!tt.ptr<f8E4M3FN>>, tensor<64x64xi32>
    %va = tt.load %pa1 : tensor<128x64x!tt.ptr<f8E4M3FN>>
    %vb = tt.load %pb1 : tensor<64x64x!tt.ptr<f8E4M3FN>>
    %d = tt.dot %va, %vb, %acc {maxNumImpreciseAcc = 1073741824 : i32} : tensor<128x64xf8E4M3FN> * tensor<64x64xf8E4M3FN> -> tensor<128x64xf32>
    scf.yield %d : tensor<128x64xf32>
  }
  %rc = tt.broadcast %rn2 : tensor<1x64xi32> -> tensor<128x64xi32>
  %pc = tt.splat %c : !tt.ptr<f32> -> tensor<128x64x!tt.ptr<f32>>
  %pc2 = tt.addptr %pc, %rc : tensor<128x64x!tt.ptr<f32>>, tensor<128x64xi32>
  tt.store %pc2, %r : tensor<128x64x!tt.ptr<f32>>
  tt.return
}

// -----

// The same f8 loop as Triton's frontend writes it: the store's row and
// column offsets are A's row tensor and B's column range (before the
// stride), so A's and B's loads first share one blocked group with the
// 128 x 64 store, coalesced along N, where B is contiguous along K.
// kgpu-assign-layouts gives the index computations a copy per use (as for
// 16-bit operands: it looks through the upcast to f16 to see the dot
// operands), B's load is read along K and the loop takes wgmma's e4m3 form
// on f8 slots. (Without the copies B was read a byte at a time, the loop
// was not pipelined, and a 64 x 256 e4m3 tile on 4 warps spilled 344
// bytes.)
// WGMMA-LABEL: tt.func public @f8_wgmma_shared_indices
// WGMMA: kgpu.async_copy {{.*}} {offset = 0 : i64, rowStride = 64 : i64, slotBytes = 16384 : i64, swizzle = 1 : i32} : tensor<128x64x!tt.ptr<f8E4M3FN>
// WGMMA: kgpu.async_copy {{.*}} {offset = 49152 : i64, rowStride = 64 : i64, slotBytes = 8192 : i64, swizzle = 1 : i32, transpose} : tensor<64x64x!tt.ptr<f8E4M3FN>
// WGMMA: kgpu.local_dot {{.*}}aType = tensor<128x64xf8E4M3FN, {{.*}}bKMajor{{.*}}bType = tensor<64x64xf8E4M3FN, {{.*}}noWait{{.*}}wgmma
// WGMMA-NOT: tt.fp_to_fp
// WGMMA: tt.return
// LLVM-LABEL: llvm.func @f8_wgmma_shared_indices
// LLVM-NOT: nvvm.convert.f8x2
// LLVM: wgmma.mma_async.sync.aligned.m64n64k32.f32.e4m3.e4m3
// LLVM-NOT: nvvm.convert.f8x2
// LLVM: llvm.return
tt.func public @f8_wgmma_shared_indices(%a: !tt.ptr<f8E4M3FN> {tt.divisibility = 16 : i32}, %b: !tt.ptr<f8E4M3FN> {tt.divisibility = 16 : i32}, %c: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %n: i32) {
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
  %rnb = arith.muli %rn2, %ldb : tensor<1x64xi32>
  %r = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<128x64xf32>) : i32 {
    %kk = arith.muli %k, %c64 : i32
    %kks = tt.splat %kk : i32 -> tensor<1x64xi32>
    %ka = arith.addi %rka, %kks : tensor<1x64xi32>
    %kab = tt.broadcast %ka : tensor<1x64xi32> -> tensor<128x64xi32>
    %mab = tt.broadcast %rma : tensor<128x1xi32> -> tensor<128x64xi32>
    %offa = arith.addi %kab, %mab : tensor<128x64xi32>
    %pa = tt.splat %a : !tt.ptr<f8E4M3FN> -> tensor<128x64x!tt.ptr<f8E4M3FN>>
    %pa1 = tt.addptr %pa, %offa : tensor<128x64x!tt.ptr<f8E4M3FN>>, tensor<128x64xi32>
    %kbs = tt.splat %kk : i32 -> tensor<64x1xi32>
    %kb = arith.addi %rkb, %kbs : tensor<64x1xi32>
    %kbb = tt.broadcast %kb : tensor<64x1xi32> -> tensor<64x64xi32>
    %nbb = tt.broadcast %rnb : tensor<1x64xi32> -> tensor<64x64xi32>
    %offb = arith.addi %kbb, %nbb : tensor<64x64xi32>
    %pb = tt.splat %b : !tt.ptr<f8E4M3FN> -> tensor<64x64x!tt.ptr<f8E4M3FN>>
    %pb1 = tt.addptr %pb, %offb : tensor<64x64x!tt.ptr<f8E4M3FN>>, tensor<64x64xi32>
    %va = tt.load %pa1 : tensor<128x64x!tt.ptr<f8E4M3FN>>
    %vb = tt.load %pb1 : tensor<64x64x!tt.ptr<f8E4M3FN>>
    %d = tt.dot %va, %vb, %acc {maxNumImpreciseAcc = 1073741824 : i32} : tensor<128x64xf8E4M3FN> * tensor<64x64xf8E4M3FN> -> tensor<128x64xf32>
    scf.yield %d : tensor<128x64xf32>
  }
  %crow = arith.muli %rm2, %lda : tensor<128x1xi32>
  %crb = tt.broadcast %crow : tensor<128x1xi32> -> tensor<128x64xi32>
  %rc = tt.broadcast %rn2 : tensor<1x64xi32> -> tensor<128x64xi32>
  %offc = arith.addi %crb, %rc : tensor<128x64xi32>
  %pc = tt.splat %c : !tt.ptr<f32> -> tensor<128x64x!tt.ptr<f32>>
  %pc2 = tt.addptr %pc, %offc : tensor<128x64x!tt.ptr<f32>>, tensor<128x64xi32>
  tt.store %pc2, %r : tensor<128x64x!tt.ptr<f32>>
  tt.return
}

// -----

// An f8 loop whose slots do not fit: 64 x 256 of A and 256 x 256 of B
// (K-major, 256-byte rows), 80 KB a stage, 240 KB over 3 stages, beyond
// sm_90's 227 KB a CTA. The loop stays as it is and compiles unpipelined
// (helper-69: before f8 loads were seen through their upcast such loops
// were never pipelined; then kgpu-convert-to-llvm refused the kernel's
// shared memory, naming the stages).
// WGMMA-LABEL: tt.func public @f8_slots_too_big
// WGMMA-NOT: kgpu.async_copy
// WGMMA-NOT: kgpu.local_dot
// WGMMA: tt.fp_to_fp
// WGMMA: tt.dot
// WGMMA: tt.return
// LLVM-LABEL: llvm.func @f8_slots_too_big
// LLVM: llvm.return
tt.func public @f8_slots_too_big(%a: !tt.ptr<f8E4M3FN> {tt.divisibility = 16 : i32}, %b: !tt.ptr<f8E4M3FN> {tt.divisibility = 16 : i32}, %c: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %n: i32) {
  %zero = arith.constant dense<0.0> : tensor<64x256xf32>
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c64 = arith.constant 256 : i32
  %lda = arith.constant dense<1024> : tensor<64x1xi32>
  %ldb = arith.constant dense<1024> : tensor<1x256xi32>
  %rm = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
  %rm2 = tt.expand_dims %rm {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
  %rma = arith.muli %rm2, %lda : tensor<64x1xi32>
  %rk = tt.make_range {end = 256 : i32, start = 0 : i32} : tensor<256xi32>
  %rka = tt.expand_dims %rk {axis = 0 : i32} : tensor<256xi32> -> tensor<1x256xi32>
  %rkb = tt.expand_dims %rk {axis = 1 : i32} : tensor<256xi32> -> tensor<256x1xi32>
  %rn = tt.make_range {end = 256 : i32, start = 0 : i32} : tensor<256xi32>
  %rn2 = tt.expand_dims %rn {axis = 0 : i32} : tensor<256xi32> -> tensor<1x256xi32>
  %rnb = arith.muli %rn2, %ldb : tensor<1x256xi32>
  %r = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<64x256xf32>) : i32 {
    %kk = arith.muli %k, %c64 : i32
    %kks = tt.splat %kk : i32 -> tensor<1x256xi32>
    %ka = arith.addi %rka, %kks : tensor<1x256xi32>
    %kab = tt.broadcast %ka : tensor<1x256xi32> -> tensor<64x256xi32>
    %mab = tt.broadcast %rma : tensor<64x1xi32> -> tensor<64x256xi32>
    %offa = arith.addi %kab, %mab : tensor<64x256xi32>
    %pa = tt.splat %a : !tt.ptr<f8E4M3FN> -> tensor<64x256x!tt.ptr<f8E4M3FN>>
    %pa1 = tt.addptr %pa, %offa : tensor<64x256x!tt.ptr<f8E4M3FN>>, tensor<64x256xi32>
    %kbs = tt.splat %kk : i32 -> tensor<256x1xi32>
    %kb = arith.addi %rkb, %kbs : tensor<256x1xi32>
    %kbb = tt.broadcast %kb : tensor<256x1xi32> -> tensor<256x256xi32>
    %nbb = tt.broadcast %rnb : tensor<1x256xi32> -> tensor<256x256xi32>
    %offb = arith.addi %kbb, %nbb : tensor<256x256xi32>
    %pb = tt.splat %b : !tt.ptr<f8E4M3FN> -> tensor<256x256x!tt.ptr<f8E4M3FN>>
    %pb1 = tt.addptr %pb, %offb : tensor<256x256x!tt.ptr<f8E4M3FN>>, tensor<256x256xi32>
    %va = tt.load %pa1 : tensor<64x256x!tt.ptr<f8E4M3FN>>
    %vb = tt.load %pb1 : tensor<256x256x!tt.ptr<f8E4M3FN>>
    %d = tt.dot %va, %vb, %acc {maxNumImpreciseAcc = 1073741824 : i32} : tensor<64x256xf8E4M3FN> * tensor<256x256xf8E4M3FN> -> tensor<64x256xf32>
    scf.yield %d : tensor<64x256xf32>
  }
  %crow = arith.muli %rm2, %lda : tensor<64x1xi32>
  %crb = tt.broadcast %crow : tensor<64x1xi32> -> tensor<64x256xi32>
  %rc = tt.broadcast %rn2 : tensor<1x256xi32> -> tensor<64x256xi32>
  %offc = arith.addi %crb, %rc : tensor<64x256xi32>
  %pc = tt.splat %c : !tt.ptr<f32> -> tensor<64x256x!tt.ptr<f32>>
  %pc2 = tt.addptr %pc, %offc : tensor<64x256x!tt.ptr<f32>>, tensor<64x256xi32>
  tt.store %pc2, %r : tensor<64x256x!tt.ptr<f32>>
  tt.return
}

// -----

// f8 B stored N x K and transposed in the kernel (`tl.dot(a, b.T)`): the dot
// reads tt.fp_to_fp (tt-upcast-f8-dot-operands) of tt.trans [1, 0] of the
// load. The tile is copied as loaded, N rows of K (no transpose), and
// wgmma's e4m3 form reads it K-major; local_dot's bType is the transposed
// f8 tile. (Before, such a loop was not pipelined and upcast every tile.)
// WGMMA-LABEL: tt.func public @f8_wgmma_b_trans
// WGMMA: kgpu.async_copy {{.*}} {offset = 0 : i64, rowStride = 64 : i64, slotBytes = 16384 : i64, swizzle = 1 : i32} : tensor<128x64x!tt.ptr<f8E4M3FN>
// WGMMA: kgpu.async_copy {{.*}} {offset = 49152 : i64, rowStride = 64 : i64, slotBytes = 8192 : i64, swizzle = 1 : i32} : tensor<64x64x!tt.ptr<f8E4M3FN>
// WGMMA: kgpu.local_dot {{.*}}aType = tensor<128x64xf8E4M3FN, {{.*}}bKMajor{{.*}}bType = tensor<64x64xf8E4M3FN, {{.*}}noWait{{.*}}wgmma
// WGMMA-NOT: tt.trans
// WGMMA: tt.return
// LLVM-LABEL: llvm.func @f8_wgmma_b_trans
// LLVM-NOT: nvvm.convert.f8x2
// LLVM: wgmma.mma_async.sync.aligned.m64n64k32.f32.e4m3.e4m3
// LLVM-NOT: nvvm.convert.f8x2
// LLVM: llvm.return
tt.func public @f8_wgmma_b_trans(%a: !tt.ptr<f8E4M3FN> {tt.divisibility = 16 : i32}, %b: !tt.ptr<f8E4M3FN> {tt.divisibility = 16 : i32}, %c: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %n: i32) {
  %zero = arith.constant dense<0.0> : tensor<128x64xf32>
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c64 = arith.constant 64 : i32
  %lda = arith.constant dense<1024> : tensor<128x1xi32>
  %ldb = arith.constant dense<1024> : tensor<64x1xi32>
  %rm = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32>
  %rm2 = tt.expand_dims %rm {axis = 1 : i32} : tensor<128xi32> -> tensor<128x1xi32>
  %rma = arith.muli %rm2, %lda : tensor<128x1xi32>
  %rk = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
  %rka = tt.expand_dims %rk {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
  %rnB = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
  %rnB2 = tt.expand_dims %rnB {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
  %rnb = arith.muli %rnB2, %ldb : tensor<64x1xi32>
  %rn = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
  %rn2 = tt.expand_dims %rn {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
  %r = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<128x64xf32>) : i32 {
    %kk = arith.muli %k, %c64 : i32
    %kks = tt.splat %kk : i32 -> tensor<1x64xi32>
    %ka = arith.addi %rka, %kks : tensor<1x64xi32>
    %kab = tt.broadcast %ka : tensor<1x64xi32> -> tensor<128x64xi32>
    %mab = tt.broadcast %rma : tensor<128x1xi32> -> tensor<128x64xi32>
    %offa = arith.addi %kab, %mab : tensor<128x64xi32>
    %pa = tt.splat %a : !tt.ptr<f8E4M3FN> -> tensor<128x64x!tt.ptr<f8E4M3FN>>
    %pa1 = tt.addptr %pa, %offa : tensor<128x64x!tt.ptr<f8E4M3FN>>, tensor<128x64xi32>
    %kbb = tt.broadcast %ka : tensor<1x64xi32> -> tensor<64x64xi32>
    %nbb = tt.broadcast %rnb : tensor<64x1xi32> -> tensor<64x64xi32>
    %offb = arith.addi %kbb, %nbb : tensor<64x64xi32>
    %pb = tt.splat %b : !tt.ptr<f8E4M3FN> -> tensor<64x64x!tt.ptr<f8E4M3FN>>
    %pb1 = tt.addptr %pb, %offb : tensor<64x64x!tt.ptr<f8E4M3FN>>, tensor<64x64xi32>
    %va = tt.load %pa1 : tensor<128x64x!tt.ptr<f8E4M3FN>>
    %vb = tt.load %pb1 : tensor<64x64x!tt.ptr<f8E4M3FN>>
    %vbt = tt.trans %vb {order = array<i32: 1, 0>} : tensor<64x64xf8E4M3FN> -> tensor<64x64xf8E4M3FN>
    %d = tt.dot %va, %vbt, %acc {maxNumImpreciseAcc = 1073741824 : i32} : tensor<128x64xf8E4M3FN> * tensor<64x64xf8E4M3FN> -> tensor<128x64xf32>
    scf.yield %d : tensor<128x64xf32>
  }
  %rc = tt.broadcast %rn2 : tensor<1x64xi32> -> tensor<128x64xi32>
  %pc = tt.splat %c : !tt.ptr<f32> -> tensor<128x64x!tt.ptr<f32>>
  %pc2 = tt.addptr %pc, %rc : tensor<128x64x!tt.ptr<f32>>, tensor<128x64xi32>
  tt.store %pc2, %r : tensor<128x64x!tt.ptr<f32>>
  tt.return
}

// -----

// The same f8 loop carrying a pointer tensor it advances but never loads
// from, and that nothing reads after the loop (helper-69: such a loop was
// left unpipelined): the value is left out of the pipelined loop, which
// carries the accumulator and the slot index only.
// WGMMA-LABEL: tt.func public @dead_carried_pointer
// WGMMA: scf.for {{.*}} iter_args(%{{[^ ]+}} = %{{[^ ]+}}, %{{[^ ]+}} = %{{[^ ]+}}) -> (tensor<128x64xf32, #mma>, i32)
// WGMMA-NOT: tt.addptr
// WGMMA: kgpu.local_dot {{.*}}wgmma
// WGMMA: scf.yield
// WGMMA: tt.return
tt.func public @dead_carried_pointer(%a: !tt.ptr<f8E4M3FN> {tt.divisibility = 16 : i32}, %b: !tt.ptr<f8E4M3FN> {tt.divisibility = 16 : i32}, %c: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %n: i32) {
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
  %p0 = tt.splat %a : !tt.ptr<f8E4M3FN> -> tensor<128x64x!tt.ptr<f8E4M3FN>>
  %step = arith.constant dense<64> : tensor<128x64xi32>
  %r:2 = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %zero, %dead = %p0) -> (tensor<128x64xf32>, tensor<128x64x!tt.ptr<f8E4M3FN>>) : i32 {
    %kk = arith.muli %k, %c64 : i32
    %kks = tt.splat %kk : i32 -> tensor<1x64xi32>
    %ka = arith.addi %rka, %kks : tensor<1x64xi32>
    %kab = tt.broadcast %ka : tensor<1x64xi32> -> tensor<128x64xi32>
    %mab = tt.broadcast %rma : tensor<128x1xi32> -> tensor<128x64xi32>
    %offa = arith.addi %kab, %mab : tensor<128x64xi32>
    %pa = tt.splat %a : !tt.ptr<f8E4M3FN> -> tensor<128x64x!tt.ptr<f8E4M3FN>>
    %pa1 = tt.addptr %pa, %offa : tensor<128x64x!tt.ptr<f8E4M3FN>>, tensor<128x64xi32>
    %kbs = tt.splat %kk : i32 -> tensor<64x1xi32>
    %kb = arith.addi %rkb, %kbs : tensor<64x1xi32>
    %kbb = tt.broadcast %kb : tensor<64x1xi32> -> tensor<64x64xi32>
    %nbb = tt.broadcast %rnb : tensor<1x64xi32> -> tensor<64x64xi32>
    %offb = arith.addi %kbb, %nbb : tensor<64x64xi32>
    %pb = tt.splat %b : !tt.ptr<f8E4M3FN> -> tensor<64x64x!tt.ptr<f8E4M3FN>>
    %pb1 = tt.addptr %pb, %offb : tensor<64x64x!tt.ptr<f8E4M3FN>>, tensor<64x64xi32>
    %va = tt.load %pa1 : tensor<128x64x!tt.ptr<f8E4M3FN>>
    %vb = tt.load %pb1 : tensor<64x64x!tt.ptr<f8E4M3FN>>
    %d = tt.dot %va, %vb, %acc {maxNumImpreciseAcc = 1073741824 : i32} : tensor<128x64xf8E4M3FN> * tensor<64x64xf8E4M3FN> -> tensor<128x64xf32>
    %dead1 = tt.addptr %dead, %step : tensor<128x64x!tt.ptr<f8E4M3FN>>, tensor<128x64xi32>
    scf.yield %d, %dead1 : tensor<128x64xf32>, tensor<128x64x!tt.ptr<f8E4M3FN>>
  }
  %rc = tt.broadcast %rn2 : tensor<1x64xi32> -> tensor<128x64xi32>
  %pc = tt.splat %c : !tt.ptr<f32> -> tensor<128x64x!tt.ptr<f32>>
  %pc2 = tt.addptr %pc, %rc : tensor<128x64x!tt.ptr<f32>>, tensor<128x64xi32>
  tt.store %pc2, %r#0 : tensor<128x64x!tt.ptr<f32>>
  tt.return
}

// -----

// The same loop with maxNumImpreciseAcc = 32: the dot asks for partial sums
// promoted to f32 every 32 products, which the wgmma loop does not make
// (Hopper's f8 wgmma accumulates with less than f32 precision), so its f8
// slots are upcast for mma.sync, which accumulates in f32.
// WGMMA-LABEL: tt.func public @f8_bounded_imprecise_acc
// WGMMA: kgpu.local_dot
// WGMMA-NOT: wgmma
// WGMMA: tt.return
// LLVM-LABEL: llvm.func @f8_bounded_imprecise_acc
// LLVM-NOT: nvvm.wgmma.mma_async
// LLVM: nvvm.convert.f8x2.to.f16x2
// LLVM: nvvm.mma.sync
// LLVM: llvm.return
tt.func public @f8_bounded_imprecise_acc(%a: !tt.ptr<f8E4M3FN> {tt.divisibility = 16 : i32}, %b: !tt.ptr<f8E4M3FN> {tt.divisibility = 16 : i32}, %c: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %n: i32) {
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
    %pa = tt.splat %a : !tt.ptr<f8E4M3FN> -> tensor<128x64x!tt.ptr<f8E4M3FN>>
    %pa1 = tt.addptr %pa, %offa : tensor<128x64x!tt.ptr<f8E4M3FN>>, tensor<128x64xi32>
    %kbs = tt.splat %kk : i32 -> tensor<64x1xi32>
    %kb = arith.addi %rkb, %kbs : tensor<64x1xi32>
    %kbb = tt.broadcast %kb : tensor<64x1xi32> -> tensor<64x64xi32>
    %nbb = tt.broadcast %rnb : tensor<1x64xi32> -> tensor<64x64xi32>
    %offb = arith.addi %kbb, %nbb : tensor<64x64xi32>
    %pb = tt.splat %b : !tt.ptr<f8E4M3FN> -> tensor<64x64x!tt.ptr<f8E4M3FN>>
    %pb1 = tt.addptr %pb, %offb : tensor<64x64x!tt.ptr<f8E4M3FN>>, tensor<64x64xi32>
    %va = tt.load %pa1 : tensor<128x64x!tt.ptr<f8E4M3FN>>
    %vb = tt.load %pb1 : tensor<64x64x!tt.ptr<f8E4M3FN>>
    %d = tt.dot %va, %vb, %acc {maxNumImpreciseAcc = 32 : i32} : tensor<128x64xf8E4M3FN> * tensor<64x64xf8E4M3FN> -> tensor<128x64xf32>
    scf.yield %d : tensor<128x64xf32>
  }
  %rc = tt.broadcast %rn2 : tensor<1x64xi32> -> tensor<128x64xi32>
  %pc = tt.splat %c : !tt.ptr<f32> -> tensor<128x64x!tt.ptr<f32>>
  %pc2 = tt.addptr %pc, %rc : tensor<128x64x!tt.ptr<f32>>, tensor<128x64xi32>
  tt.store %pc2, %r : tensor<128x64x!tt.ptr<f32>>
  tt.return
}
