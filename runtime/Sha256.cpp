// Sha256.cpp: SHA-256 through OpenSSL's EVP digest API.
#include "runtime/Sha256.h"

#include <openssl/evp.h>

namespace kiln::runtime {

Expected<std::string> sha256Hex(const void* data, size_t size) {
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int length = 0;
  if (EVP_Digest(data, size, digest, &length, EVP_sha256(), nullptr) != 1 || length != 32)
    return Status(StatusCode::kInternal, "EVP_Digest(SHA-256) failed");
  static const char hex[] = "0123456789abcdef";
  std::string out(64, '0');
  for (unsigned i = 0; i < 32; ++i) {
    out[2 * i] = hex[digest[i] >> 4];
    out[2 * i + 1] = hex[digest[i] & 15];
  }
  return out;
}

} // namespace kiln::runtime
