// A pass plugin whose registration callback dereferences null: kiln-opt
// must end with a stack dump and a message, not silently (helper-78 saw
// exit status 139 with nothing on stderr). Built by test/plugin/BUILD.bazel
// for crashing-plugin.mlir only.
#include "mlir/Tools/Plugins/PassPlugin.h"

extern "C" LLVM_ATTRIBUTE_WEAK ::mlir::PassPluginLibraryInfo
mlirGetPassPluginInfo() {
  return {MLIR_PLUGIN_API_VERSION, "KilnCrashingPlugin", "0.1", []() {
            volatile int *nowhere = nullptr;
            *nowhere = 1;
          }};
}
