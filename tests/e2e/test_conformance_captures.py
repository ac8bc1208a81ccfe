"""Where the public DynamoDB conformance suite (its 2026 captures of the real
service) found localdynamo answering differently: an INSERT naming an index,
which batch members name their table, a PartiQL NextToken replayed against
another index, a transaction's empty secondary index key, a
TransactGetItems projection that matches nothing, what a local index
read that fetches the table's items costs, where a transaction's action and
UpdateItem's members stand in a validation message, and Query's legacy
ConditionalOperator."""

import pytest

from .e2e_util import exact, expect_error, key, raw_op
from .partiql_util import VE, execute

EMPTY_INDEX_KEY = ("One or more parameter values are not valid. A value specified for a "
                   "secondary index key is not supported. The AttributeValue for a key "
                   "attribute cannot contain an empty string value. IndexName: by-alt, "
                   "IndexKey: alt")


@pytest.fixture(scope="module")
def indexed(tables):
    """pk (S) / sk (S), an LSI by-alt on alt (S), two GSIs on g: one keeping
    every attribute, one its keys only."""
    return tables(
        hash_key=("pk", "S"), range_key=("sk", "S"), prefix="conf",
        AttributeDefinitions=[{"AttributeName": a, "AttributeType": "S"}
                              for a in ("pk", "sk", "alt", "g")],
        LocalSecondaryIndexes=[{
            "IndexName": "by-alt",
            "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"},
                          {"AttributeName": "alt", "KeyType": "RANGE"}],
            "Projection": {"ProjectionType": "KEYS_ONLY"}}],
        GlobalSecondaryIndexes=[
            {"IndexName": name, "KeySchema": [{"AttributeName": "g", "KeyType": "HASH"}],
             "Projection": {"ProjectionType": projection}}
            for name, projection in (("g-all", "ALL"), ("g-keys", "KEYS_ONLY"))])


def test_an_insert_naming_an_index_is_refused_while_parsing(dynamodb, indexed):
    # UPDATE and DELETE parse a qualifier and refuse it; INSERT's grammar has
    # none, so a real index and a missing one get the same parse error.
    for index in ("g-all", "no-such-index"):
        with expect_error(VE, "^FROM clause may only contain a single table name in data "
                              "manipulation statements at 1:13:"):
            execute(dynamodb, f"INSERT INTO \"{indexed}\".\"{index}\" VALUE {{'pk': 'a', "
                    "'sk': 'b'}")
    with expect_error(VE, exact("This operation is not supported on an index")):
        execute(dynamodb, f"DELETE FROM \"{indexed}\".\"g-all\" WHERE pk = 'a' AND sk = 'b'")


def test_a_batch_member_names_its_table_only_when_it_ran(dynamodb, indexed):
    pk = key()
    execute(dynamodb, f"INSERT INTO \"{indexed}\" VALUE {{'pk': ?, 'sk': 's'}}", pk)
    responses = dynamodb.batch_execute_statement(Statements=[
        {"Statement": f"INSERT INTO \"{indexed}\" VALUE {{'pk': ?, 'sk': 's'}}",
         "Parameters": [{"S": pk}]},
        {"Statement": f"UPDATE \"{indexed}\" SET v = 1 WHERE pk = ? AND sk = 's' AND v = 9",
         "Parameters": [{"S": pk}]},
        {"Statement": f"DELETE FROM \"{indexed}\" WHERE pk = ?", "Parameters": [{"S": pk}]},
    ])["Responses"]
    ran_and_failed = [(r["Error"]["Code"], r.get("TableName")) for r in responses[:2]]
    assert ran_and_failed == [("DuplicateItem", indexed), ("ConditionalCheckFailed", indexed)]
    # Refused before it ran (no whole key): no TableName.
    assert responses[2]["Error"]["Code"] == "ValidationError"
    assert "TableName" not in responses[2]
    reads = dynamodb.batch_execute_statement(Statements=[
        {"Statement": f"SELECT * FROM \"{indexed}\" WHERE pk = ? AND sk = 's'",
         "Parameters": [{"S": pk}]},
        {"Statement": f"SELECT * FROM \"{indexed}\" WHERE v = 1"}])["Responses"]
    assert reads[0]["TableName"] == indexed and reads[0]["Item"]["pk"] == {"S": pk}
    assert reads[1]["Error"]["Code"] == "ValidationError" and "TableName" not in reads[1]


