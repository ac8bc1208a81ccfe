#include "cli/models_check.h"

#include <rapidjson/document.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "api/json_reader.h"
#include "cli/data_transfer.h"

namespace ddb::cli {
namespace {

namespace fs = std::filesystem;
using api::View;

constexpr std::string_view kDynamoTarget = "DynamoDB_20120810.";
constexpr std::string_view kStreamsTarget = "DynamoDBStreams_20120810.";
constexpr std::string_view kPatternsFile = "access-patterns.json";
// A paged pattern on a runaway table stops here rather than never.
constexpr int kMaxPages = 10000;

bool IsModelFolder(const fs::path& dir) {
  std::error_code ec;
  return fs::is_directory(dir / "tables", ec);
}

// The model folders `dirs` name, as emulator::Models::Read finds them.
std::vector<fs::path> ModelFolders(const std::vector<std::string>& dirs) {
  std::vector<fs::path> models;
  for (const std::string& dir : dirs) {
    if (IsModelFolder(dir)) {
      models.emplace_back(dir);
      continue;
    }
    std::vector<fs::path> subs;
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(dir, ec)) subs.push_back(entry.path());
    std::sort(subs.begin(), subs.end());
    for (const fs::path& sub : subs) {
      if (IsModelFolder(sub)) models.push_back(sub);
    }
  }
  return models;
}

std::string Render(const rapidjson::Value& value) {
  rapidjson::StringBuffer buffer;
  rapidjson::Writer<rapidjson::StringBuffer> w(buffer);
  value.Accept(w);
  return std::string(buffer.GetString(), buffer.GetSize());
}

std::string StringMember(const rapidjson::Value& object, const char* name) {
  auto it = object.FindMember(name);
  return it != object.MemberEnd() && it->value.IsString() ? std::string(View(it->value)) : "";
}

AccessPattern ReadEntry(const std::string& model, const std::string& where,
                        const rapidjson::Value& entry) {
  AccessPattern pattern;
  pattern.model = model;
  if (!entry.IsObject()) {
    pattern.problem = where + ": not an object";
    return pattern;
  }
  pattern.name = StringMember(entry, "Name");
  pattern.description = StringMember(entry, "Description");
  pattern.operation = StringMember(entry, "Operation");
  pattern.sparse_index = StringMember(entry, "SparseIndex");
  auto all_pages = entry.FindMember("AllPages");
  pattern.all_pages = all_pages != entry.MemberEnd() && all_pages->value.IsTrue();
  auto request = entry.FindMember("Request");
  if (pattern.name.empty()) {
    pattern.name = where;
    pattern.problem = where + ": no Name";
  } else if (pattern.operation.empty()) {
    pattern.problem = where + ": no Operation";
  } else if (request == entry.MemberEnd() || !request->value.IsObject()) {
    pattern.problem = where + ": no Request object";
  } else {
    pattern.request = Render(request->value);
  }
  return pattern;
}

// The tables a request names: TableName, RequestItems' and TransactItems'.
std::vector<std::string> TablesOf(const rapidjson::Value& request) {
  std::vector<std::string> tables;
  auto add = [&](const std::string& name) {
    if (!name.empty() && std::find(tables.begin(), tables.end(), name) == tables.end()) {
      tables.push_back(name);
    }
  };
  add(StringMember(request, "TableName"));
  auto items = request.FindMember("RequestItems");
  if (items != request.MemberEnd() && items->value.IsObject()) {
    for (const auto& table : items->value.GetObject()) add(std::string(View(table.name)));
  }
  auto transact = request.FindMember("TransactItems");
  if (transact != request.MemberEnd() && transact->value.IsArray()) {
    for (const auto& action : transact->value.GetArray()) {
      if (!action.IsObject()) continue;
      for (const auto& kind : action.GetObject()) {
        if (kind.value.IsObject()) add(StringMember(kind.value, "TableName"));
      }
    }
  }
  return tables;
}

bool IsStreamsOperation(std::string_view operation) {
  return operation == "ListStreams" || operation == "DescribeStream" ||
         operation == "GetShardIterator" || operation == "GetRecords";
}

Access AccessOf(std::string_view operation) {
  if (operation == "Query") return Access::kKeyCondition;
  if (operation == "Scan") return Access::kScan;
  if (IsStreamsOperation(operation)) return Access::kStream;
  if (operation == "ExecuteStatement" || operation == "BatchExecuteStatement" ||
      operation == "ExecuteTransaction") {
    return Access::kStatement;
  }
  return IsReadOnly(operation) ? Access::kKeyLookup : Access::kKeyWrite;
}

double Number(const rapidjson::Value& object, const char* name) {
  auto it = object.FindMember(name);
  return it != object.MemberEnd() && it->value.IsNumber() ? it->value.GetDouble() : 0;
}

// Adds one answer's ConsumedCapacity (an object, or a list of them) to
// `result`: a part is a read unless it says it is a write (transactions
// split them) or the operation writes.
void AddCapacity(const rapidjson::Value& answer, bool writes, PatternResult& result) {
  auto consumed = answer.FindMember("ConsumedCapacity");
  if (consumed == answer.MemberEnd()) return;
  auto add_one = [&](const rapidjson::Value& c) {
    if (!c.IsObject()) return;
    bool write = c.HasMember("WriteCapacityUnits") ||
                 (writes && !c.HasMember("ReadCapacityUnits"));
    (write ? result.write_units : result.read_units) += Number(c, "CapacityUnits");
    std::string table = StringMember(c, "TableName");
    auto part = c.FindMember("Table");
    if (part != c.MemberEnd() && part->value.IsObject()) {
      result.table_units[table] += Number(part->value, "CapacityUnits");
    }
    for (const char* kind : {"GlobalSecondaryIndexes", "LocalSecondaryIndexes"}) {
      auto indexes = c.FindMember(kind);
      if (indexes == c.MemberEnd() || !indexes->value.IsObject()) continue;
      for (const auto& index : indexes->value.GetObject()) {
        if (!index.value.IsObject()) continue;
        result.index_units[std::string(View(index.name))] +=
            Number(index.value, "CapacityUnits");
      }
    }
  };
  if (consumed->value.IsArray()) {
    for (const auto& c : consumed->value.GetArray()) add_one(c);
  } else {
    add_one(consumed->value);
  }
}

uint64_t Count(const rapidjson::Value& answer, const char* name) {
  auto it = answer.FindMember(name);
  return it != answer.MemberEnd() && it->value.IsUint64() ? it->value.GetUint64() : 0;
}

// The items a key lookup found: GetItem's Item, BatchGetItem's Responses,
// TransactGetItems' Responses that hold one.
uint64_t ItemsFound(std::string_view operation, const rapidjson::Value& answer) {
  if (operation == "GetItem") return answer.HasMember("Item") ? 1 : 0;
  auto responses = answer.FindMember("Responses");
  if (responses == answer.MemberEnd()) return 0;
  uint64_t found = 0;
  if (responses->value.IsObject()) {  // BatchGetItem: table -> items
    for (const auto& table : responses->value.GetObject()) {
      if (table.value.IsArray()) found += table.value.Size();
    }
  } else if (responses->value.IsArray()) {  // TransactGetItems: one per Get
    for (const auto& response : responses->value.GetArray()) {
      if (response.IsObject() && response.HasMember("Item")) ++found;
    }
  }
  return found;
}

// The ItemCount DescribeTable reports for the table, or for its index
// `index` when given; nullopt with `*error` set when it cannot tell.
std::optional<uint64_t> DescribedCount(const CallFn& call, const std::string& table,
                                       const std::string& index, std::string* error) {
  auto [status, body] =
      call(std::string(kDynamoTarget) + "DescribeTable", TableNameBody(table));
  if (status != 200) {
    *error = "DescribeTable " + table + ": " + DescribeErrorBody(body);
    return std::nullopt;
  }
  rapidjson::Document doc;
  doc.Parse(body.data(), body.size());
  if (doc.HasParseError() || !doc.IsObject() || !doc.HasMember("Table") ||
      !doc["Table"].IsObject()) {
    *error = "DescribeTable " + table + ": not a table description";
    return std::nullopt;
  }
  const rapidjson::Value& described = doc["Table"];
  if (index.empty()) return Count(described, "ItemCount");
  for (const char* kind : {"GlobalSecondaryIndexes", "LocalSecondaryIndexes"}) {
    auto indexes = described.FindMember(kind);
    if (indexes == described.MemberEnd() || !indexes->value.IsArray()) continue;
    for (const auto& candidate : indexes->value.GetArray()) {
      if (candidate.IsObject() && StringMember(candidate, "IndexName") == index) {
        return Count(candidate, "ItemCount");
      }
    }
  }
  *error = "table " + table + " has no index " + index;
  return std::nullopt;
}

// The sparse index's verdict: the first table the request names that has
// the index.
void CheckSparse(const CallFn& call, const std::vector<std::string>& tables,
                 PatternResult& result) {
  const std::string& index = result.pattern->sparse_index;
  std::string error;
  for (const std::string& table : tables) {
    std::string not_here;
    auto index_items = DescribedCount(call, table, index, &not_here);
    if (!index_items) {
      if (error.empty()) error = not_here;
      continue;
    }
    auto table_items = DescribedCount(call, table, "", &error);
    if (!table_items) break;
    result.sparse = SparseVerdict{index, *index_items, *table_items};
    return;
  }
  result.error = "SparseIndex " + index + ": " +
                 (error.empty() ? "the request names no table" : error);
}

}  // namespace

