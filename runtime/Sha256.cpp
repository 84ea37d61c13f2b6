// Sha256.cpp: SHA-256 through OpenSSL libcrypto's SHA256_Init / _Update /
// _Final, not EVP: an EVP digest's first use in a process initializes
// libcrypto (its configuration file included) and builds its table of
// every algorithm name, ~1 ms of CPU on the way to a kernel's first launch.
// The same reasoning and fallback as cache/Sha256.cpp.
#define OPENSSL_SUPPRESS_DEPRECATED
#include "runtime/Sha256.h"

#include <openssl/opensslconf.h>
#if defined(OPENSSL_NO_DEPRECATED_3_0)
#define KILN_SHA256_EVP 1
#include <openssl/evp.h>
#else
#include <openssl/sha.h>
#endif

namespace kiln::runtime {

Expected<std::string> sha256Hex(const void* data, size_t size) {
  unsigned char digest[32];
#if defined(KILN_SHA256_EVP)
  unsigned int length = 0;
  if (EVP_Digest(data, size, digest, &length, EVP_sha256(), nullptr) != 1 || length != 32)
    return Status(StatusCode::kInternal, "EVP_Digest(SHA-256) failed");
#else
  SHA256_CTX context;
  if (SHA256_Init(&context) != 1 || SHA256_Update(&context, data, size) != 1 ||
      SHA256_Final(digest, &context) != 1)
    return Status(StatusCode::kInternal, "SHA256_Init/Update/Final failed");
#endif
  static const char hex[] = "0123456789abcdef";
  std::string out(64, '0');
  for (unsigned i = 0; i < 32; ++i) {
    out[2 * i] = hex[digest[i] >> 4];
    out[2 * i + 1] = hex[digest[i] & 15];
  }
  return out;
}

} // namespace kiln::runtime
