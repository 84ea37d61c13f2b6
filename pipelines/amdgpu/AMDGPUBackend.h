//===- AMDGPUBackend.h - LLVM + ROCDL dialects to a code object -*- C++ -*-===//
//
// The back half of kiln's AMDGPU path: a module in the LLVM + ROCDL dialects
// (kernels marked rocdl.kernel) becomes LLVM IR, is optimized at O3 for the
// AMDGPU target, compiled by LLVM's AMDGPU backend into a relocatable object
// and linked by ld.lld into a HIP code object (hsaco: an ELF shared object
// with amdhsa kernel descriptors and metadata notes).
//
//===----------------------------------------------------------------------===//

#ifndef KILN_PIPELINES_AMDGPU_AMDGPUBACKEND_H
#define KILN_PIPELINES_AMDGPU_AMDGPUBACKEND_H

#include "llvm/Support/Error.h"

#include <cstdint>
#include <string>
#include <vector>

namespace mlir {
class DialectRegistry;
class ModuleOp;
} // namespace mlir

namespace kiln::amdgpu {

struct AMDGPUBackendOptions {
  /// "gfx90a" (MI200) or "gfx942" (MI300).
  std::string arch = "gfx90a";
  /// AMDHSA code-object version, set explicitly as the module flag
  /// amdhsa_code_object_version (x100: 5 -> 500).
  int codeObjectVersion = 5;
  /// LLVM optimization level (0-3).
  int optLevel = 3;
  /// ld.lld; empty: KILN_LLD, then ld.lld-22 on PATH, then
  /// $KILN_LLVM_PREFIX/bin/ld.lld, then ld.lld on PATH.
  std::string lldPath;
  /// ROCm device-library directory holding ocml.bc; empty: see
  /// findRocmDeviceLibs(). Only read when the kernel calls __ocml_*.
  std::string deviceLibDir;
};

/// Microseconds per stage.
struct AMDGPUStageTimings {
  int64_t translateUs = 0;
  int64_t optimizeUs = 0;
  int64_t codegenUs = 0;
  int64_t linkUs = 0;
};

/// What the code object's AMDGPU metadata note (NT_AMDGPU_METADATA,
/// msgpack "amdhsa.kernels") says about one kernel; -1 where absent.
struct CodeObjectKernelInfo {
  std::string name;
  int64_t wavefrontSize = -1;
  int64_t vgprCount = -1;
  int64_t sgprCount = -1;
  int64_t kernargSegmentSize = -1;   ///< bytes
  int64_t groupSegmentFixedSize = -1; ///< static LDS bytes
  /// Scratch bytes per lane: spill slots and stack objects (e.g. arrays
  /// indexed dynamically), so not a spill measure by itself.
  int64_t privateSegmentFixedSize = -1;
  int64_t vgprSpillCount = -1; ///< VGPRs spilled to scratch
  int64_t sgprSpillCount = -1; ///< SGPRs spilled (to VGPR lanes or scratch)
};

struct AMDGPUCompileResult {
  std::string llvmIR;   ///< after optimization
  std::string hsaco;    ///< the linked code object
  /// Read back from the code object's metadata note.
  std::vector<CodeObjectKernelInfo> kernels;
  AMDGPUStageTimings timings;
};

/// Reads the kernels' descriptors from a code object's NT_AMDGPU_METADATA
/// note (code-object v4/v5 msgpack). Errors name what is missing.
llvm::Expected<std::vector<CodeObjectKernelInfo>>
readCodeObjectKernels(llvm::StringRef hsaco);

/// Registers the LLVM IR translations the backend needs (builtin, LLVM,
/// ROCDL) into `registry`.
void registerAMDGPUTranslations(mlir::DialectRegistry &registry);

/// Checks `arch` is a target kiln builds for (gfx90a, gfx942).
llvm::Error validateTarget(const std::string &arch);

/// Finds ld.lld (see AMDGPUBackendOptions::lldPath).
llvm::Expected<std::string> findLld(const std::string &explicitPath);

/// ocml.bc of the ROCm device libraries: `explicitDir`/ocml.bc if
/// non-empty, else $KILN_ROCM_DEVICE_LIBS/ocml.bc, else Debian's
/// rocm-device-libs (/usr/lib/x86_64-linux-gnu/amdgcn/bitcode), else
/// /opt/rocm/amdgcn/bitcode. kiln defines the __oclc_* control constants
/// itself (no oclc_*.bc is linked): IEEE denormals, no unsafe or
/// finite-only math, correctly rounded sqrt, wave64, the target's ISA
/// version (9.0.10 for gfx90a, 9.4.2 for gfx942).
llvm::Expected<std::string> findRocmDeviceLibs(const std::string &explicitDir);

/// `ld.lld --version` output, trimmed ("Debian LLD 22.1.8 (compatible with
/// GNU linkers)"): the linker's identity in a compile job.
llvm::Expected<std::string> getLldVersion(const std::string &lldPath);

/// Compiles `module` to a code object. Errors name the stage (translate,
/// optimize, codegen, link) and what failed; nothing aborts.
llvm::Expected<AMDGPUCompileResult>
compileToHsaco(mlir::ModuleOp module, const AMDGPUBackendOptions &options);

} // namespace kiln::amdgpu

#endif // KILN_PIPELINES_AMDGPU_AMDGPUBACKEND_H
