// The api layer driven through api::Dispatch, as the server would, without
// sockets: request JSON in, status and response JSON out.
#include "api/dispatch.h"

#include <gtest/gtest.h>
#include <rapidjson/document.h>

#include <string>
#include <string_view>

#include "tests/api/dispatch_fixture.h"

namespace ddb::api {
namespace {

// gtest_main only (no gmock): a substring check with a readable failure.
::testing::AssertionResult Contains(const std::string& text, std::string_view fragment) {
  if (text.find(fragment) != std::string::npos) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "\"" << text << "\" does not contain \"" << fragment
                                       << "\"";
}

rapidjson::Document ParseJson(const std::string& body) {
  rapidjson::Document doc;
  doc.Parse(body.c_str(), body.size());
  EXPECT_FALSE(doc.HasParseError()) << body;
  EXPECT_TRUE(doc.IsObject()) << body;
  return doc;
}

// Checks an error response: HTTP 400, __type ending in "#<type>", and a
// message containing `fragment`.
void ExpectError(const Response& response, std::string_view type, std::string_view fragment) {
  SCOPED_TRACE(response.body);
  EXPECT_EQ(response.http_status, 400);
  rapidjson::Document doc = ParseJson(response.body);
  if (!doc.IsObject()) return;
  ASSERT_TRUE(doc.HasMember("__type") && doc["__type"].IsString());
  std::string actual_type = doc["__type"].GetString();
  std::string suffix(1, '#');
  suffix.append(type);  // not "#" + std::string: GCC 12 warns falsely (-Wrestrict)
  EXPECT_TRUE(actual_type.ends_with(suffix)) << actual_type;
  // DynamoDB spells the member "Message" for SerializationException only.
  const char* key = type == "SerializationException" ? "Message" : "message";
  if (fragment.empty()) {
    EXPECT_FALSE(doc.HasMember("message") || doc.HasMember("Message"));
    return;
  }
  ASSERT_TRUE(doc.HasMember(key) && doc[key].IsString()) << "no " << key;
  EXPECT_TRUE(Contains(doc[key].GetString(), fragment));
}

class ApiTest : public DispatchTest {
 protected:
  // Calls an operation that must succeed and returns its parsed response.
  rapidjson::Document CallOk(std::string_view op, std::string_view json) {
    return ParseJson(CallOkBody(op, json));
  }

  // An on-demand table with a string hash key "pk".
  void CreateTable(std::string_view name) {
    CallOk("CreateTable", R"({"TableName":")" + std::string(name) + R"(",
        "KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}],
        "AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"}],
        "BillingMode":"PAY_PER_REQUEST"})");
  }

  // PutItem into "Items" of an item with key "k" and attribute a = `value`.
  Response PutAttribute(std::string_view value) {
    return Call("PutItem", R"({"TableName":"Items","Item":{"pk":{"S":"k"},"a":)" +
                               std::string(value) + "}}");
  }
};

TEST_F(ApiTest, CreateTableDescribesTheNewTable) {
  rapidjson::Document doc = CallOk("CreateTable", R"({"TableName":"Items",
      "KeySchema":[{"AttributeName":"pk","KeyType":"HASH"},{"AttributeName":"sk","KeyType":"RANGE"}],
      "AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"},
                              {"AttributeName":"sk","AttributeType":"N"}],
      "ProvisionedThroughput":{"ReadCapacityUnits":5,"WriteCapacityUnits":7}})");
  ASSERT_TRUE(doc.HasMember("TableDescription"));
  const auto& table = doc["TableDescription"];
  EXPECT_STREQ(table["TableName"].GetString(), "Items");
  EXPECT_STREQ(table["TableStatus"].GetString(), "ACTIVE");
  EXPECT_STREQ(table["TableArn"].GetString(), "arn:aws:dynamodb:us-east-1:000000000000:table/Items");
  EXPECT_STREQ(table["KeySchema"][1]["AttributeName"].GetString(), "sk");
  EXPECT_STREQ(table["KeySchema"][1]["KeyType"].GetString(), "RANGE");
  EXPECT_EQ(table["ProvisionedThroughput"]["WriteCapacityUnits"].GetInt(), 7);
  EXPECT_EQ(table["ItemCount"].GetInt(), 0);
  // `table` points into `doc`, which the next call replaces.
  std::string table_id = table["TableId"].GetString();

  doc = CallOk("DescribeTable", R"({"TableName":"Items"})");
  EXPECT_EQ(doc["Table"]["TableId"].GetString(), table_id);
  ExpectError(Call("CreateTable", R"({"TableName":"Items",
      "KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}],
      "AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"}],
      "BillingMode":"PAY_PER_REQUEST"})"),
              "ResourceInUseException", "Table already exists: Items");
}

