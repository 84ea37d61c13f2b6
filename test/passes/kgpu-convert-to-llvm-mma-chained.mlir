// RUN: kiln-opt %s -split-input-file -kgpu-assign-layouts="num-warps=4 mma-version=2 chain-dots=false" | FileCheck %s --check-prefix=LAYOUT
// RUN: kiln-opt %s -split-input-file -kgpu-assign-layouts="num-warps=4 mma-version=2 chain-dots=false" -kgpu-convert-to-llvm | FileCheck %s
// RUN: kiln-opt %s -split-input-file -kgpu-assign-layouts="num-warps=4 mma-version=2 chain-dots=true" | FileCheck %s --check-prefix=CHAINED-LAYOUT
// RUN: kiln-opt %s -split-input-file -kgpu-assign-layouts="num-warps=4 mma-version=2" | FileCheck %s --check-prefix=CHAINED-LAYOUT
// RUN: kiln-opt %s -split-input-file -kgpu-assign-layouts="num-warps=4 mma-version=2 chain-dots=true" -kgpu-convert-to-llvm | FileCheck %s --check-prefix=CHAINED

// Attention's two dots on mma.sync: S = Q K^T with Q loop-invariant, then
// O += P V with P = f16(S).
//
// With chain-dots=false each accumulator group splits the 4 warps over M
// and N (64x64: [2, 2]; 64x32: [2, 2]) and P goes through shared memory.
// LAYOUT: #[[$MMA:.*]] = #kgpu.mma<{version = 2, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
// LAYOUT: tt.dot {{.*}} -> tensor<64x64xf32, #[[$MMA]]>
// LAYOUT: tt.dot {{.*}} : tensor<64x64xf16, #[[$MMA]]> * {{.*}} -> tensor<64x32xf32, #[[$MMA]]>
//
// Q is defined outside the loop: it is staged once before the loop (64 x
// (32 + 8) f16 = 5120 bytes of its own, above the 14336 bytes the ops
// reuse: the second dot's A 64 x 72 and B 64 x 40 f16), and each iteration
// stages only K (16 elements per thread) before the first dot's ldmatrix.
// CHECK: kgpu.shared = 19456 : i32
// CHECK-LABEL: llvm.func @attention
// CHECK: nvvm.barrier0
// CHECK-COUNT-16: llvm.store {{.*}} : f16, !llvm.ptr<3>
// CHECK-NEXT: nvvm.barrier0
// CHECK-NEXT: scf.for
// CHECK-NEXT: nvvm.barrier0
// CHECK-COUNT-16: llvm.store {{.*}} : f16, !llvm.ptr<3>
// CHECK-NEXT: nvvm.barrier0
// CHECK-NOT: llvm.store
// CHECK: nvvm.ldmatrix {{.*}}layout = #nvvm.mma_layout<row>
// CHECK-COUNT-8: nvvm.mma.sync
// The second dot stages P (16 pairs per thread) and V, then reads both
// with ldmatrix.
// CHECK: nvvm.barrier0
// CHECK-COUNT-16: llvm.store {{.*}} : vector<2xf16>, !llvm.ptr<3>
// CHECK-COUNT-16: llvm.store {{.*}} : f16, !llvm.ptr<3>
// CHECK-NEXT: nvvm.barrier0
// CHECK: nvvm.ldmatrix {{.*}}layout = #nvvm.mma_layout<row>
// CHECK: scf.yield

