// Reading a write request's items straight from its text.
//
// A BatchWriteItem that loads embeddings is almost all items: 768
// {"N":"…"} values each. Parsing them into a JSON document and then into
// attribute values cost as much again as writing them. CapturedItems parses
// such a request in one pass: the values at the operation's item path
// become engine::Items directly, and the rest of the request becomes the
// JSON document its handler reads, with a placeholder where each item was.
//
// It reads a strict subset only: ASCII without escapes; outside the items,
// no numbers and at most kMaxOutsideDepth levels; items whose values are
// well-formed S, N, BOOL, NULL, M and L values of one type each. On anything
// else it declines, and the request is parsed the general way
// (ParseUntrustedJson, then ParseItem), which also words every error. So
// this path never answers a request differently, only sooner; a
// differential test holds it to that (item_capture_test).
//
// Thread safety: one CapturedItems per request, on one thread.
#pragma once

#include <rapidjson/document.h>

#include <span>
#include <string_view>
#include <vector>

#include "api/errors.h"
#include "engine/attribute_value.h"

namespace ddb::api {

// Where an operation's items are: member names from the request object down,
// "*" standing for any member name or any array element. Empty for
// operations this reader does not serve.
std::span<const std::string_view> ItemPathFor(std::string_view operation);

class CapturedItems {
 public:
  // Parses `json` into *doc as ParseUntrustedJson would, except for the
  // values at `path`, which are captured. Returns false when the text is
  // outside the subset: nothing is captured then, and *doc is to be parsed
  // again the general way.
  bool Parse(std::string_view json, std::span<const std::string_view> path,
             rapidjson::Document* doc);

  // The item `json` stands for: a captured one when `json` is a placeholder
  // (each is taken once), else ParseItem(json).
  ApiResult<engine::Item> TakeOrParse(const rapidjson::Value& json);

  size_t size() const { return items_.size(); }

 private:
  std::vector<engine::Item> items_;
};

}  // namespace ddb::api
