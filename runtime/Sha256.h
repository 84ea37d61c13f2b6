// Sha256.h: SHA-256 of a byte buffer (OpenSSL libcrypto; Sha256.cpp says
// which of its interfaces and why), used to verify a kernel binary against
// metadata.json before it is loaded.
#ifndef KILN_RUNTIME_SHA256_H
#define KILN_RUNTIME_SHA256_H

#include <cstddef>
#include <string>

#include "runtime/Status.h"

namespace kiln::runtime {

/// SHA-256 of `size` bytes at `data` as 64 lower-case hex digits; a
/// kInternal error should libcrypto report a failure.
Expected<std::string> sha256Hex(const void* data, size_t size);

} // namespace kiln::runtime

#endif // KILN_RUNTIME_SHA256_H
