#include "emulator/throttle.h"

#include <algorithm>
#include <limits>
#include <optional>
#include <vector>

#include "api/json_reader.h"

namespace ddb::emulator {
namespace {

constexpr double kBurstSeconds = 300;

std::string Arn(const api::Caller& caller, std::string_view table, std::string_view index) {
  std::string arn = "arn:aws:dynamodb:" + caller.region + ":" + caller.account_id + ":table/" +
                    std::string(table);
  if (!index.empty()) arn += "/index/" + std::string(index);
  return arn;
}

double Units(const rapidjson::Value& object) {
  if (!object.IsObject()) return 0;
  auto it = object.FindMember("CapacityUnits");
  return it != object.MemberEnd() && it->value.IsNumber() ? it->value.GetDouble() : 0;
}

// What limits one bucket: its units per second (0: nothing does) and the
// seconds of unused capacity it keeps — provisioned capacity bursts for 300
// seconds; an on-demand maximum is a ceiling per second, no more.
struct Limit {
  double units_per_second = 0;
  double burst_seconds = 1;
  bool on_demand = false;
};

// The limit of the table (`index` empty) or of one of its GSIs; nothing for
// an index the table no longer has (its capacity is gone with it).
std::optional<Limit> LimitOf(const engine::TableSchema& s, std::string_view index, bool reads) {
  const engine::ProvisionedThroughput* provisioned = &s.throughput;
  const engine::OnDemandThroughput* on_demand = &s.on_demand;
  if (!index.empty()) {
    auto gsi = std::find_if(s.global_indexes.begin(), s.global_indexes.end(),
                            [&](const engine::IndexSchema& g) { return g.name == index; });
    if (gsi == s.global_indexes.end()) return std::nullopt;
    provisioned = &gsi->throughput;
    on_demand = &gsi->on_demand;
  }
  if (s.billing_mode == "PROVISIONED") {
    return Limit{static_cast<double>(reads ? provisioned->read_capacity_units
                                           : provisioned->write_capacity_units),
                 kBurstSeconds, false};
  }
  return Limit{static_cast<double>(reads ? on_demand->max_read_request_units
                                         : on_demand->max_write_request_units),
               1, true};
}

// The buckets a request needs: the index's for a read on a GSI, else the
// table's; for a write the table's and every GSI's ("" names the table's).
std::vector<std::string> BucketsNeeded(const engine::TableSchema& s, std::string_view index,
                                       bool reads) {
  std::vector<std::string> needed;
  bool on_gsi = std::any_of(s.global_indexes.begin(), s.global_indexes.end(),
                            [&](const engine::IndexSchema& g) { return g.name == index; });
  needed.emplace_back(reads && on_gsi ? std::string(index) : "");
  if (!reads) {
    for (const auto& g : s.global_indexes) needed.push_back(g.name);
  }
  return needed;
}

}  // namespace

Throttle::Bucket& Throttle::Refill(const Key& key, const std::string& uuid, double units_per_second,
                                   double burst_seconds, int64_t now, int64_t created_millis) {
  auto [it, added] = buckets_.try_emplace(key);
  Bucket& b = it->second;
  if (added || b.table_uuid != uuid) {
    double idle_seconds = static_cast<double>(std::max<int64_t>(0, now - created_millis)) / 1000.0;
    double seconds = std::min(burst_seconds, 1.0 + idle_seconds);
    b = Bucket{uuid, units_per_second, burst_seconds, units_per_second * seconds, now, 0, 0};
    return b;
  }
  if (now > b.at_millis) {
    b.tokens += units_per_second * static_cast<double>(now - b.at_millis) / 1000.0;
  }
  b.at_millis = now;  // also when the clock was set back: no refill for it
  b.units_per_second = units_per_second;
  b.burst_seconds = burst_seconds;
  b.tokens = std::min(b.tokens, burst_seconds * units_per_second);
  return b;
}

std::optional<api::ApiError> Throttle::Admit(const api::Caller& caller, std::string_view table,
                                             std::string_view index, bool reads) {
  auto schema = db_.GetSchema(caller.ns, table);
  if (!schema.ok()) return std::nullopt;  // the operation answers for a missing table
  const engine::TableSchema& s = **schema;
  std::vector<std::string> needed = BucketsNeeded(s, index, reads);
  int64_t now = clock_.NowMillis();
  std::vector<api::ThrottlingReason> reasons;
  bool table_empty = false;
  bool on_demand = false;
  std::lock_guard lock(mu_);
  for (const auto& name : needed) {
    auto limit = LimitOf(s, name, reads);
    if (!limit || (limit->on_demand && limit->units_per_second == 0)) continue;  // no maximum
    Bucket& b = Refill(Key{caller.ns, s.name, name, reads}, s.table_uuid, limit->units_per_second,
                       limit->burst_seconds, now, s.creation_millis);
    if (b.tokens > kEmptyBucket) continue;
    ++b.throttled;
    table_empty = table_empty || name.empty();
    on_demand = limit->on_demand;
    reasons.push_back({std::string(name.empty() ? "Table" : "Index") + (reads ? "Read" : "Write") +
                           (limit->on_demand ? "MaxOnDemandThroughputExceeded"
                                             : "ProvisionedThroughputExceeded"),
                       Arn(caller, s.name, name)});
  }
  if (reasons.empty()) return std::nullopt;
  if (on_demand) return api::ApiError::OnDemandMaximumExceeded(std::move(reasons));
  return api::ApiError::ProvisionedThroughputExceeded(!table_empty, std::move(reasons));
}

double Throttle::Headroom(const api::Caller& caller, std::string_view table, bool reads) {
  double least = std::numeric_limits<double>::infinity();
  auto schema = db_.GetSchema(caller.ns, table);
  if (!schema.ok()) return least;
  const engine::TableSchema& s = **schema;
  int64_t now = clock_.NowMillis();
  std::lock_guard lock(mu_);
  for (const auto& name : BucketsNeeded(s, "", reads)) {
    auto limit = LimitOf(s, name, reads);
    if (!limit || (limit->on_demand && limit->units_per_second == 0)) continue;  // no maximum
    least = std::min(least, Refill(Key{caller.ns, s.name, name, reads}, s.table_uuid,
                                   limit->units_per_second, limit->burst_seconds, now,
                                   s.creation_millis)
                                .tokens);
  }
  return least;
}

void Throttle::Charge(std::string_view ns, const rapidjson::Value& consumed, bool reads) {
  auto charge_one = [&](const rapidjson::Value& entry) {
    if (!entry.IsObject()) return;
    auto name = entry.FindMember("TableName");
    if (name == entry.MemberEnd() || !name->value.IsString()) return;
    std::string table(api::View(name->value));
    auto schema = db_.GetSchema(ns, table);
    if (!schema.ok()) return;
    const engine::TableSchema& s = **schema;
    // {index ("" for the table), units}: local indexes are the table's capacity.
    std::vector<std::pair<std::string, double>> charges;
    auto table_part = entry.FindMember("Table");
    double table_units = table_part != entry.MemberEnd() ? Units(table_part->value) : Units(entry);
    if (auto lsis = entry.FindMember("LocalSecondaryIndexes");
        lsis != entry.MemberEnd() && lsis->value.IsObject()) {
      for (const auto& lsi : lsis->value.GetObject()) table_units += Units(lsi.value);
    }
    charges.emplace_back("", table_units);
    if (auto gsis = entry.FindMember("GlobalSecondaryIndexes");
        gsis != entry.MemberEnd() && gsis->value.IsObject()) {
      for (const auto& gsi : gsis->value.GetObject()) {
        charges.emplace_back(std::string(api::View(gsi.name)), Units(gsi.value));
      }
    }
    int64_t now = clock_.NowMillis();
    std::lock_guard lock(mu_);
    for (const auto& [index, units] : charges) {
      auto limit = LimitOf(s, index, reads);
      if (!limit || (limit->on_demand && limit->units_per_second == 0)) continue;
      Bucket& b = Refill(Key{std::string(ns), table, index, reads}, s.table_uuid,
                         limit->units_per_second, limit->burst_seconds, now, s.creation_millis);
      b.tokens -= units;
      b.consumed += units;
    }
  };
  if (consumed.IsArray()) {
    for (const auto& entry : consumed.GetArray()) charge_one(entry);
  } else {
    charge_one(consumed);
  }
}

std::string Throttle::StatsJson() {
  int64_t now = clock_.NowMillis();
  std::lock_guard lock(mu_);
  return api::RenderObject([&](api::JsonWriter& w) {
    w.Key("Enabled");
    w.Bool(enabled());
    w.Key("Buckets");
    w.StartArray();
    for (auto& [key, bucket] : buckets_) {
      Bucket& b = Refill(key, bucket.table_uuid, bucket.units_per_second, bucket.burst_seconds,
                         now, 0);
      w.StartObject();
      if (!key.ns.empty()) {
        w.Key("Namespace");
        api::WriteString(w, key.ns);
      }
      w.Key("TableName");
      api::WriteString(w, key.table);
      if (!key.index.empty()) {
        w.Key("IndexName");
        api::WriteString(w, key.index);
      }
      w.Key("Capacity");
      w.String(key.reads ? "Read" : "Write");
      w.Key("UnitsPerSecond");
      w.Double(b.units_per_second);
      w.Key("Available");
      w.Double(b.tokens);
      w.Key("ConsumedUnits");
      w.Double(b.consumed);
      w.Key("ThrottledRequests");
      w.Uint64(b.throttled);
      w.EndObject();
    }
    w.EndArray();
  });
}

void Throttle::Clear() {
  std::lock_guard lock(mu_);
  buckets_.clear();
}

}  // namespace ddb::emulator
