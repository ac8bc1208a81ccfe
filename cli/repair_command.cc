// localdynamo repair: RocksDB's repair of the data directory, the indexes
// and statistics of each table rebuilt from its items where they disagree,
// and what was lost: the files set aside, and each table's items before
// and after (engine/integrity/data_repair.h). Exit 0 when the directory checks clean
// afterwards, 1 when problems remain, 2 when it cannot be repaired.
#include <iostream>

#include "cli/data_commands.h"
#include "cli/integrity_output.h"
#include "engine/integrity/data_repair.h"
#include "engine/storage/store_repair.h"

namespace ddb::cli {
namespace {

// What a file repair moved aside held, for the reader.
std::string WhatWasIn(const std::string& name) {
  if (engine::IsLostTableFile(name)) {
    return "a table file it could not read whole: what it held is gone, but for the items "
           "put back below";
  }
  if (name.rfind("MANIFEST-", 0) == 0) return "the old MANIFEST, replaced by a new one";
  return "a write-ahead log, its records (if any) rewritten into a table file";
}

void PrintTableRepair(const engine::TableRepair& table, std::ostream& out) {
  out << "  " << DataLabel(table.ns, table.name, table.backup_name) << ": ";
  if (table.recorded) out << *table.recorded << " recorded, ";
  if (table.read_before) {
    out << *table.read_before << (table.whole_before ? "" : " readable (around damaged blocks)")
        << " before, ";
  } else {
    out << "unreadable before, ";
  }
  if (table.items_after) {
    out << *table.items_after << " now";
  } else {
    out << "gone now (its catalog entry was lost)";
  }
  int64_t lost = table.lost();
  out << (lost > 0 ? ": " + std::to_string(lost) + " lost" : ": none lost");
  if (table.restore.written_back > 0) {
    out << "; " << table.restore.written_back << " put back after RocksDB's repair";
  }
  if (table.restore.deleted > 0) {
    out << "; " << table.restore.deleted << " deleted again (older versions it brought back)";
  }
  if (table.rebuilt) out << "; indexes and statistics rebuilt from the items";
  out << "\n";
}

}  // namespace

int RunRepair(const RepairOptions& options) {
  auto report = engine::RepairDataDir(options.data_dir);
  if (!report.ok()) {
    std::cerr << "localdynamo repair: " << report.status().message() << "\n";
    return 2;
  }
  std::cout << "localdynamo repair: " << options.data_dir << "\n"
            << "before: " << Verdict(report->before) << "\n";
  PrintCheck(report->before, /*all_tables=*/false, std::cout);
  if (report->store.moved_aside.empty()) {
    std::cout << "repair: no file was moved aside\n";
  } else {
    std::cout << "repair: moved to " << options.data_dir << "/lost/:\n";
    for (const std::string& name : report->store.moved_aside) {
      std::cout << "  " << name << ": " << WhatWasIn(name) << "\n";
    }
  }
  for (const auto& warning : report->store.warnings) {
    std::cout << "  RocksDB: " << warning.text;
    if (warning.times > 1) std::cout << " (" << warning.times << " times)";
    std::cout << "\n";
  }
  if (!report->salvage_error.empty()) {
    std::cout << "putting the salvaged items back failed: " << report->salvage_error
              << "; they are kept in " << report->salvage_file << "\n";
  }
  std::cout << "items (recorded, read before, now):\n";
  int64_t lost = 0;
  for (const engine::TableRepair& table : report->tables) {
    PrintTableRepair(table, std::cout);
    lost += table.lost();
  }
  for (const std::string& error : report->rebuild_errors) {
    std::cout << "  rebuild failed: " << error << "\n";
  }
  std::cout << "lost: " << lost << (lost == 1 ? " item" : " items") << "\n";
  if (!report->after.clean()) PrintCheck(report->after, /*all_tables=*/false, std::cout);
  std::cout << "after: " << Verdict(report->after) << "\n";
  return report->after.clean() ? 0 : 1;
}

}  // namespace ddb::cli
