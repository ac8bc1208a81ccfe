#include "api/transfer/md5.h"

#include <openssl/evp.h>

#include <fstream>
#include <new>
#include <vector>

#include "api/base64.h"

namespace ddb::api {

// MD5 is always in OpenSSL's default provider; these calls fail only when
// memory runs out, and then say so as any allocation does.
Md5::Md5() : context_(EVP_MD_CTX_new()) {
  if (!context_ || EVP_DigestInit_ex(context_, EVP_md5(), nullptr) != 1) {
    EVP_MD_CTX_free(context_);
    throw std::bad_alloc();
  }
}

Md5::~Md5() { EVP_MD_CTX_free(context_); }

void Md5::Update(std::string_view bytes) {
  if (EVP_DigestUpdate(context_, bytes.data(), bytes.size()) != 1) throw std::bad_alloc();
}

Md5Digest Md5::Finish() {
  Md5Digest digest{};
  unsigned int size = 0;
  if (EVP_DigestFinal_ex(context_, digest.data(), &size) != 1 || size != digest.size()) {
    throw std::bad_alloc();
  }
  return digest;
}

Md5Digest Md5Of(std::string_view bytes) {
  Md5 md5;
  md5.Update(bytes);
  return md5.Finish();
}

std::optional<Md5Digest> Md5OfFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  Md5 md5;
  std::vector<char> chunk(1 << 20);
  while (in) {
    in.read(chunk.data(), static_cast<std::streamsize>(chunk.size()));
    md5.Update(std::string_view(chunk.data(), static_cast<size_t>(in.gcount())));
  }
  if (in.bad()) return std::nullopt;
  return md5.Finish();
}

std::string Md5Hex(const Md5Digest& digest) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string hex;
  for (uint8_t byte : digest) {
    hex += kHex[byte >> 4];
    hex += kHex[byte & 15];
  }
  return hex;
}

std::string Md5Base64(const Md5Digest& digest) {
  return Base64Encode(
      std::string_view(reinterpret_cast<const char*>(digest.data()), digest.size()));
}

}  // namespace ddb::api
