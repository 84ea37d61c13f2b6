// RUN: kiln-opt %s -split-input-file -tt-lower-tensor-descriptors -canonicalize -cse -kgpu-assign-layouts="num-warps=4 mma-version=2" -kgpu-pipeline-dot-loops=num-stages=3 | FileCheck %s --enable-var-scope
// RUN: kiln-opt %s -split-input-file -tt-lower-tensor-descriptors -canonicalize -cse -kgpu-assign-layouts="num-warps=4 mma-version=2" -kgpu-pipeline-dot-loops=num-stages=3 -kgpu-convert-to-llvm | FileCheck %s --check-prefix=LLVM
// RUN: kiln-opt %s -split-input-file --kiln-ttir-to-llvm-nvptx='num-warps=8 num-stages=4 arch=sm_90a' | FileCheck %s --check-prefix=SM90A

// Descriptor loads after tt-lower-tensor-descriptors are ordinary loads to
// the passes after it: AxisInfo proves 16-byte runs along the stride-1
// dimension, and bounds masks that are uniform over each block let the K
// loop be pipelined.

// A 512 x 512 matmul through descriptors (constant shapes, block offsets
// multiples of the block): every bounds mask is constant over its block
// (AxisInfo: splat(pid * 64) + range compared with 512), so
// kgpu-pipeline-dot-loops takes the K loop: A and B are copied by cp.async
// (16 bytes per copy) into 3 slots and multiplied from shared memory.
// CHECK-LABEL: tt.func public @desc_matmul
// CHECK:         kgpu.async_copy {{.*}} {offset = 0 : i64, rowStride = 40 : i64, slotBytes = 5120 : i64} : tensor<64x32x!tt.ptr<f16>
// CHECK:         kgpu.async_copy {{.*}} {offset = 15360 : i64, rowStride = 72 : i64, slotBytes = 4608 : i64} : tensor<32x64x!tt.ptr<f16>
// CHECK:         scf.for
// CHECK-NOT:       tt.load
// CHECK:           kgpu.async_copy
// CHECK:           kgpu.async_copy
// CHECK:           kgpu.local_dot
// CHECK:           scf.yield
// CHECK:         tt.store {{.*}} : tensor<64x64x!tt.ptr<f32>
// LLVM-LABEL: llvm.func @desc_matmul(
// LLVM-COUNT-4: nvvm.cp.async.shared.global {{.*}}, 16, cache = cg
// LLVM:         nvvm.mma.sync
// LLVM-COUNT-8: st.global.v4.b32
// LLVM:         llvm.return
tt.func public @desc_matmul(%a: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %b: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %c: !tt.ptr<f32> {tt.divisibility = 16 : i32}) {
  %c0 = arith.constant 0 : i32
  %c32 = arith.constant 32 : i32
  %c64 = arith.constant 64 : i32
  %c512 = arith.constant 512 : i32
  %c512_i64 = arith.constant 512 : i64
  %c1_i64 = arith.constant 1 : i64
  %zero = arith.constant dense<0.0> : tensor<64x64xf32>
  %pid = tt.get_program_id x : i32
  %rm = arith.muli %pid, %c64 : i32
  %da = tt.make_tensor_descriptor %a, [%c512, %c512], [%c512_i64, %c1_i64] : <f16>, <tensor<64x32xf16>>
  %db = tt.make_tensor_descriptor %b, [%c512, %c512], [%c512_i64, %c1_i64] : <f16>, <tensor<32x64xf16>>
  %dc = tt.make_tensor_descriptor %c, [%c512, %c512], [%c512_i64, %c1_i64] : <f32>, <tensor<64x64xf32>>
  %acc = scf.for %k = %c0 to %c512 step %c32 iter_args(%acc_k = %zero) -> (tensor<64x64xf32>) : i32 {
    %ta = tt.descriptor_load %da[%rm, %k] : !tt.tensordesc<tensor<64x32xf16>> -> tensor<64x32xf16>
    %tb = tt.descriptor_load %db[%k, %rm] : !tt.tensordesc<tensor<32x64xf16>> -> tensor<32x64xf16>
    %d = tt.dot %ta, %tb, %acc_k : tensor<64x32xf16> * tensor<32x64xf16> -> tensor<64x64xf32>
    scf.yield %d : tensor<64x64xf32>
  }
  tt.descriptor_store %dc[%rm, %rm], %acc : !tt.tensordesc<tensor<64x64xf32>>, tensor<64x64xf32>
  tt.return
}

// -----

