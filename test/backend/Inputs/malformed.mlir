llvm.func @k(%arg0: !llvm.ptr<1>) attributes {nvvm.kernel} {
  %0 = llvm.bogus %arg0 : !llvm.ptr<1>
  llvm.return
}
