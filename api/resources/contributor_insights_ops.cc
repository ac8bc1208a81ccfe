// UpdateContributorInsights, DescribeContributorInsights,
// ListContributorInsights: the setting per table and per global index,
// kept in the table's schema (engine::ContributorInsights) with the rule
// names, statuses and texts real DynamoDB answers (docs/compatibility.md).
// A change answers ENABLING or DISABLING and settles after the server's
// transient-status delay (at once by default).
#include <algorithm>
#include <charconv>

#include "api/attribute_json.h"
#include "api/json_reader.h"
#include "api/operations.h"
#include "api/resources/insights_report.h"
#include "api/tables/schema_change.h"
#include "api/tables/table_json.h"
#include "engine/key_insights.h"

namespace ddb::api {
namespace {

constexpr std::string_view kAccessedAndThrottled = "ACCESSED_AND_THROTTLED_KEYS";

ApiError InsightsIndexNotFound(std::string_view index, std::string_view table) {
  return ApiError::ResourceNotFound("Requested resource not found: Index: " + std::string(index) +
                                    " not found for table: " + std::string(table));
}

// The setting of `index` ("": the table's) in `schema` (const or not), or null.
template <class Schema>
auto* FindInsights(Schema& schema, std::string_view index) {
  auto& all = schema.contributor_insights;
  auto it =
      std::find_if(all.begin(), all.end(), [&](const auto& i) { return i.index_name == index; });
  return it == all.end() ? nullptr : &*it;
}

// The status a setting shows: the transition to it until it settles.
std::string_view InsightsStatus(const Context& ctx, const engine::ContributorInsights& insights) {
  bool settling = ctx.InTransition(insights.last_update_millis);
  if (insights.enabled) return settling ? "ENABLING" : "ENABLED";
  return settling ? "DISABLING" : "DISABLED";
}

// DynamoDB's rule names: most accessed (C) and most throttled (T)
// partition keys, and sort keys where there are any; throttled only under
// THROTTLED_KEYS.
std::vector<std::string> InsightsRuleNames(const engine::TableSchema& schema,
                                           const engine::ContributorInsights& insights) {
  std::string resource = schema.name;
  if (!insights.index_name.empty()) resource += "-" + insights.index_name;
  std::string suffix = "-" + resource + "-" + std::to_string(insights.rules_created_millis);
  bool accessed = insights.mode == kAccessedAndThrottled;
  const engine::KeySchema* watched = engine::InsightsKeySchema(schema, insights.index_name);
  bool sort_key = watched && !watched->range.empty();
  std::vector<std::string> names;
  for (std::string_view kind : {"PKC", "PKT", "SKC", "SKT"}) {
    if (kind[2] == 'C' && !accessed) continue;
    if (kind[0] == 'S' && !sort_key) continue;
    names.push_back("DynamoDBContributorInsights-" + std::string(kind) + suffix);
  }
  return names;
}

// TableName (name or ARN) and IndexName, the table's schema, and the index
// checked to be one of its GSIs.
struct InsightsTarget {
  std::string table;
  std::string index;
  std::shared_ptr<const engine::TableSchema> schema;
};

ApiResult<InsightsTarget> ReadInsightsTarget(const Context& ctx, RequestReader& r) {
  auto table = ReadTableNameOrArn(r);
  if (!table.ok()) return table.take_error();
  auto index = r.String("IndexName");
  if (r.failed()) return r.error();
  Constraints constraints;
  if (index) constraints.Length(*index, "indexName", 3, 255);
  if (!constraints.empty()) return constraints.ToError();
  auto schema = ctx.db.GetSchema(ctx.caller.ns, *table);
  if (!schema.ok()) return engine::TableNotFound(*table);
  InsightsTarget target{*table, std::string(index.value_or("")), *schema};
  if (index && std::none_of((*schema)->global_indexes.begin(), (*schema)->global_indexes.end(),
                            [&](const engine::IndexSchema& gsi) { return gsi.name == *index; })) {
    return InsightsIndexNotFound(*index, *table);
  }
  return target;
}

}  // namespace

ApiResult<std::string> UpdateContributorInsights(Context& ctx, const rapidjson::Value& request) {
  RequestReader r(request);
  auto target = ReadInsightsTarget(ctx, r);
  if (!target.ok()) return target.take_error();
  auto action = r.String("ContributorInsightsAction");
  auto mode = r.String("ContributorInsightsMode");
  if (r.failed()) return r.error();
  Constraints constraints;
  constraints.NotNull(action.has_value(), "contributorInsightsAction");
  constraints.Enum(action, "contributorInsightsAction", {"ENABLE", "DISABLE"});
  constraints.Enum(mode, "contributorInsightsMode", {kAccessedAndThrottled, "THROTTLED_KEYS"});
  if (!constraints.empty()) return constraints.ToError();

  const bool enable = *action == "ENABLE";
  int64_t now = ctx.db.clock().NowMillis();
  engine::ContributorInsights after;
  std::string status;
  auto updated =
      ChangeSchema(ctx, target->table, [&](engine::TableSchema& schema) -> std::optional<ApiError> {
        engine::ContributorInsights* found = FindInsights(schema, target->index);
        if (!found) {
          if (!enable) {  // never enabled: nothing to disable, nothing to keep
            status = "DISABLED";
            return std::nullopt;
          }
          found = &schema.contributor_insights.emplace_back(
              engine::ContributorInsights{target->index, false, "", 0, 0});
        }
        engine::ContributorInsights& insights = *found;
        // ENABLE without a mode means the default mode; the same setting
        // again changes nothing. DISABLE keeps the mode it had.
        std::string wanted =
            enable ? std::string(mode.value_or(kAccessedAndThrottled)) : insights.mode;
        if (insights.enabled == enable && insights.mode == wanted) {
          status = enable ? "ENABLED" : "DISABLED";
        } else {
          if (enable && !insights.enabled) insights.rules_created_millis = now;
          insights.enabled = enable;
          insights.mode = wanted;
          insights.last_update_millis = now;
          status = enable ? "ENABLING" : "DISABLING";
        }
        after = insights;
        return std::nullopt;
      });
  if (!updated.ok()) return updated.take_error();
  return RenderObject([&](JsonWriter& w) {
    w.Key("TableName");
    WriteString(w, target->table);
    if (!target->index.empty()) {
      w.Key("IndexName");
      WriteString(w, target->index);
    }
    w.Key("ContributorInsightsStatus");
    WriteString(w, status);
    if (!after.mode.empty()) {
      w.Key("ContributorInsightsMode");
      WriteString(w, after.mode);
    }
  });
}

ApiResult<std::string> DescribeContributorInsights(Context& ctx, const rapidjson::Value& request) {
  RequestReader r(request);
  auto target = ReadInsightsTarget(ctx, r);
  if (!target.ok()) return target.take_error();
  const engine::TableSchema& schema = *target->schema;
  const engine::ContributorInsights* insights = FindInsights(schema, target->index);
  return RenderObject([&](JsonWriter& w) {
    w.Key("TableName");
    WriteString(w, schema.name);
    if (!target->index.empty()) {
      w.Key("IndexName");
      WriteString(w, target->index);
    }
    if (!insights) {  // never configured
      w.Key("ContributorInsightsStatus");
      w.String("DISABLED");
      return;
    }
    if (insights->enabled) {
      w.Key("ContributorInsightsRuleList");
      w.StartArray();
      for (const std::string& name : InsightsRuleNames(schema, *insights)) WriteString(w, name);
      w.EndArray();
    }
    w.Key("ContributorInsightsStatus");
    WriteString(w, InsightsStatus(ctx, *insights));
    w.Key("LastUpdateDateTime");
    WriteSeconds(w, insights->last_update_millis);
    w.Key("ContributorInsightsMode");
    WriteString(w, insights->mode);
  });
}

ApiResult<std::string> ListContributorInsights(Context& ctx, const rapidjson::Value& request) {
  RequestReader r(request);
  auto table = r.String("TableName");
  auto token = r.String("NextToken");
  auto max_results = r.Integer("MaxResults");
  if (r.failed()) return r.error();
  Constraints constraints;
  if (table) constraints.TableNameOrArn(table);
  constraints.Range(max_results, "maxResults", 0, 100);
  if (!constraints.empty()) return constraints.ToError();

  // Every setting that is not DISABLED: each table's own, then its
  // indexes', tables by name.
  std::vector<std::string> tables;
  if (table) {
    std::string name = TableNameFromArn(*table);
    if (!ctx.db.GetSchema(ctx.caller.ns, name).ok()) return engine::TableNotFound(name);
    tables.push_back(name);
  } else {
    tables = ctx.db.ListTables(ctx.caller.ns, "", SIZE_MAX).names;
  }
  struct Summary {
    std::string table;
    std::string index;
    std::string status;
    std::string mode;
  };
  std::vector<Summary> summaries;
  for (const std::string& name : tables) {
    auto schema = ctx.db.GetSchema(ctx.caller.ns, name);
    if (!schema.ok()) continue;
    std::vector<std::string> order = {""};
    for (const auto& gsi : (*schema)->global_indexes) order.push_back(gsi.name);
    for (const std::string& index : order) {
      const engine::ContributorInsights* insights = FindInsights(**schema, index);
      if (!insights || InsightsStatus(ctx, *insights) == "DISABLED") continue;
      summaries.push_back(
          {name, index, std::string(InsightsStatus(ctx, *insights)), insights->mode});
    }
  }
  // NextToken is the position of the next summary.
  size_t first = 0;
  if (token) {
    const char* end = token->data() + token->size();
    auto [stop, error] = std::from_chars(token->data(), end, first);
    if (token->empty() || error != std::errc() || stop != end) {
      return ApiError::Validation("Invalid NextToken");
    }
    first = std::min(first, summaries.size());
  }
  size_t limit = max_results && *max_results > 0 ? static_cast<size_t>(*max_results) : 100;
  size_t last = std::min(summaries.size(), first + limit);
  return RenderObject([&](JsonWriter& w) {
    w.Key("ContributorInsightsSummaries");
    w.StartArray();
    for (size_t i = first; i < last; ++i) {
      w.StartObject();
      w.Key("TableName");
      WriteString(w, summaries[i].table);
      if (!summaries[i].index.empty()) {
        w.Key("IndexName");
        WriteString(w, summaries[i].index);
      }
      w.Key("ContributorInsightsStatus");
      WriteString(w, summaries[i].status);
      w.Key("ContributorInsightsMode");
      WriteString(w, summaries[i].mode);
      w.EndObject();
    }
    w.EndArray();
    if (last < summaries.size()) {
      w.Key("NextToken");
      WriteString(w, std::to_string(last));
    }
  });
}

ApiResult<std::string> InsightsReport(engine::Engine& engine, std::string_view ns,
                                      std::string_view table, size_t limit) {
  auto schema = engine.database().GetSchema(ns, table);
  if (!schema.ok()) return engine::TableNotFound(table);
  const engine::TableSchema& t = **schema;
  return RenderObject([&](JsonWriter& w) {
    w.Key("TableName");
    WriteString(w, t.name);
    w.Key("Rules");
    w.StartArray();
    for (const auto& insights : t.contributor_insights) {
      if (!insights.enabled) continue;
      for (const std::string& name : InsightsRuleNames(t, insights)) {
        // "DynamoDBContributorInsights-PKC-...": the kind after the first '-'.
        std::string_view kind = std::string_view(name).substr(name.find('-') + 1, 3);
        engine::InsightsRule rule =
            kind == "PKC"   ? engine::InsightsRule::kPartitionAccessed
            : kind == "PKT" ? engine::InsightsRule::kPartitionThrottled
            : kind == "SKC" ? engine::InsightsRule::kKeyAccessed
                            : engine::InsightsRule::kKeyThrottled;
        w.StartObject();
        w.Key("RuleName");
        WriteString(w, name);
        if (!insights.index_name.empty()) {
          w.Key("IndexName");
          WriteString(w, insights.index_name);
        }
        w.Key("Contributors");
        w.StartArray();
        auto top = engine.key_insights().Top(ns, t, insights.index_name, rule, limit);
        for (const auto& tally : top) {
          w.StartObject();
          w.Key("Keys");
          WriteItem(w, tally.key);
          w.Key("Count");
          w.Uint64(tally.count);
          w.EndObject();
        }
        w.EndArray();
        w.EndObject();
      }
    }
    w.EndArray();
  });
}

}  // namespace ddb::api
