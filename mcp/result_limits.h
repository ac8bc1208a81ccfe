// The caps on what a tool answers (--max-items, --max-bytes), so that one
// Scan cannot flood an agent's context. Before a call, an operation that
// pages gets Limit lowered to the item cap, so DynamoDB itself says where
// the next page starts; after it, an answer still over the byte cap loses
// items from its end — for Query and Scan with LastEvaluatedKey set to the
// last item kept, so paging stays exact — and, as a last resort, its text
// is cut. Every cut comes with a note saying what was left out and how to
// get it.
//
// Thread safety: free functions over their arguments only.
#pragma once

#include <rapidjson/document.h>

#include <cstddef>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace ddb::mcp {

struct ResultLimits {
  size_t max_items = 100;
  size_t max_bytes = 256 * 1024;
};

// Lowers (or sets) the request's Limit to `max_items` for the operations
// that take one. True when it did.
bool CapRequestLimit(std::string_view operation, rapidjson::Document& request, size_t max_items);

struct CappedAnswer {
  std::string json;  // the answer as the tool returns it (maybe cut)
  std::string note;  // empty, or what was left out and how to page
};

// `answer` is the operation's parsed answer; `limit_capped` whether
// CapRequestLimit changed the request. `key_names` gives the attributes of
// a LastEvaluatedKey for the Query or Scan (table and index keys); it is
// called only when items are dropped.
CappedAnswer CapAnswer(std::string_view operation, rapidjson::Document& answer,
                       const ResultLimits& limits, bool limit_capped,
                       const std::function<std::vector<std::string>()>& key_names);

// Cuts `text` to at most `max_bytes` bytes at a UTF-8 character boundary.
std::string CutText(std::string text, size_t max_bytes);

}  // namespace ddb::mcp
