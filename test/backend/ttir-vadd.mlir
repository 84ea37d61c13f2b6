// The TTIR path of `kiln compile`: the corpus vadd kernel through the
// kiln-ttir-to-llvm-nvptx pipeline and the backend. Checks the artifacts
// kiln compile is responsible for (signature from the TTIR argument NameLocs,
// the GPU-dialect snapshot, stage dumps, num_warps reaching nvvm.maxntid),
// not the pipeline's code generation.
// REQUIRES: ptxas

// RUN: rm -rf %t && kiln compile %s --target sm_90 --num-warps 8 --num-stages 2 -o %t --stage-dump > %t.out
// RUN: FileCheck %s --check-prefix=SUMMARY < %t.out
// RUN: FileCheck %s --check-prefix=PTX < %t/vadd_kernel.ptx
// RUN: %dump_metadata %t | FileCheck %s --check-prefix=META
// RUN: ls %t | FileCheck %s --check-prefix=FILES
// RUN: ls %t/stages | FileCheck %s --check-prefix=STAGES
// RUN: FileCheck %s --check-prefix=KGPU < %t/vadd_kernel.kgpu.mlir

// SUMMARY: kiln: vadd_kernel -> {{.*}} (sm_90, PTX 8.0, {{[0-9]+}} registers, {{.*}}) in {{[0-9.]+}} ms [parse {{[0-9.]+}}, pipeline {{[0-9.]+}},

// PTX: .version 8.0
// PTX: .target sm_90
// PTX: .entry vadd_kernel(
// PTX: .maxntid 256, 1, 1

// META: kernel: "vadd_kernel"
// META: num_warps: 8
// META-NEXT: num_stages: 2
// META: signature[0].name: "x_ptr"
// META-NEXT: signature[0].type: "ptr<f32>"
// META-NEXT: signature[1].name: "y_ptr"
// META-NEXT: signature[1].type: "ptr<f32>"
// META-NEXT: signature[2].name: "out_ptr"
// META-NEXT: signature[2].type: "ptr<f32>"
// META-NEXT: signature[3].name: "n"
// META-NEXT: signature[3].type: "i32"
// META-NEXT: binary.file: "vadd_kernel.cubin"
// META: binary: ok

// FILES: metadata.json
// FILES: stages
// FILES: timings.json
// FILES: vadd_kernel.cubin
// FILES: vadd_kernel.kgpu.mlir
// FILES: vadd_kernel.ll
// FILES: vadd_kernel.llvm.mlir
// FILES: vadd_kernel.ptx

// STAGES: 01-{{.*}}.mlir

// KGPU: kgpu

#loc = loc("kernels.py":8:0)
module {
  tt.func public @vadd_kernel(%x_ptr: !tt.ptr<f32> {tt.divisibility = 16 : i32} loc("x_ptr"(#loc)), %y_ptr: !tt.ptr<f32> {tt.divisibility = 16 : i32} loc("y_ptr"(#loc)), %out_ptr: !tt.ptr<f32> {tt.divisibility = 16 : i32} loc("out_ptr"(#loc)), %n: i32 {tt.divisibility = 16 : i32} loc("n"(#loc))) attributes {noinline = false} {
    %c1024_i32 = arith.constant 1024 : i32 loc(#loc1)
    %pid = tt.get_program_id x : i32 loc(#loc19)
    %offs = arith.muli %pid, %c1024_i32 : i32 loc(#loc20)
    %offs_0 = tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32> loc(#loc21)
    %offs_1 = tt.splat %offs : i32 -> tensor<1024xi32> loc(#loc22)
    %offs_2 = arith.addi %offs_1, %offs_0 : tensor<1024xi32> loc(#loc22)
    %m = tt.splat %n : i32 -> tensor<1024xi32> loc(#loc23)
    %m_3 = arith.cmpi slt, %offs_2, %m : tensor<1024xi32> loc(#loc23)
    %x = tt.splat %x_ptr : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>> loc(#loc24)
    %x_4 = tt.addptr %x, %offs_2 : tensor<1024x!tt.ptr<f32>>, tensor<1024xi32> loc(#loc24)
    %x_5 = tt.load %x_4, %m_3 : tensor<1024x!tt.ptr<f32>> loc(#loc25)
    %y = tt.splat %y_ptr : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>> loc(#loc26)
    %y_6 = tt.addptr %y, %offs_2 : tensor<1024x!tt.ptr<f32>>, tensor<1024xi32> loc(#loc26)
    %y_7 = tt.load %y_6, %m_3 : tensor<1024x!tt.ptr<f32>> loc(#loc27)
    %0 = tt.splat %out_ptr : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>> loc(#loc11)
    %1 = tt.addptr %0, %offs_2 : tensor<1024x!tt.ptr<f32>>, tensor<1024xi32> loc(#loc11)
    %2 = arith.addf %x_5, %y_7 : tensor<1024xf32> loc(#loc12)
    tt.store %1, %2, %m_3 : tensor<1024x!tt.ptr<f32>> loc(#loc13)
    tt.return loc(#loc14)
  } loc(#loc)
} loc(#loc)
#loc1 = loc(unknown)
#loc2 = loc("kernels.py":9:24)
#loc3 = loc("kernels.py":10:17)
#loc4 = loc("kernels.py":10:38)
#loc5 = loc("kernels.py":10:25)
#loc6 = loc("kernels.py":11:15)
#loc7 = loc("kernels.py":12:24)
#loc8 = loc("kernels.py":12:16)
#loc9 = loc("kernels.py":13:24)
#loc10 = loc("kernels.py":13:16)
#loc11 = loc("kernels.py":14:23)
#loc12 = loc("kernels.py":14:33)
#loc13 = loc("kernels.py":14:29)
#loc14 = loc("kernels.py":14:4)
#loc19 = loc("pid"(#loc2))
#loc20 = loc("offs"(#loc3))
#loc21 = loc("offs"(#loc4))
#loc22 = loc("offs"(#loc5))
#loc23 = loc("m"(#loc6))
#loc24 = loc("x"(#loc7))
#loc25 = loc("x"(#loc8))
#loc26 = loc("y"(#loc9))
#loc27 = loc("y"(#loc10))
