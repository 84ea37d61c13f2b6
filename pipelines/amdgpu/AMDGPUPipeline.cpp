//===- AMDGPUPipeline.cpp - TTIR to LLVM + ROCDL dialects -----------------===//

#include "pipelines/amdgpu/AMDGPUPipeline.h"

#include "pipelines/common/Stages.h"

#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassOptions.h"
#include "mlir/Pass/PassRegistry.h"

using namespace mlir;

namespace kiln::pipelines {

namespace {
struct PipelineOptions : PassPipelineOptions<PipelineOptions> {
  Option<int> numWarps{*this, "num-warps",
                       llvm::cl::desc("wavefronts per workgroup"),
                       llvm::cl::init(4)};
  Option<int> numStages{*this, "num-stages",
                        llvm::cl::desc("software pipelining depth"),
                        llvm::cl::init(2)};
  Option<std::string> arch{*this, "arch",
                           llvm::cl::desc("gfx90a or gfx942"),
                           llvm::cl::init("gfx90a")};
};
} // namespace

void buildTTIRToLLVMAMDGPUPipeline(OpPassManager &pm,
                                   const AMDGPUPipelineOptions &options) {
  addTTRewrites(pm);
  addTTCleanup(pm);
  // tt.dot on the matrix cores: MFMA 16x16 accumulator layouts (mma-version
  // 4); gfx90a and gfx942 both have v_mfma_f32_16x16x16f16/_bf16_1k.
  addLayoutAssignment(pm, options.numWarps, options.threadsPerWarp,
                      /*mmaVersion=*/4);
  addLLVMLowering(pm, "amdgpu", options.arch);
}

void registerAMDGPUPipeline() {
  PassPipelineRegistration<PipelineOptions>(
      "kiln-ttir-to-llvm-amdgpu",
      "lower TTIR (tt dialect) to the LLVM + ROCDL dialects for AMDGPU",
      [](OpPassManager &pm, const PipelineOptions &o) {
        AMDGPUPipelineOptions options;
        options.numWarps = o.numWarps;
        options.numStages = o.numStages;
        options.arch = o.arch;
        buildTTIRToLLVMAMDGPUPipeline(pm, options);
      });
}

} // namespace kiln::pipelines
