#include "emulator/profile/access_profile.h"

#include <algorithm>
#include <chrono>

namespace ddb::emulator {
namespace {

int64_t NowMillis() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

void AddUnits(UnitsAndBytes& to, bool write, double units, uint64_t bytes) {
  (write ? to.write_units : to.read_units) += units;
  (write ? to.write_bytes : to.read_bytes) += bytes;
}

size_t BytesOf(const api::Consumption& c, const std::string& index) {
  auto it = c.index_bytes.find(index);
  return it == c.index_bytes.end() ? 0 : it->second;
}

// The units of `c` on the table and each index, into the table's tallies.
void AddConsumption(TableTally& table, const api::Consumption& c) {
  AddUnits(table.resources[""].units, c.write, c.table_units, c.table_bytes);
  for (const auto* indexes : {&c.global_indexes, &c.local_indexes}) {
    for (const auto& [index, units] : *indexes) {
      AddUnits(table.resources[index].units, c.write, units, BytesOf(c, index));
    }
  }
}

void AddToTimeline(TableTally& table, int64_t second, double read, double write) {
  auto& timeline = table.timeline;
  if (timeline.empty() || timeline.back().second != second) {
    timeline.push_back({second, 0, 0});
    while (timeline.size() > AccessProfile::kTimelineSeconds) timeline.pop_front();
  }
  timeline.back().read_units += read;
  timeline.back().write_units += write;
}

void CountKey(ResourceTally& resource, const engine::Item& key) {
  std::string text = engine::DebugString(key);
  auto it = resource.partition_keys.find(text);
  if (it == resource.partition_keys.end()) {
    if (resource.partition_keys.size() >= AccessProfile::kMaxKeys) return;
    it = resource.partition_keys.emplace(std::move(text), ResourceTally::KeyCount{key, 0}).first;
  }
  ++it->second.count;
}

bool IsRangeRead(std::string_view operation) {
  return operation == "Query" || operation == "Scan";
}

}  // namespace

std::string_view TableOfName(std::string_view name) {
  if (!name.starts_with("arn:")) return name;
  size_t slash = name.find(":table/");
  if (slash == std::string_view::npos) return name;
  name.remove_prefix(slash + 7);
  return name.substr(0, name.find('/'));
}

AccessProfile::AccessProfile() : since_millis_(NowMillis()) {}

void AccessProfile::Add(std::string_view ns, const api::AccessRecord& record, int64_t unix_second) {
  // Each table's units in this request, for its shape and timeline.
  std::map<std::string_view, std::pair<double, double>> table_units;
  for (const api::Consumption& c : record.consumed) {
    auto& [read, write] = table_units[TableOfName(c.table)];
    (c.write ? write : read) += c.total();
  }
  engine::MutexLock lock(mu_);
  auto& tables = tallies_[std::string(ns)];
  for (const api::Consumption& c : record.consumed) {
    AddConsumption(tables[std::string(TableOfName(c.table))], c);
  }
  for (const auto& [name, units] : table_units) {
    AddToTimeline(tables[std::string(name)], unix_second, units.first, units.second);
  }
  for (const api::AccessRecord::Access& access : record.accesses) {
    std::string_view name = TableOfName(access.table);
    TableTally& table = tables[std::string(name)];
    ResourceTally& resource = table.resources[access.index];
    ++resource.requests[record.operation];
    resource.items_read += access.items_read;
    resource.items_returned += access.items_returned;
    if (access.scan) {
      ++resource.scans;
      resource.scan_items_read += access.items_read;
      resource.scan_fraction_sum += access.table_fraction;
      resource.scan_fraction_max = std::max(resource.scan_fraction_max, access.table_fraction);
    }
    // One shape per table the request named: the same request on two
    // tables (a batch) is two entries.
    std::string key = record.operation;
    for (const std::string* part :
         {&access.index, &record.key_condition, &record.filter, &record.projection}) {
      key += '\x1f';
      key += *part;
    }
    auto shape = table.shapes.find(key);
    if (shape == table.shapes.end()) {
      if (table.shapes.size() < kMaxShapes) {
        shape = table.shapes
                    .emplace(std::move(key), ShapeTally{record.operation, access.index,
                                                        record.key_condition, record.filter,
                                                        record.projection})
                    .first;
      } else {
        shape = table.shapes.try_emplace("(other)", ShapeTally{.operation = "(other)"}).first;
      }
    }
    ShapeTally& tally = shape->second;
    ++tally.count;
    auto units = table_units.find(name);
    if (units != table_units.end()) {
      tally.read_units += units->second.first;
      tally.write_units += units->second.second;
      units->second = {0, 0};  // a table named twice is charged once
    }
    tally.items_read += access.items_read;
    tally.items_returned += access.items_returned;
  }
  for (const api::AccessRecord::PartitionKey& pk : record.partition_keys) {
    CountKey(tables[std::string(TableOfName(pk.table))].resources[pk.index], pk.key);
  }
}

ProfileTallies AccessProfile::Tallies(const std::string* ns) const {
  engine::MutexLock lock(mu_);
  if (!ns) return tallies_;
  ProfileTallies one;
  if (auto it = tallies_.find(*ns); it != tallies_.end()) one.insert(*it);
  return one;
}

void AccessProfile::Reset(const std::string* ns) {
  engine::MutexLock lock(mu_);
  if (ns) {
    tallies_.erase(*ns);
    return;
  }
  tallies_.clear();
  since_millis_ = NowMillis();
}

int64_t AccessProfile::since_millis() const {
  engine::MutexLock lock(mu_);
  return since_millis_;
}

}  // namespace ddb::emulator
