// The expression language: parser errors, placeholder resolution,
// condition evaluation (each operator, function and type pairing),
// precedence, projections and updates.
#include <gtest/gtest.h>

#include "engine/expression/document_path.h"
#include "engine/expression/evaluate.h"
#include "engine/expression/parser.h"
#include "engine/expression/resolve.h"
#include "engine/expression/update.h"
#include "tests/engine/test_util.h"

namespace ddb::engine::expr {
namespace {

using test::B;
using test::N;
using test::S;

AttributeValue L(List values) { return AttributeValue(std::move(values)); }
AttributeValue M(Map values) { return AttributeValue(std::move(values)); }
AttributeValue SS(std::vector<std::string> v) { return AttributeValue(StringSet{std::move(v)}); }
AttributeValue NS(std::vector<std::string_view> texts) {
  NumberSet set;
  for (auto t : texts) set.values.push_back(*Number::Parse(t));
  return AttributeValue(std::move(set));
}

// The item most condition tests run against.
Item Sample() {
  return Item{{"pk", S("k")},
              {"n", N("5")},
              {"s", S("hello")},
              {"b", B("\x01\x02")},
              {"t", AttributeValue(true)},
              {"nul", AttributeValue(Null{})},
              {"tags", SS({"red", "blue"})},
              {"nums", NS({"1", "2"})},
              {"l", L({N("1"), S("two"), M({{"x", N("3")}})})},
              {"m", M({{"a", M({{"b", S("deep")}})}, {"c", N("7")}})}};
}

// Parses and resolves `text` with these values; the error text on failure.
Result<Condition> Bind(std::string_view text, AttributeValues values = {},
                       AttributeNames names = {}) {
  auto parsed = ParseCondition(text, "ConditionExpression");
  if (!parsed.ok()) return parsed;
  Placeholders placeholders(std::move(names), std::move(values));
  DDB_RETURN_IF_ERROR(placeholders.Resolve(*parsed, "ConditionExpression"));
  DDB_RETURN_IF_ERROR(placeholders.CheckAllUsed());
  return parsed;
}

bool Holds(std::string_view text, AttributeValues values = {}, const Item& item = Sample()) {
  auto condition = Bind(text, std::move(values));
  EXPECT_TRUE(condition.ok()) << text << ": " << condition.status().message();
  return condition.ok() && EvaluateCondition(*condition, &item);
}

std::string ErrorOf(std::string_view text, AttributeValues values = {},
                    AttributeNames names = {}) {
  auto condition = Bind(text, std::move(values), std::move(names));
  return condition.ok() ? "(ok)" : condition.status().message();
}

// --- Parser errors --------------------------------------------------------

TEST(ExpressionParser, SyntaxErrorsQuoteTheTokenAndItsNeighbours) {
  EXPECT_EQ(ErrorOf("a-b"), "Invalid ConditionExpression: Syntax error; token: \"-\", near: \"a-b\"");
  EXPECT_EQ(ErrorOf("a = "), "Invalid ConditionExpression: Syntax error; token: \"<EOF>\", near: \"=\"");
  EXPECT_EQ(ErrorOf("!!! INVALID !!!"),
            "Invalid ConditionExpression: Syntax error; token: \"!\", near: \"!!\"");
  EXPECT_EQ(ErrorOf("a > 4"), "Invalid ConditionExpression: Syntax error; token: \"4\", near: \"> 4\"");
  EXPECT_EQ(ErrorOf("a in (b,c,)"),
            "Invalid ConditionExpression: Syntax error; token: \")\", near: \",)\"");
  auto update = ParseUpdate("SET a = :v,");
  EXPECT_EQ(update.status().message(),
            "Invalid UpdateExpression: Syntax error; token: \"<EOF>\", near: \",\"");
}

TEST(ExpressionParser, RejectsMalformedUpdates) {
  for (const char* bad : {"set a", "remove a = b", "set :a = b", "set a = b * c",
                          "set a = b + c + d", "set (a = (b + c))", "add a b", "a = :v"}) {
    auto parsed = ParseUpdate(bad);
    ASSERT_FALSE(parsed.ok()) << bad;
    EXPECT_TRUE(parsed.status().message().starts_with("Invalid UpdateExpression: Syntax error"))
        << bad << ": " << parsed.status().message();
  }
  EXPECT_OK(ParseUpdate("set b.c = ((c[1]) + (b.a))"));
  EXPECT_EQ(ParseUpdate("SET a = :x SET b = :y").status().message(),
            "Invalid UpdateExpression: The \"SET\" section can only be used once in an update "
            "expression;");
}

TEST(ExpressionParser, ReservedWordsNeedPlaceholders) {
  EXPECT_EQ(ErrorOf("Status = :v", {{":v", S("x")}}),
            "Invalid ConditionExpression: Attribute name is a reserved keyword; reserved keyword: "
            "Status");
  EXPECT_EQ(ErrorOf("a.data = :v", {{":v", S("x")}}),
            "Invalid ConditionExpression: Attribute name is a reserved keyword; reserved keyword: "
            "data");
  EXPECT_EQ(ErrorOf("#s = :v", {{":v", S("x")}}, {{"#s", "Status"}}), "(ok)");
}

TEST(ExpressionParser, FunctionErrors) {
  EXPECT_EQ(ErrorOf("foo(a)"), "Invalid ConditionExpression: Invalid function name; function: foo");
  EXPECT_EQ(ErrorOf("Begins_with(a, :v)", {{":v", S("x")}}),
            "Invalid ConditionExpression: Invalid function name; function: Begins_with");
  EXPECT_EQ(ErrorOf("begins_with(a)"),
            "Invalid ConditionExpression: Incorrect number of operands for operator or function; "
            "operator or function: begins_with, number of operands: 1");
  EXPECT_EQ(ErrorOf("attribute_exists(:v)", {{":v", S("x")}}),
            "Invalid ConditionExpression: Operator or function requires a document path; "
            "operator or function: attribute_exists");
  EXPECT_EQ(ErrorOf("size(a)"),
            "Invalid ConditionExpression: The function is not allowed to be used this way in an "
            "expression; function: size");
  EXPECT_EQ(ErrorOf("attribute_exists(a) > b"),
            "Invalid ConditionExpression: The function is not allowed to be used this way in an "
            "expression; function: attribute_exists");
  EXPECT_EQ(ErrorOf("a in (b, attribute_exists(x))"),
            "Invalid ConditionExpression: The function is not allowed to be used this way in an "
            "expression; function: attribute_exists");
}

TEST(ExpressionParser, ParenthesesMayWrapOperandsButNotTwice) {
  EXPECT_TRUE(Holds("(n) = (:v)", {{":v", N("5")}}));
  EXPECT_TRUE(Holds("((n = :v) AND (s = :s))", {{":v", N("5")}, {":s", S("hello")}}));
  EXPECT_EQ(ErrorOf("((n = :v))", {{":v", N("5")}}),
            "Invalid ConditionExpression: The expression has redundant parentheses;");
  EXPECT_EQ(ErrorOf("n > ((m))"),
            "Invalid ConditionExpression: The expression has redundant parentheses;");
}

TEST(ExpressionParser, Limits) {
  std::string in = "n IN (";
  AttributeValues values;
  for (int i = 0; i < 100; ++i) {
    in += (i ? ", :v" : ":v") + std::to_string(i);
    values.emplace(":v" + std::to_string(i), N(std::to_string(i)));
  }
  EXPECT_EQ(ErrorOf(in + ")", values),
            "Invalid ConditionExpression: The IN operator is provided with too many operands; "
            "number of operands: 101");
  std::string long_text = "a = :v AND " + std::string(4090, ' ') + "b = :v";
  EXPECT_EQ(ErrorOf(long_text, {{":v", N("1")}}),
            "Invalid ConditionExpression: Expression size has exceeded the maximum allowed size; "
            "expression size: " + std::to_string(long_text.size()));
  EXPECT_EQ(ErrorOf(""), "Invalid ConditionExpression: The expression can not be empty;");
  EXPECT_EQ(ErrorOf("   "), "Invalid ConditionExpression: The expression can not be empty;");
  std::string many = "a = :v";
  for (int i = 0; i < 150; ++i) many += " AND a = :v";
  EXPECT_EQ(ErrorOf(many, {{":v", N("1")}}),
            "Invalid ConditionExpression: The expression contains too many operators; operator "
            "count: 301");
  std::string deep(2000, '(');
  EXPECT_FALSE(ParseCondition(deep + "a = :v" + std::string(2000, ')'), "ConditionExpression").ok());
  std::string path = "a";
  for (int i = 0; i < 32; ++i) path += ".a";
  EXPECT_EQ(ParseProjection(path).status().message(),
            "Invalid ProjectionExpression: The document path has too many nesting levels; "
            "nesting levels: 33");
}

// --- Placeholders -----------------------------------------------------------

TEST(Placeholders, UndefinedAndUnused) {
  EXPECT_EQ(ErrorOf("a = :v"),
            "Invalid ConditionExpression: An expression attribute value used in expression is not "
            "defined; attribute value: :v");
  EXPECT_EQ(ErrorOf("#a = :v", {{":v", N("1")}}),
            "Invalid ConditionExpression: An expression attribute name used in the document path "
            "is not defined; attribute name: #a");
  EXPECT_EQ(ErrorOf("a = :v", {{":v", N("1")}, {":w", N("2")}, {":u", N("3")}}),
            "Value provided in ExpressionAttributeValues unused in expressions: keys: {:u, :w}");
  EXPECT_EQ(ErrorOf("a = :v", {{":v", N("1")}, {":w", N("2")}}, {{"#x", "x"}}),
            "Value provided in ExpressionAttributeNames unused in expressions: keys: {#x}");
}

TEST(Placeholders, ValueDependentChecks) {
  EXPECT_EQ(ErrorOf("n BETWEEN :hi AND :lo", {{":hi", N("5")}, {":lo", N("1")}}),
            "Invalid ConditionExpression: The BETWEEN operator requires upper bound to be greater "
            "than or equal to lower bound; lower bound operand: AttributeValue: {N:5}, upper bound "
            "operand: AttributeValue: {N:1}");
  EXPECT_EQ(ErrorOf("n BETWEEN :a AND :b", {{":a", N("1")}, {":b", S("a")}}),
            "Invalid ConditionExpression: The BETWEEN operator requires same data type for lower "
            "and upper bounds; lower bound operand: AttributeValue: {N:1}, upper bound operand: "
            "AttributeValue: {S:a}");
  EXPECT_EQ(ErrorOf("attribute_type(n, :t)", {{":t", S("XX")}}),
            "Invalid ConditionExpression: Invalid attribute type name found; type: XX, valid "
            "types: {B,NULL,SS,BOOL,L,BS,N,NS,S,M}");
  EXPECT_EQ(ErrorOf("attribute_type(n, :t)", {{":t", N("1")}}),
            "Invalid ConditionExpression: Incorrect operand type for operator or function; "
            "operator or function: attribute_type, operand type: N");
  EXPECT_EQ(ErrorOf("begins_with(s, :p)", {{":p", N("1")}}),
            "Invalid ConditionExpression: Incorrect operand type for operator or function; "
            "operator or function: begins_with, operand type: N");
  EXPECT_EQ(ErrorOf("size(size(s)) > :p", {{":p", N("1")}}),
            "Invalid ConditionExpression: Incorrect operand type for operator or function; "
            "operator or function: size, operand type: N");
  EXPECT_EQ(ErrorOf("#a = a", {}, {{"#a", "a"}}),
            "Invalid ConditionExpression: The first operand must be distinct from the remaining "
            "operands for this operator or function; operator: =, first operand: [a]");
  EXPECT_EQ(ErrorOf("contains(l[1].a, l[1].a)"),
            "Invalid ConditionExpression: The first operand must be distinct from the remaining "
            "operands for this operator or function; operator: contains, first operand: [l, [1], "
            "a]");
  EXPECT_EQ(ErrorOf(":a > :a", {{":a", N("1")}}), "(ok)");
}

// --- Evaluation -------------------------------------------------------------

TEST(ConditionEvaluation, Comparators) {
  EXPECT_TRUE(Holds("n = :v", {{":v", N("5.0")}}));
  EXPECT_TRUE(Holds("n <> :v", {{":v", N("6")}}));
  EXPECT_TRUE(Holds("n < :v", {{":v", N("10")}}));  // numeric, not textual
  EXPECT_TRUE(Holds("n <= :v", {{":v", N("5")}}));
  EXPECT_FALSE(Holds("n > :v", {{":v", N("5")}}));
  EXPECT_TRUE(Holds("n >= :v", {{":v", N("-5")}}));
  EXPECT_TRUE(Holds("s < :v", {{":v", S("hellp")}}));
  EXPECT_TRUE(Holds("s < :v", {{":v", S("\xc3\xa9")}}));  // UTF-8 bytes order: 'h' < 0xC3
  EXPECT_TRUE(Holds("b < :v", {{":v", B("\x80")}}));     // binary compares unsigned
  EXPECT_TRUE(Holds("m = :v", {{":v", M({{"c", N("7")}, {"a", M({{"b", S("deep")}})}})}}));
  EXPECT_TRUE(Holds("tags = :v", {{":v", SS({"blue", "red"})}}));  // sets ignore order
  EXPECT_TRUE(Holds("l[2].x = :v", {{":v", N("3")}}));
  EXPECT_TRUE(Holds("m.a.b = :v", {{":v", S("deep")}}));
}

TEST(ConditionEvaluation, CrossTypeAndMissingAreFalseNotErrors) {
  EXPECT_FALSE(Holds("n = :v", {{":v", S("5")}}));
  EXPECT_TRUE(Holds("n <> :v", {{":v", S("5")}}));
  EXPECT_FALSE(Holds("n < :v", {{":v", S("6")}}));
  EXPECT_FALSE(Holds("tags < :v", {{":v", S("z")}}));  // a set in the item: just false
  EXPECT_EQ(ErrorOf("tags < :v", {{":v", SS({"z"})}}),  // a set constant: never comparable
            "Invalid ConditionExpression: Incorrect operand type for operator or function; "
            "operator or function: <, operand type: SS");
  EXPECT_FALSE(Holds("absent = :v", {{":v", N("1")}}));
  EXPECT_TRUE(Holds("absent <> :v", {{":v", N("1")}}));
  EXPECT_FALSE(Holds("absent < :v", {{":v", N("1")}}));
  EXPECT_FALSE(Holds("s.x = :v", {{":v", N("1")}}));
  EXPECT_FALSE(Holds("l[9] = :v", {{":v", N("1")}}));
  Item none;
  EXPECT_TRUE(Holds("attribute_not_exists(pk)", {}, none));
  auto condition = Bind("attribute_exists(pk)");
  EXPECT_FALSE(EvaluateCondition(*condition, nullptr));
}

TEST(ConditionEvaluation, BetweenAndIn) {
  EXPECT_TRUE(Holds("n BETWEEN :a AND :b", {{":a", N("5")}, {":b", N("6")}}));
  EXPECT_FALSE(Holds("n BETWEEN :a AND :b", {{":a", N("6")}, {":b", N("7")}}));
  EXPECT_FALSE(Holds("n BETWEEN :a AND :b", {{":a", S("a")}, {":b", S("z")}}));
  EXPECT_TRUE(Holds("s IN (:a, :b)", {{":a", N("1")}, {":b", S("hello")}}));
  EXPECT_FALSE(Holds("s IN (:a)", {{":a", S("hell")}}));
}

TEST(ConditionEvaluation, Functions) {
  EXPECT_TRUE(Holds("attribute_exists(m.a.b)"));
  EXPECT_FALSE(Holds("attribute_exists(m.a.c)"));
  EXPECT_TRUE(Holds("attribute_not_exists(l[3])"));
  for (auto [path, type] : std::vector<std::pair<std::string, std::string>>{
           {"s", "S"}, {"n", "N"}, {"b", "B"}, {"t", "BOOL"}, {"nul", "NULL"}, {"m", "M"},
           {"l", "L"}, {"tags", "SS"}, {"nums", "NS"}}) {
    EXPECT_TRUE(Holds("attribute_type(" + path + ", :t)", {{":t", S(type)}})) << path;
    EXPECT_FALSE(Holds("attribute_type(" + path + ", :t)", {{":t", S("BS")}})) << path;
  }
  EXPECT_TRUE(Holds("begins_with(s, :p)", {{":p", S("he")}}));
  EXPECT_FALSE(Holds("begins_with(s, :p)", {{":p", S("lo")}}));
  EXPECT_TRUE(Holds("begins_with(b, :p)", {{":p", B("\x01")}}));
  EXPECT_FALSE(Holds("begins_with(n, :p)", {{":p", S("5")}}));
  EXPECT_TRUE(Holds("contains(s, :p)", {{":p", S("ell")}}));
  EXPECT_TRUE(Holds("contains(tags, :p)", {{":p", S("red")}}));
  EXPECT_FALSE(Holds("contains(tags, :p)", {{":p", S("re")}}));
  EXPECT_TRUE(Holds("contains(nums, :p)", {{":p", N("2.0")}}));
  EXPECT_TRUE(Holds("contains(l, :p)", {{":p", S("two")}}));
  EXPECT_FALSE(Holds("contains(n, :p)", {{":p", N("5")}}));
  EXPECT_TRUE(Holds("size(s) = :v", {{":v", N("5")}}));
  Item text{{"s", S("\xc3\xa9\xf0\x9f\x98\x80")}};  // é and an emoji: UTF-16 units
  EXPECT_TRUE(Holds("size(s) = :v", {{":v", N("3")}}, text));
  EXPECT_TRUE(Holds("size(b) = :v", {{":v", N("2")}}));
  EXPECT_TRUE(Holds("size(tags) = :v", {{":v", N("2")}}));
  EXPECT_TRUE(Holds("size(l) = :v", {{":v", N("3")}}));
  EXPECT_TRUE(Holds("size(m) = :v", {{":v", N("2")}}));
  EXPECT_FALSE(Holds("size(n) = :v", {{":v", N("1")}}));
  EXPECT_FALSE(Holds("size(absent) >= :v", {{":v", N("0")}}));
}

TEST(ConditionEvaluation, PrecedenceIsNotThenAndThenOr) {
  AttributeValues v{{":t", N("5")}, {":f", N("0")}};
  // OR binds loosest: true OR (false AND false).
  EXPECT_TRUE(Holds("n = :t OR n = :f AND n = :f", v));
  EXPECT_FALSE(Holds("(n = :t OR n = :f) AND n = :f", v));
  // NOT binds tighter than AND: (NOT false) AND true.
  EXPECT_TRUE(Holds("NOT n = :f AND n = :t", v));
  EXPECT_FALSE(Holds("NOT (n = :f OR n = :t)", v));
  EXPECT_TRUE(Holds("not not n = :t", {{":t", N("5")}}));  // keywords ignore case
}

// --- Projection -------------------------------------------------------------

TEST(Projection, SelectsNestedPartsAndPacksListElements) {
  auto projection = ParseProjection("m.a.b, l[2].x, l[0], n, absent, s.x");
  ASSERT_OK(projection);
  std::vector<const Path*> paths;
  for (const auto& p : projection->paths) paths.push_back(&p);
  Item expected{{"m", M({{"a", M({{"b", S("deep")}})}})},
                {"l", L({N("1"), M({{"x", N("3")}})})},
                {"n", N("5")}};
  EXPECT_EQ(Project(Sample(), paths), expected);
}

TEST(Projection, OverlapsAndConflictsAreRejected) {
  Placeholders none({}, {});
  auto overlap = ParseProjection("a, a.b");
  EXPECT_EQ(none.Resolve(*overlap).message(),
            "Invalid ProjectionExpression: Two document paths overlap with each other; must remove "
            "or rewrite one of these paths; path one: [a], path two: [a, b]");
  auto conflict = ParseProjection("a.c, a[1]");
  EXPECT_EQ(none.Resolve(*conflict).message(),
            "Invalid ProjectionExpression: Two document paths conflict with each other; must "
            "remove or rewrite one of these paths; path one: [a, c], path two: [a, [1]]");
  auto same = ParseProjection("a, a");
  EXPECT_FALSE(none.Resolve(*same).ok());
}

// --- Updates ----------------------------------------------------------------

// Applies `text` to `item`; the error text, or "" on success.
std::string Apply(std::string_view text, Item* item, AttributeValues values = {}) {
  auto update = ParseUpdate(text);
  if (!update.ok()) return update.status().message();
  Placeholders placeholders({}, std::move(values));
  Status status = placeholders.Resolve(*update);
  if (status.ok()) status = placeholders.CheckAllUsed();
  if (status.ok()) status = CheckUpdate(*update, {"pk"});
  if (status.ok()) status = ApplyUpdate(*update, item);
  return status.ok() ? "" : status.message();
}

TEST(Update, SetEvaluatesEveryValueOnTheOldItem) {
  Item item{{"pk", S("k")}, {"a", N("1")}, {"b", N("2")}};
  ASSERT_EQ(Apply("SET a = b, b = a", &item), "");
  EXPECT_EQ(item, (Item{{"pk", S("k")}, {"a", N("2")}, {"b", N("1")}}));
}

TEST(Update, ArithmeticIsExact) {
  Item item{{"pk", S("k")}, {"a", N("0.1")}};
  ASSERT_EQ(Apply("SET a = a + :v, c = :big - :one", &item,
                  {{":v", N("0.2")}, {":big", N("99999999999999999999999999999999999999")},
                   {":one", N("1")}}),
            "");
  EXPECT_EQ(item.at("a"), N("0.3"));
  EXPECT_EQ(item.at("c"), N("99999999999999999999999999999999999998"));
  EXPECT_EQ(Apply("SET a = :max + :max", &item,
                  {{":max", N("9.9999999999999999999999999999999999999E+125")}}),
            "Number overflow. Attempting to store a number with magnitude larger than supported "
            "range");
  EXPECT_EQ(Apply("SET a = s + :one", &item, {{":one", N("1")}}),
            "The provided expression refers to an attribute that does not exist in the item");
  item["s"] = S("x");
  EXPECT_EQ(Apply("SET a = s + :one", &item, {{":one", N("1")}}),
            "An operand in the update expression has an incorrect data type");
  EXPECT_EQ(Apply("SET a = a + :s", &item, {{":s", S("1")}}),
            "Invalid UpdateExpression: Incorrect operand type for operator or function; operator "
            "or function: +, operand type: S");
}

TEST(Update, IfNotExistsAndListAppend) {
  Item item{{"pk", S("k")}, {"l", L({N("1")})}};
  ASSERT_EQ(Apply("SET c = if_not_exists(c, :zero) + :one, l = list_append(l, :more), "
                  "e = list_append(if_not_exists(e, :empty), :more)",
                  &item,
                  {{":zero", N("0")}, {":one", N("1")}, {":more", L({N("2")})}, {":empty", L({})}}),
            "");
  EXPECT_EQ(item.at("c"), N("1"));
  EXPECT_EQ(item.at("l"), L({N("1"), N("2")}));
  EXPECT_EQ(item.at("e"), L({N("2")}));
  EXPECT_EQ(Apply("SET l = list_append(:s, l)", &item, {{":s", S("x")}}),
            "Invalid UpdateExpression: Incorrect operand type for operator or function; operator "
            "or function: list_append, operand type: S");
}

TEST(Update, ListIndexes) {
  Item item{{"pk", S("k")}, {"l", L({N("0"), N("1"), N("2"), N("3")})}};
  ASSERT_EQ(Apply("REMOVE l[1], l[3]", &item), "");
  EXPECT_EQ(item.at("l"), L({N("0"), N("2")}));
  ASSERT_EQ(Apply("SET l[10] = :v, l[0] = :w", &item, {{":v", N("9")}, {":w", N("8")}}), "");
  EXPECT_EQ(item.at("l"), L({N("8"), N("2"), N("9")}));
  ASSERT_EQ(Apply("REMOVE l[7]", &item), "");  // beyond the end: nothing
  EXPECT_EQ(item.at("l"), L({N("8"), N("2"), N("9")}));
}

TEST(Update, NestedPathsNeedTheirParents) {
  Item item{{"pk", S("k")}, {"m", M({})}, {"s", S("x")}};
  ASSERT_EQ(Apply("SET m.a = :v", &item, {{":v", N("1")}}), "");
  EXPECT_EQ(item.at("m"), M({{"a", N("1")}}));
  const std::string invalid =
      "The document path provided in the update expression is invalid for update";
  EXPECT_EQ(Apply("SET absent.a = :v", &item, {{":v", N("1")}}), invalid);
  EXPECT_EQ(Apply("SET s.a = :v", &item, {{":v", N("1")}}), invalid);
  EXPECT_EQ(Apply("SET m[0] = :v", &item, {{":v", N("1")}}), invalid);
  ASSERT_EQ(Apply("REMOVE m.a, m.nothing", &item), "");
  EXPECT_EQ(item.at("m"), M({}));
}

TEST(Update, AddAndDelete) {
  Item item{{"pk", S("k")}, {"n", N("1")}, {"tags", SS({"a", "b"})}};
  ASSERT_EQ(Apply("ADD n :two, c :two, tags :more, fresh :more", &item,
                  {{":two", N("2")}, {":more", SS({"b", "c"})}}),
            "");
  EXPECT_EQ(item.at("n"), N("3"));
  EXPECT_EQ(item.at("c"), N("2"));  // a absent number starts from zero
  EXPECT_EQ(item.at("tags"), SS({"a", "b", "c"}));
  EXPECT_EQ(item.at("fresh"), SS({"b", "c"}));
  ASSERT_EQ(Apply("DELETE tags :ab, fresh :bc, nothing :ab", &item,
                  {{":ab", SS({"a", "b"})}, {":bc", SS({"b", "c"})}}),
            "");
  EXPECT_EQ(item.at("tags"), SS({"c"}));
  EXPECT_FALSE(item.contains("fresh"));  // an emptied set disappears
  EXPECT_EQ(Apply("ADD tags :n", &item, {{":n", N("1")}}),
            "An operand in the update expression has an incorrect data type");
  EXPECT_EQ(Apply("DELETE tags :n", &item, {{":n", NS({"1"})}}),
            "An operand in the update expression has an incorrect data type");
  EXPECT_EQ(Apply("ADD n :s", &item, {{":s", S("x")}}),
            "Invalid UpdateExpression: Incorrect operand type for operator or function; operator: "
            "ADD, operand type: STRING");
  EXPECT_EQ(Apply("DELETE n :s", &item, {{":s", N("1")}}),
            "Invalid UpdateExpression: Incorrect operand type for operator or function; operator: "
            "DELETE, operand type: NUMBER");
}

TEST(Update, PathChecks) {
  Item item{{"pk", S("k")}};
  EXPECT_EQ(Apply("SET a = :v REMOVE a.b", &item, {{":v", N("1")}}),
            "Invalid UpdateExpression: Two document paths overlap with each other; must remove or "
            "rewrite one of these paths; path one: [a], path two: [a, b]");
  EXPECT_EQ(Apply("REMOVE a.c SET a[1] = :v", &item, {{":v", N("1")}}),
            "Invalid UpdateExpression: Two document paths conflict with each other; must remove "
            "or rewrite one of these paths; path one: [a, c], path two: [a, [1]]");
  EXPECT_EQ(Apply("SET pk = :v", &item, {{":v", S("x")}}),
            "One or more parameter values were invalid: Cannot update attribute pk. This "
            "attribute is part of the key");
}

TEST(Update, UpdatedPathsProjectOntoOldAndNew) {
  Item old_item{{"pk", S("k")}, {"m", M({{"a", N("1")}, {"b", N("2")}})}, {"gone", N("1")}};
  Item new_item = old_item;
  auto update = ParseUpdate("SET m.a = :v REMOVE gone");
  Placeholders placeholders({}, {{":v", N("5")}});
  ASSERT_OK(placeholders.Resolve(*update));
  ASSERT_OK(ApplyUpdate(*update, &new_item));
  auto paths = UpdatedPaths(*update);
  EXPECT_EQ(Project(new_item, paths), (Item{{"m", M({{"a", N("5")}})}}));
  EXPECT_EQ(Project(old_item, paths), (Item{{"m", M({{"a", N("1")}})}, {"gone", N("1")}}));
}

}  // namespace
}  // namespace ddb::engine::expr
