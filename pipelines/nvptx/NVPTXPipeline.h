//===- NVPTXPipeline.h - TTIR to LLVM + NVVM dialects -----------*- C++ -*-===//
//
// The named pass pipeline that lowers a TTIR module (tt dialect) to the LLVM
// and NVVM dialects, ready for the NVPTX backend (NVPTXBackend.h). Like
// upstream's GPUToNVVMPipeline: an options struct, a build function and a
// registration under a flag name.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_PIPELINES_NVPTX_NVPTXPIPELINE_H
#define KILN_PIPELINES_NVPTX_NVPTXPIPELINE_H

#include <string>

namespace mlir {
class OpPassManager;
} // namespace mlir

namespace kiln::pipelines {

/// Options of the TTIR -> LLVM + NVVM pipeline.
struct NVPTXPipelineOptions {
  /// Warps per CTA; the kernel's block is threadsPerWarp x numWarps threads.
  int numWarps = 4;
  /// Software pipelining depth of loops that load.
  int numStages = 3;
  /// Threads per warp (32 on every NVIDIA GPU).
  int threadsPerWarp = 32;
  /// SM architecture, e.g. "sm_90" or "sm_90a".
  std::string arch = "sm_90";
  /// PTX ISA version times ten (80 = PTX ISA 8.0).
  int ptxVersion = 80;
  /// f32 denormals flushed where libdevice would flush them under
  /// nvvm-reflect-ftz (the job's ftz; f32 exp2 is ex2.approx.ftz.f32).
  bool ftz = false;
};

/// Appends the passes lowering a TTIR module (tt dialect) to the LLVM + NVVM
/// dialects.
void buildTTIRToLLVMNVPTXPipeline(mlir::OpPassManager &pm,
                                  const NVPTXPipelineOptions &options);

/// Registers the pipeline as `kiln-ttir-to-llvm-nvptx` and every pass it
/// uses.
void registerNVPTXPipeline();

} // namespace kiln::pipelines

#endif // KILN_PIPELINES_NVPTX_NVPTXPIPELINE_H
