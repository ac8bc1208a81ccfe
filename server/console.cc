#include "server/console.h"

#include <string>

#include "server/console_assets.h"

namespace ddb::server {
namespace {

const ConsoleAsset* FindAsset(std::string_view name) {
  for (const ConsoleAsset& asset : ConsoleAssets()) {
    if (asset.name == name) return &asset;
  }
  return nullptr;
}

HttpResponse AssetResponse(const ConsoleAsset& asset) {
  HttpResponse response{200, {{"Content-Type", std::string(asset.content_type)}},
                        std::string(asset.body)};
  // The assets change with the binary only; revalidating each load is cheap
  // on loopback and never shows a stale console after an upgrade.
  response.headers.emplace_back("Cache-Control", "no-cache");
  // Everything the page loads comes from this server: no CDN, no fonts.
  response.headers.emplace_back("Content-Security-Policy",
                                "default-src 'self'; img-src 'self' data:");
  response.headers.emplace_back("X-Content-Type-Options", "nosniff");
  return response;
}

}  // namespace

bool IsConsolePageRequest(const HttpRequest& request) {
  return request.method == "GET" && request.target == "/" &&
         request.accept.find("text/html") != std::string::npos;
}

std::optional<HttpResponse> ServeConsole(const HttpRequest& request) {
  std::string_view name;
  if (IsConsolePageRequest(request)) {
    name = "index.html";
  } else if (request.target.starts_with(kConsolePrefix)) {
    name = std::string_view(request.target).substr(kConsolePrefix.size());
    name = name.substr(0, name.find('?'));
  } else {
    return std::nullopt;
  }
  if (request.method != "GET") {
    return HttpResponse{405, {{"Content-Type", "text/plain"}, {"Allow", "GET"}},
                        "The console's files are read with GET\n"};
  }
  const ConsoleAsset* asset = FindAsset(name);
  if (asset == nullptr) {
    return HttpResponse{404, {{"Content-Type", "text/plain"}}, "No console file here\n"};
  }
  return AssetResponse(*asset);
}

}  // namespace ddb::server
