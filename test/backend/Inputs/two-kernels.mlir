llvm.func @first() attributes {nvvm.kernel} {
  llvm.return
}
llvm.func @second() attributes {nvvm.kernel} {
  llvm.return
}
