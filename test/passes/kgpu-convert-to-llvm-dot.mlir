// RUN: kiln-opt %s -split-input-file -kgpu-assign-layouts=num-warps=4 -kgpu-convert-to-llvm | FileCheck %s --enable-var-scope
// RUN: not kiln-opt %S/Inputs/unsupported-dot.mlir -kgpu-assign-layouts=num-warps=4 -kgpu-convert-to-llvm 2>&1 | FileCheck %s --check-prefix=UNSUP
// RUN: not kiln-opt %S/Inputs/batched-dot.mlir -kgpu-assign-layouts=num-warps=4 -kgpu-convert-to-llvm 2>&1 | FileCheck %s --check-prefix=BATCHED
// RUN: not kiln-opt %S/Inputs/batched-dot.mlir --kiln-ttir-to-llvm-amdgpu='num-warps=4' 2>&1 | FileCheck %s --check-prefix=BATCHED-AMD
// RUN: not kiln-opt %S/Inputs/fnuz-dot.mlir --kiln-ttir-to-llvm-nvptx='num-warps=4 arch=sm_90a' 2>&1 | FileCheck %s --check-prefix=FNUZ
// RUN: not kiln-opt %S/Inputs/fnuz-dot.mlir --kiln-ttir-to-llvm-amdgpu='num-warps=4 arch=gfx942' 2>&1 | FileCheck %s --check-prefix=FNUZ-AMD

// tt.dot on CUDA cores: A (32x16 f16) and B (16x32 f16) to dynamic shared
// memory in rows padded by 16 bytes (32 x 24 + 16 x 40 f16 = 2816 bytes;
// the padding leaves the warp's reads of A rows in distinct banks), one
// barrier, then a loop over K whose iteration multiplies f32-extended
// operands into the thread's accumulators.
// CHECK: kgpu.shared = 2816 : i32
// CHECK: llvm.mlir.global external @kgpu_shared_memory() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<0 x i8>
// CHECK-LABEL: llvm.func @dot_f16
// CHECK: nvvm.barrier0
// CHECK: scf.for
// CHECK: llvm.fpext {{.*}} : f16 to f32
// CHECK: llvm.intr.fma
// CHECK: scf.yield
tt.func public @dot_f16(%a: tensor<32x16xf16>, %b: tensor<16x32xf16>, %p: !tt.ptr<f32>) {
  %c = arith.constant dense<0.0> : tensor<32x32xf32>
  %d = tt.dot %a, %b, %c : tensor<32x16xf16> * tensor<16x32xf16> -> tensor<32x32xf32>
  %ps = tt.splat %p : !tt.ptr<f32> -> tensor<32x32x!tt.ptr<f32>>
  tt.store %ps, %d : tensor<32x32x!tt.ptr<f32>>
  tt.return
}

// -----

// f32 operands with inputPrecision = tf32 are rounded to tf32 first.
// CHECK-LABEL: llvm.func @dot_tf32
// CHECK: "cvt.rna.tf32.f32 $0, $1;"
// CHECK: llvm.intr.fma
tt.func public @dot_tf32(%a: tensor<16x16xf32>, %b: tensor<16x16xf32>, %p: !tt.ptr<f32>) {
  %c = arith.constant dense<0.0> : tensor<16x16xf32>
  %d = tt.dot %a, %b, %c, inputPrecision = tf32 : tensor<16x16xf32> * tensor<16x16xf32> -> tensor<16x16xf32>
  %ps = tt.splat %p : !tt.ptr<f32> -> tensor<16x16x!tt.ptr<f32>>
  tt.store %ps, %d : tensor<16x16x!tt.ptr<f32>>
  tt.return
}

// UNSUP: unsupported-dot.mlir:8:8: error: tt.dot on 'f8E4M3FN' x 'f8E4M3FN' operands is not supported by the NVPTX lowering yet (run tt-upcast-f8-dot-operands first: it converts f8E4M3FN and f8E5M2 operands to f16)
// UNSUP-NOT: failed to legalize
// BATCHED: batched-dot.mlir:4:8: error: batched (3-D) tt.dot is not supported by the NVPTX lowering yet
// BATCHED-NOT: failed to legalize
// BATCHED-AMD: error: batched (3-D) tt.dot is not supported by the AMDGPU lowering yet
// BATCHED-AMD-NOT: failed to legalize
// FNUZ: fnuz-dot.mlir:8:8: error: tt.dot on 'f8E4M3FNUZ' x 'f8E4M3FNUZ' operands is not supported by the NVPTX lowering yet{{$}}
// FNUZ-NOT: failed to legalize
// FNUZ-AMD: fnuz-dot.mlir:8:8: error: tt.dot on 'f8E4M3FNUZ' x 'f8E4M3FNUZ' operands is not supported by the AMDGPU lowering yet{{$}}
// FNUZ-AMD-NOT: failed to legalize
