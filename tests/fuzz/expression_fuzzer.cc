// libFuzzer target: the whole expression pipeline on arbitrary text.
//
// The first byte picks the kind of expression; the rest is its text. Each
// input is parsed, resolved against fixed placeholders, then evaluated
// (conditions), applied (updates) or projected (projections) on a sample
// item. Errors are expected; crashes, hangs, sanitizer reports and broken
// invariants are not.
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "engine/expression/document_path.h"
#include "engine/expression/evaluate.h"
#include "engine/expression/parser.h"
#include "engine/expression/resolve.h"
#include "engine/expression/update.h"

namespace {

using namespace ddb::engine;
using namespace ddb::engine::expr;

AttributeValue Num(std::string_view text) { return AttributeValue(*Number::Parse(text)); }

Item SampleItem() {
  return Item{{"pk", AttributeValue(std::string("k"))},
              {"a", Num("1")},
              {"b", AttributeValue(std::string("text"))},
              {"c", AttributeValue(List{Num("1"), AttributeValue(Map{{"d", Num("2")}})})},
              {"m", AttributeValue(Map{{"a", AttributeValue(List{})}, {"b", AttributeValue(true)}})},
              {"s", AttributeValue(StringSet{{"x", "y"}})}};
}

// #a..#e name the sample's attributes; :n, :s, :l, :m, :ss, :ns, :b, :t
// cover the types.
Placeholders MakePlaceholders() {
  AttributeNames names{{"#a", "a"}, {"#b", "b"}, {"#c", "c"}, {"#m", "m"}, {"#k", "pk"}};
  AttributeValues values{{":n", Num("9.9999999999999999999999999999999999999E+125")},
                         {":one", Num("1")},
                         {":s", AttributeValue(std::string("te"))},
                         {":l", AttributeValue(List{Num("3")})},
                         {":m", AttributeValue(Map{{"z", Num("0")}})},
                         {":ss", AttributeValue(StringSet{{"x"}})},
                         {":ns", AttributeValue(NumberSet{{Num("1").as<Number>()}})},
                         {":b", AttributeValue(Binary{"\x01"})},
                         {":t", AttributeValue(std::string("SS"))}};
  return Placeholders(std::move(names), std::move(values));
}

void CheckNoEmptySets(const AttributeValue& v) {
  if (v.is<StringSet>() && v.as<StringSet>().values.empty()) abort();
  if (v.is<NumberSet>() && v.as<NumberSet>().values.empty()) abort();
  if (v.is<Map>()) {
    for (const auto& [_, child] : v.as<Map>()) CheckNoEmptySets(child);
  }
  if (v.is<List>()) {
    for (const auto& child : v.as<List>()) CheckNoEmptySets(child);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  std::string_view text(reinterpret_cast<const char*>(data) + 1, size - 1);
  Placeholders placeholders = MakePlaceholders();
  Item item = SampleItem();
  switch (data[0] % 3) {
    case 0: {
      auto condition = ParseCondition(text, "ConditionExpression");
      if (!condition.ok() || !placeholders.Resolve(*condition, "ConditionExpression").ok()) break;
      EvaluateCondition(*condition, &item);
      EvaluateCondition(*condition, nullptr);
      break;
    }
    case 1: {
      auto update = ParseUpdate(text);
      if (!update.ok() || !placeholders.Resolve(*update).ok()) break;
      if (!CheckUpdate(*update, {"pk"}).ok()) break;
      Item before = item;
      if (ApplyUpdate(*update, &item).ok()) {
        if (item.at("pk") != before.at("pk")) abort();  // keys never change
        for (const auto& [_, value] : item) CheckNoEmptySets(value);
        Project(item, UpdatedPaths(*update));
      }
      break;
    }
    default: {
      auto projection = ParseProjection(text);
      if (!projection.ok() || !placeholders.Resolve(*projection).ok()) break;
      std::vector<const Path*> paths;
      for (const auto& p : projection->paths) paths.push_back(&p);
      Item projected = Project(item, paths);
      if (projected.size() > item.size()) abort();
      break;
    }
  }
  (void)placeholders.CheckAllUsed();
  return 0;
}
