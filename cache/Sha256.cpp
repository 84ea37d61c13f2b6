// Sha256.cpp: SHA-256 through OpenSSL libcrypto's SHA256_Init / _Update /
// _Final.
//
// Not the EVP interface: in OpenSSL 3 an EVP digest is fetched from a
// provider, and the first fetch in a process builds libcrypto's table of
// every algorithm name (legacy ciphers and digests included). That was
// ~3.5M x86 instructions (callgrind, build machine), about a tenth of
// kiln's own work in a softmax_kernel compile, and its heap pages are
// fresh page faults in every `kiln compile`. SHA256_Init and friends run
// the same implementation with no fetch and no initialization. They are
// deprecated since OpenSSL 3.0 (the declarations stay; Debian 12's libcrypto
// has them); where the headers leave the 3.0-deprecated interfaces out
// (OPENSSL_NO_DEPRECATED_3_0, e.g. compiled with -DOPENSSL_NO_DEPRECATED),
// the same digests come from EVP.
#define OPENSSL_SUPPRESS_DEPRECATED
#include "cache/Sha256.h"

#include <openssl/opensslconf.h>
#if defined(OPENSSL_NO_DEPRECATED_3_0)
#define KILN_SHA256_EVP 1
#include <openssl/evp.h>
#else
#include <openssl/sha.h>
#endif

namespace kiln::cache {

std::string sha256Hex(std::string_view data) {
  unsigned char digest[32];
#if defined(KILN_SHA256_EVP)
  unsigned int length = 0;
  if (EVP_Digest(data.data(), data.size(), digest, &length, EVP_sha256(), nullptr) != 1 ||
      length != 32)
    return {};
#else
  SHA256_CTX context;
  if (SHA256_Init(&context) != 1 || SHA256_Update(&context, data.data(), data.size()) != 1 ||
      SHA256_Final(digest, &context) != 1)
    return {};
#endif
  static const char hex[] = "0123456789abcdef";
  std::string out(64, '0');
  for (unsigned i = 0; i < 32; ++i) {
    out[2 * i] = hex[digest[i] >> 4];
    out[2 * i + 1] = hex[digest[i] & 15];
  }
  return out;
}

bool isSha256Hex(std::string_view s) {
  if (s.size() != 64)
    return false;
  for (char c : s)
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f')))
      return false;
  return true;
}

} // namespace kiln::cache