// With chain-dots (the default), both groups put the warps along M
// ([4, 1]): a warp holds
// whole rows of P, and the second dot builds each A fragment from the
// thread's own P registers (four .b32 pairs per 16-wide K step: C
// fragments of N tiles 2k and 2k + 1); it stages only V. Shared memory:
// the reused bytes are the first dot's K 32 x 72 f16 and the second's
// V 64 x 40 f16 (8192 for the epilogue's conversion, whose rows stay
// unpadded under the hoisted Q), plus Q's 5120.
// CHAINED-LAYOUT: #[[$MMA:.*]] = #kgpu.mma<{version = 2, warpsPerCTA = [4, 1], instrShape = [16, 8]}>
// CHAINED-LAYOUT: tt.dot {{.*}} -> tensor<64x64xf32, #[[$MMA]]>
// CHAINED-LAYOUT: tt.dot {{.*}} : tensor<64x64xf16, #[[$MMA]]> * {{.*}} -> tensor<64x32xf32, #[[$MMA]]>
// CHAINED: kgpu.shared = 13312 : i32
// CHAINED-LABEL: llvm.func @attention
// CHAINED: scf.for
// CHAINED-COUNT-16: nvvm.mma.sync
// CHAINED: nvvm.barrier0
// CHAINED-COUNT-16: llvm.store {{.*}} : f16, !llvm.ptr<3>
// CHAINED-NEXT: nvvm.barrier0
// CHAINED-NOT: llvm.store
// CHAINED-NOT: nvvm.mma_layout<row>
// CHAINED-COUNT-4: llvm.bitcast {{.*}} : vector<2xf16> to i32
// CHAINED: nvvm.ldmatrix {{.*}}layout = #nvvm.mma_layout<col>
// CHAINED-COUNT-16: nvvm.mma.sync
// CHAINED-NOT: nvvm.mma.sync
// CHAINED: scf.yield
tt.func public @attention(%q: tensor<64x32xf16>, %k: tensor<32x64xf16>, %v: tensor<64x32xf16>, %n: i32, %p: !tt.ptr<f32>) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %zs = arith.constant dense<0.0> : tensor<64x64xf32>
  %zo = arith.constant dense<0.0> : tensor<64x32xf32>
  %acc = scf.for %i = %c0 to %n step %c1 iter_args(%o = %zo) -> (tensor<64x32xf32>) : i32 {
    %s = tt.dot %q, %k, %zs : tensor<64x32xf16> * tensor<32x64xf16> -> tensor<64x64xf32>
    %pr = arith.truncf %s : tensor<64x64xf32> to tensor<64x64xf16>
    %d = tt.dot %pr, %v, %o : tensor<64x64xf16> * tensor<64x32xf16> -> tensor<64x32xf32>
    scf.yield %d : tensor<64x32xf32>
  }
  %ps = tt.splat %p : !tt.ptr<f32> -> tensor<64x32x!tt.ptr<f32>>
  tt.store %ps, %acc : tensor<64x32x!tt.ptr<f32>>
  tt.return
}

// -----

// Hoisting would not fit: A 128 x (512 + 8) f16 = 133120 bytes of its own
// above the 131072 the transpose of a 128 x 256 f32 tensor reuses is over
// sm_90's 227 KiB, so A is staged with B (512 x (64 + 8) f16) in every
// iteration as before: 133120 + 73728 = 206848 bytes, and nothing is
// staged before the loop.
// CHECK: kgpu.shared = 206848 : i32
// CHECK-LABEL: llvm.func @no_room_to_hoist
// CHECK-NOT: !llvm.ptr<3>
// CHECK: scf.for
// CHECK-NEXT: nvvm.barrier0
// CHECK: llvm.store {{.*}} !llvm.ptr<3>
// CHECK: nvvm.ldmatrix
// CHECK: scf.yield
tt.func public @no_room_to_hoist(%a: tensor<128x512xf16>, %b: tensor<512x64xf16>, %t: tensor<128x256xf32>, %n: i32, %p: !tt.ptr<f32>, %q: !tt.ptr<f32>) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %z = arith.constant dense<0.0> : tensor<128x64xf32>
  %acc = scf.for %i = %c0 to %n step %c1 iter_args(%o = %z) -> (tensor<128x64xf32>) : i32 {
    %d = tt.dot %a, %b, %o : tensor<128x512xf16> * tensor<512x64xf16> -> tensor<128x64xf32>
    scf.yield %d : tensor<128x64xf32>
  }
  %ps = tt.splat %p : !tt.ptr<f32> -> tensor<128x64x!tt.ptr<f32>>
  tt.store %ps, %acc : tensor<128x64x!tt.ptr<f32>>
  %tt = tt.trans %t {order = array<i32: 1, 0>} : tensor<128x256xf32> -> tensor<256x128xf32>
  %qs = tt.splat %q : !tt.ptr<f32> -> tensor<256x128x!tt.ptr<f32>>
  tt.store %qs, %tt : tensor<256x128x!tt.ptr<f32>>
  tt.return
}

