// A table's model as a fixture (fixtures/README.md): the CreateTable request
// that rebuilds it, reconstructed from its DescribeTable answer (and its
// tags), and the UpdateTimeToLive request when TTL is on. Both are the JSON
// that `aws dynamodb create-table` / `update-time-to-live --cli-input-json`
// take, pretty-printed so a team can review and commit them.
//
// What a description has but a request cannot say (status, counts, sizes,
// ARNs, creation times, stream labels, throughput history) is left out.
//
// Thread safety: pure functions.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "api/errors.h"

namespace ddb::emulator {

// `tags_body` is the ListTagsOfResource answer (empty: no tags).
api::ApiResult<std::string> CreateTableInputFromDescription(std::string_view describe_table_body,
                                                            std::string_view tags_body);

// The UpdateTimeToLive request enabling TTL on `table` as the
// DescribeTimeToLive answer shows it, or nothing when TTL is not on
// (DISABLED or DISABLING).
api::ApiResult<std::optional<std::string>> TimeToLiveInputFromDescription(
    std::string_view table, std::string_view describe_ttl_body);

}  // namespace ddb::emulator
