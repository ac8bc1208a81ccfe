// Lambda event filtering (FilterCriteria) for the local stream triggers: a
// record is delivered when it matches any of a trigger's patterns.
//
// A pattern is a JSON object shaped like the record it filters: each key
// names a field of the record; an object descends into that field, an array
// lists the values the field may match (any one). Several keys must all
// match. Values: strings, numbers, booleans and null match equal values;
// {"prefix": s}, {"suffix": s}, {"equals-ignore-case": s},
// {"anything-but": v | [v…] | {"prefix": s}}, {"numeric": [op, n (, op, n)]}
// with =, <, <=, >, >= (numbers, and numeric strings such as DynamoDB's "N"
// values), and {"exists": true|false}. A field holding an array matches when
// any element does.
//
// Thread safety: an EventFilter is immutable after Parse; Matches is
// reentrant.
#pragma once

#include <rapidjson/document.h>

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "api/errors.h"

namespace ddb::emulator {

class EventFilter {
 public:
  // Parses one pattern (the JSON text of a Filter's Pattern). A
  // ValidationException names what is wrong.
  static api::ApiResult<EventFilter> Parse(std::string_view pattern);

  bool Matches(const rapidjson::Value& record) const;

 private:
  std::shared_ptr<rapidjson::Document> pattern_;
};

// True when `filters` is empty or any of them matches.
bool MatchesAny(const std::vector<EventFilter>& filters, const rapidjson::Value& record);

}  // namespace ddb::emulator
