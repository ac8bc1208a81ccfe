// CreateTable, DescribeTable, UpdateTable, DeleteTable, ListTables,
// DescribeLimits, DescribeEndpoints.
#include "api/global_tables/replica_updates.h"
#include "api/json_reader.h"
#include "api/operations.h"
#include "api/resources/resource_policy.h"
#include "api/tables/create_table_request.h"
#include "api/tables/gsi_updates.h"
#include "api/tables/table_json.h"
#include "api/tables/throughput_settings.h"
#include "api/tables/vector_index_request.h"

namespace ddb::api {
namespace {

// Reads and validates TableName for the table-level operations.
ApiResult<std::string> RequiredTableName(const rapidjson::Value& request) {
  RequestReader r(request);
  auto name = r.String("TableName");
  if (r.failed()) return r.error();
  if (!name) {
    return ApiError::Validation("The parameter 'TableName' is required but was not present in the request");
  }
  Constraints constraints;
  constraints.TableName(name);
  if (!constraints.empty()) return constraints.ToError();
  return std::string(*name);
}

// Applies UpdateTable's throughput / billing-mode change to `schema`.
engine::Status ApplyBillingChange(engine::TableSchema& schema,
                                  std::optional<std::string_view> billing_mode,
                                  const std::optional<engine::ProvisionedThroughput>& throughput,
                                  int64_t now) {
  std::string mode = std::string(billing_mode.value_or(schema.billing_mode));
  if (mode == "PAY_PER_REQUEST") {
    if (throughput) {
      return engine::Status::InvalidArgument(
          "One or more parameter values were invalid: Neither ReadCapacityUnits nor "
          "WriteCapacityUnits can be specified when BillingMode is PAY_PER_REQUEST");
    }
    if (schema.billing_mode != mode) schema.pay_per_request_since_millis = now;
    schema.billing_mode = mode;
    schema.throughput.read_capacity_units = 0;
    schema.throughput.write_capacity_units = 0;
    return engine::Status::Ok();
  }
  if (!throughput && schema.billing_mode != "PROVISIONED") {
    return engine::Status::InvalidArgument(
        "One or more parameter values were invalid: ProvisionedThroughput must be specified "
        "when BillingMode is PROVISIONED");
  }
  schema.billing_mode = mode;
  if (!throughput) return engine::Status::Ok();
  auto& current = schema.throughput;
  if (throughput->read_capacity_units == current.read_capacity_units &&
      throughput->write_capacity_units == current.write_capacity_units) {
    auto r = std::to_string(current.read_capacity_units);
    auto w = std::to_string(current.write_capacity_units);
    return engine::Status::InvalidArgument(
        "The provisioned throughput for the table will not change. The requested value equals "
        "the current value. Current ReadCapacityUnits provisioned for the table: " + r +
        ". Requested ReadCapacityUnits: " + r +
        ". Current WriteCapacityUnits provisioned for the table: " + w +
        ". Requested WriteCapacityUnits: " + w +
        ". Refer to the Amazon DynamoDB Developer Guide for current limits and how to request "
        "higher limits.");
  }
  bool increase = throughput->read_capacity_units > current.read_capacity_units ||
                  throughput->write_capacity_units > current.write_capacity_units;
  bool decrease = throughput->read_capacity_units < current.read_capacity_units ||
                  throughput->write_capacity_units < current.write_capacity_units;
  if (increase) current.last_increase_millis = now;
  if (decrease) {
    current.last_decrease_millis = now;
    ++current.decreases_today;
  }
  current.read_capacity_units = throughput->read_capacity_units;
  current.write_capacity_units = throughput->write_capacity_units;
  return engine::Status::Ok();
}

// Enables or disables the table's stream; a stream's view type cannot be
// changed in place (disable it, then enable it anew).
engine::Status ApplyStreamChange(engine::TableSchema& schema,
                                 const engine::StreamSpecification& stream) {
  if (stream.enabled && schema.stream.enabled) {
    return engine::Status::InvalidArgument("Table already has an enabled stream: TableName: " +
                                           schema.name);
  }
  if (!stream.enabled && !schema.replicas.empty()) {
    return engine::Status::InvalidArgument(
        "One or more parameter values were invalid: Disabling Stream is not allowed for a "
        "Global Table replica.");
  }
  if (!stream.enabled && !schema.stream.enabled) {
    return engine::Status::InvalidArgument("Table has no stream to disable: TableName: " +
                                           schema.name);
  }
  schema.stream.enabled = stream.enabled;
  if (stream.enabled) schema.stream.view_type = stream.view_type;
  return engine::Status::Ok();
}

// CreateTable's ResourcePolicy: checked as PutResourcePolicy checks one;
// the registry gives it the table's creation time as its revision.
ApiResult<std::optional<engine::ResourcePolicy>> ReadCreatePolicy(const rapidjson::Value& request) {
  RequestReader r(request);
  auto document = r.String("ResourcePolicy");
  if (r.failed()) return r.error();
  if (!document) return std::optional<engine::ResourcePolicy>();
  auto canonical = CanonicalPolicy(*document);
  if (!canonical.ok()) return canonical.take_error();
  return std::optional<engine::ResourcePolicy>(engine::ResourcePolicy{"", *canonical, ""});
}

}  // namespace

ApiResult<std::string> CreateTable(Context& ctx, const rapidjson::Value& request) {
  auto schema = ParseCreateTable(request);
  if (!schema.ok()) return schema.take_error();
  auto throughput = ApplyCreateThroughputSettings(request, *schema, ctx.caller.region);
  if (!throughput.ok()) return throughput.take_error();
  if (schema->sse.enabled && schema->sse.kms_key_arn.empty()) {
    schema->sse.kms_key_arn = ctx.DefaultKmsKeyArn();
  }
  auto policy = ReadCreatePolicy(request);
  if (!policy.ok()) return policy.take_error();
  if (*policy) schema->resource_policies.push_back(std::move(**policy));
  auto description = ctx.db.CreateTable(ctx.caller.ns, std::move(schema).value());
  if (!description.ok()) return description.status();
  // DynamoDB's CreateTable answer shows warm throughput only when asked
  // for, as UPDATING; DescribeTable reports it ACTIVE.
  DescriptionView view;
  view.warm = request.HasMember("WarmThroughput") ? WarmView::kUpdating : WarmView::kOmitted;
  return RenderTableDescription(ctx, "TableDescription", *description, view);
}

ApiResult<std::string> DescribeTable(Context& ctx, const rapidjson::Value& request) {
  auto name = RequiredTableName(request);
  if (!name.ok()) return name.take_error();
  auto description = ctx.db.DescribeTable(ctx.caller.ns, *name);
  if (!description.ok()) return description.status();
  return RenderTableDescription(ctx, "Table", *description);
}

ApiResult<std::string> DeleteTable(Context& ctx, const rapidjson::Value& request) {
  auto name = RequiredTableName(request);
  if (!name.ok()) return name.take_error();
  if (auto schema = ctx.db.GetSchema(ctx.caller.ns, *name);
      schema.ok() && (*schema)->strong_consistency) {
    return ApiError::Validation(
        "Deletion of only one table replica is not supported for global tables with "
        "MultiRegionConsistency set to STRONG.");
  }
  auto description = ctx.db.DeleteTable(ctx.caller.ns, *name);
  if (!description.ok()) {
    // DynamoDB reports deletion protection as a validation error.
    if (description.status().code() == engine::Status::Code::kInUse) {
      return ApiError::Validation(description.status().message());
    }
    return description.status();
  }
  return RenderTableDescription(ctx, "TableDescription", *description);
}

ApiResult<std::string> UpdateTable(Context& ctx, const rapidjson::Value& request) {
  auto name = RequiredTableName(request);
  if (!name.ok()) return name.take_error();
  if (HasReplicaUpdates(request)) return UpdateReplicas(ctx, *name, request);
  RequestReader r(request);
  auto billing_mode = r.String("BillingMode");
  const rapidjson::Value* throughput_json = r.Object("ProvisionedThroughput");
  auto deletion_protection = r.Bool("DeletionProtectionEnabled");
  auto table_class = r.String("TableClass");
  const rapidjson::Value* stream_json = r.Object("StreamSpecification");
  const rapidjson::Value* gsi_updates = r.Array("GlobalSecondaryIndexUpdates");
  const rapidjson::Value* definitions = r.Array("AttributeDefinitions");
  const rapidjson::Value* sse_json = r.Object("SSESpecification");
  const rapidjson::Value* warm_json = r.Object("WarmThroughput");
  const rapidjson::Value* on_demand_json = r.Object("OnDemandThroughput");
  const rapidjson::Value* vector_updates = r.Array("VectorIndexUpdates");
  if (r.failed()) return r.error();
  if (gsi_updates && gsi_updates->Empty()) gsi_updates = nullptr;  // DynamoDB: no update at all
  Constraints constraints;
  constraints.Enum(billing_mode, "billingMode", {"PROVISIONED", "PAY_PER_REQUEST"});
  if (!constraints.empty()) return constraints.ToError();
  if (!billing_mode && !throughput_json && !deletion_protection && !table_class && !stream_json &&
      !gsi_updates && !sse_json && !warm_json && !on_demand_json && !vector_updates) {
    return ApiError::Validation(
        "At least one of ProvisionedThroughput, BillingMode, UpdateStreamEnabled, "
        "GlobalSecondaryIndexUpdates, SSESpecification, ReplicaUpdates, DeletionProtectionEnabled "
        "or TableClass is required");
  }
  if (table_class && *table_class != "STANDARD" && *table_class != "STANDARD_INFREQUENT_ACCESS") {
    return ApiError::Validation(
        "Invalid table-class parameter provided. Please try again with a valid table-class "
        "value: [STANDARD, STANDARD_INFREQUENT_ACCESS].");
  }
  std::optional<engine::ProvisionedThroughput> throughput;
  if (throughput_json) {
    auto parsed = ParseThroughput(*throughput_json, "provisionedThroughput");
    if (!parsed.ok()) return parsed.take_error();
    throughput = *parsed;
  }
  std::optional<engine::StreamSpecification> stream;
  if (stream_json) {
    auto parsed = ReadStreamSpecification(*stream_json);
    if (!parsed.ok()) return parsed.take_error();
    if (parsed->enabled && parsed->view_type.empty()) {
      return ApiError::Validation(
          "One or more parameter values were invalid: If stream is being enabled then "
          "UpdateViewType is required");
    }
    if (!parsed->enabled && !parsed->view_type.empty()) {
      return ApiError::Validation(
          "One or more parameter values were invalid: If stream is being disabled, then "
          "UpdateViewType must not be specified");
    }
    stream = std::move(parsed).value();
  }
  GsiUpdates gsi_request{gsi_updates, definitions};
  if (gsi_updates) {
    auto checked = CheckGsiUpdates(gsi_request);
    if (!checked.ok()) return checked.take_error();
  }
  if (vector_updates) {
    auto vector_changes = CountVectorIndexUpdates(*vector_updates);
    if (!vector_changes.ok()) return vector_changes.take_error();
    int online = *vector_changes;
    for (const auto& update : gsi_updates ? gsi_updates->GetArray() : vector_updates->GetArray()) {
      if (gsi_updates && (update.HasMember("Create") || update.HasMember("Delete"))) ++online;
    }
    if (online > 1) {
      return ApiError::LimitExceeded(
          "Subscriber limit exceeded: Only 1 online index can be created or deleted "
          "simultaneously per table");
    }
  }
  int64_t now = ctx.db.clock().NowMillis();
  std::vector<std::string> created;
  std::vector<std::string> created_vector;
  std::optional<ApiError> update_error;
  // An ApiError found inside the engine's update: aborts it, answered below.
  auto fail = [&](ApiError error) {
    update_error = std::move(error);
    return engine::Status::InvalidArgument(update_error->message);
  };
  engine::WarmThroughput warm_before;
  auto description = ctx.db.UpdateTable(
      ctx.caller.ns, *name, [&](engine::TableSchema& schema) -> engine::Status {
        warm_before = schema.warm;
        if (billing_mode || throughput) {
          DDB_RETURN_IF_ERROR(ApplyBillingChange(schema, billing_mode, throughput, now));
        }
        if (deletion_protection) schema.deletion_protection = *deletion_protection;
        if (table_class) schema.table_class = std::string(*table_class);
        if (stream) DDB_RETURN_IF_ERROR(ApplyStreamChange(schema, *stream));
        if (gsi_updates) {
          auto applied = ApplyGsiUpdates(gsi_request, schema, ctx.caller.region);
          if (!applied.ok()) return fail(applied.take_error());
          created = std::move(applied).value();
        }
        if (vector_updates) {
          auto applied = ApplyVectorIndexUpdates(*vector_updates, definitions, schema);
          if (!applied.ok()) return fail(applied.take_error());
          created_vector = std::move(applied).value();
        }
        if (auto billing = CheckVectorIndexBilling(schema); !billing.ok()) {
          return fail(billing.take_error());
        }
        RatchetWarm(schema);
        auto settings = ApplyTableThroughputUpdate(warm_json, on_demand_json, schema,
                                                   ctx.caller.region);
        if (!settings.ok()) return fail(settings.take_error());
        return engine::Status::Ok();
      });
  if (update_error) return *update_error;
  if (!description.ok()) return description.status();
  if (!description->schema.replicas.empty()) {
    auto synced = SyncReplicaSettings(ctx, *name);
    if (!synced.ok()) return synced;
  }
  // The engine backfills before answering, but the answer shows the new
  // index as DynamoDB's does: CREATING, with the table UPDATING.
  description->schema.status = created.empty() && created_vector.empty() ? "ACTIVE" : "UPDATING";
  for (auto& index : description->schema.global_indexes) {
    if (std::find(created.begin(), created.end(), index.name) != created.end()) {
      index.status = "CREATING";
      index.backfilling = false;
    }
  }
  for (auto& index : description->schema.vector_indexes) {
    if (std::find(created_vector.begin(), created_vector.end(), index.name) != created_vector.end()) {
      index.status = "CREATING";
      index.backfilling = false;
    }
  }
  // A warm throughput increase is asynchronous in DynamoDB: the answer shows
  // the values from before it, UPDATING.
  DescriptionView view;
  if (warm_json) {
    view.warm = WarmView::kUpdating;
    description->schema.warm = warm_before;
  }
  return RenderTableDescription(ctx, "TableDescription", *description, view);
}

ApiResult<std::string> ListTables(Context& ctx, const rapidjson::Value& request) {
  RequestReader r(request);
  auto start = r.String("ExclusiveStartTableName");
  auto limit = r.Integer("Limit");
  if (r.failed()) return r.error();
  Constraints constraints;
  if (start) constraints.TableName(start, "exclusiveStartTableName");
  constraints.Range(limit, "limit", 1, 100);
  if (!constraints.empty()) return constraints.ToError();
  auto list = ctx.db.ListTables(ctx.caller.ns, start.value_or(""), limit.value_or(100));
  return RenderObject([&](JsonWriter& w) {
    w.Key("TableNames");
    w.StartArray();
    for (const auto& name : list.names) WriteString(w, name);
    w.EndArray();
    if (list.last_evaluated) {
      w.Key("LastEvaluatedTableName");
      WriteString(w, *list.last_evaluated);
    }
  });
}

ApiResult<std::string> DescribeLimits(Context&, const rapidjson::Value&) {
  return RenderObject([](JsonWriter& w) {
    w.Key("AccountMaxReadCapacityUnits");
    w.Int(80000);
    w.Key("AccountMaxWriteCapacityUnits");
    w.Int(80000);
    w.Key("TableMaxReadCapacityUnits");
    w.Int(40000);
    w.Key("TableMaxWriteCapacityUnits");
    w.Int(40000);
  });
}

ApiResult<std::string> DescribeEndpoints(Context& ctx, const rapidjson::Value&) {
  return RenderObject([&](JsonWriter& w) {
    w.Key("Endpoints");
    w.StartArray();
    w.StartObject();
    w.Key("Address");
    // Never an AWS hostname: clients that honour it would leave for AWS.
    WriteString(w, ctx.caller.host.empty() ? "localhost" : ctx.caller.host);
    w.Key("CachePeriodInMinutes");
    w.Int(1440);
    w.EndObject();
    w.EndArray();
  });
}

}  // namespace ddb::api
