#include "server/access_policy.h"

#include <openssl/crypto.h>

#include <algorithm>

#include "emulator/host_names.h"

namespace ddb::server {
namespace {

using emulator::AuthorityOf;
using emulator::HostOf;
using emulator::IsLoopbackName;
using emulator::Lowercase;

bool IsReadOnlyMethod(std::string_view method) { return method == "GET" || method == "HEAD"; }

}  // namespace

AccessPolicy::AccessPolicy(const AccessRules& rules)
    : admin_token_(rules.admin_token), listen_host_(rules.listen_host) {
  for (const auto& entry : emulator::SplitList(rules.cors)) {
    if (entry == "*") any_origin_ = true;
    std::string lower = Lowercase(entry);
    while (lower.ends_with('/')) lower.pop_back();  // "http://a.example/" names the origin too
    cors_entries_.push_back(std::move(lower));
  }
  for (const auto& host : rules.allowed_hosts) {
    for (const auto& name : emulator::SplitList(host)) {
      allowed_hosts_.push_back(Lowercase(HostOf(name)));
    }
  }
  admin_read_only_ = admin_token_.empty() && !rules.admin_open && !IsLoopbackName(listen_host_);
}

bool AccessPolicy::Listed(std::string_view host_name) const {
  return std::find(allowed_hosts_.begin(), allowed_hosts_.end(), Lowercase(host_name)) !=
         allowed_hosts_.end();
}

bool AccessPolicy::AllowsOrigin(std::string_view origin) const {
  if (any_origin_) return true;
  std::string lower = Lowercase(origin);
  std::string_view authority = AuthorityOf(lower);
  if (authority.empty()) return false;  // "null" (sandboxed pages, files), or no scheme
  std::string_view host = HostOf(authority);
  if (IsLoopbackName(host) || Listed(host)) return true;
  for (const auto& entry : cors_entries_) {
    bool is_origin = entry.find("://") != std::string::npos;
    if (is_origin ? entry == lower : entry == authority || entry == host) return true;
  }
  return false;
}

bool AccessPolicy::AllowsAdminOrigin(std::string_view origin) const {
  std::string lower = Lowercase(origin);
  std::string_view host = HostOf(AuthorityOf(lower));
  return !host.empty() && (IsLoopbackName(host) || Listed(host));
}

std::string AccessPolicy::AllowOriginHeader(std::string_view origin) const {
  return any_origin_ ? "*" : std::string(origin);
}

bool AccessPolicy::AllowsHost(std::string_view host) const {
  // HTTP/1.0 clients may send no Host; only a browser's page could not
  // choose its Host, and every browser sends one.
  if (host.empty()) return true;
  std::string_view name = HostOf(host);
  return IsLoopbackName(name) || Listed(name);
}

bool AccessPolicy::TokenMatches(std::string_view authorization) const {
  constexpr std::string_view kBearer = "Bearer ";
  if (!authorization.starts_with(kBearer)) return false;
  std::string_view given = authorization.substr(kBearer.size());
  // In constant time: a client on the network must not learn the token a
  // byte at a time from how long a refusal takes.
  return given.size() == admin_token_.size() &&
         CRYPTO_memcmp(given.data(), admin_token_.data(), given.size()) == 0;
}

std::optional<api::ApiError> AccessPolicy::CheckAdmin(std::string_view method,
                                                      std::string_view host,
                                                      std::string_view origin,
                                                      std::string_view authorization) const {
  if (!origin.empty() && !AllowsAdminOrigin(origin)) return api::ApiError::CrossOrigin(origin);
  if (!admin_token_.empty()) {
    if (authorization.empty()) {
      return api::ApiError::AdminUnauthorized(
          "The admin API needs 'Authorization: Bearer <token>' (the server was started with "
          "--admin-token or LOCALDYNAMO_ADMIN_TOKEN)");
    }
    if (!TokenMatches(authorization)) {
      return api::ApiError::AdminUnauthorized("The admin token does not match");
    }
    return std::nullopt;  // a page cannot know the token: any Host will do
  }
  // A browser's same-origin GET carries no Origin: a rebound name shows in
  // the Host alone.
  if (IsReadOnlyMethod(method) && !AllowsHost(host)) {
    return api::ApiError::HostNotAllowed(HostOf(host));
  }
  if (admin_read_only_ && !IsReadOnlyMethod(method)) {
    return api::ApiError::AdminReadOnly(listen_host_);
  }
  return std::nullopt;
}

}  // namespace ddb::server
