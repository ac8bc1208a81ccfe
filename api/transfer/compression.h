// The compressions of DynamoDB's S3 data files: an export writes gzip; an
// import reads NONE, GZIP or ZSTD (ImportTable's InputCompressionType).
//
// Thread safety: one GzipCompressor per thread; the functions are pure.
#pragma once

#include <zlib.h>

#include <memory>
#include <string>
#include <string_view>

#include "api/errors.h"

namespace ddb::api {

enum class Compression { kNone, kGzip, kZstd };

// A gzip member built piece by piece, so an export holds a data file only
// compressed.
class GzipCompressor {
 public:
  GzipCompressor();
  ~GzipCompressor();
  GzipCompressor(const GzipCompressor&) = delete;
  GzipCompressor& operator=(const GzipCompressor&) = delete;

  void Add(std::string_view bytes);
  // The whole file; the compressor is then spent.
  std::string Finish();
  size_t compressed_size() const { return out_.size(); }

 private:
  void Deflate(std::string_view bytes, int flush);
  z_stream stream_{};
  std::string out_;
};

// The bytes of an object compressed as `compression` said (gzip of several
// members included). The error's message says what is wrong ("not gzip
// data", "ZSTD: ..."); more than `max_bytes` out is an error too, so a small
// object cannot expand without bound.
ApiResult<std::string> Decompress(std::string_view bytes, Compression compression,
                                  size_t max_bytes);

}  // namespace ddb::api
