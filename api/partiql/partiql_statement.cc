#include "api/partiql/partiql_statement.h"

#include <algorithm>
#include <cctype>
#include <cstdint>

#include "api/attribute_json.h"
#include "api/items/item_request.h"
#include "api/json_reader.h"
#include "engine/expression/document_path.h"
#include "engine/expression/evaluate.h"
#include "engine/expression/lexer.h"
#include "engine/expression/resolve.h"
#include "engine/number.h"
#include "engine/partiql/lexer.h"
#include "engine/partiql/parser.h"
#include "engine/partiql/planner.h"
#include "engine/secondary_index.h"
#include "engine/vectors/vector_index.h"

namespace ddb::api {
namespace {

namespace expr = engine::expr;
namespace partiql = engine::partiql;
using engine::Item;

// Whether `text` reads as a number at all (as Java's BigDecimal, which
// DynamoDB reads a parameter's numbers with, reads it); range and digit
// limits are checked later, in document order with the rest.
bool Convertible(std::string_view text) {
  auto number = engine::Number::Parse(text, engine::Number::Reading::kBigDecimal);
  return number.ok() || !number.status().message().starts_with(engine::Number::kNotANumberMessage);
}

// The first problem in document order among the numbers of a parameter
// (`json`, nested `depth` lists and maps deep) that DynamoDB cannot convert
// and the lists and maps nested too deeply; nullopt when there is none.
std::optional<ApiError> CheckParameter(const rapidjson::Value& json, int depth) {
  if (!json.IsObject()) return std::nullopt;
  for (const auto& member : json.GetObject()) {
    std::string_view type = View(member.name);
    const rapidjson::Value& value = member.value;
    std::vector<const rapidjson::Value*> numbers;
    if (type == "N") numbers.push_back(&value);
    if (type == "NS" && value.IsArray()) {
      for (const auto& element : value.GetArray()) numbers.push_back(&element);
    }
    for (const rapidjson::Value* number : numbers) {
      if (!number->IsString() || Convertible(View(*number))) continue;
      std::string text(View(*number));
      return ApiError::Validation("The parameter cannot be converted to a numeric value" +
                                  (text.empty() ? "" : ": " + text));
    }
    if ((type == "M" && value.IsObject()) || (type == "L" && value.IsArray())) {
      if (depth + 1 >= engine::kMaxNestingDepth) {
        return ApiError::Validation(
            "Nesting Levels have exceeded supported limits: Attributes in the item have nested "
            "levels beyond supported limit");
      }
      if (type == "M") {
        for (const auto& inner : value.GetObject()) {
          if (auto error = CheckParameter(inner.value, depth + 1)) return error;
        }
      } else {
        for (const auto& inner : value.GetArray()) {
          if (auto error = CheckParameter(inner, depth + 1)) return error;
        }
      }
    }
  }
  return std::nullopt;
}

ApiResult<std::vector<engine::AttributeValue>> ReadParameters(const rapidjson::Value* json) {
  std::vector<engine::AttributeValue> parameters;
  if (!json) return parameters;
  for (const auto& element : json->GetArray()) {
    if (auto error = CheckParameter(element, 0)) return *error;
  }
  for (const auto& element : json->GetArray()) {
    auto value = ParseAttributeValue(element);
    if (!value.ok()) return value.take_error();
    parameters.push_back(std::move(value).value());
  }
  return parameters;
}

ApiResult<std::shared_ptr<const engine::TableSchema>> FindSchema(Context& ctx,
                                                                 const std::string& table) {
  auto schema = ctx.db.GetSchema(ctx.caller.ns, table);
  if (!schema.ok()) return schema.status();
  return std::move(schema).value();
}

// The name PartiQL gives a projected value: the last name of its path.
const std::string& ColumnName(const expr::Path& path) {
  for (auto it = path.elements.rbegin(); it != path.elements.rend(); ++it) {
    if (!it->is_index) return it->name;
  }
  return path.elements.front().name;
}

// attribute_exists(<hash key>) [AND rest]: an UPDATE changes only an
// existing item.
expr::Condition ExistsAnd(const engine::TableSchema& schema, std::optional<expr::Condition> rest) {
  expr::Condition exists;
  exists.kind = expr::Condition::Kind::kFunction;
  exists.function = "attribute_exists";
  expr::Operand path;
  path.kind = expr::Operand::Kind::kPath;
  path.path.elements.push_back({schema.hash_key().name, 0, false});
  exists.operands.push_back(std::move(path));
  if (!rest) return exists;
  expr::Condition both;
  both.kind = expr::Condition::Kind::kAnd;
  both.children.push_back(std::move(exists));
  both.children.push_back(std::move(*rest));
  return both;
}

std::string_view ReturnValuesFor(partiql::Returning returning) {
  switch (returning) {
    case partiql::Returning::kAllOld:
      return "ALL_OLD";
    case partiql::Returning::kAllNew:
      return "ALL_NEW";
    case partiql::Returning::kModifiedOld:
      return "UPDATED_OLD";
    case partiql::Returning::kModifiedNew:
      return "UPDATED_NEW";
    case partiql::Returning::kNone:
      break;
  }
  return "NONE";
}

const Item* Pointer(const std::optional<Item>& item) { return item ? &*item : nullptr; }

constexpr std::string_view kExistsNeedsKey =
    "EXISTS() must contain a single item read with additional condition";

// DynamoDB's PartiQL does not read indexes whose key has several HASH or
// RANGE attributes.
bool IsMultiAttribute(const engine::IndexSchema& index) {
  return index.key.hash.size() > 1 || index.key.range.size() > 1;
}

ApiError MultiAttributeRefusal() {
  return ApiError::Validation(
      "PartiQL statements cannot be executed on tables with multi-attribute HASH keys or "
      "multi-attribute RANGE keys.");
}

// The index `name` of `schema` a SELECT reads (nullptr: the table itself).
ApiResult<const engine::IndexSchema*> FindReadIndex(const engine::TableSchema& schema,
                                                    const std::string& name, bool consistent) {
  if (name.empty()) return static_cast<const engine::IndexSchema*>(nullptr);
  const engine::IndexSchema* index = engine::FindIndex(schema, name);
  if (!index && engine::FindVectorIndex(schema, name)) {
    return ApiError::Validation("Scan operation not supported on this index type");
  }
  // PartiQL's text names no index, unlike Query's (captured).
  if (!index) return ApiError::Validation("The table does not have the specified index");
  if (IsMultiAttribute(*index)) return MultiAttributeRefusal();
  if (!index->is_local && consistent) {
    return ApiError::Validation(
        "Strongly consistent read is not supported on Global Secondary Indexes");
  }
  return index;
}

// Whether a SELECT of `index` must read the table's items: a local index
// reaches attributes beyond its projection that way; a global one cannot, and
// a SELECT list naming such attributes is refused, in statement order.
ApiResult<bool> NeedsTableItems(const engine::TableSchema& schema, const engine::IndexSchema& index,
                                const partiql::SelectStatement& select) {
  if (!select.projection || index.projection.type == engine::ProjectionType::kAll) return false;
  std::vector<std::string> missing;
  for (const expr::Path& path : select.projection->paths) {
    const std::string& name = path.elements.front().name;
    if (!engine::IndexProjects(schema, index, name) &&
        std::find(missing.begin(), missing.end(), name) == missing.end()) {
      missing.push_back(name);
    }
  }
  if (missing.empty()) return false;
  if (index.is_local) return true;
  std::string listed;
  for (const std::string& name : missing) listed += (listed.empty() ? "" : ", ") + name;
  return ApiError::Validation("One or more parameter values were invalid: Global secondary index " +
                              index.name + " does not project [" + listed + "]");
}

// Whether `where` is keyed on `index`: one of its top-level conjuncts is an
// equality or IN on the index's partition key. (An OR at the top is not,
// even when each branch names the key.)
bool KeyedOn(const engine::IndexSchema& index, const expr::Condition& where) {
  using Kind = expr::Condition::Kind;
  if (where.kind == Kind::kAnd) {
    return std::any_of(where.children.begin(), where.children.end(),
                       [&](const expr::Condition& c) { return KeyedOn(index, c); });
  }
  const bool fixes = (where.kind == Kind::kCompare && where.op == expr::Comparator::kEq) ||
                     where.kind == Kind::kIn;
  if (!fixes) return false;
  const std::string& partition_key = index.key.hash.front().name;
  auto names_key = [&](const expr::Operand& operand) {
    return operand.kind == expr::Operand::Kind::kPath && operand.path.elements.size() == 1 &&
           operand.path.elements.front().name == partition_key;
  };
  if (where.kind == Kind::kIn) return names_key(where.operands.front());
  return std::any_of(where.operands.begin(), where.operands.end(), names_key);
}

// A SELECT keyed on an index's partition key may not filter on attributes
// the index leaves out — a GSI's or an LSI's alike; unkeyed, it scans the
// index, where they are simply absent (captured by the public conformance
// suite, 2026).
ApiResult<bool> CheckKeyedFilterProjected(const engine::TableSchema& schema,
                                          const engine::IndexSchema& index,
                                          const partiql::SelectStatement& select) {
  if (!select.where || !KeyedOn(index, *select.where)) return true;
  std::string missing = engine::UnprojectedNames(schema, index, expr::AttributesRead(*select.where));
  if (missing.empty()) return true;
  return ApiError::FilterNotProjected(index.name, missing);
}

// Reads one page of a SELECT: a Scan, or Queries of its partitions one after
// the other, until Limit items were evaluated or 1 MB was read.
struct PageReader {
  PageReader(Context& context, const partiql::SelectStatement& statement,
             const SelectOptions& read_options)
      : ctx(context), select(statement), options(read_options) {}

