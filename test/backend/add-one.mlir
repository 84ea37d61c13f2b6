// A hand-written LLVM-dialect kernel (no TTIR pipeline) through the whole
// backend: PTX for sm_90 at PTX ISA 8.0, a cubin from ptxas, metadata.json.
// REQUIRES: ptxas

// RUN: rm -rf %t && kiln compile %s --target sm_90 -o %t > %t.out
// RUN: FileCheck %s --check-prefix=PTX < %t/add_one.ptx
// RUN: FileCheck %s --check-prefix=LL < %t/add_one.ll
// RUN: FileCheck %s --check-prefix=SUMMARY < %t.out
// RUN: od -A n -t x1 -N 4 %t/add_one.cubin | FileCheck %s --check-prefix=ELF
// RUN: %dump_metadata %t | FileCheck %s --check-prefix=META
// RUN: ls %t | FileCheck %s --check-prefix=FILES
// Without fp fusion every add stays separately rounded (add.rn), as with
// Triton's enable_fp_fusion=False.
// RUN: rm -rf %t.nofuse && kiln compile %s --target sm_90 --no-fp-fusion -o %t.nofuse > /dev/null
// RUN: FileCheck %s --check-prefix=NOFUSE < %t.nofuse/add_one.ptx

// PTX: .version 8.0
// PTX: .target sm_90
// PTX: .address_size 64
// PTX: .visible .entry add_one(
// PTX: .maxntid 128, 1, 1
// PTX: mov.u32 {{%r[0-9]+}}, %tid.x;
// PTX: add.f32
// NOFUSE: add.rn.f32
// PTX: st.global.b32

// LL: target triple = "nvptx64-nvidia-cuda"
// LL: define ptx_kernel void @add_one(
// LL: !"nvvm-reflect-ftz", i32 0}

// SUMMARY: kiln: add_one -> {{.*}} (sm_90, PTX 8.0, {{[0-9]+}} registers, 0 B spilled, cubin {{[0-9]+}} B) in {{[0-9.]+}} ms [parse {{[0-9.]+}}, pipeline 0.0, translate {{[0-9.]+}}, link 0.0, optimize {{[0-9.]+}}, codegen {{[0-9.]+}}, ptxas {{[0-9.]+}}]

// ELF: 7f 45 4c 46

// META: format: "kiln-kernel/1"
// META-NEXT: kernel: "add_one"
// META-NEXT: target.backend: "cuda"
// META-NEXT: target.arch: "sm_90"
// META-NEXT: target.warp_size: 32
// META-NEXT: num_warps: 4
// META-NEXT: num_stages: 3
// META-NEXT: num_ctas: 1
// META-NEXT: shared_bytes: 0
// META-NEXT: signature[0].name: "arg0"
// META-NEXT: signature[0].type: "ptr<i8>"
// META-NEXT: binary.file: "add_one.cubin"
// META-NEXT: binary.size: {{[1-9][0-9]*}}
// META-NEXT: binary.sha256: "{{[0-9a-f]+}}"
// META-NEXT: job_key: "{{[0-9a-f]+}}"
// META-NEXT: extra_args.trailing_null_pointers: 0
// META-NEXT: registers: {{[1-9][0-9]*}}
// META-NEXT: spills.stores: 0
// META-NEXT: spills.loads: 0
// META-NEXT: binary: ok

// FILES: add_one.cubin
// FILES-NEXT: add_one.ll
// FILES-NEXT: add_one.llvm.mlir
// FILES-NEXT: add_one.ptx
// FILES-NEXT: metadata.json
// FILES-NEXT: timings.json

// sm_90a needs PTX ISA 8.0; an explicit newer version is emitted as asked.
// RUN: rm -rf %t.a && kiln compile %s --target sm_90a --ptx-version 83 -o %t.a > /dev/null
// RUN: FileCheck %s --check-prefix=PTX90A < %t.a/add_one.ptx
// PTX90A: .version 8.3
// PTX90A: .target sm_90a

module {
  llvm.func @add_one(%arg0: !llvm.ptr<1>) attributes {nvvm.kernel, nvvm.maxntid = array<i32: 128, 1, 1>} {
    %tid = nvvm.read.ptx.sreg.tid.x : i32
    %idx = llvm.sext %tid : i32 to i64
    %p = llvm.getelementptr %arg0[%idx] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
    %v = llvm.load %p : !llvm.ptr<1> -> f32
    %one = llvm.mlir.constant(1.0 : f32) : f32
    %r = llvm.fadd %v, %one : f32
    llvm.store %r, %p : f32, !llvm.ptr<1>
    llvm.return
  }
}
