#include "cli/integrity_output.h"

namespace ddb::cli {
namespace {

using engine::Finding;

std::string Plural(int64_t n, const std::string& one, const std::string& many) {
  return std::to_string(n) + " " + (n == 1 ? one : many);
}

void PrintFinding(const Finding& finding, const std::string& label, const std::string& indent,
                  std::ostream& out) {
  if (finding.kind == Finding::Kind::kDamage) {
    out << indent << "damaged: " << (label.empty() ? "" : label + ": ") << finding.what;
    if (finding.count > 1) out << " (" << finding.count << " reads)";
    out << "\n";
    return;
  }
  out << indent << finding.what;
  if (finding.count > 1 || !finding.examples.empty()) out << ": " << finding.count;
  out << "\n";
  for (const std::string& example : finding.examples) {
    out << indent << "  e.g. " << example << "\n";
  }
}

void PrintTable(const engine::TableCheck& table, std::ostream& out) {
  const std::string label = DataLabel(table.ns, table.name, table.backup_name);
  out << "  " << label << ": " << Plural(table.items_read, "item", "items");
  if (!table.items_whole) out << " readable around damaged blocks";
  if (!table.recorded_items) {
    out << " (its count unreadable)";
  } else if (*table.recorded_items != table.items_read || !table.items_whole) {
    out << " (" << *table.recorded_items << " recorded)";
  }
  if (table.indexes > 0) {
    out << ", " << Plural(static_cast<int64_t>(table.indexes), "index", "indexes") << " with "
        << Plural(table.index_entries, "entry", "entries");
  }
  out << (table.findings.empty() ? ": ok" : "") << "\n";
  for (const Finding& finding : table.findings) PrintFinding(finding, label, "    ", out);
}

}  // namespace

std::string DataLabel(const std::string& ns, const std::string& name,
                      const std::string& backup_name) {
  std::string label = backup_name.empty() ? name : "backup " + backup_name + " of " + name;
  if (!ns.empty()) label += " (" + ns + ")";
  return label;
}

void PrintCheck(const engine::IntegrityReport& report, bool all_tables, std::ostream& out) {
  if (report.open_damage) {
    out << "damaged: " << report.path << ": " << *report.open_damage << "\n";
  }
  if (report.files.files_checked == 0) {
    out << "files: no table files yet (what there is, is in the write-ahead log)\n";
  } else {
    out << "files: "
        << Plural(static_cast<int64_t>(report.files.files_checked), "table file", "table files")
        << (report.files.damaged.empty() ? ", every checksum matches" : "") << "\n";
  }
  for (const engine::DamagedFile& file : report.files.damaged) {
    out << "  damaged: " << file.file;
    if (!file.family.empty()) out << " (" << file.family << ")";
    out << ": " << file.message << "\n";
  }
  for (const std::string& line : report.warnings) {
    out << "  damaged: write-ahead log: " << line << "\n";
  }
  if (report.open_damage) return;
  int64_t backups = 0;
  for (const engine::TableCheck& table : report.tables) backups += table.is_backup() ? 1 : 0;
  out << "tables: "
      << Plural(static_cast<int64_t>(report.tables.size()) - backups, "table", "tables");
  if (backups > 0) out << ", " << Plural(backups, "backup", "backups");
  out << "\n";
  for (const Finding& finding : report.findings) PrintFinding(finding, "", "  ", out);
  for (const engine::TableCheck& table : report.tables) {
    if (all_tables || !table.findings.empty()) PrintTable(table, out);
  }
}

std::string Verdict(const engine::IntegrityReport& report) {
  if (report.clean()) return "clean";
  return Plural(report.problem_count(), "problem", "problems") + " found";
}

}  // namespace ddb::cli
