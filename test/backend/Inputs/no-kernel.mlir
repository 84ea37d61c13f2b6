llvm.func @helper() {
  llvm.return
}