TEST_F(ApiTest, CreateTableChecksTheTableName) {
  auto create = [&](const std::string& name) {
    return Call("CreateTable", R"({"TableName":")" + name + R"(",
        "KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}],
        "AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"}],
        "BillingMode":"PAY_PER_REQUEST"})");
  };
  ExpectError(create("a b"), "ValidationException",
              "1 validation error detected: Value 'a b' at 'tableName' failed to satisfy "
              "constraint: Member must satisfy regular expression pattern: [a-zA-Z0-9_.-]+");
  ExpectError(create("ab"), "ValidationException",
              "1 validation error detected: Value 'ab' at 'tableName' failed to satisfy "
              "constraint: Member must have length greater than or equal to 3");
  ExpectError(create(std::string(256, 'x')), "ValidationException",
              "failed to satisfy constraint: Member must have length less than or equal to 255");
  ExpectError(create("a!"), "ValidationException",
              "2 validation errors detected: Value 'a!' at 'tableName' failed to satisfy "
              "constraint: Member must satisfy regular expression pattern: [a-zA-Z0-9_.-]+; "
              "Value 'a!' at 'tableName' failed to satisfy constraint: Member must have length "
              "greater than or equal to 3");
  EXPECT_EQ(create(std::string(255, 'x')).http_status, 200);
  EXPECT_EQ(create("a-b_c.D9").http_status, 200);
}

TEST_F(ApiTest, CreateTableChecksKeySchemaAgainstAttributeDefinitions) {
  ExpectError(Call("CreateTable", R"({"TableName":"Items","BillingMode":"PAY_PER_REQUEST",
      "KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}],
      "AttributeDefinitions":[{"AttributeName":"other","AttributeType":"S"}]})"),
              "ValidationException",
              "One or more parameter values were invalid: Some index key attributes are not "
              "defined in AttributeDefinitions. Keys: [pk], AttributeDefinitions: [other]");
  ExpectError(Call("CreateTable", R"({"TableName":"Items","BillingMode":"PAY_PER_REQUEST",
      "KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}],
      "AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"},
                              {"AttributeName":"extra","AttributeType":"N"}]})"),
              "ValidationException",
              "One or more parameter values were invalid: Number of attributes in KeySchema does "
              "not exactly match number of attributes defined in AttributeDefinitions");
  ExpectError(Call("CreateTable", R"({"TableName":"Items","BillingMode":"PAY_PER_REQUEST",
      "KeySchema":[{"AttributeName":"pk","KeyType":"RANGE"}],
      "AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"}]})"),
              "ValidationException",
              "Invalid KeySchema: The first KeySchemaElement is not a HASH key type");
  ExpectError(Call("CreateTable", R"({"TableName":"Items","BillingMode":"PAY_PER_REQUEST",
      "AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"X"}]})"),
              "ValidationException",
              "2 validation errors detected: Value null at 'keySchema' failed to satisfy "
              "constraint: Member must not be null; Value 'X' at "
              "'attributeDefinitions.1.member.attributeType' failed to satisfy constraint: "
              "Member must satisfy enum value set: [B, N, S]");
}

TEST_F(ApiTest, CreateTableChecksThroughputAgainstBillingMode) {
  const std::string keys = R"("KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}],
      "AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"}])";
  ExpectError(Call("CreateTable", R"({"TableName":"Items",)" + keys + "}"), "ValidationException",
              "One or more parameter values were invalid: ReadCapacityUnits and "
              "WriteCapacityUnits must both be specified when BillingMode is PROVISIONED");
  ExpectError(Call("CreateTable", R"({"TableName":"Items","BillingMode":"PAY_PER_REQUEST",)" +
                                      keys +
                                      R"(,"ProvisionedThroughput":{"ReadCapacityUnits":1,
                                          "WriteCapacityUnits":1}})"),
              "ValidationException",
              "One or more parameter values were invalid: Neither ReadCapacityUnits nor "
              "WriteCapacityUnits can be specified when BillingMode is PAY_PER_REQUEST");
  ExpectError(Call("CreateTable", R"({"TableName":"Items",)" + keys +
                                      R"(,"ProvisionedThroughput":{"ReadCapacityUnits":0,
                                          "WriteCapacityUnits":1}})"),
              "ValidationException",
              "1 validation error detected: Value '0' at 'provisionedThroughput.readCapacityUnits' "
              "failed to satisfy constraint: Member must have value greater than or equal to 1");
}

