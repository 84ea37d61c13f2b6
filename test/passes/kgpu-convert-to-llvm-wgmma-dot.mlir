// RUN: kiln-opt %s -split-input-file -kgpu-convert-to-llvm="arch=sm_90a ptx-version=80" | FileCheck %s
// RUN: kiln-opt %s -split-input-file -kgpu-convert-to-llvm="arch=sm_90 ptx-version=78" | FileCheck %s --check-prefix=SM90

// tt.dot outside kgpu-pipeline-dot-loops on sm_90a: where the accumulator
// layout has the warps along M only (here attention's chained dots) wgmma
// computes it. Operands are stored from registers into shared memory in
// wgmma's 128-byte swizzled arrangement (16-byte vectors), made visible to
// the async proxy and synchronized; then wgmma.fence, one inline asm
// statement holding the wgmma of every 16-wide K step (A and B through
// descriptors), commit, and a wait tied to the accumulators.
//
// Q (loop-invariant) is staged once before the loop at 8192, above the
// 8192 bytes the loop's K and V reuse; the shared memory is 1024-aligned.
// CHECK: kgpu.shared = 16384 : i32
// CHECK: llvm.mlir.global external @kgpu_shared_memory() {addr_space = 3 : i32, alignment = 1024 : i64}
// CHECK-LABEL: llvm.func @attention
// CHECK: nvvm.barrier0
// The swizzle (one xor) is computed for the thread's first row only; its
// other rows are 16 further (two 8-row atoms, 2048 bytes): the same
// swizzle plus a constant.
// CHECK: llvm.xor
// CHECK-NOT: llvm.xor
// CHECK: %[[C2048:.*]] = llvm.mlir.constant(2048 : i32) : i32
// CHECK-NEXT: llvm.add %[[OFF:.*]], %[[C2048]] : i32
// CHECK-NEXT: %[[C4096:.*]] = llvm.mlir.constant(4096 : i32) : i32
// CHECK-NEXT: llvm.add %[[OFF]], %[[C4096]] : i32
// CHECK: llvm.getelementptr %{{.*}}[8192]
// CHECK-COUNT-4: llvm.store {{.*}} : vector<8xf16>, !llvm.ptr<3>
// CHECK-NEXT: nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
// CHECK-NEXT: nvvm.barrier0
// CHECK-NEXT: scf.for
// S = Q K^T: K is tt.trans(X) of a tensor used only here, so X is stored
// as B K-major (N rows of K). Both descriptors: leading offset 16 >> 4,
// stride offset 1024 >> 4, 128-byte swizzle (1 << 62).
// CHECK: nvvm.barrier0
// CHECK: llvm.getelementptr %{{.*}}[0]
// CHECK-COUNT-4: llvm.store {{.*}} : vector<8xf16>, !llvm.ptr<3>
// CHECK-NEXT: nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
// CHECK-NEXT: nvvm.barrier0
// CHECK: llvm.mlir.constant(4611686293305360384 : i64)
// CHECK: llvm.mlir.constant(4611686293305360384 : i64)
// The four K steps are one inline asm statement, the wgmmas in K order
// (descriptors $32 ... $39, A and B advancing 32 bytes = 2 per step;
// imm-trans-a 0 for K-major A, imm-trans-b 0 for K-major B). The
// accumulator is a constant 0: the first K step has scale-d 0 (predicate
// q), the others 1 (p), and the statement reads no accumulator (no tied
// inputs, only the eight descriptors): nothing is zeroed for it.
// CHECK-NOT: nvvm.wgmma.mma_async
// CHECK: nvvm.wgmma.fence.aligned
// CHECK-NOT: wgmma.mma_async
// CHECK: llvm.inline_asm has_side_effects asm_dialect = att "{\0A.reg .pred p;\0Asetp.ne.b32 p, 1, 0;\0A.reg .pred q;\0Asetp.ne.b32 q, 0, 0;\0A
// CHECK-NOT: wgmma
// CHECK-SAME: wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 {$0, {{[^}]*}}, $31}, $32, $33, q, 1,  1, 0,  0;\0A
// CHECK-NOT: wgmma
// CHECK-SAME: wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 {$0, {{[^}]*}}, $31}, $34, $35, p, 1,  1, 0,  0;\0A
// CHECK-NOT: wgmma
// CHECK-SAME: wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 {$0, {{[^}]*}}, $31}, $36, $37, p, 1,  1, 0,  0;\0A
// CHECK-NOT: wgmma
// CHECK-SAME: wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 {$0, {{[^}]*}}, $31}, $38, $39, p, 1,  1, 0,  0;\0A}"
// CHECK-SAME: "{{(=f,){32}(l,){7}l}}" {{[^:]*}} : (i64, i64, i64, i64, i64, i64, i64, i64) -> !llvm.struct<(f32,
// CHECK-NOT: wgmma.mma_async
// CHECK: nvvm.wgmma.commit.group.sync.aligned
// CHECK-NEXT: llvm.inline_asm has_side_effects asm_dialect = att "wgmma.wait_group.sync.aligned 0;"
// O += P V: P from the thread's own registers (the register form of
// wgmma, four .b32 pairs of P per K step), V stored N-major: leading
// offset 1024 >> 4, stride offset 1024 >> 4 (one 64-column block), K steps
// 2048 bytes (128 in descriptor units) apart.
// CHECK: nvvm.barrier0
// CHECK: llvm.getelementptr %{{.*}}[0]
// CHECK-COUNT-4: llvm.store {{.*}} : vector<8xf16>, !llvm.ptr<3>
// CHECK-NEXT: nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
// CHECK-NEXT: nvvm.barrier0
// CHECK: llvm.mlir.constant(4611686293309489152 : i64)
// CHECK: nvvm.wgmma.fence.aligned
// CHECK-COUNT-4: llvm.bitcast {{.*}} : vector<2xf16> to i32
// CHECK: llvm.inline_asm has_side_effects asm_dialect = att "{\0A.reg .pred p;\0Asetp.ne.b32 p, 1, 0;\0Awgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 {$0, {{.*}}, $31}, {$64, $65, $66, $67}, $68, p, 1, 1, 1;\0A}", "=f,{{.*}},=f,0,{{.*}},31,r,r,r,r,l"
// CHECK-COUNT-4: llvm.bitcast {{.*}} : vector<2xf16> to i32
// CHECK-NEXT: llvm.mlir.constant(128 : i64)
// CHECK-NEXT: llvm.add
// CHECK-NEXT: llvm.inline_asm {{.*}}m64n64k16
// CHECK-COUNT-4: llvm.bitcast {{.*}} : vector<2xf16> to i32
// CHECK-NEXT: llvm.mlir.constant(256 : i64)
// CHECK-NEXT: llvm.add
// CHECK-NEXT: llvm.inline_asm {{.*}}m64n64k16
// CHECK-COUNT-4: llvm.bitcast {{.*}} : vector<2xf16> to i32
// CHECK-NEXT: llvm.mlir.constant(384 : i64)
// CHECK-NEXT: llvm.add
// CHECK-NEXT: llvm.inline_asm {{.*}}m64n64k16
// CHECK-NOT: llvm.inline_asm
// CHECK: nvvm.wgmma.commit.group.sync.aligned
// CHECK-NEXT: llvm.inline_asm has_side_effects asm_dialect = att "wgmma.wait_group.sync.aligned 0;"
// CHECK: scf.yield
//
// sm_90 has no wgmma: mma.sync, padded rows, 16-byte alignment.
// SM90: llvm.mlir.global external @kgpu_shared_memory() {addr_space = 3 : i32, alignment = 16 : i64}
// SM90-LABEL: llvm.func @attention
// SM90-NOT: nvvm.wgmma
// SM90: nvvm.mma.sync
// SM90-NOT: nvvm.wgmma
#rows = #kgpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#cols = #kgpu.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#mma = #kgpu.mma<{version = 2, warpsPerCTA = [4, 1], instrShape = [16, 8]}>
module attributes {"kgpu.num-warps" = 4 : i32, "kgpu.threads-per-warp" = 32 : i32} {
  tt.func public @attention(%q: tensor<64x64xf16, #rows>, %k: tensor<64x64xf16, #rows>, %v: tensor<64x64xf16, #rows>, %n: i32, %p: !tt.ptr<f32>) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %z = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
    %o = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %z) -> (tensor<64x64xf32, #mma>) : i32 {
      %kt = tt.trans %k {order = array<i32: 1, 0>} : tensor<64x64xf16, #rows> -> tensor<64x64xf16, #cols>
      %s = tt.dot %q, %kt, %z : tensor<64x64xf16, #rows> * tensor<64x64xf16, #cols> -> tensor<64x64xf32, #mma>
      %pr = arith.truncf %s : tensor<64x64xf32, #mma> to tensor<64x64xf16, #mma>
      %d = tt.dot %pr, %v, %acc : tensor<64x64xf16, #mma> * tensor<64x64xf16, #rows> -> tensor<64x64xf32, #mma>
      scf.yield %d : tensor<64x64xf32, #mma>
    }
    %ps = tt.splat %p : !tt.ptr<f32> -> tensor<64x64x!tt.ptr<f32>, #mma>
    tt.store %ps, %o : tensor<64x64x!tt.ptr<f32>, #mma>
    tt.return
  }
}

