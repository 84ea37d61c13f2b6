//===- SamplePlugin.cpp - a sample out-of-tree kiln plugin ----------------===//
//
// One shared library exporting both MLIR plugin entry points, as the MLIR
// standalone template does:
//   kiln-opt --load-dialect-plugin=libKilnSamplePlugin.so  (the sample dialect)
//   kiln-opt --load-pass-plugin=libKilnSamplePlugin.so     (sample-tag-kernels)
// The plugin links the shared libMLIR the host tool uses; it depends on no
// kiln library, so it builds the way a user's own plugin would.
//
//===----------------------------------------------------------------------===//

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Tools/Plugins/DialectPlugin.h"
#include "mlir/Tools/Plugins/PassPlugin.h"
#include "llvm/Config/llvm-config.h"

#include "plugins/sample/SampleDialect.h.inc"

#define GET_OP_CLASSES
#include "plugins/sample/SampleOps.h.inc"

#include "plugins/sample/SampleDialect.cpp.inc"

#define GET_OP_CLASSES
#include "plugins/sample/SampleOps.cpp.inc"

namespace kiln::sample {

void SampleDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "plugins/sample/SampleOps.cpp.inc"
      >();
}

#define GEN_PASS_DECL_SAMPLETAGKERNELS
#define GEN_PASS_DEF_SAMPLETAGKERNELS
#include "plugins/sample/SamplePasses.h.inc"

namespace {

struct SampleTagKernels : impl::SampleTagKernelsBase<SampleTagKernels> {
  using SampleTagKernelsBase::SampleTagKernelsBase;

  void runOnOperation() override {
    mlir::Builder b(&getContext());
    getOperation().walk([&](mlir::FunctionOpInterface fn) {
      int64_t count = 0;
      fn->walk([&](mlir::Operation *op) {
        if (op != fn.getOperation())
          ++count;
      });
      fn->setAttr("sample.num_ops", b.getI64IntegerAttr(count));
      if (!tag.empty())
        fn->setAttr("sample.tag", b.getStringAttr(tag));
    });
  }
};

} // namespace
} // namespace kiln::sample

/// Entry point of --load-pass-plugin.
extern "C" LLVM_ATTRIBUTE_WEAK ::mlir::PassPluginLibraryInfo
mlirGetPassPluginInfo() {
  return {MLIR_PLUGIN_API_VERSION, "KilnSamplePlugin", "0.1.0", []() {
            ::mlir::PassRegistration<kiln::sample::SampleTagKernels>();
          }};
}

/// Entry point of --load-dialect-plugin.
extern "C" LLVM_ATTRIBUTE_WEAK ::mlir::DialectPluginLibraryInfo
mlirGetDialectPluginInfo() {
  return {MLIR_PLUGIN_API_VERSION, "KilnSamplePlugin", "0.1.0",
          [](::mlir::DialectRegistry *registry) {
            registry->insert<kiln::sample::SampleDialect>();
          }};
}