TEST_F(ApiTest, DescribeMissingTableIsResourceNotFound) {
  ExpectError(Call("DescribeTable", R"({"TableName":"missing"})"), "ResourceNotFoundException",
              "Requested resource not found: Table: missing not found");
  ExpectError(Call("DescribeTable", "{}"), "ValidationException",
              "The parameter 'TableName' is required but was not present in the request");
}

TEST_F(ApiTest, PutAndGetItemRoundTripWithCanonicalNumbers) {
  CreateTable("Items");
  rapidjson::Document put = CallOk("PutItem", R"({"TableName":"Items","Item":{
      "pk":{"S":"k1"}, "n":{"N":"1.50"}, "neg":{"N":"-0.0"}, "big":{"N":"1e3"},
      "b":{"B":"AAEC"}, "bool":{"BOOL":false}, "nul":{"NULL":true},
      "m":{"M":{"x":{"L":[{"N":"010"},{"S":""}]}}},
      "ss":{"SS":["b","a"]}, "ns":{"NS":["2.0","-1"]}, "bs":{"BS":["AQ=="]},
      "alsonull":{"S":null,"N":"7"}}})");
  EXPECT_TRUE(put.ObjectEmpty());

  Response got = Call("GetItem", R"({"TableName":"Items","Key":{"pk":{"S":"k1"}}})");
  EXPECT_EQ(got.http_status, 200);
  EXPECT_EQ(got.body,
            R"({"Item":{"alsonull":{"N":"7"},"b":{"B":"AAEC"},"big":{"N":"1000"},)"
            R"("bool":{"BOOL":false},"bs":{"BS":["AQ=="]},"m":{"M":{"x":{"L":[{"N":"10"},{"S":""}]}}},)"
            R"("n":{"N":"1.5"},"neg":{"N":"0"},"ns":{"NS":["-1","2"]},"nul":{"NULL":true},)"
            R"("pk":{"S":"k1"},"ss":{"SS":["a","b"]}}})");  // sets read back sorted

  Response projected = Call("GetItem", R"({"TableName":"Items","Key":{"pk":{"S":"k1"}},
                                            "AttributesToGet":["n","nope"]})");
  EXPECT_EQ(projected.body, R"({"Item":{"n":{"N":"1.5"}}})");
  EXPECT_EQ(Call("GetItem", R"({"TableName":"Items","Key":{"pk":{"S":"absent"}}})").body, "{}");

  rapidjson::Document replaced = CallOk("PutItem", R"({"TableName":"Items","ReturnValues":"ALL_OLD",
      "Item":{"pk":{"S":"k1"},"n":{"N":"2"}}})");
  ASSERT_TRUE(replaced.HasMember("Attributes"));
  EXPECT_STREQ(replaced["Attributes"]["n"]["N"].GetString(), "1.5");
  EXPECT_EQ(Call("GetItem", R"({"TableName":"Items","Key":{"pk":{"S":"k1"}}})").body,
            R"({"Item":{"n":{"N":"2"},"pk":{"S":"k1"}}})");
}

TEST_F(ApiTest, ItemKeysAndTablesAreChecked) {
  CreateTable("Items");
  ExpectError(Call("PutItem", R"({"TableName":"Items","Item":{"x":{"S":"v"}}})"),
              "ValidationException",
              "One or more parameter values were invalid: Missing the key pk in the item");
  ExpectError(Call("PutItem", R"({"TableName":"Items","Item":{"pk":{"N":"1"}}})"),
              "ValidationException",
              "One or more parameter values were invalid: Type mismatch for key pk expected: S "
              "actual: N");
  ExpectError(Call("GetItem", R"({"TableName":"Items","Key":{"pk":{"S":"a"},"x":{"S":"b"}}})"),
              "ValidationException", "The provided key element does not match the schema");
  ExpectError(Call("GetItem", R"({"TableName":"Nope","Key":{"pk":{"S":"a"}}})"),
              "ResourceNotFoundException", "Requested resource not found");
}

