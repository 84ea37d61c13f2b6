//===- Stages.h - pipeline stages shared by the GPU targets -----*- C++ -*-===//
//
// The TTIR -> LLVM pipelines of every target are the same stages with
// target parameters (upstream MLIR's GPU pipelines are built the same way):
// tt rewrites and cleanup, layout assignment for the CTA shape, SIMT
// lowering through the target's TargetInfo.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_PIPELINES_COMMON_STAGES_H
#define KILN_PIPELINES_COMMON_STAGES_H

#include "llvm/ADT/StringRef.h"

namespace mlir {
class OpPassManager;
} // namespace mlir

namespace kiln::pipelines {

/// Stage 0: rewrite tt ops the later stages do not lower into ones they do
/// (tensor descriptors into masked pointer loads and stores:
/// tt-lower-tensor-descriptors). Runs before addTTCleanup, which folds what
/// the rewrites produce.
void addTTRewrites(mlir::OpPassManager &pm);

/// Stage 1: canonicalize + CSE of the TTIR as written.
void addTTCleanup(mlir::OpPassManager &pm);

/// Stage 2: f8E4M3FN / f8E5M2 dot operands upcast to f16 (exact), then
/// distributed layouts for `numWarps` warps of `threadsPerWarp`
/// lanes (coalescing decided here), tensor-core accumulator layouts of
/// `mmaVersion` (0 = none, 2 = mma.sync, 3 = wgmma where it computes the
/// dot, 4 = MFMA) for eligible dots, K loops to be pipelined over
/// `numStages` stages (kgpu-assign-layouts num-stages), then conversion
/// clean-up.
void addLayoutAssignment(mlir::OpPassManager &pm, int numWarps,
                         int threadsPerWarp, int mmaVersion = 0,
                         int numStages = 3);

/// Stage 3: SIMT lowering for `target` ("nvptx", "amdgpu") on chip `arch`
/// ("sm_90a", "gfx942"; empty: any chip of the target) with PTX ISA
/// `ptxVersion` x 10 (NVPTX; 0 unknown), then the structured control flow
/// and clean-up down to the LLVM dialect.
/// `ftz`: f32 exp2 flushes denormals (NVPTX; see kgpu-convert-to-llvm).
void addLLVMLowering(mlir::OpPassManager &pm, llvm::StringRef target,
                     llvm::StringRef arch = "", int ptxVersion = 0,
                     bool ftz = false);

} // namespace kiln::pipelines

#endif // KILN_PIPELINES_COMMON_STAGES_H
