#include "emulator/request_controls.h"

#include <algorithm>
#include <map>
#include <set>

#include "api/attribute_json.h"
#include "api/capacity.h"
#include "api/json_reader.h"
#include "engine/attribute_value.h"

namespace ddb::emulator {
namespace {

api::Response ErrorResponse(const api::ApiError& error) {
  return {error.http_status, api::RenderError(error)};
}

// The tables of `shape` a fault hits: those it names, or all.
std::set<std::string> HitTables(const RequestShape& shape, const Fault& fault) {
  std::set<std::string> hit;
  for (const auto& table : shape.tables) {
    if (fault.tables.empty() ||
        std::find(fault.tables.begin(), fault.tables.end(), table) != fault.tables.end()) {
      hit.insert(table);
    }
  }
  return hit;
}

api::Response InjectError(engine::Engine& engine, const api::Caller& caller,
                          std::string_view target, rapidjson::Document& doc,
                          const RequestShape& shape, const Fault& fault) {
  api::ApiError error = api::ApiError::Injected(fault.type, fault.status, fault.message);
  if (shape.transaction) {
    std::string code =
        fault.cancellation_code.empty() ? api::CancellationCodeFor(fault.type) : fault.cancellation_code;
    if (!code.empty()) {
      std::string message = fault.message;
      if (message.empty()) message = api::CancellationMessageFor(code);
      if (message.empty()) message = error.message;
      return CancelTransaction(doc, HitTables(shape, fault), code, message);
    }
  }
  if (shape.batch && api::IsThrottling(fault.type)) {
    std::map<std::string, size_t> none_kept;
    for (const auto& table : HitTables(shape, fault)) none_kept[table] = 0;
    return DispatchHoldingBack(engine, caller, target, doc, none_kept);
  }
  return ErrorResponse(error);
}

// Rewrites an answer's ConsumedCapacity (INDEXES, forced for the throttle's
// accounting) into what the client asked for. REQUIRES: answer is an object.
void RestoreCapacityMode(rapidjson::Document& answer, std::string_view mode) {
  auto it = answer.FindMember("ConsumedCapacity");
  if (it == answer.MemberEnd()) return;
  if (!api::WantsCapacity(mode)) {
    answer.EraseMember(it);
    return;
  }
  if (mode != "TOTAL") return;
  auto strip = [](rapidjson::Value& entry) {
    if (!entry.IsObject()) return;
    entry.RemoveMember("Table");
    entry.RemoveMember("LocalSecondaryIndexes");
    entry.RemoveMember("GlobalSecondaryIndexes");
  };
  if (it->value.IsArray()) {
    for (auto& entry : it->value.GetArray()) strip(entry);
  } else {
    strip(it->value);
  }
}

// The keys of the requests on `held` tables, as Contributor Insights counts
// throttled keys (engine/key_insights.h): single-item operations, batches
// and transactions name theirs; a Query or Scan is not put on a key.
void NoteThrottledKeys(engine::Engine& engine, const api::Caller& caller,
                       const rapidjson::Value& doc, const std::set<std::string>& held) {
  auto note = [&](std::string_view table_or_arn, const rapidjson::Value* json) {
    std::string table = api::TableNameFromArn(table_or_arn);
    if (!json || !held.count(std::string(table_or_arn))) return;
    auto schema = engine.database().GetSchema(caller.ns, table);
    if (!schema.ok() || (*schema)->contributor_insights.empty()) return;
    auto key = api::ParseItem(*json);
    if (key.ok()) engine.key_insights().Note(caller.ns, **schema, "", *key, /*throttled=*/true);
  };
  auto member = [](const rapidjson::Value& object, const char* name) -> const rapidjson::Value* {
    if (!object.IsObject()) return nullptr;
    auto it = object.FindMember(name);
    return it == object.MemberEnd() || !it->value.IsObject() ? nullptr : &it->value;
  };
  auto text = [](const rapidjson::Value& object, const char* name) -> std::string_view {
    auto it = object.FindMember(name);
    return it == object.MemberEnd() || !it->value.IsString() ? "" : api::View(it->value);
  };
  if (auto table = text(doc, "TableName"); !table.empty()) {
    note(table, member(doc, "Key") ? member(doc, "Key") : member(doc, "Item"));
    return;
  }
  if (const rapidjson::Value* items = member(doc, "RequestItems")) {
    for (const auto& [name, requests] : items->GetObject()) {
      std::string_view table = api::View(name);
      if (requests.IsObject()) {  // BatchGetItem: {"Keys": [...]}
        auto keys = requests.FindMember("Keys");
        if (keys == requests.MemberEnd() || !keys->value.IsArray()) continue;
        for (const auto& key : keys->value.GetArray()) note(table, &key);
      } else if (requests.IsArray()) {  // BatchWriteItem: [{"PutRequest": ...}, ...]
        for (const auto& request : requests.GetArray()) {
          if (const auto* put = member(request, "PutRequest")) note(table, member(*put, "Item"));
          if (const auto* del = member(request, "DeleteRequest")) note(table, member(*del, "Key"));
        }
      }
    }
    return;
  }
  auto actions = doc.FindMember("TransactItems");
  if (actions == doc.MemberEnd() || !actions->value.IsArray()) return;
  for (const auto& action : actions->value.GetArray()) {
    for (const char* kind : {"Get", "Put", "Update", "Delete", "ConditionCheck"}) {
      const rapidjson::Value* request = member(action, kind);
      if (!request) continue;
      note(text(*request, "TableName"),
           member(*request, "Key") ? member(*request, "Key") : member(*request, "Item"));
    }
  }
}

// The units one request of a batch is expected to take, to decide before it
// runs whether the table's buckets still hold enough for it: a put its
// item's size, a delete or a key read the least a request is billed (its
// old item's or answer's size is not known yet), rounded as api/capacity.h
// bills them. The charge itself comes afterwards, from what the batch
// reports it consumed.
double ExpectedUnits(const rapidjson::Value& request, bool reads, bool consistent) {
  if (reads) return api::ReadUnits(0, consistent);
  size_t bytes = 0;
  if (request.IsObject()) {
    auto put = request.FindMember("PutRequest");
    if (put != request.MemberEnd() && put->value.IsObject()) {
      auto item_json = put->value.FindMember("Item");
      if (item_json != put->value.MemberEnd()) {
        auto item = api::ParseItem(item_json->value);
        if (item.ok()) bytes = engine::ItemSize(*item);
      }
    }
  }
  return api::WriteUnits(bytes);
}

}  // namespace

// How many of each admitted table's requests a batch may run: DynamoDB runs
// a batch's requests one by one, and those that find the table out of
// capacity come back unprocessed rather than the whole batch being admitted
// past it. Tables whose requests all fit are not named.
std::map<std::string, size_t> RequestControls::BatchRequestsThatFit(
    const api::Caller& caller, const rapidjson::Value& doc, const std::set<std::string>& admitted,
    bool reads) {
  std::map<std::string, size_t> kept;
  auto items = doc.FindMember("RequestItems");
  if (items == doc.MemberEnd() || !items->value.IsObject()) return kept;
  for (const auto& [name, entry] : items->value.GetObject()) {
    std::string table = api::TableNameFromArn(api::View(name));
    if (!admitted.count(table)) continue;
    const rapidjson::Value* requests = &entry;
    bool consistent = false;
    if (reads) {
      if (!entry.IsObject()) continue;
      auto keys = entry.FindMember("Keys");
      auto strong = entry.FindMember("ConsistentRead");
      consistent = strong != entry.MemberEnd() && strong->value.IsBool() && strong->value.GetBool();
      requests = keys == entry.MemberEnd() ? nullptr : &keys->value;
    }
    if (!requests || !requests->IsArray()) continue;
    double headroom = throttle_.Headroom(caller, table, reads);
    size_t fit = 0;
    for (const auto& request : requests->GetArray()) {
      if (headroom <= kEmptyBucket) break;
      headroom -= ExpectedUnits(request, reads, consistent);
      ++fit;
    }
    if (fit < requests->Size()) kept[table] = fit;
  }
  return kept;
}

api::Response RequestControls::Throttled(const api::Caller& caller, std::string_view target,
                                         rapidjson::Document& doc, const RequestShape& shape,
                                         api::AccessRecord* record) {
  // Admission, per table named.
  std::set<std::string> held;
  std::optional<api::ApiError> first;
  std::set<std::string> seen;
  for (const auto& table : shape.tables) {
    if (table.empty() || !seen.insert(table).second) continue;
    if (auto refused = throttle_.Admit(caller, table, shape.index, shape.reads)) {
      held.insert(table);
      if (!first) first = std::move(refused);
    }
  }
  if (first) {
    NoteThrottledKeys(engine_, caller, doc, held);
    // A batch runs what it can and leaves the rest unprocessed; with nothing
    // it can run, it fails as a whole, as DynamoDB's does.
    if (shape.batch && held.size() < seen.size()) {
      // Falls through to run the rest, below.
    } else if (shape.transaction) {
      return CancelTransaction(doc, held, "ProvisionedThroughputExceeded", first->message);
    } else {
      return ErrorResponse(*first);
    }
  }
  // Run, with ConsumedCapacity forced on for the accounting — unless the
  // client's own value is invalid: then validation answers for it, as always.
  std::string mode = "NONE";
  if (auto given = doc.FindMember("ReturnConsumedCapacity"); given != doc.MemberEnd()) {
    if (given->value.IsString()) mode = std::string(api::View(given->value));
    if (!given->value.IsNull() && mode != "NONE" && mode != "TOTAL" && mode != "INDEXES") {
      return api::Dispatch(engine_, caller, target, ToJson(doc), record);
    }
    if (!given->value.IsNull() && !given->value.IsString()) {
      return api::Dispatch(engine_, caller, target, ToJson(doc), record);
    }
  }
  auto& alloc = doc.GetAllocator();
  doc.RemoveMember("ReturnConsumedCapacity");
  doc.AddMember("ReturnConsumedCapacity", "INDEXES", alloc);
  std::map<std::string, size_t> kept;
  if (shape.batch) {
    std::set<std::string> admitted;
    for (const auto& table : seen) {
      if (!held.count(table)) admitted.insert(table);
    }
    kept = BatchRequestsThatFit(caller, doc, admitted, shape.reads);
  }
  for (const auto& table : held) kept[table] = 0;
  api::Response ran = kept.empty() ? api::Dispatch(engine_, caller, target, ToJson(doc), record)
                                   : DispatchHoldingBack(engine_, caller, target, doc, kept);
  if (ran.http_status != 200) return ran;
  rapidjson::Document answer;
  answer.Parse(ran.body.data(), ran.body.size());
  if (answer.HasParseError() || !answer.IsObject()) return ran;
  if (auto consumed = answer.FindMember("ConsumedCapacity"); consumed != answer.MemberEnd()) {
    throttle_.Charge(caller.ns, consumed->value, shape.reads);
  }
  if (mode == "INDEXES") return ran;
  RestoreCapacityMode(answer, mode);
  return {200, ToJson(answer)};
}

ControlledResponse RequestControls::Dispatch(const api::Caller& caller, std::string_view target,
                                             std::string_view body, api::AccessRecord* record) {
  rapidjson::Document doc;
  if (!api::IsKnownTarget(target) || !api::ParseUntrustedJson(body, doc) || !doc.IsObject()) {
    return {api::Dispatch(engine_, caller, target, body, record)};
  }
  RequestShape shape = ShapeOf(target, doc);
  ControlledResponse out;
  if (faults_.any()) {
    if (auto fault = faults_.Match(caller.ns, shape)) {
      switch (fault->kind) {
        case Fault::Kind::kDrop:
          out.drop_connection = true;
          return out;
        case Fault::Kind::kError:
          out.response = InjectError(engine_, caller, target, doc, shape, *fault);
          return out;
        case Fault::Kind::kDelay:
          out.delay_millis = fault->delay_millis;
          break;
        case Fault::Kind::kDropAnswer:
          // Runs as any request (the throttle included), so the write lands
          // and only its answer is lost: the server closes instead.
          out.drop_connection = true;
          break;
      }
    }
  }
  if (throttle_.enabled() && shape.consumes) {
    out.response = Throttled(caller, target, doc, shape, record);
  } else {
    out.response = api::Dispatch(engine_, caller, target, body, record);
  }
  return out;
}

}  // namespace ddb::emulator
