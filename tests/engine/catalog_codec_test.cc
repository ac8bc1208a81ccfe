#include "engine/catalog/catalog_codec.h"

#include <gtest/gtest.h>

#include <string>
#include <utility>

#include "tests/engine/test_util.h"

namespace ddb::engine {
namespace {

using namespace std::string_literals;

// A schema where every field differs from its default.
TableSchema FullSchema() {
  TableSchema s = test::MakeTable("Orders", {"pk", ScalarType::kS}, KeyElement{"sk", ScalarType::kN});
  s.table_id = 300;  // more than one varint byte
  s.table_uuid = "0f8fad5b-d9cb-469f-a165-70867728950e";
  s.creation_millis = 1'700'000'123'456;
  s.attribute_definitions.push_back({"gpk", ScalarType::kB});
  s.attribute_definitions.push_back({"lsk", ScalarType::kS});
  s.billing_mode = "PROVISIONED";
  s.pay_per_request_since_millis = 1'600'000'000'000;
  s.throughput = {5, 10, 1'700'000'000'001, 1'700'000'000'002, 3};
  s.on_demand = {40000, 1};
  s.warm = {20000, 5000};

  IndexSchema gsi;
  gsi.name = "by-gpk";
  gsi.index_id = 2;
  gsi.key.hash = {{"gpk", ScalarType::kB}, {"pk", ScalarType::kS}};  // multi-attribute key
  gsi.key.range = {{"sk", ScalarType::kN}};
  gsi.projection = {ProjectionType::kInclude, {"a", "b"}};
  gsi.throughput = {1, 2, 0, 0, 0};
  gsi.on_demand = {300, 0};
  gsi.warm = {15000, 4001};
  gsi.status = "CREATING";
  gsi.backfilling = true;
  s.global_indexes.push_back(gsi);
  IndexSchema keys_only = gsi;
  keys_only.name = "second";
  keys_only.index_id = 3;
  keys_only.projection = {ProjectionType::kKeysOnly, {}};
  keys_only.on_demand = {0, 7};
  keys_only.warm = {12000, 4000};
  s.global_indexes.push_back(keys_only);

  IndexSchema lsi;
  lsi.name = "by-lsk";
  lsi.index_id = 1;
  lsi.is_local = true;
  lsi.key.hash = {{"pk", ScalarType::kS}};
  lsi.key.range = {{"lsk", ScalarType::kS}};
  s.local_indexes.push_back(lsi);

  VectorIndexSchema vector;
  vector.name = "by-embedding";
  vector.index_id = 4;
  vector.vector_attribute = "embedding";
  vector.dimensions = 768;
  vector.distance = DistanceFunction::kDotProduct;
  vector.projection = {ProjectionType::kInclude, {"title"}};
  vector.search_schema = {{"gpk", SearchSchemaType::kHash, ScalarType::kB},
                          {"lsk", SearchSchemaType::kInlineFilter, ScalarType::kS}};
  vector.status = "CREATING";
  vector.backfilling = true;
  s.vector_indexes.push_back(vector);

  s.next_index_id = 5;
  s.stream = {true, "NEW_AND_OLD_IMAGES", "2023-11-14T22:13:20.000"};
  s.sse = {true, "KMS", "arn:aws:kms:us-east-1:000000000000:key/localdynamo"};
  s.tags = {{"env", "test"}, {"empty", ""}, {"utf8 \u00e9", "nul\0inside"s}};
  s.table_class = "STANDARD_INFREQUENT_ACCESS";
  s.deletion_protection = true;
  s.status = "UPDATING";
  s.ttl_attribute = "expires";
  s.point_in_time_recovery = {true, 1700000000123, 7};
  s.restored_from = {"arn:backup", "arn:table", 1700000000456};
  s.contributor_insights = {{"by_g", true, "THROTTLED_KEYS", 5, 6}};
  s.kinesis_destinations = {{"arn:aws:kinesis:x", true, "MICROSECOND", 7, "UPDATE"}};
  s.replicas = {{"us-east-1", "", 1, 0, 0, ""},
                {"eu-west-1", "eu-west-1", 1'700'000'000'000, 10, 20, "STANDARD_INFREQUENT_ACCESS"}};
  s.strong_consistency = true;
  s.witnesses = {"us-east-2"};
  s.resource_policies = {{"", "{}", "1700000000789"}, {"2026-01-01T00:00:00.000", "{\"a\":1}", "17"}};
  return s;
}

void ExpectSameKey(const KeySchema& a, const KeySchema& b) {
  ASSERT_EQ(a.hash.size(), b.hash.size());
  ASSERT_EQ(a.range.size(), b.range.size());
  for (size_t i = 0; i < a.hash.size(); ++i) {
    EXPECT_EQ(a.hash[i].name, b.hash[i].name);
    EXPECT_EQ(a.hash[i].type, b.hash[i].type);
  }
  for (size_t i = 0; i < a.range.size(); ++i) {
    EXPECT_EQ(a.range[i].name, b.range[i].name);
    EXPECT_EQ(a.range[i].type, b.range[i].type);
  }
}

void ExpectSameThroughput(const ProvisionedThroughput& a, const ProvisionedThroughput& b) {
  EXPECT_EQ(a.read_capacity_units, b.read_capacity_units);
  EXPECT_EQ(a.write_capacity_units, b.write_capacity_units);
  EXPECT_EQ(a.last_increase_millis, b.last_increase_millis);
  EXPECT_EQ(a.last_decrease_millis, b.last_decrease_millis);
  EXPECT_EQ(a.decreases_today, b.decreases_today);
}

void ExpectSameIndexes(const std::vector<IndexSchema>& a, const std::vector<IndexSchema>& b) {
  ASSERT_EQ(a.size(), b.size());
  for (size_t i = 0; i < a.size(); ++i) {
    SCOPED_TRACE(a[i].name);
    EXPECT_EQ(a[i].name, b[i].name);
    EXPECT_EQ(a[i].index_id, b[i].index_id);
    EXPECT_EQ(a[i].is_local, b[i].is_local);
    ExpectSameKey(a[i].key, b[i].key);
    EXPECT_EQ(a[i].projection.type, b[i].projection.type);
    EXPECT_EQ(a[i].projection.non_key_attributes, b[i].projection.non_key_attributes);
    ExpectSameThroughput(a[i].throughput, b[i].throughput);
    EXPECT_EQ(a[i].status, b[i].status);
    EXPECT_EQ(a[i].backfilling, b[i].backfilling);
    EXPECT_EQ(a[i].on_demand.max_read_request_units, b[i].on_demand.max_read_request_units);
    EXPECT_EQ(a[i].on_demand.max_write_request_units, b[i].on_demand.max_write_request_units);
    EXPECT_EQ(a[i].warm.read_units_per_second, b[i].warm.read_units_per_second);
    EXPECT_EQ(a[i].warm.write_units_per_second, b[i].warm.write_units_per_second);
  }
}

TEST(CatalogCodecTest, RoundTripsEverySchemaField) {
  TableSchema s = FullSchema();
  Result<TableSchema> decoded = DecodeTableSchema(EncodeTableSchema(s));
  ASSERT_OK(decoded);
  const TableSchema& d = *decoded;
  EXPECT_EQ(d.table_id, s.table_id);
  EXPECT_EQ(d.table_uuid, s.table_uuid);
  EXPECT_EQ(d.name, s.name);
  EXPECT_EQ(d.creation_millis, s.creation_millis);
  ExpectSameKey(d.key, s.key);
  ASSERT_EQ(d.attribute_definitions.size(), s.attribute_definitions.size());
  for (size_t i = 0; i < s.attribute_definitions.size(); ++i) {
    EXPECT_EQ(d.attribute_definitions[i].name, s.attribute_definitions[i].name);
    EXPECT_EQ(d.attribute_definitions[i].type, s.attribute_definitions[i].type);
  }
  EXPECT_EQ(d.billing_mode, s.billing_mode);
  EXPECT_EQ(d.pay_per_request_since_millis, s.pay_per_request_since_millis);
  ExpectSameThroughput(d.throughput, s.throughput);
  EXPECT_EQ(d.on_demand.max_read_request_units, 40000);
  EXPECT_EQ(d.on_demand.max_write_request_units, 1);
  EXPECT_EQ(d.warm.read_units_per_second, 20000);
  EXPECT_EQ(d.warm.write_units_per_second, 5000);
  ExpectSameIndexes(d.global_indexes, s.global_indexes);
  ExpectSameIndexes(d.local_indexes, s.local_indexes);
  ASSERT_EQ(d.vector_indexes.size(), 1u);
  const VectorIndexSchema& v = d.vector_indexes[0];
  EXPECT_EQ(v.name, "by-embedding");
  EXPECT_EQ(v.index_id, 4u);
  EXPECT_EQ(v.vector_attribute, "embedding");
  EXPECT_EQ(v.dimensions, 768u);
  EXPECT_EQ(v.distance, DistanceFunction::kDotProduct);
  EXPECT_EQ(v.projection.type, ProjectionType::kInclude);
  EXPECT_EQ(v.projection.non_key_attributes, std::vector<std::string>{"title"});
  ASSERT_EQ(v.search_schema.size(), 2u);
  EXPECT_EQ(v.search_schema[0].name, "gpk");
  EXPECT_EQ(v.search_schema[0].type, SearchSchemaType::kHash);
  EXPECT_EQ(v.search_schema[0].scalar_type, ScalarType::kB);
  EXPECT_EQ(v.search_schema[1].type, SearchSchemaType::kInlineFilter);
  EXPECT_EQ(v.status, "CREATING");
  EXPECT_TRUE(v.backfilling);
  EXPECT_EQ(d.next_index_id, s.next_index_id);
  EXPECT_EQ(d.stream.enabled, s.stream.enabled);
  EXPECT_EQ(d.stream.view_type, s.stream.view_type);
  EXPECT_EQ(d.stream.label, s.stream.label);
  EXPECT_EQ(d.sse.enabled, s.sse.enabled);
  EXPECT_EQ(d.sse.sse_type, s.sse.sse_type);
  EXPECT_EQ(d.sse.kms_key_arn, s.sse.kms_key_arn);
  EXPECT_EQ(d.tags, s.tags);
  EXPECT_EQ(d.table_class, s.table_class);
  EXPECT_EQ(d.deletion_protection, s.deletion_protection);
  EXPECT_EQ(d.status, s.status);
  EXPECT_EQ(d.ttl_attribute, s.ttl_attribute);
  EXPECT_TRUE(d.point_in_time_recovery.enabled);
  EXPECT_EQ(d.point_in_time_recovery.enabled_since_millis, 1700000000123);
  EXPECT_EQ(d.point_in_time_recovery.recovery_period_days, 7);
  EXPECT_EQ(d.restored_from.backup_arn, "arn:backup");
  EXPECT_EQ(d.restored_from.table_arn, "arn:table");
  EXPECT_EQ(d.restored_from.restore_millis, 1700000000456);
  ASSERT_EQ(d.contributor_insights.size(), 1u);
  EXPECT_EQ(d.contributor_insights[0].mode, "THROTTLED_KEYS");
  EXPECT_EQ(d.contributor_insights[0].rules_created_millis, 6);
  ASSERT_EQ(d.kinesis_destinations.size(), 1u);
  EXPECT_EQ(d.kinesis_destinations[0].precision, "MICROSECOND");
  EXPECT_EQ(d.kinesis_destinations[0].last_change, "UPDATE");
  ASSERT_EQ(d.replicas.size(), 2u);
  EXPECT_EQ(d.replicas[0].region, "us-east-1");
  EXPECT_EQ(d.replicas[1].ns, "eu-west-1");
  EXPECT_EQ(d.replicas[1].created_millis, 1'700'000'000'000);
  EXPECT_EQ(d.replicas[1].read_capacity_override, 10);
  EXPECT_EQ(d.replicas[1].max_read_request_units_override, 20);
  EXPECT_EQ(d.replicas[1].table_class_override, "STANDARD_INFREQUENT_ACCESS");
  EXPECT_TRUE(d.strong_consistency);
  EXPECT_EQ(d.witnesses, std::vector<std::string>{"us-east-2"});
  ASSERT_EQ(d.resource_policies.size(), 2u);
  EXPECT_EQ(d.resource_policies[0].revision_id, "1700000000789");
  EXPECT_EQ(d.resource_policies[1].stream_label, "2026-01-01T00:00:00.000");
  EXPECT_EQ(d.resource_policies[1].document, "{\"a\":1}");
}

TEST(CatalogCodecTest, OlderSchemaVersionsStillDecode) {
  // Each version appends fields: version 5 a global table's replicas, its
  // consistency and witnesses (three bytes), version 4 where a restored table came from
  // and the policies, insights and destinations (six bytes at their
  // defaults: two empty strings, a zero and three empty lists), version
  // 3 the on-demand maximums, warm
  // throughput and vector indexes (five bytes at their defaults for a table
  // without global indexes: four zeros and an empty list), version 2 the
  // three point-in-time recovery fields (one byte each).
  TableSchema schema;
  schema.name = "old";
  schema.key.hash = {{"pk", ScalarType::kS}};
  std::string bytes = EncodeTableSchema(schema);
  for (auto [version, trailing] : {std::pair{4, 3}, std::pair{3, 9}, std::pair{2, 14}, std::pair{1, 17}}) {
    SCOPED_TRACE(version);
    std::string older = bytes.substr(0, bytes.size() - trailing);
    older[0] = static_cast<char>(version);
    Result<TableSchema> decoded = DecodeTableSchema(older);
    ASSERT_OK(decoded);
    EXPECT_EQ(decoded->name, "old");
    EXPECT_FALSE(decoded->point_in_time_recovery.enabled);
    EXPECT_EQ(decoded->point_in_time_recovery.recovery_period_days, 35);
    EXPECT_EQ(decoded->warm.read_units_per_second, 0);
    EXPECT_TRUE(decoded->on_demand.empty());
    EXPECT_TRUE(decoded->restored_from.empty());
    // The newer bytes under the older version number are not that version.
    std::string mislabeled = bytes;
    mislabeled[0] = static_cast<char>(version);
    EXPECT_EQ(DecodeTableSchema(mislabeled).status().code(), Status::Code::kInternal);
  }
}

TEST(CatalogCodecTest, RoundTripsDefaultSchema) {
  TableSchema s = test::MakeTable("t", {"id", ScalarType::kB});
  Result<TableSchema> decoded = DecodeTableSchema(EncodeTableSchema(s));
  ASSERT_OK(decoded);
  EXPECT_EQ(decoded->name, "t");
  ExpectSameKey(decoded->key, s.key);
  EXPECT_TRUE(decoded->global_indexes.empty());
  EXPECT_TRUE(decoded->tags.empty());
  EXPECT_FALSE(decoded->stream.enabled);
  EXPECT_EQ(decoded->range_key(), nullptr);
}

TEST(CatalogCodecTest, TruncatedOrExtendedSchemaIsInternal) {
  std::string bytes = EncodeTableSchema(FullSchema());
  for (size_t n = 0; n < bytes.size(); ++n) {
    Result<TableSchema> decoded = DecodeTableSchema(bytes.substr(0, n));
    ASSERT_FALSE(decoded.ok()) << "prefix of " << n << " bytes decoded";
    EXPECT_EQ(decoded.status().code(), Status::Code::kInternal);
  }
  Result<TableSchema> extended = DecodeTableSchema(bytes + "x");
  ASSERT_FALSE(extended.ok());
  EXPECT_EQ(extended.status().code(), Status::Code::kInternal);
  std::string other_version = bytes;
  other_version[0] = 6;
  EXPECT_EQ(DecodeTableSchema(other_version).status().code(), Status::Code::kInternal);
}

TEST(CatalogCodecTest, ImplausibleElementCountIsInternal) {
  // The tags count directly follows the KMS key ARN; swap the empty list's
  // count (0) for 2,000,000 and leave the rest of the encoding intact.
  TableSchema s = FullSchema();
  s.tags.clear();
  std::string bytes = EncodeTableSchema(s);
  size_t at = bytes.find(s.sse.kms_key_arn) + s.sse.kms_key_arn.size();
  ASSERT_EQ(bytes[at], '\0');
  bytes.replace(at, 1, "\x80\x89\x7a");  // varint 2,000,000
  Result<TableSchema> decoded = DecodeTableSchema(bytes);
  EXPECT_FALSE(decoded.ok()) << "decoded with " << decoded->tags.size() << " tags";
  if (!decoded.ok()) {
    EXPECT_EQ(decoded.status().code(), Status::Code::kInternal);
  }
}

TEST(CatalogCodecTest, BackupInfoRoundTripsAndTruncationIsInternal) {
  BackupInfo info;
  info.ns = "key/us-east-1";
  info.backup_id = "01700000000000-0123abcd";
  info.name = "nightly";
  info.created_millis = 1700000000000;
  info.data_id = (uint64_t{1} << 63) | 7;
  info.schema = FullSchema();
  info.stats = {12, 3456};
  info.index_stats = {{1, {5, 60}}, {3, {7, 80}}};
  std::string bytes = EncodeBackupInfo(info);
  Result<BackupInfo> decoded = DecodeBackupInfo(bytes);
  ASSERT_OK(decoded);
  EXPECT_EQ(decoded->ns, info.ns);
  EXPECT_EQ(decoded->backup_id, info.backup_id);
  EXPECT_EQ(decoded->name, "nightly");
  EXPECT_EQ(decoded->created_millis, info.created_millis);
  EXPECT_EQ(decoded->data_id, info.data_id);
  EXPECT_EQ(EncodeTableSchema(decoded->schema), EncodeTableSchema(info.schema));
  EXPECT_EQ(decoded->stats.size_bytes, 3456);
  ASSERT_EQ(decoded->index_stats.size(), 2u);
  EXPECT_EQ(decoded->index_stats[1].first, 3u);
  EXPECT_EQ(decoded->index_stats[1].second.size_bytes, 80);
  for (size_t n = 0; n < bytes.size(); ++n) {
    EXPECT_EQ(DecodeBackupInfo(bytes.substr(0, n)).status().code(), Status::Code::kInternal) << n;
  }
  EXPECT_EQ(DecodeBackupInfo(bytes + "x").status().code(), Status::Code::kInternal);
}

TEST(CatalogCodecTest, StatsRoundTripAndTruncationIsInternal) {
  TableStats stats{123456, 987654321};
  std::string bytes = EncodeTableStats(stats);
  Result<TableStats> decoded = DecodeTableStats(bytes);
  ASSERT_OK(decoded);
  EXPECT_EQ(decoded->item_count, 123456);
  EXPECT_EQ(decoded->size_bytes, 987654321);
  for (size_t n = 0; n < bytes.size(); ++n) {
    EXPECT_EQ(DecodeTableStats(bytes.substr(0, n)).status().code(), Status::Code::kInternal) << n;
  }
  EXPECT_EQ(DecodeTableStats(bytes + "\x01").status().code(), Status::Code::kInternal);
}

}  // namespace
}  // namespace ddb::engine
