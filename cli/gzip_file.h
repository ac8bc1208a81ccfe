// Line-oriented reading of data files that may be gzip-compressed, as
// DynamoDB's export to S3 writes them (data/<name>.json.gz; the writing is
// api/transfer/export_format.h's). Reading detects gzip by its magic bytes (zlib's
// transparent mode), so .json, .jsonl and .json.gz files are read alike.
//
// Thread safety: one object per thread.
#pragma once

#include <zlib.h>

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

namespace ddb::cli {

class LineFileReader {
 public:
  // Returns nullptr and sets `*error` if the file cannot be opened.
  static std::unique_ptr<LineFileReader> Open(const std::string& path, std::string* error);
  ~LineFileReader();

  // Reads the next line, without its "\n" (and "\r"); false at the end of
  // the file or on an error (then error() is set).
  bool NextLine(std::string* line);

  uint64_t line_number() const { return line_number_; }
  // Bytes of the file (compressed, if it is) consumed so far, for progress.
  uint64_t file_offset() const;
  const std::string& error() const { return error_; }

 private:
  explicit LineFileReader(gzFile file) : file_(file) {}
  bool Refill();

  gzFile file_;
  std::string buffer_;
  size_t position_ = 0;
  bool at_end_ = false;
  uint64_t line_number_ = 0;
  std::string error_;
};

}  // namespace ddb::cli
