// RUN: kiln-opt %s -split-input-file -kgpu-assign-layouts=num-warps=4 -kgpu-convert-to-llvm | FileCheck %s --enable-var-scope

// trans moves data between threads through shared memory: every thread
// stores its elements at their row-major index, one barrier, every thread
// loads the elements its result layout gives it. 32x64 f32 = 8192 bytes.
// CHECK: kgpu.shared = 8192 : i32
// CHECK-LABEL: llvm.func @trans
// CHECK-NOT: nvvm.barrier0
// CHECK: llvm.store {{.*}} : f32, !llvm.ptr<3>
// CHECK: nvvm.barrier0
// CHECK: llvm.load {{.*}} : !llvm.ptr<3> -> f32
// CHECK-NOT: nvvm.barrier0
// CHECK: llvm.return
tt.func public @trans(%p: !tt.ptr<f32> {tt.divisibility = 16 : i32}) {
  %x = arith.constant dense<1.0> : tensor<32x64xf32>
  %t = tt.trans %x {order = array<i32: 1, 0>} : tensor<32x64xf32> -> tensor<64x32xf32>
  %s = tt.splat %p : !tt.ptr<f32> -> tensor<64x32x!tt.ptr<f32>>
  tt.store %s, %t : tensor<64x32x!tt.ptr<f32>>
  tt.return
}

// -----

// join stores both operands (2 x 128 x 4 bytes), split reads each half.
// Both ops use the same 1024 bytes from offset 0 (shared memory is reused
// from op to op, not summed), so each starts with a barrier: no thread may
// still be reading what the previous op stored.
// CHECK: kgpu.shared = 1024 : i32
// CHECK-LABEL: llvm.func @join_split
// CHECK: nvvm.barrier0
// CHECK: llvm.store {{.*}} : f32, !llvm.ptr<3>
// CHECK: nvvm.barrier0
// CHECK: llvm.load {{.*}} : !llvm.ptr<3> -> f32
// CHECK: nvvm.barrier0
// CHECK: llvm.store {{.*}} : f32, !llvm.ptr<3>
// CHECK: nvvm.barrier0
// CHECK: llvm.load {{.*}} : !llvm.ptr<3> -> f32
// CHECK-NOT: nvvm.barrier0
// CHECK: llvm.return
tt.func public @join_split(%a: tensor<128xf32>, %b: tensor<128xf32>, %p: !tt.ptr<f32>) {
  %j = tt.join %a, %b : tensor<128xf32> -> tensor<128x2xf32>
  %s0, %s1 = tt.split %j : tensor<128x2xf32> -> tensor<128xf32>
  %v = arith.addf %s0, %s1 : tensor<128xf32>
  %ps = tt.splat %p : !tt.ptr<f32> -> tensor<128x!tt.ptr<f32>>
  tt.store %ps, %v : tensor<128x!tt.ptr<f32>>
  tt.return
}

// -----

// gather reads the source at the index each result element carries.
// CHECK-LABEL: llvm.func @gather
// CHECK: nvvm.barrier0
// CHECK: llvm.getelementptr {{.*}} -> !llvm.ptr<3>, f32
// CHECK: llvm.load {{.*}} : !llvm.ptr<3> -> f32
tt.func public @gather(%src: tensor<128xf32>, %idx: tensor<128xi32>, %p: !tt.ptr<f32>) {
  %g = tt.gather %src[%idx] {axis = 0 : i32} : (tensor<128xf32>, tensor<128xi32>) -> tensor<128xf32>
  %ps = tt.splat %p : !tt.ptr<f32> -> tensor<128x!tt.ptr<f32>>
  tt.store %ps, %g : tensor<128x!tt.ptr<f32>>
  tt.return
}
