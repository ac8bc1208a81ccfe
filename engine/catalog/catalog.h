// Table schemas: what CreateTable declares and DescribeTable reports.
//
// These are the engine's versions of the DynamoDB API's TableDescription
// pieces (KeySchema, AttributeDefinition, GlobalSecondaryIndex,
// LocalSecondaryIndex, Projection, ProvisionedThroughput, StreamSpecification,
// SSESpecification, Tag). Purely descriptive settings keep DynamoDB's enum
// text as strings (validated by api/); settings the engine acts on are enums.
// catalog_codec.h persists TableSchema.
//
// Thread safety: plain values. The Database shares schemas between threads
// only as std::shared_ptr<const TableSchema>.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace ddb::engine {

// Key attribute types. Do not reorder: persisted.
enum class ScalarType : uint8_t { kS, kN, kB };

struct KeyElement {
  std::string name;
  ScalarType type = ScalarType::kS;
};

// A table's key has one hash and at most one range element; a GSI key may
// have up to four of each (multi-attribute keys).
struct KeySchema {
  std::vector<KeyElement> hash;
  std::vector<KeyElement> range;
};

// Do not reorder: persisted.
enum class ProjectionType : uint8_t { kAll, kKeysOnly, kInclude };

struct Projection {
  ProjectionType type = ProjectionType::kAll;
  std::vector<std::string> non_key_attributes;
};

struct ProvisionedThroughput {
  int64_t read_capacity_units = 0;
  int64_t write_capacity_units = 0;
  int64_t last_increase_millis = 0;  // 0: never
  int64_t last_decrease_millis = 0;  // 0: never
  int64_t decreases_today = 0;
};

// OnDemandThroughput: the most request units per second an on-demand table
// or index may use. 0 on a side: no maximum set.
struct OnDemandThroughput {
  int64_t max_read_request_units = 0;
  int64_t max_write_request_units = 0;
  bool empty() const { return max_read_request_units == 0 && max_write_request_units == 0; }
};

// WarmThroughput: the units per second a table or index can serve at once.
// DynamoDB never lowers it: it is the highest of what was asked for and of
// every capacity the table or index has had (12,000 reads and 4,000 writes
// once on demand). 0 on a side: not recorded yet (a table stored before
// warm throughput existed), read as the current capacity.
struct WarmThroughput {
  int64_t read_units_per_second = 0;
  int64_t write_units_per_second = 0;
};

struct IndexSchema {
  std::string name;
  uint32_t index_id = 0;  // unique within its table, never reused
  bool is_local = false;
  KeySchema key;
  Projection projection;
  ProvisionedThroughput throughput;  // GSIs only
  OnDemandThroughput on_demand;      // GSIs only
  WarmThroughput warm;               // GSIs only
  std::string status = "ACTIVE";     // IndexStatus
  bool backfilling = false;
};

// Vector indexes (DynamoDB's vector search): nearest-neighbour search over a
// List-of-Number attribute, stored as 32-bit floats. Do not reorder: persisted.
enum class DistanceFunction : uint8_t { kCosine, kEuclidean, kDotProduct };
enum class SearchSchemaType : uint8_t { kHash, kInlineFilter };

// An attribute a search may filter on with `=`: the HASH one (required in
// every search condition when present) and INLINE_FILTER ones.
struct SearchSchemaElement {
  std::string name;
  SearchSchemaType type = SearchSchemaType::kHash;
  ScalarType scalar_type = ScalarType::kS;  // from the attribute definitions
};

struct VectorIndexSchema {
  std::string name;
  uint32_t index_id = 0;  // shares the table's index id counter
  std::string vector_attribute;
  uint32_t dimensions = 0;
  DistanceFunction distance = DistanceFunction::kCosine;
  Projection projection;
  std::vector<SearchSchemaElement> search_schema;
  std::string status = "ACTIVE";  // IndexStatus
  bool backfilling = false;
};

struct StreamSpecification {
  bool enabled = false;
  std::string view_type;  // StreamViewType
  std::string label;      // LatestStreamLabel, set when enabled
};

struct SseDescription {
  bool enabled = false;
  std::string sse_type;  // "KMS" when enabled
  std::string kms_key_arn;
};

// Point-in-time recovery, as UpdateContinuousBackups sets it. Described
// only: nothing is restored.
struct PointInTimeRecovery {
  bool enabled = false;
  int64_t enabled_since_millis = 0;  // EarliestRestorableDateTime
  int64_t recovery_period_days = 35;
};

