// Driver.cpp: helpers shared by driver implementations.
#include "runtime/Driver.h"

namespace kiln::runtime {

std::string DeviceInfo::archName() const {
  if (backend == Backend::kCuda)
    return "sm_" + std::to_string(ccMajor) + std::to_string(ccMinor);
  return "gfx" + std::to_string(ccMajor) + "." + std::to_string(ccMinor);
}

} // namespace kiln::runtime
