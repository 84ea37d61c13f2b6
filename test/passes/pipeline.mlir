// RUN: kiln-opt %s --kiln-ttir-to-llvm-nvptx='num-warps=4' | FileCheck %s --enable-var-scope

// The kiln-ttir-to-llvm-nvptx pipeline takes a TTIR kernel all the way to
// the LLVM and NVVM dialects: nothing of tt, kgpu, arith or scf is left.
// vadd with 16-byte aligned pointers: 1024 elements over 128 threads is two
// 16-byte chunks per thread, so two v4 loads of each input and two v4
// stores, all predicated by the mask.
// CHECK-NOT: tt.
// CHECK-NOT: kgpu.convert_layout
// CHECK-NOT: arith.
// CHECK-NOT: scf.
// CHECK-LABEL: llvm.func @vadd_aligned
// CHECK-SAME:    nvvm.kernel, nvvm.maxntid = array<i32: 128, 1, 1>
// CHECK-NOT: tt.
// CHECK-NOT: arith.
// CHECK-NOT: scf.
// CHECK:         nvvm.read.ptx.sreg.ctaid.x : i32
// CHECK:         nvvm.read.ptx.sreg.tid.x : i32
// CHECK-COUNT-4: ld.global.v4.b32
// CHECK-COUNT-8: llvm.fadd
// CHECK-COUNT-2: st.global.v4.b32
// CHECK-NOT: tt.
// CHECK-NOT: arith.
// CHECK-NOT: scf.
// CHECK:         llvm.return
// CHECK-NOT: tt.
// CHECK-NOT: arith.
// CHECK-NOT: scf.
tt.func public @vadd_aligned(%x_ptr: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %y_ptr: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %out_ptr: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %n: i32 {tt.divisibility = 16 : i32}) {
  %c1024_i32 = arith.constant 1024 : i32
  %pid = tt.get_program_id x : i32
  %start = arith.muli %pid, %c1024_i32 : i32
  %range = tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32>
  %starts = tt.splat %start : i32 -> tensor<1024xi32>
  %offs = arith.addi %starts, %range : tensor<1024xi32>
  %ns = tt.splat %n : i32 -> tensor<1024xi32>
  %mask = arith.cmpi slt, %offs, %ns : tensor<1024xi32>
  %xs = tt.splat %x_ptr : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>>
  %xp = tt.addptr %xs, %offs : tensor<1024x!tt.ptr<f32>>, tensor<1024xi32>
  %x = tt.load %xp, %mask : tensor<1024x!tt.ptr<f32>>
  %ys = tt.splat %y_ptr : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>>
  %yp = tt.addptr %ys, %offs : tensor<1024x!tt.ptr<f32>>, tensor<1024xi32>
  %y = tt.load %yp, %mask : tensor<1024x!tt.ptr<f32>>
  %sum = arith.addf %x, %y : tensor<1024xf32>
  %os = tt.splat %out_ptr : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>>
  %op = tt.addptr %os, %offs : tensor<1024x!tt.ptr<f32>>, tensor<1024xi32>
  tt.store %op, %sum, %mask : tensor<1024x!tt.ptr<f32>>
  tt.return
}