TEST_F(ApiTest, InvalidAttributeValuesAreRejected) {
  CreateTable("Items");
  struct Case {
    const char* value;
    const char* type;
    const char* message;
  };
  const Case cases[] = {
      {"{}", "ValidationException",
       "Supplied AttributeValue is empty, must contain exactly one of the supported datatypes"},
      {R"({"S":"a","N":"1"})", "ValidationException",
       "Supplied AttributeValue has more than one datatypes set, must contain exactly one of the "
       "supported datatypes"},
      {R"({"NULL":false})", "ValidationException",
       "One or more parameter values were invalid: Null attribute value types must have the "
       "value of true"},
      {R"({"SS":[]})", "ValidationException",
       "One or more parameter values were invalid: An string set  may not be empty"},
      {R"({"NS":[]})", "ValidationException",
       "One or more parameter values were invalid: An number set  may not be empty"},
      {R"({"BS":[]})", "ValidationException",
       "One or more parameter values were invalid: Binary sets should not be empty"},
      {R"({"SS":["a","b","a"]})", "ValidationException",
       "One or more parameter values were invalid: Input collection [\"a\", \"b\", \"a\"] "
       "contains duplicates."},
      {R"({"N":"0e126"})", "ValidationException",
       "Number overflow. Attempting to store a number with magnitude larger than supported "
       "range"},
      {R"({"N":"1e99999999999"})", "ValidationException",
       "Number overflow. Attempting to store a number with magnitude larger than supported "
       "range"},
      {R"({"N":"1e99999999999999999999"})", "ValidationException",
       "The parameter cannot be converted to a numeric value: 1e99999999999999999999"},
      {R"({"NS":["1","1.0"]})", "ValidationException",
       "One or more parameter values were invalid: Input collection contains duplicates"},
      {R"({"BS":["AA==","AA=="]})", "ValidationException",
       "One or more parameter values were invalid: Input collection [\"AA==\",\"AA==\"]of type "
       "BS contains duplicates."},
      {R"({"N":"abc"})", "ValidationException",
       "The parameter cannot be converted to a numeric value: abc"},
      {R"({"N":"1e126"})", "ValidationException",
       "Number overflow. Attempting to store a number with magnitude larger than supported "
       "range"},
      {R"({"N":"123456789012345678901234567890123456789"})", "ValidationException",
       "Attempting to store more than 38 significant digits in a Number"},
      {R"({"S":5})", "SerializationException", "NUMBER_VALUE cannot be converted to String"},
      {R"({"BOOL":"true"})", "SerializationException",
       "STRING_VALUE cannot be converted to Boolean"},
      {R"({"B":"abc"})", "SerializationException",
       "Base64 encoded length is expected a multiple of 4 bytes but found: 3"},
      {R"("plain")", "SerializationException", "Unexpected value type in payload"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.value);
    ExpectError(PutAttribute(c.value), c.type, c.message);
  }
  EXPECT_EQ(Call("GetItem", R"({"TableName":"Items","Key":{"pk":{"S":"k"}}})").body, "{}");
}

TEST_F(ApiTest, DocumentsNestAtMost32Levels) {
  CreateTable("Items");
  // `wraps` levels of M/L around a string: the attribute itself is level 1.
  auto nested = [](int wraps) {
    std::string json = R"({"S":"leaf"})";
    for (int i = 0; i < wraps; ++i) {
      json = i % 2 ? R"({"L":[)" + json + "]}" : R"({"M":{"n":)" + json + "}}";
    }
    return json;
  };
  EXPECT_EQ(PutAttribute(nested(31)).http_status, 200);
  ExpectError(PutAttribute(nested(32)), "ValidationException",
              "Nesting Levels have exceeded supported limits");
  ExpectError(PutAttribute(nested(100)), "ValidationException",
              "Nesting Levels have exceeded supported limits");
}