// -----

// Two kernels in one module never run in the same CTA: each one's
// loop-invariant A (128 x (256 + 8) f16 = 67584 bytes) starts at the same
// offset above the reused bytes (B 256 x (8 + 8) f16 = 8192), so the
// module needs 8192 + 67584 = 75776 bytes, not 8192 + 2 x 67584.
// CHECK: kgpu.shared = 75776 : i32
// CHECK-LABEL: llvm.func @first_kernel
// CHECK-LABEL: llvm.func @second_kernel
tt.func public @first_kernel(%a: tensor<128x256xf16>, %b: tensor<256x8xf16>, %n: i32, %p: !tt.ptr<f32>) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %z = arith.constant dense<0.0> : tensor<128x8xf32>
  %acc = scf.for %i = %c0 to %n step %c1 iter_args(%o = %z) -> (tensor<128x8xf32>) : i32 {
    %d = tt.dot %a, %b, %o : tensor<128x256xf16> * tensor<256x8xf16> -> tensor<128x8xf32>
    scf.yield %d : tensor<128x8xf32>
  }
  %ps = tt.splat %p : !tt.ptr<f32> -> tensor<128x8x!tt.ptr<f32>>
  tt.store %ps, %acc : tensor<128x8x!tt.ptr<f32>>
  tt.return
}
tt.func public @second_kernel(%a: tensor<128x256xf16>, %b: tensor<256x8xf16>, %n: i32, %p: !tt.ptr<f32>) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %z = arith.constant dense<0.0> : tensor<128x8xf32>
  %acc = scf.for %i = %c0 to %n step %c1 iter_args(%o = %z) -> (tensor<128x8xf32>) : i32 {
    %d = tt.dot %a, %b, %o : tensor<128x256xf16> * tensor<256x8xf16> -> tensor<128x8xf32>
    scf.yield %d : tensor<128x8xf32>
  }
  %ps = tt.splat %p : !tt.ptr<f32> -> tensor<128x8x!tt.ptr<f32>>
  tt.store %ps, %acc : tensor<128x8x!tt.ptr<f32>>
  tt.return
}

// -----

// B = tt.trans(K), K used nowhere else: the dot stages K itself (64 rows of
// 32, padded to 40) and reads B with ldmatrix without .trans; the trans
// moves no data (no shared-memory load before the dot's ldmatrix). 64x64
// on [2, 2] warps, two 16-wide K steps: A 2 x 2 and B 2 x 2 ldmatrix.x4.
// CHECK-LABEL: llvm.func @trans_b
// CHECK-NOT: llvm.load {{.*}} !llvm.ptr<3>
// CHECK-COUNT-4: nvvm.ldmatrix {{.*}}layout = #nvvm.mma_layout<row>
// CHECK-COUNT-8: nvvm.mma.sync
// CHECK-COUNT-4: nvvm.ldmatrix {{.*}}layout = #nvvm.mma_layout<row>
// CHECK-COUNT-8: nvvm.mma.sync
// CHECK-NOT: nvvm.ldmatrix
// CHECK-NOT: nvvm.mma.sync
// CHECK: llvm.return
tt.func public @trans_b(%a: tensor<64x32xf16>, %k: tensor<64x32xf16>, %p: !tt.ptr<f32>) {
  %z = arith.constant dense<0.0> : tensor<64x64xf32>
  %kt = tt.trans %k {order = array<i32: 1, 0>} : tensor<64x32xf16> -> tensor<32x64xf16>
  %d = tt.dot %a, %kt, %z : tensor<64x32xf16> * tensor<32x64xf16> -> tensor<64x64xf32>
  %ps = tt.splat %p : !tt.ptr<f32> -> tensor<64x64x!tt.ptr<f32>>
  tt.store %ps, %d : tensor<64x64x!tt.ptr<f32>>
  tt.return
}