def test_a_next_token_reads_on_only_where_it_was_made(dynamodb, indexed):
    g = key()
    for sk in ("s1", "s2", "s3"):
        execute(dynamodb, f"INSERT INTO \"{indexed}\" VALUE {{'pk': ?, 'sk': ?, 'g': ?}}",
                key(), sk, g)
    first = execute(dynamodb, f"SELECT pk FROM \"{indexed}\".\"g-all\" WHERE g = ?", g, Limit=1)
    token = first["NextToken"]
    with expect_error(VE, exact("Invalid NextToken")):
        execute(dynamodb, f"SELECT pk FROM \"{indexed}\".\"g-keys\" WHERE g = ?", g,
                NextToken=token)
    rest = execute(dynamodb, f"SELECT pk FROM \"{indexed}\".\"g-all\" WHERE g = ?", g,
                   NextToken=token)
    assert len(first["Items"]) + len(rest["Items"]) == 3


def test_a_transaction_with_an_empty_index_key_fails_whole(dynamodb, indexed):
    # An empty secondary index key refuses the request itself, a Put's or an
    # Update's; a wrong-typed one stays the action's cancellation reason.
    pk = {"S": key()}
    with expect_error(VE, exact(EMPTY_INDEX_KEY)):
        dynamodb.transact_write_items(TransactItems=[{"Put": {
            "TableName": indexed, "Item": {"pk": pk, "sk": {"S": "a"}, "alt": {"S": ""}}}}])
    with expect_error(VE, exact(EMPTY_INDEX_KEY)):
        dynamodb.transact_write_items(TransactItems=[{"Update": {
            "TableName": indexed, "Key": {"pk": pk, "sk": {"S": "a"}},
            "UpdateExpression": "SET alt = :v", "ExpressionAttributeValues": {":v": {"S": ""}}}}])
    with expect_error("TransactionCanceledException", r"\[ValidationError\]"):
        dynamodb.transact_write_items(TransactItems=[{"Put": {
            "TableName": indexed, "Item": {"pk": pk, "sk": {"S": "a"}, "alt": {"N": "1"}}}}])
    assert "Item" not in dynamodb.get_item(TableName=indexed, Key={"pk": pk, "sk": {"S": "a"}})


def test_transact_get_shows_no_item_when_the_projection_matches_nothing(dynamodb, indexed):
    pk = {"S": key()}
    for sk in ("a", "b"):
        dynamodb.put_item(TableName=indexed, Item={"pk": pk, "sk": {"S": sk}, "v": {"N": "1"}})
    responses = dynamodb.transact_get_items(TransactItems=[
        {"Get": {"TableName": indexed, "Key": {"pk": pk, "sk": {"S": "a"}},
                 "ProjectionExpression": "#x", "ExpressionAttributeNames": {"#x": "doesNotExist"}}},
        {"Get": {"TableName": indexed, "Key": {"pk": pk, "sk": {"S": "b"}},
                 "ProjectionExpression": "v"}}],
    )["Responses"]
    assert responses == [{}, {"Item": {"v": {"N": "1"}}}]


def test_a_local_index_read_bills_each_fetched_item_to_the_table(dynamodb, indexed):
    # DynamoDB documents it: reading a local index for attributes it does not
    # project reads the index, then each item from the table, billed whole and
    # one by one. Rows walked count, whatever the filter keeps.
    pk = {"S": key()}
    for sk in ("a", "b", "c"):
        dynamodb.put_item(TableName=indexed, Item={"pk": pk, "sk": {"S": sk},
                                                   "alt": {"S": "alt-" + sk},
                                                   "big": {"S": "x" * 5000}})

    def query(**extra):
        return dynamodb.query(
            TableName=indexed, IndexName="by-alt", KeyConditionExpression="pk = :p",
            ExpressionAttributeValues={":p": pk, **extra.pop("values", {})},
            ReturnConsumedCapacity="INDEXES", **extra)["ConsumedCapacity"]

    fetched = query(ProjectionExpression="big")
    # Three 5 KB items: 1 unit each eventually consistent; the index's keys: 0.5.
    assert fetched["Table"]["CapacityUnits"] == 3.0
    assert fetched["LocalSecondaryIndexes"]["by-alt"]["CapacityUnits"] == 0.5
    assert query(ProjectionExpression="big", Limit=1)["Table"]["CapacityUnits"] == 1.0
    assert query(ProjectionExpression="big", ConsistentRead=True)["Table"]["CapacityUnits"] == 6.0
    filtered = query(ProjectionExpression="big", FilterExpression="big = :none",
                     values={":none": {"S": "none"}})
    assert filtered["Table"]["CapacityUnits"] == 3.0
    # Only what the index holds: nothing is fetched.
    assert query(ProjectionExpression="alt")["Table"]["CapacityUnits"] == 0.0

    pql = execute(dynamodb, f"SELECT big FROM \"{indexed}\".\"by-alt\" WHERE pk = ?", pk["S"],
                  ReturnConsumedCapacity="INDEXES")["ConsumedCapacity"]
    assert pql["Table"]["CapacityUnits"] == 3.0
    assert pql["LocalSecondaryIndexes"]["by-alt"]["CapacityUnits"] == 0.5