// -----

// A K loop kgpu-pipeline-dot-loops left alone, its accumulator carried by
// the loop: wgmma where the accumulator and the operands staged from
// registers with it take at most 176 registers per thread. 64x128 f32 over
// 128 threads is 64, A 64x64 f16 16, B 64x128 f16 32: wgmma, with A then B
// staged every iteration (8192 + 16384 bytes).
// CHECK: kgpu.shared = 24576 : i32
// CHECK-LABEL: llvm.func @k_loop_64x128
// CHECK: scf.for
// CHECK: nvvm.barrier0
// CHECK: llvm.getelementptr %{{.*}}[0]
// CHECK-COUNT-4: llvm.store {{.*}} : vector<8xf16>, !llvm.ptr<3>
// CHECK: llvm.getelementptr %{{.*}}[8192]
// CHECK-COUNT-8: llvm.store {{.*}} : vector<8xf16>, !llvm.ptr<3>
// CHECK-NEXT: nvvm.fence.proxy
// CHECK-NEXT: nvvm.barrier0
// One inline asm holds the four K steps (imm-trans-b 1: B N-major), all
// with scale-d 1 and the 64 accumulators tied to its outputs.
// CHECK-NOT: nvvm.wgmma.mma_async
// CHECK: nvvm.wgmma.fence.aligned
// CHECK-NOT: wgmma.mma_async
// CHECK: llvm.inline_asm has_side_effects asm_dialect = att "{\0A.reg .pred p;\0Asetp.ne.b32 p, 1, 0;\0A
// CHECK-NOT: wgmma
// CHECK-SAME: wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16 {$0, {{[^}]*}}, $63}, $128, $129, p, 1,  1, 0,  1;\0A
// CHECK-NOT: wgmma
// CHECK-SAME: wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16 {$0, {{[^}]*}}, $63}, $130, $131, p, 1,  1, 0,  1;\0A
// CHECK-NOT: wgmma
// CHECK-SAME: wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16 {$0, {{[^}]*}}, $63}, $132, $133, p, 1,  1, 0,  1;\0A
// CHECK-NOT: wgmma
// CHECK-SAME: wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16 {$0, {{[^}]*}}, $63}, $134, $135, p, 1,  1, 0,  1;\0A}"
// CHECK-SAME: "{{(=f,){64}0,([0-9]+,){62}63,(l,){7}l}}"
// CHECK-NOT: wgmma.mma_async
// CHECK: nvvm.wgmma.commit.group.sync.aligned
// CHECK-NOT: nvvm.mma.sync
// CHECK: scf.yield
#rows = #kgpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #kgpu.mma<{version = 2, warpsPerCTA = [4, 1], instrShape = [16, 8]}>
module attributes {"kgpu.num-warps" = 4 : i32, "kgpu.threads-per-warp" = 32 : i32} {
  tt.func public @k_loop_64x128(%a: tensor<64x64xf16, #rows>, %b: tensor<64x128xf16, #rows>, %n: i32, %p: !tt.ptr<f32>) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %z = arith.constant dense<0.0> : tensor<64x128xf32, #mma>
    %o = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %z) -> (tensor<64x128xf32, #mma>) : i32 {
      %a2 = arith.addf %a, %a : tensor<64x64xf16, #rows>
      %d = tt.dot %a2, %b, %acc : tensor<64x64xf16, #rows> * tensor<64x128xf16, #rows> -> tensor<64x128xf32, #mma>
      scf.yield %d : tensor<64x128xf32, #mma>
    }
    %ps = tt.splat %p : !tt.ptr<f32> -> tensor<64x128x!tt.ptr<f32>, #mma>
    tt.store %ps, %o : tensor<64x128x!tt.ptr<f32>, #mma>
    tt.return
  }
}

