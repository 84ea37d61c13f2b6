// Sha256.h: SHA-256 for cache keys and artifact checksums (OpenSSL
// libcrypto; Sha256.cpp says which of its interfaces and why). cache/
// keeps its own copy of this short helper instead of depending on
// //runtime:sha256: the dependency arrow is cache <- runtime
// (docs/ARCHITECTURE.md), never the other way.
#ifndef KILN_CACHE_SHA256_H
#define KILN_CACHE_SHA256_H

#include <string>
#include <string_view>

namespace kiln::cache {

/// SHA-256 (FIPS 180-4) of `data` as 64 lower-case hex digits. Thread-safe
/// and needs no set-up. Should libcrypto fail, the result is empty (which
/// no valid checksum or key equals, so a caller comparing hashes fails
/// safe).
std::string sha256Hex(std::string_view data);

/// Whether `s` is exactly 64 lower-case hex digits (a key or a checksum).
bool isSha256Hex(std::string_view s);

} // namespace kiln::cache

#endif // KILN_CACHE_SHA256_H
