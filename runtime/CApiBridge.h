// CApiBridge.h: C++-side access to the C API's handles, for embedders and
// tests that build a Runtime themselves (e.g. on a fake driver table).
#ifndef KILN_RUNTIME_CAPIBRIDGE_H
#define KILN_RUNTIME_CAPIBRIDGE_H

#include <memory>

#include "runtime/Runtime.h"
#include "runtime/kiln_runtime.h"

namespace kiln::runtime {

/// A new C handle holding a reference to `runtime`; release it with
/// kiln_runtime_release().
kiln_runtime* wrapRuntime(std::shared_ptr<Runtime> runtime);

/// The Runtime behind a C handle (null for null).
std::shared_ptr<Runtime> unwrapRuntime(kiln_runtime* runtime);

} // namespace kiln::runtime

#endif // KILN_RUNTIME_CAPIBRIDGE_H
