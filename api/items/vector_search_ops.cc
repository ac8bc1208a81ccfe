// SearchVectors: the TopK items nearest a vector in a vector index, with
// DynamoDB's checks in its order — the request's members, TopK's range, the
// vector's values, then (in the engine) the index, the vector's dimension
// and the search condition against the index's search schema.
//
// Results leave out the vector attribute unless ProjectionExpression names
// it (and the index projects it); then it comes back as the index stores
// it, each component rounded to a 32-bit float.
#include <algorithm>
#include <cmath>
#include <optional>

#include "api/attribute_json.h"
#include "api/capacity.h"
#include "api/items/expression_request.h"
#include "api/items/item_request.h"
#include "api/json_reader.h"
#include "api/operations.h"
#include "api/tables/vector_index_request.h"
#include "engine/secondary_index.h"
#include "engine/vectors/vector_index.h"

namespace ddb::api {
namespace {

constexpr int64_t kMaxTopK = 100;
constexpr size_t kMaxResponseBytes = 16 * 1024 * 1024;

ApiError InvalidSearchCondition(const std::string& detail) {
  return ApiError::Validation("Invalid SearchConditionExpression: " + detail);
}

// SearchConditionExpression: `attribute = value` terms joined by AND.
ApiResult<bool> CollectEquals(const engine::expr::Condition& condition,
                              std::vector<std::pair<std::string, engine::AttributeValue>>& out) {
  using engine::expr::Condition;
  using engine::expr::Operand;
  if (condition.kind == Condition::Kind::kAnd) {
    for (const Condition& child : condition.children) {
      auto collected = CollectEquals(child, out);
      if (!collected.ok()) return collected;
    }
    return true;
  }
  if (condition.kind != Condition::Kind::kCompare || condition.op != engine::expr::Comparator::kEq) {
    return InvalidSearchCondition("Invalid comparator used in SearchConditionExpression");
  }
  const Operand* path = nullptr;
  const Operand* value = nullptr;
  for (const Operand& operand : condition.operands) {
    if (operand.kind == Operand::Kind::kPath) path = &operand;
    if (operand.kind == Operand::Kind::kValue) value = &operand;
  }
  if (!path || !value || path->path.elements.size() != 1 || path->path.elements[0].is_index) {
    return InvalidSearchCondition("Invalid comparator used in SearchConditionExpression");
  }
  out.emplace_back(path->path.elements[0].name, value->value);
  return true;
}

// The query vector: each element a Number within the f32 range.
ApiResult<std::vector<float>> ReadSearchVector(const rapidjson::Value& json) {
  std::vector<float> vector;
  vector.reserve(json.Size());
  for (const auto& element : json.GetArray()) {
    auto value = ParseAttributeValue(element);
    std::optional<float> component;
    if (value.ok() && value->is<engine::Number>()) component = engine::ToFloat(value->as<engine::Number>());
    if (!component) {
      return ApiError::Validation(
          "Search vector contains invalid values. All values in the search vector must be a "
          "32-bit floating-point number attribute");
    }
    vector.push_back(*component);
  }
  return vector;
}

// `item` as the index holds it: the table's key, the search schema
// attributes, and the projected others; the vector attribute only when
// `keep_vector`, its components rounded to f32.
engine::Item ProjectForVectorIndex(const engine::TableSchema& schema,
                                   const engine::VectorIndexSchema& index,
                                   const engine::Item& item, bool keep_vector) {
  engine::Item out;
  auto projects = [&](const std::string& name) {
    return engine::VectorIndexProjects(schema, index, name);
  };
  for (const auto& [name, value] : item) {
    if (name == index.vector_attribute) {
      if (!keep_vector || !projects(name) || !value.is<engine::List>()) continue;
      engine::List rounded;
      for (const auto& component : value.as<engine::List>()) {
        auto f = engine::ToFloat(component.as<engine::Number>());
        rounded.emplace_back(*engine::Number::Parse(engine::FloatText(*f)));
      }
      out.emplace(name, engine::AttributeValue(std::move(rounded)));
      continue;
    }
    if (projects(name)) out.emplace(name, value);
  }
  return out;
}

bool NamesVector(const std::optional<engine::expr::Projection>& projection,
                 const std::string& attribute) {
  if (!projection) return false;
  for (const auto& path : projection->paths) {
    if (!path.elements.empty() && path.elements[0].name == attribute) return true;
  }
  return false;
}

}  // namespace

namespace {

// SearchVectors reads its body with a strict deserialiser before checking any
// member, and answers in its words, pointing into the text (captured in
// eu-west-2 and us-east-1, 2026-10): an explicit null for one of its
// required members is a SerializationException, then a missing TableName a
// ValidationException, ahead of every other check.
std::optional<ApiError> CheckStrictShape(std::string_view body, const rapidjson::Value& request) {
  // "line L column C" of the character at `offset`, counted from 1.
  auto at = [&](size_t offset) {
    std::string_view before = body.substr(0, offset);
    size_t line_start = before.rfind('\n');
    size_t column = offset + 1 - (line_start == std::string_view::npos ? 0 : line_start + 1);
    return " at line " + std::to_string(1 + std::count(before.begin(), before.end(), '\n')) +
           " column " + std::to_string(column);
  };
  static constexpr std::pair<std::string_view, std::string_view> kRequired[] = {
      {"TableName", "a string"}, {"IndexName", "a string"},
      {"SearchVector", "a sequence"}, {"TopK", "i32"}};
  std::optional<std::pair<size_t, std::string_view>> first_null;
  for (auto [name, expected] : kRequired) {
    auto it = request.FindMember(rapidjson::StringRef(name.data(), name.size()));
    if (it == request.MemberEnd() || !it->value.IsNull()) continue;
    // Where the member's null ends: after its quoted name, the colon and null.
    size_t offset = body.find("\"" + std::string(name) + "\"");
    if (offset != std::string_view::npos) offset = body.find("null", offset);
    offset = offset == std::string_view::npos ? body.size() : offset + 3;
    if (!first_null || offset < first_null->first) first_null.emplace(offset, expected);
  }
  if (first_null) {
    return ApiError::Serialization("invalid type: null, expected " +
                                   std::string(first_null->second) + at(first_null->first));
  }
  if (!request.HasMember("TableName")) {
    size_t end = body.rfind('}');
    return ApiError::Validation("missing field `TableName`" +
                                at(end == std::string_view::npos ? body.size() : end));
  }
  return std::nullopt;
}

}  // namespace

ApiResult<std::string> SearchVectors(Context& ctx, const rapidjson::Value& request) {
  if (auto error = CheckStrictShape(ctx.body, request)) return *std::move(error);
  RequestReader r(request);
  auto table = r.String("TableName");
  auto index_name = r.String("IndexName");
  const rapidjson::Value* vector_json = r.Array("SearchVector");
  auto top_k = r.Integer("TopK");
  auto consumed = r.String("ReturnConsumedCapacity");
  if (r.failed()) return r.error();
  Constraints constraints;
  constraints.TableNameOrArn(table);
  constraints.NotNull(index_name.has_value(), "indexName");
  if (index_name) constraints.TableName(index_name, "indexName");
  constraints.NotNull(vector_json != nullptr, "searchVector");
  if (vector_json && vector_json->Empty()) {
    constraints.Violation("'[]'", "searchVector", "Member must have length greater than or equal to 1");
  }
  if (vector_json && vector_json->Size() > static_cast<rapidjson::SizeType>(kMaxVectorDimensions)) {
    constraints.Violation("", "searchVector", "Member must have length less than or equal to 4096");
  }
  constraints.NotNull(top_k.has_value(), "topK");
  constraints.Range(top_k, "topK", 1, INT32_MAX);
  constraints.Enum(consumed, "returnConsumedCapacity", {"INDEXES", "TOTAL", "NONE"});
  if (!constraints.empty()) return constraints.ToError();
  if (*top_k > kMaxTopK) {
    return ApiError::Validation("Provided TopK value '" + std::to_string(*top_k) +
                                "' is out of valid range. The value must be between 1 and 100 "
                                "inclusive");
  }
  auto vector = ReadSearchVector(*vector_json);
  if (!vector.ok()) return vector.take_error();
  ExpressionSpec spec;
  spec.projection = true;
  spec.search_condition = true;
  auto expressions = ReadExpressions(request, spec);
  if (!expressions.ok()) return expressions.take_error();

  engine::VectorQuery query;
  query.index_name = std::string(*index_name);
  query.vector = std::move(vector).value();
  query.top_k = static_cast<size_t>(*top_k);
  if (expressions->search_condition) {
    auto collected = CollectEquals(*expressions->search_condition, query.equals);
    if (!collected.ok()) return collected.take_error();
  }
  std::string table_name = TableNameFromArn(*table);
  auto found = ctx.engine.vectors().Search(ctx.caller.ns, table_name, query);
  if (!found.ok()) return found.status();
  const engine::TableSchema& schema = *found->schema;
  const engine::VectorIndexSchema* index = found->index;
  bool keep_vector = NamesVector(expressions->projection, index->vector_attribute);
  size_t response_bytes = 0;
  std::string mode(CapacityMode(request));
  return RenderObject([&](JsonWriter& w) {
    w.Key("SearchResults");
    w.StartArray();
    for (const auto& hit : found->hits) {
      engine::Item projected = ProjectForVectorIndex(schema, *index, hit.item, keep_vector);
      // DynamoDB stops at 16 MB and does not page.
      response_bytes += engine::ItemSize(projected);
      if (response_bytes > kMaxResponseBytes) break;
      w.StartObject();
      w.Key("Item");
      WriteProjected(w, projected, expressions->projection);
      w.Key("Score");
      w.Double(hit.score);
      w.EndObject();
    }
    w.EndArray();
    if (WantsCapacity(mode)) {
      // DynamoDB's figure varies between identical searches; ours is the
      // query vector's bytes and each result's entry as the index holds it
      // (inferred; only the shape is captured).
      size_t request_bytes = 4 * static_cast<size_t>(index->dimensions);
      for (const auto& hit : found->hits) {
        request_bytes += engine::VectorWriteBytes(schema, *index, hit.item).value_or(0);
      }
      w.Key("ConsumedCapacity");
      WriteVectorSearchCapacity(w, request_bytes);
    }
  });
}

}  // namespace ddb::api
