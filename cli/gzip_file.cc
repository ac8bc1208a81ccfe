#include "cli/gzip_file.h"

#include <cerrno>
#include <cstring>

namespace ddb::cli {
namespace {

constexpr unsigned kReadChunk = 1 << 20;
constexpr unsigned kZlibBuffer = 1 << 18;

std::string ZlibError(gzFile file) {
  int code = 0;
  const char* message = gzerror(file, &code);
  if (code == Z_ERRNO) return std::strerror(errno);
  return message ? message : "unknown zlib error";
}

}  // namespace

std::unique_ptr<LineFileReader> LineFileReader::Open(const std::string& path,
                                                     std::string* error) {
  gzFile file = gzopen(path.c_str(), "rb");
  if (!file) {
    *error = errno ? std::strerror(errno) : "cannot open";
    return nullptr;
  }
  gzbuffer(file, kZlibBuffer);
  return std::unique_ptr<LineFileReader>(new LineFileReader(file));
}

LineFileReader::~LineFileReader() { gzclose(file_); }

uint64_t LineFileReader::file_offset() const {
  z_off_t offset = gzoffset(file_);
  return offset < 0 ? 0 : static_cast<uint64_t>(offset);
}

bool LineFileReader::Refill() {
  buffer_.erase(0, position_);
  position_ = 0;
  size_t old_size = buffer_.size();
  buffer_.resize(old_size + kReadChunk);
  int read = gzread(file_, buffer_.data() + old_size, kReadChunk);
  if (read < 0) {
    error_ = ZlibError(file_);
    buffer_.resize(old_size);
    return false;
  }
  buffer_.resize(old_size + static_cast<size_t>(read));
  if (read == 0) at_end_ = true;
  return read > 0;
}

bool LineFileReader::NextLine(std::string* line) {
  size_t scanned = position_;
  while (true) {
    size_t newline = buffer_.find('\n', scanned);
    if (newline != std::string::npos) {
      size_t end = newline > position_ && buffer_[newline - 1] == '\r' ? newline - 1 : newline;
      line->assign(buffer_, position_, end - position_);
      position_ = newline + 1;
      ++line_number_;
      return true;
    }
    scanned = buffer_.size() - position_;  // relative: Refill() moves the data to 0
    if (at_end_ || !Refill()) break;
  }
  if (!error_.empty() || position_ >= buffer_.size()) return false;
  line->assign(buffer_, position_, std::string::npos);  // a last line without "\n"
  if (!line->empty() && line->back() == '\r') line->pop_back();
  position_ = buffer_.size();
  ++line_number_;
  return true;
}

}  // namespace ddb::cli
