// How `localdynamo check` and `repair` print a check of a data directory
// (engine/integrity/integrity_check.h): the table files, then each table and backup
// with its counts and its findings, each finding with how often it was
// met and its first examples. A damage line reads
// "damaged: <file or table>: <RocksDB's message>".
//
// Thread safety: pure functions over the report.
#pragma once

#include <ostream>
#include <string>

#include "engine/integrity/integrity_check.h"

namespace ddb::cli {

// "Orders", "Orders (eu-west-1)" for another namespace, "backup B of Orders".
std::string DataLabel(const std::string& ns, const std::string& name,
                      const std::string& backup_name);

// The files, RocksDB's warnings, the database's and every table's
// findings; with `all_tables`, the clean tables' counts too.
void PrintCheck(const engine::IntegrityReport& report, bool all_tables, std::ostream& out);

// "clean", or "N problems found".
std::string Verdict(const engine::IntegrityReport& report);

}  // namespace ddb::cli
