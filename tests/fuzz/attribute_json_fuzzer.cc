// libFuzzer target: JSON text -> attribute values (DynamoDB's wire form).
//
// Whatever the bytes, decoding either fails with an error or yields an item
// that renders back to JSON which decodes to the same item.
#include <rapidjson/document.h>

#include <cstdint>
#include <cstdlib>

#include "api/attribute_json.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  rapidjson::Document doc;
  doc.Parse(reinterpret_cast<const char*>(data), size);
  if (doc.HasParseError() || !doc.IsObject()) return 0;
  auto item = ddb::api::ParseItem(doc);
  if (!item.ok()) return 0;
  std::string rendered = ddb::api::RenderObject([&](ddb::api::JsonWriter& w) {
    w.Key("Item");
    ddb::api::WriteItem(w, *item);
  });
  rapidjson::Document again;
  again.Parse(rendered.c_str(), rendered.size());
  if (again.HasParseError()) abort();
  auto reparsed = ddb::api::ParseItem(again["Item"]);
  if (!reparsed.ok() || *reparsed != *item) abort();
  return 0;
}
