// Which database a request reaches. DynamoDB is regional: a table made
// through one region does not exist in another, and every access key of an
// account sees the same tables. localdynamo keeps one database per region
// by default (one account), all callers in one with --shared-db, or one per
// access key and region with --per-key-databases (DynamoDB Local's default).
//
// Each database is an engine namespace:
//   per region:       ""  for the default region (us-east-1), "<region>" for another
//   shared:           ""  for everything
//   per key + region: "<access key>/<region>"
// The default region's database is "" in every mode but the last, so a data
// directory written before regions were kept apart opens with its tables in
// the default region.
//
// Thread safety: pure functions.
#pragma once

#include <string>
#include <string_view>

namespace ddb::api {

enum class DatabaseScope { kPerRegion, kShared, kPerKeyAndRegion };

// Where unsigned requests, and a namespace that names no region, are.
inline constexpr std::string_view kDefaultRegion = "us-east-1";

std::string NamespaceOf(DatabaseScope scope, std::string_view access_key,
                        std::string_view region);

// The region a namespace's ARNs name: the default one for "", the part after
// the access key's slash, or the namespace itself (a region's database).
std::string RegionOfNamespace(std::string_view ns);

}  // namespace ddb::api
