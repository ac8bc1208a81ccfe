// Query and Scan: reading a partition or a whole table or index, with
// filters, projections, Select, pagination and parallel scan segments.
#include <set>

#include "api/access_record.h"
#include "api/attribute_json.h"
#include "api/capacity.h"
#include "api/items/expression_request.h"
#include "api/items/item_request.h"
#include "api/items/key_access.h"
#include "api/items/key_condition.h"
#include "api/json_reader.h"
#include "api/operations.h"
#include "engine/expression/document_path.h"
#include "engine/expression/evaluate.h"
#include "engine/key_validation.h"
#include "engine/secondary_index.h"
#include "engine/vectors/vector_index.h"

namespace ddb::api {
namespace {

namespace expr = engine::expr;
using engine::Item;

enum class ReadOp { kQuery, kScan };

// What Query and Scan share, read and validated.
struct ReadRequest {
  std::string table;
  std::string index_name;
  std::optional<std::string_view> select;  // as given
  bool consistent = false;
  bool forward = true;
  size_t limit = 0;
  uint32_t segment = 0;
  uint32_t total_segments = 1;
  std::optional<Item> exclusive_start_key;
  RequestExpressions expressions;
  const char* projection_member = nullptr;  // "ProjectionExpression" or "AttributesToGet"
  std::string_view consumed_capacity = "NONE";  // ReturnConsumedCapacity
};

ApiResult<ReadRequest> ReadCommon(const rapidjson::Value& request, ReadOp op) {
  RequestReader r(request);
  auto table = r.String("TableName");
  auto index = r.String("IndexName");
  auto select = r.String("Select");
  auto limit = r.Integer("Limit");
  auto consistent = r.Bool("ConsistentRead");
  auto forward = op == ReadOp::kQuery ? r.Bool("ScanIndexForward") : std::nullopt;
  auto segment = op == ReadOp::kScan ? r.Integer("Segment") : std::nullopt;
  auto total = op == ReadOp::kScan ? r.Integer("TotalSegments") : std::nullopt;
  const rapidjson::Value* start_json = r.Object("ExclusiveStartKey");
  auto consumed = r.String("ReturnConsumedCapacity");
  auto conditional = op == ReadOp::kQuery ? r.String("ConditionalOperator") : std::nullopt;
  if (r.failed()) return r.error();
  // Query checks ConditionalOperator first, alone and bare, in a newer form
  // whose set reads [ALL, OR] (captured 2026-10 in two regions, over an
  // unknown Select).
  if (conditional && *conditional != "AND" && *conditional != "OR") {
    return ApiError::Validation(
        "Failed to satisfy constraint: Member must satisfy enum value set: [ALL, OR]");
  }

  Constraints constraints;
  constraints.TableNameOrArn(table);
  if (index) constraints.TableName(index, "indexName");
  constraints.Enum(select, "select",
                   {"SPECIFIC_ATTRIBUTES", "COUNT", "ALL_ATTRIBUTES", "ALL_PROJECTED_ATTRIBUTES"});
  if (op == ReadOp::kQuery && limit && *limit < 1) {
    // Query answers in DynamoDB's newer form, without the value.
    constraints.Violation("", "Limit", "Member must have value greater than or equal to 1");
  } else {
    constraints.Range(limit, "limit", 1, INT32_MAX);
  }
  constraints.Range(segment, "segment", 0, 999999);
  constraints.Range(total, "totalSegments", 1, 1000000);
  constraints.Enum(consumed, "returnConsumedCapacity", {"INDEXES", "TOTAL", "NONE"});
  if (!constraints.empty()) return constraints.ToError();
  if (segment && !total) {
    return ApiError::Validation(
        "The TotalSegments parameter is required but was not present in the request when "
        "Segment parameter is present");
  }
  if (total && !segment) {
    return ApiError::Validation(
        "The Segment parameter is required but was not present in the request when parameter "
        "TotalSegments is present");
  }
  if (segment && *segment >= *total) {
    return ApiError::Validation(
        "The Segment parameter is zero-based and must be less than parameter TotalSegments: "
        "Segment: " + std::to_string(*segment) + " is not less than TotalSegments: " +
        std::to_string(*total));
  }

  ReadRequest parsed;
  parsed.table = TableNameFromArn(*table);
  parsed.index_name = std::string(index.value_or(""));
  parsed.select = select;
  parsed.consistent = consistent.value_or(false);
  parsed.forward = forward.value_or(true);
  parsed.limit = static_cast<size_t>(limit.value_or(0));
  parsed.segment = static_cast<uint32_t>(segment.value_or(0));
  parsed.total_segments = static_cast<uint32_t>(total.value_or(1));
  parsed.consumed_capacity = consumed.value_or("NONE");
  ExpressionSpec spec{.projection = true,
                      .key_condition = op == ReadOp::kQuery,
                      .filter = op == ReadOp::kQuery ? "QueryFilter" : "ScanFilter"};
  auto expressions = ReadExpressions(request, spec);
  if (!expressions.ok()) return expressions.take_error();
  parsed.expressions = std::move(expressions).value();
  if (parsed.expressions.projection) {
    auto it = request.FindMember("ProjectionExpression");
    parsed.projection_member = it != request.MemberEnd() && !it->value.IsNull()
                                   ? "ProjectionExpression"
                                   : "AttributesToGet";
  }
  if (start_json) {
    auto start = ParseItem(*start_json);
    if (!start.ok()) {
      ApiError error = start.take_error();
      // A bad attribute value (a duplicate set member, ...) is answered as it
      // is anywhere, with no starting-key prefix (captured 2026-08).
      if (!IsValidation(error.short_type()) || error.value_wording) return error;
      return ApiError::Validation("The provided starting key is invalid: " + error.message);
    }
    parsed.exclusive_start_key = std::move(start).value();
  }
  return parsed;
}

// The table and, when IndexName is given, the index a read goes to.
struct Target {
  std::shared_ptr<const engine::TableSchema> schema;
  const engine::IndexSchema* index = nullptr;
};

ApiResult<Target> FindTarget(Context& ctx, const ReadRequest& request, bool query) {
  auto schema = ctx.db.GetSchema(ctx.caller.ns, request.table);
  if (!schema.ok()) return schema.status();
  Target target{std::move(schema).value(), nullptr};
  if (request.index_name.empty()) return target;
  target.index = engine::FindIndex(*target.schema, request.index_name);
  if (!target.index && engine::FindVectorIndex(*target.schema, request.index_name)) {
    // A vector index answers only SearchVectors. Query checks ConsistentRead
    // first; Scan refuses first.
    if (query && request.consistent) {
      return ApiError::Validation("Consistent reads are not supported on global secondary indexes");
    }
    return ApiError::Validation(query ? "Query operation not supported on this index type."
                                      : "Scan operation not supported on this index type");
  }
  if (!target.index) {
    return ApiError::Validation("The table does not have the specified index: " +
                                request.index_name);
  }
  if (!target.index->is_local && request.consistent) {
    return ApiError::Validation("Consistent reads are not supported on global secondary indexes");
  }
  return target;
}

// ExclusiveStartKey must hold exactly the attributes that place an item in
// the table or index: the table's key, plus the index's key.
ApiResult<bool> CheckStartKey(const Item& start, const Target& target) {
  std::vector<const engine::KeyElement*> elements;
  elements.push_back(&target.schema->hash_key());
  if (auto* range = target.schema->range_key()) elements.push_back(range);
  if (target.index) {
    for (const auto* element : engine::IndexKeyElements(*target.index)) {
      bool seen = std::any_of(elements.begin(), elements.end(),
                              [&](const auto* e) { return e->name == element->name; });
      if (!seen) elements.push_back(element);
    }
  }
  const bool hash_only_table = !target.index && elements.size() == 1;
  if (start.size() != elements.size()) {
    // A hash-only table's start key with more attributes than its key (a
    // range attribute, say): the text public suites pin against DynamoDB.
    if (hash_only_table && start.size() > 1) {
      return ApiError::Validation(
          "The provided starting key is invalid: The provided key element does not match the "
          "schema");
    }
    return ApiError::Validation("The provided starting key is invalid");
  }
  for (const auto* element : elements) {
    auto it = start.find(element->name);
    if (it == start.end()) return ApiError::Validation("The provided starting key is invalid");
    if (!engine::HasScalarType(it->second, element->type)) {
      if (element == elements.front()) {
        return ApiError::Validation("The provided key element does not match the schema");
      }
      return ApiError::Validation(
          "The provided starting key is invalid: The provided key element does not match the "
          "schema");
    }
  }
  return true;
}

// A filter may not use the key attributes of what is queried.
ApiResult<bool> CheckFilterAvoidsKeys(const ReadRequest& request, const Target& target) {
  const auto& filter = request.expressions.filter;
  if (!filter) return true;
  std::set<std::string> used = expr::AttributesRead(*filter);
  std::vector<std::string> keys;
  if (target.index) {
    for (const auto* element : engine::IndexKeyElements(*target.index)) keys.push_back(element->name);
  } else {
    keys.push_back(target.schema->hash_key().name);
    if (auto* range = target.schema->range_key()) keys.push_back(range->name);
  }
  for (const auto& key : keys) {
    if (used.contains(key)) {
      return ApiError::Validation(
          std::string(request.expressions.legacy_filter ? "QueryFilter" : "Filter Expression") +
          " can only contain non-primary key attributes: Primary key attribute: " + key);
    }
  }
  return true;
}

// Select with its defaults and DynamoDB's checks; decides whether an LSI
// read must fetch the table's items. Returns the effective Select.
ApiResult<std::string> ResolveSelect(const ReadRequest& request, ReadOp op, const Target& target,
                                     bool* fetch_table_items) {
  const auto& projection = request.expressions.projection;
  std::string select = request.select ? std::string(*request.select)
                       : projection   ? "SPECIFIC_ATTRIBUTES"
                       : target.index ? "ALL_PROJECTED_ATTRIBUTES"
                                      : "ALL_ATTRIBUTES";
  // Query answers these inside the envelope, Scan bare (2026-08).
  auto refused = [](std::string message) {
    return ApiError::Validation(std::move(message)).EnvelopedIn(ApiError::Envelope::kQuery);
  };
  if (select == "SPECIFIC_ATTRIBUTES" && !projection) {
    return refused(
        "Must specify the AttributesToGet or ProjectionExpression when choosing to get "
        "SPECIFIC_ATTRIBUTES");
  }
  if (select != "SPECIFIC_ATTRIBUTES" && projection) {
    return refused("Cannot specify the " + std::string(request.projection_member) +
                   " when choosing to get " + (select == "COUNT" ? "only the Count" : select));
  }
  if (select == "ALL_PROJECTED_ATTRIBUTES" && !target.index) {
    return refused("ALL_PROJECTED_ATTRIBUTES can be used only when Querying using an IndexName");
  }
  const engine::IndexSchema* index = target.index;
  if (!index || index->projection.type == engine::ProjectionType::kAll) return select;
  auto unprojected = [&](const std::set<std::string>& names) {
    return engine::UnprojectedNames(*target.schema, *index, names);
  };
  std::set<std::string> wanted;
  if (projection) {
    for (const auto& path : projection->paths) wanted.insert(path.elements.front().name);
  }
  std::set<std::string> filtered;
  if (request.expressions.filter) filtered = expr::AttributesRead(*request.expressions.filter);
  if (index->is_local) {
    *fetch_table_items = select == "ALL_ATTRIBUTES" || !unprojected(wanted).empty() ||
                         !unprojected(filtered).empty();
    return select;
  }
  if (select == "ALL_ATTRIBUTES") {
    return ApiError::Validation(
        "One or more parameter values were invalid: Select type ALL_ATTRIBUTES is not supported "
        "for global secondary index " + index->name + " because its projection type is not ALL");
  }
  if (std::string missing = unprojected(wanted); !missing.empty()) {
    return ApiError::Validation("One or more parameter values were invalid: Global secondary index " +
                                index->name + " does not project [" + missing + "]");
  }
  // Only a Query refuses a filter on what a GSI leaves out; a Scan filters
  // the projected entries, where those attributes are simply absent.
  if (std::string missing = unprojected(filtered); op == ReadOp::kQuery && !missing.empty()) {
    return ApiError::FilterNotProjected(index->name, missing);
  }
  return select;
}

// What a Scan of a whole table costs at least: DynamoDB reports 4 read
// units for a consistent Scan of a tiny table and 2 for an eventually
// consistent one (observed by object mappers' suites, issue 30). Inferred
// reading: a new table has four partitions and reading each costs a unit
// at least; so only a Scan that is not segmented and reaches the end of the
// table pays it.
double ScanMinimumUnits(const ReadRequest& request, const Target& target,
                        const engine::Page& page) {
  constexpr double kPartitions = 4;
  if (target.index || request.total_segments > 1 || page.last_evaluated_key) return 0;
  return request.consistent ? kPartitions : kPartitions / 2;
}

// Filters, projects and renders one page.
// With a record, notes the page's consumption and items in it; a Scan's
// `held` is the items its table or index held.
std::string RenderPage(const engine::Page& page, const ReadRequest& request,
                       const std::string& select, const Target& target, AccessRecord* record,
                       double min_read_units = 0, std::optional<int64_t> held = std::nullopt) {
  const auto& filter = request.expressions.filter;
  size_t returned = 0;
  std::string rendered = RenderObject([&](JsonWriter& w) {
    size_t count = 0;
    if (select != "COUNT") {
      w.Key("Items");
      w.StartArray();
    }
    for (const Item& item : page.items) {
      if (filter && !expr::EvaluateCondition(*filter, &item)) continue;
      ++count;
      if (select == "COUNT") continue;
      WriteProjected(w, item, request.expressions.projection);
    }
    if (select != "COUNT") w.EndArray();
    w.Key("Count");
    w.Uint64(count);
    w.Key("ScannedCount");
    w.Uint64(page.items.size());
    if (page.last_evaluated_key) {
      w.Key("LastEvaluatedKey");
      WriteItem(w, *page.last_evaluated_key);
    }
    returned = count;
    if (WantsCapacity(request.consumed_capacity) || record) {
      Consumption consumption =
          ReadConsumption(*target.schema, target.index, page.bytes_read, request.consistent);
      AddFetchedItems(consumption, page.fetched_sizes, request.consistent);
      consumption.table_units = std::max(consumption.table_units, min_read_units);
      if (WantsCapacity(request.consumed_capacity)) {
        w.Key("ConsumedCapacity");
        WriteCapacity(w, request.consumed_capacity, consumption);
      }
      if (record) record->consumed.push_back(std::move(consumption));
    }
  });
  if (record) {
    AccessRecord::Access access{.table = request.table, .index = request.index_name,
                                .items_read = page.items.size(), .items_returned = returned,
                                .scan = held.has_value()};
    if (held && *held > 0) {
      access.table_fraction =
          std::min(1.0, static_cast<double>(page.items.size()) / static_cast<double>(*held));
    }
    record->accesses.push_back(std::move(access));
  }
  return rendered;
}

// The items the Scan's table or index holds, as DescribeTable counts them.
int64_t ItemsHeld(Context& ctx, const ReadRequest& request, const Target& target) {
  auto described = ctx.db.DescribeTable(ctx.caller.ns, request.table);
  if (!described.ok()) return 0;
  if (!target.index) return described->stats.item_count;
  auto found = described->index_stats.find(target.index->index_id);
  return found == described->index_stats.end() ? 0 : found->second.item_count;
}

}  // namespace

ApiResult<std::string> Query(Context& ctx, const rapidjson::Value& request) {
  auto parsed = ReadCommon(request, ReadOp::kQuery);
  if (!parsed.ok()) return parsed.take_error();
  const RequestExpressions& expressions = parsed->expressions;
  ApiResult<std::vector<KeyTerm>> terms = std::vector<KeyTerm>{};
  if (expressions.key_condition) {
    terms = KeyTermsFromExpression(*expressions.key_condition);
  } else if (expressions.key_conditions) {
    terms = KeyTermsFromLegacy(*expressions.key_conditions);
  } else {
    return ApiError::Validation(
        "Either the KeyConditions or KeyConditionExpression parameter must be specified in the "
        "request.");
  }
  if (!terms.ok()) return terms.take_error();
  auto target = FindTarget(ctx, *parsed, true);
  if (!target.ok()) return target.take_error();
  if (parsed->exclusive_start_key) {
    auto valid = CheckStartKey(*parsed->exclusive_start_key, *target);
    if (!valid.ok()) return valid.take_error();
  }
  engine::QueryRequest query;
  const engine::KeySchema& key = target->index ? target->index->key : target->schema->key;
  auto applied = ApplyKeyTerms(*terms, key, !expressions.key_condition, &query);
  if (!applied.ok()) return applied.take_error();
  // A table without a sort key holds one item per partition: nothing to
  // restart, so no start key is taken and none is handed out.
  bool single_row = !target->index && !target->schema->range_key();
  if (parsed->exclusive_start_key && single_row) {
    return ApiError::Validation(
        "The provided exclusive start key is invalid: The query can return at most one row and "
        "cannot be restarted");
  }
  if (parsed->exclusive_start_key) {
    auto in_range =
        CheckStartKeyInRange(*parsed->exclusive_start_key, key, query, target->index == nullptr);
    if (!in_range.ok()) return in_range.take_error();
  }
  auto filter_ok = CheckFilterAvoidsKeys(*parsed, *target);
  if (!filter_ok.ok()) return filter_ok.take_error();
  auto select = ResolveSelect(*parsed, ReadOp::kQuery, *target, &query.fetch_table_items);
  if (!select.ok()) return select.take_error();
  query.index_name = parsed->index_name;
  query.forward = parsed->forward;
  query.limit = parsed->limit;
  query.exclusive_start_key = parsed->exclusive_start_key;
  auto page = ctx.db.Query(ctx.caller.ns, parsed->table, query);
  if (!page.ok()) return page.status();
  if (!target->schema->contributor_insights.empty() || ctx.record) {
    // A Query reads one partition: counted by its partition key.
    Item partition;
    for (size_t i = 0; i < key.hash.size() && i < query.partition.size(); ++i) {
      partition.emplace(key.hash[i].name, query.partition[i]);
    }
    NoteKeyRead(ctx, *target->schema, parsed->index_name, partition);
  }
  if (single_row) page->last_evaluated_key.reset();
  return RenderPage(*page, *parsed, *select, *target, ctx.record);
}

ApiResult<std::string> Scan(Context& ctx, const rapidjson::Value& request) {
  auto parsed = ReadCommon(request, ReadOp::kScan);
  if (!parsed.ok()) return parsed.take_error();
  auto target = FindTarget(ctx, *parsed, false);
  if (!target.ok()) return target.take_error();
  if (parsed->exclusive_start_key) {
    auto valid = CheckStartKey(*parsed->exclusive_start_key, *target);
    if (!valid.ok()) return valid.take_error();
  }
  engine::ScanRequest scan;
  auto select = ResolveSelect(*parsed, ReadOp::kScan, *target, &scan.fetch_table_items);
  if (!select.ok()) return select.take_error();
  scan.index_name = parsed->index_name;
  scan.segment = parsed->segment;
  scan.total_segments = parsed->total_segments;
  scan.limit = parsed->limit;
  scan.exclusive_start_key = parsed->exclusive_start_key;
  auto page = ctx.db.Scan(ctx.caller.ns, parsed->table, scan);
  if (!page.ok()) return page.status();
  std::optional<int64_t> held;
  if (ctx.record) held = ItemsHeld(ctx, *parsed, *target);
  return RenderPage(*page, *parsed, *select, *target, ctx.record,
                    ScanMinimumUnits(*parsed, *target, *page), held);
}

}  // namespace ddb::api
