// The access profile as the admin API answers it (docs/profile.md): the
// tallies of AccessProfile with each table's indexes as its schema lists
// them (so an index never read shows), filter waste, Scans' table
// fractions, the most expensive shapes and hot keys, and the estimated
// cost at a region's on-demand prices.
//
// Thread safety: reads the profile and the database; safe to call
// concurrently.
#pragma once

#include <cstddef>
#include <string>

#include "emulator/profile/access_profile.h"
#include "emulator/profile/on_demand_prices.h"
#include "engine/database.h"

namespace ddb::emulator {

struct ProfileQuery {
  const std::string* ns = nullptr;  // one database; null: all of them
  const OnDemandPrices* prices = nullptr;
  size_t shapes = 10;  // the most expensive shapes shown per table
  size_t keys = 10;    // the hottest partition keys shown per table and index
};

std::string RenderProfile(const AccessProfile& profile, const engine::Database& db,
                          const ProfileQuery& query);

}  // namespace ddb::emulator
