// What Contributor Insights would show in CloudWatch, from the emulator's
// own counters (engine/key_insights.h): for each resource of a table with
// insights enabled (the table, its global indexes), each of DynamoDB's rules
// by its name, with its top contributors. The admin API and the console
// read it; DynamoDB's API has no such operation.
//
//   {"TableName": "T", "Rules": [{"RuleName": "DynamoDBContributorInsights-PKC-T-<ms>",
//     "IndexName"?: "I", "Contributors": [{"Keys": {<DynamoDB JSON>}, "Count": 12}, ...]}]}
//
// Thread safety: as the Engine.
#pragma once

#include <string>
#include <string_view>

#include "api/errors.h"
#include "engine/engine.h"

namespace ddb::api {

// ResourceNotFoundException for a missing table; `limit` contributors per rule.
ApiResult<std::string> InsightsReport(engine::Engine& engine, std::string_view ns,
                                      std::string_view table, size_t limit);

}  // namespace ddb::api
