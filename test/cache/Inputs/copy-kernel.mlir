// A hand-written LLVM-dialect kernel: its argument names come from NameLocs
// and its block size from nvvm.maxntid (256 threads: 8 warps).
module {
  llvm.func @copy_kernel(%src: !llvm.ptr<1> loc("src_ptr"), %dst: !llvm.ptr<1> loc("dst_ptr")) attributes {nvvm.kernel, nvvm.maxntid = array<i32: 256, 1, 1>} {
    %0 = llvm.load %src : !llvm.ptr<1> -> f32
    llvm.store %0, %dst : f32, !llvm.ptr<1>
    llvm.return
  }
}
