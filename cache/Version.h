// Version.h: kiln's version string, recorded in compile jobs (toolchain
// identity) and in every cache entry's manifest. Bump it with any change to
// what the compiler emits for the same input.
#ifndef KILN_CACHE_VERSION_H
#define KILN_CACHE_VERSION_H

namespace kiln {

/// kiln's version ("<major>.<minor>.<patch>").
inline constexpr const char* kKilnVersion = "0.1.0";

} // namespace kiln

#endif // KILN_CACHE_VERSION_H
