#include "emulator/profile/key_counts.h"

#include <cstring>

namespace ddb::emulator {
namespace {

// A key text's hash, eight bytes at a time: std::hash's byte-wise loop was
// half of a count's cost for the 20-40 byte texts keys make. Each word is
// mixed in by a multiply by 2^64 over the golden ratio; the final shifts
// bring the product's well-mixed high bits down to the low ones, which pick
// the slot. Not meant to resist chosen keys: a test's own keys fill the
// table, and at most kMax of them.
uint64_t HashOf(std::string_view text) {
  constexpr uint64_t kOdd = 0x9E3779B97F4A7C15ull;
  uint64_t hash = text.size() * kOdd;
  const char* at = text.data();
  size_t left = text.size();
  for (; left >= 8; at += 8, left -= 8) {
    uint64_t word;
    std::memcpy(&word, at, 8);
    hash = (hash ^ word) * kOdd;
    hash ^= hash >> 29;
  }
  uint64_t tail = 0;
  if (text.size() >= 8) {  // the last eight bytes, overlapping the words before
    std::memcpy(&tail, text.data() + text.size() - 8, 8);
  } else {
    for (size_t i = 0; i < left; ++i) tail |= uint64_t{static_cast<unsigned char>(at[i])} << (8 * i);
  }
  hash = (hash ^ tail) * kOdd;
  hash ^= hash >> 32;
  hash *= kOdd;
  return hash ^ (hash >> 29);
}
uint32_t TagOf(uint64_t hash) { return static_cast<uint32_t>(hash >> 32); }

}  // namespace

size_t KeyCounts::SlotOf(std::string_view text, uint64_t hash) const {
  const size_t mask = slots_.size() - 1;
  for (size_t i = hash & mask;; i = (i + 1) & mask) {  // never full: a free slot ends it
    const Slot& slot = slots_[i];
    if (slot.entry == kFree) return i;
    if (slot.tag == TagOf(hash) && TextOf(entries_[slot.entry]) == text) return i;
  }
}

void KeyCounts::Grow() {
  std::vector<Slot> old = std::move(slots_);
  slots_.assign(old.empty() ? 16 : old.size() * 2, Slot{});
  for (const Slot& slot : old) {
    if (slot.entry == kFree) continue;
    std::string_view text = TextOf(entries_[slot.entry]);
    slots_[SlotOf(text, HashOf(text))] = slot;  // each text once: the free slot it goes to
  }
}

void KeyCounts::Add(std::string_view text, uint64_t n) {
  uint64_t hash = HashOf(text);
  if (!slots_.empty()) [[likely]] {
    const Slot& slot = slots_[SlotOf(text, hash)];
    if (slot.entry != kFree) [[likely]] {
      entries_[slot.entry].count += n;
      return;
    }
  }
  AddNew(text, hash, n);
}

// Out of line and cold: most counts are of a key counted before, and this
// path's code would otherwise sit in theirs.
[[gnu::cold, gnu::noinline]] void KeyCounts::AddNew(std::string_view text, uint64_t hash,
                                                    uint64_t n) {
  if (entries_.size() >= kMax) return;
  if ((entries_.size() + 1) * 2 > slots_.size()) Grow();
  Slot& slot = slots_[SlotOf(text, hash)];
  slot.tag = TagOf(hash);
  slot.entry = static_cast<uint32_t>(entries_.size());
  entries_.push_back({static_cast<uint32_t>(texts_.size()), static_cast<uint32_t>(text.size()), n});
  texts_ += text;
}

void KeyCounts::Merge(const KeyCounts& other) {
  for (const Entry& entry : other.entries_) Add(other.TextOf(entry), entry.count);
}

uint64_t KeyCounts::CountOf(std::string_view text) const {
  if (slots_.empty()) return 0;
  const Slot& slot = slots_[SlotOf(text, HashOf(text))];
  return slot.entry == kFree ? 0 : entries_[slot.entry].count;
}

std::vector<KeyCounts::Counted> KeyCounts::All() const {
  std::vector<Counted> all;
  all.reserve(entries_.size());
  for (const Entry& entry : entries_) all.push_back({TextOf(entry), entry.count});
  return all;
}

}  // namespace ddb::emulator
