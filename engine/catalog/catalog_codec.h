// The stored form of a TableSchema (the value of a table's entry in the
// catalog column family).
//
// Layout (persisted — do not reorder or change; append fields under a new
// version): a version byte, then every TableSchema field of version 1 in
// declaration order, strings length-prefixed, integers as varints, vectors
// count-prefixed; version 2 appends the point-in-time recovery settings,
// version 3 on-demand and warm throughput and vector indexes, version 4
// where a restored table came from, resource-based policies, Contributor
// Insights and Kinesis destinations.
// Both versions decode. See catalog_codec.cc, the single definition.
//
// Thread safety: pure functions.
#pragma once

#include <string>
#include <string_view>

#include "engine/catalog/catalog.h"
#include "engine/status.h"
#include "engine/streams/stream.h"

namespace ddb::engine {

std::string EncodeTableSchema(const TableSchema& schema);

// Returns kInternal if `bytes` is not a schema this codec wrote.
Result<TableSchema> DecodeTableSchema(std::string_view bytes);

// A stream's catalog entry (engine/streams/stream.h), versioned like the schema.
std::string EncodeStreamInfo(const StreamInfo& info);
Result<StreamInfo> DecodeStreamInfo(std::string_view bytes);

// A backup's catalog entry (catalog.h), versioned like the schema; the
// table's schema inside it is encoded as EncodeTableSchema does.
std::string EncodeBackupInfo(const BackupInfo& info);
Result<BackupInfo> DecodeBackupInfo(std::string_view bytes);

std::string EncodeTableStats(const TableStats& stats);
Result<TableStats> DecodeTableStats(std::string_view bytes);

}  // namespace ddb::engine