// Where a restored table came from (RestoreSummary); empty otherwise. The
// ARNs are the API's spelling, kept as it gave them.
struct RestoredFrom {
  std::string backup_arn;
  std::string table_arn;
  int64_t restore_millis = 0;
  bool empty() const { return restore_millis == 0; }
};

// A resource-based policy (PutResourcePolicy, CreateTable) on the table or
// on one of its streams: kept and answered, never enforced.
struct ResourcePolicy {
  std::string stream_label;  // empty: the table's own policy
  std::string document;      // as api/resources/resource_policy.h stores it
  std::string revision_id;   // epoch milliseconds of the change, as text
                             // (given at CreateTable: set on creation)
};

// Contributor Insights on the table (empty index name) or one of its GSIs:
// its settled state; the API describes the transition to it.
struct ContributorInsights {
  std::string index_name;
  bool enabled = false;
  std::string mode;                  // ContributorInsightsMode
  int64_t last_update_millis = 0;
  int64_t rules_created_millis = 0;  // the suffix of its rules' names
};

// A Kinesis Data Streams destination of the table's changes.
struct KinesisDestination {
  std::string stream_arn;
  bool enabled = false;   // settled ACTIVE; else DISABLED
  std::string precision;  // ApproximateCreationDateTimePrecision; empty until set
  int64_t changed_millis = 0;
  std::string last_change;  // "ENABLE", "DISABLE" or "UPDATE": the transition shown
};

// One member of a global table (version 2019.11.21): a table of the same
// name in another region's database. Every member keeps the whole group,
// itself included, in creation order; DescribeTable shows the others.
struct Replica {
  std::string region;  // RegionName, as the API names it
  std::string ns;      // the namespace its table lives in
  int64_t created_millis = 0;  // CREATING until the transient-status delay has passed
  // Per-replica overrides (0 or empty: inherited from the table).
  int64_t read_capacity_override = 0;
  int64_t max_read_request_units_override = 0;
  std::string table_class_override;
};

struct TableSchema {
  // Identity, set by the Database on creation.
  uint64_t table_id = 0;
  std::string table_uuid;  // TableId
  std::string name;
  int64_t creation_millis = 0;

  KeySchema key;
  std::vector<KeyElement> attribute_definitions;
  std::string billing_mode = "PROVISIONED";  // BillingMode
  int64_t pay_per_request_since_millis = 0;
  ProvisionedThroughput throughput;
  OnDemandThroughput on_demand;
  WarmThroughput warm;
  std::vector<IndexSchema> global_indexes;
  std::vector<IndexSchema> local_indexes;
  std::vector<VectorIndexSchema> vector_indexes;
  uint32_t next_index_id = 1;
  StreamSpecification stream;
  SseDescription sse;
  std::vector<std::pair<std::string, std::string>> tags;
  std::string table_class = "STANDARD";
  bool deletion_protection = false;
  std::string status = "ACTIVE";  // TableStatus
  std::string ttl_attribute;      // empty: TTL disabled
  PointInTimeRecovery point_in_time_recovery;
  RestoredFrom restored_from;
  std::vector<ResourcePolicy> resource_policies;
  std::vector<ContributorInsights> contributor_insights;
  std::vector<KinesisDestination> kinesis_destinations;
  std::vector<Replica> replicas;  // empty: a regional table
  // Multi-Region strong consistency (MultiRegionConsistency STRONG): every
  // write reaches every replica before it is answered.
  bool strong_consistency = false;
  std::vector<std::string> witnesses;  // GlobalTableWitnesses' regions

  // The table's hash and range key elements.
  const KeyElement& hash_key() const { return key.hash.front(); }
  const KeyElement* range_key() const { return key.range.empty() ? nullptr : &key.range.front(); }
};

// Live statistics reported by DescribeTable.
struct TableStats {
  int64_t item_count = 0;
  int64_t size_bytes = 0;
};

// An on-demand backup (backups.h): the table as it was, kept under its own
// data id until the backup is deleted, whatever becomes of the table.
struct BackupInfo {
  std::string ns;
  std::string backup_id;  // "<creation millis, 14 digits>-<8 hex digits>", unique
  std::string name;
  int64_t created_millis = 0;
  uint64_t data_id = 0;  // the id its copied keys start with, never a table's
  TableSchema schema;    // the table's when it was taken
  TableStats stats;
  std::vector<std::pair<uint32_t, TableStats>> index_stats;  // by index id
};

}  // namespace ddb::engine
