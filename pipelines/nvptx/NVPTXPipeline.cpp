//===- NVPTXPipeline.cpp - TTIR to LLVM + NVVM dialects -------------------===//

#include "pipelines/nvptx/NVPTXPipeline.h"

#include "pipelines/common/Stages.h"

#include "passes/Passes.h"

#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassOptions.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;

namespace kiln::pipelines {

namespace {

struct PipelineOptions : PassPipelineOptions<PipelineOptions> {
  Option<int> numWarps{*this, "num-warps", llvm::cl::desc("warps per CTA"),
                       llvm::cl::init(4)};
  Option<int> numStages{*this, "num-stages",
                        llvm::cl::desc("software pipelining depth"),
                        llvm::cl::init(3)};
  Option<int> threadsPerWarp{*this, "threads-per-warp",
                             llvm::cl::desc("lanes per warp"),
                             llvm::cl::init(32)};
  Option<std::string> arch{*this, "arch", llvm::cl::desc("SM architecture"),
                           llvm::cl::init("sm_90")};
  Option<int> ptxVersion{*this, "ptx-version",
                         llvm::cl::desc("PTX ISA version x 10"),
                         llvm::cl::init(80)};
  Option<bool> ftz{*this, "ftz",
                   llvm::cl::desc("flush f32 denormals as libdevice under "
                                  "nvvm-reflect-ftz (f32 exp2)"),
                   llvm::cl::init(false)};
};

} // namespace

/// The compute capability in "sm_90" / "sm_90a" (90), or 0 if unparsable.
static int smVersion(llvm::StringRef arch) {
  int sm = 0;
  if (!arch.consume_front("sm_"))
    return 0;
  arch = arch.take_while([](char c) { return c >= '0' && c <= '9'; });
  if (arch.getAsInteger(10, sm))
    return 0;
  return sm;
}

void buildTTIRToLLVMNVPTXPipeline(OpPassManager &pm,
                                  const NVPTXPipelineOptions &options) {
  addTTRewrites(pm);
  addTTCleanup(pm);
  // mma.sync m16n8k16 with f16/bf16 operands needs sm_80 (PTX ISA
  // 9.7.14.5.14, target requirements).
  int mmaVersion = smVersion(options.arch) >= 80 ? 2 : 0;
  // wgmma.mma_async (PTX ISA 9.7.15) exists only on sm_90a.
  bool wgmma = llvm::StringRef(options.arch) == "sm_90a";
  if (wgmma)
    mmaVersion = 3;
  addLayoutAssignment(pm, options.numWarps, options.threadsPerWarp,
                      mmaVersion, options.numStages);
  // Stage 2b: multi-buffered K loops for tensor-core dots (cp.async needs
  // sm_80 too).
  if (mmaVersion >= 2) {
    KGPUPipelineDotLoopsOptions pipelineOptions;
    pipelineOptions.numStages = options.numStages;
    pipelineOptions.wgmma = wgmma;
    pm.addPass(createKGPUPipelineDotLoops(pipelineOptions));
    // The prologue repeats the loads' address computations once per
    // stage, loop-invariant parts included: merged here, while they are
    // whole tensors, instead of after kgpu-convert-to-llvm has expanded
    // every copy into per-element LLVM ops.
    pm.addPass(createCSEPass());
  }
  addLLVMLowering(pm, "nvptx", options.arch, options.ptxVersion, options.ftz);
}

void registerNVPTXPipeline() {
  registerKilnPasses();
  PassPipelineRegistration<PipelineOptions>(
      "kiln-ttir-to-llvm-nvptx",
      "lower TTIR (tt dialect) to the LLVM + NVVM dialects for NVPTX",
      [](OpPassManager &pm, const PipelineOptions &o) {
        NVPTXPipelineOptions options;
        options.numWarps = o.numWarps;
        options.numStages = o.numStages;
        options.threadsPerWarp = o.threadsPerWarp;
        options.arch = o.arch;
        options.ptxVersion = o.ptxVersion;
        options.ftz = o.ftz;
        buildTTIRToLLVMNVPTXPipeline(pm, options);
      });
}

} // namespace kiln::pipelines
