// Byte-level building blocks for everything the engine persists: varints,
// length-prefixed strings and fixed big-endian integers (big-endian so that
// encoded keys sort numerically under RocksDB's bytewise comparator).
//
// Thread safety: free functions over caller-owned buffers.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace ddb::engine::coding {

inline void PutVarint(std::string* out, uint64_t v) {
  while (v >= 0x80) {
    out->push_back(static_cast<char>(v | 0x80));
    v >>= 7;
  }
  out->push_back(static_cast<char>(v));
}

inline void PutString(std::string* out, std::string_view s) {
  PutVarint(out, s.size());
  out->append(s);
}

inline void PutFixed64BE(std::string* out, uint64_t v) {
  for (int shift = 56; shift >= 0; shift -= 8) out->push_back(static_cast<char>(v >> shift));
}

inline void PutFixed32BE(std::string* out, uint32_t v) {
  for (int shift = 24; shift >= 0; shift -= 8) out->push_back(static_cast<char>(v >> shift));
}

inline uint64_t DecodeFixed64BE(std::string_view in) {
  uint64_t v = 0;
  for (int i = 0; i < 8; ++i) v = (v << 8) | static_cast<uint8_t>(in[i]);
  return v;
}

inline uint32_t DecodeFixed32BE(std::string_view in) {
  uint32_t v = 0;
  for (int i = 0; i < 4; ++i) v = (v << 8) | static_cast<uint8_t>(in[i]);
  return v;
}

// Reads what the Put* functions wrote. Every Get* returns false on truncated
// or malformed input and then leaves the reader failed.
class Reader {
 public:
  explicit Reader(std::string_view in) : in_(in) {}

  bool GetVarint(uint64_t* v) {
    *v = 0;
    for (int shift = 0; shift <= 63; shift += 7) {
      if (in_.empty()) return Fail();
      uint8_t byte = static_cast<uint8_t>(in_.front());
      in_.remove_prefix(1);
      *v |= static_cast<uint64_t>(byte & 0x7f) << shift;
      if (!(byte & 0x80)) return true;
    }
    return Fail();
  }
  bool GetString(std::string_view* s) {
    uint64_t n;
    if (!GetVarint(&n) || n > in_.size()) return Fail();
    *s = in_.substr(0, n);
    in_.remove_prefix(n);
    return true;
  }
  bool GetString(std::string* s) {
    std::string_view view;
    if (!GetString(&view)) return false;
    s->assign(view);
    return true;
  }
  bool GetByte(uint8_t* b) {
    if (in_.empty()) return Fail();
    *b = static_cast<uint8_t>(in_.front());
    in_.remove_prefix(1);
    return true;
  }
  bool GetInt64(int64_t* v) {
    uint64_t u;
    if (!GetVarint(&u)) return false;
    *v = static_cast<int64_t>(u);
    return true;
  }
  bool GetBool(bool* v) {
    uint8_t b;
    if (!GetByte(&b)) return false;
    *v = b != 0;
    return true;
  }

  bool ok() const { return ok_; }
  bool done() const { return ok_ && in_.empty(); }
  // Bytes not yet read: an upper bound on the elements a count may announce.
  size_t remaining() const { return in_.size(); }

 private:
  bool Fail() {
    ok_ = false;
    return false;
  }
  std::string_view in_;
  bool ok_ = true;
};

}  // namespace ddb::engine::coding
