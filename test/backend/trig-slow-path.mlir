// libdevice's float trig functions carry a Payne-Hanek slow path for
// |x| >= 105615 (a loop over the table __cudart_i2opi_f into a local
// array). kiln moves each one into a noinline cold function of its own when
// it links libdevice, so a kernel with several calls compiles one copy of
// it (outlineTrigReductionSlowPaths, pipelines/nvptx/NVPTXBackend.h).
// libdevice's double functions already call a noinline slow path; they keep
// it as it is.
// REQUIRES: ptxas, libdevice

// RUN: rm -rf %t && kiln compile %s --target sm_90 -o %t > /dev/null
// RUN: FileCheck %s --check-prefix=LL < %t/trig_kernel.ll
// RUN: FileCheck %s --check-prefix=PTX < %t/trig_kernel.ptx
// RUN: FileCheck %s --check-prefix=KERNEL < %t/trig_kernel.ptx
// RUN: grep -c '^\.func .*_\$_trig_reduction_slowpath[0-9]*($' %t/trig_kernel.ptx | FileCheck %s --check-prefix=COUNT

// The fast paths are inlined into the kernel, the slow paths are not: one
// function each for cosf and sinf, and eight for ynf (libdevice inlined
// the reduction into it at eight range checks).
// LL: define ptx_kernel void @trig_kernel(
// LL-NOT: define {{.*}}@__nv_cosf(
// LL-DAG: define internal {{.*}}void @__nv_sinf.trig_reduction_slowpath(float {{.*}} #[[ATTR:[0-9]+]]
// LL-DAG: define internal {{.*}}void @__nv_cosf.trig_reduction_slowpath(float {{.*}} #[[ATTR]]
// LL-DAG: define internal {{.*}}@__internal_trig_reduction_slowpathd(double
// LL: attributes #[[ATTR]] = { cold noinline nounwind
// COUNT: 10

// The kernel calls the cosf slow path at both call sites and reads no table
// itself; the slow paths do.
// KERNEL-LABEL: .visible .entry trig_kernel(
// KERNEL-NOT: __cudart_i2opi_f
// KERNEL: call.uni __nv_cosf_$_trig_reduction_slowpath,
// KERNEL-NOT: __cudart_i2opi_f
// KERNEL: call.uni __nv_cosf_$_trig_reduction_slowpath,
// KERNEL-NOT: __cudart_i2opi_f
// KERNEL: call.uni __nv_sinf_$_trig_reduction_slowpath,
// KERNEL-NOT: __cudart_i2opi_f
// KERNEL: {{^}$}}
// PTX: .func __nv_cosf_$_trig_reduction_slowpath(
// PTX-NEXT: .param .b32
// PTX: __cudart_i2opi_f
// PTX: {{^}$}}

module attributes {kgpu.shared = 0 : i32} {
  llvm.func @__nv_cosf(f32) -> f32
  llvm.func @__nv_sinf(f32) -> f32
  llvm.func @__nv_ynf(i32, f32) -> f32
  llvm.func @__nv_cos(f64) -> f64
  llvm.func @trig_kernel(%x: !llvm.ptr<1> loc("x_ptr"), %y: !llvm.ptr<1> loc("y_ptr"), %n: i32 loc("n"), %scratch: !llvm.ptr<1>, %profile: !llvm.ptr<1>)
      attributes {nvvm.kernel, nvvm.maxntid = array<i32: 128, 1, 1>,
                  kiln.arg_types = ["ptr<f32>", "ptr<f32>", "i32"]} {
    %tid = nvvm.read.ptx.sreg.tid.x : i32
    %idx = llvm.sext %tid : i32 to i64
    %px = llvm.getelementptr %x[%idx] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
    %v = llvm.load %px : !llvm.ptr<1> -> f32
    %c1 = llvm.call @__nv_cosf(%v) : (f32) -> f32
    %v2 = llvm.fmul %v, %c1 : f32
    %c2 = llvm.call @__nv_cosf(%v2) : (f32) -> f32
    %s1 = llvm.call @__nv_sinf(%c2) : (f32) -> f32
    %yn = llvm.call @__nv_ynf(%n, %s1) : (i32, f32) -> f32
    %d = llvm.fpext %yn : f32 to f64
    %cd = llvm.call @__nv_cos(%d) : (f64) -> f64
    %r = llvm.fptrunc %cd : f64 to f32
    %py = llvm.getelementptr %y[%idx] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
    llvm.store %r, %py : f32, !llvm.ptr<1>
    llvm.return
  }
}