TEST_F(ApiTest, MalformedRequestsAreSerializationExceptions) {
  for (std::string_view body : {"{", "", "[]", "null", R"({"TableName": })",
                                "{\"TableName\":\"\xff\xfe\"}"}) {
    SCOPED_TRACE(body);
    Response response = Call("ListTables", body);
    EXPECT_EQ(response.http_status, 400);
    EXPECT_TRUE(Contains(response.body, "#SerializationException"));
  }
  ExpectError(Call("DescribeTable", R"({"TableName":5})"), "SerializationException",
              "NUMBER_VALUE cannot be converted to String");
  ExpectError(Call("DescribeTable", R"({"TableName":true})"), "SerializationException",
              "TRUE_VALUE cannot be converted to String");
  ExpectError(Call("ListTables", R"({"Limit":"5"})"), "SerializationException",
              "STRING_VALUE cannot be converted to Integer");
}

TEST_F(ApiTest, UnknownTargetsAreUnknownOperationExceptions) {
  for (std::string_view target : {"DynamoDB_20120810.Nope", "DynamoDB_20120810.", "",
                                  "DynamoDB_20111205.ListTables", "dynamodb_20120810.ListTables"}) {
    SCOPED_TRACE(target);
    EXPECT_FALSE(IsKnownTarget(target));
    ExpectError(Dispatch(*engine_, caller_, target, "{}"), "UnknownOperationException", "");
  }
  EXPECT_TRUE(IsKnownTarget("DynamoDB_20120810.ListTables"));
}

TEST_F(ApiTest, ListTablesChecksLimitAndPages) {
  ExpectError(Call("ListTables", R"({"Limit":0})"), "ValidationException",
              "1 validation error detected: Value '0' at 'limit' failed to satisfy constraint: "
              "Member must have value greater than or equal to 1");
  ExpectError(Call("ListTables", R"({"Limit":101})"), "ValidationException",
              "1 validation error detected: Value '101' at 'limit' failed to satisfy constraint: "
              "Member must have value less than or equal to 100");
  for (const char* name : {"ccc", "aaa", "bbb"}) CreateTable(name);
  rapidjson::Document page = CallOk("ListTables", R"({"Limit":2})");
  ASSERT_EQ(page["TableNames"].Size(), 2u);
  EXPECT_STREQ(page["TableNames"][0].GetString(), "aaa");
  EXPECT_STREQ(page["LastEvaluatedTableName"].GetString(), "bbb");
  page = CallOk("ListTables", R"({"Limit":2,"ExclusiveStartTableName":"bbb"})");
  ASSERT_EQ(page["TableNames"].Size(), 1u);
  EXPECT_STREQ(page["TableNames"][0].GetString(), "ccc");
  EXPECT_FALSE(page.HasMember("LastEvaluatedTableName"));
}

TEST_F(ApiTest, PutItemReturnValuesMustBeAllOldOrNone) {
  CreateTable("Items");
  const std::string item = R"("Item":{"pk":{"S":"k"}})";
  ExpectError(Call("PutItem", R"({"TableName":"Items","ReturnValues":"ALL_NEW",)" + item + "}"),
              "ValidationException", "ReturnValues can only be ALL_OLD or NONE");
  ExpectError(Call("PutItem", R"({"TableName":"Items","ReturnValues":"UPDATED_OLD",)" + item + "}"),
              "ValidationException", "ReturnValues can only be ALL_OLD or NONE");
  ExpectError(Call("PutItem", R"({"TableName":"Items","ReturnValues":"BOGUS",)" + item + "}"),
              "ValidationException",
              "1 validation error detected: Value 'BOGUS' at 'returnValues' failed to satisfy "
              "constraint: Member must satisfy enum value set: [ALL_NEW, UPDATED_OLD, ALL_OLD, "
              "NONE, UPDATED_NEW]");
  EXPECT_EQ(Call("GetItem", R"({"TableName":"Items","Key":{"pk":{"S":"k"}}})").body, "{}");
  EXPECT_EQ(Call("PutItem", R"({"TableName":"Items","ReturnValues":"NONE",)" + item + "}").body,
            "{}");
}