BAD_NAME = ("1 validation error detected: Value 'bad!name' at 'transactItems.{}.tableName' "
            "failed to satisfy constraint: Member must satisfy regular expression pattern: "
            "[a-zA-Z0-9_.-]+")


def test_a_transactions_validation_names_the_action(server_url, indexed):
    pk = key()
    put = {"Put": {"TableName": indexed, "Item": {"pk": {"S": pk}, "sk": {"S": "s"}}}}
    for items, place in (
            ([{"Update": {"TableName": "bad!name", "Key": {"pk": {"S": "a"}},
                          "UpdateExpression": "SET a = :a",
                          "ExpressionAttributeValues": {":a": {"S": "x"}}}}], "1.member.update"),
            ([put, {"Delete": {"TableName": "bad!name", "Key": {"pk": {"S": "a"}}}}],
             "2.member.delete"),
            ([put, {"ConditionCheck": {"TableName": "bad!name", "Key": {"pk": {"S": "a"}},
                                       "ConditionExpression": "attribute_exists(pk)"}}],
             "2.member.conditionCheck")):
        status, body = raw_op(server_url, "TransactWriteItems", {"TransactItems": items})
        assert status == 400 and body["message"] == BAD_NAME.format(place), body
    status, body = raw_op(server_url, "TransactGetItems", {"TransactItems": [
        {"Get": {"TableName": indexed, "Key": {"pk": {"S": pk}, "sk": {"S": "s"}}}},
        {"Get": {"TableName": "bad!name", "Key": {"pk": {"S": "a"}}}}]})
    assert status == 400 and body["message"] == BAD_NAME.format("2.member.get"), body
    # An action with no operation: us-east-1's sentence.
    status, body = raw_op(server_url, "TransactWriteItems", {"TransactItems": [put, {}]})
    assert status == 400 and body["message"] == (
        "Invalid Request: TransactWriteRequest should contain Delete or Put or Update request")
    status, body = raw_op(server_url, "GetItem", {
        "TableName": indexed, "Key": {"pk": {"S": pk}, "sk": {"S": "s"}}})
    assert "Item" not in body


def test_update_item_lists_its_violations_in_member_order(server_url):
    enum = "Value 'INVALID' at '{}' failed to satisfy constraint: Member must satisfy enum value set: {}"
    no_key = "Value null at 'key' failed to satisfy constraint: Member must not be null"
    status, body = raw_op(server_url, "UpdateItem", {
        "TableName": "", "UpdateExpression": "SET a = :a",
        "ExpressionAttributeValues": {":a": {"S": "x"}},
        "ReturnConsumedCapacity": "INVALID", "ReturnValues": "INVALID"})
    assert status == 400 and body["message"] == (
        "4 validation errors detected: "
        + enum.format("returnConsumedCapacity", "[INDEXES, TOTAL, NONE]") + "; "
        + "Value '' at 'tableName' failed to satisfy constraint: Member must have length "
          "greater than or equal to 1; "
        + enum.format("returnValues", "[ALL_NEW, UPDATED_OLD, ALL_OLD, NONE, UPDATED_NEW]")
        + "; " + no_key), body
    # The legacy ConditionalOperator joins the missing key.
    status, body = raw_op(server_url, "UpdateItem", {
        "TableName": "no-such-table", "AttributeUpdates": {"x": {"Action": "PUT", "Value": {"S": "1"}}},
        "Expected": {"a": {"Exists": False}, "b": {"Exists": False}},
        "ConditionalOperator": "XOR"})
    assert status == 400 and body["message"] == (
        "2 validation errors detected: Value 'XOR' at 'conditionalOperator' failed to satisfy "
        "constraint: Member must satisfy enum value set: [OR, AND]; " + no_key), body


def test_query_reports_an_unknown_conditional_operator_first_and_alone(server_url):
    status, body = raw_op(server_url, "Query", {
        "TableName": "no-such-table",
        "KeyConditions": {"pk": {"ComparisonOperator": "EQ", "AttributeValueList": [{"S": "a"}]}},
        "QueryFilter": {"b": {"ComparisonOperator": "NULL"}, "c": {"ComparisonOperator": "NULL"}},
        "ConditionalOperator": "XOR", "Select": "BOGUS"})
    assert status == 400 and body["__type"].endswith(VE) and body["message"] == (
        "Failed to satisfy constraint: Member must satisfy enum value set: [ALL, OR]"), body
