// Sha256.cpp: SHA-256 through OpenSSL's EVP digest API.
#include "cache/Sha256.h"

#include <openssl/crypto.h>
#include <openssl/evp.h>

namespace kiln::cache {
namespace {

/// SHA-256 of the default provider, fetched once. OpenSSL is initialized
/// first without reading openssl.cnf, without its error strings and without
/// an atexit cleanup: a digest needs none of them, and EVP_Digest's implicit
/// initialization (all three) plus a fetch per call cost ~1 ms of CPU in
/// every `kiln compile`. If the process initialized OpenSSL already, that
/// initialization stands.
const EVP_MD* sha256Md() {
  static const EVP_MD* md = [] {
    OPENSSL_init_crypto(OPENSSL_INIT_NO_LOAD_CONFIG | OPENSSL_INIT_NO_LOAD_CRYPTO_STRINGS |
                            OPENSSL_INIT_NO_ATEXIT,
                        nullptr);
    const EVP_MD* fetched = EVP_MD_fetch(nullptr, "SHA2-256", nullptr);
    return fetched ? fetched : EVP_sha256();
  }();
  return md;
}

}  // namespace

void prepareSha256() { (void)sha256Md(); }

std::string sha256Hex(std::string_view data) {
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int length = 0;
  if (EVP_Digest(data.data(), data.size(), digest, &length, sha256Md(), nullptr) != 1 ||
      length != 32)
    return {};
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
