// localdynamo models --check: every access pattern the models state
// (fixtures/<model>/access-patterns.json) run against an in-memory database
// holding the models and their sample items, one report line per pattern.
// Each pattern sees the sample items as loaded: after a pattern that writes,
// the database is emptied and loaded again, so no pattern's answer depends
// on the patterns before it.
#include <rapidjson/prettywriter.h>
#include <rapidjson/stringbuffer.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <initializer_list>
#include <iostream>
#include <map>
#include <memory>

#include "api/database_scope.h"
#include "api/dispatch.h"
#include "api/json_reader.h"
#include "cli/data_commands.h"
#include "cli/models_check.h"
#include "emulator/models.h"
#include "engine/clock.h"
#include "engine/engine.h"

#if defined(__APPLE__)
#include <mach-o/dyld.h>
#endif

namespace ddb::cli {
namespace {

namespace fs = std::filesystem;

std::string Units(double units) {
  char text[32];
  std::snprintf(text, sizeof(text), "%g", units);
  return text;
}

std::string TableOf(const PatternResult& r) { return r.table.empty() ? "?" : r.table; }

// "key condition on index GSI2", "SCAN: reads 9 of 9 items in T", ...
std::string AccessText(const PatternResult& r) {
  if (!r.ok()) return "ERROR: " + r.error;
  switch (r.access) {
    case Access::kKeyCondition:
      return r.index.empty() ? "key condition on table " + TableOf(r)
                             : "key condition on index " + r.index;
    case Access::kKeyLookup:
      return "key lookup on table " + TableOf(r);
    case Access::kKeyWrite:
      return "key write on table " + TableOf(r);
    case Access::kScan:
      return "SCAN: reads " + std::to_string(r.items_read.value_or(0)) + " of " +
             std::to_string(r.scan_total.value_or(0)) + " items in " +
             (r.index.empty() ? TableOf(r) : "index " + r.index);
    case Access::kStream:
      return "stream request on table " + TableOf(r);
    case Access::kStatement:
      return "PartiQL statement";
  }
  return "";
}

// "0.5 RCU", "2 WCU (DeploymentTable 1, CreateDateIndex 1)".
std::string UnitsText(const PatternResult& r) {
  if (!r.ok()) return "";
  if (r.access == Access::kStream) return "no capacity (Streams)";
  std::string text;
  if (r.read_units > 0 || r.write_units == 0) text = Units(r.read_units) + " RCU";
  if (r.write_units > 0) text += (text.empty() ? "" : " + ") + Units(r.write_units) + " WCU";
  // Where the units went, when more than one place consumed them (a write
  // to a table and its indexes); a Query on an index says where already.
  std::string parts;
  int places = 0;
  for (const auto* by_name : {&r.table_units, &r.index_units}) {
    for (const auto& [name, units] : *by_name) {
      if (units == 0) continue;
      parts += (parts.empty() ? "" : ", ") + name + " " + Units(units);
      ++places;
    }
  }
  if (places > 1) text += " (" + parts + ")";
  return text;
}

std::string ItemsText(const PatternResult& r) {
  if (!r.ok() || !r.items_read) return "";
  return "read " + std::to_string(*r.items_read) + ", returned " +
         std::to_string(r.items_returned.value_or(0));
}

std::string NotesText(const PatternResult& r) {
  std::string notes;
  if (r.ok() && r.sparse) {
    std::string counted = "(" + std::to_string(r.sparse->index_items) + " of " +
                          std::to_string(r.sparse->table_items) + " items)";
    notes = r.sparse->sparse() ? "sparse: yes " + counted
                               : "NOT SPARSE: " + r.sparse->index + " " + counted;
  }
  if (r.pages > 1) notes += (notes.empty() ? "" : ", ") + std::to_string(r.pages) + " pages";
  return notes;
}

struct Summary {
  int models = 0;
  int patterns = 0;
  int key_conditions = 0;
  int on_indexes = 0;
  int key_lookups = 0;
  int key_writes = 0;
  int scans = 0;
  int streams = 0;
  int statements = 0;
  int errors = 0;
  int sparse_checked = 0;
  int not_sparse = 0;
};

Summary Summarize(const std::vector<PatternResult>& results, int models) {
  Summary s;
  s.models = models;
  for (const PatternResult& r : results) {
    ++s.patterns;
    if (!r.ok()) {
      ++s.errors;
      continue;
    }
    switch (r.access) {
      case Access::kKeyCondition:
        ++s.key_conditions;
        if (!r.index.empty()) ++s.on_indexes;
        break;
      case Access::kKeyLookup: ++s.key_lookups; break;
      case Access::kKeyWrite: ++s.key_writes; break;
      case Access::kScan: ++s.scans; break;
      case Access::kStream: ++s.streams; break;
      case Access::kStatement: ++s.statements; break;
    }
    if (r.sparse) {
      ++s.sparse_checked;
      if (!r.sparse->sparse()) ++s.not_sparse;
    }
  }
  return s;
}

std::string Plural(int n, const std::string& one, const std::string& many) {
  return std::to_string(n) + " " + (n == 1 ? one : many);
}

void PrintText(const std::vector<PatternResult>& results,
               const std::vector<std::string>& without_patterns, const Summary& s) {
  // The short columns padded to their widest cell; the units (long for a
  // write to a table and its indexes) and the notes run on after them, as
  // does an error's message.
  constexpr size_t kPadded = 4;
  std::vector<std::vector<std::string>> rows;
  for (const PatternResult& r : results) {
    rows.push_back({r.pattern->model, r.pattern->name, AccessText(r), ItemsText(r), UnitsText(r),
                    NotesText(r)});
  }
  std::vector<size_t> widths(kPadded, 0);
  for (size_t i = 0; i < rows.size(); ++i) {
    for (size_t c = 0; c < kPadded && (c < 2 || results[i].ok()); ++c) {
      widths[c] = std::max(widths[c], rows[i][c].size());
    }
  }
  for (size_t i = 0; i < rows.size(); ++i) {
    std::string line;
    for (size_t c = 0; c < rows[i].size(); ++c) {
      const std::string& cell = rows[i][c];
      if (cell.empty() && c >= kPadded) continue;
      line += cell;
      if (c < kPadded && (c < 2 || results[i].ok())) {
        line += std::string(widths[c] - cell.size(), ' ');
      }
      line += "  ";
    }
    while (!line.empty() && line.back() == ' ') line.pop_back();
    std::cout << line << "\n";
  }
  for (const std::string& model : without_patterns) {
    std::cout << model << ": no access-patterns.json, nothing to check\n";
  }
  std::cout << "summary: " << Plural(s.patterns, "pattern", "patterns") << " in "
            << Plural(s.models, "model", "models") << ": "
            << Plural(s.key_conditions, "key condition", "key conditions") << " ("
            << s.on_indexes << " on indexes), "
            << Plural(s.key_lookups, "key lookup", "key lookups") << ", "
            << Plural(s.key_writes, "key write", "key writes") << ", "
            << Plural(s.scans, "SCAN", "SCANS")
            << (s.scans == 1 ? " (a finding), " : " (findings), ")
            << Plural(s.streams, "stream request", "stream requests");
  if (s.statements > 0) std::cout << ", " << Plural(s.statements, "statement", "statements");
  std::cout << ", " << Plural(s.errors, "error", "errors") << "; sparse indexes: "
            << s.sparse_checked << " checked, " << s.sparse_checked - s.not_sparse << " sparse, "
            << s.not_sparse << " NOT SPARSE\n";
}

const char* AccessName(Access access) {
  switch (access) {
    case Access::kKeyCondition: return "KeyCondition";
    case Access::kKeyLookup: return "KeyLookup";
    case Access::kKeyWrite: return "KeyWrite";
    case Access::kScan: return "Scan";
    case Access::kStream: return "Stream";
    case Access::kStatement: return "Statement";
  }
  return "";
}

void PrintJson(const std::vector<PatternResult>& results,
               const std::vector<std::string>& without_patterns, const Summary& s) {
  rapidjson::StringBuffer buffer;
  rapidjson::PrettyWriter<rapidjson::StringBuffer> w(buffer);
  w.SetIndent(' ', 2);
  auto string = [&](const char* key, const std::string& value) {
    w.Key(key);
    w.String(value.data(), static_cast<rapidjson::SizeType>(value.size()));
  };
  auto units = [&](const char* key, const std::map<std::string, double>& by_name) {
    w.Key(key);
    w.StartObject();
    for (const auto& [name, value] : by_name) {
      w.Key(name.data(), static_cast<rapidjson::SizeType>(name.size()));
      w.Double(value);
    }
    w.EndObject();
  };
  w.StartObject();
  w.Key("Patterns");
  w.StartArray();
  for (const PatternResult& r : results) {
    w.StartObject();
    string("Model", r.pattern->model);
    string("Name", r.pattern->name);
    string("Operation", r.pattern->operation);
    if (!r.ok()) {
      string("Error", r.error);
      w.EndObject();
      continue;
    }
    string("Access", AccessName(r.access));
    string("Summary", AccessText(r));
    if (!r.table.empty()) string("TableName", r.table);
    if (!r.index.empty()) string("IndexName", r.index);
    w.Key("ReadUnits");
    w.Double(r.read_units);
    w.Key("WriteUnits");
    w.Double(r.write_units);
    units("TableUnits", r.table_units);
    units("IndexUnits", r.index_units);
    if (r.items_read) {
      w.Key("ItemsRead");
      w.Uint64(*r.items_read);
      w.Key("ItemsReturned");
      w.Uint64(r.items_returned.value_or(0));
    }
    w.Key("Pages");
    w.Int(r.pages);
    if (r.scan_total) {
      w.Key("ItemsInTable");  // of the index, for a Scan of one
      w.Uint64(*r.scan_total);
    }
    if (r.sparse) {
      w.Key("Sparse");
      w.StartObject();
      string("IndexName", r.sparse->index);
      w.Key("IndexItems");
      w.Uint64(r.sparse->index_items);
      w.Key("TableItems");
      w.Uint64(r.sparse->table_items);
      w.Key("IsSparse");
      w.Bool(r.sparse->sparse());
      w.EndObject();
    }
    w.EndObject();
  }
  w.EndArray();
  w.Key("ModelsWithoutPatterns");
  w.StartArray();
  for (const std::string& model : without_patterns) {
    w.String(model.data(), static_cast<rapidjson::SizeType>(model.size()));
  }
  w.EndArray();
  w.Key("Summary");
  w.StartObject();
  for (const auto& [key, value] :
       std::initializer_list<std::pair<const char*, int>>{
           {"Models", s.models}, {"Patterns", s.patterns}, {"KeyConditions", s.key_conditions},
           {"OnIndexes", s.on_indexes}, {"KeyLookups", s.key_lookups},
           {"KeyWrites", s.key_writes}, {"Scans", s.scans}, {"StreamRequests", s.streams},
           {"Statements", s.statements}, {"Errors", s.errors},
           {"SparseIndexesChecked", s.sparse_checked}, {"NotSparse", s.not_sparse}}) {
    w.Key(key);
    w.Int(value);
  }
  w.EndObject();
  w.EndObject();
  std::cout << buffer.GetString() << "\n";
}

// The running executable's path, whatever PATH lookup started it.
fs::path ExecutablePath(const char* argv0) {
#if defined(__APPLE__)
  char path[4096];
  uint32_t size = sizeof(path);
  if (_NSGetExecutablePath(path, &size) == 0) return path;
  return argv0;
#else
  (void)argv0;
  return "/proc/self/exe";
#endif
}

}  // namespace

// The places the server looks in at start for its models, in the same order.
std::string BuiltInModelsDir(const char* argv0) {
  std::error_code ec;
  fs::path exe = fs::canonical(ExecutablePath(argv0), ec);
  if (ec) exe = fs::absolute(argv0, ec);
  fs::path bin = exe.parent_path();
  for (const fs::path& candidate :
       {bin / ".." / "fixtures", bin / ".." / "share" / "localdynamo" / "fixtures",
        fs::path("/usr/share/localdynamo/fixtures"), fs::path("fixtures")}) {
    if (fs::is_directory(candidate, ec)) return fs::weakly_canonical(candidate, ec).string();
  }
  return "";
}

int RunModelsCheck(const ModelsCheckOptions& options) {
  const char* kWho = "localdynamo models --check: ";
  if (options.model_dirs.empty()) {
    std::cerr << kWho << "no models to check (give --models-dir DIR or --model DIR)\n";
    return 2;
  }
  for (const std::string& dir : options.model_dirs) {
    std::error_code ec;
    if (!fs::is_directory(dir, ec)) {
      std::cerr << kWho << dir << ": not a folder\n";
      return 2;
    }
  }
  auto models = emulator::Models::Read(options.model_dirs, /*with_items=*/true);
  std::vector<std::string> without_patterns;
  auto patterns = ReadAccessPatterns(options.model_dirs, &without_patterns);
  if (!models.ok() || !patterns.ok()) {
    std::cerr << kWho << (models.ok() ? patterns.error() : models.error()).message << "\n";
    return 2;
  }
  engine::ShiftableClock clock;
  engine::DatabaseOptions db_options;
  db_options.in_memory = true;
  auto opened = engine::Engine::Open(db_options, clock);
  if (!opened.ok()) {
    std::cerr << kWho << opened.status().message() << "\n";
    return 2;
  }
  std::unique_ptr<engine::Engine> engine = std::move(opened).value();
  // The server's own database: the default region's, as unsigned requests reach.
  api::Caller caller;
  caller.region = std::string(api::kDefaultRegion);
  caller.ns = api::NamespaceOf(api::DatabaseScope::kPerRegion, "", caller.region);
  emulator::Preloader preloader(std::move(models).value(), *engine);
  if (auto loaded = preloader.EnsureLoaded(caller); !loaded.ok()) {
    std::cerr << kWho << loaded.error().message << "\n";
    return 2;
  }
  CallFn call = [&](std::string_view target, std::string_view body) {
    api::Response response = api::Dispatch(*engine, caller, target, body);
    return std::pair<int, std::string>(response.http_status, std::move(response.body));
  };
  std::vector<PatternResult> results;
  std::vector<std::string> model_names;
  for (const AccessPattern& pattern : *patterns) {
    if (model_names.empty() || model_names.back() != pattern.model) {
      model_names.push_back(pattern.model);
    }
    results.push_back(RunPattern(pattern, call));
    if (IsReadOnly(pattern.operation)) continue;
    // The next pattern sees the sample items as loaded, not this one's writes.
    if (auto reloaded = preloader.ResetNamespace(caller, /*with_models=*/true); !reloaded.ok()) {
      std::cerr << kWho << "reloading the models: " << reloaded.error().message << "\n";
      return 2;
    }
  }
  Summary summary = Summarize(results, static_cast<int>(model_names.size() +
                                                        without_patterns.size()));
  if (options.json) {
    PrintJson(results, without_patterns, summary);
  } else {
    PrintText(results, without_patterns, summary);
  }
  return summary.errors > 0 ? 1 : 0;
}

}  // namespace ddb::cli
