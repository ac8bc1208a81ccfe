#include "emulator/profile/profile_report.h"

#include <algorithm>
#include <tuple>
#include <vector>

#include "api/attribute_json.h"
#include "api/json_reader.h"
#include "engine/clock.h"

namespace ddb::emulator {
namespace {

using api::JsonWriter;
using api::WriteString;

double Waste(uint64_t read, uint64_t returned) {
  if (read == 0) return 0;
  return 1.0 - static_cast<double>(returned) / static_cast<double>(read);
}

std::string_view ProjectionName(engine::ProjectionType type) {
  switch (type) {
    case engine::ProjectionType::kAll: return "ALL";
    case engine::ProjectionType::kKeysOnly: return "KEYS_ONLY";
    case engine::ProjectionType::kInclude: return "INCLUDE";
  }
  return "ALL";
}

struct Totals {
  uint64_t requests = 0;
  double read_units = 0;
  double write_units = 0;

  // Adds a table's requests and units, its indexes' included.
  void Add(const TableTally& table) {
    for (const auto& entry : table.resources) {
      const ResourceTally& resource = entry.second;
      read_units += resource.units.read_units;
      write_units += resource.units.write_units;
      for (const auto& [op, count] : resource.requests) requests += count;
    }
  }
};

class Renderer {
 public:
  Renderer(JsonWriter& w, const engine::Database& db, const ProfileQuery& query)
      : w_(w), db_(db), query_(query) {}

  // Writes one table's object.
  void Table(const std::string& ns, const std::string& name, const TableTally& table) {
    static const ResourceTally kNone;
    auto found = table.resources.find("");
    const ResourceTally& own = found == table.resources.end() ? kNone : found->second;
    Totals all;
    all.Add(table);
    w_.StartObject();
    w_.Key("TableName");
    WriteString(w_, name);
    Counters(own);
    w_.Key("CapacityUnits");
    w_.Double(all.read_units + all.write_units);
    Cost(all.read_units, all.write_units);
    Indexes(ns, name, table);
    Shapes(table);
    HotKeys(table);
    Timeline(table);
    w_.EndObject();
  }

  void Cost(double read, double write) {
    if (!query_.prices) return;
    w_.Key("Cost");
    w_.Double(CostOf(*query_.prices, read, write));
  }

 private:
  // What a table and an index report alike.
  void Counters(const ResourceTally& r) {
    w_.Key("Requests");
    w_.StartObject();
    for (const auto& [op, count] : r.requests) {
      w_.Key(op.c_str());
      w_.Uint64(count);
    }
    w_.EndObject();
    w_.Key("ReadUnits");
    w_.Double(r.units.read_units);
    w_.Key("WriteUnits");
    w_.Double(r.units.write_units);
    w_.Key("ReadBytes");
    w_.Uint64(r.units.read_bytes);
    w_.Key("WriteBytes");
    w_.Uint64(r.units.write_bytes);
    w_.Key("ItemsRead");
    w_.Uint64(r.items_read);
    w_.Key("ItemsReturned");
    w_.Uint64(r.items_returned);
    w_.Key("FilterWaste");
    w_.Double(Waste(r.items_read, r.items_returned));
    w_.Key("Scans");
    w_.StartObject();
    w_.Key("Count");
    w_.Uint64(r.scans);
    w_.Key("ItemsRead");
    w_.Uint64(r.scan_items_read);
    w_.Key("MeanTableFraction");
    w_.Double(r.scans ? r.scan_fraction_sum / static_cast<double>(r.scans) : 0);
    w_.Key("MaxTableFraction");
    w_.Double(r.scan_fraction_max);
    w_.EndObject();
  }

  // Every index the table's schema lists, then any tallied index it no
  // longer has (deleted since).
  void Indexes(const std::string& ns, const std::string& name, const TableTally& table) {
    struct Listed {
      std::string name;
      std::string_view kind;
      std::string_view projection;
    };
    std::vector<Listed> listed;
    if (auto schema = db_.GetSchema(ns, name); schema.ok()) {
      for (const auto& index : (*schema)->global_indexes) {
        listed.push_back({index.name, "GLOBAL", ProjectionName(index.projection.type)});
      }
      for (const auto& index : (*schema)->local_indexes) {
        listed.push_back({index.name, "LOCAL", ProjectionName(index.projection.type)});
      }
    }
    for (const auto& entry : table.resources) {
      const std::string& index = entry.first;
      if (index.empty()) continue;
      bool known = std::any_of(listed.begin(), listed.end(),
                               [&](const Listed& l) { return l.name == index; });
      if (!known) listed.push_back({index, "", ""});
    }
    static const ResourceTally kNone;
    w_.Key("Indexes");
    w_.StartArray();
    for (const Listed& index : listed) {
      auto found = table.resources.find(index.name);
      const ResourceTally& r = found == table.resources.end() ? kNone : found->second;
      w_.StartObject();
      w_.Key("IndexName");
      WriteString(w_, index.name);
      api::WriteNonEmpty(w_, "Kind", index.kind);
      api::WriteNonEmpty(w_, "Projection", index.projection);
      Counters(r);
      Cost(r.units.read_units, r.units.write_units);
      w_.Key("NeverRead");
      w_.Bool(!r.requests.contains("Query") && !r.requests.contains("Scan"));
      w_.EndObject();
    }
    w_.EndArray();
  }