// UpdateItem's ReturnValues, each against the same starting item.
TEST_F(ApiTest, UpdateItemReturnValues) {
  CreateTable("rv_table");
  const std::string put =
      R"j({"TableName":"rv_table","Item":{"pk":{"S":"k"},"m":{"M":{"a":{"N":"1"},"b":{"N":"2"}}},"gone":{"S":"x"}}})j";
  const std::string update = R"j({"TableName":"rv_table","Key":{"pk":{"S":"k"}},
      "UpdateExpression":"SET m.a = m.a + :one REMOVE gone",
      "ExpressionAttributeValues":{":one":{"N":"1"}},"ReturnValues":")j";
  const std::pair<const char*, const char*> cases[] = {
      {"NONE", "{}"},
      {"UPDATED_NEW", R"j({"Attributes":{"m":{"M":{"a":{"N":"2"}}}}})j"},
      {"UPDATED_OLD", R"j({"Attributes":{"gone":{"S":"x"},"m":{"M":{"a":{"N":"1"}}}}})j"},
      {"ALL_NEW", R"j({"Attributes":{"m":{"M":{"a":{"N":"2"},"b":{"N":"2"}}},"pk":{"S":"k"}}})j"},
      {"ALL_OLD",
       R"j({"Attributes":{"gone":{"S":"x"},"m":{"M":{"a":{"N":"1"},"b":{"N":"2"}}},"pk":{"S":"k"}}})j"},
  };
  for (auto [return_values, expected] : cases) {
    SCOPED_TRACE(return_values);
    CallOk("PutItem", put);
    Response response = Call("UpdateItem", update + return_values + "\"}");
    EXPECT_EQ(response.http_status, 200);
    EXPECT_EQ(response.body, expected);
  }
}

TEST_F(ApiTest, FailedConditionReturnsTheItemWhenAsked) {
  CreateTable("ccf_table");
  CallOk("PutItem", R"j({"TableName":"ccf_table","Item":{"pk":{"S":"k"},"v":{"N":"1"}}})j");
  const std::string request = R"j({"TableName":"ccf_table","Item":{"pk":{"S":"k"}},
      "ConditionExpression":"attribute_not_exists(pk)")j";
  Response plain = Call("PutItem", request + "}");
  ExpectError(plain, "ConditionalCheckFailedException", "The conditional request failed");
  EXPECT_FALSE(Contains(plain.body, "\"Item\""));
  Response with_item =
      Call("PutItem", request + R"j(,"ReturnValuesOnConditionCheckFailure":"ALL_OLD"})j");
  ExpectError(with_item, "ConditionalCheckFailedException", "The conditional request failed");
  EXPECT_TRUE(Contains(with_item.body, R"j("Item":{"pk":{"S":"k"},"v":{"N":"1"}})j"));
  // Nothing was written by the failed put.
  auto item = CallOk("GetItem", R"j({"TableName":"ccf_table","Key":{"pk":{"S":"k"}}})j");
  EXPECT_TRUE(item["Item"].HasMember("v"));
}

TEST_F(ApiTest, LegacyParametersUseTheSameEvaluator) {
  CreateTable("legacy_table");
  CallOk("UpdateItem", R"j({"TableName":"legacy_table","Key":{"pk":{"S":"k"}},
      "Expected":{"n":{"Exists":false}},
      "AttributeUpdates":{"n":{"Action":"ADD","Value":{"N":"5"}},"s":{"Value":{"SS":["a","b"]}}}})j");
  ExpectError(Call("UpdateItem", R"j({"TableName":"legacy_table","Key":{"pk":{"S":"k"}},
      "Expected":{"n":{"ComparisonOperator":"GT","AttributeValueList":[{"N":"5"}]}},
      "AttributeUpdates":{"n":{"Action":"ADD","Value":{"N":"1"}}}})j"),
              "ConditionalCheckFailedException", "The conditional request failed");
  auto updated = CallOk("UpdateItem", R"j({"TableName":"legacy_table","Key":{"pk":{"S":"k"}},
      "Expected":{"n":{"ComparisonOperator":"BETWEEN","AttributeValueList":[{"N":"1"},{"N":"5"}]},
                  "zz":{"ComparisonOperator":"NULL"}},
      "AttributeUpdates":{"s":{"Action":"DELETE","Value":{"SS":["a"]}},"n":{"Action":"DELETE"}},
      "ReturnValues":"ALL_NEW"})j");
  EXPECT_EQ(updated["Attributes"].MemberCount(), 2u);  // pk and s
  auto got = CallOk("GetItem", R"j({"TableName":"legacy_table","Key":{"pk":{"S":"k"}},
      "AttributesToGet":["s","nothing"]})j");
  ASSERT_TRUE(got["Item"].HasMember("s"));
  EXPECT_STREQ(got["Item"]["s"]["SS"][0].GetString(), "b");
  ExpectError(Call("UpdateItem", R"j({"TableName":"legacy_table","Key":{"pk":{"S":"k"}},
      "AttributeUpdates":{"s":{"Action":"ADD","Value":{"N":"1"}}}})j"),
              "ValidationException", "Type mismatch for attribute to update");
  ExpectError(Call("PutItem", R"j({"TableName":"legacy_table","Item":{"pk":{"S":"k"}},
      "Expected":{"n":{"ComparisonOperator":"EQ","AttributeValueList":[]}}})j"),
              "ValidationException",
              "One or more parameter values were invalid: Invalid number of argument(s) for the "
              "EQ ComparisonOperator");
}

