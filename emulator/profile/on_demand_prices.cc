#include "emulator/profile/on_demand_prices.h"

#include <algorithm>
#include <array>

namespace ddb::emulator {
namespace {

// On-demand, Standard table class (since the 2024-11 price cut, 50% off).
constexpr std::array<OnDemandPrices, 3> kPrices = {{
    {"us-east-1", 0.125, 0.625},
    {"us-east-2", 0.125, 0.625},
    {"us-west-2", 0.125, 0.625},
}};

}  // namespace

std::span<const OnDemandPrices> PricedRegions() { return kPrices; }

const OnDemandPrices* PricesOf(std::string_view region) {
  auto it = std::find_if(kPrices.begin(), kPrices.end(),
                         [&](const OnDemandPrices& p) { return p.region == region; });
  return it == kPrices.end() ? nullptr : &*it;
}

}  // namespace ddb::emulator
