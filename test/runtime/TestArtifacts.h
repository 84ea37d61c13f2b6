// TestArtifacts.h: writing kernel artifact directories for tests.
#ifndef KILN_TEST_RUNTIME_TESTARTIFACTS_H
#define KILN_TEST_RUNTIME_TESTARTIFACTS_H

#include <string>

#include "runtime/Metadata.h"

namespace kiln::testing {

/// A fresh directory under $TEST_TMPDIR (or /tmp).
std::string makeTempDir(const std::string& name);

/// Metadata of the vector-add kernel used throughout the tests:
/// vadd_kernel(x_ptr: ptr<f32>, y_ptr: ptr<f32>, z_ptr: ptr<f32>, n: i32),
/// cuda sm_90, 4 warps, 3 stages, no shared memory, binary vadd_kernel.cubin.
runtime::KernelMetadata vaddMetadata();

/// Writes `binary` and metadata.json into a new directory `name` and returns
/// its path. With `fixBinaryRef`, metadata's binary size and SHA-256 are set
/// from `binary` first.
std::string writeArtifact(const std::string& name, runtime::KernelMetadata metadata,
                          const std::string& binary, bool fixBinaryRef = true);

/// Writes `text` to `path`.
void writeFile(const std::string& path, const std::string& text);

} // namespace kiln::testing

#endif // KILN_TEST_RUNTIME_TESTARTIFACTS_H
