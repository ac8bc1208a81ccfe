// The web console's HTTP side: a browser asking for GET / (Accept:
// text/html) gets the console page; its scripts and styles are served
// under /_localdynamo/console/ — the admin API's prefix, the one place for
// the emulator's own things. The page itself talks to the server only
// through the DynamoDB API, the Streams API and the admin API, like any
// other client. Other clients asking for GET / keep the health answer.
//
// Thread safety: pure functions over immutable data.
#pragma once

#include <optional>
#include <string_view>

#include "server/http_server.h"

namespace ddb::server {

inline constexpr std::string_view kConsolePrefix = "/_localdynamo/console/";

// True for a GET / from a browser navigating to the server.
bool IsConsolePageRequest(const HttpRequest& request);

// The console page or one of its assets; nullopt when `request` is neither
// a console page request nor under kConsolePrefix. An unknown asset is 404.
std::optional<HttpResponse> ServeConsole(const HttpRequest& request);

}  // namespace ddb::server
