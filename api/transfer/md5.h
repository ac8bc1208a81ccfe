// MD5 (RFC 1321), by OpenSSL: the checksums DynamoDB's export manifests carry
// for each data file (md5Checksum, base64; etag, hex as S3 gives it for a
// single-part upload). Not for security.
//
// Thread safety: pure functions.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

struct evp_md_ctx_st;  // OpenSSL's EVP_MD_CTX (<openssl/evp.h> stays out of this header)

namespace ddb::api {

using Md5Digest = std::array<uint8_t, 16>;

// Incremental MD5 over OpenSSL's EVP interface (the server links libcrypto
// already; a hand-written copy had nothing to add).
class Md5 {
 public:
  Md5();
  ~Md5();
  Md5(const Md5&) = delete;
  Md5& operator=(const Md5&) = delete;
  void Update(std::string_view bytes);
  Md5Digest Finish();

 private:
  ::evp_md_ctx_st* context_;  // owned
};

Md5Digest Md5Of(std::string_view bytes);
// nullopt if the file cannot be read.
std::optional<Md5Digest> Md5OfFile(const std::string& path);
std::string Md5Hex(const Md5Digest& digest);
std::string Md5Base64(const Md5Digest& digest);

}  // namespace ddb::api
