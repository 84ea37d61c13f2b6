//===- KGPUDialect.td - kiln's GPU-level dialect -----------*- tablegen -*-===//
//
// `kgpu` sits below `tt`: the same tensor programs, but every tensor type
// carries a layout (an encoding on the RankedTensorType) saying which
// thread of which warp of the CTA holds which elements.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_DIALECTS_KGPU_IR_KGPUDIALECT_TD
#define KILN_DIALECTS_KGPU_IR_KGPUDIALECT_TD

include "mlir/IR/OpBase.td"

def KGPU_Dialect : Dialect {
  let name = "kgpu";
  let cppNamespace = "::kiln::kgpu";
  let summary = "GPU-level tensor programs with explicit distributed layouts";
  let description = [{
    Layouts are attributes used as tensor encodings:
    `#kgpu.blocked` (elements per thread, threads per warp, warps per CTA,
    order), `#kgpu.slice` (a parent layout with one dimension removed, the
    result of a reduction) and `#kgpu.shared` (a swizzled shared-memory
    layout). Module attributes `kgpu.num-warps` and
    `kgpu.threads-per-warp` fix the CTA shape (32 lanes on NVIDIA, 64 on
    AMD CDNA wavefronts).
  }];
  let useDefaultAttributePrinterParser = 1;
  let extraClassDeclaration = [{
    void registerAttributes();
    /// Module attribute names fixing the CTA shape.
    static constexpr ::llvm::StringLiteral kNumWarpsAttrName = "kgpu.num-warps";
    static constexpr ::llvm::StringLiteral kThreadsPerWarpAttrName =
        "kgpu.threads-per-warp";
    /// Module attribute: bytes of shared memory the kernel uses.
    static constexpr ::llvm::StringLiteral kSharedAttrName = "kgpu.shared";
  }];
}

#endif // KILN_DIALECTS_KGPU_IR_KGPUDIALECT_TD
