// An NVPTX arch kiln cannot read is an error naming it, not a lowering
// without the chip's instructions (helper-78: arch=banana and arch=SM_90A
// lowered a matmul without tensor cores and exited 0).
// RUN: not kiln-opt %s -kgpu-assign-layouts=num-warps=4 '-kgpu-convert-to-llvm=target=nvptx arch=banana' 2>&1 | FileCheck %s --check-prefix=BANANA
// RUN: not kiln-opt %s '--pass-pipeline=builtin.module(kiln-ttir-to-llvm-nvptx{arch=SM_90A})' 2>&1 | FileCheck %s --check-prefix=UPPER
// RUN: not kiln-opt %s '--pass-pipeline=builtin.module(kiln-ttir-to-llvm-nvptx{arch=sm_90b})' 2>&1 | FileCheck %s --check-prefix=SUFFIX
// RUN: kiln-opt %s '--pass-pipeline=builtin.module(kiln-ttir-to-llvm-nvptx{arch=sm_90a})' | FileCheck %s --check-prefix=OK
// RUN: kiln-opt %s '--pass-pipeline=builtin.module(kiln-ttir-to-llvm-nvptx{arch=sm_100f})' | FileCheck %s --check-prefix=OK

// BANANA: error: unknown NVPTX arch 'banana': expected sm_<number> with an optional a or f suffix (sm_80, sm_90a)
// UPPER: error: unknown NVPTX arch 'SM_90A'
// SUFFIX: error: unknown NVPTX arch 'sm_90b'
// OK: llvm.func @add_one

tt.func public @add_one(%p: !tt.ptr<f32>) {
  %x = tt.load %p : !tt.ptr<f32>
  %one = arith.constant 1.0 : f32
  %y = arith.addf %x, %one : f32
  tt.store %p, %y : !tt.ptr<f32>
  tt.return
}
