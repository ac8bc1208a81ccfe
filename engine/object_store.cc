#include "engine/object_store.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace ddb::engine {
namespace {
namespace fs = std::filesystem;

Status NoSuchBucket() { return Status::NotFound("The specified bucket does not exist"); }
Status NoSuchKey() { return Status::NotFound("The specified key does not exist."); }

// A key names a file below its bucket's folder only if no segment climbs
// out of it: "..", "." and empty segments (a leading or doubled "/") are
// refused rather than mapped, so no key reaches outside the root.
bool IsFolderSafeKey(std::string_view key) {
  if (key.empty()) return false;
  size_t start = 0;
  while (start <= key.size()) {
    size_t end = key.find('/', start);
    if (end == std::string_view::npos) end = key.size();
    std::string_view segment = key.substr(start, end - start);
    if (segment.empty() || segment == "." || segment == "..") return false;
    start = end + 1;
  }
  return true;
}

// A bucket is one folder: any name that is a single safe path segment.
// (S3's own naming rules are the S3 server's to apply.)
bool IsBucketName(std::string_view bucket) {
  return bucket.find('/') == std::string_view::npos && IsFolderSafeKey(bucket);
}

// A folder bucket is a folder that exists under `root`, as an S3 bucket
// exists before a write to it: none is made on demand.
bool FolderBucketExists(const std::string& root, std::string_view bucket) {
  std::error_code ec;
  return IsBucketName(bucket) && fs::is_directory(fs::path(root) / bucket, ec);
}

}  // namespace

Status FolderObjectStore::Put(std::string_view bucket, std::string_view key,
                              std::string_view bytes) {
  if (!IsBucketName(bucket)) return NoSuchBucket();
  if (!IsFolderSafeKey(key)) {
    return Status::InvalidArgument("Object key cannot be stored in a folder: " + std::string(key));
  }
  if (!FolderBucketExists(root_, bucket)) return NoSuchBucket();
  fs::path path = fs::path(root_) / bucket / key;
  std::error_code ec;
  fs::create_directories(path.parent_path(), ec);
  if (ec) return Status::Internal("cannot create " + path.parent_path().string() + ": " + ec.message());
  // Written aside and renamed, so a reader never sees half an object.
  fs::path partial = path;
  partial += ".partial";
  {
    std::ofstream out(partial, std::ios::binary | std::ios::trunc);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    out.close();
    if (!out) return Status::Internal("cannot write " + partial.string());
  }
  fs::rename(partial, path, ec);
  if (ec) return Status::Internal("cannot write " + path.string() + ": " + ec.message());
  return Status::Ok();
}

Result<std::string> FolderObjectStore::Get(std::string_view bucket, std::string_view key) {
  if (!FolderBucketExists(root_, bucket)) return NoSuchBucket();
  if (!IsFolderSafeKey(key)) return NoSuchKey();
  std::ifstream in(fs::path(root_) / bucket / key, std::ios::binary);
  if (!in) return NoSuchKey();
  std::ostringstream bytes;
  bytes << in.rdbuf();
  return std::move(bytes).str();
}

Result<std::vector<std::string>> FolderObjectStore::List(std::string_view bucket,
                                                         std::string_view prefix) {
  if (!FolderBucketExists(root_, bucket)) return NoSuchBucket();
  fs::path folder = fs::path(root_) / bucket;
  std::vector<std::string> keys;
  std::error_code ec;
  for (auto it = fs::recursive_directory_iterator(folder, ec);
       !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
    if (!it->is_regular_file()) continue;
    std::string key = it->path().lexically_relative(folder).generic_string();
    if (key.ends_with(".partial")) continue;
    if (key.compare(0, prefix.size(), prefix) == 0) keys.push_back(std::move(key));
  }
  if (ec) return Status::Internal("cannot list " + folder.string() + ": " + ec.message());
  std::sort(keys.begin(), keys.end());
  return keys;
}

Status MemoryObjectStore::Put(std::string_view bucket, std::string_view key,
                              std::string_view bytes) {
  if (!IsBucketName(bucket)) return NoSuchBucket();
  MutexLock lock(mu_);
  auto it = buckets_.find(bucket);
  if (it == buckets_.end()) it = buckets_.emplace(std::string(bucket), decltype(it->second)()).first;
  it->second.insert_or_assign(std::string(key), std::string(bytes));
  return Status::Ok();
}

Result<std::string> MemoryObjectStore::Get(std::string_view bucket, std::string_view key) {
  MutexLock lock(mu_);
  auto it = buckets_.find(bucket);
  if (it == buckets_.end()) return NoSuchBucket();
  auto object = it->second.find(key);
  if (object == it->second.end()) return NoSuchKey();
  return object->second;
}

Result<std::vector<std::string>> MemoryObjectStore::List(std::string_view bucket,
                                                         std::string_view prefix) {
  MutexLock lock(mu_);
  auto it = buckets_.find(bucket);
  if (it == buckets_.end()) return NoSuchBucket();
  std::vector<std::string> keys;
  for (auto object = it->second.lower_bound(prefix);
       object != it->second.end() && object->first.compare(0, prefix.size(), prefix) == 0;
       ++object) {
    keys.push_back(object->first);
  }
  return keys;
}

}  // namespace ddb::engine
