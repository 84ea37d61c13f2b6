//===- AMDGPUPipeline.h - TTIR to LLVM + ROCDL dialects ---------*- C++ -*-===//
//
// The named pass pipeline lowering a TTIR module to the LLVM and ROCDL
// dialects for AMD CDNA GPUs (gfx90a, gfx942): the same stages as NVPTX's
// with 64-lane wavefronts and the AMDGPU TargetInfo.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_PIPELINES_AMDGPU_AMDGPUPIPELINE_H
#define KILN_PIPELINES_AMDGPU_AMDGPUPIPELINE_H

#include <string>

namespace mlir {
class OpPassManager;
} // namespace mlir

namespace kiln::pipelines {

/// Options of the TTIR -> LLVM + ROCDL pipeline.
struct AMDGPUPipelineOptions {
  /// Wavefronts per workgroup; the kernel's block is 64 x numWarps threads.
  int numWarps = 4;
  int numStages = 2;
  /// Lanes per wavefront (64 on CDNA).
  int threadsPerWarp = 64;
  /// "gfx90a" or "gfx942".
  std::string arch = "gfx90a";
};

/// Appends the passes lowering a TTIR module to the LLVM + ROCDL dialects.
void buildTTIRToLLVMAMDGPUPipeline(mlir::OpPassManager &pm,
                                   const AMDGPUPipelineOptions &options);

/// Registers the pipeline as `kiln-ttir-to-llvm-amdgpu`.
void registerAMDGPUPipeline();

} // namespace kiln::pipelines

#endif // KILN_PIPELINES_AMDGPU_AMDGPUPIPELINE_H
