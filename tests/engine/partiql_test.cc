// PartiQL for DynamoDB: the statement parser (forms, literals, parameters,
// errors) and the planner (which SELECTs read a key range, which writes name
// a whole key). Conditions are checked by evaluating them, so the tests pin
// behaviour rather than tree shapes.
#include <gtest/gtest.h>

#include "engine/expression/document_path.h"
#include "engine/expression/evaluate.h"
#include "engine/expression/update.h"
#include "engine/partiql/parser.h"
#include "engine/partiql/planner.h"
#include "tests/engine/test_util.h"

namespace ddb::engine::partiql {
namespace {

using test::N;
using test::S;

Statement Parse(std::string_view text, std::vector<AttributeValue> parameters = {}) {
  auto parsed = ParseStatement(text, parameters);
  EXPECT_TRUE(parsed.ok()) << text << ": " << parsed.status().message();
  return parsed.ok() ? std::move(parsed).value() : Statement{};
}

std::string ErrorOf(std::string_view text, std::vector<AttributeValue> parameters = {}) {
  auto parsed = ParseStatement(text, parameters);
  EXPECT_FALSE(parsed.ok()) << text;
  return parsed.ok() ? "" : parsed.status().message();
}

SelectStatement Select(std::string_view text, std::vector<AttributeValue> parameters = {}) {
  Statement statement = Parse(text, std::move(parameters));
  EXPECT_TRUE(std::holds_alternative<SelectStatement>(statement)) << text;
  return std::holds_alternative<SelectStatement>(statement) ? std::get<SelectStatement>(statement)
                                                            : SelectStatement{};
}

// Whether the WHERE of `text` holds for `item`.
bool Matches(std::string_view text, const Item& item, std::vector<AttributeValue> params = {}) {
  SelectStatement select = Select(text, std::move(params));
  EXPECT_TRUE(select.where.has_value()) << text;
  return select.where && expr::EvaluateCondition(*select.where, &item);
}

Item Sample() {
  return Item{{"pk", S("user#1")},
              {"sk", N("5")},
              {"name", S("Ada")},
              {"tags", AttributeValue(StringSet{{"a", "b"}})},
              {"m", AttributeValue(Map{{"list", AttributeValue(List{N("1"), S("two")})}})}};
}

TEST(PartiqlParserTest, SelectNamesTableIndexAndProjection) {
  SelectStatement all = Select("SELECT * FROM \"Orders\"");
  EXPECT_EQ(all.source.table, "Orders");
  EXPECT_EQ(all.source.index, "");
  EXPECT_FALSE(all.projection.has_value());
  EXPECT_FALSE(all.where.has_value());

  SelectStatement some = Select("select a, \"b-c\".d[2] from \"my-table\".\"GSI1\";");
  EXPECT_EQ(some.source.table, "my-table");
  EXPECT_EQ(some.source.index, "GSI1");
  ASSERT_TRUE(some.projection.has_value());
  ASSERT_EQ(some.projection->paths.size(), 2u);
  EXPECT_EQ(expr::PathToString(some.projection->paths[1]), "[b-c, d, [2]]");
}

TEST(PartiqlParserTest, SelectReadsOrderBy) {
  SelectStatement select = Select("SELECT * FROM t WHERE pk = 'a' ORDER BY pk, \"sk\" DESC");
  ASSERT_EQ(select.order_by.size(), 2u);
  EXPECT_EQ(select.order_by[0].attribute, "pk");
  EXPECT_FALSE(select.order_by[0].descending);
  EXPECT_EQ(select.order_by[1].attribute, "sk");
  EXPECT_TRUE(select.order_by[1].descending);
}

TEST(PartiqlParserTest, WhereSupportsComparisonsAndLogic) {
  Item item = Sample();
  EXPECT_TRUE(Matches("SELECT * FROM t WHERE pk = 'user#1' AND sk >= 5", item));
  EXPECT_FALSE(Matches("SELECT * FROM t WHERE pk <> 'user#1' OR sk < 5", item));
  EXPECT_TRUE(Matches("SELECT * FROM t WHERE sk != 4 AND NOT name = 'Bob'", item));
  EXPECT_TRUE(Matches("SELECT * FROM t WHERE sk BETWEEN 1 AND 5", item));
  EXPECT_TRUE(Matches("SELECT * FROM t WHERE sk NOT BETWEEN 6 AND 9", item));
  EXPECT_TRUE(Matches("SELECT * FROM t WHERE name IN ('Bob', 'Ada')", item));
  EXPECT_TRUE(Matches("SELECT * FROM t WHERE name IN ['Ada']", item));
  EXPECT_TRUE(Matches("SELECT * FROM t WHERE name NOT IN ['Bob']", item));
  EXPECT_TRUE(Matches("SELECT * FROM t WHERE (sk = 1 OR sk = 5) AND name = 'Ada'", item));
}

TEST(PartiqlParserTest, WhereSupportsFunctionsPathsAndMissing) {
  Item item = Sample();
  EXPECT_TRUE(Matches("SELECT * FROM t WHERE begins_with(pk, 'user#')", item));
  EXPECT_TRUE(Matches("SELECT * FROM t WHERE BEGINS_WITH(\"pk\", 'user')", item));
  EXPECT_TRUE(Matches("SELECT * FROM t WHERE contains(tags, 'a')", item));
  EXPECT_TRUE(Matches("SELECT * FROM t WHERE contains(m.list, 'two')", item));
  EXPECT_TRUE(Matches("SELECT * FROM t WHERE attribute_type(tags, 'SS')", item));
  EXPECT_TRUE(Matches("SELECT * FROM t WHERE size(m.list) = 2 AND m.list[1] = 'two'", item));
  EXPECT_TRUE(Matches("SELECT * FROM t WHERE m['list'][0] = 1", item));
  EXPECT_TRUE(Matches("SELECT * FROM t WHERE nothing IS MISSING", item));
  EXPECT_FALSE(Matches("SELECT * FROM t WHERE name IS MISSING", item));
  EXPECT_TRUE(Matches("SELECT * FROM t WHERE name IS NOT MISSING", item));
  EXPECT_FALSE(Matches("SELECT * FROM t WHERE name IS NULL", item));
}

TEST(PartiqlParserTest, ParametersBindInOrder) {
  Item item = Sample();
  EXPECT_TRUE(Matches("SELECT * FROM t WHERE pk = ? AND sk = ?", item, {S("user#1"), N("5")}));
  EXPECT_FALSE(Matches("SELECT * FROM t WHERE pk = ? AND sk = ?", item, {N("5"), S("user#1")}));
  EXPECT_EQ(ErrorOf("SELECT * FROM t WHERE pk = ?"),
            "Number of parameters in request and statement don't match.");
  // Values beyond those the statement uses are ignored.
  EXPECT_OK(ParseStatement("SELECT * FROM t", {S("x")}));
}

TEST(PartiqlParserTest, InsertBuildsEveryLiteralType) {
  Statement statement = Parse(
      "INSERT INTO \"t\" VALUE {'pk': 'k', 'n': -1.5e2, 'yes': true, 'no': FALSE, 'nul': null, "
      "'l': [1, 'x', [2]], 'm': {'inner': 'v'}, 'ss': <<'a', 'b'>>, 'ns': <<1, 2>>, 'p': ?}",
      {AttributeValue(Binary{"\x01"})});
  ASSERT_TRUE(std::holds_alternative<InsertStatement>(statement));
  const InsertStatement& insert = std::get<InsertStatement>(statement);
  EXPECT_EQ(insert.table, "t");
  EXPECT_EQ(DebugString(insert.item),
            DebugString(
                Item{{"pk", S("k")},
                     {"n", N("-150")},
                     {"yes", AttributeValue(true)},
                     {"no", AttributeValue(false)},
                     {"nul", AttributeValue(Null{})},
                     {"l", AttributeValue(List{N("1"), S("x"), AttributeValue(List{N("2")})})},
                     {"m", AttributeValue(Map{{"inner", S("v")}})},
                     {"ss", AttributeValue(StringSet{{"a", "b"}})},
                     {"ns", AttributeValue(NumberSet{{*Number::Parse("1"), *Number::Parse("2")}})},
                     {"p", AttributeValue(Binary{"\x01"})}}));
}

TEST(PartiqlParserTest, InsertRejectsOtherForms) {
  EXPECT_EQ(ErrorOf("INSERT INTO t VALUE 'x'"),
            "Unsupported format in item expression. Please use struct format {...} to express "
            "item values for insert statement.");
  EXPECT_EQ(ErrorOf("INSERT INTO t VALUES ('a')"),
            "Unsupported operation: Inserting multiple items in a single statement is not "
            "supported, use \"INSERT INTO tableName VALUE item\" instead");
  EXPECT_EQ(ErrorOf("INSERT INTO t VALUE {'a': <<>>}"), "Empty bags are not supported");
  EXPECT_EQ(ErrorOf("INSERT INTO t VALUE {'a': <<1, 'x'>>}"),
            "Unsupported data type in Bag. DynamoDB only supports either numbers or strings in "
            "bags");
  // INSERT's grammar has no index: refused at the table's name.
  EXPECT_EQ(ErrorOf("INSERT INTO t.i VALUE {'a': 1}"),
            "FROM clause may only contain a single table name in data manipulation statements "
            "at 1:13:1");
  EXPECT_EQ(ErrorOf("DELETE FROM t.i WHERE a = 1"), "This operation is not supported on an index");
}

TEST(PartiqlParserTest, UpdateCollectsSetRemoveAndReturning) {
  Statement statement = Parse(
      "UPDATE t SET a = a + 1, b.c = 'x' REMOVE d SET e = list_append(e, [1]), "
      "f = set_add(f, <<'z'>>) WHERE pk = 'k' RETURNING MODIFIED NEW *");
  ASSERT_TRUE(std::holds_alternative<UpdateStatement>(statement));
  const UpdateStatement& update = std::get<UpdateStatement>(statement);
  Item item{{"pk", S("k")},
            {"a", N("1")},
            {"d", S("gone")},
            {"e", AttributeValue(List{})},
            {"b", AttributeValue(Map{})},
            {"f", AttributeValue(StringSet{{"y"}})}};
  ASSERT_OK(expr::ApplyUpdate(update.update, &item));
  EXPECT_EQ(DebugString(item), DebugString(Item{{"pk", S("k")},
                                                {"a", N("2")},
                                                {"b", AttributeValue(Map{{"c", S("x")}})},
                                                {"e", AttributeValue(List{N("1")})},
                                                {"f", AttributeValue(StringSet{{"y", "z"}})}}));
  EXPECT_EQ(update.returning, Returning::kModifiedNew);
  EXPECT_TRUE(expr::EvaluateCondition(update.where, &item));
}

TEST(PartiqlParserTest, ExistsWrapsASelect) {
  Statement statement = Parse("EXISTS(SELECT * FROM \"t\" WHERE pk = 'k' AND x IS MISSING)");
  ASSERT_TRUE(std::holds_alternative<ExistsStatement>(statement));
  EXPECT_EQ(TableOf(statement), "t");
  EXPECT_FALSE(IsRead(statement));
  EXPECT_TRUE(ParseStatement("EXISTS SELECT * FROM t", {})
                  .status()
                  .message()
                  .starts_with("Statement wasn't well formed"));
}

TEST(PartiqlParserTest, WritesRejectUnsupportedClauses) {
  EXPECT_EQ(ErrorOf("UPDATE t SET a = 1"),
            "Where clause does not contain a mandatory equality on all key attributes");
  EXPECT_EQ(ErrorOf("DELETE FROM t"),
            "Where clause does not contain a mandatory equality on all key attributes");
  EXPECT_EQ(ErrorOf("UPDATE t ADD a 1 WHERE pk = 'k'"),
            "Only SET and REMOVE are supported in update expressions at this time");
  EXPECT_EQ(ErrorOf("DELETE FROM t WHERE pk = 'k' RETURNING ALL NEW *"),
            "Invalid returning clause: RETURNING ALL NEW *. Only RETURNING ALL OLD * is allowed "
            "in DELETE statements.");
  EXPECT_EQ(ErrorOf("UPDATE t SET a = 1 WHERE pk = 'k' RETURNING ALL NEW a"),
            "Expected '*' after ( MODIFIED | ALL ) ( NEW | OLD ) in RETURNING clause");
  EXPECT_EQ(ErrorOf("UPDATE t SET a = set_add(b, <<1>>) WHERE pk = 'k'"),
            "The first argument to SET_ADD must equal the assignment value at 1:18:7");
  EXPECT_EQ(ErrorOf("UPDATE t SET a = set_delete(a, 'x') WHERE pk = 'k'"),
            "The second argument to SET_DELETE must be a value with type SET at 1:29:1");
  EXPECT_EQ(ErrorOf("UPDATE t SET a = set_add(a) WHERE pk = 'k'"),
            "SET_ADD must have exactly two arguments at 1:18:7");
}

// The details DynamoDB's parser gives, as captured from the service.
TEST(PartiqlParserTest, SyntaxErrorsAreWordedAsDynamoDBWordsThem) {
  const std::string prefix = "Statement wasn't well formed, can't be processed: ";
  EXPECT_EQ(ErrorOf("CREATE TABLE t"), prefix + "Expected data manipulation");
  EXPECT_EQ(ErrorOf("SELECT * FROM t WHERE"), prefix + "Unexpected term");
  EXPECT_EQ(ErrorOf("SELECT * FROM t WHERE;"), prefix + "Unexpected term");
  EXPECT_EQ(ErrorOf("SELECT * FROM t WHERE NOT"), prefix + "Unexpected term");
  EXPECT_EQ(ErrorOf("SELECT * FROM t WHERE ("), prefix + "Unexpected term");
  EXPECT_EQ(ErrorOf("SELECT * FROM"), prefix + "Unexpected term");
  EXPECT_EQ(ErrorOf("SELECT * FROM t WHERE pk = 'a' AND"),
            prefix + "Missing right-hand side expression of infix operator");
  EXPECT_EQ(ErrorOf("SELECT * FROM t WHERE pk = 'a' OR"),
            prefix + "Missing right-hand side expression of infix operator");
  EXPECT_EQ(ErrorOf("SELECT * FROM t WHERE ORDER BY pk"), prefix + "Unexpected keyword");
  EXPECT_EQ(ErrorOf("SELECT * FROM t WHERE IS NULL"), prefix + "Unexpected operator");
  EXPECT_EQ(ErrorOf("SELECT * FROM t WHERE pk = LIKE"), prefix + "Unexpected operator");
  EXPECT_EQ(ErrorOf("SELECT * FROM t WHERE a = = 1"), prefix + "Unexpected operator");
  EXPECT_EQ(ErrorOf("DELETE FROM"), prefix + "Expected identifier for simple path");
  EXPECT_EQ(ErrorOf("DELETE FROM WHERE pk = 'a'"), prefix + "Expected identifier for simple path");
  EXPECT_EQ(ErrorOf("SELECT * FROM t WHERE pk = 1 foo"),
            prefix + "Unexpected token after expression");
  EXPECT_EQ(ErrorOf("SELECT * FROM t WHERE pk = 1 e5"),
            prefix + "Unexpected token after expression");
  EXPECT_EQ(ErrorOf("SELECT * FROM t WHERE pk = 1)"), prefix + "Unexpected token after expression");
  EXPECT_EQ(ErrorOf("DELETE FROM t WHERE pk = 1 ORDER BY pk"),
            prefix + "Unexpected token after expression");
  EXPECT_EQ(ErrorOf("SELECT * FROM t ORDER BY pk WHERE pk = 1"),
            prefix + "Unexpected token after expression");
  EXPECT_EQ(ErrorOf("SELECT * FROM t WHERE a = 'unterminated"), prefix);
  EXPECT_EQ(ErrorOf("SELECT * FROM t WHERE pk = 1 # note"), prefix);
  EXPECT_EQ(ErrorOf("SELECT * FROM t WHERE pk = 1 /* note"), prefix);
  EXPECT_EQ(ErrorOf("SELECT * FROM t WHERE pk = 1e2147483648"), prefix);
  EXPECT_EQ(ErrorOf("SELECT * FROM t WHERE pk = 1.5e-2147483647"), prefix);
  EXPECT_EQ(ErrorOf("SELECT * FROM t WHERE a.inner = 1"), prefix + "Invalid path dot component");
  EXPECT_EQ(ErrorOf("SELECT * FROM t WHERE x IS FOO"), prefix + "Expected type name");
  EXPECT_EQ(ErrorOf("SELECT * FROM t WHERE a = MISSING"),
            "MISSING must be compared using IS operator");
  EXPECT_EQ(ErrorOf("SELECT *, a FROM t"),
            "Other attributes should not be present in the projection when '*' is used.");
  EXPECT_EQ(ErrorOf("SELECT * FROM t WHERE pk = 'a' AND EXISTS(x)"),
            "Unrecognized function: exists at 1:36:6");
  EXPECT_EQ(ErrorOf("SELECT attribute_exists(x) FROM t"), "Unexpected path component at 1:8:16");
  // Other unexpected tokens are named with their place (the wording is ours).
  EXPECT_EQ(ErrorOf("SELECT *\nFROM t\nWHERE a IN 1"), prefix + "Unexpected token \"1\" at 3:12:1");
}

TEST(PartiqlParserTest, OrderingNeedsAnOrderedConstant) {
  EXPECT_EQ(ErrorOf("SELECT * FROM t WHERE a < ?", {AttributeValue(true)}),
            "Incorrect operand type for operator or function; operator or function: <, operand "
            "type: BOOL");
  EXPECT_EQ(ErrorOf("SELECT * FROM t WHERE a BETWEEN [1] AND 2"),
            "Incorrect operand type for operator or function; operator or function: BETWEEN, "
            "operand type: L");
  Item item{{"a", S("x")}};
  EXPECT_FALSE(Matches("SELECT * FROM t WHERE a < 5", item));  // S against N: no match
  EXPECT_TRUE(Matches("SELECT * FROM t WHERE a = true OR a <> true", item));
}

TEST(PartiqlParserTest, CommentsAreSkipped) {
  Item item = Sample();
  EXPECT_TRUE(Matches("-- a note\nSELECT * FROM t /* x */ WHERE -- y\n pk = 'user#1'", item));
}

TEST(PartiqlParserTest, AliasesAreRefused) {
  EXPECT_EQ(ErrorOf("SELECT * FROM \"t\" t WHERE pk = 'x'"), "Aliasing is not supported");
  EXPECT_EQ(ErrorOf("SELECT * FROM \"t\" AS t WHERE pk = 'x'"), "Aliasing is not supported");
  EXPECT_EQ(ErrorOf("UPDATE \"t\" t SET a = 3 WHERE pk = 'x'"), "Aliasing is not supported");
  EXPECT_EQ(ErrorOf("DELETE FROM \"t\" t WHERE pk = 'x'"), "Aliasing is not supported");
  EXPECT_EQ(ErrorOf("INSERT INTO \"t\" t VALUE {'pk': 'x'}"),
            "Statement wasn't well formed, can't be processed: Unexpected token after expression");
}

TEST(PartiqlParserTest, NumberLiteralsFollowDynamoDBsRules) {
  const std::string overflow =
      "Number overflow. Attempting to store a number with magnitude larger than supported range";
  EXPECT_EQ(ErrorOf("SELECT * FROM t WHERE pk = 1e126"), overflow + " under root");
  EXPECT_EQ(ErrorOf("INSERT INTO t VALUE {'pk': 1e126}"), overflow + " under root");
  EXPECT_EQ(ErrorOf("INSERT INTO t VALUE {'pk': 1, 'm': {'x': 1e126}}"),
            overflow + " under root.x");
  EXPECT_EQ(ErrorOf("INSERT INTO t VALUE {'pk': 1, 'l': [1, 1e126]}"), overflow + " under root[1]");
  EXPECT_EQ(ErrorOf("UPDATE t SET a = 123456789012345678901234567890123456789 WHERE pk = 1"),
            "Attempting to store more than 38 significant digits in a Number under root");
  Item item{{"n", N("7310000")}, {"f", N("-7.3")}};
  EXPECT_TRUE(Matches("SELECT * FROM t WHERE n = 7.31e6 AND n = 731e4 AND n = 7.31E+6", item));
  EXPECT_TRUE(Matches("SELECT * FROM t WHERE f = -.73e1", item));
}

TEST(PartiqlParserTest, SetLiteralsMayNotRepeatAMember) {
  EXPECT_EQ(ErrorOf("UPDATE t SET ss = set_add(ss, <<'x', 'x'>>) WHERE pk = 'k'"),
            "One or more parameter values were invalid: Input collection [x, x] contains "
            "duplicates.");
  EXPECT_EQ(ErrorOf("INSERT INTO t VALUE {'pk': 'k', 'ss': set_add(<<'a'>>, <<'b'>>)}"),
            "Unsupported data type: set_add under key root at 1:39:7");
}

TEST(PartiqlParserTest, ConditionFunctionsAndTypeTests) {
  Item item = Sample();
  item["flag"] = AttributeValue(true);
  item["nul"] = AttributeValue(Null{});
  EXPECT_TRUE(
      Matches("SELECT * FROM t WHERE ATTRIBUTE_EXISTS(name) AND attribute_not_exists(x)", item));
  EXPECT_TRUE(Matches("SELECT * FROM t WHERE NOT attribute_exists(m.nope)", item));
  EXPECT_TRUE(
      Matches("SELECT * FROM t WHERE flag IS BOOL AND name IS STRING AND sk IS INT", item));
  EXPECT_TRUE(Matches("SELECT * FROM t WHERE sk IS FLOAT AND m IS STRUCT", item));
  // PartiQL type names DynamoDB refuses to test for (2026-08).
  for (const char* type : {"INT4", "INT8", "DOUBLE PRECISION", "CHARACTER VARYING"}) {
    EXPECT_EQ(ErrorOf(std::string("SELECT * FROM t WHERE sk IS ") + type),
              "Unsupported operation: IsType")
        << type;
  }
  EXPECT_TRUE(
      Matches("SELECT * FROM t WHERE tags IS BAG AND m.list IS LIST AND nul IS NULL", item));
  EXPECT_TRUE(Matches("SELECT * FROM t WHERE name IS NOT NULL AND name IS NOT BOOL", item));
  EXPECT_EQ(ErrorOf("SELECT * FROM t WHERE attribute_exists('ss')"),
            "Operator or function requires a document path; operator or function: "
            "attribute_exists");
  EXPECT_EQ(ErrorOf("SELECT * FROM t WHERE attribute_exists()"),
            "Incorrect number of operands for operator or function; operator or function: "
            "attribute_exists, number of operands: 0");
  EXPECT_EQ(ErrorOf("SELECT * FROM t WHERE attribute_exists(a, b)"),
            "Incorrect number of operands for operator or function; operator or function: "
            "attribute_exists, number of operands: 2");
}

TEST(PartiqlParserTest, FromFirstUpdate) {
  Statement statement =
      Parse("FROM \"t\" WHERE pk = ? AND a = 1 SET c = ? REMOVE b", {S("k"), N("7")});
  ASSERT_TRUE(std::holds_alternative<UpdateStatement>(statement));
  const UpdateStatement& update = std::get<UpdateStatement>(statement);
  EXPECT_EQ(update.table, "t");
  EXPECT_EQ(update.update.actions.size(), 2u);
  EXPECT_EQ(ErrorOf("FROM t SET c = 1"),
            "Where clause does not contain a mandatory equality on all key attributes");
  EXPECT_EQ(ErrorOf("FROM t SET c = 1 WHERE pk = 'a'"),
            "Statement wasn't well formed, can't be processed: Unexpected token after expression");
}

TEST(PartiqlParserTest, DeepNestingIsRefusedNotOverflowed) {
  std::string deep =
      "SELECT * FROM t WHERE " + std::string(200, '(') + "a = 1" + std::string(200, ')');
  EXPECT_FALSE(ParseStatement(deep, {}).ok());
  std::string literal =
      "INSERT INTO t VALUE {'a': " + std::string(100, '[') + "1" + std::string(100, ']') + "}";
  EXPECT_FALSE(ParseStatement(literal, {}).ok());
  // size() of size() nests as well: it recursed once per level, unbounded
  // (found while writing the PartiQL fuzz target).
  std::string sizes = "SELECT * FROM t WHERE ";
  for (int i = 0; i < 2000; ++i) sizes += "size(";
  sizes += "a" + std::string(2000, ')') + " > 1";
  EXPECT_EQ(ErrorOf(sizes),
            "Statement wasn't well formed, can't be processed: Expression nesting exceeds the "
            "supported depth");
  EXPECT_OK(ParseStatement("SELECT * FROM t WHERE size(size(a)) > 1", {}));
}

// Mutated statements (characters dropped, doubled or replaced by PartiQL's
// punctuation) must parse or fail with a message, never crash or hang.
TEST(PartiqlParserTest, MutatedStatementsFailCleanly) {
  const std::vector<std::string> seeds = {
      "SELECT a, b.c[1] FROM \"t\".\"i\" WHERE pk = ? AND (sk BETWEEN 1 AND 2 OR x IN [1, ?])",
      "INSERT INTO t VALUE {'a': [1, {'b': <<'x', 'y'>>}], 'c': -1.5e3, 'd': ?}",
      "UPDATE t SET a = list_append(a, [?]), b = set_add(b, <<1>>) REMOVE c[2] WHERE pk = 'k' "
      "RETURNING MODIFIED OLD *",
      "DELETE FROM t WHERE pk = ? AND NOT begins_with(a, 'x') AND size(b) > 1 RETURNING ALL OLD *",
      "EXISTS(SELECT * FROM t WHERE pk = 'a' AND x IS NOT MISSING) ORDER BY pk DESC"};
  const std::string alphabet = "()[]{}<>,.:;*?='\"-+ aA1\n";
  uint64_t state = 12345;
  auto next = [&state](uint64_t bound) {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    return (state >> 33) % bound;
  };
  size_t parsed = 0;
  for (int round = 0; round < 20000; ++round) {
    std::string text = seeds[next(seeds.size())];
    for (int edits = 1 + static_cast<int>(next(4)); edits > 0; --edits) {
      size_t at = next(text.size() + 1);
      switch (next(3)) {
        case 0:
          if (at < text.size()) text.erase(at, 1 + next(3));
          break;
        case 1:
          text.insert(at, 1, alphabet[next(alphabet.size())]);
          break;
        default:
          text.insert(at, text.substr(at, next(8)));
          break;
      }
    }
    std::vector<AttributeValue> parameters(next(4), S("p"));
    auto result = ParseStatement(text, parameters);
    if (result.ok()) {
      ++parsed;
    } else {
      EXPECT_FALSE(result.status().message().empty()) << text;
    }
  }
  EXPECT_GT(parsed, 0u);
}

KeySchema TableKey() { return KeySchema{{{"pk", ScalarType::kS}}, {{"sk", ScalarType::kN}}}; }

// The single key range `text` reads, or nullopt for a scan.
std::optional<KeyRange> Plan(std::string_view text, const KeySchema& key = TableKey()) {
  SelectStatement select = Select(text);
  EXPECT_TRUE(select.where.has_value());
  if (!select.where) return std::nullopt;
  std::vector<KeyRange> ranges = PlanKeyRanges(*select.where, key);
  EXPECT_LE(ranges.size(), 1u) << text;
  if (ranges.empty()) return std::nullopt;
  return std::move(ranges.front());
}

TEST(PartiqlPlannerTest, PartitionEqualityMakesAQuery) {
  auto range = Plan("SELECT * FROM t WHERE pk = 'a' AND other = 1");
  ASSERT_TRUE(range.has_value());
  ASSERT_EQ(range->partition.size(), 1u);
  EXPECT_EQ(range->partition[0], S("a"));
  EXPECT_EQ(range->sort.op, SortKeyCondition::Op::kNone);

  range = Plan("SELECT * FROM t WHERE 'a' = pk AND 3 < sk");
  ASSERT_TRUE(range.has_value());
  EXPECT_EQ(range->sort.op, SortKeyCondition::Op::kGt);
  EXPECT_EQ(range->sort.low, N("3"));

  range = Plan("SELECT * FROM t WHERE pk = 'a' AND sk BETWEEN 1 AND 9");
  ASSERT_TRUE(range.has_value());
  EXPECT_EQ(range->sort.op, SortKeyCondition::Op::kBetween);
  EXPECT_EQ(range->sort.high, N("9"));

  range = Plan("SELECT * FROM t WHERE pk = 'a' AND sk = 4");
  ASSERT_TRUE(range.has_value());
  EXPECT_EQ(range->sort.op, SortKeyCondition::Op::kEq);
  EXPECT_EQ(range->sort.low, N("4"));
}

TEST(PartiqlPlannerTest, AnythingElseIsAScan) {
  EXPECT_FALSE(Plan("SELECT * FROM t WHERE sk = 1").has_value());
  EXPECT_FALSE(Plan("SELECT * FROM t WHERE pk = 'a' OR sk = 1").has_value());
  EXPECT_FALSE(Plan("SELECT * FROM t WHERE pk = 'a' OR other = 'x'").has_value());
  EXPECT_FALSE(Plan("SELECT * FROM t WHERE pk <> 'a'").has_value());
  EXPECT_FALSE(Plan("SELECT * FROM t WHERE NOT pk = 'a'").has_value());
  // A value of another type than the key's can match nothing: the filter
  // decides, over a scan.
  EXPECT_FALSE(Plan("SELECT * FROM t WHERE pk = 1").has_value());
}

TEST(PartiqlPlannerTest, UnusableSortConditionsStayInTheFilter) {
  // begins_with on a number key and reversed BETWEEN bounds cannot bound a read.
  auto range = Plan("SELECT * FROM t WHERE pk = 'a' AND begins_with(sk, '1')");
  ASSERT_TRUE(range.has_value());
  EXPECT_EQ(range->sort.op, SortKeyCondition::Op::kNone);
  range = Plan("SELECT * FROM t WHERE pk = 'a' AND sk BETWEEN 9 AND 1");
  ASSERT_TRUE(range.has_value());
  EXPECT_EQ(range->sort.op, SortKeyCondition::Op::kNone);
}

TEST(PartiqlPlannerTest, IndexKeysPlanLikeTableKeys) {
  KeySchema gsi{{{"PK", ScalarType::kS}}, {{"OrderStatusDate", ScalarType::kS}}};
  auto range = Plan(
      "SELECT * FROM \"ecommerce\".\"GSI2\" WHERE PK = 'USER#1' AND "
      "begins_with(OrderStatusDate, 'SHIPPED#')",
      gsi);
  ASSERT_TRUE(range.has_value());
  EXPECT_EQ(range->partition[0], S("USER#1"));
  EXPECT_EQ(range->sort.op, SortKeyCondition::Op::kBeginsWith);
  EXPECT_EQ(range->sort.low, S("SHIPPED#"));
}

TEST(PartiqlPlannerTest, InOnThePartitionKeyReadsEachPartition) {
  SelectStatement select =
      Select("SELECT * FROM t WHERE pk IN ['a', 'b', 'a'] AND sk > 1 AND x = 1");
  std::vector<KeyRange> ranges = PlanKeyRanges(*select.where, TableKey());
  ASSERT_EQ(ranges.size(), 2u);
  EXPECT_EQ(ranges[0].partition[0], S("a"));
  EXPECT_EQ(ranges[1].partition[0], S("b"));
  EXPECT_EQ(ranges[1].sort.op, SortKeyCondition::Op::kGt);
  // A value of another type in the list leaves the choice to a scan.
  SelectStatement mixed = Select("SELECT * FROM t WHERE pk IN ('a', 1)");
  EXPECT_TRUE(PlanKeyRanges(*mixed.where, TableKey()).empty());
}

TEST(PartiqlPlannerTest, OrOfPartitionsReadsEachPartition) {
  // As the developer guide says: `OrderID = 100 or OrderID = 200` is no scan.
  SelectStatement ored = Select("SELECT * FROM t WHERE pk = 'a' OR pk = 'b'");
  std::vector<KeyRange> ranges = PlanKeyRanges(*ored.where, TableKey());
  ASSERT_EQ(ranges.size(), 2u);
  EXPECT_EQ(ranges[1].partition[0], S("b"));

  SelectStatement branches =
      Select("SELECT * FROM t WHERE (pk = 'a' AND sk = 1) OR (pk = 'b' AND sk > 2)");
  ranges = PlanKeyRanges(*branches.where, TableKey());
  ASSERT_EQ(ranges.size(), 2u);
  EXPECT_EQ(ranges[0].sort.op, SortKeyCondition::Op::kEq);
  EXPECT_EQ(ranges[1].sort.op, SortKeyCondition::Op::kGt);

  // A partition two branches name is read whole, once: no item twice.
  SelectStatement twice =
      Select("SELECT * FROM t WHERE (pk = 'a' AND sk = 1) OR (pk = 'a' AND sk = 2)");
  ranges = PlanKeyRanges(*twice.where, TableKey());
  ASSERT_EQ(ranges.size(), 1u);
  EXPECT_EQ(ranges[0].sort.op, SortKeyCondition::Op::kNone);

  SelectStatement nested = Select("SELECT * FROM t WHERE (pk = 'a' OR pk = 'b') AND x = 1");
  EXPECT_EQ(PlanKeyRanges(*nested.where, TableKey()).size(), 2u);
}

TEST(PartiqlPlannerTest, OrderByDecidesDirectionAndPartitionOrder) {
  SelectStatement select =
      Select("SELECT * FROM t WHERE pk IN ['a', 'c', 'b'] ORDER BY pk DESC, sk DESC");
  std::vector<KeyRange> ranges = PlanKeyRanges(*select.where, TableKey());
  auto forward = ApplyOrderBy(select, TableKey(), ranges);
  ASSERT_OK(forward);
  EXPECT_FALSE(*forward);
  ASSERT_EQ(ranges.size(), 3u);
  EXPECT_EQ(ranges[0].partition[0], S("c"));
  EXPECT_EQ(ranges[2].partition[0], S("a"));

  SelectStatement unordered = Select("SELECT * FROM t WHERE pk IN ['a', 'b'] ORDER BY sk");
  ranges = PlanKeyRanges(*unordered.where, TableKey());
  EXPECT_EQ(ApplyOrderBy(unordered, TableKey(), ranges).status().message(),
            "Must have hash key in ORDER BY clause when more than one hash key condition "
            "specified in WHERE clause.");
}

TEST(PartiqlPlannerTest, OverlappingBranchesAreRefusedAsDynamoDBRefusesThem) {
  auto check = [](std::string_view text) {
    SelectStatement select = Select(text);
    return CheckBranchesDoNotOverlap(*select.where, TableKey()).message();
  };
  const std::string overlap =
      "Overlapping conditions with range keys are not supported in where clause";
  EXPECT_EQ(check("SELECT * FROM t WHERE pk = 'a' AND x = '1' OR pk = 'a' AND sk = 2"), overlap);
  EXPECT_EQ(check("SELECT * FROM t WHERE pk = 'a' AND x <> '1' OR pk = 'a' AND sk = 2"), overlap);
  // Branches that test only the key may overlap.
  EXPECT_EQ(check("SELECT * FROM t WHERE pk = 'a' AND NOT sk = 1 OR pk = 'a' AND sk = 2"), "");
  EXPECT_EQ(check("SELECT * FROM t WHERE pk = 'a' AND sk <> 1 OR pk = 'a' AND sk = 2"), "");
  EXPECT_EQ(check("SELECT * FROM t WHERE pk = 'a' OR pk = 'a' AND NOT sk = 1"), "");
  // Other partitions, or a scan, overlap nothing.
  EXPECT_EQ(check("SELECT * FROM t WHERE pk = 'a' AND x = '1' OR pk = 'b' AND sk = 2"), "");
  EXPECT_EQ(check("SELECT * FROM t WHERE x = '1' OR pk = 'a' AND sk = 2"), "");
}

TEST(PartiqlPlannerTest, WritesNeedEveryKeyAttribute) {
  SelectStatement full = Select("SELECT * FROM t WHERE sk = 2 AND pk = 'a' AND n > 1");
  auto split = SplitKey(*full.where, TableKey());
  ASSERT_OK(split);
  EXPECT_EQ(DebugString(split->key), DebugString(Item{{"pk", S("a")}, {"sk", N("2")}}));
  ASSERT_TRUE(split->rest.has_value());
  Item candidate{{"n", N("2")}};
  EXPECT_TRUE(expr::EvaluateCondition(*split->rest, &candidate));

  SelectStatement partial = Select("SELECT * FROM t WHERE pk = 'a' AND sk > 2");
  auto missing = SplitKey(*partial.where, TableKey());
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.status().message(),
            "Where clause does not contain a mandatory equality on all key attributes");
}

}  // namespace
}  // namespace ddb::engine::partiql
