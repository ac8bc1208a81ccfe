// EnableKinesisStreamingDestination, DisableKinesisStreamingDestination,
// UpdateKinesisStreamingDestination, DescribeKinesisStreamingDestination:
// a table's Kinesis Data Streams destinations, kept in its schema
// (engine::KinesisDestination) with the statuses, rules and texts real
// DynamoDB answers (docs/compatibility.md): one live destination at a time,
// a stream ARN taken without being looked up, the timestamp precision
// described only once set. A change answers ENABLING, DISABLING or
// UPDATING and settles after the server's transient-status delay (at once
// by default). An enabled destination feeds its table's changes to a hidden
// stream (engine's Kinesis feed), which local triggers naming the Kinesis
// stream deliver (emulator/trigger_runner.h, api/streams/kinesis_record.h).
#include <algorithm>

#include "api/json_reader.h"
#include "api/operations.h"
#include "api/tables/schema_change.h"

namespace ddb::api {
namespace {

constexpr std::string_view kNotValidForDestination =
    "Table is not in a valid state to enable Kinesis Streaming Destination: ";

// What a destination shows: the transition it is in, or where it settled.
std::string_view DestinationStatus(const Context& ctx, const engine::KinesisDestination& d) {
  bool settling = ctx.InTransition(d.changed_millis);
  if (!d.enabled) return settling ? "DISABLING" : "DISABLED";
  if (!settling) return "ACTIVE";
  return d.last_change == "UPDATE" ? "UPDATING" : "ENABLING";
}

bool IsLive(const Context& ctx, const engine::KinesisDestination& d) {
  return DestinationStatus(ctx, d) != "DISABLED";
}

// TableName (name or ARN) and StreamArn, both required.
struct DestinationRequest {
  std::string table;
  std::string stream_arn;
};

ApiResult<DestinationRequest> ReadDestinationRequest(RequestReader& r) {
  auto table = ReadTableNameOrArn(r);
  if (!table.ok()) return table.take_error();
  auto arn = r.String("StreamArn");
  if (r.failed()) return r.error();
  Constraints constraints;
  constraints.NotNull(arn.has_value(), "streamArn");
  if (arn) constraints.Length(*arn, "streamArn", 37, 1024);
  if (!constraints.empty()) return constraints.ToError();
  return DestinationRequest{*table, std::string(*arn)};
}

// A configuration's ApproximateCreationDateTimePrecision, checked.
ApiResult<std::optional<std::string>> ReadDestinationPrecision(const rapidjson::Value* config,
                                                               std::string_view path) {
  if (!config) return std::optional<std::string>();
  RequestReader c(*config);
  auto precision = c.String("ApproximateCreationDateTimePrecision");
  if (c.failed()) return c.error();
  Constraints constraints;
  constraints.Enum(precision, std::string(path) + ".approximateCreationDateTimePrecision",
                   {"MILLISECOND", "MICROSECOND"});
  if (!constraints.empty()) return constraints.ToError();
  if (!precision) return std::optional<std::string>();
  return std::optional<std::string>(std::string(*precision));
}

// The table's destination to `stream_arn`; nullptr when there is none.
engine::KinesisDestination* FindDestination(engine::TableSchema& schema,
                                            const std::string& stream_arn) {
  for (auto& d : schema.kinesis_destinations) {
    if (d.stream_arn == stream_arn) return &d;
  }
  return nullptr;
}

std::string DestinationAnswer(const DestinationRequest& request, std::string_view status,
                              std::string_view config_member,
                              const std::optional<std::string>& precision) {
  return RenderObject([&](JsonWriter& w) {
    w.Key("DestinationStatus");
    WriteString(w, status);
    WriteString(w, config_member);
    w.StartObject();
    if (precision) {
      w.Key("ApproximateCreationDateTimePrecision");
      WriteString(w, *precision);
    }
    w.EndObject();
    w.Key("StreamArn");
    WriteString(w, request.stream_arn);
    w.Key("TableName");
    WriteString(w, request.table);
  });
}

}  // namespace

ApiResult<std::string> EnableKinesisStreamingDestination(Context& ctx,
                                                         const rapidjson::Value& request) {
  RequestReader r(request);
  auto parsed = ReadDestinationRequest(r);
  if (!parsed.ok()) return parsed.take_error();
  const rapidjson::Value* config = r.Object("EnableKinesisStreamingConfiguration");
  if (r.failed()) return r.error();
  auto precision = ReadDestinationPrecision(config, "enableKinesisStreamingConfiguration");
  if (!precision.ok()) return precision.take_error();
  int64_t now = ctx.db.clock().NowMillis();
  auto changed =
      ChangeSchema(ctx, parsed->table, [&](engine::TableSchema& s) -> std::optional<ApiError> {
        for (const auto& d : s.kinesis_destinations) {
          if (IsLive(ctx, d)) {
            return ApiError::Validation(std::string(kNotValidForDestination) +
                                        "EnableKinesisStreamingDestination must be DISABLED or "
                                        "ENABLE_FAILED to perform ENABLE operation.");
          }
        }
        engine::KinesisDestination* d = FindDestination(s, parsed->stream_arn);
        if (!d) d = &s.kinesis_destinations.emplace_back();
        *d = {parsed->stream_arn, true, precision->value_or(""), now, "ENABLE"};
        return std::nullopt;
      });
  if (!changed.ok()) return changed.take_error();
  return DestinationAnswer(*parsed, "ENABLING", "EnableKinesisStreamingConfiguration", *precision);
}

ApiResult<std::string> DisableKinesisStreamingDestination(Context& ctx,
                                                          const rapidjson::Value& request) {
  RequestReader r(request);
  auto parsed = ReadDestinationRequest(r);
  if (!parsed.ok()) return parsed.take_error();
  const rapidjson::Value* config = r.Object("EnableKinesisStreamingConfiguration");
  if (r.failed()) return r.error();
  if (config) {
    return ApiError::Validation(
        "Stream cannot be disabled using EnableKinesisStreamingConfiguration parameters");
  }
  int64_t now = ctx.db.clock().NowMillis();
  auto changed =
      ChangeSchema(ctx, parsed->table, [&](engine::TableSchema& s) -> std::optional<ApiError> {
        engine::KinesisDestination* d = FindDestination(s, parsed->stream_arn);
        if (!d || DestinationStatus(ctx, *d) != "ACTIVE") {
          return ApiError::Validation(std::string(kNotValidForDestination) +
                                      "KinesisStreamingDestination must be ACTIVE to perform "
                                      "DISABLE operation.");
        }
        // A destination enabled again starts without a precision, as DynamoDB's.
        *d = {parsed->stream_arn, false, "", now, "DISABLE"};
        return std::nullopt;
      });
  if (!changed.ok()) return changed.take_error();
  return DestinationAnswer(*parsed, "DISABLING", "EnableKinesisStreamingConfiguration",
                           std::nullopt);
}

ApiResult<std::string> UpdateKinesisStreamingDestination(Context& ctx,
                                                         const rapidjson::Value& request) {
  RequestReader r(request);
  auto parsed = ReadDestinationRequest(r);
  if (!parsed.ok()) return parsed.take_error();
  const rapidjson::Value* config = r.Object("UpdateKinesisStreamingConfiguration");
  if (r.failed()) return r.error();
  auto precision = ReadDestinationPrecision(config, "updateKinesisStreamingConfiguration");
  if (!precision.ok()) return precision.take_error();
  if (!*precision) {
    return ApiError::Validation(
        "Streaming destination cannot be updated with given parameters: "
        "UpdateKinesisStreamingConfiguration cannot be null or contain only null values");
  }
  auto schema = ctx.db.GetSchema(ctx.caller.ns, parsed->table);
  if (!schema.ok()) return engine::TableNotFound(parsed->table);
  const std::string table_id = (*schema)->table_uuid;
  int64_t now = ctx.db.clock().NowMillis();
  auto changed =
      ChangeSchema(ctx, parsed->table, [&](engine::TableSchema& s) -> std::optional<ApiError> {
        engine::KinesisDestination* d = FindDestination(s, parsed->stream_arn);
        if (!d) {
          return ApiError::Validation(
              std::string(kNotValidForDestination) +
              "No streaming destination with streamArn: " + parsed->stream_arn);
        }
        if (DestinationStatus(ctx, *d) != "ACTIVE") {
          return ApiError::Validation(std::string(kNotValidForDestination) +
                                      "Kinesis streaming is not in ACTIVE state. Updates are only "
                                      "allowed in ACTIVE state.");
        }
        // No precision described means milliseconds.
        if (d->precision.empty() ? **precision == "MILLISECOND" : d->precision == **precision) {
          return ApiError::Validation(
              "Invalid Request: Precision is already set to the desired "
              "value of " +
              **precision + " for tableId: " + table_id + ", kdsArn: " + parsed->stream_arn);
        }
        d->precision = **precision;
        d->changed_millis = now;
        d->last_change = "UPDATE";
        return std::nullopt;
      });
  if (!changed.ok()) return changed.take_error();
  return DestinationAnswer(*parsed, "UPDATING", "UpdateKinesisStreamingConfiguration", *precision);
}

ApiResult<std::string> DescribeKinesisStreamingDestination(Context& ctx,
                                                           const rapidjson::Value& request) {
  RequestReader r(request);
  auto table = ReadTableNameOrArn(r);
  if (!table.ok()) return table.take_error();
  auto schema = ctx.db.GetSchema(ctx.caller.ns, *table);
  if (!schema.ok()) return engine::TableNotFound(*table);
  return RenderObject([&](JsonWriter& w) {
    w.Key("KinesisDataStreamDestinations");
    w.StartArray();
    for (const auto& d : (*schema)->kinesis_destinations) {
      w.StartObject();
      w.Key("DestinationStatus");
      WriteString(w, DestinationStatus(ctx, d));
      w.Key("StreamArn");
      WriteString(w, d.stream_arn);
      if (!d.precision.empty()) {
        w.Key("ApproximateCreationDateTimePrecision");
        WriteString(w, d.precision);
      }
      w.EndObject();
    }
    w.EndArray();
    w.Key("TableName");
    WriteString(w, (*schema)->name);
  });
}

}  // namespace ddb::api
