#include "api/database_scope.h"

namespace ddb::api {

std::string NamespaceOf(DatabaseScope scope, std::string_view access_key,
                        std::string_view region) {
  if (region.empty()) region = kDefaultRegion;
  switch (scope) {
    case DatabaseScope::kShared:
      return "";
    case DatabaseScope::kPerKeyAndRegion:
      return std::string(access_key) + "/" + std::string(region);
    case DatabaseScope::kPerRegion:
      break;
  }
  return region == kDefaultRegion ? "" : std::string(region);
}

std::string RegionOfNamespace(std::string_view ns) {
  if (ns.empty()) return std::string(kDefaultRegion);
  size_t slash = ns.rfind('/');
  return std::string(slash == std::string_view::npos ? ns : ns.substr(slash + 1));
}

}  // namespace ddb::api
