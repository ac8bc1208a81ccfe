#include "emulator/request_shape.h"

#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include "api/json_reader.h"

namespace ddb::emulator {
namespace {

constexpr std::string_view kTransactActions[] = {"Put", "Update", "Delete", "ConditionCheck", "Get"};

std::string StringMember(const rapidjson::Value& object, const char* name) {
  if (!object.IsObject()) return "";
  auto it = object.FindMember(name);
  if (it == object.MemberEnd() || !it->value.IsString()) return "";
  return api::TableNameFromArn(api::View(it->value));
}

// The table of one TransactItems element ("" when malformed: validation
// then answers for it).
std::string ActionTable(const rapidjson::Value& action) {
  if (!action.IsObject()) return "";
  for (std::string_view name : kTransactActions) {
    auto it = action.FindMember(rapidjson::StringRef(name.data(), name.size()));
    if (it != action.MemberEnd()) return StringMember(it->value, "TableName");
  }
  return "";
}

}  // namespace

std::string ToJson(const rapidjson::Value& value) {
  rapidjson::StringBuffer buffer;
  rapidjson::Writer<rapidjson::StringBuffer> writer(buffer);
  value.Accept(writer);
  return std::string(buffer.GetString(), buffer.GetSize());
}

RequestShape ShapeOf(std::string_view target, const rapidjson::Value& body) {
  RequestShape shape;
  size_t dot = target.find('.');
  shape.operation = std::string(dot == std::string_view::npos ? target : target.substr(dot + 1));
  const std::string& op = shape.operation;
  shape.batch = op == "BatchWriteItem" || op == "BatchGetItem";
  shape.transaction = op == "TransactWriteItems" || op == "TransactGetItems";
  shape.reads = op == "GetItem" || op == "BatchGetItem" || op == "Query" || op == "Scan" ||
                op == "TransactGetItems";
  shape.consumes = shape.reads || op == "PutItem" || op == "UpdateItem" || op == "DeleteItem" ||
                   op == "BatchWriteItem" || op == "TransactWriteItems";
  if (!body.IsObject()) return shape;
  if (shape.batch) {
    auto items = body.FindMember("RequestItems");
    if (items != body.MemberEnd() && items->value.IsObject()) {
      for (const auto& member : items->value.GetObject()) {
        shape.tables.push_back(api::TableNameFromArn(api::View(member.name)));
      }
    }
  } else if (shape.transaction) {
    auto items = body.FindMember("TransactItems");
    if (items != body.MemberEnd() && items->value.IsArray()) {
      for (const auto& action : items->value.GetArray()) shape.tables.push_back(ActionTable(action));
    }
  } else if (std::string table = StringMember(body, "TableName"); !table.empty()) {
    shape.tables.push_back(std::move(table));
  }
  shape.index = StringMember(body, "IndexName");
  return shape;
}

api::Response DispatchHoldingBack(engine::Engine& engine, const api::Caller& caller,
                                  std::string_view target, rapidjson::Document& body,
                                  const std::map<std::string, size_t>& kept) {
  bool writes = target.ends_with("BatchWriteItem");
  const char* unprocessed_name = writes ? "UnprocessedItems" : "UnprocessedKeys";
  auto& alloc = body.GetAllocator();
  rapidjson::Value unprocessed(rapidjson::kObjectType);
  // A table's requests: BatchWriteItem's list, or BatchGetItem's "Keys".
  auto requests_of = [writes](rapidjson::Value& entry) -> rapidjson::Value* {
    if (writes) return entry.IsArray() ? &entry : nullptr;
    if (!entry.IsObject()) return nullptr;
    auto keys = entry.FindMember("Keys");
    return keys != entry.MemberEnd() && keys->value.IsArray() ? &keys->value : nullptr;
  };
  auto items = body.FindMember("RequestItems");
  if (items != body.MemberEnd() && items->value.IsObject()) {
    for (auto it = items->value.MemberBegin(); it != items->value.MemberEnd();) {
      auto found = kept.find(api::TableNameFromArn(api::View(it->name)));
      rapidjson::Value* requests = requests_of(it->value);
      if (found == kept.end() || (found->second > 0 && (!requests || found->second >= requests->Size()))) {
        ++it;  // runs whole
        continue;
      }
      if (found->second == 0) {  // held back whole
        unprocessed.AddMember(rapidjson::Value(it->name, alloc), rapidjson::Value(it->value, alloc),
                              alloc);
        it = items->value.EraseMember(it);
        continue;
      }
      // The first requests run, the rest are left unprocessed (with the
      // table's other members, such as a BatchGetItem's projection).
      rapidjson::Value rest(it->value, alloc);
      rapidjson::Value* rest_requests = requests_of(rest);
      rest_requests->Erase(rest_requests->Begin(), rest_requests->Begin() + found->second);
      requests->Erase(requests->Begin() + found->second, requests->End());
      unprocessed.AddMember(rapidjson::Value(it->name, alloc), rest, alloc);
      ++it;
    }
  }
  rapidjson::Document answer;
  if (items != body.MemberEnd() && items->value.IsObject() && items->value.MemberCount() == 0) {
    // Everything held back: nothing runs.
    answer.SetObject();
    if (!writes) answer.AddMember("Responses", rapidjson::Value(rapidjson::kObjectType), answer.GetAllocator());
  } else {
    api::Response ran = api::Dispatch(engine, caller, target, ToJson(body));
    if (ran.http_status != 200 || unprocessed.MemberCount() == 0) return ran;
    answer.Parse(ran.body.data(), ran.body.size());
    if (answer.HasParseError() || !answer.IsObject()) return ran;
  }
  auto& out = answer.GetAllocator();
  auto existing = answer.FindMember(unprocessed_name);
  if (existing == answer.MemberEnd()) {
    answer.AddMember(rapidjson::StringRef(unprocessed_name), rapidjson::Value(rapidjson::kObjectType), out);
    existing = answer.FindMember(unprocessed_name);
  }
  for (auto& member : unprocessed.GetObject()) {
    existing->value.AddMember(rapidjson::Value(member.name, out), rapidjson::Value(member.value, out),
                              out);
  }
  return {200, ToJson(answer)};
}

api::Response CancelTransaction(const rapidjson::Value& body, const std::set<std::string>& hit,
                                const std::string& code, const std::string& message) {
  std::vector<api::CancellationReason> reasons;
  auto items = body.FindMember("TransactItems");
  if (items != body.MemberEnd() && items->value.IsArray()) {
    for (const auto& action : items->value.GetArray()) {
      reasons.push_back(hit.count(ActionTable(action))
                            ? api::CancellationReason::Injected(code, message)
                            : api::CancellationReason::None());
    }
  }
  api::ApiError error = api::ApiError::TransactionCanceled(std::move(reasons));
  return {error.http_status, api::RenderError(error)};
}

}  // namespace ddb::emulator
