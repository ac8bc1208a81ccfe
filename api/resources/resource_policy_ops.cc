// PutResourcePolicy, GetResourcePolicy, DeleteResourcePolicy: a table's or
// its stream's resource-based policy, kept in the table's schema
// (engine::ResourcePolicy) and changed through Database::UpdateTable.
// Policies are checked (resource_policy.h) and answered, never enforced.
// Revision ids are the change's epoch milliseconds, as DynamoDB's are; a
// Put of the same policy keeps its revision.
#include <algorithm>

#include "api/json_reader.h"
#include "api/operations.h"
#include "api/resources/resource_policy.h"
#include "api/tables/schema_change.h"

namespace ddb::api {
namespace {

constexpr std::string_view kNotFoundPrefix =
    "Resource-based policy not found for the provided ResourceArn: ";

// What a ResourceArn names: a table, or one of its streams.
struct PolicyTarget {
  std::string table;
  std::string stream_label;  // empty: the table
};

ApiError InvalidArn(std::string_view why, std::string_view arn) {
  return ApiError::InvalidParameters(std::string(why) + std::string(arn));
}

// Reads a ResourceArn the way DynamoDB refuses one: not an ARN, not
// DynamoDB's, another region's or account's, an index's or a backup's.
ApiResult<PolicyTarget> ReadTarget(const Context& ctx, std::optional<std::string_view> arn) {
  if (!arn) {
    Constraints constraints;
    constraints.NotNull(false, "resourceArn");
    return constraints.ToError();
  }
  if (!arn->starts_with("arn:")) return InvalidArn("ARNs must start with 'arn:': ", *arn);
  // arn:partition:service:region:account:resource (a stream label has colons).
  std::vector<std::string_view> parts;
  size_t from = 0;
  for (int i = 0; i < 5; ++i) {
    size_t colon = arn->find(':', from);
    if (colon == std::string_view::npos) return InvalidArn("Invalid resource Arn: ", *arn);
    parts.push_back(arn->substr(from, colon - from));
    from = colon + 1;
  }
  std::string_view resource = arn->substr(from);
  if (parts[2] != "dynamodb") {
    return InvalidArn("Provided Arn is not a DynamoDB resource arn: ", *arn);
  }
  if (parts[1] != "aws" || parts[3] != ctx.caller.region) {
    return InvalidArn("Invalid resource Arn: ", *arn);
  }
  if (parts[4] != ctx.caller.account_id) {
    return ApiError::Validation(
        "This action is only supported by accounts that match the resource owner\u2019s "
        "account.");
  }
  if (!resource.starts_with("table/")) return InvalidArn("Invalid resource Arn: ", *arn);
  resource.remove_prefix(6);
  PolicyTarget target;
  size_t slash = resource.find('/');
  target.table = std::string(resource.substr(0, slash));
  if (slash != std::string_view::npos) {
    std::string_view rest = resource.substr(slash + 1);
    if (rest.starts_with("stream/") && rest.size() > 7) {
      target.stream_label = std::string(rest.substr(7));
    } else if (rest.starts_with("backup/")) {
      return InvalidArn("Provided Arn is not a DynamoDB resource arn: ", *arn);
    } else {
      return InvalidArn(
          "Invalid resource arn provided, only table or stream is accepted. Provided resource "
          "arn: ",
          *arn);
    }
  }
  return target;
}

// The target's schema, or DynamoDB's not-found for its table or stream.
ApiResult<std::shared_ptr<const engine::TableSchema>> TargetSchema(const Context& ctx,
                                                                   const PolicyTarget& target) {
  auto schema = ctx.db.GetSchema(ctx.caller.ns, target.table);
  if (!schema.ok()) return engine::TableNotFound(target.table);
  if (!target.stream_label.empty() && target.stream_label != (*schema)->stream.label) {
    return ApiError::ResourceNotFound(
        "Requested resource not found: Stream: " + target.stream_label +
        " not found for Table: " + target.table);
  }
  return *schema;
}

// The policy on `target` in `schema` (const or not), or null.
template <class Schema>
auto* FindPolicy(Schema& schema, const PolicyTarget& target) {
  auto it = std::find_if(
      schema.resource_policies.begin(), schema.resource_policies.end(),
      [&](const engine::ResourcePolicy& p) { return p.stream_label == target.stream_label; });
  return it == schema.resource_policies.end() ? nullptr : &*it;
}

// ExpectedRevisionId against the policy there is (none: `current` null).
// NO_POLICY expects none. The endings after "but …" are inferred: the
// captured texts stop there (docs/compatibility.md).
std::optional<ApiError> CheckExpected(std::optional<std::string_view> expected,
                                      const engine::ResourcePolicy* current,
                                      const std::string& table) {
  if (!expected) return std::nullopt;
  if (*expected == "NO_POLICY" && !current) return std::nullopt;
  if (current && *expected == current->revision_id) return std::nullopt;
  if (*expected == "NO_POLICY") {
    // DynamoDB's text, as AWS-verified public suites pin it (2026).
    return ApiError::PolicyNotFound(
        std::string(kNotFoundPrefix) + "Requested policy update expecting none to be present for "
        "table " + table + ", but a policy exists with revision id " + current->revision_id + ".");
  }
  std::string prefix = std::string(kNotFoundPrefix) +
                       "Requested update for policy with revision id " + std::string(*expected) +
                       ", but ";
  if (!current) {
    return ApiError::PolicyNotFound(prefix + "table " + table + " has no associated policy.");
  }
  return ApiError::PolicyNotFound(prefix + "the policy associated to target table " + table +
                                  " has revision id " + current->revision_id + ".");
}

// A revision id after `previous`: the change's epoch milliseconds, moved
// on by one where two changes share a millisecond.
std::string NextRevision(const Context& ctx, const engine::ResourcePolicy* previous) {
  int64_t now = ctx.db.clock().NowMillis();
  if (previous) now = std::max<int64_t>(now, std::stoll(previous->revision_id) + 1);
  return std::to_string(now);
}

std::string RevisionBody(const std::string& revision) {
  return RenderObject([&](JsonWriter& w) {
    w.Key("RevisionId");
    WriteString(w, revision);
  });
}

}  // namespace

ApiResult<std::string> PutResourcePolicy(Context& ctx, const rapidjson::Value& request) {
  RequestReader r(request);
  auto arn = r.String("ResourceArn");
  auto policy = r.String("Policy");
  auto expected = r.String("ExpectedRevisionId");
  auto confirm = r.Bool("ConfirmRemoveSelfResourceAccess");
  if (r.failed()) return r.error();
  auto target = ReadTarget(ctx, arn);
  if (!target.ok()) return target.take_error();
  if (!policy) {
    Constraints constraints;
    constraints.NotNull(false, "policy");
    return constraints.ToError();
  }
  auto schema = TargetSchema(ctx, *target);
  if (!schema.ok()) return schema.take_error();
  auto canonical = CanonicalPolicy(*policy);
  if (!canonical.ok()) return canonical.take_error();
  if (!confirm.value_or(false) && DeniesPolicyChanges(*canonical, ctx.caller.account_id)) {
    return ApiError::AccessDenied(
        "The new resource policy will not allow you to update the resource policy in the "
        "future.");
  }
  std::string revision;
  auto changed =
      ChangeSchema(ctx, target->table, [&](engine::TableSchema& s) -> std::optional<ApiError> {
        engine::ResourcePolicy* current = FindPolicy(s, *target);
        if (auto refused = CheckExpected(expected, current, target->table)) return refused;
        if (current && current->document == *canonical) {
          revision = current->revision_id;  // the same policy: nothing changes
          return std::nullopt;
        }
        revision = NextRevision(ctx, current);
        if (!current) current = &s.resource_policies.emplace_back();
        *current = {target->stream_label, *canonical, revision};
        return std::nullopt;
      });
  if (!changed.ok()) return changed.take_error();
  return RevisionBody(revision);
}

ApiResult<std::string> GetResourcePolicy(Context& ctx, const rapidjson::Value& request) {
  RequestReader r(request);
  auto arn = r.String("ResourceArn");
  if (r.failed()) return r.error();
  auto target = ReadTarget(ctx, arn);
  if (!target.ok()) return target.take_error();
  auto schema = TargetSchema(ctx, *target);
  if (!schema.ok()) return schema.take_error();
  const engine::ResourcePolicy* policy = FindPolicy(**schema, *target);
  if (!policy) {
    return ApiError::PolicyNotFound(std::string(kNotFoundPrefix) + std::string(*arn));
  }
  return RenderObject([&](JsonWriter& w) {
    w.Key("Policy");
    WriteString(w, PolicyAsRead(policy->document));
    w.Key("RevisionId");
    WriteString(w, policy->revision_id);
  });
}

ApiResult<std::string> DeleteResourcePolicy(Context& ctx, const rapidjson::Value& request) {
  RequestReader r(request);
  auto arn = r.String("ResourceArn");
  auto expected = r.String("ExpectedRevisionId");
  if (r.failed()) return r.error();
  auto target = ReadTarget(ctx, arn);
  if (!target.ok()) return target.take_error();
  auto schema = TargetSchema(ctx, *target);
  if (!schema.ok()) return schema.take_error();
  std::optional<std::string> removed;
  auto changed =
      ChangeSchema(ctx, target->table, [&](engine::TableSchema& s) -> std::optional<ApiError> {
        engine::ResourcePolicy* current = FindPolicy(s, *target);
        if (auto refused = CheckExpected(expected, current, target->table)) return refused;
        if (!current) return std::nullopt;
        removed = current->revision_id;
        s.resource_policies.erase(s.resource_policies.begin() +
                                  (current - s.resource_policies.data()));
        return std::nullopt;
      });
  if (!changed.ok()) return changed.take_error();
  // With no policy there, DynamoDB answers an empty body.
  return removed ? RevisionBody(*removed) : std::string("{}");
}

}  // namespace ddb::api