TEST_F(ApiTest, ExpressionParameterChecksComeInDynamoDbsOrder) {
  CreateTable("order_table");
  ExpectError(Call("UpdateItem", R"j({"TableName":"order_table","Key":{"pk":{"S":"k"}},
      "UpdateExpression":"SET a = :v","AttributeUpdates":{"a":{"Value":{"N":"1"}}},
      "ExpressionAttributeValues":{}})j"),
              "ValidationException",
              "Can not use both expression and non-expression parameters in the same request: "
              "Non-expression parameters: {AttributeUpdates} Expression parameters: "
              "{UpdateExpression}");
  ExpectError(Call("UpdateItem", R"j({"TableName":"order_table","Key":{"pk":{"S":"k"}},
      "ExpressionAttributeValues":{":v":{"N":"1"}}})j"),
              "ValidationException",
              "ExpressionAttributeValues can only be specified when using expressions");
  ExpectError(Call("DeleteItem", R"j({"TableName":"order_table","Key":{"pk":{"S":"k"}},
      "ExpressionAttributeValues":{":v":{"N":"1"}}})j"),
              "ValidationException",
              "ExpressionAttributeValues can only be specified when using expressions");
  ExpectError(Call("GetItem", R"j({"TableName":"order_table","Key":{"pk":{"S":"k"}},
      "ExpressionAttributeNames":{}})j"),
              "ValidationException",
              "ExpressionAttributeNames can only be specified when using expressions");
  ExpectError(Call("GetItem", R"j({"TableName":"order_table","Key":{"pk":{"S":"k"}},
      "ProjectionExpression":"a","ExpressionAttributeNames":{}})j"),
              "ValidationException", "ExpressionAttributeNames must not be empty");
  ExpectError(Call("PutItem", R"j({"TableName":"order_table","Item":{"pk":{"S":"k"}},
      "ConditionExpression":"a = :v","ExpressionAttributeValues":{"v":{"N":"1"}}})j"),
              "ValidationException",
              "ExpressionAttributeValues contains invalid key: Syntax error; key: \"v\"");
  ExpectError(Call("PutItem", R"j({"TableName":"order_table","Item":{"pk":{"S":"k"}},
      "ConditionExpression":"a = :v","ExpressionAttributeValues":{":v":{"SS":[]}}})j"),
              "ValidationException",
              "1 validation error detected: One or more parameter values were invalid: An string "
              "set  may not be empty");
  // Syntax is checked before the table is looked up.
  ExpectError(Call("PutItem", R"j({"TableName":"no_such_table","Item":{"pk":{"S":"k"}},
      "ConditionExpression":"a = "})j"),
              "ValidationException", "Invalid ConditionExpression: Syntax error");
}


TEST_F(ApiTest, DeeplyNestedJsonIsRefusedBeforeParsing) {
  std::string body = R"({"TableName":"t","Item":)" + std::string(100000, '[') +
                     std::string(100000, ']') + "}";
  ExpectError(Call("PutItem", body), "SerializationException", "");
}

TEST_F(ApiTest, ManyLegacyConditionsStayShallow) {
  CreateTable("wide_table");
  std::string expected = "{";
  for (int i = 0; i < 20000; ++i) {
    expected += (i ? "," : "") + std::string("\"a") + std::to_string(i) +
                "\":{\"ComparisonOperator\":\"NULL\"}";
  }
  expected += "}";
  auto put = CallOk("PutItem", R"j({"TableName":"wide_table","Item":{"pk":{"S":"k"}},"Expected":)j" +
                                   expected + "}");
  EXPECT_TRUE(put.IsObject());
}

// --- PartiQL -------------------------------------------------------------------

