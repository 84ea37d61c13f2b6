// A kernel that only declares a global named __cudart_i2opi_f (trig-slow-path-own-names.mlir).
module attributes {kgpu.shared = 0 : i32} {
  llvm.func @__nv_cosf(f32) -> f32
  llvm.mlir.global external @__cudart_i2opi_f() {addr_space = 1 : i32} : !llvm.array<6 x i32>
  llvm.func @declared_table(%x: !llvm.ptr<1>, %y: !llvm.ptr<1>, %n: i32, %scratch: !llvm.ptr<1>, %profile: !llvm.ptr<1>)
      attributes {nvvm.kernel, nvvm.maxntid = array<i32: 128, 1, 1>,
                  kiln.arg_types = ["ptr<f32>", "ptr<f32>", "i32"]} {
    %v = llvm.load %x : !llvm.ptr<1> -> f32
    %c = llvm.call @__nv_cosf(%v) : (f32) -> f32
    %g = llvm.mlir.addressof @__cudart_i2opi_f : !llvm.ptr<1>
    %e = llvm.load %g : !llvm.ptr<1> -> i32
    %ef = llvm.sitofp %e : i32 to f32
    %r = llvm.fadd %c, %ef : f32
    llvm.store %r, %y : f32, !llvm.ptr<1>
    llvm.return
  }
}
