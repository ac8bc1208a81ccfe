// Who may reach the server, decided for each request before anything is
// read or changed (docs/security.md is the threat model):
//  - web pages: a request carrying an Origin is answered only if that origin
//    is allowed — loopback origins always, others by -cors (DynamoDB Local's
//    flag: a list, or "*" for every origin) or --allowed-hosts. This holds
//    whatever the Host says, which closes DNS rebinding: a page of
//    evil.example whose name resolves to 127.0.0.1 still sends its Origin.
//  - the admin API's and the console's GETs, which a browser sends without
//    an Origin from a page of the same origin: the Host must be a loopback
//    name or one of --allowed-hosts.
//  - the admin API: with --admin-token every call needs
//    "Authorization: Bearer <token>"; without one, a server that listens
//    beyond loopback keeps the admin API read-only unless --admin-open.
// SDKs, the CLI and other containers send no Origin and are not affected by
// the first two rules.
//
// Thread safety: immutable after construction.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "api/errors.h"

namespace ddb::server {

struct AccessRules {
  // The -cors value: empty (not given) allows loopback origins only; "*"
  // every origin; otherwise a comma-separated list of origins
  // ("https://app.example:8443") or host names ("app.example", any scheme
  // and port), allowed beside loopback.
  std::string cors;
  std::vector<std::string> allowed_hosts;  // --allowed-hosts: names beyond loopback
  std::string admin_token;                 // empty: none
  // Where the server listens: beyond loopback, without a token, the admin
  // API is read-only unless admin_open.
  std::string listen_host = "127.0.0.1";
  bool admin_open = false;
};

class AccessPolicy {
 public:
  AccessPolicy() : AccessPolicy(AccessRules()) {}
  explicit AccessPolicy(const AccessRules& rules);

  // Whether a page of `origin` (an Origin header's value) may call the
  // server. Every origin may when the rules allow any ("-cors *").
  bool AllowsOrigin(std::string_view origin) const;
  // Whether a page of `origin` may call the admin API: loopback origins and
  // --allowed-hosts names only. -cors (even "*") opens the DynamoDB API to
  // more pages, never the admin API.
  bool AllowsAdminOrigin(std::string_view origin) const;
  // The Access-Control-Allow-Origin for an allowed origin: "*" when any
  // origin is allowed (DynamoDB Local's answer), else the origin itself.
  std::string AllowOriginHeader(std::string_view origin) const;
  // Whether a Host header's value names this machine: a loopback name or
  // one of --allowed-hosts.
  bool AllowsHost(std::string_view host) const;
  // The refusal of a request to the admin API, or nullopt if it may go on.
  // `origin` may be empty (not a web page).
  std::optional<api::ApiError> CheckAdmin(std::string_view method, std::string_view host,
                                          std::string_view origin,
                                          std::string_view authorization) const;

  bool any_origin() const { return any_origin_; }
  bool admin_read_only() const { return admin_read_only_; }

 private:
  bool Listed(std::string_view host_name) const;
  bool TokenMatches(std::string_view authorization) const;

  bool any_origin_ = false;
  std::vector<std::string> cors_entries_;   // lowercased
  std::vector<std::string> allowed_hosts_;  // lowercased names, no ports
  std::string admin_token_;
  std::string listen_host_;
  bool admin_read_only_ = false;
};

}  // namespace ddb::server