bool IsReadOnly(std::string_view operation) {
  return operation == "GetItem" || operation == "BatchGetItem" || operation == "Query" ||
         operation == "Scan" || operation == "TransactGetItems" ||
         IsStreamsOperation(operation);
}

api::ApiResult<std::vector<AccessPattern>> ReadAccessPatterns(
    const std::vector<std::string>& dirs, std::vector<std::string>* without_patterns) {
  std::vector<AccessPattern> patterns;
  for (const fs::path& folder : ModelFolders(dirs)) {
    std::string model = folder.filename().string();
    if (model.empty()) model = folder.parent_path().filename().string();  // "dir/"
    fs::path file = folder / kPatternsFile;
    std::ifstream in(file, std::ios::binary);
    if (!in) {
      without_patterns->push_back(model);
      continue;
    }
    std::stringstream text;
    text << in.rdbuf();
    std::string json = text.str();
    rapidjson::Document doc;
    doc.Parse(json.data(), json.size());
    if (doc.HasParseError() || !doc.IsArray()) {
      return api::ApiError::Validation(file.string() +
                                       ": not a JSON list of access patterns (fixtures/README.md)");
    }
    std::set<std::string> names;
    int number = 0;
    for (const auto& entry : doc.GetArray()) {
      ++number;
      AccessPattern pattern =
          ReadEntry(model, file.string() + ": pattern " + std::to_string(number), entry);
      if (pattern.problem.empty() && !names.insert(pattern.name).second) {
        pattern.problem = file.string() + ": pattern " + std::to_string(number) +
                          ": the name " + pattern.name + " is used twice";
      }
      patterns.push_back(std::move(pattern));
    }
  }
  return patterns;
}