// -----

// The same with a 128x128 accumulator: 128 + 32 (A 128x64) + 32 (B) = 192
// registers per thread is over 176, so mma.sync computes it (padded rows:
// A 128 x 72 and B 64 x 136 f16, 16-byte alignment).
// CHECK: kgpu.shared = 35840 : i32
// CHECK: alignment = 16 : i64
// CHECK-LABEL: llvm.func @k_loop_128x128
// CHECK-NOT: nvvm.wgmma
// CHECK: nvvm.mma.sync
// CHECK-NOT: nvvm.wgmma
#rows = #kgpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #kgpu.mma<{version = 2, warpsPerCTA = [4, 1], instrShape = [16, 8]}>
module attributes {"kgpu.num-warps" = 4 : i32, "kgpu.threads-per-warp" = 32 : i32} {
  tt.func public @k_loop_128x128(%a: tensor<128x64xf16, #rows>, %b: tensor<64x128xf16, #rows>, %n: i32, %p: !tt.ptr<f32>) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %z = arith.constant dense<0.0> : tensor<128x128xf32, #mma>
    %o = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %z) -> (tensor<128x128xf32, #mma>) : i32 {
      %a2 = arith.addf %a, %a : tensor<128x64xf16, #rows>
      %d = tt.dot %a2, %b, %acc : tensor<128x64xf16, #rows> * tensor<64x128xf16, #rows> -> tensor<128x128xf32, #mma>
      scf.yield %d : tensor<128x128xf32, #mma>
    }
    %ps = tt.splat %p : !tt.ptr<f32> -> tensor<128x128x!tt.ptr<f32>, #mma>
    tt.store %ps, %o : tensor<128x128x!tt.ptr<f32>, #mma>
    tt.return
  }
}

