// KeyCounts: how often each partition key was accessed on one table or
// index, for the profile's hot keys, up to kMax keys (later new keys are not
// counted, as a Contributor Insights rule reports only its top keys).
//
// A count is added on nearly every request the server answers, so it is
// found with few memory reads: an open-addressing table of small slots
// (a hash tag and an entry's number) in one array sized a power of two,
// the entries in another and the keys' texts side by side in one string.
// A std::unordered_map spent four fifths of AccessProfile::Add on its
// bucket's and nodes' cache misses and the divisions that pick a bucket
// (perf, PutItem at 16 connections; docs/measured.md).
//
// Thread safety: none of its own; AccessProfile's shard lock guards it.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace ddb::emulator {

class KeyCounts {
 public:
  static constexpr size_t kMax = 1000;

  struct Counted {
    std::string_view text;  // the key's api::KeyText
    uint64_t count = 0;
  };

  // Adds `n` to the count of the key whose api::KeyText is `text`; nothing
  // for a new key once kMax keys are counted.
  void Add(std::string_view text, uint64_t n = 1);
  // Adds every count of `other`'s, within the cap.
  void Merge(const KeyCounts& other);
  // 0 for a key never counted.
  uint64_t CountOf(std::string_view text) const;
  size_t size() const { return entries_.size(); }
  // Every key with its count, in the order each was first counted; the
  // texts point into this object.
  std::vector<Counted> All() const;

 private:
  static constexpr uint32_t kFree = UINT32_MAX;
  struct Slot {
    uint32_t tag = 0;  // the upper half of the key's hash
    uint32_t entry = kFree;
  };
  struct Entry {
    uint32_t offset = 0;  // of its text in texts_
    uint32_t size = 0;
    uint64_t count = 0;
  };

  std::string_view TextOf(const Entry& entry) const {
    return std::string_view(texts_).substr(entry.offset, entry.size);
  }
  // The index of the slot holding `text`, or of the free one where it
  // would go; there must be slots.
  size_t SlotOf(std::string_view text, uint64_t hash) const;
  // Add's path for a key not counted yet.
  void AddNew(std::string_view text, uint64_t hash, uint64_t n);
  void Grow();

  std::vector<Slot> slots_;  // none until the first key; at most half of them taken
  std::vector<Entry> entries_;
  std::string texts_;
};

}  // namespace ddb::emulator
