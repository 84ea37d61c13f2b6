//===- kiln-opt.cpp - mlir-opt with kiln's dialects and passes ------------===//
//
// The driver compiler engineers use to run kiln passes on .ttir/.mlir files:
// kiln's dialects and passes, the upstream dialects TTIR and our pipelines
// use, and out-of-tree plugins through --load-pass-plugin /
// --load-dialect-plugin (handled by MlirOptMain).
//
//===----------------------------------------------------------------------===//

#include "dialects/kgpu/IR/KGPUDialect.h"
#include "dialects/tt/IR/TTOps.h"
#include "pipelines/amdgpu/AMDGPUPipeline.h"
#include "pipelines/nvptx/NVPTXPipeline.h"
#include "tools/common/StackLimit.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/LLVMIR/ROCDLDialect.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "mlir/Transforms/Passes.h"

#include <cstring>
#include <vector>

int main(int argc, char **argv) {
  kiln::tool::raiseStackLimit(); // deeply nested IR: see StackLimit.h
  // Print SSA names from NameLoc locations by default, as Triton does, so
  // kiln-opt's output of Triton TTIR reads like Triton's own. An explicit
  // --mlir-use-nameloc-as-prefix[=false] on the command line wins.
  std::vector<char *> args(argv, argv + argc);
  bool explicitNameLoc = false;
  for (int i = 1; i < argc; ++i)
    if (std::strstr(argv[i], "mlir-use-nameloc-as-prefix"))
      explicitNameLoc = true;
  static char nameLocFlag[] = "--mlir-use-nameloc-as-prefix";
  if (!explicitNameLoc)
    args.insert(args.begin() + 1, nameLocFlag);
  argc = static_cast<int>(args.size());
  argv = args.data();

  mlir::DialectRegistry registry;
  kiln::tt::registerTTIRDialects(registry);
  registry.insert<mlir::func::FuncDialect, mlir::gpu::GPUDialect,
                  mlir::NVVM::NVVMDialect, mlir::ROCDL::ROCDLDialect,
                  mlir::vector::VectorDialect, kiln::kgpu::KGPUDialect>();
  // kiln's passes and the named NVPTX pipeline (kiln-ttir-to-llvm-nvptx).
  kiln::pipelines::registerNVPTXPipeline();
  kiln::pipelines::registerAMDGPUPipeline();
  // Generic transforms: canonicalize, cse, inline, symbol-dce, sccp, ...
  mlir::registerTransformsPasses();
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "kiln optimizer driver\n", registry));
}
