//===- NVPTXPipeline.cpp - TTIR to LLVM + NVVM dialects -------------------===//

#include "pipelines/nvptx/NVPTXPipeline.h"

#include "passes/Passes.h"

#include "mlir/Conversion/ArithToLLVM/ArithToLLVM.h"
#include "mlir/Conversion/ControlFlowToLLVM/ControlFlowToLLVM.h"
#include "mlir/Conversion/ReconcileUnrealizedCasts/ReconcileUnrealizedCasts.h"
#include "mlir/Conversion/SCFToControlFlow/SCFToControlFlow.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassOptions.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;

namespace kiln::pipelines {

namespace {

/// Stage 1: simplify the TTIR as written (folds constant splats and masks,
/// drops dead code) so later stages see fewer ops.
void addTTCleanup(OpPassManager &pm) {
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
}

/// Stage 2: give every tensor a distributed layout for this CTA shape;
/// coalescing decisions are made here.
void addLayoutAssignment(OpPassManager &pm,
                         const NVPTXPipelineOptions &options) {
  KGPUAssignLayoutsOptions layoutOptions;
  layoutOptions.numWarps = options.numWarps;
  layoutOptions.threadsPerWarp = options.threadsPerWarp;
  pm.addPass(createKGPUAssignLayouts(layoutOptions));
  // Folds conversions of splats/ranges/constants and conversion chains.
  pm.addPass(createCanonicalizerPass());
}

/// Stage 3: SIMT lowering of tensors to per-thread LLVM values, then the
/// structured control flow left in the kernel body.
void addLLVMLowering(OpPassManager &pm) {
  KGPUConvertToLLVMOptions llvmOptions;
  llvmOptions.target = "nvptx";
  pm.addPass(createKGPUConvertToLLVM(llvmOptions));
  pm.addPass(createSCFToControlFlowPass());
  // scf-to-cf creates arith and cf ops for loop headers.
  pm.addPass(createArithToLLVMConversionPass());
  pm.addPass(createConvertControlFlowToLLVMPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
}

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
};

} // namespace

void buildTTIRToLLVMNVPTXPipeline(OpPassManager &pm,
                                  const NVPTXPipelineOptions &options) {
  addTTCleanup(pm);
  addLayoutAssignment(pm, options);
  addLLVMLowering(pm);
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
        buildTTIRToLLVMNVPTXPipeline(pm, options);
      });
}

} // namespace kiln::pipelines
