// RUN: kiln-opt %s -split-input-file -kgpu-assign-layouts="num-warps=4 mma-version=3" "-kgpu-pipeline-dot-loops=num-stages=3 wgmma" | FileCheck %s --enable-var-scope
// RUN: kiln-opt %s -split-input-file -kgpu-assign-layouts="num-warps=4 mma-version=3" "-kgpu-pipeline-dot-loops=num-stages=3 wgmma" "-kgpu-convert-to-llvm=arch=sm_90a ptx-version=80" | FileCheck %s --check-prefix=LLVM
// RUN: kiln-opt %s -split-input-file -kgpu-assign-layouts="num-warps=4 mma-version=2" "-kgpu-pipeline-dot-loops=num-stages=3" | FileCheck %s --check-prefix=MMA

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
// Q K^T through descriptors, P V with P from registers.
// LLVM: kgpu.shared = 40960 : i32
// LLVM-LABEL: llvm.func @attention
// LLVM-COUNT-8: nvvm.cp.async.shared.global {{.*}}, 16, cache =  cg
// LLVM: scf.for
// LLVM: nvvm.cp.async.wait.group 1
// LLVM-COUNT-4: nvvm.cp.async.shared.global {{.*}}, 16, cache =  cg
// LLVM-COUNT-4: nvvm.wgmma.mma_async {{.*}}B[<f16>, <one>, <col>]
// LLVM: wgmma.wait_group.sync.aligned 0;
// LLVM: nvvm.cp.async.wait.group 2
// LLVM-COUNT-4: wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 {{.*}}, p, 1, 1, 1;
// LLVM: wgmma.wait_group.sync.aligned 0;
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
