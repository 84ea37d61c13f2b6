// RUN: kiln-opt %s --kiln-ttir-to-llvm-amdgpu='num-warps=1' | FileCheck %s --enable-var-scope

// Off NVIDIA there is no libdevice: the common __nv_* functions Triton and
// Inductor call become LLVM intrinsics, or calls of the ROCm device
// library's (ocml) function of the same meaning, which the AMDGPU backend
// links; others stay external calls it rejects at link time, by name.
// CHECK-LABEL: llvm.func @math
// CHECK: llvm.intr.sqrt
// CHECK: llvm.fdiv
// CHECK: llvm.intr.exp2
// CHECK-NOT: llvm.call @__nv_rsqrtf
// CHECK-NOT: llvm.call @__nv_exp2f
// CHECK: llvm.call @__ocml_erf_f32
// CHECK: llvm.call @__nv_j0f
// math ops without an AMDGPU instruction become ocml calls too.
// CHECK: llvm.call @__ocml_erf_f32
// CHECK: llvm.call @__ocml_tanh_f32
tt.func public @math(%p: !tt.ptr<f32> {tt.divisibility = 16 : i32}) {
  %r = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
  %s = tt.splat %p : !tt.ptr<f32> -> tensor<64x!tt.ptr<f32>>
  %a = tt.addptr %s, %r : tensor<64x!tt.ptr<f32>>, tensor<64xi32>
  %x = tt.load %a : tensor<64x!tt.ptr<f32>>
  %y = tt.extern_elementwise %x {libname = "libdevice", libpath = "", pure = true, symbol = "__nv_rsqrtf"} : (tensor<64xf32>) -> tensor<64xf32>
  %z = tt.extern_elementwise %y {libname = "libdevice", libpath = "", pure = true, symbol = "__nv_exp2f"} : (tensor<64xf32>) -> tensor<64xf32>
  %w = tt.extern_elementwise %z {libname = "libdevice", libpath = "", pure = true, symbol = "__nv_erff"} : (tensor<64xf32>) -> tensor<64xf32>
  %j = tt.extern_elementwise %w {libname = "libdevice", libpath = "", pure = true, symbol = "__nv_j0f"} : (tensor<64xf32>) -> tensor<64xf32>
  %e = math.erf %j : tensor<64xf32>
  %t = math.tanh %e : tensor<64xf32>
  tt.store %a, %t : tensor<64x!tt.ptr<f32>>
  tt.return
}
