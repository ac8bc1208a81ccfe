#include "api/tables/table_json.h"

#include <algorithm>

#include "api/tables/throughput_settings.h"
#include "engine/key_validation.h"

namespace ddb::api {

void WriteSeconds(JsonWriter& w, int64_t millis) {
  // DynamoDB answers epoch seconds with a fraction; millisecond precision.
  if (millis % 1000 == 0) {
    w.Int64(millis / 1000);
  } else {
    w.Double(static_cast<double>(millis) / 1000.0);
  }
}

namespace {

void WriteAttributeDefinitions(JsonWriter& w, const std::vector<engine::KeyElement>& definitions) {
  w.StartArray();
  for (const auto& def : definitions) {
    w.StartObject();
    w.Key("AttributeName");
    WriteString(w, def.name);
    w.Key("AttributeType");
    WriteString(w, engine::ScalarTypeName(def.type));
    w.EndObject();
  }
  w.EndArray();
}

void WriteThroughput(JsonWriter& w, const engine::ProvisionedThroughput& t) {
  w.StartObject();
  if (t.last_increase_millis) {
    w.Key("LastIncreaseDateTime");
    WriteSeconds(w, t.last_increase_millis);
  }
  if (t.last_decrease_millis) {
    w.Key("LastDecreaseDateTime");
    WriteSeconds(w, t.last_decrease_millis);
  }
  w.Key("NumberOfDecreasesToday");
  w.Int64(t.decreases_today);
  w.Key("ReadCapacityUnits");
  w.Int64(t.read_capacity_units);
  w.Key("WriteCapacityUnits");
  w.Int64(t.write_capacity_units);
  w.EndObject();
}

}  // namespace

void WriteSseDescription(JsonWriter& w, const engine::SseDescription& sse) {
  if (!sse.enabled) return;
  w.Key("SSEDescription");
  w.StartObject();
  w.Key("Status");
  w.String("ENABLED");
  w.Key("SSEType");
  WriteString(w, sse.sse_type);
  w.Key("KMSMasterKeyArn");
  WriteString(w, sse.kms_key_arn);
  w.EndObject();
}

void WriteOnDemandThroughput(JsonWriter& w, const engine::OnDemandThroughput& t) {
  if (t.empty()) return;  // DynamoDB describes only maximums that are set
  w.Key("OnDemandThroughput");
  w.StartObject();
  if (t.max_read_request_units) {
    w.Key("MaxReadRequestUnits");
    w.Int64(t.max_read_request_units);
  }
  if (t.max_write_request_units) {
    w.Key("MaxWriteRequestUnits");
    w.Int64(t.max_write_request_units);
  }
  w.EndObject();
}

namespace {

// Warm throughput never below the current capacity: tables stored before
// warm throughput was recorded read as their capacity.
void WriteWarm(JsonWriter& w, engine::WarmThroughput warm, bool on_demand,
               const engine::ProvisionedThroughput& throughput, std::string_view status) {
  int64_t read = on_demand ? kOnDemandInitialReadUnits : throughput.read_capacity_units;
  int64_t write = on_demand ? kOnDemandInitialWriteUnits : throughput.write_capacity_units;
  w.Key("WarmThroughput");
  w.StartObject();
  w.Key("ReadUnitsPerSecond");
  w.Int64(std::max(warm.read_units_per_second, read));
  w.Key("WriteUnitsPerSecond");
  w.Int64(std::max(warm.write_units_per_second, write));
  w.Key("Status");
  WriteString(w, status);
  w.EndObject();
}

// One ReplicaDescription: DynamoDB shows what a replica overrides and its
// warm throughput, and leaves inherited settings out.
void WriteReplica(JsonWriter& w, const engine::TableSchema& s,
                  const engine::Replica& replica, std::string_view status) {
  w.StartObject();
  w.Key("RegionName");
  WriteString(w, replica.region);
  w.Key("ReplicaStatus");
  WriteString(w, status);
  if (replica.read_capacity_override != 0) {
    w.Key("ProvisionedThroughputOverride");
    w.StartObject();
    w.Key("ReadCapacityUnits");
    w.Int64(replica.read_capacity_override);
    w.EndObject();
  }
  if (replica.max_read_request_units_override != 0) {
    w.Key("OnDemandThroughputOverride");
    w.StartObject();
    w.Key("MaxReadRequestUnits");
    w.Int64(replica.max_read_request_units_override);
    w.EndObject();
  }
  WriteWarm(w, s.warm, s.billing_mode == "PAY_PER_REQUEST", s.throughput, "ACTIVE");
  if (!replica.table_class_override.empty()) {
    w.Key("ReplicaTableClassSummary");
    w.StartObject();
    w.Key("TableClass");
    WriteString(w, replica.table_class_override);
    w.EndObject();
  }
  w.Key("GlobalTableSettingsReplicationMode");
  w.String("ENABLED_WITH_OVERRIDES");
  w.EndObject();
}

// A global table's members other than the caller's own table, in the
// order they joined; a replica is CREATING for the transient-status delay.
void WriteReplicas(JsonWriter& w, const Context& ctx, const engine::TableSchema& s,
                   const DescriptionView& view) {
  w.Key("GlobalTableVersion");
  w.String("2019.11.21");
  w.Key("Replicas");
  w.StartArray();
  for (const engine::Replica& replica : s.replicas) {
    if (replica.ns == ctx.caller.ns) continue;
    bool creating = std::find(view.creating_replicas.begin(), view.creating_replicas.end(),
                              replica.region) != view.creating_replicas.end() ||
                    ctx.InTransition(replica.created_millis);
    WriteReplica(w, s, replica, creating ? "CREATING" : "ACTIVE");
  }
  w.EndArray();
  w.Key("GlobalTableSettingsReplicationMode");
  w.String("ENABLED_WITH_OVERRIDES");
  // EVENTUAL, the default, is not shown.
  if (s.strong_consistency) {
    w.Key("MultiRegionConsistency");
    w.String("STRONG");
  }
  if (!s.witnesses.empty()) {
    w.Key("GlobalTableWitnesses");
    w.StartArray();
    for (const std::string& region : s.witnesses) {
      w.StartObject();
      w.Key("RegionName");
      WriteString(w, region);
      w.Key("WitnessStatus");
      w.String(view.witnesses_creating ? "CREATING" : "ACTIVE");
      w.EndObject();
    }
    w.EndArray();
  }
}

}  // namespace

void WriteProjection(JsonWriter& w, const engine::Projection& p) {
  static constexpr const char* kTypes[] = {"ALL", "KEYS_ONLY", "INCLUDE"};
  w.StartObject();
  w.Key("ProjectionType");
  w.String(kTypes[static_cast<int>(p.type)]);
  if (p.type == engine::ProjectionType::kInclude) {
    w.Key("NonKeyAttributes");
    w.StartArray();
    for (const auto& name : p.non_key_attributes) WriteString(w, name);
    w.EndArray();
  }
  w.EndObject();
}

namespace {

// Every index description's tail: IndexSizeBytes, ItemCount and IndexArn.
void WriteIndexStatsAndArn(JsonWriter& w, const Context& ctx,
                           const engine::TableDescription& description, uint32_t index_id,
                           const std::string& name) {
  auto stats = description.index_stats.find(index_id);
  bool known = stats != description.index_stats.end();
  w.Key("IndexSizeBytes");
  w.Int64(known ? stats->second.size_bytes : 0);
  w.Key("ItemCount");
  w.Int64(known ? stats->second.item_count : 0);
  w.Key("IndexArn");
  WriteString(w, ctx.TableArn(description.schema.name) + "/index/" + name);
}

void WriteIndexes(JsonWriter& w, const Context& ctx, const engine::TableDescription& description,
                  const std::vector<engine::IndexSchema>& indexes, const DescriptionView& view) {
  const engine::TableSchema& schema = description.schema;
  w.StartArray();
  for (const auto& index : indexes) {
    w.StartObject();
    w.Key("IndexName");
    WriteString(w, index.name);
    w.Key("KeySchema");
    WriteKeySchema(w, index.key);
    w.Key("Projection");
    WriteProjection(w, index.projection);
    if (!index.is_local) {
      w.Key("IndexStatus");
      WriteString(w, index.status);
      // DynamoDB shows Backfilling while an index is being created, and drops
      // the member once the index is ACTIVE.
      if (index.backfilling || index.status == "CREATING") {
        w.Key("Backfilling");
        w.Bool(index.backfilling);
      }
      w.Key("ProvisionedThroughput");
      WriteThroughput(w, index.throughput);
      WriteOnDemandThroughput(w, index.on_demand);
      if (view.warm != WarmView::kOmitted) {
        WriteWarm(w, index.warm, schema.billing_mode == "PAY_PER_REQUEST", index.throughput,
                  "ACTIVE");
      }
    }
    WriteIndexStatsAndArn(w, ctx, description, index.index_id, index.name);
    w.EndObject();
  }
  w.EndArray();
}

void WriteVectorIndexes(JsonWriter& w, const Context& ctx,
                        const engine::TableDescription& description) {
  static constexpr const char* kDistances[] = {"COSINE", "EUCLIDEAN", "DOT_PRODUCT"};
  const engine::TableSchema& schema = description.schema;
  w.StartArray();
  for (const auto& index : schema.vector_indexes) {
    w.StartObject();
    w.Key("IndexName");
    WriteString(w, index.name);
    w.Key("VectorAttribute");
    w.StartObject();
    w.Key("AttributeName");
    WriteString(w, index.vector_attribute);
    w.EndObject();
    w.Key("Dimensions");
    w.Int64(index.dimensions);
    w.Key("DistanceFunction");
    w.String(kDistances[static_cast<int>(index.distance)]);
    if (!index.search_schema.empty()) {
      w.Key("SearchSchema");
      w.StartArray();
      for (const auto& element : index.search_schema) {
        w.StartObject();
        w.Key("AttributeName");
        WriteString(w, element.name);
        w.Key("SearchSchemaElementType");
        w.String(element.type == engine::SearchSchemaType::kHash ? "HASH" : "INLINE_FILTER");
        w.EndObject();
      }
      w.EndArray();
    }
    w.Key("Projection");
    WriteProjection(w, index.projection);
    w.Key("IndexStatus");
    WriteString(w, index.status);
    // As for a GSI: Backfilling while CREATING, gone once ACTIVE.
    if (index.status == "CREATING") {
      w.Key("Backfilling");
      w.Bool(index.backfilling);
    }
    WriteIndexStatsAndArn(w, ctx, description, index.index_id, index.name);
    w.EndObject();
  }
  w.EndArray();
}

}  // namespace

void WriteKeySchema(JsonWriter& w, const engine::KeySchema& key) {
  w.StartArray();
  for (const auto* elements : {&key.hash, &key.range}) {
    for (const auto& element : *elements) {
      w.StartObject();
      w.Key("AttributeName");
      WriteString(w, element.name);
      w.Key("KeyType");
      w.String(elements == &key.hash ? "HASH" : "RANGE");
      w.EndObject();
    }
  }
  w.EndArray();
}

void WriteTableDescription(JsonWriter& w, const Context& ctx,
                           const engine::TableDescription& description,
                           const DescriptionView& view) {
  const engine::TableSchema& s = description.schema;
  // A table being deleted is described without its schema, as DynamoDB's
  // DeleteTable answers.
  bool deleting = s.status == "DELETING";
  w.StartObject();
  if (!deleting) {
    w.Key("AttributeDefinitions");
    WriteAttributeDefinitions(w, s.attribute_definitions);
  }
  w.Key("TableName");
  WriteString(w, s.name);
  if (!deleting) {
    w.Key("KeySchema");
    WriteKeySchema(w, s.key);
  }
  w.Key("TableStatus");
  WriteString(w, s.status);
  if (!deleting) {
    w.Key("CreationDateTime");
    WriteSeconds(w, s.creation_millis);
  }
  w.Key("ProvisionedThroughput");
  WriteThroughput(w, s.throughput);
  w.Key("TableSizeBytes");
  w.Int64(description.stats.size_bytes);
  w.Key("ItemCount");
  w.Int64(description.stats.item_count);
  w.Key("TableArn");
  WriteString(w, ctx.TableArn(s.name));
  w.Key("TableId");
  WriteString(w, s.table_uuid);
  // Once a table has been on demand, DynamoDB keeps describing its billing.
  if (s.billing_mode == "PAY_PER_REQUEST" || s.pay_per_request_since_millis != 0) {
    w.Key("BillingModeSummary");
    w.StartObject();
    w.Key("BillingMode");
    WriteString(w, s.billing_mode);
    w.Key("LastUpdateToPayPerRequestDateTime");
    WriteSeconds(w, s.pay_per_request_since_millis);
    w.EndObject();
  }
  if (!s.local_indexes.empty() && !deleting) {
    w.Key("LocalSecondaryIndexes");
    WriteIndexes(w, ctx, description, s.local_indexes, view);
  }
  if (!s.global_indexes.empty() && !deleting) {
    w.Key("GlobalSecondaryIndexes");
    WriteIndexes(w, ctx, description, s.global_indexes, view);
  }
  if (!s.vector_indexes.empty() && !deleting) {
    w.Key("VectorIndexes");
    WriteVectorIndexes(w, ctx, description);
  }
  if (s.stream.enabled) {
    w.Key("StreamSpecification");
    w.StartObject();
    w.Key("StreamEnabled");
    w.Bool(true);
    w.Key("StreamViewType");
    WriteString(w, s.stream.view_type);
    w.EndObject();
  }
  if (!s.stream.label.empty()) {
    w.Key("LatestStreamLabel");
    WriteString(w, s.stream.label);
    w.Key("LatestStreamArn");
    WriteString(w, ctx.TableArn(s.name) + "/stream/" + s.stream.label);
  }
  if (!s.replicas.empty() && !deleting) WriteReplicas(w, ctx, s, view);
  // DynamoDB describes a restore only while it is in progress.
  if (!s.restored_from.empty() && s.status == "CREATING") {
    w.Key("RestoreSummary");
    w.StartObject();
    if (!s.restored_from.backup_arn.empty()) {
      w.Key("SourceBackupArn");
      WriteString(w, s.restored_from.backup_arn);
    }
    w.Key("SourceTableArn");
    WriteString(w, s.restored_from.table_arn);
    w.Key("RestoreDateTime");
    WriteSeconds(w, s.restored_from.restore_millis);
    w.Key("RestoreInProgress");
    w.Bool(true);
    w.EndObject();
  }
  WriteSseDescription(w, s.sse);
  if (s.table_class != "STANDARD") {
    w.Key("TableClassSummary");
    w.StartObject();
    w.Key("TableClass");
    WriteString(w, s.table_class);
    w.EndObject();
  }
  WriteOnDemandThroughput(w, s.on_demand);
  if (view.warm != WarmView::kOmitted && !deleting) {
    WriteWarm(w, s.warm, s.billing_mode == "PAY_PER_REQUEST", s.throughput,
              view.warm == WarmView::kUpdating ? "UPDATING" : "ACTIVE");
  }
  w.Key("DeletionProtectionEnabled");
  w.Bool(s.deletion_protection);
  w.EndObject();
}

std::string RenderTableDescription(const Context& ctx, std::string_view member,
                                   const engine::TableDescription& description,
                                   const DescriptionView& view) {
  rapidjson::StringBuffer buffer;
  JsonWriter w(buffer);
  w.StartObject();
  WriteString(w, member);
  WriteTableDescription(w, ctx, description, view);
  w.EndObject();
  return std::string(buffer.GetString(), buffer.GetSize());
}

}  // namespace ddb::api
