// localdynamo dump-models: the current tables written as a model folder
// (fixtures/README.md) — tables/<T>.json rebuilt from DescribeTable (and the
// table's tags), tables/<T>.ttl.json when TTL is on, and with --items every
// item in items/<T>.jsonl — so a table built by hand becomes a fixture.
#include <filesystem>
#include <fstream>
#include <iostream>

#include "cli/data_commands.h"
#include "cli/data_transfer.h"
#include "emulator/model_dump.h"

namespace ddb::cli {
namespace {
namespace fs = std::filesystem;

bool WriteFile(const fs::path& path, std::string_view text, std::string* error) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(text.data(), static_cast<std::streamsize>(text.size()));
  out.close();
  if (!out) *error = "cannot write " + path.string();
  return static_cast<bool>(out);
}

// The answer's body, or false with `*error` set to its error.
bool CallOk(OfflineDatabase& db, std::string_view operation, std::string_view body,
            std::string* answer, std::string* error) {
  CallResult result = db.Call(operation, body);
  if (!result.ok) {
    *error = std::string(operation) + ": " + result.error;
    return false;
  }
  *answer = std::move(result.body);
  return true;
}

bool DumpSchema(OfflineDatabase& db, const std::string& table, const fs::path& tables_dir,
                std::string* error) {
  std::string described, tags, ttl_described;
  if (!CallOk(db, "DescribeTable", TableNameBody(table), &described, error)) return false;
  auto facts = ParseTableFacts(described);
  if (!facts.ok()) {
    *error = facts.error().message;
    return false;
  }
  if (!CallOk(db, "ListTagsOfResource", ListTagsBody(facts->arn), &tags, error) ||
      !CallOk(db, "DescribeTimeToLive", TableNameBody(table), &ttl_described, error)) {
    return false;
  }
  auto input = emulator::CreateTableInputFromDescription(described, tags);
  auto ttl = emulator::TimeToLiveInputFromDescription(table, ttl_described);
  if (!input.ok() || !ttl.ok()) {
    *error = input.ok() ? ttl.error().message : input.error().message;
    return false;
  }
  if (!WriteFile(tables_dir / (table + ".json"), *input, error)) return false;
  fs::path ttl_path = tables_dir / (table + ".ttl.json");
  if (*ttl) return WriteFile(ttl_path, **ttl, error);
  std::error_code ec;
  fs::remove(ttl_path, ec);  // a stale one from an earlier dump would turn TTL on
  return true;
}

bool DumpItems(OfflineDatabase& db, const std::string& table, const fs::path& items_dir,
               uint64_t* count, std::string* error) {
  fs::path path = items_dir / (table + ".jsonl");
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  std::string start_key;
  do {
    std::string body;
    if (!CallOk(db, "Scan", ScanBody(table, start_key), &body, error)) return false;
    auto page = ParseScanPage(body);
    if (!page.ok()) {
      *error = "Scan: " + page.error().message;
      return false;
    }
    for (const std::string& item : page->items) out << item << "\n";
    *count += page->items.size();
    start_key = page->last_evaluated_key;
  } while (!start_key.empty());
  out.close();
  if (!out) *error = "cannot write " + path.string();
  return static_cast<bool>(out);
}

}  // namespace

int RunDumpModels(const DumpModelsOptions& options) {
  std::string error;
  auto db = OfflineDatabase::Open(options.target, OfflineDatabase::Mode::kExisting, &error);
  std::vector<std::string> tables;
  if (!db || !db->ResolveTables(options.tables, &tables, &error)) {
    std::cerr << "localdynamo dump-models: " << error << "\n";
    return 1;
  }
  fs::path tables_dir = fs::path(options.out_dir) / "tables";
  fs::path items_dir = fs::path(options.out_dir) / "items";
  std::error_code ec;
  fs::create_directories(tables_dir, ec);
  if (!ec && options.items) fs::create_directories(items_dir, ec);
  if (ec) {
    std::cerr << "localdynamo dump-models: cannot create " << options.out_dir << ": "
              << ec.message() << "\n";
    return 1;
  }
  for (const std::string& table : tables) {
    uint64_t items = 0;
    if (!DumpSchema(*db, table, tables_dir, &error) ||
        (options.items && !DumpItems(*db, table, items_dir, &items, &error))) {
      std::cerr << "localdynamo dump-models: table " << table << ": " << error << "\n";
      return 1;
    }
    std::cout << (tables_dir / (table + ".json")).string();
    if (options.items) std::cout << " (" << items << " items)";
    std::cout << "\n";
  }
  return 0;
}

}  // namespace ddb::cli