// The same with the row count M a kernel argument (divisible by 16 only):
// A's row mask is constant over runs of 16 rows, not over the 64-row
// block. The loop is pipelined all the same (masks along M or N are
// copied masked, zero-filled where off): 16-byte cp.async, two each for A
// and B per iteration and stage, masked (the src-size operand): 8 for the
// two stages of the prologue, 4 in the loop.
// CHECK-LABEL: tt.func public @desc_matmul_runtime_m
// CHECK:         kgpu.async_copy {{.*}} : tensor<64x32x!tt.ptr<f16>, #{{.*}}>, tensor<64x32xi1
// CHECK:         kgpu.async_copy {{.*}} : tensor<32x64x!tt.ptr<f16>, #{{.*}}>, tensor<32x64xi1
// CHECK:         scf.for
// CHECK:           kgpu.local_dot
// CHECK-NOT:       tt.dot
// LLVM-LABEL: llvm.func @desc_matmul_runtime_m(
// LLVM-NOT:     ld.global
// LLVM-COUNT-8: nvvm.cp.async.shared.global {{.*}}, 16, cache =  cg, %{{.*}} :
// LLVM-NOT:     nvvm.cp.async.shared.global
// LLVM:         scf.for
// LLVM-COUNT-4: nvvm.cp.async.shared.global {{.*}}, 16, cache =  cg, %{{.*}} :
// LLVM:         nvvm.mma.sync
// LLVM:         llvm.return
tt.func public @desc_matmul_runtime_m(%a: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %b: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %c: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %m: i32 {tt.divisibility = 16 : i32}) {
  %c0 = arith.constant 0 : i32
  %c32 = arith.constant 32 : i32
  %c64 = arith.constant 64 : i32
  %c512 = arith.constant 512 : i32
  %c512_i64 = arith.constant 512 : i64
  %c1_i64 = arith.constant 1 : i64
  %zero = arith.constant dense<0.0> : tensor<64x64xf32>
  %pid = tt.get_program_id x : i32
  %rm = arith.muli %pid, %c64 : i32
  %da = tt.make_tensor_descriptor %a, [%m, %c512], [%c512_i64, %c1_i64] : <f16>, <tensor<64x32xf16>>
  %db = tt.make_tensor_descriptor %b, [%c512, %c512], [%c512_i64, %c1_i64] : <f16>, <tensor<32x64xf16>>
  %dc = tt.make_tensor_descriptor %c, [%m, %c512], [%c512_i64, %c1_i64] : <f32>, <tensor<64x64xf32>>
  %acc = scf.for %k = %c0 to %c512 step %c32 iter_args(%acc_k = %zero) -> (tensor<64x64xf32>) : i32 {
    %ta = tt.descriptor_load %da[%rm, %k] : !tt.tensordesc<tensor<64x32xf16>> -> tensor<64x32xf16>
    %tb = tt.descriptor_load %db[%k, %rm] : !tt.tensordesc<tensor<32x64xf16>> -> tensor<32x64xf16>
    %d = tt.dot %ta, %tb, %acc_k : tensor<64x32xf16> * tensor<32x64xf16> -> tensor<64x64xf32>
    scf.yield %d : tensor<64x64xf32>
  }
  tt.descriptor_store %dc[%rm, %rm], %acc : !tt.tensordesc<tensor<64x64xf32>>, tensor<64x64xf32>
  tt.return
}

// -----

// The corpus kernel's shape (Inductor's persistent TMA matmul): bf16 128x64
// and 64x128 tiles, 8 warps, 4 stages, sm_90a through the whole NVPTX
// pipeline: 4 slots of 16384 + 16384 bytes, cp.async of 16 bytes, and
// wgmma m64n128k16 (4 per 64-wide K step) left in flight while the
// previous iteration's group is waited for and its slot refilled.
// SM90A: kgpu.shared = 131072
// SM90A-LABEL: llvm.func @desc_matmul_wgmma(
// SM90A:       nvvm.cp.async.shared.global {{.*}}, 16, cache = cg
// SM90A:       nvvm.wgmma.fence.aligned
// SM90A-COUNT-4: wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16
// SM90A:       nvvm.wgmma.commit.group.sync.aligned
// SM90A:       "wgmma.wait_group.sync.aligned 1;"
// SM90A:       nvvm.cp.async.shared.global {{.*}}, 16, cache = cg
// SM90A:       "wgmma.wait_group.sync.aligned 0;"
// SM90A:       st.global.v4.b32
tt.func public @desc_matmul_wgmma(%a: !tt.ptr<bf16> {tt.divisibility = 16 : i32}, %b: !tt.ptr<bf16> {tt.divisibility = 16 : i32}, %c: !tt.ptr<bf16> {tt.divisibility = 16 : i32}) {
  %c0 = arith.constant 0 : i32
  %c64 = arith.constant 64 : i32
  %c128 = arith.constant 128 : i32
  %c1024 = arith.constant 1024 : i32
  %c1024_i64 = arith.constant 1024 : i64
  %c1_i64 = arith.constant 1 : i64
  %zero = arith.constant dense<0.0> : tensor<128x128xf32>
  %pid = tt.get_program_id x : i32
  %pm = arith.divsi %pid, %c64 : i32
  %pn = arith.remsi %pid, %c64 : i32
  %rm = arith.muli %pm, %c128 : i32
  %rn = arith.muli %pn, %c128 : i32
  %da = tt.make_tensor_descriptor %a, [%c1024, %c1024], [%c1024_i64, %c1_i64] : <bf16>, <tensor<128x64xbf16>>
  %db = tt.make_tensor_descriptor %b, [%c1024, %c1024], [%c1024_i64, %c1_i64] : <bf16>, <tensor<64x128xbf16>>
  %dc = tt.make_tensor_descriptor %c, [%c1024, %c1024], [%c1024_i64, %c1_i64] : <bf16>, <tensor<128x128xbf16>>
  %acc = scf.for %k = %c0 to %c1024 step %c64 iter_args(%acc_k = %zero) -> (tensor<128x128xf32>) : i32 {
    %ta = tt.descriptor_load %da[%rm, %k] : !tt.tensordesc<tensor<128x64xbf16>> -> tensor<128x64xbf16>
    %tb = tt.descriptor_load %db[%k, %rn] : !tt.tensordesc<tensor<64x128xbf16>> -> tensor<64x128xbf16>
    %d = tt.dot %ta, %tb, %acc_k : tensor<128x64xbf16> * tensor<64x128xbf16> -> tensor<128x128xf32>
    scf.yield %d : tensor<128x128xf32>
  }
  %out = arith.truncf %acc : tensor<128x128xf32> to tensor<128x128xbf16>
  tt.descriptor_store %dc[%rm, %rn], %out : !tt.tensordesc<tensor<128x128xbf16>>, tensor<128x128xbf16>
  tt.return
}
