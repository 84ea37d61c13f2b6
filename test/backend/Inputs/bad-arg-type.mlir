llvm.func @vec_arg(%arg0: vector<4xf32>) attributes {nvvm.kernel} {
  llvm.return
}
