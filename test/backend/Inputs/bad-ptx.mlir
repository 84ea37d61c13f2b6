// Inline PTX that ptxas rejects.
llvm.func @bad_asm() attributes {nvvm.kernel, nvvm.maxntid = array<i32: 32, 1, 1>} {
  llvm.inline_asm has_side_effects "frobnicate.b32 %r0;", "" : () -> ()
  llvm.return
}
