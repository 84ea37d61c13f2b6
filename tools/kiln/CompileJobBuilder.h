//===- CompileJobBuilder.h - the compile job of `kiln compile` --*- C++ -*-===//
//
// The compiler-side pieces of a kiln::cache::CompileJob, which only code that
// sees MLIR can compute: the canonical printed module (no locations: kiln
// emits no line info yet), the pipeline fingerprint (the PassManager's
// fully expanded textual pipeline plus plugin identities; no plugins are
// loaded by `kiln compile` today) and the toolchain identity (LLVM version,
// ptxas version text, libdevice SHA-256; the last two memoized under the
// cache root, cache/ToolMemo.h). Configuration is read here, once; no pass
// reads the environment.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_TOOLS_KILN_COMPILEJOBBUILDER_H
#define KILN_TOOLS_KILN_COMPILEJOBBUILDER_H

#include "cache/CompileJob.h"
#include "tools/kiln/KernelInfo.h"

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace mlir {
class ModuleOp;
class OpPassManager;
} // namespace mlir

namespace kiln::tool {

/// The module printed in MLIR's custom form without locations (attribute
/// dictionaries print sorted and SSA names are renumbered, so attribute
/// order, value names and `loc(...)` of the input do not change it).
std::string canonicalModuleText(mlir::ModuleOp module);

/// The job's source.content_hash: SHA-256 of canonicalModuleText(`module`)
/// plus the kernel's argument names. Locations are not printed, but TTIR
/// argument names come from their NameLocs and land in metadata.json's
/// signature, so they are part of the source identity.
std::string sourceContentHash(mlir::ModuleOp module,
                              const std::vector<KernelArg> &signature);

/// `pm.printAsTextualPipeline()`: every pass with every option.
std::string printedPipeline(const mlir::OpPassManager &pm);

/// The root whose `tools/` folder memoizes toolchain facts: the compile
/// cache's root for `cacheDir` (kiln::cache::resolveCacheRoot, created if
/// missing), used with and without --no-cache (the memo holds no compile
/// output); "" (no memo) when it cannot be resolved or created.
std::string toolMemoRoot(const std::string &cacheDir);

/// kiln::cache::memoizedFileFact for a computation reporting llvm::Errors:
/// fact `kind` of the file at `path`, from `<memoRoot>/tools/` while the
/// file's stamp is unchanged, else compute()'s. `memoRoot` "": no memo.
llvm::Expected<std::string>
memoizedFileFact(const std::string &memoRoot, const std::string &kind,
                 const std::string &path,
                 llvm::function_ref<llvm::Expected<std::string>()> compute);

/// SHA-256 (hex) of the file's bytes, through libcrypto (LLVM's portable
/// SHA256 took ~1.4 ms for libdevice's 470 KB).
llvm::Expected<std::string> fileSha256(const std::string &path);

/// kiln's version plus the executable's GNU build ID ("0.1.0+build.<hex>";
/// "0.1.0+sha256.<hex>", the executable file's SHA-256, for a build linked
/// without one), LLVM_VERSION_STRING followed by each shared libLLVM /
/// libMLIR the process runs with and its build ID ("22.1.8
/// libLLVM.so.22.1+build.<hex> libMLIR.so.22.1+build.<hex>"; nothing after
/// the version for the portable build, which has them inside),
/// `ptxas --version` of `ptxasPath` and
/// the SHA-256 of the libdevice findLibdevice(`libdevicePath`) picks (empty
/// if none is found: a compile that needs it then fails anyway); the last
/// two memoized under `memoRoot` (toolMemoRoot(); "" computes them every
/// time). Errors: ptxas cannot be run, or libdevice cannot be read. With
/// `nvptx` false (AMDGPU) only kiln's and LLVM's versions are filled in;
/// the caller adds the linker's.
llvm::Expected<kiln::cache::JobToolchain>
toolchainIdentity(const std::string &ptxasPath,
                  const std::string &libdevicePath, bool nvptx = true,
                  const std::string &memoRoot = "");

} // namespace kiln::tool

#endif // KILN_TOOLS_KILN_COMPILEJOBBUILDER_H