  void Shapes(const TableTally& table) {
    std::vector<const ShapeTally*> shapes;
    for (const auto& [key, shape] : table.shapes) shapes.push_back(&shape);
    std::sort(shapes.begin(), shapes.end(), [](const ShapeTally* a, const ShapeTally* b) {
      double ua = a->read_units + a->write_units, ub = b->read_units + b->write_units;
      if (ua != ub) return ua > ub;
      if (a->count != b->count) return a->count > b->count;
      // The shapes are kept unordered: ties in the order of their parts.
      return std::tie(a->operation, a->index, a->key_condition, a->filter, a->projection) <
             std::tie(b->operation, b->index, b->key_condition, b->filter, b->projection);
    });
    if (shapes.size() > query_.shapes) shapes.resize(query_.shapes);
    w_.Key("Shapes");
    w_.StartArray();
    for (const ShapeTally* s : shapes) {
      w_.StartObject();
      w_.Key("Operation");
      WriteString(w_, s->operation);
      w_.Key("IndexName");
      WriteString(w_, s->index);
      w_.Key("KeyCondition");
      WriteString(w_, s->key_condition);
      w_.Key("Filter");
      WriteString(w_, s->filter);
      w_.Key("Projection");
      WriteString(w_, s->projection);
      w_.Key("Count");
      w_.Uint64(s->count);
      w_.Key("ReadUnits");
      w_.Double(s->read_units);
      w_.Key("WriteUnits");
      w_.Double(s->write_units);
      w_.Key("ItemsRead");
      w_.Uint64(s->items_read);
      w_.Key("ItemsReturned");
      w_.Uint64(s->items_returned);
      Cost(s->read_units, s->write_units);
      w_.EndObject();
    }
    w_.EndArray();
  }

  // The table's and each index's hottest keys, together, the most
  // requested first (ties: the table first, then by key).
  void HotKeys(const TableTally& table) {
    struct Hot {
      const std::string* index;
      KeyCounts::Counted key;
    };
    std::vector<Hot> hot;
    for (const auto& [index, resource] : table.resources) {
      std::vector<Hot> mine;
      for (const KeyCounts::Counted& key : resource.partition_keys.All()) {
        mine.push_back({&index, key});
      }
      std::sort(mine.begin(), mine.end(), [](const Hot& a, const Hot& b) {
        if (a.key.count != b.key.count) return a.key.count > b.key.count;
        return a.key.text < b.key.text;
      });
      if (mine.size() > query_.keys) mine.resize(query_.keys);
      hot.insert(hot.end(), mine.begin(), mine.end());
    }
    std::stable_sort(hot.begin(), hot.end(),
                     [](const Hot& a, const Hot& b) { return a.key.count > b.key.count; });
    w_.Key("HotPartitionKeys");
    w_.StartArray();
    for (const Hot& h : hot) {
      w_.StartObject();
      w_.Key("IndexName");
      WriteString(w_, *h.index);
      w_.Key("Key");
      api::WriteItem(w_, api::KeyFromText(h.key.text));  // made for the keys shown alone
      w_.Key("Count");
      w_.Uint64(h.key.count);
      w_.EndObject();
    }
    w_.EndArray();
  }

  void Timeline(const TableTally& table) {
    w_.Key("Timeline");
    w_.StartArray();
    for (const SecondUnits& s : table.timeline) {
      w_.StartObject();
      w_.Key("Second");
      w_.Int64(s.second);
      w_.Key("ReadUnits");
      w_.Double(s.read_units);
      w_.Key("WriteUnits");
      w_.Double(s.write_units);
      w_.EndObject();
    }
    w_.EndArray();
  }

  JsonWriter& w_;
  const engine::Database& db_;
  const ProfileQuery& query_;
};

}  // namespace

std::string RenderProfile(const AccessProfile& profile, const engine::Database& db,
                          const ProfileQuery& query) {
  ProfileTallies tallies = profile.Tallies(query.ns);
  Totals totals;
  for (const auto& [ns, tables] : tallies) {
    for (const auto& [name, table] : tables) totals.Add(table);
  }
  return api::RenderObject([&](JsonWriter& w) {
    w.Key("Since");
    WriteString(w, engine::IsoMillis(profile.since_millis()) + "Z");
    if (query.prices) {
      w.Key("Prices");
      w.StartObject();
      w.Key("Region");
      WriteString(w, query.prices->region);
      w.Key("Currency");
      w.String("USD");
      w.Key("Read");
      WriteString(w, kPricesRead);
      w.Key("ReadRequestUnitsPerMillion");
      w.Double(query.prices->read_per_million);
      w.Key("WriteRequestUnitsPerMillion");
      w.Double(query.prices->write_per_million);
      w.EndObject();
    }
    w.Key("Requests");
    w.Uint64(totals.requests);
    w.Key("ReadUnits");
    w.Double(totals.read_units);
    w.Key("WriteUnits");
    w.Double(totals.write_units);
    if (query.prices) {
      w.Key("Cost");
      w.Double(CostOf(*query.prices, totals.read_units, totals.write_units));
    }
    Renderer renderer(w, db, query);
    w.Key("Databases");
    w.StartArray();
    for (const auto& [ns, tables] : tallies) {
      w.StartObject();
      w.Key("Namespace");
      WriteString(w, ns);
      w.Key("Tables");
      w.StartArray();
      for (const auto& [name, table] : tables) renderer.Table(ns, name, table);
      w.EndArray();
      w.EndObject();
    }
    w.EndArray();
  });
}

}  // namespace ddb::emulator
