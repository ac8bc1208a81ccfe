// The preloaded models' access patterns (fixtures/<model>/ACCESS_PATTERNS.md),
// embedded in the binary at build time by cmake/embed_model_guides.cmake,
// which generates the definition of ModelGuides(). The MCP server offers
// each as a resource, so an agent reads how a model is meant to be queried
// before it queries it.
//
// Thread safety: immutable data.
#pragma once

#include <span>
#include <string_view>

namespace ddb::mcp {

struct ModelGuide {
  std::string_view model;  // the model's folder name, e.g. "ecommerce"
  std::string_view text;   // Markdown
};

std::span<const ModelGuide> ModelGuides();

}  // namespace ddb::mcp
