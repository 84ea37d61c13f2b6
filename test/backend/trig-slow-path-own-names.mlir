// The slow-path outlining of libdevice's float trig functions
// (trig-slow-path.mlir) looks only at what the libdevice link added. This
// kernel's module has a global of the table's own name, __cudart_i2opi_f,
// and a function of its own with the same shape (a read of that table under
// `fcmp oge x, constant`): the linker renames libdevice's table, whose slow
// path in __nv_cosf is still outlined, and the kernel's own function is
// left as it is. A global of that name that is only declared is not the
// table either.
// REQUIRES: ptxas, libdevice

// RUN: rm -rf %t && kiln compile %s --target sm_90 -o %t > /dev/null
// RUN: FileCheck %s < %t/own_names.ll

// CHECK-DAG: @__cudart_i2opi_f = {{.*}}[i32 1, i32 2, i32 3, i32 4, i32 5, i32 6]
// CHECK-DAG: @[[TABLE:__cudart_i2opi_f[0-9]+]] = internal
// CHECK-NOT: @helper.trig_reduction_slowpath
// CHECK: define internal {{.*}}void @__nv_cosf.trig_reduction_slowpath(
// CHECK: @[[TABLE]]
// CHECK-NOT: @helper.trig_reduction_slowpath

// Only a declaration of that name (Inputs/trig-table-declared.mlir): the
// renamed libdevice table is still found and the slow path outlined.
// RUN: rm -rf %t.decl && kiln compile %S/Inputs/trig-table-declared.mlir --target sm_90 -o %t.decl > /dev/null
// RUN: FileCheck %s --check-prefix=DECL < %t.decl/declared_table.ll
// DECL-DAG: @__cudart_i2opi_f = external
// DECL-DAG: @[[TABLE:__cudart_i2opi_f[0-9]+]] = internal
// DECL: define internal {{.*}}void @__nv_cosf.trig_reduction_slowpath(
// DECL: @[[TABLE]]

module attributes {kgpu.shared = 0 : i32} {
  llvm.func @__nv_cosf(f32) -> f32
  llvm.mlir.global external @__cudart_i2opi_f(dense<[1, 2, 3, 4, 5, 6]> : tensor<6xi32>) {addr_space = 1 : i32} : !llvm.array<6 x i32>
  llvm.func @helper(%a: f32, %i: i64) -> f32 attributes {no_inline} {
    %big = llvm.mlir.constant(2.0 : f32) : f32
    %c = llvm.fcmp "oge" %a, %big : f32
    llvm.cond_br %c, ^slow, ^done(%a : f32)
  ^slow:
    %g = llvm.mlir.addressof @__cudart_i2opi_f : !llvm.ptr<1>
    %p = llvm.getelementptr %g[%i] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, i32
    %e = llvm.load %p : !llvm.ptr<1> -> i32
    %ef = llvm.sitofp %e : i32 to f32
    llvm.br ^done(%ef : f32)
  ^done(%r: f32):
    llvm.return %r : f32
  }
  llvm.func @own_names(%x: !llvm.ptr<1>, %y: !llvm.ptr<1>, %n: i32, %scratch: !llvm.ptr<1>, %profile: !llvm.ptr<1>)
      attributes {nvvm.kernel, nvvm.maxntid = array<i32: 128, 1, 1>,
                  kiln.arg_types = ["ptr<f32>", "ptr<f32>", "i32"]} {
    %tid = nvvm.read.ptx.sreg.tid.x : i32
    %idx = llvm.sext %tid : i32 to i64
    %px = llvm.getelementptr %x[%idx] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
    %py = llvm.getelementptr %y[%idx] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
    %v = llvm.load %px : !llvm.ptr<1> -> f32
    %h = llvm.call @helper(%v, %idx) : (f32, i64) -> f32
    %c = llvm.call @__nv_cosf(%h) : (f32) -> f32
    llvm.store %c, %py : f32, !llvm.ptr<1>
    llvm.return
  }
}
