#include "emulator/models.h"

#include <rapidjson/document.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "api/database_scope.h"
#include "api/dispatch.h"
#include "api/json_reader.h"

namespace ddb::emulator {

using api::ApiError;
using api::ApiResult;
using api::Caller;
using api::Dispatch;
using api::JsonWriter;
using api::Response;
using api::View;
using api::WriteString;

namespace {

namespace fs = std::filesystem;

constexpr std::string_view kTarget = "DynamoDB_20120810.";

ApiError Problem(const std::string& where, const std::string& what) {
  return ApiError::Validation(where + ": " + what);
}

std::optional<std::string> ReadFile(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// The JSON string literal of `text`.
std::string Quoted(std::string_view text) {
  rapidjson::StringBuffer buffer;
  JsonWriter w(buffer);
  WriteString(w, text);
  return buffer.GetString();
}

std::vector<fs::path> Sorted(const fs::path& dir) {
  std::vector<fs::path> entries;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(dir, ec)) entries.push_back(entry.path());
  std::sort(entries.begin(), entries.end());
  return entries;
}

// "<__type short name>: <message>" of an error response.
std::string Describe(const Response& response) {
  rapidjson::Document doc;
  doc.Parse(response.body.data(), response.body.size());
  if (doc.HasParseError() || !doc.IsObject()) return response.body;
  std::string type = doc.HasMember("__type") && doc["__type"].IsString()
                         ? std::string(View(doc["__type"]))
                         : "error";
  type = type.substr(type.find('#') + 1);
  for (const char* member : {"message", "Message"}) {
    if (doc.HasMember(member) && doc[member].IsString()) {
      return type + ": " + std::string(View(doc[member]));
    }
  }
  return type;
}

size_t CountIndexes(const std::string& create_body) {
  rapidjson::Document doc;
  doc.Parse(create_body.data(), create_body.size());
  size_t count = 0;
  for (const char* member : {"GlobalSecondaryIndexes", "LocalSecondaryIndexes"}) {
    if (doc.IsObject() && doc.HasMember(member) && doc[member].IsArray()) {
      count += doc[member].Size();
    }
  }
  return count;
}

bool IsModel(const fs::path& dir) {
  std::error_code ec;
  return fs::is_directory(dir / "tables", ec);
}

}  // namespace

ApiResult<Models> Models::Read(const std::vector<std::string>& dirs, bool with_items) {
  std::vector<fs::path> models;
  for (const std::string& dir : dirs) {
    std::error_code ec;
    if (!fs::is_directory(dir, ec)) return Problem(dir, "not a folder");
    if (IsModel(dir)) {
      models.emplace_back(dir);
      continue;
    }
    for (const fs::path& sub : Sorted(dir)) {
      if (IsModel(sub)) models.push_back(sub);
    }
  }
  Models result;
  std::set<std::string> names;
  for (const fs::path& model : models) {
    std::set<std::string> model_tables;
    for (const fs::path& file : Sorted(model / "tables")) {
      std::string filename = file.filename().string();
      if (file.extension() != ".json" || filename.ends_with(".ttl.json")) continue;
      auto text = ReadFile(file);
      if (!text) return Problem(file.string(), "cannot be read");
      rapidjson::Document doc;
      doc.Parse(text->data(), text->size());
      if (doc.HasParseError() || !doc.IsObject() || !doc.HasMember("TableName") ||
          !doc["TableName"].IsString()) {
        return Problem(file.string(), "not a CreateTable request (a JSON object with TableName)");
      }
      Table table;
      table.name = std::string(View(doc["TableName"]));
      if (!names.insert(table.name).second) {
        return Problem(file.string(), "table " + table.name + " is defined twice");
      }
      model_tables.insert(table.name);
      table.create = {file.string(), std::move(*text)};
      fs::path ttl = file.parent_path() / (file.stem().string() + ".ttl.json");
      if (auto ttl_text = ReadFile(ttl)) table.ttl.push_back({ttl.string(), std::move(*ttl_text)});
      fs::path items = model / "items" / (table.name + ".jsonl");
      std::ifstream in(items);
      std::string line;
      for (int number = 1; with_items && in && std::getline(in, line); ++number) {
        std::string_view trimmed = line;
        while (!trimmed.empty() && std::isspace(static_cast<unsigned char>(trimmed.front()))) {
          trimmed.remove_prefix(1);
        }
        if (trimmed.empty() || trimmed.starts_with("//")) continue;
        std::string where = items.string() + ":" + std::to_string(number);
        rapidjson::Document item;
        item.Parse(line.data(), line.size());
        if (item.HasParseError() || !item.IsObject()) {
          return Problem(where, "not an item in DynamoDB JSON ({\"attr\": {\"S\": \"…\"}, …})");
        }
        table.items.push_back(
            {where, "{\"TableName\":" + Quoted(table.name) + ",\"Item\":" + line + "}"});
      }
      result.tables_.push_back(std::move(table));
    }
    for (const fs::path& items : Sorted(model / "items")) {
      if (items.extension() == ".jsonl" && !model_tables.count(items.stem().string())) {
        return Problem(items.string(), "no tables/" + items.stem().string() + ".json defines it");
      }
    }
  }
  return result;
}

ApiResult<LoadSummary> Models::LoadInto(engine::Engine& engine, const Caller& caller) const {
  LoadSummary summary;
  auto call = [&](std::string_view operation, const Request& request) -> std::optional<ApiError> {
    Response response = Dispatch(engine, caller, std::string(kTarget) + std::string(operation),
                                 request.body);
    if (response.http_status == 200) return std::nullopt;
    return Problem(request.source, Describe(response));
  };
  for (const Table& table : tables_) {
    if (engine.database().DescribeTable(caller.ns, table.name).ok()) {
      ++summary.existing;
      continue;
    }
    if (auto error = call("CreateTable", table.create)) return *error;
    ++summary.tables;
    summary.indexes += static_cast<int>(CountIndexes(table.create.body));
    for (const Request& ttl : table.ttl) {
      if (auto error = call("UpdateTimeToLive", ttl)) return *error;
    }
    for (const Request& item : table.items) {
      if (auto error = call("PutItem", item)) return *error;
      ++summary.items;
    }
  }
  return summary;
}

ApiResult<std::optional<LoadSummary>> Preloader::EnsureLoaded(const Caller& caller) {
  {
    std::shared_lock check(mu_);
    if (loaded_.count(caller.ns)) return std::optional<LoadSummary>();
  }
  std::unique_lock lock(mu_);
  if (loaded_.count(caller.ns)) return std::optional<LoadSummary>();
  auto summary = models_.LoadInto(engine_, caller);
  if (!summary.ok()) return summary.take_error();
  loaded_.insert(caller.ns);
  return std::optional<LoadSummary>(*summary);
}

ApiResult<LoadSummary> Preloader::Reset() {
  std::unique_lock lock(mu_);
  auto reset = engine_.snapshots().Reset();
  if (!reset.ok()) return reset;
  loaded_.clear();
  Caller shared;
  shared.region = std::string(api::kDefaultRegion);
  auto summary = models_.LoadInto(engine_, shared);
  if (!summary.ok()) return summary.take_error();
  loaded_.insert(shared.ns);
  return *summary;
}

Caller CallerOfNamespace(std::string_view ns) {
  Caller caller;
  caller.ns = std::string(ns);
  caller.region = api::RegionOfNamespace(ns);
  // A per-key database's namespace names its key before the region.
  if (auto slash = ns.find('/'); slash != std::string_view::npos) {
    caller.scope = api::DatabaseScope::kPerKeyAndRegion;
    caller.access_key = std::string(ns.substr(0, slash));
  }
  return caller;
}

ApiResult<LoadSummary> Preloader::ResetNamespace(const Caller& caller, bool with_models) {
  std::unique_lock lock(mu_);
  auto dropped = engine_.snapshots().DropNamespace(caller.ns);
  if (!dropped.ok()) return dropped;
  loaded_.insert(caller.ns);
  if (!with_models) return LoadSummary{};
  return models_.LoadInto(engine_, caller);
}

std::set<std::string, std::less<>> Preloader::Loaded() {
  std::shared_lock lock(mu_);
  return loaded_;
}

void Preloader::SetLoaded(std::set<std::string, std::less<>> namespaces) {
  std::unique_lock lock(mu_);
  loaded_ = std::move(namespaces);
}

void Preloader::MarkLoaded(std::string_view ns) {
  std::unique_lock lock(mu_);
  loaded_.emplace(ns);
}

}  // namespace ddb::emulator