  Context& ctx;
  const partiql::SelectStatement& select;
  const SelectOptions& options;
  SelectResult result;
  bool fetch_table_items = false;  // a local index read reaches the table's items
  size_t bytes_read = 0;
  std::vector<size_t> fetched_sizes;  // table items a local index read fetched
  size_t evaluated = 0;

  void Keep(const engine::Page& page) {
    bytes_read += page.bytes_read;
    fetched_sizes.insert(fetched_sizes.end(), page.fetched_sizes.begin(),
                         page.fetched_sizes.end());
    evaluated += page.items.size();
    for (const Item& item : page.items) {
      if (auto selected = SelectFrom(select, item)) result.items.push_back(std::move(*selected));
    }
  }

  ApiResult<bool> Scan() {
    engine::ScanRequest scan;
    scan.index_name = select.source.index;
    scan.exclusive_start_key = options.start.exclusive_start_key;
    scan.limit = options.limit;
    scan.fetch_table_items = fetch_table_items;
    auto page = ctx.db.Scan(ctx.caller.ns, select.source.table, scan);
    if (!page.ok()) return page.status();
    Keep(*page);
    if (page->last_evaluated_key) result.next = SelectPosition{0, page->last_evaluated_key};
    return true;
  }

  ApiResult<bool> Partitions(std::vector<partiql::KeyRange>& ranges, bool forward) {
    for (size_t i = options.start.partition; i < ranges.size(); ++i) {
      engine::QueryRequest query;
      query.index_name = select.source.index;
      query.partition = std::move(ranges[i].partition);
      query.sort = std::move(ranges[i].sort);
      query.forward = forward;
      if (i == options.start.partition) {
        query.exclusive_start_key = options.start.exclusive_start_key;
      }
      query.limit = options.limit ? options.limit - evaluated : 0;
      query.fetch_table_items = fetch_table_items;
      auto page = ctx.db.Query(ctx.caller.ns, select.source.table, query);
      if (!page.ok()) return page.status();
      Keep(*page);
      if (page->last_evaluated_key) {
        result.next = SelectPosition{i, page->last_evaluated_key};
        return true;
      }
      bool full =
          (options.limit && evaluated >= options.limit) || bytes_read >= engine::kMaxPageBytes;
      if (full && i + 1 < ranges.size()) {
        result.next = SelectPosition{i + 1, std::nullopt};
        return true;
      }
    }
    return true;
  }
};

}  // namespace

ApiResult<StatementRequest> ReadStatementRequest(const rapidjson::Value& object,
                                                 const std::string& path) {
  RequestReader r(object);
  auto statement = r.String("Statement");
  const rapidjson::Value* parameters_json = r.Array("Parameters");
  if (r.failed()) return r.error();
  Constraints constraints;
  constraints.NotNull(statement.has_value(), path + "statement");
  if (statement) constraints.Length(*statement, path + "statement", 1, kMaxStatementLength);
  if (parameters_json && parameters_json->Empty()) {
    constraints.Violation("", path + "parameters",
                          "Member must have length greater than or equal to 1");
  }
  if (!constraints.empty()) return constraints.ToError();
  auto parameters = ReadParameters(parameters_json);
  if (!parameters.ok()) return parameters.take_error();
  return StatementRequest{*statement, std::move(parameters).value()};
}

namespace {

// The table and index a statement's `FROM "table"."index"` names, read from
// its tokens alone; nullopt when it names none.
std::optional<std::pair<std::string, std::string>> IndexSourceOf(std::string_view text) {
  using Kind = partiql::Token::Kind;
  auto tokens = partiql::Tokenize(text);
  auto is_name = [](const partiql::Token& t) {
    return t.kind == Kind::kIdentifier || t.kind == Kind::kQuotedIdentifier;
  };
  for (size_t i = 0; i + 3 < tokens.size(); ++i) {
    if (tokens[i].kind == Kind::kIdentifier && engine::expr::IsKeyword(tokens[i].text, "FROM") &&
        is_name(tokens[i + 1]) && tokens[i + 2].kind == Kind::kDot && is_name(tokens[i + 3])) {
      return std::pair{tokens[i + 1].value, tokens[i + 3].value};
    }
  }
  return std::nullopt;
}

}  // namespace

ApiResult<partiql::Statement> ParseStatementRequest(Context& ctx, const StatementRequest& request) {
  auto parsed = partiql::ParseStatement(request.text, request.parameters);
  if (parsed.ok()) return std::move(parsed).value();
  // DynamoDB refuses a multi-attribute index once the statement is well
  // formed, before anything else about it (a COUNT(*) on such an index gets
  // the refusal; a statement that breaks off its own error, captured 2026-10).
  const bool malformed = parsed.status().message().starts_with(partiql::kMalformed);
  if (auto source = malformed ? std::nullopt : IndexSourceOf(request.text)) {
    auto schema = ctx.db.GetSchema(ctx.caller.ns, source->first);
    const engine::IndexSchema* index =
        schema.ok() ? engine::FindIndex(**schema, source->second) : nullptr;
    if (index && IsMultiAttribute(*index)) return MultiAttributeRefusal();
  }
  return parsed.status();
}

ApiResult<partiql::Statement> ReadStatement(Context& ctx, const rapidjson::Value& object,
                                            const std::string& path) {
  auto request = ReadStatementRequest(object, path);
  if (!request.ok()) return request.take_error();
  return ParseStatementRequest(ctx, *request);
}

std::optional<Item> SelectFrom(const partiql::SelectStatement& select, const Item& item) {
  if (select.where && !expr::EvaluateCondition(*select.where, &item)) return std::nullopt;
  if (!select.projection) return item;
  Item shaped;
  for (const expr::Path& path : select.projection->paths) {
    if (const auto* value = expr::FindPath(item, path)) shaped[ColumnName(path)] = *value;
  }
  return shaped;
}

ApiResult<SelectResult> RunSelect(Context& ctx, const partiql::SelectStatement& select,
                                  const SelectOptions& options) {
  auto schema = FindSchema(ctx, select.source.table);
  if (!schema.ok()) return schema.take_error();
  auto index = FindReadIndex(**schema, select.source.index, options.consistent);
  if (!index.ok()) return index.take_error();
  auto fetch = *index ? NeedsTableItems(**schema, **index, select) : ApiResult<bool>(false);
  if (!fetch.ok()) return fetch.take_error();
  if (*index) {
    if (auto keyed = CheckKeyedFilterProjected(**schema, **index, select); !keyed.ok()) {
      return keyed.take_error();
    }
  }
  const engine::KeySchema& key = *index ? (*index)->key : (*schema)->key;
  std::vector<partiql::KeyRange> ranges;
  if (select.where) {
    if (auto overlap = partiql::CheckBranchesDoNotOverlap(*select.where, key); !overlap.ok()) {
      return overlap;
    }
    ranges = partiql::PlanKeyRanges(*select.where, key);
  }
  auto forward = partiql::ApplyOrderBy(select, key, ranges);
  if (!forward.ok()) return forward.status();
  PageReader reader(ctx, select, options);
  reader.fetch_table_items = *fetch;
  auto read = ranges.empty() ? reader.Scan() : reader.Partitions(ranges, *forward);
  if (!read.ok()) return read.take_error();
  reader.result.consumption =
      ReadConsumption(**schema, *index, reader.bytes_read, options.consistent);
  AddFetchedItems(reader.result.consumption, reader.fetched_sizes, options.consistent);
  return std::move(reader.result);
}

namespace {

// Whether `condition` asks whether an attribute exists: a key read with
// such a test is refused in batches and transactions (captured 2026-10).
bool TestsExistence(const engine::expr::Condition& condition) {
  using Kind = engine::expr::Condition::Kind;
  if (condition.kind == Kind::kFunction) {
    return condition.function == "attribute_exists" || condition.function == "attribute_not_exists";
  }
  return std::any_of(condition.children.begin(), condition.children.end(), TestsExistence);
}

}  // namespace

ApiResult<KeyedSelect> ReadByKey(Context& ctx, const partiql::SelectStatement& select,
                                 std::string_view missing_key) {
  auto schema = FindSchema(ctx, select.source.table);
  if (!schema.ok()) return schema.take_error();
  if (!select.source.index.empty()) {
    const engine::IndexSchema* index = engine::FindIndex(**schema, select.source.index);
    if (index && IsMultiAttribute(*index)) return MultiAttributeRefusal();
  }
  if (!select.where || !select.source.index.empty()) {
    return ApiError::Validation(std::string(missing_key));
  }
  auto split = partiql::SplitKey(*select.where, (*schema)->key);
  if (!split.ok() || (split->rest && TestsExistence(*split->rest))) {
    return ApiError::Validation(std::string(missing_key));
  }
  return KeyedSelect{std::move(schema).value(), std::move(split->key), &select};
}

ApiResult<TransactAction> WriteAction(Context& ctx, const partiql::Statement& statement,
                                      bool old_item_on_failure) {
  auto schema = FindSchema(ctx, partiql::TableOf(statement));
  if (!schema.ok()) return schema.take_error();
  TransactAction action;
  ItemRequest& request = action.request;
  request.table = partiql::TableOf(statement);
  request.old_item_on_failure = old_item_on_failure;
  if (const auto* insert = std::get_if<partiql::InsertStatement>(&statement)) {
    action.op = ItemOp::kInsert;
    request.attributes = insert->item;
    return action;
  }
  if (const auto* exists = std::get_if<partiql::ExistsStatement>(&statement)) {
    if (!exists->select.source.index.empty()) {
      return ApiError::Validation("Operations on indices are not supported in transactions");
    }
    if (!exists->select.where) return ApiError::Validation(std::string(kExistsNeedsKey));
    auto split = partiql::SplitKey(*exists->select.where, (*schema)->key);
    if (!split.ok() || !split->rest) return ApiError::Validation(std::string(kExistsNeedsKey));
    action.op = ItemOp::kConditionCheck;
    request.attributes = std::move(split->key);
    request.expressions.condition = ExistsAnd(**schema, std::move(split->rest));
    return action;
  }
  const auto* update = std::get_if<partiql::UpdateStatement>(&statement);
  const auto* remove = std::get_if<partiql::DeleteStatement>(&statement);
  if (!update && !remove) return ApiError::Internal("not a write statement");
  const expr::Condition& where = update ? update->where : remove->where;
  auto split = partiql::SplitKey(where, (*schema)->key);
  if (!split.ok()) return split.status();
  request.attributes = std::move(split->key);
  if (update) {
    action.op = ItemOp::kUpdate;
    expr::Update changes = update->update;
    expr::Placeholders none({}, {});
    if (auto checked = none.Resolve(changes); !checked.ok()) return checked;
    request.expressions.update = std::move(changes);
    request.expressions.condition = ExistsAnd(**schema, std::move(split->rest));
    request.return_values = ReturnValuesFor(update->returning);
  } else {
    action.op = ItemOp::kDelete;
    request.expressions.condition = std::move(split->rest);
    request.condition_skips_absent_item = true;
    request.return_values = ReturnValuesFor(remove->returning);
  }
  return action;
}

ApiResult<WriteResult> RunWrite(Context& ctx, const TransactAction& action) {
  const ItemRequest& request = action.request;
  if (action.op == ItemOp::kConditionCheck) {
    return ApiError::Validation("EXISTS can only be used in ExecuteTransaction write requests.");
  }
  auto schema = FindSchema(ctx, request.table);
  if (!schema.ok()) return schema.take_error();
  ConditionCheck check(request);
  Item new_item;
  bool writes_item = action.op != ItemOp::kDelete;
  engine::Result<std::optional<Item>> old_item = std::optional<Item>();
  if (action.op == ItemOp::kInsert) {
    new_item = request.attributes;
    old_item = ctx.db.PutItem(ctx.caller.ns, request.table, new_item, [](const Item* current) {
      return current ? engine::Status::AlreadyExists(std::string(kDuplicateItem))
                     : engine::Status::Ok();
    });
  } else {
    auto planner = [&](const Item* current) -> engine::Result<engine::Mutation> {
      DDB_RETURN_IF_ERROR(check(current));
      if (action.op == ItemOp::kDelete) {
        if (!current) return engine::Mutation{};
        return engine::Mutation{engine::Mutation::Kind::kDelete, {}};
      }
      auto updated = UpdatedItem(request, current);
      if (!updated.ok()) return updated.status();
      new_item = std::move(updated).value();
      return engine::Mutation{engine::Mutation::Kind::kPut, new_item};
    };
    old_item = ctx.db.WriteItem(ctx.caller.ns, request.table, request.attributes, planner);
  }
  if (!old_item.ok()) {
    if (old_item.status().code() == engine::Status::Code::kAlreadyExists) {
      return ApiError::DuplicateItem(old_item.status().message());
    }
    return check.Error(old_item.status());
  }
  WriteResult result;
  const Item* after = writes_item ? &new_item : nullptr;
  result.consumption = WriteConsumption(**schema, Pointer(*old_item), after);
  if (action.op == ItemOp::kUpdate) {
    result.returned = UpdateResult(request.return_values, *old_item, new_item, request.expressions);
  } else if (request.return_values == "ALL_OLD") {
    result.returned = *old_item;
  }
  if (result.returned && result.returned->empty()) result.returned.reset();
  return result;
}

}  // namespace ddb::api
