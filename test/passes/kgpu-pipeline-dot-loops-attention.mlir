// RUN: kiln-opt %s -split-input-file -kgpu-assign-layouts="num-warps=4 mma-version=3" "-kgpu-pipeline-dot-loops=num-stages=3 wgmma" | FileCheck %s --enable-var-scope
// RUN: kiln-opt %s -split-input-file -kgpu-assign-layouts="num-warps=4 mma-version=3" "-kgpu-pipeline-dot-loops=num-stages=3 wgmma" "-kgpu-convert-to-llvm=arch=sm_90a ptx-version=80" | FileCheck %s --check-prefix=LLVM
// RUN: kiln-opt %s -split-input-file -kgpu-assign-layouts="num-warps=4 mma-version=2" "-kgpu-pipeline-dot-loops=num-stages=3" | FileCheck %s --check-prefix=MMA
// RUN: kiln-opt %s -split-input-file -kgpu-assign-layouts="num-warps=4 mma-version=3" "-kgpu-pipeline-dot-loops=num-stages=2 wgmma" | FileCheck %s --check-prefix=S2

// Attention's loop (S = Q K^T, P = exp2(S - rowmax), O += P V; the K/V
// offset advances by a block index the loop loads, as flex attention's
// does) with wgmma: Q (loaded before the loop) is copied once into its own
// region (slot bytes 0), K and V of iteration 0 into slot 0, one commit
// group each; in the loop the pointers and the next offset are computed
// first, the copies of iteration i + 1 go to slot 1 - s after the wait
// for K (async_wait 1), and V is waited for before the second dot
// (async_wait 2: the next iteration's two groups may still be in flight).
// Shared memory: Q 8192, K slots at 8192 (2 x 8192, K-major: swizzle 1),
// V slots at 24576 (N-major: swizzle 2).
// CHECK-LABEL: tt.func public @attention
// CHECK: kgpu.async_wait 0
// CHECK-NEXT: %[[Z:.*]] = arith.constant 0 : i32
// CHECK-NEXT: kgpu.async_copy %{{.*}} slot %[[Z]] {offset = 0 : i64, rowStride = 64 : i64, slotBytes = 0 : i64, swizzle = 1 : i32}
// CHECK-NEXT: kgpu.async_commit_group
// CHECK: kgpu.async_copy %{{.*}}, %{{.*}} slot %[[S0:.*]] {offset = 8192 : i64, rowStride = 64 : i64, slotBytes = 8192 : i64, swizzle = 1 : i32}
// CHECK-NEXT: kgpu.async_commit_group
// CHECK: kgpu.async_copy %{{.*}}, %{{.*}} slot %[[S0]] {offset = 24576 : i64, rowStride = 64 : i64, slotBytes = 8192 : i64, swizzle = 2 : i32}
// CHECK-NEXT: kgpu.async_commit_group
// CHECK: scf.for %[[IV:.*]] = {{.*}} iter_args(%[[ACC:.*]] = %{{.*}}, %[[OFF:.*]] = %{{.*}}, %[[SLOT:.*]] = %{{.*}}) -> (tensor<64x64xf32, #mma>, i32, i32)
// CHECK-NEXT: %[[IP:.*]] = tt.addptr %{{.*}}, %[[IV]] : !tt.ptr<i32>, i32
// CHECK-NEXT: %[[BLK:.*]] = tt.load %[[IP]] : !tt.ptr<i32>
// CHECK-NEXT: %[[NEXT:.*]] = arith.addi %[[OFF]], %[[BLK]] : i32
// CHECK-NEXT: kgpu.async_wait 1
// CHECK: %[[WRITE:.*]] = arith.subi %{{.*}}, %[[SLOT]] : i32
// CHECK: arith.muli %[[NEXT]], %{{.*}} : i32
// CHECK: kgpu.async_copy %{{.*}}, %{{.*}} slot %[[WRITE]] {offset = 8192 : i64
// CHECK-NEXT: kgpu.async_commit_group
// CHECK: kgpu.async_copy %{{.*}}, %{{.*}} slot %[[WRITE]] {offset = 24576 : i64
// CHECK-NEXT: kgpu.async_commit_group
// CHECK-NEXT: %[[S:.*]] = kgpu.local_dot %{{.*}} slot %[[SLOT]] {aOffset = 0 : i64, aSlotBytes = 0 : i64, aType = tensor<64x64xf16, #blocked>, bKMajor, bOffset = 8192 : i64, bSlotBytes = 8192 : i64, bType = tensor<64x64xf16, #{{.*}}>, noWait, numSlots = 2 : i32, wgmma}
// CHECK-NEXT: %[[SW:.*]] = kgpu.wgmma_wait 0 %[[S]]
// CHECK: "tt.reduce"(%[[SW]])
// CHECK: %[[P:.*]] = arith.truncf
// CHECK-NEXT: kgpu.async_wait 2
// CHECK-NEXT: %[[O:.*]] = kgpu.local_dot %[[ACC]] a %[[P]] : tensor<64x64xf16, #mma> slot %[[SLOT]] {{{.*}}bOffset = 24576 : i64, bSlotBytes = 8192 : i64{{.*}}wgmma}
// CHECK-NEXT: %[[OW:.*]] = kgpu.wgmma_wait 0 %[[O]]
// CHECK-NOT: tt.load
// CHECK-NOT: tt.dot
// CHECK: scf.yield %[[OW]], %[[NEXT]], %{{.*}} : tensor<64x64xf32, #mma>, i32, i32
// CHECK: kgpu.async_wait 0
//
// The LLVM form: 8 cp.async of 16 bytes per thread before the loop (Q 4,
// K and V 2 each; 64 x 64 f16 over 128 threads) and 4 per iteration;
// Q K^T through descriptors: one inline asm holding its four K steps (the
// first with scale-d 0, predicate q, on the constant-0 accumulator, which
// it does not read: no tied inputs; imm-trans-b 0 for K-major K); P V with
// P from registers, one statement per K step with the accumulators tied.
// LLVM: kgpu.shared = 40960 : i32
// LLVM-LABEL: llvm.func @attention
// LLVM-COUNT-8: nvvm.cp.async.shared.global {{.*}}, 16, cache =  cg
// LLVM: scf.for
// LLVM: nvvm.cp.async.wait.group 1
// LLVM-COUNT-4: nvvm.cp.async.shared.global {{.*}}, 16, cache =  cg
// LLVM-NOT: nvvm.wgmma.mma_async
// LLVM: nvvm.wgmma.fence.aligned
// LLVM-NOT: wgmma.mma_async
// LLVM: llvm.inline_asm has_side_effects asm_dialect = att "{\0A.reg .pred p;\0Asetp.ne.b32 p, 1, 0;\0A.reg .pred q;\0Asetp.ne.b32 q, 0, 0;\0A
// LLVM-NOT: wgmma
// LLVM-SAME: wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 {$0, {{[^}]*}}, $31}, $32, $33, q, 1,  1, 0,  0;\0A
// LLVM-NOT: wgmma
// LLVM-SAME: wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 {$0, {{[^}]*}}, $31}, $34, $35, p, 1,  1, 0,  0;\0A
// LLVM-NOT: wgmma
// LLVM-SAME: wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 {$0, {{[^}]*}}, $31}, $36, $37, p, 1,  1, 0,  0;\0A
// LLVM-NOT: wgmma
// LLVM-SAME: wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 {$0, {{[^}]*}}, $31}, $38, $39, p, 1,  1, 0,  0;\0A}"
// LLVM-SAME: "{{(=f,){32}(l,){7}l}}"
// LLVM-NOT: wgmma.mma_async
// LLVM: wgmma.wait_group.sync.aligned 0;
// LLVM: nvvm.cp.async.wait.group 2
// LLVM-COUNT-4: llvm.inline_asm has_side_effects asm_dialect = att "{\0A.reg .pred p;\0Asetp.ne.b32 p, 1, 0;\0Awgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 {$0, {{[^}]*}}, $31}, {$64, $65, $66, $67}, $68, p, 1, 1, 1;\0A}", "{{(=f,){32}0,([0-9]+,){30}31,r,r,r,r,l}}"
// LLVM-NOT: wgmma.mma_async
// LLVM: wgmma.wait_group.sync.aligned 0;
// LLVM-NOT: nvvm.wgmma.mma_async
// LLVM: scf.yield
// LLVM: nvvm.cp.async.wait.group 0
//
// Without wgmma (mma.sync) the loop is left as it is.
// MMA-LABEL: tt.func public @attention
// MMA-NOT: kgpu.async_copy
// MMA: tt.dot
// MMA: tt.dot
tt.func public @attention(%q: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %k: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %v: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %idx: !tt.ptr<i32>, %o: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c64 = arith.constant 64 : i32
  %c64t = arith.constant dense<64> : tensor<64x1xi32>
  %z = arith.constant dense<0.0> : tensor<64x64xf32>
  %r = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
  %rows = tt.expand_dims %r {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
  %rs = arith.muli %rows, %c64t : tensor<64x1xi32>
  %cols = tt.expand_dims %r {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
  %rb = tt.broadcast %rs : tensor<64x1xi32> -> tensor<64x64xi32>
  %cb = tt.broadcast %cols : tensor<1x64xi32> -> tensor<64x64xi32>
  %offs = arith.addi %rb, %cb : tensor<64x64xi32>
  %qs = tt.splat %q : !tt.ptr<f16> -> tensor<64x64x!tt.ptr<f16>>
  %qp = tt.addptr %qs, %offs : tensor<64x64x!tt.ptr<f16>>, tensor<64x64xi32>
  %qt = tt.load %qp : tensor<64x64x!tt.ptr<f16>>
  %res:2 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %z, %off = %c0) -> (tensor<64x64xf32>, i32) : i32 {
    %off64 = arith.muli %off, %c64 : i32
    %os = tt.splat %off64 : i32 -> tensor<64x64xi32>
    %ko = arith.addi %offs, %os : tensor<64x64xi32>
    %ks = tt.splat %k : !tt.ptr<f16> -> tensor<64x64x!tt.ptr<f16>>
    %kp = tt.addptr %ks, %ko : tensor<64x64x!tt.ptr<f16>>, tensor<64x64xi32>
    %kt = tt.load %kp : tensor<64x64x!tt.ptr<f16>>
    %ktt = tt.trans %kt {order = array<i32: 1, 0>} : tensor<64x64xf16> -> tensor<64x64xf16>
    %s = tt.dot %qt, %ktt, %z : tensor<64x64xf16> * tensor<64x64xf16> -> tensor<64x64xf32>
    %m = "tt.reduce"(%s) <{axis = 1 : i32}> ({
    ^bb0(%a: f32, %b: f32):
      %mx = arith.maxnumf %a, %b : f32
      tt.reduce.return %mx : f32
    }) : (tensor<64x64xf32>) -> tensor<64xf32>
    %me = tt.expand_dims %m {axis = 1 : i32} : tensor<64xf32> -> tensor<64x1xf32>
    %mb = tt.broadcast %me : tensor<64x1xf32> -> tensor<64x64xf32>
    %sd = arith.subf %s, %mb : tensor<64x64xf32>
    %e = math.exp2 %sd : tensor<64x64xf32>
    %p = arith.truncf %e : tensor<64x64xf32> to tensor<64x64xf16>
    %vs = tt.splat %v : !tt.ptr<f16> -> tensor<64x64x!tt.ptr<f16>>
    %vp = tt.addptr %vs, %ko : tensor<64x64x!tt.ptr<f16>>, tensor<64x64xi32>
    %vt = tt.load %vp : tensor<64x64x!tt.ptr<f16>>
    %d = tt.dot %p, %vt, %acc : tensor<64x64xf16> * tensor<64x64xf16> -> tensor<64x64xf32>
    %ip = tt.addptr %idx, %i : !tt.ptr<i32>, i32
    %blk = tt.load %ip : !tt.ptr<i32>
    %off2 = arith.addi %off, %blk : i32
    scf.yield %d, %off2 : tensor<64x64xf32>, i32
  }
  %os2 = tt.splat %o : !tt.ptr<f32> -> tensor<64x64x!tt.ptr<f32>>
  %op = tt.addptr %os2, %offs : tensor<64x64x!tt.ptr<f32>>, tensor<64x64xi32>
  tt.store %op, %res#0 : tensor<64x64x!tt.ptr<f32>>
  tt.return
}

// -----

// A store in the loop: loads may not move across it, so the loop is left
// as it is.
// CHECK-LABEL: tt.func public @store_in_loop
// CHECK-NOT: kgpu.async_copy
// CHECK: tt.dot
// CHECK: tt.dot
// LLVM-LABEL: llvm.func @store_in_loop
// MMA-LABEL: tt.func public @store_in_loop
tt.func public @store_in_loop(%q: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %k: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %v: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %idx: !tt.ptr<i32>, %o: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c64 = arith.constant 64 : i32
  %c64t = arith.constant dense<64> : tensor<64x1xi32>
  %z = arith.constant dense<0.0> : tensor<64x64xf32>
  %r = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
  %rows = tt.expand_dims %r {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
  %rs = arith.muli %rows, %c64t : tensor<64x1xi32>
  %cols = tt.expand_dims %r {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
  %rb = tt.broadcast %rs : tensor<64x1xi32> -> tensor<64x64xi32>
  %cb = tt.broadcast %cols : tensor<1x64xi32> -> tensor<64x64xi32>
  %offs = arith.addi %rb, %cb : tensor<64x64xi32>
  %qs = tt.splat %q : !tt.ptr<f16> -> tensor<64x64x!tt.ptr<f16>>
  %qp = tt.addptr %qs, %offs : tensor<64x64x!tt.ptr<f16>>, tensor<64x64xi32>
  %qt = tt.load %qp : tensor<64x64x!tt.ptr<f16>>
  %res:2 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %z, %off = %c0) -> (tensor<64x64xf32>, i32) : i32 {
    %off64 = arith.muli %off, %c64 : i32
    %os = tt.splat %off64 : i32 -> tensor<64x64xi32>
    %ko = arith.addi %offs, %os : tensor<64x64xi32>
    %ks = tt.splat %k : !tt.ptr<f16> -> tensor<64x64x!tt.ptr<f16>>
    %kp = tt.addptr %ks, %ko : tensor<64x64x!tt.ptr<f16>>, tensor<64x64xi32>
    %kt = tt.load %kp : tensor<64x64x!tt.ptr<f16>>
    %ktt = tt.trans %kt {order = array<i32: 1, 0>} : tensor<64x64xf16> -> tensor<64x64xf16>
    %s = tt.dot %qt, %ktt, %z : tensor<64x64xf16> * tensor<64x64xf16> -> tensor<64x64xf32>
    %m = "tt.reduce"(%s) <{axis = 1 : i32}> ({
    ^bb0(%a: f32, %b: f32):
      %mx = arith.maxnumf %a, %b : f32
      tt.reduce.return %mx : f32
    }) : (tensor<64x64xf32>) -> tensor<64xf32>
    %me = tt.expand_dims %m {axis = 1 : i32} : tensor<64xf32> -> tensor<64x1xf32>
    %mb = tt.broadcast %me : tensor<64x1xf32> -> tensor<64x64xf32>
    %sd = arith.subf %s, %mb : tensor<64x64xf32>
    %e = math.exp2 %sd : tensor<64x64xf32>
    %p = arith.truncf %e : tensor<64x64xf32> to tensor<64x64xf16>
    %vs = tt.splat %v : !tt.ptr<f16> -> tensor<64x64x!tt.ptr<f16>>
    %vp = tt.addptr %vs, %ko : tensor<64x64x!tt.ptr<f16>>, tensor<64x64xi32>
    %vt = tt.load %vp : tensor<64x64x!tt.ptr<f16>>
    %d = tt.dot %p, %vt, %acc : tensor<64x64xf16> * tensor<64x64xf16> -> tensor<64x64xf32>
    %ip = tt.addptr %idx, %i : !tt.ptr<i32>, i32
    %blk = tt.load %ip : !tt.ptr<i32>
    %off2 = arith.addi %off, %blk : i32
    tt.store %ip, %blk : !tt.ptr<i32>
    scf.yield %d, %off2 : tensor<64x64xf32>, i32
  }
  %os2 = tt.splat %o : !tt.ptr<f32> -> tensor<64x64x!tt.ptr<f32>>
  %op = tt.addptr %os2, %offs : tensor<64x64x!tt.ptr<f32>>, tensor<64x64xi32>
  tt.store %op, %res#0 : tensor<64x64x!tt.ptr<f32>>
  tt.return
}

// -----

// A reduction across warps (axis 0 of the scores) uses shared memory in
// the loop: the slots take a region of their own, above the 1024 bytes
// that reduction uses (4 warps x 64 f32), so kgpu.shared is 1024 + 40960
// (the epilogue's 64x64 f32 conversion, 16384 bytes after the loop, reuses
// the slots' bytes).
// CHECK-LABEL: tt.func public @attention_reduce_across_warps
// CHECK: kgpu.async_copy %{{.*}} slot %{{.*}} {kgpu.own_shared_memory, offset = 0 : i64, rowStride = 64 : i64, slotBytes = 0 : i64, swizzle = 1 : i32}
// CHECK: scf.for
// CHECK: kgpu.async_copy {{.*}} {kgpu.own_shared_memory, offset = 8192 : i64
// CHECK: kgpu.async_copy {{.*}} {kgpu.own_shared_memory, offset = 24576 : i64
// CHECK: kgpu.local_dot {{.*}}bOffset = 8192 : i64{{.*}}kgpu.own_shared_memory
// CHECK: "tt.reduce"
// CHECK: "tt.reduce"
// CHECK: kgpu.local_dot {{.*}}bOffset = 24576 : i64{{.*}}kgpu.own_shared_memory
// LLVM: kgpu.shared = 41984 : i32
// LLVM-LABEL: llvm.func @attention_reduce_across_warps
// LLVM: llvm.getelementptr %{{.*}}[1024]
// LLVM-NEXT: llvm.getelementptr
// LLVM-NEXT: nvvm.cp.async.shared.global
// MMA-LABEL: tt.func public @attention_reduce_across_warps
tt.func public @attention_reduce_across_warps(%q: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %k: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %v: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %idx: !tt.ptr<i32>, %o: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c64 = arith.constant 64 : i32
  %c64t = arith.constant dense<64> : tensor<64x1xi32>
  %z = arith.constant dense<0.0> : tensor<64x64xf32>
  %r = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
  %rows = tt.expand_dims %r {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
  %rs = arith.muli %rows, %c64t : tensor<64x1xi32>
  %cols = tt.expand_dims %r {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
  %rb = tt.broadcast %rs : tensor<64x1xi32> -> tensor<64x64xi32>
  %cb = tt.broadcast %cols : tensor<1x64xi32> -> tensor<64x64xi32>
  %offs = arith.addi %rb, %cb : tensor<64x64xi32>
  %qs = tt.splat %q : !tt.ptr<f16> -> tensor<64x64x!tt.ptr<f16>>
  %qp = tt.addptr %qs, %offs : tensor<64x64x!tt.ptr<f16>>, tensor<64x64xi32>
  %qt = tt.load %qp : tensor<64x64x!tt.ptr<f16>>
  %res:2 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %z, %off = %c0) -> (tensor<64x64xf32>, i32) : i32 {
    %off64 = arith.muli %off, %c64 : i32
    %os = tt.splat %off64 : i32 -> tensor<64x64xi32>
    %ko = arith.addi %offs, %os : tensor<64x64xi32>
    %ks = tt.splat %k : !tt.ptr<f16> -> tensor<64x64x!tt.ptr<f16>>
    %kp = tt.addptr %ks, %ko : tensor<64x64x!tt.ptr<f16>>, tensor<64x64xi32>
    %kt = tt.load %kp : tensor<64x64x!tt.ptr<f16>>
    %ktt = tt.trans %kt {order = array<i32: 1, 0>} : tensor<64x64xf16> -> tensor<64x64xf16>
    %s = tt.dot %qt, %ktt, %z : tensor<64x64xf16> * tensor<64x64xf16> -> tensor<64x64xf32>
    %m = "tt.reduce"(%s) <{axis = 1 : i32}> ({
    ^bb0(%a: f32, %b: f32):
      %mx = arith.maxnumf %a, %b : f32
      tt.reduce.return %mx : f32
    }) : (tensor<64x64xf32>) -> tensor<64xf32>
    %me = tt.expand_dims %m {axis = 1 : i32} : tensor<64xf32> -> tensor<64x1xf32>
    %mb = tt.broadcast %me : tensor<64x1xf32> -> tensor<64x64xf32>
    %cm = "tt.reduce"(%s) <{axis = 0 : i32}> ({
    ^bb0(%a0: f32, %b0: f32):
      %mx0 = arith.maxnumf %a0, %b0 : f32
      tt.reduce.return %mx0 : f32
    }) : (tensor<64x64xf32>) -> tensor<64xf32>
    %ce = tt.expand_dims %cm {axis = 0 : i32} : tensor<64xf32> -> tensor<1x64xf32>
    %cbr = tt.broadcast %ce : tensor<1x64xf32> -> tensor<64x64xf32>
    %sm = arith.subf %s, %mb : tensor<64x64xf32>
    %sd = arith.subf %sm, %cbr : tensor<64x64xf32>
    %e = math.exp2 %sd : tensor<64x64xf32>
    %p = arith.truncf %e : tensor<64x64xf32> to tensor<64x64xf16>
    %vs = tt.splat %v : !tt.ptr<f16> -> tensor<64x64x!tt.ptr<f16>>
    %vp = tt.addptr %vs, %ko : tensor<64x64x!tt.ptr<f16>>, tensor<64x64xi32>
    %vt = tt.load %vp : tensor<64x64x!tt.ptr<f16>>
    %d = tt.dot %p, %vt, %acc : tensor<64x64xf16> * tensor<64x64xf16> -> tensor<64x64xf32>
    %ip = tt.addptr %idx, %i : !tt.ptr<i32>, i32
    %blk = tt.load %ip : !tt.ptr<i32>
    %off2 = arith.addi %off, %blk : i32
    scf.yield %d, %off2 : tensor<64x64xf32>, i32
  }
  %os2 = tt.splat %o : !tt.ptr<f32> -> tensor<64x64x!tt.ptr<f32>>
  %op = tt.addptr %os2, %offs : tensor<64x64x!tt.ptr<f32>>, tensor<64x64xi32>
  tt.store %op, %res#0 : tensor<64x64x!tt.ptr<f32>>
  tt.return
}

// -----

// Head dimension 32 and blocks of 32 keys, the keys masked past %n (the
// loads' `other` 0): both dots have N = 32 (wgmma m64n32k16; K 32, half of
// each 128-byte swizzle row). The masks are computed with the pointers for
// the iteration the copies fetch and masked into them (zero-filled as
// `other` 0 gives them). The pointers read no iteration argument, so the
// copies run num-stages - 1 = 2 iterations ahead over 3 slots: iterations
// 0 and 1 before the loop; in it, after the wait for this iteration's K
// (async_wait 3: the other three groups may be in flight), iteration i + 2
// into slot (%s + 2) % 3, and V waited for with 4 groups in flight.
// Shared memory: Q 64 rows x 128 bytes (8192), three K slots of 32 rows x
// 128 bytes (4096 each, K-major: swizzle 1), three V slots of 32 K rows of
// one 128-byte column block (4096 each, N-major: swizzle 2).
// CHECK-LABEL: tt.func public @attention_n32_masked
// CHECK: kgpu.async_copy %{{.*}} slot %{{.*}} {offset = 0 : i64, rowStride = 32 : i64, slotBytes = 0 : i64, swizzle = 1 : i32}
// CHECK: kgpu.async_copy %{{.*}}, %{{.*}} slot %[[Z:.*]] {offset = 8192 : i64, rowStride = 32 : i64, slotBytes = 4096 : i64, swizzle = 1 : i32}
// CHECK: kgpu.async_copy %{{.*}}, %{{.*}} slot %[[Z]] {offset = 20480 : i64, rowStride = 32 : i64, slotBytes = 4096 : i64, swizzle = 2 : i32}
// CHECK: kgpu.async_copy %{{.*}}, %{{.*}} slot %[[ONE:.*]] {offset = 8192 : i64
// CHECK: kgpu.async_copy %{{.*}}, %{{.*}} slot %[[ONE]] {offset = 20480 : i64
// CHECK: scf.for %[[IV:.*]] = %{{.*}} to %[[N:.*]] step %[[STEP:.*]] iter_args(%{{.*}} = %{{.*}}, %[[SLOT:.*]] = %{{.*}})
// CHECK-NEXT: kgpu.async_wait 3
// CHECK: %[[TWO:.*]] = arith.muli %[[STEP]], %{{.*}} : i32
// CHECK-NEXT: %[[NIV:.*]] = arith.addi %[[IV]], %[[TWO]] : i32
// CHECK: %[[FIRST:.*]] = arith.cmpi eq, %[[SLOT]], %{{.*}} : i32
// CHECK: %[[PREV:.*]] = arith.subi %[[SLOT]], %{{.*}} : i32
// CHECK: %[[WRITE:.*]] = arith.select %[[FIRST]], %{{.*}}, %[[PREV]] : i32
// CHECK: tt.splat %[[NIV]] : i32 -> tensor<32xi32
// CHECK: arith.cmpi slt, %{{.*}}, %{{.*}} : tensor<32x1xi32
// CHECK: %[[KM:.*]] = arith.andi %{{.*}}, %{{.*}} : tensor<32x32xi1
// CHECK-NEXT: kgpu.async_copy %{{.*}}, %[[KM]] slot %[[WRITE]] {offset = 8192 : i64
// CHECK-NEXT: kgpu.async_commit_group
// CHECK: %[[VM:.*]] = arith.andi %{{.*}}, %{{.*}} : tensor<32x32xi1
// CHECK-NEXT: kgpu.async_copy %{{.*}}, %[[VM]] slot %[[WRITE]] {offset = 20480 : i64
// CHECK: kgpu.local_dot %{{.*}} slot %[[SLOT]] {{{.*}}bKMajor, bOffset = 8192 : i64, bSlotBytes = 4096 : i64{{.*}}numSlots = 3 : i32, wgmma}
// CHECK: kgpu.async_wait 4
// CHECK-NEXT: kgpu.local_dot %{{.*}} a %{{.*}} : tensor<64x32xf16, #mma> slot %[[SLOT]] {{{.*}}bOffset = 20480 : i64, bSlotBytes = 4096 : i64{{.*}}numSlots = 3 : i32, wgmma}
// CHECK-NOT: tt.load
// CHECK-NOT: tt.dot
// CHECK: %[[UP:.*]] = arith.addi %[[SLOT]], %{{.*}} : i32
// CHECK: %[[WRAP:.*]] = arith.cmpi eq, %[[UP]], %{{.*}} : i32
// CHECK: %[[NEXT:.*]] = arith.select %[[WRAP]], %{{.*}}, %[[UP]] : i32
// CHECK-NEXT: scf.yield %{{.*}}, %[[NEXT]]
//
// Over 2 stages: 2 slots, the next iteration's copies into 1 - %s.
// S2-LABEL: tt.func public @attention_n32_masked
// S2: scf.for
// S2-NEXT: kgpu.async_wait 1
// S2: kgpu.async_copy %{{.*}}, %{{.*}} slot %{{.*}} {offset = 8192 : i64, rowStride = 32 : i64, slotBytes = 4096 : i64, swizzle = 1 : i32}
// S2: kgpu.async_copy %{{.*}}, %{{.*}} slot %{{.*}} {offset = 16384 : i64, rowStride = 32 : i64, slotBytes = 4096 : i64, swizzle = 2 : i32}
// S2: kgpu.local_dot {{.*}}numSlots = 2 : i32, wgmma}
// S2: kgpu.async_wait 2
// S2-NEXT: kgpu.local_dot {{.*}}numSlots = 2 : i32, wgmma}
//
// Descriptors (PTX ISA 9.7.15.5.1.1; 128-byte swizzle, 1 << 62): K
// (K-major) with the stride offset 1024 (64 << 32) and leading offset 16
// (1 << 16); V (N-major, N = 32) with both 1024: 8-row K groups one
// 1024-byte atom apart, as for N = 64. Q K^T's two K steps are one inline
// asm (the first with scale-d 0: q, and no tied inputs).
// LLVM: kgpu.shared = 32768 : i32
// LLVM-LABEL: llvm.func @attention_n32_masked
// LLVM-NOT: nvvm.wgmma.mma_async
// LLVM: scf.for
// LLVM: llvm.mlir.constant(4611686293305360384 : i64)
// LLVM: nvvm.wgmma.fence.aligned
// LLVM-NOT: wgmma.mma_async
// LLVM: llvm.inline_asm has_side_effects asm_dialect = att "{\0A.reg .pred p;\0Asetp.ne.b32 p, 1, 0;\0A.reg .pred q;\0Asetp.ne.b32 q, 0, 0;\0A
// LLVM-NOT: wgmma
// LLVM-SAME: wgmma.mma_async.sync.aligned.m64n32k16.f32.f16.f16 {$0, {{[^}]*}}, $15}, $16, $17, q, 1,  1, 0,  0;\0A
// LLVM-NOT: wgmma
// LLVM-SAME: wgmma.mma_async.sync.aligned.m64n32k16.f32.f16.f16 {$0, {{[^}]*}}, $15}, $18, $19, p, 1,  1, 0,  0;\0A}"
// LLVM-SAME: "{{(=f,){16}l,l,l,l}}"
// LLVM-NOT: wgmma.mma_async
// LLVM: wgmma.wait_group.sync.aligned 0;
// LLVM: llvm.mlir.constant(4611686293309489152 : i64)
// LLVM-COUNT-2: wgmma.mma_async.sync.aligned.m64n32k16.f32.f16.f16 {{.*}}, p, 1, 1, 1;
// MMA-LABEL: tt.func public @attention_n32_masked
// MMA-NOT: kgpu.async_copy
tt.func public @attention_n32_masked(%q: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %k: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %v: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %o: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %n: i32) {
  %c0 = arith.constant 0 : i32
  %c32 = arith.constant 32 : i32
  %c32q = arith.constant dense<32> : tensor<64x1xi32>
  %c32k = arith.constant dense<32> : tensor<32x1xi32>
  %z = arith.constant dense<0.0> : tensor<64x32xf32>
  %zk = arith.constant dense<0.0> : tensor<32x32xf16>
  %r64 = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
  %r = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32>
  %qrows = tt.expand_dims %r64 {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
  %qrs = arith.muli %qrows, %c32q : tensor<64x1xi32>
  %cols = tt.expand_dims %r {axis = 0 : i32} : tensor<32xi32> -> tensor<1x32xi32>
  %qrb = tt.broadcast %qrs : tensor<64x1xi32> -> tensor<64x32xi32>
  %qcb = tt.broadcast %cols : tensor<1x32xi32> -> tensor<64x32xi32>
  %qoffs = arith.addi %qrb, %qcb : tensor<64x32xi32>
  %qs = tt.splat %q : !tt.ptr<f16> -> tensor<64x32x!tt.ptr<f16>>
  %qp = tt.addptr %qs, %qoffs : tensor<64x32x!tt.ptr<f16>>, tensor<64x32xi32>
  %qt = tt.load %qp : tensor<64x32x!tt.ptr<f16>>
  %ns = tt.splat %n : i32 -> tensor<32x1xi32>
  %kcb = tt.broadcast %cols : tensor<1x32xi32> -> tensor<32x32xi32>
  %res = scf.for %i = %c0 to %n step %c32 iter_args(%acc = %z) -> (tensor<64x32xf32>) : i32 {
    %is = tt.splat %i : i32 -> tensor<32xi32>
    %kn = arith.addi %is, %r : tensor<32xi32>
    %knr = tt.expand_dims %kn {axis = 1 : i32} : tensor<32xi32> -> tensor<32x1xi32>
    %krs = arith.muli %knr, %c32k : tensor<32x1xi32>
    %krb = tt.broadcast %krs : tensor<32x1xi32> -> tensor<32x32xi32>
    %ko = arith.addi %krb, %kcb : tensor<32x32xi32>
    %live = arith.cmpi slt, %knr, %ns : tensor<32x1xi32>
    %mask = tt.broadcast %live : tensor<32x1xi1> -> tensor<32x32xi1>
    %ks = tt.splat %k : !tt.ptr<f16> -> tensor<32x32x!tt.ptr<f16>>
    %kp = tt.addptr %ks, %ko : tensor<32x32x!tt.ptr<f16>>, tensor<32x32xi32>
    %kt = tt.load %kp, %mask, %zk : tensor<32x32x!tt.ptr<f16>>
    %ktt = tt.trans %kt {order = array<i32: 1, 0>} : tensor<32x32xf16> -> tensor<32x32xf16>
    %s = tt.dot %qt, %ktt, %z : tensor<64x32xf16> * tensor<32x32xf16> -> tensor<64x32xf32>
    %e = math.exp2 %s : tensor<64x32xf32>
    %p = arith.truncf %e : tensor<64x32xf32> to tensor<64x32xf16>
    %vs = tt.splat %v : !tt.ptr<f16> -> tensor<32x32x!tt.ptr<f16>>
    %vp = tt.addptr %vs, %ko : tensor<32x32x!tt.ptr<f16>>, tensor<32x32xi32>
    %vt = tt.load %vp, %mask, %zk : tensor<32x32x!tt.ptr<f16>>
    %d = tt.dot %p, %vt, %acc : tensor<64x32xf16> * tensor<32x32xf16> -> tensor<64x32xf32>
    scf.yield %d : tensor<64x32xf32>
  }
  %os2 = tt.splat %o : !tt.ptr<f32> -> tensor<64x32x!tt.ptr<f32>>
  %op = tt.addptr %os2, %qoffs : tensor<64x32x!tt.ptr<f32>>, tensor<64x32xi32>
  tt.store %op, %res : tensor<64x32x!tt.ptr<f32>>
  tt.return
}

// -----

// Head dimension 16 (Q K^T has K = 16: one m64n64k16, a quarter of each
// 128-byte swizzle row; P V has N = 16), Q's columns masked (a head
// dimension padded to a power of two; `other` 0): Q's copy before the loop
// takes the mask. Q 64 rows x 128 bytes (8192), three K slots of 64 rows x
// 128 bytes (8192 each), three V slots of 64 K rows of one column block
// (8192 each).
// CHECK-LABEL: tt.func public @attention_k16_masked_q
// CHECK: kgpu.async_wait 0
// CHECK: kgpu.async_copy %{{.*}}, %{{.*}} slot %{{.*}} {offset = 0 : i64, rowStride = 16 : i64, slotBytes = 0 : i64, swizzle = 1 : i32} : tensor<64x16x!tt.ptr<f16>, #{{.*}}>, tensor<64x16xi1, #{{.*}}>
// CHECK-NEXT: kgpu.async_commit_group
// CHECK: scf.for
// CHECK: kgpu.local_dot %{{.*}} slot %{{.*}} {aOffset = 0 : i64, aSlotBytes = 0 : i64, aType = tensor<64x16xf16, #{{.*}}>, bKMajor, bOffset = 8192 : i64, bSlotBytes = 8192 : i64, bType = tensor<16x64xf16, #{{.*}}>, noWait, numSlots = 3 : i32, wgmma}
// CHECK: kgpu.local_dot %{{.*}} a %{{.*}} : tensor<64x64xf16, #mma> slot %{{.*}} {{{.*}}bOffset = 32768 : i64, bSlotBytes = 8192 : i64{{.*}}numSlots = 3 : i32, wgmma}
// LLVM: kgpu.shared = 57344 : i32
// Q K^T is one wgmma (one K step) on a constant-0 accumulator: every step
// of the statement has scale-d 0, so p itself is 0 (no q) and nothing is
// tied.
// LLVM-LABEL: llvm.func @attention_k16_masked_q
// LLVM-NOT: nvvm.wgmma.mma_async
// LLVM: scf.for
// LLVM: nvvm.wgmma.fence.aligned
// LLVM-NOT: wgmma.mma_async
// LLVM: llvm.inline_asm has_side_effects asm_dialect = att "{\0A.reg .pred p;\0Asetp.ne.b32 p, 0, 0;\0A
// LLVM-NOT: wgmma
// LLVM-SAME: wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 {$0, {{[^}]*}}, $31}, $32, $33, p, 1,  1, 0,  0;\0A}"
// LLVM-SAME: "{{(=f,){32}l,l}}"
// LLVM-NOT: wgmma.mma_async
// LLVM: nvvm.wgmma.commit.group.sync.aligned
// LLVM-COUNT-4: wgmma.mma_async.sync.aligned.m64n16k16.f32.f16.f16
// MMA-LABEL: tt.func public @attention_k16_masked_q
// MMA-NOT: kgpu.async_copy
tt.func public @attention_k16_masked_q(%q: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %k: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %v: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %o: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %n: i32) {
  %c0 = arith.constant 0 : i32
  %c64 = arith.constant 64 : i32
  %c16 = arith.constant 16 : i32
  %c16t = arith.constant dense<16> : tensor<64x1xi32>
  %c12t = arith.constant dense<12> : tensor<1x16xi32>
  %z = arith.constant dense<0.0> : tensor<64x64xf32>
  %zo = arith.constant dense<0.0> : tensor<64x16xf32>
  %zq = arith.constant dense<0.0> : tensor<64x16xf16>
  %r64 = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
  %r16 = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
  %rows = tt.expand_dims %r64 {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
  %rs = arith.muli %rows, %c16t : tensor<64x1xi32>
  %cols = tt.expand_dims %r16 {axis = 0 : i32} : tensor<16xi32> -> tensor<1x16xi32>
  %rb = tt.broadcast %rs : tensor<64x1xi32> -> tensor<64x16xi32>
  %cb = tt.broadcast %cols : tensor<1x16xi32> -> tensor<64x16xi32>
  %offs = arith.addi %rb, %cb : tensor<64x16xi32>
  %dm = arith.cmpi slt, %cols, %c12t : tensor<1x16xi32>
  %qmask = tt.broadcast %dm : tensor<1x16xi1> -> tensor<64x16xi1>
  %qs = tt.splat %q : !tt.ptr<f16> -> tensor<64x16x!tt.ptr<f16>>
  %qp = tt.addptr %qs, %offs : tensor<64x16x!tt.ptr<f16>>, tensor<64x16xi32>
  %qt = tt.load %qp, %qmask, %zq : tensor<64x16x!tt.ptr<f16>>
  %res = scf.for %i = %c0 to %n step %c64 iter_args(%acc = %zo) -> (tensor<64x16xf32>) : i32 {
    %i16 = arith.muli %i, %c16 : i32
    %is = tt.splat %i16 : i32 -> tensor<64x16xi32>
    %ko = arith.addi %offs, %is : tensor<64x16xi32>
    %ks = tt.splat %k : !tt.ptr<f16> -> tensor<64x16x!tt.ptr<f16>>
    %kp = tt.addptr %ks, %ko : tensor<64x16x!tt.ptr<f16>>, tensor<64x16xi32>
    %kt = tt.load %kp : tensor<64x16x!tt.ptr<f16>>
    %ktt = tt.trans %kt {order = array<i32: 1, 0>} : tensor<64x16xf16> -> tensor<16x64xf16>
    %s = tt.dot %qt, %ktt, %z : tensor<64x16xf16> * tensor<16x64xf16> -> tensor<64x64xf32>
    %e = math.exp2 %s : tensor<64x64xf32>
    %p = arith.truncf %e : tensor<64x64xf32> to tensor<64x64xf16>
    %vs = tt.splat %v : !tt.ptr<f16> -> tensor<64x16x!tt.ptr<f16>>
    %vp = tt.addptr %vs, %ko : tensor<64x16x!tt.ptr<f16>>, tensor<64x16xi32>
    %vt = tt.load %vp : tensor<64x16x!tt.ptr<f16>>
    %d = tt.dot %p, %vt, %acc : tensor<64x64xf16> * tensor<64x16xf16> -> tensor<64x16xf32>
    scf.yield %d : tensor<64x16xf32>
  }
  %os2 = tt.splat %o : !tt.ptr<f32> -> tensor<64x16x!tt.ptr<f32>>
  %op = tt.addptr %os2, %offs : tensor<64x16x!tt.ptr<f32>>, tensor<64x16xi32>
  tt.store %op, %res : tensor<64x16x!tt.ptr<f32>>
  tt.return
}

// -----

// Q scaled before the loop (the softmax scale folded into Q): A is neither
// a load nor in the accumulator's layout, so it is converted to that
// layout once, before the loop (through shared memory, before the wait
// that precedes the copies), and Q K^T takes it from registers. Only K and
// V are copied: three slots each, from offset 0.
// CHECK-LABEL: tt.func public @attention_scaled_q
// CHECK: %[[QS:.*]] = arith.mulf
// CHECK: %[[QR:.*]] = kgpu.convert_layout %[[QS]] : tensor<64x64xf16, #{{.*}}> -> tensor<64x64xf16, #mma>
// CHECK-NEXT: kgpu.async_wait 0
// CHECK-NOT: slotBytes = 0 : i64
// CHECK: kgpu.async_copy %{{.*}}, %{{.*}} slot %{{.*}} {offset = 0 : i64, rowStride = 64 : i64, slotBytes = 8192 : i64, swizzle = 1 : i32}
// CHECK: scf.for
// CHECK: kgpu.local_dot %{{.*}} a %[[QR]] : tensor<64x64xf16, #mma> slot %{{.*}} {{{.*}}bKMajor, bOffset = 0 : i64, bSlotBytes = 8192 : i64{{.*}}numSlots = 3 : i32, wgmma}
// CHECK: kgpu.local_dot %{{.*}} a %{{.*}} : tensor<64x64xf16, #mma> slot %{{.*}} {{{.*}}bOffset = 24576 : i64, bSlotBytes = 8192 : i64{{.*}}numSlots = 3 : i32, wgmma}
// S starts from a constant 0: the first K step's wgmma (A from registers)
// has scale-d 0 and only writes its 32 accumulators (no tied inputs: A's
// registers are operands 32-35, B's descriptor 36).
// LLVM-LABEL: llvm.func @attention_scaled_q
// LLVM: scf.for
// LLVM: llvm.inline_asm has_side_effects asm_dialect = att "{\0A.reg .pred p;\0Asetp.ne.b32 p, 0, 0;\0Awgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 {$0, {{.*}}, $31}, {$32, $33, $34, $35}, $36, p, 1, 1, 0;\0A}", "=f,{{.*}},=f,r,r,r,r,l"
// LLVM-COUNT-3: setp.ne.b32 p, 1, 0;\0Awgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 {{.*}}, p, 1, 1, 0;
// LLVM: wgmma.wait_group.sync.aligned 0;
// LLVM-COUNT-4: wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 {{.*}}, p, 1, 1, 1;
// MMA-LABEL: tt.func public @attention_scaled_q
// MMA-NOT: kgpu.async_copy
tt.func public @attention_scaled_q(%q: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %k: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %v: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %o: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %n: i32) {
  %c0 = arith.constant 0 : i32
  %c64 = arith.constant 64 : i32
  %c64t = arith.constant dense<64> : tensor<64x1xi32>
  %scale = arith.constant dense<1.250000e-01> : tensor<64x64xf16>
  %z = arith.constant dense<0.0> : tensor<64x64xf32>
  %r = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
  %rows = tt.expand_dims %r {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
  %rs = arith.muli %rows, %c64t : tensor<64x1xi32>
  %cols = tt.expand_dims %r {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
  %rb = tt.broadcast %rs : tensor<64x1xi32> -> tensor<64x64xi32>
  %cb = tt.broadcast %cols : tensor<1x64xi32> -> tensor<64x64xi32>
  %offs = arith.addi %rb, %cb : tensor<64x64xi32>
  %qs = tt.splat %q : !tt.ptr<f16> -> tensor<64x64x!tt.ptr<f16>>
  %qp = tt.addptr %qs, %offs : tensor<64x64x!tt.ptr<f16>>, tensor<64x64xi32>
  %ql = tt.load %qp : tensor<64x64x!tt.ptr<f16>>
  %qt = arith.mulf %ql, %scale : tensor<64x64xf16>
  %res = scf.for %i = %c0 to %n step %c64 iter_args(%acc = %z) -> (tensor<64x64xf32>) : i32 {
    %i64 = arith.muli %i, %c64 : i32
    %is = tt.splat %i64 : i32 -> tensor<64x64xi32>
    %ko = arith.addi %offs, %is : tensor<64x64xi32>
    %ks = tt.splat %k : !tt.ptr<f16> -> tensor<64x64x!tt.ptr<f16>>
    %kp = tt.addptr %ks, %ko : tensor<64x64x!tt.ptr<f16>>, tensor<64x64xi32>
    %kt = tt.load %kp : tensor<64x64x!tt.ptr<f16>>
    %ktt = tt.trans %kt {order = array<i32: 1, 0>} : tensor<64x64xf16> -> tensor<64x64xf16>
    %s = tt.dot %qt, %ktt, %z : tensor<64x64xf16> * tensor<64x64xf16> -> tensor<64x64xf32>
    %e = math.exp2 %s : tensor<64x64xf32>
    %p = arith.truncf %e : tensor<64x64xf32> to tensor<64x64xf16>
    %vs = tt.splat %v : !tt.ptr<f16> -> tensor<64x64x!tt.ptr<f16>>
    %vp = tt.addptr %vs, %ko : tensor<64x64x!tt.ptr<f16>>, tensor<64x64xi32>
    %vt = tt.load %vp : tensor<64x64x!tt.ptr<f16>>
    %d = tt.dot %p, %vt, %acc : tensor<64x64xf16> * tensor<64x64xf16> -> tensor<64x64xf32>
    scf.yield %d : tensor<64x64xf32>
  }
  %os2 = tt.splat %o : !tt.ptr<f32> -> tensor<64x64x!tt.ptr<f32>>
  %op = tt.addptr %os2, %offs : tensor<64x64x!tt.ptr<f32>>, tensor<64x64xi32>
  tt.store %op, %res : tensor<64x64x!tt.ptr<f32>>
  tt.return
}

// -----

// As @attention_reduce_across_warps, the K / V offset computed from the
// induction variable (no carried block index): num-stages slots would
// apply, but the reduction across warps puts the slots in a region of
// their own above bytes that only kgpu-convert-to-llvm sizes, so the loop
// keeps 2 slots (helper-46's break-test: more slots there exceeded 227 KB
// for large tiles).
// CHECK-LABEL: tt.func public @own_region_two_slots
// CHECK: scf.for
// CHECK: kgpu.local_dot {{.*}}kgpu.own_shared_memory, noWait, numSlots = 2 : i32, wgmma}
// CHECK: kgpu.local_dot {{.*}}kgpu.own_shared_memory, noWait, numSlots = 2 : i32, wgmma}
// LLVM-LABEL: llvm.func @own_region_two_slots
// MMA-LABEL: tt.func public @own_region_two_slots
tt.func public @own_region_two_slots(%q: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %k: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %v: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %idx: !tt.ptr<i32>, %o: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c64 = arith.constant 64 : i32
  %c64t = arith.constant dense<64> : tensor<64x1xi32>
  %z = arith.constant dense<0.0> : tensor<64x64xf32>
  %r = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
  %rows = tt.expand_dims %r {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
  %rs = arith.muli %rows, %c64t : tensor<64x1xi32>
  %cols = tt.expand_dims %r {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
  %rb = tt.broadcast %rs : tensor<64x1xi32> -> tensor<64x64xi32>
  %cb = tt.broadcast %cols : tensor<1x64xi32> -> tensor<64x64xi32>
  %offs = arith.addi %rb, %cb : tensor<64x64xi32>
  %qs = tt.splat %q : !tt.ptr<f16> -> tensor<64x64x!tt.ptr<f16>>
  %qp = tt.addptr %qs, %offs : tensor<64x64x!tt.ptr<f16>>, tensor<64x64xi32>
  %qt = tt.load %qp : tensor<64x64x!tt.ptr<f16>>
  %res:2 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %z, %off = %c0) -> (tensor<64x64xf32>, i32) : i32 {
    %off64 = arith.muli %i, %c64 : i32
    %os = tt.splat %off64 : i32 -> tensor<64x64xi32>
    %ko = arith.addi %offs, %os : tensor<64x64xi32>
    %ks = tt.splat %k : !tt.ptr<f16> -> tensor<64x64x!tt.ptr<f16>>
    %kp = tt.addptr %ks, %ko : tensor<64x64x!tt.ptr<f16>>, tensor<64x64xi32>
    %kt = tt.load %kp : tensor<64x64x!tt.ptr<f16>>
    %ktt = tt.trans %kt {order = array<i32: 1, 0>} : tensor<64x64xf16> -> tensor<64x64xf16>
    %s = tt.dot %qt, %ktt, %z : tensor<64x64xf16> * tensor<64x64xf16> -> tensor<64x64xf32>
    %m = "tt.reduce"(%s) <{axis = 1 : i32}> ({
    ^bb0(%a: f32, %b: f32):
      %mx = arith.maxnumf %a, %b : f32
      tt.reduce.return %mx : f32
    }) : (tensor<64x64xf32>) -> tensor<64xf32>
    %me = tt.expand_dims %m {axis = 1 : i32} : tensor<64xf32> -> tensor<64x1xf32>
    %mb = tt.broadcast %me : tensor<64x1xf32> -> tensor<64x64xf32>
    %cm = "tt.reduce"(%s) <{axis = 0 : i32}> ({
    ^bb0(%a0: f32, %b0: f32):
      %mx0 = arith.maxnumf %a0, %b0 : f32
      tt.reduce.return %mx0 : f32
    }) : (tensor<64x64xf32>) -> tensor<64xf32>
    %ce = tt.expand_dims %cm {axis = 0 : i32} : tensor<64xf32> -> tensor<1x64xf32>
    %cbr = tt.broadcast %ce : tensor<1x64xf32> -> tensor<64x64xf32>
    %sm = arith.subf %s, %mb : tensor<64x64xf32>
    %sd = arith.subf %sm, %cbr : tensor<64x64xf32>
    %e = math.exp2 %sd : tensor<64x64xf32>
    %p = arith.truncf %e : tensor<64x64xf32> to tensor<64x64xf16>
    %vs = tt.splat %v : !tt.ptr<f16> -> tensor<64x64x!tt.ptr<f16>>
    %vp = tt.addptr %vs, %ko : tensor<64x64x!tt.ptr<f16>>, tensor<64x64xi32>
    %vt = tt.load %vp : tensor<64x64x!tt.ptr<f16>>
    %d = tt.dot %p, %vt, %acc : tensor<64x64xf16> * tensor<64x64xf16> -> tensor<64x64xf32>
    scf.yield %d, %off : tensor<64x64xf32>, i32
  }
  %os2 = tt.splat %o : !tt.ptr<f32> -> tensor<64x64x!tt.ptr<f32>>
  %op = tt.addptr %os2, %offs : tensor<64x64x!tt.ptr<f32>>, tensor<64x64xi32>
  tt.store %op, %res#0 : tensor<64x64x!tt.ptr<f32>>
  tt.return
}

// -----

// 128 rows on 4 warps (two 64-row blocks per warpgroup) and blocks of 128
// keys. S = Q K^T is one inline asm of 8 wgmmas, K step by K step over
// the two blocks (accumulators $0-$63 and $64-$127). It starts from a
// constant 0: its first K step's wgmmas (one per block) have scale-d 0
// (q) and no accumulator registers are zeroed for them (no tied inputs).
// O += P V takes P from registers over 8 K steps; at most 32 A
// registers are in flight (4 per K step and block), so the first 4 K steps
// (8 wgmmas) are committed and waited for before the other 4 are issued.
// LLVM-LABEL: llvm.func @attention_128_rows
// LLVM: scf.for
// LLVM: nvvm.wgmma.fence.aligned
// LLVM-NOT: wgmma.mma_async
// LLVM: llvm.inline_asm has_side_effects asm_dialect = att "{\0A.reg .pred p;\0Asetp.ne.b32 p, 1, 0;\0A.reg .pred q;\0Asetp.ne.b32 q, 0, 0;\0A
// LLVM-NOT: wgmma
// LLVM-SAME: wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16 {$0, {{[^}]*}}, $63}, $128, $129, q, 1,  1, 0,  0;\0A
// LLVM-NOT: wgmma
// LLVM-SAME: wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16 {$64, {{[^}]*}}, $127}, $130, $131, q, 1,  1, 0,  0;\0A
// LLVM-NOT: wgmma
// LLVM-SAME: wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16 {$0, {{[^}]*}}, $63}, $132, $133, p, 1,  1, 0,  0;\0A
// LLVM-NOT: wgmma
// LLVM-SAME: wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16 {$64, {{[^}]*}}, $127}, $134, $135, p, 1,  1, 0,  0;\0A
// LLVM-NOT: wgmma
// LLVM-SAME: wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16 {$0, {{[^}]*}}, $63}, $136, $137, p, 1,  1, 0,  0;\0A
// LLVM-NOT: wgmma
// LLVM-SAME: wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16 {$64, {{[^}]*}}, $127}, $138, $139, p, 1,  1, 0,  0;\0A
// LLVM-NOT: wgmma
// LLVM-SAME: wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16 {$0, {{[^}]*}}, $63}, $140, $141, p, 1,  1, 0,  0;\0A
// LLVM-NOT: wgmma
// LLVM-SAME: wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16 {$64, {{[^}]*}}, $127}, $142, $143, p, 1,  1, 0,  0;\0A}"
// LLVM-SAME: "{{(=f,){128}(l,){15}l}}"
// LLVM-NOT: wgmma.mma_async
// LLVM: nvvm.wgmma.commit.group.sync.aligned
// LLVM: wgmma.wait_group.sync.aligned 0;
// LLVM: nvvm.wgmma.fence.aligned
// LLVM-COUNT-8: wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 {{.*}}, p, 1, 1, 1;
// LLVM-NOT: wgmma.mma_async
// LLVM: nvvm.wgmma.commit.group.sync.aligned
// LLVM-NEXT: nvvm.wgmma.wait.group.sync.aligned 0
// LLVM-COUNT-8: wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 {{.*}}, p, 1, 1, 1;
// LLVM-NOT: wgmma.mma_async
// LLVM: nvvm.wgmma.commit.group.sync.aligned
// LLVM-NEXT: wgmma.wait_group.sync.aligned 0;
// LLVM: scf.yield
tt.func public @attention_128_rows(%q: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %k: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %v: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %o: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c8192 = arith.constant 8192 : i32
  %c64t = arith.constant dense<64> : tensor<128x1xi32>
  %zs = arith.constant dense<0.0> : tensor<128x128xf32>
  %z = arith.constant dense<0.0> : tensor<128x64xf32>
  %r128 = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32>
  %r64 = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
  %rows = tt.expand_dims %r128 {axis = 1 : i32} : tensor<128xi32> -> tensor<128x1xi32>
  %rs = arith.muli %rows, %c64t : tensor<128x1xi32>
  %cols = tt.expand_dims %r64 {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
  %rb = tt.broadcast %rs : tensor<128x1xi32> -> tensor<128x64xi32>
  %cb = tt.broadcast %cols : tensor<1x64xi32> -> tensor<128x64xi32>
  %offs = arith.addi %rb, %cb : tensor<128x64xi32>
  %qs = tt.splat %q : !tt.ptr<f16> -> tensor<128x64x!tt.ptr<f16>>
  %qp = tt.addptr %qs, %offs : tensor<128x64x!tt.ptr<f16>>, tensor<128x64xi32>
  %qt = tt.load %qp : tensor<128x64x!tt.ptr<f16>>
  %res = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %z) -> (tensor<128x64xf32>) : i32 {
    %off = arith.muli %i, %c8192 : i32
    %os = tt.splat %off : i32 -> tensor<128x64xi32>
    %ko = arith.addi %offs, %os : tensor<128x64xi32>
    %ks = tt.splat %k : !tt.ptr<f16> -> tensor<128x64x!tt.ptr<f16>>
    %kp = tt.addptr %ks, %ko : tensor<128x64x!tt.ptr<f16>>, tensor<128x64xi32>
    %kt = tt.load %kp : tensor<128x64x!tt.ptr<f16>>
    %ktt = tt.trans %kt {order = array<i32: 1, 0>} : tensor<128x64xf16> -> tensor<64x128xf16>
    %s = tt.dot %qt, %ktt, %zs : tensor<128x64xf16> * tensor<64x128xf16> -> tensor<128x128xf32>
    %m = "tt.reduce"(%s) <{axis = 1 : i32}> ({
    ^bb0(%a: f32, %b: f32):
      %mx = arith.maxnumf %a, %b : f32
      tt.reduce.return %mx : f32
    }) : (tensor<128x128xf32>) -> tensor<128xf32>
    %me = tt.expand_dims %m {axis = 1 : i32} : tensor<128xf32> -> tensor<128x1xf32>
    %mb = tt.broadcast %me : tensor<128x1xf32> -> tensor<128x128xf32>
    %sd = arith.subf %s, %mb : tensor<128x128xf32>
    %e = math.exp2 %sd : tensor<128x128xf32>
    %p = arith.truncf %e : tensor<128x128xf32> to tensor<128x128xf16>
    %vs = tt.splat %v : !tt.ptr<f16> -> tensor<128x64x!tt.ptr<f16>>
    %vp = tt.addptr %vs, %ko : tensor<128x64x!tt.ptr<f16>>, tensor<128x64xi32>
    %vt = tt.load %vp : tensor<128x64x!tt.ptr<f16>>
    %d = tt.dot %p, %vt, %acc : tensor<128x128xf16> * tensor<128x64xf16> -> tensor<128x64xf32>
    scf.yield %d : tensor<128x64xf32>
  }
  %os2 = tt.splat %o : !tt.ptr<f32> -> tensor<128x64x!tt.ptr<f32>>
  %op = tt.addptr %os2, %offs : tensor<128x64x!tt.ptr<f32>>, tensor<128x64xi32>
  tt.store %op, %res : tensor<128x64x!tt.ptr<f32>>
  tt.return
}

// -----

// The same with a head dim of 128: O (128 x 128 over 128 threads) and P
// take 128 registers each. Then every A fragment of P is packed before the
// fence and one 64-row block's 8 K steps follow the other's, with no wait
// between them (packRegisterAFirst), and P @ V stays in flight across the
// back edge: the first dot's wait also retires it (the carried O is read
// through that wait), the next tiles' copies follow P @ V (their slot is
// the one P @ V read an iteration before), V is waited for with the next
// iteration's two groups in flight (async_wait 2), Q K^T goes block by
// block, and the loop runs inside `if (lb < ub)` from a fenced O, its last
// P @ V retired there.
// CHECK-LABEL: tt.func public @attention_128_rows_hd128
// CHECK: %[[INIT:.*]] = kgpu.wgmma_fence %{{.*}} : tensor<128x128xf32, #mma>
// CHECK-NEXT: %[[ANY:.*]] = arith.cmpi slt, %{{.*}}, %{{.*}} : i32
// CHECK-NEXT: scf.if %[[ANY]] -> (tensor<128x128xf32, #mma>) {
// CHECK-NEXT: scf.for {{.*}} iter_args(%[[O:.*]] = %[[INIT]], %[[SLOT:.*]] = %{{.*}})
// CHECK-NEXT: kgpu.async_wait 3
// CHECK-NEXT: %[[S:.*]] = kgpu.local_dot %{{.*}} slot %[[SLOT]] {{.*}}kgpu.wgmma_block_major
// CHECK-NEXT: %[[W:.*]]:2 = kgpu.wgmma_wait 0 %[[S]], %[[O]]
// CHECK-NOT: %[[O]]
// CHECK: kgpu.async_wait 2
// CHECK-NEXT: %[[PV:.*]] = kgpu.local_dot %[[W]]#1 a %{{.*}} slot %[[SLOT]]
// CHECK-NOT: kgpu.wgmma_wait
// CHECK: kgpu.async_copy {{.*}} {offset = 32768 : i64
// CHECK-NEXT: kgpu.async_commit_group
// CHECK: kgpu.async_copy {{.*}} {offset = 131072 : i64
// CHECK-NEXT: kgpu.async_commit_group
// CHECK-NEXT: scf.yield %[[PV]], %{{.*}} : tensor<128x128xf32, #mma>, i32
// CHECK-NEXT: }
// CHECK-NEXT: %[[DONE:.*]] = kgpu.wgmma_wait 0 %{{.*}}#0 : tensor<128x128xf32, #mma>
// CHECK-NEXT: scf.yield %[[DONE]] : tensor<128x128xf32, #mma>
// CHECK-NEXT: } else {
// CHECK-NEXT: scf.yield %[[INIT]] : tensor<128x128xf32, #mma>
// CHECK-NEXT: }
// CHECK-NEXT: kgpu.async_wait 0
// Over 2 slots the copies would run right before the next iteration waits
// for them: P @ V is waited for in its iteration, as before.
// S2-LABEL: tt.func public @attention_128_rows_hd128
// S2-NOT: scf.if
// S2: scf.for
// S2: kgpu.local_dot %{{.*}} a %
// S2-NEXT: kgpu.wgmma_wait 0 %{{[^,]*}} : tensor<128x128xf32, #mma>
// S2: scf.yield
// Q K^T goes block by block, 4 K steps per inline asm statement
// (kWgmmaKStepsPerStatement): block 0's steps 0-3 (the first with
// scale-d 0, q, nothing tied), then its steps 4-7 (accumulators tied),
// then block 1's the same way; each statement holds one block's 64
// accumulators ($0-$63).
// LLVM-LABEL: llvm.func @attention_128_rows_hd128
// LLVM-NOT: nvvm.wgmma.mma_async
// LLVM: scf.for
// LLVM: nvvm.wgmma.fence.aligned
// LLVM-NOT: wgmma.mma_async
// LLVM: llvm.inline_asm has_side_effects asm_dialect = att "{\0A.reg .pred p;\0Asetp.ne.b32 p, 1, 0;\0A.reg .pred q;\0Asetp.ne.b32 q, 0, 0;\0A
// LLVM-NOT: wgmma
// LLVM-SAME: wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16 {$0, {{[^}]*}}, $63}, $64, $65, q, 1,  1, 0,  0;\0A
// LLVM-NOT: wgmma
// LLVM-SAME: wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16 {$0, {{[^}]*}}, $63}, $66, $67, p, 1,  1, 0,  0;\0A
// LLVM-NOT: wgmma
// LLVM-SAME: wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16 {$0, {{[^}]*}}, $63}, $68, $69, p, 1,  1, 0,  0;\0A
// LLVM-NOT: wgmma
// LLVM-SAME: wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16 {$0, {{[^}]*}}, $63}, $70, $71, p, 1,  1, 0,  0;\0A}"
// LLVM-SAME: "{{(=f,){64}(l,){7}l}}"
// LLVM-NOT: wgmma.mma_async
// LLVM: llvm.inline_asm has_side_effects asm_dialect = att "{\0A.reg .pred p;\0Asetp.ne.b32 p, 1, 0;\0Awgmma
// LLVM-SAME: .mma_async.sync.aligned.m64n128k16.f32.f16.f16 {$0, {{[^}]*}}, $63}, $128, $129, p, 1,  1, 0,  0;\0A
// LLVM-NOT: wgmma
// LLVM-SAME: wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16 {$0, {{[^}]*}}, $63}, $130, $131, p, 1,  1, 0,  0;\0A
// LLVM-NOT: wgmma
// LLVM-SAME: wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16 {$0, {{[^}]*}}, $63}, $132, $133, p, 1,  1, 0,  0;\0A
// LLVM-NOT: wgmma
// LLVM-SAME: wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16 {$0, {{[^}]*}}, $63}, $134, $135, p, 1,  1, 0,  0;\0A}"
// LLVM-SAME: "{{(=f,){64}0,([0-9]+,){62}63,(l,){7}l}}"
// LLVM-NOT: wgmma.mma_async
// LLVM: llvm.inline_asm has_side_effects asm_dialect = att "{\0A.reg .pred p;\0Asetp.ne.b32 p, 1, 0;\0A.reg .pred q;\0Asetp.ne.b32 q, 0, 0;\0A
// LLVM-NOT: wgmma
// LLVM-SAME: wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16 {$0, {{[^}]*}}, $63}, $64, $65, q, 1,  1, 0,  0;\0A
// LLVM-NOT: wgmma
// LLVM-SAME: wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16 {$0, {{[^}]*}}, $63}, $66, $67, p, 1,  1, 0,  0;\0A
// LLVM-NOT: wgmma
// LLVM-SAME: wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16 {$0, {{[^}]*}}, $63}, $68, $69, p, 1,  1, 0,  0;\0A
// LLVM-NOT: wgmma
// LLVM-SAME: wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16 {$0, {{[^}]*}}, $63}, $70, $71, p, 1,  1, 0,  0;\0A}"
// LLVM-SAME: "{{(=f,){64}(l,){7}l}}"
// LLVM-NOT: wgmma.mma_async
// LLVM: llvm.inline_asm has_side_effects asm_dialect = att "{\0A.reg .pred p;\0Asetp.ne.b32 p, 1, 0;\0Awgmma
// LLVM-SAME: .mma_async.sync.aligned.m64n128k16.f32.f16.f16 {$0, {{[^}]*}}, $63}, $128, $129, p, 1,  1, 0,  0;\0A
// LLVM-NOT: wgmma
// LLVM-SAME: wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16 {$0, {{[^}]*}}, $63}, $130, $131, p, 1,  1, 0,  0;\0A
// LLVM-NOT: wgmma
// LLVM-SAME: wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16 {$0, {{[^}]*}}, $63}, $132, $133, p, 1,  1, 0,  0;\0A
// LLVM-NOT: wgmma
// LLVM-SAME: wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16 {$0, {{[^}]*}}, $63}, $134, $135, p, 1,  1, 0,  0;\0A}"
// LLVM-SAME: "{{(=f,){64}0,([0-9]+,){62}63,(l,){7}l}}"
// LLVM-NOT: wgmma.mma_async
// LLVM-NOT: wgmma.mma_async
// LLVM: wgmma.wait_group.sync.aligned 0;
// LLVM-COUNT-64: llvm.bitcast {{.*}} : vector<2xf16> to i32
// LLVM: nvvm.wgmma.fence.aligned
// LLVM-NOT: vector<2xf16> to i32
// LLVM-NOT: nvvm.wgmma.wait.group
// LLVM-COUNT-16: wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16 {{.*}}, p, 1, 1, 1;
// LLVM-NOT: wgmma.mma_async
// LLVM: nvvm.wgmma.commit.group.sync.aligned
// LLVM-NOT: wgmma.wait_group
// LLVM: scf.yield
// LLVM-NEXT: }
// LLVM: llvm.inline_asm {{.*}}"wgmma.wait_group.sync.aligned 0;"
tt.func public @attention_128_rows_hd128(%q: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %k: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %v: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %o: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %step = arith.constant 16384 : i32
  %c128t = arith.constant dense<128> : tensor<128x1xi32>
  %zs = arith.constant dense<0.0> : tensor<128x128xf32>
  %z = arith.constant dense<0.0> : tensor<128x128xf32>
  %r128 = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32>
  %r128b = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32>
  %rows = tt.expand_dims %r128 {axis = 1 : i32} : tensor<128xi32> -> tensor<128x1xi32>
  %rs = arith.muli %rows, %c128t : tensor<128x1xi32>
  %cols = tt.expand_dims %r128b {axis = 0 : i32} : tensor<128xi32> -> tensor<1x128xi32>
  %rb = tt.broadcast %rs : tensor<128x1xi32> -> tensor<128x128xi32>
  %cb = tt.broadcast %cols : tensor<1x128xi32> -> tensor<128x128xi32>
  %offs = arith.addi %rb, %cb : tensor<128x128xi32>
  %qs = tt.splat %q : !tt.ptr<f16> -> tensor<128x128x!tt.ptr<f16>>
  %qp = tt.addptr %qs, %offs : tensor<128x128x!tt.ptr<f16>>, tensor<128x128xi32>
  %qt = tt.load %qp : tensor<128x128x!tt.ptr<f16>>
  %res = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %z) -> (tensor<128x128xf32>) : i32 {
    %off = arith.muli %i, %step : i32
    %os = tt.splat %off : i32 -> tensor<128x128xi32>
    %ko = arith.addi %offs, %os : tensor<128x128xi32>
    %ks = tt.splat %k : !tt.ptr<f16> -> tensor<128x128x!tt.ptr<f16>>
    %kp = tt.addptr %ks, %ko : tensor<128x128x!tt.ptr<f16>>, tensor<128x128xi32>
    %kt = tt.load %kp : tensor<128x128x!tt.ptr<f16>>
    %ktt = tt.trans %kt {order = array<i32: 1, 0>} : tensor<128x128xf16> -> tensor<128x128xf16>
    %s = tt.dot %qt, %ktt, %zs : tensor<128x128xf16> * tensor<128x128xf16> -> tensor<128x128xf32>
    %m = "tt.reduce"(%s) <{axis = 1 : i32}> ({
    ^bb0(%a: f32, %b: f32):
      %mx = arith.maxnumf %a, %b : f32
      tt.reduce.return %mx : f32
    }) : (tensor<128x128xf32>) -> tensor<128xf32>
    %me = tt.expand_dims %m {axis = 1 : i32} : tensor<128xf32> -> tensor<128x1xf32>
    %mb = tt.broadcast %me : tensor<128x1xf32> -> tensor<128x128xf32>
    %sd = arith.subf %s, %mb : tensor<128x128xf32>
    %e = math.exp2 %sd : tensor<128x128xf32>
    %p = arith.truncf %e : tensor<128x128xf32> to tensor<128x128xf16>
    %vs = tt.splat %v : !tt.ptr<f16> -> tensor<128x128x!tt.ptr<f16>>
    %vp = tt.addptr %vs, %ko : tensor<128x128x!tt.ptr<f16>>, tensor<128x128xi32>
    %vt = tt.load %vp : tensor<128x128x!tt.ptr<f16>>
    %d = tt.dot %p, %vt, %acc : tensor<128x128xf16> * tensor<128x128xf16> -> tensor<128x128xf32>
    scf.yield %d : tensor<128x128xf32>
  }
  %os2 = tt.splat %o : !tt.ptr<f32> -> tensor<128x128x!tt.ptr<f32>>
  %op = tt.addptr %os2, %offs : tensor<128x128x!tt.ptr<f32>>, tensor<128x128xi32>
  tt.store %op, %res : tensor<128x128x!tt.ptr<f32>>
  tt.return
}

// -----

// The same loop with O read before Q K^T (scaled at the top): the carried
// O would be read before the wait that retires P @ V, so P @ V is waited
// for in its iteration.
// CHECK-LABEL: tt.func public @attention_128_rows_hd128_o_read_first
// CHECK-NOT: scf.if
// CHECK: scf.for
// CHECK: kgpu.local_dot %{{.*}} a %
// CHECK-NEXT: kgpu.wgmma_wait 0 %{{[^,]*}} : tensor<128x128xf32, #mma>
// CHECK: scf.yield
tt.func public @attention_128_rows_hd128_o_read_first(%q: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %k: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %v: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %o: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %step = arith.constant 16384 : i32
  %c128t = arith.constant dense<128> : tensor<128x1xi32>
  %zs = arith.constant dense<0.0> : tensor<128x128xf32>
  %z = arith.constant dense<0.0> : tensor<128x128xf32>
  %r128 = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32>
  %r128b = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32>
  %rows = tt.expand_dims %r128 {axis = 1 : i32} : tensor<128xi32> -> tensor<128x1xi32>
  %rs = arith.muli %rows, %c128t : tensor<128x1xi32>
  %cols = tt.expand_dims %r128b {axis = 0 : i32} : tensor<128xi32> -> tensor<1x128xi32>
  %rb = tt.broadcast %rs : tensor<128x1xi32> -> tensor<128x128xi32>
  %cb = tt.broadcast %cols : tensor<1x128xi32> -> tensor<128x128xi32>
  %offs = arith.addi %rb, %cb : tensor<128x128xi32>
  %qs = tt.splat %q : !tt.ptr<f16> -> tensor<128x128x!tt.ptr<f16>>
  %qp = tt.addptr %qs, %offs : tensor<128x128x!tt.ptr<f16>>, tensor<128x128xi32>
  %qt = tt.load %qp : tensor<128x128x!tt.ptr<f16>>
  %half = arith.constant dense<0.5> : tensor<128x128xf32>
  %res = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %z) -> (tensor<128x128xf32>) : i32 {
    %acch = arith.mulf %acc, %half : tensor<128x128xf32>
    %off = arith.muli %i, %step : i32
    %os = tt.splat %off : i32 -> tensor<128x128xi32>
    %ko = arith.addi %offs, %os : tensor<128x128xi32>
    %ks = tt.splat %k : !tt.ptr<f16> -> tensor<128x128x!tt.ptr<f16>>
    %kp = tt.addptr %ks, %ko : tensor<128x128x!tt.ptr<f16>>, tensor<128x128xi32>
    %kt = tt.load %kp : tensor<128x128x!tt.ptr<f16>>
    %ktt = tt.trans %kt {order = array<i32: 1, 0>} : tensor<128x128xf16> -> tensor<128x128xf16>
    %s = tt.dot %qt, %ktt, %zs : tensor<128x128xf16> * tensor<128x128xf16> -> tensor<128x128xf32>
    %m = "tt.reduce"(%s) <{axis = 1 : i32}> ({
    ^bb0(%a: f32, %b: f32):
      %mx = arith.maxnumf %a, %b : f32
      tt.reduce.return %mx : f32
    }) : (tensor<128x128xf32>) -> tensor<128xf32>
    %me = tt.expand_dims %m {axis = 1 : i32} : tensor<128xf32> -> tensor<128x1xf32>
    %mb = tt.broadcast %me : tensor<128x1xf32> -> tensor<128x128xf32>
    %sd = arith.subf %s, %mb : tensor<128x128xf32>
    %e = math.exp2 %sd : tensor<128x128xf32>
    %p = arith.truncf %e : tensor<128x128xf32> to tensor<128x128xf16>
    %vs = tt.splat %v : !tt.ptr<f16> -> tensor<128x128x!tt.ptr<f16>>
    %vp = tt.addptr %vs, %ko : tensor<128x128x!tt.ptr<f16>>, tensor<128x128xi32>
    %vt = tt.load %vp : tensor<128x128x!tt.ptr<f16>>
    %d = tt.dot %p, %vt, %acch : tensor<128x128xf16> * tensor<128x128xf16> -> tensor<128x128xf32>
    scf.yield %d : tensor<128x128xf32>
  }
  %os2 = tt.splat %o : !tt.ptr<f32> -> tensor<128x128x!tt.ptr<f32>>
  %op = tt.addptr %os2, %offs : tensor<128x128x!tt.ptr<f32>>, tensor<128x128xi32>
  tt.store %op, %res : tensor<128x128x!tt.ptr<f32>>
  tt.return
}