PatternResult RunPattern(const AccessPattern& pattern, const CallFn& call) {
  PatternResult result;
  result.pattern = &pattern;
  result.access = AccessOf(pattern.operation);
  if (!pattern.problem.empty()) {
    result.error = pattern.problem;
    return result;
  }
  rapidjson::Document request;
  request.Parse(pattern.request.data(), pattern.request.size());
  std::vector<std::string> tables = TablesOf(request);
  if (!tables.empty()) result.table = tables.front();
  result.index = StringMember(request, "IndexName");
  bool streams = IsStreamsOperation(pattern.operation);
  if (!streams) {
    // What a client asks for to see the table's and each index's units.
    request.RemoveMember("ReturnConsumedCapacity");
    request.AddMember("ReturnConsumedCapacity", "INDEXES", request.GetAllocator());
  }
  if (result.access == Access::kScan && !result.table.empty()) {
    std::string error;
    result.scan_total = DescribedCount(call, result.table, result.index, &error);
    if (!result.scan_total) {
      result.error = error;
      return result;
    }
  }
  std::string target =
      std::string(streams ? kStreamsTarget : kDynamoTarget) + pattern.operation;
  bool counts = result.access == Access::kKeyCondition || result.access == Access::kScan;
  bool lookup = result.access == Access::kKeyLookup;
  bool writes = !IsReadOnly(pattern.operation);
  for (;;) {
    auto [status, body] = call(target, Render(request));
    ++result.pages;
    if (status != 200) {
      result.error = DescribeErrorBody(body);
      return result;
    }
    rapidjson::Document answer;
    answer.Parse(body.data(), body.size());
    if (answer.HasParseError() || !answer.IsObject()) {
      result.error = "the answer is not a JSON object";
      return result;
    }
    AddCapacity(answer, writes, result);
    if (counts) {
      result.items_read = result.items_read.value_or(0) + Count(answer, "ScannedCount");
      result.items_returned = result.items_returned.value_or(0) + Count(answer, "Count");
    } else if (lookup) {
      uint64_t found = ItemsFound(pattern.operation, answer);
      result.items_read = result.items_read.value_or(0) + found;
      result.items_returned = result.items_returned.value_or(0) + found;
    }
    auto last = answer.FindMember("LastEvaluatedKey");
    if (!pattern.all_pages || last == answer.MemberEnd() || result.pages >= kMaxPages) break;
    rapidjson::Value start(last->value, request.GetAllocator());
    request.RemoveMember("ExclusiveStartKey");
    request.AddMember("ExclusiveStartKey", start, request.GetAllocator());
  }
  if (!pattern.sparse_index.empty()) CheckSparse(call, tables, result);
  return result;
}

}  // namespace ddb::cli
