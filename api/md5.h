// MD5 (RFC 1321): the checksums DynamoDB's export manifests carry
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

namespace ddb::api {

using Md5Digest = std::array<uint8_t, 16>;

class Md5 {
 public:
  Md5();
  void Update(std::string_view bytes);
  Md5Digest Finish();

 private:
  void Block(const uint8_t* block);
  std::array<uint32_t, 4> state_;
  uint64_t length_ = 0;  // bytes so far
  std::array<uint8_t, 64> pending_{};
  size_t pending_size_ = 0;
};

Md5Digest Md5Of(std::string_view bytes);
// nullopt if the file cannot be read.
std::optional<Md5Digest> Md5OfFile(const std::string& path);
std::string Md5Hex(const Md5Digest& digest);
std::string Md5Base64(const Md5Digest& digest);

}  // namespace ddb::api
