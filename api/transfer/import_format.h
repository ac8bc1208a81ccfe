// Reading ImportTable's objects: each of the three input formats turned
// into items in DynamoDB JSON, one object at a time.
//   DYNAMODB_JSON  one {"Item": {...}} per line (a full export's lines)
//   ION            $ion_1_0 {Item:{...}} values (a full ION export's lines;
//                  a top-level list of them is read too)
//   CSV            a header line (or ImportTable's HeaderList), then one item
//                  per line; key attributes typed by the table's
//                  AttributeDefinitions, every other column a string, empty
//                  columns left out, quotes doubled inside quoted fields
// As in DynamoDB, the first bad record ends the object: the items before it
// are imported, the rest of the object is skipped, and it counts one error.
//
// Thread safety: pure functions.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ddb::api {

enum class InputFormat { kDynamoDbJson, kIon, kCsv };

struct CsvOptions {
  char delimiter = ',';
  std::vector<std::string> header;  // empty: the object's first line
  // Key attributes and their types ("S", "N", "B"); the other columns are strings.
  std::map<std::string, std::string, std::less<>> key_types;
};

struct ObjectItems {
  std::vector<std::string> items;    // each item's JSON, in the object's order
  std::optional<std::string> error;  // what ended the object early
  size_t error_index = 0;            // the bad record's index in the object
};

ObjectItems ReadImportObject(std::string_view text, InputFormat format, const CsvOptions& csv);

}  // namespace ddb::api
