// libFuzzer target: the PartiQL request path (ExecuteStatement,
// BatchExecuteStatement, ExecuteTransaction) through api::Dispatch against an
// in-memory database holding two small tables: "Fuzz" (pk S, sk N) with a
// global index "byG" (g S, n N; projects v) and a local index "byL" (pk, l
// S; keys only), and "Other" (pk S).
//
// The first byte picks the operation and the form of the rest:
//   0, 1, 2: the body of ExecuteStatement, BatchExecuteStatement or
//            ExecuteTransaction, as JSON;
//   3:       one statement's text, sent by ExecuteStatement;
//   4, 5:    statements' texts, one a line, sent by BatchExecuteStatement or
//            ExecuteTransaction;
// the texts of 3 to 5 carry kParameters (unused ones are ignored), so they
// reach the lexer, parser, parameter binding, planner and execution without
// JSON escaping in the way.
//
// Errors are expected. Crashes, hangs, sanitizer reports and these are not:
// an answer other than 200 or 400; a body that is not a JSON object in valid
// UTF-8; a 400 without __type; a 200 without its operation's shape (Items;
// Responses, one per statement of a batch and of a read transaction); any
// change after a 400 (a failed statement or transaction changes nothing); a
// change to a table (or its indexes) that the request never names. For the
// text forms, the statements are also parsed here as the server parses them:
// one the parser refuses never runs (a batch answers it with an Error), and
// statements that are all SELECTs change nothing. Tables that changed are
// put back as they were after each input, so state never grows, and the fake
// clock moves past the lifetime of ClientRequestTokens.
#include <rapidjson/document.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "api/attribute_json.h"
#include "api/dispatch.h"
#include "api/json_reader.h"
#include "engine/clock.h"
#include "engine/engine.h"
#include "engine/partiql/parser.h"
#include "tests/fuzz/request_path.h"

namespace {

using ddb::api::Caller;
using ddb::api::Dispatch;
using ddb::api::Response;

constexpr std::string_view kPrefix = "DynamoDB_20120810.";

// Parameters of the text forms: each type once, then some.
constexpr std::string_view kParameters =
    R"([{"S":"p1"},{"N":"1"},{"S":"x"},{"N":"2.5"},{"L":[{"N":"1"},{"S":"a"}]},)"
    R"({"M":{"a":{"S":"b"}}},{"SS":["a","b"]},{"NS":["1","2"]},{"B":"AAEC"},{"BOOL":true},)"
    R"({"NULL":true},{"BS":["AQ=="]}])";

// Everything a table holds, read through the engine: its items and each
// index's, in key order.
using Contents = std::vector<std::vector<ddb::engine::Item>>;

struct Table {
  std::string name;
  std::vector<std::string> key;      // key attribute names
  std::vector<std::string> indexes;  // index names
  std::vector<std::string> items;    // what it is loaded with, as JSON
  Contents contents;                 // what it holds between inputs
};

struct Fixture {
  ddb::engine::FakeClock clock;
  std::unique_ptr<ddb::engine::Engine> engine;
  Caller caller{.ns = "", .region = "us-east-1"};
  std::vector<Table> tables;

  Response Call(std::string_view op, std::string_view body) {
    return Dispatch(*engine, caller, std::string(kPrefix) + std::string(op), body);
  }
  void CallOk(std::string_view op, std::string_view body) {
    if (Call(op, body).http_status != 200) abort();
  }

  // Every page of a Scan of `table` (or of its `index`).
  std::vector<ddb::engine::Item> ScanAll(const std::string& table, const std::string& index) {
    std::vector<ddb::engine::Item> all;
    ddb::engine::ScanRequest scan;
    scan.index_name = index;
    do {
      auto page = engine->database().Scan(caller.ns, table, scan);
      if (!page.ok()) abort();
      for (auto& item : page->items) all.push_back(std::move(item));
      scan.exclusive_start_key = std::move(page->last_evaluated_key);
    } while (scan.exclusive_start_key);
    return all;
  }

  Contents Read(const Table& table) {
    Contents contents{ScanAll(table.name, "")};
    for (const std::string& index : table.indexes) contents.push_back(ScanAll(table.name, index));
    return contents;
  }

  // Loads `table` with its items (through PutItem) and remembers what it
  // then holds.
  void Load(Table& table) {
    for (const std::string& item : table.items) {
      CallOk("PutItem", R"({"TableName":")" + table.name + R"(","Item":)" + item + "}");
    }
    table.contents = Read(table);
  }

