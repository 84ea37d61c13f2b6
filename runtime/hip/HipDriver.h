// HipDriver.h: HIP behind runtime::Driver. Compiled and tested against a
// fake table in CI; no AMD GPU has run it yet.
#ifndef KILN_RUNTIME_HIP_HIPDRIVER_H
#define KILN_RUNTIME_HIP_HIPDRIVER_H

#include <memory>

#include "runtime/Driver.h"
#include "runtime/hip/HipApi.h"

namespace kiln::runtime::hip {

/// dlopen(`library`) and dlsym of every HipDriverTable entry. The library is
/// never dlclosed. Errors: kDriverUnavailable naming the library and
/// dlerror(), or the missing symbol.
Expected<HipDriverTable> loadHipDriverTable(const char* library = "libamdhip64.so");

/// A Driver calling the entry points in `table` (checked non-null). HIP has
/// no primary-context objects: a context is the device ordinal + 1 and
/// making it current is hipSetDevice. AMD GPUs need no opt-in for dynamic
/// LDS, so setMaxDynamicSharedBytes() does nothing.
Expected<std::unique_ptr<Driver>> makeHipDriver(const HipDriverTable& table);

/// loadHipDriverTable() then makeHipDriver().
Expected<std::unique_ptr<Driver>> openHipDriver(const char* library = "libamdhip64.so");

} // namespace kiln::runtime::hip

#endif // KILN_RUNTIME_HIP_HIPDRIVER_H
