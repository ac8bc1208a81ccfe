"""Where the public DynamoDB conformance suite (its 2026 captures of the real
service) found localdynamo answering differently: an INSERT naming an index,
which batch members name their table, a PartiQL NextToken replayed against
another index, a transaction's empty secondary index key, a
TransactGetItems projection that matches nothing, and what a local index
read that fetches the table's items costs."""

import pytest

from .e2e_util import exact, expect_error, key
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