  // Puts `table` back as Load left it, writing only the items that differ.
  void Restore(const Table& table) {
    const std::vector<ddb::engine::Item>& before = table.contents.front();
    for (const ddb::engine::Item& item : ScanAll(table.name, "")) {
      if (std::find(before.begin(), before.end(), item) != before.end()) continue;
      ddb::engine::Item key;
      for (const std::string& name : table.key) key.emplace(name, item.at(name));
      if (!engine->database().DeleteItem(caller.ns, table.name, key).ok()) abort();
    }
    std::vector<ddb::engine::Item> now = ScanAll(table.name, "");
    for (const ddb::engine::Item& item : before) {
      if (std::find(now.begin(), now.end(), item) != now.end()) continue;
      if (!engine->database().PutItem(caller.ns, table.name, item).ok()) abort();
    }
  }
};

Fixture& Setup() {
  static Fixture* fixture = [] {
    auto* f = new Fixture;
    f->engine = ddb::fuzz::OpenInMemoryEngine(f->clock);
    f->CallOk("CreateTable", R"({"TableName":"Fuzz",
        "KeySchema":[{"AttributeName":"pk","KeyType":"HASH"},{"AttributeName":"sk","KeyType":"RANGE"}],
        "AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"},
                                {"AttributeName":"sk","AttributeType":"N"},
                                {"AttributeName":"g","AttributeType":"S"},
                                {"AttributeName":"n","AttributeType":"N"},
                                {"AttributeName":"l","AttributeType":"S"}],
        "GlobalSecondaryIndexes":[{"IndexName":"byG",
            "KeySchema":[{"AttributeName":"g","KeyType":"HASH"},{"AttributeName":"n","KeyType":"RANGE"}],
            "Projection":{"ProjectionType":"INCLUDE","NonKeyAttributes":["v"]}}],
        "LocalSecondaryIndexes":[{"IndexName":"byL",
            "KeySchema":[{"AttributeName":"pk","KeyType":"HASH"},{"AttributeName":"l","KeyType":"RANGE"}],
            "Projection":{"ProjectionType":"KEYS_ONLY"}}],
        "BillingMode":"PAY_PER_REQUEST"})");
    f->CallOk("CreateTable", R"({"TableName":"Other",
        "KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}],
        "AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"}],
        "BillingMode":"PAY_PER_REQUEST"})");
    Table fuzz{"Fuzz", {"pk", "sk"}, {"byG", "byL"}, {}, {}};
    for (int p = 0; p < 3; ++p) {
      for (int s = 1; s <= 2; ++s) {
        std::string pk = "p" + std::to_string(p);
        std::string sk = std::to_string(s);
        fuzz.items.push_back(
            R"({"pk":{"S":")" + pk + R"("},"sk":{"N":")" + sk + R"("},"g":{"S":"g)" +
            std::to_string((p + s) % 2) + R"("},"n":{"N":")" + std::to_string(p * 10 + s) +
            R"("},"l":{"S":"l)" + sk + R"("},"v":{"S":"v)" + pk + sk +
            R"("},"m":{"M":{"a":{"L":[{"N":"1"},{"M":{"b":{"S":"x"}}}]},"c":{"BOOL":true}}},)"
            R"("ss":{"SS":["a","b"]},"ns":{"NS":["1","2"]},"z":{"NULL":true}})");
      }
    }
    fuzz.items.push_back(R"({"pk":{"S":"p1"},"sk":{"N":"3"},"b":{"B":"AAEC"},"t":{"N":"-1.5"}})");
    Table other{"Other", {"pk"}, {}, {}, {}};
    other.items = {R"({"pk":{"S":"p1"},"v":{"S":"o1"},"n":{"N":"1"}})",
                   R"({"pk":{"S":"x"},"l":{"L":[{"S":"a"},{"N":"2"}]}})"};
    f->tables = {std::move(fuzz), std::move(other)};
    for (Table& table : f->tables) f->Load(table);
    return f;
  }();
  return *fixture;
}

// kParameters as values, to parse the text forms' statements as the server
// will.
const std::vector<ddb::engine::AttributeValue>& Parameters() {
  static const auto* parameters = [] {
    auto* values = new std::vector<ddb::engine::AttributeValue>;
    rapidjson::Document doc;
    doc.Parse(kParameters.data(), kParameters.size());
    for (const auto& element : doc.GetArray()) {
      auto value = ddb::api::ParseAttributeValue(element);
      if (!value.ok()) abort();
      values->push_back(std::move(value).value());
    }
    return values;
  }();
  return *parameters;
}

enum class Kind { kMalformed, kRead, kWrite };

Kind KindOf(std::string_view text) {
  auto statement = ddb::engine::partiql::ParseStatement(text, Parameters());
  if (!statement.ok()) return Kind::kMalformed;
  return ddb::engine::partiql::IsRead(*statement) ? Kind::kRead : Kind::kWrite;
}

std::string StatementJson(std::string_view text) {
  return R"({"Statement":)" + ddb::fuzz::JsonString(text) + R"(,"Parameters":)" + std::string(kParameters) +
         "}";
}

