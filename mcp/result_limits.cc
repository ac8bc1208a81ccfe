#include "mcp/result_limits.h"

#include "mcp/json_rpc.h"

namespace ddb::mcp {
namespace {

bool TakesLimit(std::string_view operation) {
  return operation == "Query" || operation == "Scan" || operation == "ExecuteStatement" ||
         operation == "GetRecords" || operation == "ListTables" || operation == "ListStreams";
}

// The member of the answer holding the returned items, by operation.
std::string_view ItemsMember(std::string_view operation) {
  if (operation == "Query" || operation == "Scan" || operation == "ExecuteStatement") {
    return "Items";
  }
  if (operation == "GetRecords") return "Records";
  if (operation == "SearchVectors") return "SearchResults";
  if (operation == "TransactGetItems" || operation == "BatchGetItem") return "Responses";
  if (operation == "ListTables") return "TableNames";
  if (operation == "ListStreams") return "Streams";
  return "";
}

// Every array of items in the answer: one, or BatchGetItem's one per table.
std::vector<rapidjson::Value*> ItemArrays(std::string_view operation, rapidjson::Value& answer) {
  std::vector<rapidjson::Value*> arrays;
  std::string_view member = ItemsMember(operation);
  if (member.empty() || !answer.IsObject()) return arrays;
  auto found = answer.FindMember(rapidjson::StringRef(member.data(), member.size()));
  if (found == answer.MemberEnd()) return arrays;
  if (found->value.IsArray()) arrays.push_back(&found->value);
  if (found->value.IsObject()) {
    for (auto& table : found->value.GetObject()) {
      if (table.value.IsArray()) arrays.push_back(&table.value);
    }
  }
  return arrays;
}

size_t CountItems(const std::vector<rapidjson::Value*>& arrays) {
  size_t count = 0;
  for (const rapidjson::Value* array : arrays) count += array->Size();
  return count;
}

// Drops items from the ends of `arrays` (the last array first) while the
// answer is over `max_bytes` or holds more than `max_items`; sizes are
// computed once per item, so this is linear in the answer.
size_t DropItems(rapidjson::Document& answer, std::vector<rapidjson::Value*>& arrays,
                 size_t max_items, size_t max_bytes) {
  size_t total = ToJson(answer).size();
  size_t items = CountItems(arrays);
  size_t dropped = 0;
  for (auto array = arrays.rbegin(); array != arrays.rend(); ++array) {
    while ((*array)->Size() > 0 && (total > max_bytes || items > max_items)) {
      rapidjson::Value& last = (**array)[(*array)->Size() - 1];
      total -= ToJson(last).size() + ((*array)->Size() > 1 ? 1 : 0);
      (*array)->PopBack();
      --items;
      ++dropped;
    }
  }
  return dropped;
}

bool HasMember(const rapidjson::Value& answer, const char* name) {
  return answer.IsObject() && answer.HasMember(name);
}

void SetMember(rapidjson::Document& doc, const char* name, rapidjson::Value value) {
  auto found = doc.FindMember(name);
  if (found != doc.MemberEnd()) {
    found->value = std::move(value);
  } else {
    doc.AddMember(rapidjson::StringRef(name), std::move(value), doc.GetAllocator());
  }
}

}  // namespace

bool CapRequestLimit(std::string_view operation, rapidjson::Document& request, size_t max_items) {
  if (!TakesLimit(operation) || !request.IsObject()) return false;
  auto limit = request.FindMember("Limit");
  if (limit != request.MemberEnd()) {
    if (!limit->value.IsUint64() || limit->value.GetUint64() <= max_items) return false;
    limit->value.SetUint64(max_items);
    return true;
  }
  request.AddMember("Limit", rapidjson::Value(static_cast<uint64_t>(max_items)),
                    request.GetAllocator());
  return true;
}

std::string CutText(std::string text, size_t max_bytes) {
  if (text.size() <= max_bytes) return text;
  size_t end = max_bytes;
  // Back up over UTF-8 continuation bytes (10xxxxxx) to a character's start.
  while (end > 0 && (static_cast<unsigned char>(text[end]) & 0xC0) == 0x80) --end;
  text.resize(end);
  return text;
}

CappedAnswer CapAnswer(std::string_view operation, rapidjson::Document& answer,
                       const ResultLimits& limits, bool limit_capped,
                       const std::function<std::vector<std::string>()>& key_names) {
  CappedAnswer capped;
  std::string cap_items = "the --max-items cap of " + std::to_string(limits.max_items);
  std::string cap_bytes = "the --max-bytes cap of " + std::to_string(limits.max_bytes) + " bytes";
  std::vector<rapidjson::Value*> arrays = ItemArrays(operation, answer);
  size_t before = CountItems(arrays);
  bool paged = operation == "Query" || operation == "Scan";
  size_t dropped = arrays.empty() ? 0
                                  : DropItems(answer, arrays, limits.max_items, limits.max_bytes);
  size_t kept = before - dropped;

  if (dropped > 0 && paged && kept > 0) {
    // Page from the last item kept: its key attributes are the next page's
    // start. The key and count take room too: drop more while over the cap.
    // (Adding a member may move the answer's members: find Items anew each time.)
    std::vector<std::string> names = key_names();
    // Without a filter that dropped items, every item scanned was returned:
    // then ScannedCount up to the new LastEvaluatedKey is known exactly.
    auto scanned = answer.FindMember("ScannedCount");
    bool exact_scanned = scanned != answer.MemberEnd() && scanned->value.IsUint64() &&
                         scanned->value.GetUint64() == before;
    while (true) {
      rapidjson::Value& items = answer["Items"];
      const rapidjson::Value& last = items[items.Size() - 1];
      rapidjson::Value key(rapidjson::kObjectType);
      for (const std::string& name : names) {
        auto attribute = last.FindMember(name.c_str());
        if (attribute == last.MemberEnd()) continue;
        key.AddMember(rapidjson::Value(name.c_str(), answer.GetAllocator()),
                      rapidjson::Value(attribute->value, answer.GetAllocator()),
                      answer.GetAllocator());
      }
      size_t count = items.Size();
      SetMember(answer, "LastEvaluatedKey", std::move(key));
      SetMember(answer, "Count", rapidjson::Value(static_cast<uint64_t>(count)));
      if (exact_scanned) {
        SetMember(answer, "ScannedCount", rapidjson::Value(static_cast<uint64_t>(count)));
      }
      if (count <= 1 || ToJson(answer).size() <= limits.max_bytes) break;
      answer["Items"].PopBack();
      ++dropped;
      --kept;
    }
    capped.note = "Truncated: " + std::to_string(kept) + " items shown, " +
                  std::to_string(dropped) + " more in this page left out (" + cap_bytes +
                  "). LastEvaluatedKey is the last item shown: call " + std::string(operation) +
                  " again with ExclusiveStartKey set to it for the next page.";
  } else if (dropped > 0) {
    capped.note = "Truncated: " + std::to_string(kept) + " of " + std::to_string(before) +
                  " results shown (" + (before > limits.max_items ? cap_items : cap_bytes) + "). ";
    if (operation == "BatchGetItem" || operation == "TransactGetItems") {
      capped.note += "Ask for fewer keys per call to see the rest.";
    } else if (operation == "SearchVectors") {
      capped.note += "Ask for a smaller TopK, or project fewer attributes.";
    } else {
      capped.note += "Call again with a smaller Limit (and the same starting point) to page "
                     "through them.";
    }
  } else if (limit_capped) {
    // Lowering Limit made DynamoDB stop early; say so when there is more.
    if (HasMember(answer, "LastEvaluatedKey")) {
      capped.note = "Capped at " + cap_items + " per call: pass LastEvaluatedKey as "
                    "ExclusiveStartKey for the next page.";
    } else if (HasMember(answer, "NextToken")) {
      capped.note = "Capped at " + cap_items + " per call: pass NextToken for the next page.";
    } else if (HasMember(answer, "LastEvaluatedTableName")) {
      capped.note = "Capped at " + cap_items + " per call: pass LastEvaluatedTableName as "
                    "ExclusiveStartTableName for the next page.";
    } else if (HasMember(answer, "LastEvaluatedStreamArn")) {
      capped.note = "Capped at " + cap_items + " per call: pass LastEvaluatedStreamArn as "
                    "ExclusiveStartStreamArn for the next page.";
    } else if (operation == "GetRecords" && before == limits.max_items) {
      capped.note = "Capped at " + cap_items + " records per call: continue with "
                    "NextShardIterator.";
    }
  }

  capped.json = ToJson(answer);
  if (capped.json.size() > limits.max_bytes) {
    capped.json = CutText(std::move(capped.json), limits.max_bytes);
    if (!capped.note.empty()) capped.note += " ";
    capped.note += "The answer's text was cut at " + cap_bytes +
                   " (it is not valid JSON past that point): ask for less (a "
                   "ProjectionExpression, a smaller Limit or fewer keys).";
  }
  return capped;
}

}  // namespace ddb::mcp
