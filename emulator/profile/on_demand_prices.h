// DynamoDB's on-demand prices, for the access profile's cost estimate: the
// Standard table class's read and write request units, per region, in US
// dollars per million units. One table, with the day it was read from AWS's
// pricing page; a region not here has no estimate (the admin API says which
// regions are).
//
// Thread safety: constant data.
#pragma once

#include <span>
#include <string_view>

namespace ddb::emulator {

struct OnDemandPrices {
  std::string_view region;
  double read_per_million = 0;   // read request units
  double write_per_million = 0;  // write request units
};

// The day the prices below were read.
inline constexpr std::string_view kPricesRead = "2026-12-03";

std::span<const OnDemandPrices> PricedRegions();
// Null for a region without prices here.
const OnDemandPrices* PricesOf(std::string_view region);

inline double CostOf(const OnDemandPrices& prices, double read_units, double write_units) {
  return (read_units * prices.read_per_million + write_units * prices.write_per_million) / 1e6;
}

}  // namespace ddb::emulator
