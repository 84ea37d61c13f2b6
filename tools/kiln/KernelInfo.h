//===- KernelInfo.h - kernel signature and metadata.json --------*- C++ -*-===//
//
// What `kiln compile` records about a kernel for the runtime: its signature
// (argument names and kiln-kernel/1 types) and the metadata.json of the
// artifact directory (format documented in runtime/README.md).
//
//===----------------------------------------------------------------------===//

#ifndef KILN_TOOLS_KILN_KERNELINFO_H
#define KILN_TOOLS_KILN_KERNELINFO_H

#include "mlir/IR/Location.h"
#include "mlir/Support/LLVM.h"

#include <cstdint>
#include <string>
#include <vector>

namespace llvm {
class SourceMgr;
} // namespace llvm

namespace mlir {
class MLIRContext;
class ModuleOp;
template <typename OpTy> class OwningOpRef;
class FunctionOpInterface;
namespace LLVM {
class LLVMFuncOp;
} // namespace LLVM
} // namespace mlir

namespace kiln::tool {

/// Parses the kernel source in `sourceMgr` (TTIR or LLVM dialect) and
/// verifies it. Before verification, an operation no dialect defines (e.g. a
/// misspelled `"tt.reduc"` in generic form) is an error naming it at its
/// location, and a module with no function at all is an error saying so
/// (the verifier would report a consequence elsewhere, or nothing). Input
/// nested deeper than kMaxNestingDepth (tools/common/NestingDepth.h) is an
/// error at the bracket past the limit, before parsing (printed to stderr
/// as FILE:LINE:COL with an excerpt of its line, not through the context's
/// handler, which would show the whole line). After parsing, an attribute
/// or type (an operation's attributes, result and block argument types,
/// locations) nested more than 2000 levels deep or of more than 2^20 parts
/// written out in full, which aliases build from short text, is an error
/// at that operation. Other errors go
/// to the context's diagnostic handler; returns null after one.
mlir::OwningOpRef<mlir::ModuleOp> parseKernelSource(llvm::SourceMgr &sourceMgr,
                                                    mlir::MLIRContext &context);

/// One kernel parameter: its name and kiln-kernel/1 type ("ptr<f32>", "i32").
struct KernelArg {
  std::string name;
  std::string type;
};

/// The argument's name from its NameLoc (`loc("x_ptr"(#loc))`), else
/// "arg<index>".
std::string argNameFromLoc(mlir::Location loc, unsigned index);

/// The signature of a TTIR `tt.func`: `!tt.ptr<T>` becomes "ptr<T>", scalars
/// keep their spelling (i1 ... i64, f16, bf16, f32, f64). Emits an error at
/// the argument and fails for a type kiln-kernel/1 cannot describe (tensors,
/// block pointers, tensor descriptors).
mlir::FailureOr<std::vector<KernelArg>>
signatureFromTTFunc(mlir::FunctionOpInterface func);

/// The signature of an LLVM-dialect kernel. Types come from its
/// `kiln.arg_types` array of strings when present (which may cover fewer
/// arguments than the function has: the rest are trailing pointers the
/// launcher passes as null); otherwise `!llvm.ptr<N>` becomes "ptr<i8>" (an
/// LLVM pointer has no pointee) and scalars keep their spelling. Emits an
/// error and fails on an argument it cannot describe.
mlir::FailureOr<std::vector<KernelArg>>
signatureFromLLVMFunc(mlir::LLVM::LLVMFuncOp func);

/// Everything metadata.json holds.
struct KernelMetadata {
  std::string kernel;
  /// "cuda" or "hip".
  std::string backend = "cuda";
  std::string arch;
  int warpSize = 32;
  int numWarps = 4;
  int numStages = 3;
  int numCtas = 1;
  int64_t sharedBytes = 0;
  std::vector<KernelArg> signature;
  std::string binaryFile;
  uint64_t binarySize = 0;
  std::string binarySha256;
  std::string jobKey;
  int trailingNullPointers = 0;
  int registers = 0;
  int64_t spillStoreBytes = 0;
  int64_t spillLoadBytes = 0;
  /// HIP code objects: the kernel's entry of the AMDGPU metadata note
  /// (NT_AMDGPU_METADATA, amdhsa.kernels), written as "code_object"; absent
  /// (wavefrontSize < 0) for CUDA.
  struct CodeObject {
    int64_t wavefrontSize = -1;
    int64_t vgprs = -1;
    int64_t sgprs = -1;
    int64_t kernargBytes = -1;
    int64_t ldsBytes = -1;     ///< .group_segment_fixed_size (static LDS)
    int64_t scratchBytes = -1; ///< .private_segment_fixed_size, per lane
  } codeObject;
};

/// metadata.json text (format "kiln-kernel/1"), pretty-printed.
std::string toMetadataJson(const KernelMetadata &metadata);

} // namespace kiln::tool

#endif // KILN_TOOLS_KILN_KERNELINFO_H
