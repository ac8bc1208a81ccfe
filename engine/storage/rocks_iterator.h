// RocksIterator: a Store::Iterator over one RocksDB column family between two
// bounds, for the running store (store.cc) and the read-only one the offline
// check opens (store_check.cc). Only the read options and how an iteration
// error is put differ between them.
//
// Thread safety: an iterator belongs to one thread at a time; it must not
// outlive the database it reads.
#pragma once

#include <rocksdb/db.h>
#include <rocksdb/options.h>
#include <rocksdb/slice.h>

#include <memory>
#include <string>
#include <string_view>
#include <utility>

#include "engine/status.h"
#include "engine/storage/store.h"

namespace ddb::engine {

inline rocksdb::Slice ToSlice(std::string_view s) { return rocksdb::Slice(s.data(), s.size()); }

class RocksIterator final : public Store::Iterator {
 public:
  // What the callers see of an error that stopped the iteration.
  using Describe = Status (*)(const rocksdb::Status&);

  // `options` gets the bounds; `upper` empty means no upper bound.
  RocksIterator(rocksdb::DB* db, rocksdb::ColumnFamilyHandle* cf, std::string lower,
                std::string upper, rocksdb::ReadOptions options, Describe describe)
      : lower_(std::move(lower)), upper_(std::move(upper)), describe_(describe) {
    lower_slice_ = rocksdb::Slice(lower_);
    upper_slice_ = rocksdb::Slice(upper_);
    if (!lower_.empty()) options.iterate_lower_bound = &lower_slice_;
    if (!upper_.empty()) options.iterate_upper_bound = &upper_slice_;
    it_.reset(db->NewIterator(options, cf));
  }
  void Seek(std::string_view key) override { it_->Seek(ToSlice(key)); }
  void SeekForPrev(std::string_view key) override { it_->SeekForPrev(ToSlice(key)); }
  void SeekToFirst() override { it_->SeekToFirst(); }
  void SeekToLast() override { it_->SeekToLast(); }
  bool Valid() const override { return it_->Valid(); }
  void Next() override { it_->Next(); }
  void Prev() override { it_->Prev(); }
  std::string_view key() const override { return it_->key().ToStringView(); }
  std::string_view value() const override { return it_->value().ToStringView(); }
  Status status() const override { return describe_(it_->status()); }

 private:
  // The bounds must outlive the RocksDB iterator that points at them.
  std::string lower_, upper_;
  rocksdb::Slice lower_slice_, upper_slice_;
  const Describe describe_;
  std::unique_ptr<rocksdb::Iterator> it_;
};

}  // namespace ddb::engine