std::vector<std::string_view> Lines(std::string_view text) {
  std::vector<std::string_view> lines;
  while (true) {
    size_t end = text.find('\n');
    lines.push_back(text.substr(0, end));
    if (end == std::string_view::npos) return lines;
    text.remove_prefix(end + 1);
  }
}

// Every string of `value`, names included, appended to `out`.
void CollectStrings(const rapidjson::Value& value, std::string* out) {
  if (value.IsString()) {
    out->append(value.GetString(), value.GetStringLength());
    out->push_back('\n');
  } else if (value.IsArray()) {
    for (const auto& element : value.GetArray()) CollectStrings(element, out);
  } else if (value.IsObject()) {
    for (const auto& member : value.GetObject()) {
      CollectStrings(member.name, out);
      CollectStrings(member.value, out);
    }
  }
}

// How many statements a batch or transaction body lists; -1 when it does not.
int StatementCount(const rapidjson::Document& request, const char* member) {
  if (!request.IsObject()) return -1;
  auto list = request.FindMember(member);
  if (list == request.MemberEnd() || !list->value.IsArray()) return -1;
  return static_cast<int>(list->value.Size());
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  Fixture& f = Setup();
  static constexpr std::array<std::string_view, 3> kOps = {
      "ExecuteStatement", "BatchExecuteStatement", "ExecuteTransaction"};
  static constexpr std::array<const char*, 3> kLists = {nullptr, "Statements",
                                                        "TransactStatements"};
  unsigned choice = data[0] % 6;
  std::string_view rest(reinterpret_cast<const char*>(data) + 1, size - 1);
  unsigned op = choice % 3;
  std::string body;
  std::vector<Kind> kinds;  // of the text forms' statements, as the parser sees them
  if (choice < 3) {
    body = rest;
  } else if (choice == 3) {
    body = StatementJson(rest);
    kinds.push_back(KindOf(rest));
  } else {
    body = std::string("{\"") + kLists[op] + "\":[";
    std::vector<std::string_view> lines = Lines(rest);
    for (size_t i = 0; i < lines.size(); ++i) {
      body += (i ? "," : "") + StatementJson(lines[i]);
      kinds.push_back(KindOf(lines[i]));
    }
    body += "]}";
  }
  bool any_malformed = std::find(kinds.begin(), kinds.end(), Kind::kMalformed) != kinds.end();
  bool all_reads = !kinds.empty() && std::all_of(kinds.begin(), kinds.end(),
                                                 [](Kind kind) { return kind == Kind::kRead; });

  // The request as the server reads it: which tables it names, and how many
  // statements a batch or transaction holds.
  rapidjson::Document request;
  std::string named;
  int statements = -1;
  if (ddb::api::ParseUntrustedJson(body, request)) {
    CollectStrings(request, &named);
    if (op != 0) statements = StatementCount(request, kLists[op]);
  }

  Response response = f.Call(kOps[op], body);
  if (response.http_status != 200 && response.http_status != 400) abort();
  rapidjson::Document doc;
  doc.Parse<rapidjson::kParseValidateEncodingFlag>(response.body.c_str(), response.body.size());
  if (doc.HasParseError() || !doc.IsObject()) abort();
  if (response.http_status == 400) {
    if (!doc.HasMember("__type") || !doc["__type"].IsString()) abort();
  } else if (any_malformed && op != 1) {
    abort();  // a statement the parser refuses ran
  } else if (op == 0) {
    if (!doc.HasMember("Items") || !doc["Items"].IsArray()) abort();
  } else {
    if (!doc.HasMember("Responses") || !doc["Responses"].IsArray()) abort();
    const auto& responses = doc["Responses"];
    for (const auto& entry : responses.GetArray()) {
      if (!entry.IsObject()) abort();
    }
    // A batch answers each statement; a transaction each read (writes: none).
    size_t answered = responses.Size();
    if (op == 1 && static_cast<int>(answered) != statements) abort();
    if (op == 2 && answered != 0 && static_cast<int>(answered) != statements) abort();
    // A batch answers a statement the parser refuses with its Error.
    for (size_t i = 0; i < kinds.size() && i < answered; ++i) {
      if (kinds[i] == Kind::kMalformed && !responses[i].HasMember("Error")) abort();
    }
  }

  for (const Table& table : f.tables) {
    if (f.Read(table) == table.contents) continue;
    if (response.http_status != 200 || all_reads) abort();    // a failure or a read changed it
    if (named.find(table.name) == std::string::npos) abort();  // never named
    f.Restore(table);
    if (f.Read(table) != table.contents) abort();
  }
  // ClientRequestTokens expire (10 minutes), so inputs do not see each other's.
  f.clock.Advance(11 * 60 * 1000);
  return 0;
}
