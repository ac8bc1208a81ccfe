// CreateBackup, DescribeBackup, ListBackups, DeleteBackup and
// RestoreTableFromBackup: DynamoDB's on-demand backups over the engine's
// (engine/backups/backups.h); RestoreTableToPointInTime over its recovery history
// (engine/backups/history.h), with the same overrides. A backup is ready when CreateBackup answers (which
// says CREATING, as DynamoDB's does; every later answer says AVAILABLE); it
// outlives its table; a restore makes a new table from it, with DynamoDB's
// overrides, and without what DynamoDB leaves for the user to set again
// (tags, TTL, streams, point-in-time recovery, deletion protection, table
// class, resource policy). Texts are those real DynamoDB answered (docs/compatibility.md).
#include <algorithm>
#include <cmath>

#include "api/backups/backup_request.h"
#include "api/json_reader.h"
#include "api/operations.h"
#include "api/tables/create_table_request.h"
#include "api/tables/table_json.h"

namespace ddb::api {
namespace {

std::string BackupArn(const Context& ctx, const engine::BackupInfo& backup) {
  return ctx.TableArn(backup.schema.name) + "/backup/" + backup.backup_id;
}

ApiError InvalidBackupArn() { return ApiError::Validation("Invalid Backup ARN"); }

ApiError NoSuchBackup(std::string_view arn) {
  return ApiError::BackupNotFound("Backup not found: " + std::string(arn));
}

// The backup a BackupArn names in the caller's database: its id is the
// part after "/backup/", and the table in the ARN must be the backup's.
ApiResult<std::shared_ptr<const engine::BackupInfo>> FindBackup(const Context& ctx,
                                                                std::string_view arn) {
  constexpr std::string_view kMarker = "/backup/";
  size_t marker = arn.rfind(kMarker);
  if (!arn.starts_with("arn:") || marker == std::string_view::npos) return InvalidBackupArn();
  auto backup = ctx.engine.backups().Find(ctx.caller.ns, arn.substr(marker + kMarker.size()));
  if (!backup.ok() || BackupArn(ctx, **backup) != arn) return NoSuchBackup(arn);
  return *backup;
}

// BackupArn, required, 37 to 1024 characters.
ApiResult<std::string> ReadBackupArn(RequestReader& r) {
  auto arn = r.String("BackupArn");
  if (r.failed()) return r.error();
  Constraints constraints;
  constraints.NotNull(arn.has_value(), "backupArn");
  if (arn) constraints.Length(*arn, "backupArn", 37, 1024);
  if (!constraints.empty()) return constraints.ToError();
  return std::string(*arn);
}

void WriteBackupDetails(JsonWriter& w, const Context& ctx, const engine::BackupInfo& backup,
                        std::string_view status) {
  w.StartObject();
  w.Key("BackupArn");
  WriteString(w, BackupArn(ctx, backup));
  w.Key("BackupName");
  WriteString(w, backup.name);
  w.Key("BackupSizeBytes");
  w.Int64(backup.stats.size_bytes);
  w.Key("BackupStatus");
  WriteString(w, status);
  w.Key("BackupType");
  w.String("USER");
  w.Key("BackupCreationDateTime");
  WriteSeconds(w, backup.created_millis);
  w.EndObject();
}

void WriteCapacity(JsonWriter& w, const engine::ProvisionedThroughput& t) {
  w.Key("ProvisionedThroughput");
  w.StartObject();
  w.Key("ReadCapacityUnits");
  w.Int64(t.read_capacity_units);
  w.Key("WriteCapacityUnits");
  w.Int64(t.write_capacity_units);
  w.EndObject();
}

void WriteSourceTableDetails(JsonWriter& w, const Context& ctx, const engine::BackupInfo& b) {
  const engine::TableSchema& s = b.schema;
  w.StartObject();
  w.Key("TableName");
  WriteString(w, s.name);
  w.Key("TableId");
  WriteString(w, s.table_uuid);
  w.Key("TableArn");
  WriteString(w, ctx.TableArn(s.name));
  w.Key("TableSizeBytes");
  w.Int64(b.stats.size_bytes);
  w.Key("KeySchema");
  WriteKeySchema(w, s.key);
  w.Key("TableCreationDateTime");
  WriteSeconds(w, s.creation_millis);
  WriteCapacity(w, s.throughput);
  WriteOnDemandThroughput(w, s.on_demand);
  w.Key("ItemCount");
  w.Int64(b.stats.item_count);
  w.Key("BillingMode");
  WriteString(w, s.billing_mode);
  w.EndObject();
}

void WriteIndexFeatures(JsonWriter& w, const std::vector<engine::IndexSchema>& indexes) {
  w.StartArray();
  for (const engine::IndexSchema& index : indexes) {
    w.StartObject();
    w.Key("IndexName");
    WriteString(w, index.name);
    w.Key("KeySchema");
    WriteKeySchema(w, index.key);
    w.Key("Projection");
    WriteProjection(w, index.projection);
    if (!index.is_local) WriteCapacity(w, index.throughput);
    w.EndObject();
  }
  w.EndArray();
}

void WriteSourceTableFeatures(JsonWriter& w, const engine::TableSchema& s) {
  w.StartObject();
  if (!s.local_indexes.empty()) {
    w.Key("LocalSecondaryIndexes");
    WriteIndexFeatures(w, s.local_indexes);
  }
  if (!s.global_indexes.empty()) {
    w.Key("GlobalSecondaryIndexes");
    WriteIndexFeatures(w, s.global_indexes);
  }
  if (s.stream.enabled) {
    w.Key("StreamDescription");
    w.StartObject();
    w.Key("StreamEnabled");
    w.Bool(true);
    w.Key("StreamViewType");
    WriteString(w, s.stream.view_type);
    w.EndObject();
  }
  if (!s.ttl_attribute.empty()) {
    w.Key("TimeToLiveDescription");
    w.StartObject();
    w.Key("TimeToLiveStatus");
    w.String("ENABLED");
    w.Key("AttributeName");
    WriteString(w, s.ttl_attribute);
    w.EndObject();
  }
  WriteSseDescription(w, s.sse);
  w.EndObject();
}

std::string RenderBackupDescription(const Context& ctx, const engine::BackupInfo& backup,
                                    std::string_view status) {
  return RenderObject([&](JsonWriter& w) {
    w.Key("BackupDescription");
    w.StartObject();
    w.Key("BackupDetails");
    WriteBackupDetails(w, ctx, backup, status);
    w.Key("SourceTableDetails");
    WriteSourceTableDetails(w, ctx, backup);
    w.Key("SourceTableFeatureDetails");
    WriteSourceTableFeatures(w, backup.schema);
    w.EndObject();
  });
}

// An optional epoch-seconds member (TimeRangeLowerBound, …) in milliseconds.
// Whether an override's KeySchema and Projection are `index`'s: DynamoDB
// matches an override to one of the backup's indexes by these, so an
// index may be renamed as it is restored.
ApiResult<bool> SameShape(const rapidjson::Value& json, const engine::IndexSchema& index) {
  RequestReader r(json);
  const rapidjson::Value* key_json = r.Array("KeySchema");
  const rapidjson::Value* projection_json = r.Object("Projection");
  if (r.failed()) return r.error();
  engine::KeySchema key;
  for (rapidjson::SizeType i = 0; key_json && i < key_json->Size(); ++i) {
    if (!(*key_json)[i].IsObject()) return WrongType((*key_json)[i], "KeySchemaElement");
    RequestReader element((*key_json)[i]);
    auto name = element.String("AttributeName");
    auto type = element.String("KeyType");
    if (element.failed()) return element.error();
    (type == "RANGE" ? key.range : key.hash).push_back({std::string(name.value_or("")), {}});
  }
  auto projection = ParseProjection(projection_json);
  if (!projection.ok()) return projection.take_error();
  auto names = [](const std::vector<engine::KeyElement>& elements) {
    std::vector<std::string> out;
    for (const auto& e : elements) out.push_back(e.name);
    return out;
  };
  auto sorted = [](std::vector<std::string> v) {
    std::sort(v.begin(), v.end());
    return v;
  };
  return names(key.hash) == names(index.key.hash) && names(key.range) == names(index.key.range) &&
         projection->type == index.projection.type &&
         sorted(projection->non_key_attributes) == sorted(index.projection.non_key_attributes);
}

// Applies one of RestoreTableFromBackup's index overrides to `target`: the
// restored table has exactly the listed indexes (none for an empty list),
// each one of the backup's, under the override's name.
ApiResult<bool> OverrideIndexes(const rapidjson::Value& overrides, bool local,
                                engine::TableSchema& target) {
  std::vector<engine::IndexSchema>& indexes = local ? target.local_indexes : target.global_indexes;
  std::vector<engine::IndexSchema> kept;
  for (rapidjson::SizeType i = 0; i < overrides.Size(); ++i) {
    const rapidjson::Value& json = overrides[i];
    if (!json.IsObject()) {
      return WrongType(json, local ? "LocalSecondaryIndex" : "GlobalSecondaryIndex");
    }
    RequestReader r(json);
    auto name = r.String("IndexName");
    if (r.failed()) return r.error();
    const engine::IndexSchema* match = nullptr;
    for (const engine::IndexSchema& index : indexes) {
      auto same = SameShape(json, index);
      if (!same.ok()) return same.take_error();
      if (*same) match = &index;
    }
    if (!match) {
      return ApiError::Validation("Index " + std::string(name.value_or("")) +
                                  " does not match a secondary index that existed in the source "
                                  "table and cannot be created during the restore operation");
    }
    engine::IndexSchema index = *match;
    if (name) index.name = std::string(*name);
    kept.push_back(std::move(index));
  }
  indexes = std::move(kept);
  return true;
}

// The restored table's schema: the source's (a backup's, or the table's
// for a point-in-time restore) under the new name, with the request's
// overrides, less what DynamoDB does not restore.
ApiResult<engine::TableSchema> RestoredSchema(const Context& ctx, const rapidjson::Value& request,
                                              const engine::TableSchema& source,
                                              engine::RestoredFrom from,
                                              std::string_view target_name) {
  RequestReader r(request);
  auto billing_mode = r.String("BillingModeOverride");
  const rapidjson::Value* throughput_json = r.Object("ProvisionedThroughputOverride");
  const rapidjson::Value* gsi_json = r.Array("GlobalSecondaryIndexOverride");
  const rapidjson::Value* lsi_json = r.Array("LocalSecondaryIndexOverride");
  const rapidjson::Value* sse_json = r.Object("SSESpecificationOverride");
  if (r.failed()) return r.error();
  Constraints constraints;
  constraints.Enum(billing_mode, "billingModeOverride", {"PROVISIONED", "PAY_PER_REQUEST"});
  if (!constraints.empty()) return constraints.ToError();

  engine::TableSchema target = source;
  target.name = std::string(target_name);
  target.stream = {};
  target.ttl_attribute.clear();
  target.tags.clear();
  target.point_in_time_recovery = {};
  target.deletion_protection = false;
  target.table_class = "STANDARD";
  target.resource_policies.clear();
  target.pay_per_request_since_millis = 0;
  target.throughput = {target.throughput.read_capacity_units,
                       target.throughput.write_capacity_units};
  if (billing_mode) target.billing_mode = std::string(*billing_mode);
  bool provisioned = target.billing_mode == "PROVISIONED";
  if (throughput_json && !provisioned) {
    return ApiError::Validation(
        "Cannot override ProvisionedThroughput unless BillingMode is PROVISIONED");
  }
  if (billing_mode == "PROVISIONED" && !throughput_json) {
    return ApiError::Validation(
        "Must override ProvisionedThroughput if BillingMode is overridden to PROVISIONED");
  }
  if (throughput_json) {
    auto throughput = ParseThroughput(*throughput_json, "provisionedThroughputOverride");
    if (!throughput.ok()) return throughput.take_error();
    target.throughput = *throughput;
  }
  if (!provisioned) target.throughput = {};
  if (gsi_json) {
    auto kept = OverrideIndexes(*gsi_json, false, target);
    if (!kept.ok()) return kept.take_error();
  }
  if (lsi_json) {
    auto kept = OverrideIndexes(*lsi_json, true, target);
    if (!kept.ok()) return kept.take_error();
  }
  for (engine::IndexSchema& index : target.global_indexes) {
    if (!provisioned) {
      index.throughput = {};
    } else if (index.throughput.read_capacity_units == 0) {
      // An on-demand table's indexes restored as provisioned take the table's.
      index.throughput = target.throughput;
    }
  }
  if (sse_json) {
    auto sse = ParseSseSpecification(*sse_json, "sSESpecificationOverride");
    if (!sse.ok()) return sse.take_error();
    target.sse = std::move(sse).value();
    if (target.sse.enabled && target.sse.kms_key_arn.empty()) {
      target.sse.kms_key_arn = ctx.DefaultKmsKeyArn();
    }
  }
  target.restored_from = std::move(from);
  return target;
}

// A restore's answer: the new table, or DynamoDB's error — `not_found`
// when the source went meanwhile.
ApiResult<std::string> RestoreAnswer(const Context& ctx,
                                     engine::Result<engine::TableDescription> restored,
                                     std::string_view target, ApiError not_found) {
  if (!restored.ok()) {
    if (restored.status().code() == engine::Status::Code::kAlreadyExists) {
      return ApiError::TableAlreadyExists("Table already exists: " + std::string(target));
    }
    if (restored.status().code() == engine::Status::Code::kNotFound) return not_found;
    return restored.status();
  }
  // DynamoDB answers a restore as started: CREATING, in progress. The copy
  // is done already, so DescribeTable then finds it ACTIVE (after the
  // transient-status delay, when one is set).
  restored->schema.status = "CREATING";
  return RenderTableDescription(ctx, "TableDescription", *restored);
}

}  // namespace

ApiResult<std::string> CreateBackup(Context& ctx, const rapidjson::Value& request) {
  RequestReader r(request);
  auto table = r.String("TableName");
  auto name = r.String("BackupName");
  if (r.failed()) return r.error();
  Constraints constraints;
  constraints.TableNameOrArn(table);
  constraints.NotNull(name.has_value(), "backupName");
  if (name) {
    constraints.Length(*name, "backupName", 3, 255);
    bool allowed = std::all_of(name->begin(), name->end(), [](char c) {
      return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.' || c == '-';
    });
    if (!allowed) {
      constraints.Violation(Quote(*name), "backupName",
                            "Member must satisfy regular expression pattern: [a-zA-Z0-9_.-]+");
    }
  }
  if (!constraints.empty()) return constraints.ToError();
  std::string table_name = TableNameFromArn(*table);
  auto backup = ctx.engine.backups().Create(ctx.caller.ns, table_name, *name);
  if (!backup.ok()) {
    if (backup.status().code() == engine::Status::Code::kNotFound) {
      return BackupTableNotFound(table_name);
    }
    return backup.status();
  }
  return RenderObject([&](JsonWriter& w) {
    w.Key("BackupDetails");
    WriteBackupDetails(w, ctx, *backup, "CREATING");
  });
}

ApiResult<std::string> DescribeBackup(Context& ctx, const rapidjson::Value& request) {
  RequestReader r(request);
  auto arn = ReadBackupArn(r);
  if (!arn.ok()) return arn.take_error();
  auto backup = FindBackup(ctx, *arn);
  if (!backup.ok()) return backup.take_error();
  return RenderBackupDescription(ctx, **backup, "AVAILABLE");
}

ApiResult<std::string> DeleteBackup(Context& ctx, const rapidjson::Value& request) {
  RequestReader r(request);
  auto arn = ReadBackupArn(r);
  if (!arn.ok()) return arn.take_error();
  auto backup = FindBackup(ctx, *arn);
  if (!backup.ok()) return backup.take_error();
  auto deleted = ctx.engine.backups().Delete(ctx.caller.ns, (*backup)->backup_id);
  if (!deleted.ok()) {
    if (deleted.status().code() == engine::Status::Code::kNotFound) return NoSuchBackup(*arn);
    return deleted.status();
  }
  return RenderBackupDescription(ctx, **deleted, "DELETED");
}

ApiResult<std::string> ListBackups(Context& ctx, const rapidjson::Value& request) {
  RequestReader r(request);
  auto table = r.String("TableName");
  auto limit = r.Integer("Limit");
  auto start = r.String("ExclusiveStartBackupArn");
  auto type = r.String("BackupType");
  if (r.failed()) return r.error();
  auto lower = ReadEpochMillis(request, "TimeRangeLowerBound");
  if (!lower.ok()) return lower.take_error();
  auto upper = ReadEpochMillis(request, "TimeRangeUpperBound");
  if (!upper.ok()) return upper.take_error();
  Constraints constraints;
  if (table) constraints.TableNameOrArn(table);
  constraints.Range(limit, "limit", 1, 100);
  if (start) constraints.Length(*start, "exclusiveStartBackupArn", 37, 1024);
  constraints.Enum(type, "backupType", {"USER", "SYSTEM", "AWS_BACKUP", "ALL"});
  if (!constraints.empty()) return constraints.ToError();
  if (*lower && *upper && **lower > **upper) {
    return ApiError::Validation("Time range lower bound must be less than or equal to upper bound");
  }

  // Every backup here is one a user made (USER); SYSTEM and AWS_BACKUP
  // list none.
  bool user = !type || *type == "USER" || *type == "ALL";
  std::optional<std::string> table_name;
  if (table) table_name = TableNameFromArn(*table);
  std::vector<std::shared_ptr<const engine::BackupInfo>> listed;
  for (auto& backup : ctx.engine.backups().List(ctx.caller.ns)) {
    if (!user) break;
    if (table_name && backup->schema.name != *table_name) continue;
    if (*lower && backup->created_millis < **lower) continue;
    if (*upper && backup->created_millis >= **upper) continue;
    listed.push_back(std::move(backup));
  }
  // ExclusiveStartBackupArn is a position: backups are in id order (which
  // starts with the creation time), and the page starts after its id
  // whether or not that backup still exists.
  size_t first = 0;
  if (start) {
    std::string_view after = start->substr(std::min(start->size(), start->rfind('/') + 1));
    while (first < listed.size() && listed[first]->backup_id <= after) ++first;
  }
  size_t page = limit ? static_cast<size_t>(*limit) : listed.size();
  size_t end = std::min(listed.size(), first + page);
  return RenderObject([&](JsonWriter& w) {
    w.Key("BackupSummaries");
    w.StartArray();
    for (size_t i = first; i < end; ++i) {
      const engine::BackupInfo& b = *listed[i];
      w.StartObject();
      w.Key("TableName");
      WriteString(w, b.schema.name);
      w.Key("TableId");
      WriteString(w, b.schema.table_uuid);
      w.Key("TableArn");
      WriteString(w, ctx.TableArn(b.schema.name));
      w.Key("BackupArn");
      WriteString(w, BackupArn(ctx, b));
      w.Key("BackupName");
      WriteString(w, b.name);
      w.Key("BackupCreationDateTime");
      WriteSeconds(w, b.created_millis);
      w.Key("BackupStatus");
      w.String("AVAILABLE");
      w.Key("BackupType");
      w.String("USER");
      w.Key("BackupSizeBytes");
      w.Int64(b.stats.size_bytes);
      w.EndObject();
    }
    w.EndArray();
    if (end < listed.size()) {
      w.Key("LastEvaluatedBackupArn");
      WriteString(w, BackupArn(ctx, *listed[end - 1]));
    }
  });
}

ApiResult<std::string> RestoreTableFromBackup(Context& ctx, const rapidjson::Value& request) {
  RequestReader r(request);
  auto target_name = r.String("TargetTableName");
  auto arn = r.String("BackupArn");
  if (r.failed()) return r.error();
  Constraints constraints;
  constraints.TableName(target_name, "targetTableName");
  constraints.NotNull(arn.has_value(), "backupArn");
  if (arn) constraints.Length(*arn, "backupArn", 37, 1024);
  if (!constraints.empty()) return constraints.ToError();
  auto backup = FindBackup(ctx, *arn);
  if (!backup.ok()) return backup.take_error();
  // DynamoDB's RestoreDateTime for a backup is the backup's time.
  const engine::BackupInfo& source = **backup;
  auto target = RestoredSchema(
      ctx, request, source.schema,
      {BackupArn(ctx, source), ctx.TableArn(source.schema.name), source.created_millis},
      *target_name);
  if (!target.ok()) return target.take_error();
  return RestoreAnswer(
      ctx, ctx.engine.backups().Restore(ctx.caller.ns, (*backup)->backup_id, std::move(*target)),
      *target_name, NoSuchBackup(*arn));
}

// Checked in DynamoDB's order: the time, the source and the target's name
// as given; the source table; its recovery; the time within its window;
// the target's name free.
ApiResult<std::string> RestoreTableToPointInTime(Context& ctx, const rapidjson::Value& request) {
  RequestReader r(request);
  auto source_arn = r.String("SourceTableArn");
  auto source_name = r.String("SourceTableName");
  auto target_name = r.String("TargetTableName");
  auto use_latest = r.Bool("UseLatestRestorableTime");
  if (r.failed()) return r.error();
  auto restore_time = ReadEpochMillis(request, "RestoreDateTime");
  if (!restore_time.ok()) return restore_time.take_error();
  if (use_latest.value_or(false) && *restore_time) {
    return ApiError::Validation(
        "Invalid Request: Both RestoreDateTime and UseLatestRestorableTime cannot be set for "
        "point-in-time restore request. Please specify either RestoreDateTime time or "
        "UseLatestRestorableTime");
  }
  if (!use_latest.value_or(false) && !*restore_time) {
    return ApiError::Validation(
        "Invalid Request: Either one of RestoreDateTime or UseLatestRestorableTime must be "
        "specified, but not both");
  }
  if (source_arn && source_name) {
    return ApiError::Validation("Must provide exactly one of: sourceTableArn, sourceTableName");
  }
  if (!source_arn && !source_name) {
    return ApiError::Validation(
        "The parameter 'TableName' is required but was not present in the request");
  }
  Constraints constraints;
  constraints.TableName(target_name, "targetTableName");
  if (source_name) constraints.TableName(source_name, "sourceTableName");
  if (!constraints.empty()) return constraints.ToError();

  std::string source = source_name ? std::string(*source_name) : TableNameFromArn(*source_arn);
  auto schema = ctx.db.GetSchema(ctx.caller.ns, source);
  if (!schema.ok()) {
    // Named by ARN, DynamoDB's answer names no table.
    return BackupTableNotFound(source_name ? source : "");
  }
  const engine::PointInTimeRecovery& pitr = (*schema)->point_in_time_recovery;
  if (!pitr.enabled) {
    return ApiError::PointInTimeRecoveryUnavailable(
        "Point in time recovery is not enabled for table '" + source + "'");
  }
  RecoveryWindow window = RecoveryWindowOf(pitr, ctx.db.clock().NowMillis());
  int64_t at = use_latest.value_or(false) ? window.latest : **restore_time;
  if (at < window.earliest || at > window.latest) {
    auto seconds = [](int64_t millis) { return engine::IsoMillis(millis).substr(0, 19) + "Z"; };
    return ApiError::InvalidRestoreTime(
        "RestoreDateTime '" + seconds(at) + "' must be within EarliestRestorableDateTime '" +
        seconds(window.earliest) + "' and LatestRestorableDateTime '" + seconds(window.latest) +
        "'");
  }
  auto target =
      RestoredSchema(ctx, request, **schema, {"", ctx.TableArn(source), at}, *target_name);
  if (!target.ok()) return target.take_error();
  auto restored = ctx.engine.point_in_time().Restore(ctx.caller.ns, source, at, std::move(*target));
  return RestoreAnswer(ctx, std::move(restored), *target_name,
                       BackupTableNotFound(source_name ? source : ""));
}

}  // namespace ddb::api
