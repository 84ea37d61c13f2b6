// RUN: kiln-opt %s -kgpu-assign-layouts="num-warps=4 mma-version=2" -kgpu-convert-to-llvm -canonicalize | FileCheck %s --enable-var-scope
// RUN: kiln-opt %S/Inputs/convert-wrapping.mlir -kgpu-convert-to-llvm -canonicalize | FileCheck %s --check-prefix=WRAP --enable-var-scope

// Shared-memory addresses are one per-thread pointer plus constants: the
// operand staging stores, every ldmatrix fragment and the epilogue's layout
// conversion index off a base computed once (PTX `[%r + imm]`), not an
// index multiplied out per element (which LLVM's straight-line strength
// reduction would have to rediscover).
//
// 64x32 f16 times 32x64 f16 on 4 warps (mma.sync m16n8k16, warpsPerCTA
// [2, 2], each warp 32x32): A is staged with rows of 32 + 8 = 40 f16, B
// with rows of 64 + 8 = 72 f16 at byte 64 * 40 * 2 = 5120.

// CHECK-LABEL: llvm.func @dot_once
// CHECK:         %[[SMEM:.*]] = llvm.mlir.addressof @kgpu_shared_memory : !llvm.ptr<3>
// A staging: two 16-byte stores per thread, 32 rows (1280 f16) apart.
// CHECK:         %[[AST:.*]] = llvm.getelementptr %[[SMEM]][%{{.*}}] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f16
// CHECK-NEXT:    %[[AST1:.*]] = llvm.getelementptr %[[AST]][1280] : (!llvm.ptr<3>) -> !llvm.ptr<3>, f16
// CHECK:         llvm.store %{{.*}}, %[[AST]] {alignment = 16 : i64} : vector<8xf16>, !llvm.ptr<3>
// CHECK:         llvm.store %{{.*}}, %[[AST1]] {alignment = 16 : i64} : vector<8xf16>, !llvm.ptr<3>
// B staging: two 16-byte stores, 16 rows (1152 f16) apart.
// CHECK:         %[[BBYTES:.*]] = llvm.getelementptr %[[SMEM]][5120] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
// CHECK-NEXT:    %[[BST:.*]] = llvm.getelementptr %[[BBYTES]][%{{.*}}] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f16
// CHECK-NEXT:    %[[BST1:.*]] = llvm.getelementptr %[[BST]][1152] : (!llvm.ptr<3>) -> !llvm.ptr<3>, f16
// CHECK:         llvm.store %{{.*}}, %[[BST]] {alignment = 16 : i64} : vector<8xf16>, !llvm.ptr<3>
// CHECK:         llvm.store %{{.*}}, %[[BST1]] {alignment = 16 : i64} : vector<8xf16>, !llvm.ptr<3>
// Fragments (the CTA tile is 32 x 16: two repetitions along M, four
// along N): A at its base, + 32 rows x 40 (second M repetition), + 16
// (second K step); B at its base, + 32 columns (N repetitions 2 and 3),
// + 16 rows x 72 (second K step).
// CHECK:         %[[A:.*]] = llvm.getelementptr %[[SMEM]][%{{.*}}] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f16
// CHECK:         %[[B:.*]] = llvm.getelementptr %{{.*}}[%{{.*}}] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f16
// CHECK-NEXT:    nvvm.ldmatrix %[[A]] {{.*}}layout = #nvvm.mma_layout<row>
// CHECK:         %[[A1:.*]] = llvm.getelementptr %[[A]][1280] : (!llvm.ptr<3>) -> !llvm.ptr<3>, f16
// CHECK-NEXT:    nvvm.ldmatrix %[[A1]] {{.*}}layout = #nvvm.mma_layout<row>
// CHECK:         nvvm.ldmatrix %[[B]] {{.*}}layout = #nvvm.mma_layout<col>
// CHECK:         %[[B1:.*]] = llvm.getelementptr %[[B]][32] : (!llvm.ptr<3>) -> !llvm.ptr<3>, f16
// CHECK-NEXT:    nvvm.ldmatrix %[[B1]] {{.*}}layout = #nvvm.mma_layout<col>
// CHECK:         %[[A2:.*]] = llvm.getelementptr %[[A]][16] : (!llvm.ptr<3>) -> !llvm.ptr<3>, f16
// CHECK-NEXT:    nvvm.ldmatrix %[[A2]]
// CHECK:         llvm.getelementptr %[[A]][1296] : (!llvm.ptr<3>) -> !llvm.ptr<3>, f16
// CHECK:         llvm.getelementptr %[[B]][1152] : (!llvm.ptr<3>) -> !llvm.ptr<3>, f16
// CHECK:         llvm.getelementptr %[[B]][1184] : (!llvm.ptr<3>) -> !llvm.ptr<3>, f16
// The second K step's 8 mma.sync (2 x 4 tiles per warp), and no more.
// CHECK-COUNT-8: nvvm.mma.sync
// CHECK-NOT:     nvvm.mma.sync
// The epilogue's conversion (mma -> blocked) stores the accumulator's
// column pairs at constant offsets from one pointer, in rows of 64 + 8
// f32 (padded against bank conflicts): the pair 8 rows down is 576
// elements on.
// CHECK:         %[[C:.*]] = llvm.getelementptr %[[SMEM]][%{{.*}}] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32
// CHECK-NEXT:    llvm.getelementptr %[[C]][576] : (!llvm.ptr<3>) -> !llvm.ptr<3>, f32
// CHECK-NEXT:    llvm.getelementptr %[[C]][16] : (!llvm.ptr<3>) -> !llvm.ptr<3>, f32
// CHECK:         llvm.store %{{.*}}, %[[C]] {alignment = 8 : i64} : vector<2xf32>, !llvm.ptr<3>
tt.func public @dot_once(%a: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %b: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %c: !tt.ptr<f32> {tt.divisibility = 16 : i32}) {
  %zero = arith.constant dense<0.0> : tensor<64x64xf32>
  %ra = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32>
  %ra2 = tt.expand_dims %ra {axis = 0 : i32} : tensor<32xi32> -> tensor<1x32xi32>
  %rab = tt.broadcast %ra2 : tensor<1x32xi32> -> tensor<64x32xi32>
  %pa = tt.splat %a : !tt.ptr<f16> -> tensor<64x32x!tt.ptr<f16>>
  %pa2 = tt.addptr %pa, %rab : tensor<64x32x!tt.ptr<f16>>, tensor<64x32xi32>
  %rb = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
  %rb2 = tt.expand_dims %rb {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
  %rbb = tt.broadcast %rb2 : tensor<1x64xi32> -> tensor<32x64xi32>
  %pb = tt.splat %b : !tt.ptr<f16> -> tensor<32x64x!tt.ptr<f16>>
  %pb2 = tt.addptr %pb, %rbb : tensor<32x64x!tt.ptr<f16>>, tensor<32x64xi32>
  %va = tt.load %pa2 : tensor<64x32x!tt.ptr<f16>>
  %vb = tt.load %pb2 : tensor<32x64x!tt.ptr<f16>>
  %d = tt.dot %va, %vb, %zero : tensor<64x32xf16> * tensor<32x64xf16> -> tensor<64x64xf32>
  %rcb = tt.broadcast %rb2 : tensor<1x64xi32> -> tensor<64x64xi32>
  %pc = tt.splat %c : !tt.ptr<f32> -> tensor<64x64x!tt.ptr<f32>>
  %pc2 = tt.addptr %pc, %rcb : tensor<64x64x!tt.ptr<f32>>, tensor<64x64xi32>
  tt.store %pc2, %d : tensor<64x64x!tt.ptr<f32>>
  tt.return
}

// Where a layout's tile is larger than the tensor (the second RUN line:
// a 2x4 tensor whose layouts tile 8x16 and 32x8 elements over 4 warps),
// indices wrap around the shape and each element's address is computed
// on its own (urem), for the stores of the source and the loads of the
// destination alike: four stores and two loads, none of them at a constant
// offset from a shared base.
// WRAP-LABEL: llvm.func @cvt
// WRAP:         llvm.urem
// WRAP:         %[[S0:.*]] = llvm.getelementptr %[[SMEM:.*]][%{{.*}}] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i64
// WRAP:         %[[S1:.*]] = llvm.getelementptr %[[SMEM]][%{{.*}}] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i64
// WRAP:         %[[S2:.*]] = llvm.getelementptr %[[SMEM]][%{{.*}}] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i64
// WRAP:         %[[S3:.*]] = llvm.getelementptr %[[SMEM]][%{{.*}}] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i64
// WRAP:         nvvm.barrier0
// WRAP-NEXT:    llvm.store %{{.*}}, %[[S0]] : i64, !llvm.ptr<3>
// WRAP-NEXT:    llvm.store %{{.*}}, %[[S1]] : i64, !llvm.ptr<3>
// WRAP-NEXT:    llvm.store %{{.*}}, %[[S2]] : i64, !llvm.ptr<3>
// WRAP-NEXT:    llvm.store %{{.*}}, %[[S3]] : i64, !llvm.ptr<3>
// WRAP-NEXT:    nvvm.barrier0
// WRAP:         llvm.urem
// WRAP:         %[[L0:.*]] = llvm.getelementptr %[[SMEM]][%{{.*}}] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i64
// WRAP:         %[[L1:.*]] = llvm.getelementptr %[[SMEM]][%{{.*}}] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i64
// WRAP-NEXT:    llvm.load %[[L0]] : !llvm.ptr<3> -> i64
// WRAP-NEXT:    llvm.load %[[L1]] : !llvm.ptr<3> -> i64