TEST_F(ApiTest, ExecuteStatementChecksItsMembers) {
  CreateTable("Items");
  ExpectError(Call("ExecuteStatement", R"({})"), "ValidationException",
              "Value null at 'statement' failed to satisfy constraint: Member must not be null");
  ExpectError(Call("ExecuteStatement", R"({"Statement":"SELECT * FROM Items","Parameters":[]})"),
              "ValidationException", "Member must have length greater than or equal to 1");
  ExpectError(Call("ExecuteStatement", R"({"Statement":"SELECT * FROM Items","Limit":0})"),
              "ValidationException", "at 'limit' failed to satisfy constraint");
  ExpectError(Call("ExecuteStatement", R"({"Statement":7})"), "SerializationException",
              "NUMBER_VALUE cannot be converted to String");
  ExpectError(Call("ExecuteStatement", R"({"Statement":"SELECT * FROM Items WHERE pk = ?",
      "Parameters":[{"S":"a","N":"1"}]})"),
              "ValidationException", "Supplied AttributeValue has more than one datatypes set");
}

TEST_F(ApiTest, ExecuteStatementInsertsAndSelects) {
  CreateTable("Items");
  rapidjson::Document inserted = CallOk("ExecuteStatement", R"({
      "Statement":"INSERT INTO Items VALUE {'pk': ?, 'n': 1}","Parameters":[{"S":"k"}]})");
  ASSERT_TRUE(inserted.HasMember("Items"));
  EXPECT_EQ(inserted["Items"].Size(), 0u);
  rapidjson::Document selected = CallOk("ExecuteStatement", R"({
      "Statement":"SELECT n FROM Items WHERE pk = 'k'","ReturnConsumedCapacity":"TOTAL"})");
  ASSERT_EQ(selected["Items"].Size(), 1u);
  EXPECT_STREQ(selected["Items"][0]["n"]["N"].GetString(), "1");
  EXPECT_EQ(selected["ConsumedCapacity"]["CapacityUnits"].GetDouble(), 0.5);
  ExpectError(Call("ExecuteStatement", R"({"Statement":"INSERT INTO Items VALUE {'pk': 'k'}"})"),
              "DuplicateItemException", "Duplicate primary key exists in table");
}

TEST_F(ApiTest, BatchExecuteStatementAnswersEachStatement) {
  CreateTable("Items");
  rapidjson::Document doc = CallOk("BatchExecuteStatement", R"({"Statements":[
      {"Statement":"INSERT INTO Items VALUE {'pk': 'a'}"},
      {"Statement":"INSERT INTO Items VALUE {'pk': 'a'}"},
      {"Statement":"DELETE FROM Missing WHERE pk = 'a'"}]})");
  const auto& responses = doc["Responses"];
  ASSERT_EQ(responses.Size(), 3u);
  EXPECT_FALSE(responses[0].HasMember("Error"));
  EXPECT_STREQ(responses[1]["Error"]["Code"].GetString(), "DuplicateItem");
  EXPECT_STREQ(responses[2]["Error"]["Code"].GetString(), "ResourceNotFound");
}

TEST_F(ApiTest, ExecuteTransactionIsAllReadsOrAllWrites) {
  CreateTable("Items");
  ExpectError(Call("ExecuteTransaction", R"({"TransactStatements":[
      {"Statement":"SELECT * FROM Items WHERE pk = 'a'"},
      {"Statement":"INSERT INTO Items VALUE {'pk': 'b'}"}]})"),
              "ValidationException",
              "ExecuteTransaction API does not support both read and write operations in the "
              "same request.");
  ExpectError(Call("ExecuteTransaction", R"({"TransactStatements":[]})"), "ValidationException",
              "Member must have length greater than or equal to 1");
  CallOk("ExecuteTransaction", R"({"TransactStatements":[
      {"Statement":"INSERT INTO Items VALUE {'pk': 'b'}"},
      {"Statement":"INSERT INTO Items VALUE {'pk': 'c'}"}]})");
  rapidjson::Document read = CallOk("ExecuteTransaction", R"({"TransactStatements":[
      {"Statement":"SELECT * FROM Items WHERE pk = 'c'"}]})");
  EXPECT_STREQ(read["Responses"][0]["Item"]["pk"]["S"].GetString(), "c");
}

}  // namespace
}  // namespace ddb::api
