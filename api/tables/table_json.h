// TableDescription rendering, shared by every operation that returns one
// (CreateTable, DescribeTable, UpdateTable, DeleteTable).
//
// Thread safety: pure functions.
#pragma once

#include <string>
#include <vector>

#include "api/context.h"
#include "api/json_reader.h"
#include "engine/database.h"

namespace ddb::api {

// How a description shows warm throughput: DescribeTable reports it ACTIVE
// for the table and each global index; CreateTable omits it unless it was
// asked for; an answer to a request that raised it shows it UPDATING.
enum class WarmView { kActive, kUpdating, kOmitted };

struct DescriptionView {
  WarmView warm = WarmView::kActive;  // the table's; global indexes show ACTIVE unless omitted
  std::vector<std::string> creating_replicas;  // replicas just asked for: shown CREATING
  bool witnesses_creating = false;             // the witness just asked for
};

// Writes a time as DynamoDB does: epoch seconds, with a fraction when the
// milliseconds are not whole seconds.
void WriteSeconds(JsonWriter& w, int64_t millis);

// Writes "SSEDescription" and its object when encryption is on.
void WriteSseDescription(JsonWriter& w, const engine::SseDescription& sse);

// Writes "OnDemandThroughput" and its object when a maximum is set.
void WriteOnDemandThroughput(JsonWriter& w, const engine::OnDemandThroughput& t);

// Writes an index's Projection object.
void WriteProjection(JsonWriter& w, const engine::Projection& projection);

// Writes a KeySchema list: the HASH elements, then the RANGE ones.
void WriteKeySchema(JsonWriter& w, const engine::KeySchema& key);

// Writes the TableDescription object of DynamoDB's API reference.
void WriteTableDescription(JsonWriter& w, const Context& ctx,
                           const engine::TableDescription& description,
                           const DescriptionView& view = {});

// {"<member>": TableDescription} as a whole response body.
std::string RenderTableDescription(const Context& ctx, std::string_view member,
                                   const engine::TableDescription& description,
                                   const DescriptionView& view = {});

}  // namespace ddb::api
