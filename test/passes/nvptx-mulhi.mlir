// RUN: kiln-opt %s -kgpu-assign-layouts=num-warps=4 -kgpu-convert-to-llvm | FileCheck %s
// RUN: kiln-opt %s "-kgpu-assign-layouts=num-warps=4 threads-per-warp=64" "-kgpu-convert-to-llvm=target=amdgpu" | FileCheck %s --check-prefix=AMD

// tt.mulhiui on NVPTX is one mul.hi.u32 / mul.hi.u64 (llvm.nvvm.mulhi.ui /
// .ull), not a widening multiply and shift for LLVM to match (Triton's
// philox-based dropout has ~130 of them per thread). AMDGPU keeps the
// generic form.

// CHECK-LABEL: llvm.func @mulhi
// CHECK-COUNT-2: llvm.call_intrinsic "llvm.nvvm.mulhi.ui"({{.*}}) : (i32, i32) -> i32
// CHECK:         llvm.call_intrinsic "llvm.nvvm.mulhi.ull"({{.*}}) : (i64, i64) -> i64
// CHECK-NOT:     llvm.lshr
// AMD-LABEL: llvm.func @mulhi
// AMD:         llvm.zext
// AMD:         llvm.mul
// AMD:         llvm.lshr
// AMD-NOT:     llvm.nvvm.mulhi
tt.func public @mulhi(%p: !tt.ptr<i32> {tt.divisibility = 16 : i32}, %q: !tt.ptr<i64> {tt.divisibility = 16 : i32}, %s: i64) {
  %range = tt.make_range {end = 256 : i32, start = 0 : i32} : tensor<256xi32>
  %ps = tt.splat %p : !tt.ptr<i32> -> tensor<256x!tt.ptr<i32>>
  %pp = tt.addptr %ps, %range : tensor<256x!tt.ptr<i32>>, tensor<256xi32>
  %x = tt.load %pp : tensor<256x!tt.ptr<i32>>
  %c = arith.constant dense<-766435501> : tensor<256xi32>
  %h = tt.mulhiui %x, %c : tensor<256xi32>
  tt.store %pp, %h : tensor<256x!tt.ptr<i32>>
  %h64 = tt.mulhiui %s, %s : i64
  tt.store %q, %h64 : !tt.ptr<i64>
  tt.return
}
