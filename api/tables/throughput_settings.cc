#include "api/tables/throughput_settings.h"

#include <algorithm>
#include <optional>
#include <string>

#include "api/json_reader.h"

namespace ddb::api {
namespace {

bool OnDemand(const engine::TableSchema& table) { return table.billing_mode == "PAY_PER_REQUEST"; }

// What a message calls the target: "table" or "index gsi1".
struct ThroughputTarget {
  std::string_view kind;  // "table" or "index"
  std::string_view name;
  std::string Phrase() const {
    return kind == "table" ? std::string("table") : "index " + std::string(name);
  }
};

struct WarmRequest {
  std::optional<int64_t> read;
  std::optional<int64_t> write;
};

ApiResult<WarmRequest> ReadWarm(const rapidjson::Value& json, const ThroughputTarget& target) {
  if (!json.IsObject()) return ApiError::Serialization("Unexpected value type in payload");
  RequestReader r(json);
  WarmRequest warm{r.Long("ReadUnitsPerSecond"), r.Long("WriteUnitsPerSecond")};
  if (r.failed()) return r.error();
  if (!warm.read && !warm.write) {
    return ApiError::InvalidParameters("WarmThroughput must have at least one of ReadUnitsPerSecond or "
                   "WriteUnitsPerSecond specified for " + std::string(target.kind) + ": " +
                   std::string(target.name));
  }
  return warm;
}

ApiError ExceedsAccountMaximum(std::string_view member, std::string_view what,
                               const ThroughputTarget& target, std::string_view region) {
  std::string side = member.starts_with("MaxRead") || member.starts_with("Read") ? "Read" : "Write";
  return ApiError::LimitExceeded("Subscriber limit exceeded: Requested " + std::string(member) +
                                 " for " + std::string(what) + " for " + target.Phrase() +
                                 " exceeds TableMax" + side +
                                 "CapacityUnits of the account in region " + std::string(region));
}

// Sets `warm` from a request: every given side must be at least `floor`
// (the reasons name what the floor is) and within the account maximum.
ApiResult<bool> SetWarm(const WarmRequest& request, engine::WarmThroughput& warm,
                        const engine::WarmThroughput& floor, const ThroughputTarget& target,
                        std::string_view floor_reason_read, std::string_view floor_reason_write,
                        std::string_view region) {
  struct Side {
    std::optional<int64_t> requested;
    int64_t floor;
    const char* member;
    std::string_view reason;
  };
  for (const Side& side : {Side{request.read, floor.read_units_per_second, "ReadUnitsPerSecond",
                                floor_reason_read},
                           Side{request.write, floor.write_units_per_second,
                                "WriteUnitsPerSecond", floor_reason_write}}) {
    if (!side.requested) continue;
    if (*side.requested < side.floor) {
      return ApiError::InvalidParameters("Requested " + std::string(side.member) + " for WarmThroughput for " +
                     target.Phrase() + " is lower than " + std::string(side.reason));
    }
    if (*side.requested > kTableMaxCapacityUnits) {
      return ExceedsAccountMaximum(side.member, "WarmThroughput", target, region);
    }
  }
  if (request.read) warm.read_units_per_second = *request.read;
  if (request.write) warm.write_units_per_second = *request.write;
  return true;
}

// The capacity a table or index has now, which its warm throughput is never below.
engine::WarmThroughput CapacityFloor(bool on_demand, const engine::ProvisionedThroughput& t) {
  if (on_demand) return {kOnDemandInitialReadUnits, kOnDemandInitialWriteUnits};
  return {t.read_capacity_units, t.write_capacity_units};
}

void RaiseTo(engine::WarmThroughput& warm, const engine::WarmThroughput& floor) {
  warm.read_units_per_second = std::max(warm.read_units_per_second, floor.read_units_per_second);
  warm.write_units_per_second = std::max(warm.write_units_per_second, floor.write_units_per_second);
}

// Warm throughput asked for on a new table or index: on demand, not below
// the initial 12,000/4,000; provisioned, not below the provisioned capacity.
ApiResult<bool> SetInitialWarm(const rapidjson::Value& json, bool on_demand,
                               const engine::ProvisionedThroughput& throughput,
                               engine::WarmThroughput& warm, const ThroughputTarget& target,
                               std::string_view region) {
  auto request = ReadWarm(json, target);
  if (!request.ok()) return request.take_error();
  if (on_demand) {
    constexpr std::string_view kInitial =
        "initial throughput for OnDemand. See: https://docs.aws.amazon.com/amazondynamodb/latest/"
        "developerguide/on-demand-capacity-mode.html#on-demand-capacity-mode-initial";
    return SetWarm(*request, warm, CapacityFloor(true, throughput), target, kInitial, kInitial,
                   region);
  }
  return SetWarm(*request, warm, CapacityFloor(false, throughput), target,
                 "ReadCapacityUnits of ProvisionedThroughput",
                 "WriteCapacityUnits of ProvisionedThroughput", region);
}

// Warm throughput asked for on an existing table or index: never lower.
ApiResult<bool> RaiseWarm(const rapidjson::Value& json, engine::WarmThroughput& warm,
                          const engine::WarmThroughput& current_floor, const ThroughputTarget& target,
                          std::string_view region) {
  auto request = ReadWarm(json, target);
  if (!request.ok()) return request.take_error();
  engine::WarmThroughput current = warm;
  RaiseTo(current, current_floor);
  constexpr std::string_view kNoDecrease =
      "current WarmThroughput, decreasing WarmThroughput is not supported";
  return SetWarm(*request, warm, current, target, kNoDecrease, kNoDecrease, region);
}

// OnDemandThroughput: each side 1 up to the account maximum, or -1 to
// remove the maximum; only on an on-demand table. `create` picks
// CreateTable's wording of the provisioned refusal.
ApiResult<bool> SetOnDemand(const rapidjson::Value& json, bool on_demand, bool create,
                            engine::OnDemandThroughput& limits, const ThroughputTarget& target,
                            std::string_view region) {
  if (!json.IsObject()) return ApiError::Serialization("Unexpected value type in payload");
  RequestReader r(json);
  auto read = r.Long("MaxReadRequestUnits");
  auto write = r.Long("MaxWriteRequestUnits");
  if (r.failed()) return r.error();
  struct Side {
    std::optional<int64_t> requested;
    const char* member;
    int64_t* value;
  };
  const Side sides[] = {{read, "MaxReadRequestUnits", &limits.max_read_request_units},
                        {write, "MaxWriteRequestUnits", &limits.max_write_request_units}};
  for (const Side& side : sides) {
    if (!side.requested) continue;
    if (!on_demand) {
      return ApiError::InvalidParameters(std::string(side.member) + " for OnDemandThroughput cannot be specified when " +
                     (create ? "table BillingMode is PROVISIONED." : "the table BillingMode is PROVISIONED"));
    }
    if (*side.requested == 0 || *side.requested < -1) {
      return ApiError::InvalidParameters("Requested " + std::string(side.member) + " for OnDemandThroughput for " +
                     target.Phrase() + " is outside of valid range");
    }
    if (*side.requested > kTableMaxCapacityUnits) {
      return ExceedsAccountMaximum(side.member, "OnDemandThroughput", target, region);
    }
  }
  for (const Side& side : sides) {
    if (side.requested) *side.value = *side.requested == -1 ? 0 : *side.requested;
  }
  return true;
}

const rapidjson::Value* Member(const rapidjson::Value& object, const char* name) {
  if (!object.IsObject()) return nullptr;
  auto it = object.FindMember(name);
  return it == object.MemberEnd() || it->value.IsNull() ? nullptr : &it->value;
}

}  // namespace

ApiResult<bool> ApplyCreateThroughputSettings(const rapidjson::Value& request,
                                              engine::TableSchema& schema,
                                              std::string_view region) {
  bool on_demand = OnDemand(schema);
  ThroughputTarget table{"table", schema.name};
  if (const auto* json = Member(request, "OnDemandThroughput")) {
    auto set = SetOnDemand(*json, on_demand, true, schema.on_demand, table, region);
    if (!set.ok()) return set;
  }
  if (const auto* json = Member(request, "WarmThroughput")) {
    auto set = SetInitialWarm(*json, on_demand, schema.throughput, schema.warm, table, region);
    if (!set.ok()) return set;
  }
  if (const auto* indexes = Member(request, "GlobalSecondaryIndexes"); indexes && indexes->IsArray()) {
    size_t i = 0;
    for (const auto& json : indexes->GetArray()) {
      if (i >= schema.global_indexes.size()) break;
      // A new index's settings, as UpdateTable's Create action applies them.
      auto set = ApplyIndexThroughputUpdate(json, true, schema, schema.global_indexes[i++], region);
      if (!set.ok()) return set;
    }
  }
  RatchetWarm(schema);
  return true;
}

ApiResult<bool> ApplyTableThroughputUpdate(const rapidjson::Value* warm,
                                           const rapidjson::Value* on_demand,
                                           engine::TableSchema& schema, std::string_view region) {
  ThroughputTarget table{"table", schema.name};
  if (on_demand) {
    auto set = SetOnDemand(*on_demand, OnDemand(schema), false, schema.on_demand, table, region);
    if (!set.ok()) return set;
  }
  if (warm) {
    auto set = RaiseWarm(*warm, schema.warm, CapacityFloor(OnDemand(schema), schema.throughput),
                         table, region);
    if (!set.ok()) return set;
  }
  return true;
}

ApiResult<bool> ApplyIndexThroughputUpdate(const rapidjson::Value& body, bool created,
                                           const engine::TableSchema& table,
                                           engine::IndexSchema& index, std::string_view region) {
  bool on_demand = OnDemand(table);
  ThroughputTarget target{"index", index.name};
  if (const auto* limits = Member(body, "OnDemandThroughput")) {
    auto set = SetOnDemand(*limits, on_demand, created, index.on_demand, target, region);
    if (!set.ok()) return set;
  }
  if (const auto* warm = Member(body, "WarmThroughput")) {
    auto set = created ? SetInitialWarm(*warm, on_demand, index.throughput, index.warm, target, region)
                       : RaiseWarm(*warm, index.warm, CapacityFloor(on_demand, index.throughput),
                                   target, region);
    if (!set.ok()) return set;
  }
  return true;
}

void RatchetWarm(engine::TableSchema& schema) {
  bool on_demand = OnDemand(schema);
  RaiseTo(schema.warm, CapacityFloor(on_demand, schema.throughput));
  if (!on_demand) schema.on_demand = {};
  for (engine::IndexSchema& index : schema.global_indexes) {
    RaiseTo(index.warm, CapacityFloor(on_demand, index.throughput));
    if (!on_demand) index.on_demand = {};
  }
}

}  // namespace ddb::api
