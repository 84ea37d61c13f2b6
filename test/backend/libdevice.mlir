// A kernel calling libdevice's __nv_expf: libdevice is linked (the PTX
// defines no external __nv_expf), NVVMReflect folds __CUDA_FTZ from the
// nvvm-reflect-ftz flag, and the signature comes from kiln.arg_types with
// names from the argument locations.
// REQUIRES: ptxas, libdevice

// RUN: rm -rf %t && kiln compile %s --target sm_90 -o %t > %t.out
// RUN: FileCheck %s --check-prefix=PTX < %t/exp_kernel.ptx
// RUN: FileCheck %s --check-prefix=LL < %t/exp_kernel.ll
// RUN: %dump_metadata %t | FileCheck %s --check-prefix=META
// RUN: FileCheck %s --check-prefix=SUMMARY < %t.out

// PTX-NOT: __nv_expf
// PTX: .visible .entry exp_kernel(
// PTX-NOT: .extern .func
// PTX-NOT: call.uni
// PTX: ex2.approx
// PTX-NOT: __nv_expf

// LL-NOT: declare {{.*}} @__nv_expf
// LL-NOT: define {{.*}} @__nv_expf
// LL: define ptx_kernel void @exp_kernel(
// LL-NOT: @__nvvm_reflect
// LL: !"nvvm-reflect-ftz", i32 0}

// The block is 256 threads (nvvm.maxntid), so num_warps is 8; two trailing
// pointers are not in kiln.arg_types: the launcher passes them as null.
// META: num_warps: 8
// META: shared_bytes: 1024
// META-NEXT: signature[0].name: "x_ptr"
// META-NEXT: signature[0].type: "ptr<f32>"
// META-NEXT: signature[1].name: "y_ptr"
// META-NEXT: signature[1].type: "ptr<f32>"
// META-NEXT: signature[2].name: "n"
// META-NEXT: signature[2].type: "i32"
// META-NEXT: binary.file: "exp_kernel.cubin"
// META: extra_args.trailing_null_pointers: 2
// META: binary: ok

// SUMMARY: kiln: exp_kernel -> {{.*}} link {{[0-9]+\.[0-9]}}, optimize

// --ftz sets the flag to 1 and changes libdevice's code path.
// RUN: rm -rf %t.ftz && kiln compile %s -o %t.ftz --ftz > /dev/null
// RUN: FileCheck %s --check-prefix=FTZ < %t.ftz/exp_kernel.ll
// RUN: not cmp -s %t/exp_kernel.ptx %t.ftz/exp_kernel.ptx
// FTZ: !"nvvm-reflect-ftz", i32 1}

// A libdevice path that does not exist is named in the error.
// RUN: not env KILN_LIBDEVICE=%t.nonexistent.bc kiln compile %s -o %t.bad 2> %t.err
// RUN: FileCheck %s --check-prefix=BADLIB < %t.err
// BADLIB: kiln: error: {{.*}}libdevice.mlir: link libdevice: '{{.*}}nonexistent.bc' (from KILN_LIBDEVICE) is not a file

module attributes {kgpu.shared = 1024 : i32} {
  llvm.func @__nv_expf(f32) -> f32
  llvm.func @exp_kernel(%x: !llvm.ptr<1> loc("x_ptr"), %y: !llvm.ptr<1> loc("y_ptr"), %n: i32 loc("n"), %scratch: !llvm.ptr<1>, %profile: !llvm.ptr<1>)
      attributes {nvvm.kernel, nvvm.maxntid = array<i32: 256, 1, 1>,
                  kiln.arg_types = ["ptr<f32>", "ptr<f32>", "i32"]} {
    %tid = nvvm.read.ptx.sreg.tid.x : i32
    %in = llvm.icmp "slt" %tid, %n : i32
    llvm.cond_br %in, ^bb1, ^bb2
  ^bb1:
    %idx = llvm.sext %tid : i32 to i64
    %px = llvm.getelementptr %x[%idx] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
    %v = llvm.load %px : !llvm.ptr<1> -> f32
    %e = llvm.call @__nv_expf(%v) : (f32) -> f32
    %py = llvm.getelementptr %y[%idx] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
    llvm.store %e, %py : f32, !llvm.ptr<1>
    llvm.br ^bb2
  ^bb2:
    llvm.return
  }
}
