// localdynamo import: the table prepared (created from a CreateTable request
// file when asked), then the data files loaded in BatchWriteItem requests of
// 25 items through Dispatch. A reader thread decompresses and splits the
// files while the calling thread writes; the first bad line stops the import
// with its file and line number.
#include <unistd.h>

#include <atomic>
#include <condition_variable>
#include <deque>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <mutex>
#include <optional>
#include <sstream>
#include <thread>

#include "api/errors.h"
#include "api/transfer/export_format.h"
#include "cli/data_commands.h"
#include "cli/data_transfer.h"
#include "cli/gzip_file.h"
#include "cli/import_sources.h"
#include "cli/progress.h"

namespace ddb::cli {
namespace {
namespace fs = std::filesystem;

constexpr size_t kItemsPerBatch = 25;  // BatchWriteItem's limit
// The reader stays at most this far ahead of the writer (large items
// reach the byte bound first).
constexpr size_t kQueuedChunks = 256;
constexpr size_t kQueuedBytes = 64 << 20;

// Up to 25 consecutive items of one file, or the reason the stream ends.
struct Chunk {
  size_t file = 0;  // index into ImportSources::files
  std::vector<std::string> items;
  std::vector<uint64_t> lines;  // each item's line number
  std::string error;            // set: the stream ends here, with this message

  size_t bytes() const {
    size_t total = 0;
    for (const std::string& item : items) total += item.size();
    return total;
  }
};

// A bounded queue from the reader thread to the writer.
class ChunkQueue {
 public:
  // False when the consumer has stopped.
  bool Push(Chunk chunk) {
    size_t bytes = chunk.bytes();
    std::unique_lock lock(mu_);
    room_.wait(lock, [&] {
      return chunks_.empty() || (chunks_.size() < kQueuedChunks && bytes_ < kQueuedBytes) ||
             stopped_;
    });
    if (stopped_) return false;
    bytes_ += bytes;
    chunks_.push_back(std::move(chunk));
    ready_.notify_one();
    return true;
  }
  // Nothing once the producer has finished and every chunk was taken.
  std::optional<Chunk> Pop() {
    std::unique_lock lock(mu_);
    ready_.wait(lock, [&] { return !chunks_.empty() || finished_; });
    if (chunks_.empty()) return std::nullopt;
    Chunk chunk = std::move(chunks_.front());
    chunks_.pop_front();
    bytes_ -= chunk.bytes();
    room_.notify_one();
    return chunk;
  }
  void Finish() {
    std::lock_guard lock(mu_);
    finished_ = true;
    ready_.notify_all();
  }
  void Stop() {
    std::lock_guard lock(mu_);
    stopped_ = true;
    room_.notify_all();
  }