// -----

// Attention with a head dimension of 32: Q K^T has a K of 32 and a fresh
// accumulator each iteration, so mma.sync computes it (wgmma's two short
// steps, waited for at once, ran slower on the H200); P V (K 64, the
// accumulator carried by the loop) takes wgmma, P from registers.
// CHECK-LABEL: llvm.func @attention_hd32
// CHECK-NOT: nvvm.wgmma.mma_async
// CHECK-COUNT-16: nvvm.mma.sync
// CHECK-NOT: nvvm.mma.sync
// CHECK: nvvm.wgmma.fence.aligned
// CHECK-COUNT-4: llvm.inline_asm {{.*}}m64n64k16
// CHECK-NOT: nvvm.mma.sync
#rows = #kgpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#cols = #kgpu.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#mma = #kgpu.mma<{version = 2, warpsPerCTA = [4, 1], instrShape = [16, 8]}>
module attributes {"kgpu.num-warps" = 4 : i32, "kgpu.threads-per-warp" = 32 : i32} {
  tt.func public @attention_hd32(%q: tensor<64x32xf16, #rows>, %k: tensor<64x32xf16, #rows>, %v: tensor<64x64xf16, #rows>, %n: i32, %p: !tt.ptr<f32>) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %z = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
    %o = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %z) -> (tensor<64x64xf32, #mma>) : i32 {
      %kt = tt.trans %k {order = array<i32: 1, 0>} : tensor<64x32xf16, #rows> -> tensor<32x64xf16, #cols>
      %s = tt.dot %q, %kt, %z : tensor<64x32xf16, #rows> * tensor<32x64xf16, #cols> -> tensor<64x64xf32, #mma>
      %pr = arith.truncf %s : tensor<64x64xf32, #mma> to tensor<64x64xf16, #mma>
      %d = tt.dot %pr, %v, %acc : tensor<64x64xf16, #mma> * tensor<64x64xf16, #rows> -> tensor<64x64xf32, #mma>
      scf.yield %d : tensor<64x64xf32, #mma>
    }
    %ps = tt.splat %p : !tt.ptr<f32> -> tensor<64x64x!tt.ptr<f32>, #mma>
    tt.store %ps, %o : tensor<64x64x!tt.ptr<f32>, #mma>
    tt.return
  }
}

