// ObjectStore: where exports go and imports come from — DynamoDB's S3 side.
// A bucket is a name, an object a key and its bytes, as in S3. The server
// gives the Database a real S3 endpoint's client when one is configured
// (server/s3_client.h); otherwise objects live in a folder per bucket
// (FolderObjectStore) or, for an in-memory database, in memory.
//
// Thread safety: every implementation is safe for concurrent use.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "engine/mutex.h"
#include "engine/status.h"

namespace ddb::engine {

class ObjectStore {
 public:
  virtual ~ObjectStore() = default;
  // Creates or replaces the object. kNotFound ("The specified bucket does
  // not exist") when the bucket is missing.
  virtual Status Put(std::string_view bucket, std::string_view key, std::string_view bytes) = 0;
  // kNotFound for a missing bucket or object.
  virtual Result<std::string> Get(std::string_view bucket, std::string_view key) = 0;
  // The keys that start with `prefix`, in S3's order (bytewise). kNotFound
  // for a missing bucket.
  virtual Result<std::vector<std::string>> List(std::string_view bucket,
                                                std::string_view prefix) = 0;
  // What the store is, for logs and the console ("folder /data/s3", ...).
  virtual std::string Describe() const = 0;
};

// A folder per bucket under `root`: the object "a/b.json" of bucket "x" is
// the file root/x/a/b.json. A bucket is a folder that exists (`mkdir
// root/x` makes one, as creating an S3 bucket does); a Put, Get or List of
// a missing one is kNotFound, as S3's NoSuchBucket.
class FolderObjectStore : public ObjectStore {
 public:
  explicit FolderObjectStore(std::string root) : root_(std::move(root)) {}
  Status Put(std::string_view bucket, std::string_view key, std::string_view bytes) override;
  Result<std::string> Get(std::string_view bucket, std::string_view key) override;
  Result<std::vector<std::string>> List(std::string_view bucket,
                                        std::string_view prefix) override;
  std::string Describe() const override { return "folder " + root_; }

 private:
  std::string root_;
};

// Objects in memory, for an in-memory database: gone with the process.
class MemoryObjectStore : public ObjectStore {
 public:
  Status Put(std::string_view bucket, std::string_view key, std::string_view bytes) override;
  Result<std::string> Get(std::string_view bucket, std::string_view key) override;
  Result<std::vector<std::string>> List(std::string_view bucket,
                                        std::string_view prefix) override;
  std::string Describe() const override { return "memory"; }

 private:
  Mutex mu_;
  std::map<std::string, std::map<std::string, std::string, std::less<>>, std::less<>> buckets_
      GUARDED_BY(mu_);
};

}  // namespace ddb::engine
