// Version.h: kiln's version string, recorded in compile jobs (toolchain
// identity) and in every cache entry's manifest. The compiler's job adds the
// executable's GNU build ID to it (tools/kiln/CompileJobBuilder.cpp), so a
// rebuilt kiln, whatever it changed in what it emits, never reuses an older
// build's entries; the version itself changes with releases.
#ifndef KILN_CACHE_VERSION_H
#define KILN_CACHE_VERSION_H

namespace kiln {

/// kiln's version ("<major>.<minor>.<patch>").
inline constexpr const char* kKilnVersion = "0.1.0";

} // namespace kiln

#endif // KILN_CACHE_VERSION_H