// -----

// A K of 32 with the accumulator carried by the loop: wgmma, each 64-byte
// row of A (64x32) in a whole 128-byte swizzle row (8192 bytes), then B
// 32x128 N-major (8192 bytes); two K steps in one inline asm.
// CHECK: kgpu.shared = 16384 : i32
// CHECK-LABEL: llvm.func @k_loop_k32
// CHECK-NOT: nvvm.wgmma.mma_async
// CHECK: nvvm.wgmma.fence.aligned
// CHECK-NOT: wgmma.mma_async
// CHECK: llvm.inline_asm has_side_effects asm_dialect = att "{\0A.reg .pred p;\0Asetp.ne.b32 p, 1, 0;\0A
// CHECK-NOT: wgmma
// CHECK-SAME: wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16 {$0, {{[^}]*}}, $63}, $128, $129, p, 1,  1, 0,  1;\0A
// CHECK-NOT: wgmma
// CHECK-SAME: wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16 {$0, {{[^}]*}}, $63}, $130, $131, p, 1,  1, 0,  1;\0A}"
// CHECK-SAME: "{{(=f,){64}0,([0-9]+,){62}63,l,l,l,l}}"
// CHECK-NOT: wgmma.mma_async
// CHECK: nvvm.wgmma.commit.group.sync.aligned
// CHECK-NOT: nvvm.mma.sync

#rows = #kgpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #kgpu.mma<{version = 2, warpsPerCTA = [4, 1], instrShape = [16, 8]}>
module attributes {"kgpu.num-warps" = 4 : i32, "kgpu.threads-per-warp" = 32 : i32} {
  tt.func public @k_loop_k32(%a: tensor<64x32xf16, #rows>, %b: tensor<32x128xf16, #rows>, %n: i32, %p: !tt.ptr<f32>) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %z = arith.constant dense<0.0> : tensor<64x128xf32, #mma>
    %o = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %z) -> (tensor<64x128xf32, #mma>) : i32 {
      %a2 = arith.addf %a, %a : tensor<64x32xf16, #rows>
      %d = tt.dot %a2, %b, %acc : tensor<64x32xf16, #rows> * tensor<32x128xf16, #rows> -> tensor<64x128xf32, #mma>
      scf.yield %d : tensor<64x128xf32, #mma>
    }
    %ps = tt.splat %p : !tt.ptr<f32> -> tensor<64x128x!tt.ptr<f32>, #mma>
    tt.store %ps, %o : tensor<64x128x!tt.ptr<f32>, #mma>
    tt.return
  }
}
