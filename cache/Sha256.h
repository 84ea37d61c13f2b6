// Sha256.h: SHA-256 for cache keys and artifact checksums (OpenSSL
// libcrypto's EVP interface). cache/ keeps its own copy of this ten-line
// helper instead of depending on //runtime:sha256: the dependency arrow is
// cache <- runtime (docs/ARCHITECTURE.md), never the other way.
#ifndef KILN_CACHE_SHA256_H
#define KILN_CACHE_SHA256_H

#include <string>
#include <string_view>

namespace kiln::cache {

/// SHA-256 of `data` as 64 lower-case hex digits. libcrypto's EVP_Digest
/// fails only on allocation failure; then the result is empty (which no
/// valid checksum or key equals, so a caller comparing hashes fails safe).
std::string sha256Hex(std::string_view data);

/// Fetches the digest (OpenSSL's one-time initialization and provider
/// lookup, ~0.5-1 ms of CPU) without hashing anything. sha256Hex does the
/// same on its first call; a caller whose first hash is on a latency-
/// critical thread calls this first on another one. Thread-safe.
void prepareSha256();

/// Whether `s` is exactly 64 lower-case hex digits (a key or a checksum).
bool isSha256Hex(std::string_view s);

} // namespace kiln::cache

#endif // KILN_CACHE_SHA256_H
