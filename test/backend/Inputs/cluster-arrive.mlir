// nvvm.cluster.arrive exists from sm_90 on; LLVM's instruction selection
// cannot select it for sm_80 (a report_fatal_error inside LLVM).
llvm.func @cluster_kernel() attributes {nvvm.kernel, nvvm.maxntid = array<i32: 128, 1, 1>} {
  nvvm.cluster.arrive
  llvm.return
}