// -----

// With the trans result used twice (the dot and a store), the trans moves
// B through shared memory and the dot stages it as K rows of N (ldmatrix
// .trans), as before.
// CHECK-LABEL: llvm.func @trans_b_used_twice
// CHECK: llvm.load {{.*}} !llvm.ptr<3>
// CHECK: nvvm.ldmatrix {{.*}}layout = #nvvm.mma_layout<col>
tt.func public @trans_b_used_twice(%a: tensor<64x32xf16>, %k: tensor<64x32xf16>, %p: !tt.ptr<f32>, %q: !tt.ptr<f16>) {
  %z = arith.constant dense<0.0> : tensor<64x64xf32>
  %kt = tt.trans %k {order = array<i32: 1, 0>} : tensor<64x32xf16> -> tensor<32x64xf16>
  %d = tt.dot %a, %kt, %z : tensor<64x32xf16> * tensor<32x64xf16> -> tensor<64x64xf32>
  %ps = tt.splat %p : !tt.ptr<f32> -> tensor<64x64x!tt.ptr<f32>>
  tt.store %ps, %d : tensor<64x64x!tt.ptr<f32>>
  %qs = tt.splat %q : !tt.ptr<f16> -> tensor<32x64x!tt.ptr<f16>>
  tt.store %qs, %kt : tensor<32x64x!tt.ptr<f16>>
  tt.return
}

// -----

// Both at once: A loop-invariant (staged once before the loop: 64 x (32 +
// 8) f16 = 5120 bytes above the 16384 reused ones, which the epilogue's
// 64 x 64 f32 conversion needs; its rows stay unpadded, since padding
// would grow the reused bytes under the hoisted A) and B = tt.trans(K)
// with K changing every iteration (K staged as 64 rows of 32 + 8 in the
// reused bytes, read without .trans).
// CHECK: kgpu.shared = 21504 : i32
// CHECK-LABEL: llvm.func @hoisted_a_trans_b
// CHECK: nvvm.barrier0
// CHECK-COUNT-16: llvm.store {{.*}} : f16, !llvm.ptr<3>
// CHECK-NEXT: nvvm.barrier0
// CHECK-NEXT: scf.for
// CHECK-NOT: llvm.load {{.*}} !llvm.ptr<3>
// CHECK: nvvm.barrier0
// CHECK: llvm.store {{.*}} !llvm.ptr<3>
// CHECK: nvvm.barrier0
// CHECK-NOT: nvvm.ldmatrix {{.*}}mma_layout<col>
// CHECK: nvvm.ldmatrix {{.*}}layout = #nvvm.mma_layout<row>
// CHECK-NOT: nvvm.ldmatrix {{.*}}mma_layout<col>
// CHECK: scf.yield
tt.func public @hoisted_a_trans_b(%a: tensor<64x32xf16>, %k: !tt.ptr<f16>, %n: i32, %p: !tt.ptr<f32>) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %z = arith.constant dense<0.0> : tensor<64x64xf32>
  %ks = tt.splat %k : !tt.ptr<f16> -> tensor<64x32x!tt.ptr<f16>>
  %acc = scf.for %i = %c0 to %n step %c1 iter_args(%o = %z) -> (tensor<64x64xf32>) : i32 {
    %kv = tt.load %ks : tensor<64x32x!tt.ptr<f16>>
    %kt = tt.trans %kv {order = array<i32: 1, 0>} : tensor<64x32xf16> -> tensor<32x64xf16>
    %d = tt.dot %a, %kt, %o : tensor<64x32xf16> * tensor<32x64xf16> -> tensor<64x64xf32>
    scf.yield %d : tensor<64x64xf32>
  }
  %ps = tt.splat %p : !tt.ptr<f32> -> tensor<64x64x!tt.ptr<f32>>
  tt.store %ps, %acc : tensor<64x64x!tt.ptr<f32>>
  tt.return
}
