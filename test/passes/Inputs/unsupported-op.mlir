// Input of kgpu-convert-to-llvm.mlir: tt.print (tl.device_print), which the
// NVPTX lowering does not handle yet.
tt.func public @show(%x: tensor<128xi32>) {
  tt.print " x: " {hex = false, isSigned = array<i32: 1>} : %x : tensor<128xi32>
  tt.return
}
