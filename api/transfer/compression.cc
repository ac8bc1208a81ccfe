#include "api/transfer/compression.h"

#include <zstd.h>

namespace ddb::api {
namespace {

constexpr size_t kChunk = 64 * 1024;

ApiResult<std::string> Gunzip(std::string_view bytes, size_t max_bytes) {
  std::string out;
  z_stream stream{};
  // 15 + 32: a window of 32 KB, gzip or zlib header detected.
  if (inflateInit2(&stream, 15 + 32) != Z_OK) return ApiError::Internal("zlib: inflateInit2 failed");
  std::unique_ptr<z_stream, int (*)(z_stream*)> done(&stream, inflateEnd);
  stream.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(bytes.data()));
  stream.avail_in = static_cast<uInt>(bytes.size());
  char chunk[kChunk];
  while (true) {
    stream.next_out = reinterpret_cast<Bytef*>(chunk);
    stream.avail_out = kChunk;
    int rc = inflate(&stream, Z_NO_FLUSH);
    out.append(chunk, kChunk - stream.avail_out);
    if (out.size() > max_bytes) return ApiError::Validation("decompressed object is too large");
    if (rc == Z_STREAM_END) {
      // Another member may follow (files joined with cat are valid gzip).
      if (stream.avail_in == 0) return out;
      if (inflateReset(&stream) != Z_OK) return ApiError::Validation("not gzip data");
      continue;
    }
    if (rc == Z_BUF_ERROR && stream.avail_in == 0) {
      return ApiError::Validation("gzip data ends early");
    }
    if (rc != Z_OK) {
      return ApiError::Validation(std::string("not gzip data") +
                                  (stream.msg ? std::string(": ") + stream.msg : ""));
    }
  }
}

ApiResult<std::string> Unzstd(std::string_view bytes, size_t max_bytes) {
  std::unique_ptr<ZSTD_DCtx, size_t (*)(ZSTD_DCtx*)> context(ZSTD_createDCtx(), ZSTD_freeDCtx);
  if (!context) return ApiError::Internal("ZSTD: cannot create a context");
  std::string out;
  ZSTD_inBuffer in{bytes.data(), bytes.size(), 0};
  char chunk[kChunk];
  size_t last = 0;
  while (in.pos < in.size) {
    ZSTD_outBuffer buffer{chunk, kChunk, 0};
    last = ZSTD_decompressStream(context.get(), &buffer, &in);
    if (ZSTD_isError(last)) return ApiError::Validation(std::string("ZSTD: ") + ZSTD_getErrorName(last));
    out.append(chunk, buffer.pos);
    if (out.size() > max_bytes) return ApiError::Validation("decompressed object is too large");
    if (buffer.pos == 0 && in.pos < in.size && last == 0) break;
  }
  // Output still buffered in the context after the input is consumed.
  while (last != 0) {
    ZSTD_outBuffer buffer{chunk, kChunk, 0};
    last = ZSTD_decompressStream(context.get(), &buffer, &in);
    if (ZSTD_isError(last)) return ApiError::Validation(std::string("ZSTD: ") + ZSTD_getErrorName(last));
    out.append(chunk, buffer.pos);
    if (out.size() > max_bytes) return ApiError::Validation("decompressed object is too large");
    if (buffer.pos == 0) return ApiError::Validation("ZSTD data ends early");
  }
  return out;
}

}  // namespace

GzipCompressor::GzipCompressor() {
  // 15 + 16: a window of 32 KB with a gzip header, as `gzip` writes.
  deflateInit2(&stream_, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY);
}

GzipCompressor::~GzipCompressor() { deflateEnd(&stream_); }

void GzipCompressor::Deflate(std::string_view bytes, int flush) {
  stream_.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(bytes.data()));
  stream_.avail_in = static_cast<uInt>(bytes.size());
  char chunk[kChunk];
  do {
    stream_.next_out = reinterpret_cast<Bytef*>(chunk);
    stream_.avail_out = kChunk;
    deflate(&stream_, flush);
    out_.append(chunk, kChunk - stream_.avail_out);
  } while (stream_.avail_out == 0);
}

void GzipCompressor::Add(std::string_view bytes) { Deflate(bytes, Z_NO_FLUSH); }

std::string GzipCompressor::Finish() {
  Deflate({}, Z_FINISH);
  return std::move(out_);
}

ApiResult<std::string> Decompress(std::string_view bytes, Compression compression,
                                  size_t max_bytes) {
  switch (compression) {
    case Compression::kNone:
      if (bytes.size() > max_bytes) return ApiError::Validation("object is too large");
      return std::string(bytes);
    case Compression::kGzip:
      return Gunzip(bytes, max_bytes);
    case Compression::kZstd:
      return Unzstd(bytes, max_bytes);
  }
  return ApiError::Internal("unknown compression");
}

}  // namespace ddb::api