 private:
  std::mutex mu_;
  std::condition_variable ready_, room_;
  std::deque<Chunk> chunks_;
  size_t bytes_ = 0;  // of the items in chunks_
  bool finished_ = false;
  bool stopped_ = false;
};

// Reads every file into `queue`; `bytes_read` follows it for progress.
void ReadFiles(const ImportSources& sources, ChunkQueue& queue,
               std::atomic<uint64_t>& bytes_read) {
  uint64_t finished_bytes = 0;
  for (size_t index = 0; index < sources.files.size(); ++index) {
    const ImportFile& file = sources.files[index];
    std::string error;
    auto reader = LineFileReader::Open(file.path, &error);
    if (!reader) {
      queue.Push(Chunk{index, {}, {}, file.path + ": " + error});
      break;
    }
    Chunk chunk{index, {}, {}, ""};
    std::string line;
    while (reader->NextLine(&line)) {
      auto item = api::ItemFromImportLine(line);
      if (!item.ok()) {
        chunk.error = file.path + ":" + std::to_string(reader->line_number()) + ": " +
                      item.error().message;
        break;
      }
      if (!*item) continue;
      chunk.items.push_back(std::move(**item));
      chunk.lines.push_back(reader->line_number());
      if (chunk.items.size() == kItemsPerBatch) {
        bytes_read = finished_bytes + reader->file_offset();
        if (!queue.Push(std::move(chunk))) return;
        chunk = Chunk{index, {}, {}, ""};
      }
    }
    if (chunk.error.empty() && !reader->error().empty()) {
      chunk.error = file.path + ": " + reader->error();
    }
    bool failed = !chunk.error.empty();
    if (!queue.Push(std::move(chunk)) || failed) break;
    finished_bytes += file.size_bytes;
    bytes_read = finished_bytes;
  }
  queue.Finish();
}

// Writes `chunk`, counting the items written in `*written`; on failure sets
// `*error` to the offending line and what DynamoDB's answer says of it.
bool WriteChunk(OfflineDatabase& db, const std::string& table, const ImportSources& sources,
                const Chunk& chunk, uint64_t* written, std::string* error) {
  if (chunk.items.empty()) return true;
  CallResult batch = db.Call("BatchWriteItem", BatchWriteItemBody(table, chunk.items));
  if (batch.ok && !HasUnprocessedItems(batch.body)) {
    *written += chunk.items.size();
    return true;
  }
  // Find the item at fault (or write them one by one when the batch only
  // failed as a whole, e.g. on two items with the same key: the later wins).
  for (size_t i = 0; i < chunk.items.size(); ++i) {
    CallResult put = db.Call("PutItem", PutItemBody(table, chunk.items[i]));
    if (!put.ok) {
      *error = sources.files[chunk.file].path + ":" + std::to_string(chunk.lines[i]) + ": " +
               put.error;
      return false;
    }
    ++*written;
  }
  return true;
}

bool ReadTextFile(const std::string& path, std::string* text, std::string* error) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream buffer;
  buffer << in.rdbuf();
  *text = buffer.str();
  if (!in) *error = path + ": cannot read the file";
  return static_cast<bool>(in);
}

// Sends the request in `path` (TableName set to `table`) as `operation`.
bool SendRequestFile(OfflineDatabase& db, std::string_view operation, const std::string& path,
                     const std::string& table, std::string* error) {
  std::string text;
  if (!ReadTextFile(path, &text, error)) return false;
  auto request = WithTableName(text, table);
  if (!request.ok()) {
    *error = path + ": " + request.error().message;
    return false;
  }
  CallResult answer = db.Call(operation, *request);
  if (!answer.ok) *error = path + ": " + answer.error;
  return answer.ok;
}

// The table's name, the table created from --create-table if it is missing.
bool PrepareTable(OfflineDatabase& db, const ImportOptions& options,
                  const ImportSources& sources, std::string* table, std::string* error) {
  *table = options.table;
  if (table->empty() && !options.create_table.empty()) {
    std::string text;
    if (!ReadTextFile(options.create_table, &text, error)) return false;
    auto name = TableNameOfCreateRequest(text);
    if (!name.ok()) {
      *error = options.create_table + ": " + name.error().message;
      return false;
    }
    *table = *name;
  }
  if (table->empty()) *table = sources.table;
  if (table->empty()) {
    *error = "name the table to load with --table (or --create-table tables/<T>.json)";
    return false;
  }
  CallResult described = db.Call("DescribeTable", TableNameBody(*table));
  if (described.ok) return true;
  if (!api::IsResourceNotFound(described.error_type)) {
    *error = "table " + *table + ": " + described.error;
    return false;
  }
  if (options.create_table.empty()) {
    *error = "table " + *table + " does not exist (" + described.error +
             "); create it first, or pass --create-table with its CreateTable request "
             "(a model's tables/<T>.json)";
    return false;
  }
  if (!SendRequestFile(db, "CreateTable", options.create_table, *table, error)) return false;
  // A model's TTL setting sits beside its CreateTable request.
  std::string ttl_path = options.create_table;
  if (ttl_path.size() > 5 && ttl_path.compare(ttl_path.size() - 5, 5, ".json") == 0) {
    ttl_path.replace(ttl_path.size() - 5, 5, ".ttl.json");
    if (fs::exists(ttl_path) &&
        !SendRequestFile(db, "UpdateTimeToLive", ttl_path, *table, error)) {
      return false;
    }
  }
  std::cerr << "localdynamo import: created table " << *table << " from "
            << options.create_table << "\n";
  return true;
}

double Fraction(const ImportSources& sources, uint64_t items, uint64_t bytes_read,
                uint64_t total_bytes) {
  if (sources.all_counted && sources.expected_items > 0) {
    return static_cast<double>(items) / static_cast<double>(sources.expected_items);
  }
  if (total_bytes == 0) return -1;
  return static_cast<double>(bytes_read) / static_cast<double>(total_bytes);
}

}  // namespace

int RunImport(const ImportOptions& options) {
  ImportSources sources;
  std::string error;
  if (!ResolveImportSources(options.paths, &sources, &error)) {
    std::cerr << "localdynamo import: " << error << "\n";
    return 1;
  }
  auto db = OfflineDatabase::Open(options.target, OfflineDatabase::Mode::kBulkLoad, &error);
  std::string table;
  if (!db || !PrepareTable(*db, options, sources, &table, &error)) {
    std::cerr << "localdynamo import: " << error << "\n";
    return 1;
  }
  uint64_t total_bytes = 0;
  for (const auto& file : sources.files) total_bytes += file.size_bytes;
  ChunkQueue queue;
  std::atomic<uint64_t> bytes_read{0};
  std::thread reader([&] { ReadFiles(sources, queue, bytes_read); });
  ProgressReporter progress("import " + table, std::cerr, options.progress,
                            isatty(STDERR_FILENO));
  uint64_t items = 0;
  bool failed = false;
  while (auto chunk = queue.Pop()) {
    if (!WriteChunk(*db, table, sources, *chunk, &items, &error)) {
      failed = true;
    } else if (!chunk->error.empty()) {
      error = chunk->error;
      failed = true;
    }
    if (failed) break;
    progress.Update(items, Fraction(sources, items, bytes_read, total_bytes));
  }
  queue.Stop();
  reader.join();
  if (failed) {
    std::cerr << "localdynamo import: " << error << "\n"
              << "localdynamo import: stopped there; items written before it: "
              << GroupThousands(items) << " (in table " << table << ")\n";
    return 1;
  }
  progress.Finish(items);
  if (sources.all_counted && items != sources.expected_items) {
    std::cerr << "localdynamo import: warning: the manifests list "
              << GroupThousands(sources.expected_items) << " items; "
              << GroupThousands(items) << " were read\n";
  }
  return 0;
}

}  // namespace ddb::cli
