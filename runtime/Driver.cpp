// Driver.cpp: helpers shared by driver implementations.
#include "runtime/Driver.h"

#include <dlfcn.h>

namespace kiln::runtime {

std::string DeviceInfo::archName() const {
  if (backend == Backend::kCuda)
    return "sm_" + std::to_string(ccMajor) + std::to_string(ccMinor);
  return "gfx" + std::to_string(ccMajor) + "." + std::to_string(ccMinor);
}

Expected<void*> openDriverLibrary(const char* library, const char* what) {
  void* handle = dlopen(library, RTLD_NOW | RTLD_LOCAL);
  if (!handle) {
    const char* err = dlerror();
    return Status(StatusCode::kDriverUnavailable,
                  std::string("cannot load ") + what + ": dlopen(" + library +
                      ") failed: " + (err ? err : "unknown error"));
  }
  return handle;
}

} // namespace kiln::runtime
