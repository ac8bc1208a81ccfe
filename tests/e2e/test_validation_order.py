"""Which check answers first, and in which words, where DynamoDB's answers
were captured in us-east-1 and eu-west-2 in October 2026: PutItem's and
DeleteItem's request-level checks inside the validation envelope; the
transactions' and BatchWriteItem's parameters reported together; a
transaction's actions checked one at a time in request order; and the
SELECTs PartiQL batches and transactions refuse."""

import pytest

from .e2e_util import raw_op, refused

ENVELOPE = "1 validation error detected: "
NESTING = ("Nesting Levels have exceeded supported limits: Attributes in the item have nested "
           "levels beyond supported limit")
RCC = ("Value 'BOGUS' at 'returnConsumedCapacity' failed to satisfy constraint: Member must "
       "satisfy enum value set: [INDEXES, TOTAL, NONE]")
RICM = ("Value 'BOGUS2' at 'returnItemCollectionMetrics' failed to satisfy constraint: Member "
        "must satisfy enum value set: [SIZE, NONE]")
TOKEN = ("Value '{}' at 'clientRequestToken' failed to satisfy constraint: Member must have "
         "length less than or equal to 36".format("x" * 37))


@pytest.fixture(scope="module")
def tbl(tables):
    return tables()


KEY = {"pk": {"S": "order"}}


def deep_value(levels=32):
    value = {"S": "leaf"}
    for _ in range(levels):
        value = {"M": {"n": value}}
    return value


def test_delete_item_words_its_request_checks_in_the_envelope(dynamodb, tbl):
    # ReturnValues' text is bare (2026-08; a 2026-10 capture had it enveloped).
    refused("ReturnValues can only be ALL_OLD or NONE", dynamodb.delete_item,
            TableName=tbl, Key=KEY, ReturnValues="ALL_NEW")
    refused(ENVELOPE + "ExpressionAttributeNames can only be specified when using expressions",
            dynamodb.delete_item, TableName=tbl, Key=KEY, Expected={"a": {"Exists": False}},
            ExpressionAttributeNames={"#a": "a"})
    refused(ENVELOPE + "Invalid ConditionExpression: The expression can not be empty;",
            dynamodb.delete_item, TableName=tbl, Key=KEY, ConditionExpression="")
    refused(ENVELOPE + "Invalid ConditionExpression: An expression attribute value used in "
                       "expression is not defined; attribute value: :v",
            dynamodb.update_item, TableName=tbl, Key=KEY, UpdateExpression="SET b = :w",
            ConditionExpression="a = :v", ExpressionAttributeValues={":w": {"S": "x"}})
    assert "Item" not in dynamodb.get_item(TableName=tbl, Key=KEY)


def test_transaction_parameters_are_reported_together(dynamodb, tbl):
    put = [{"Put": {"TableName": tbl, "Item": KEY}}]
    refused("2 validation errors detected: {}; {}".format(RCC, RICM), dynamodb.transact_write_items,
            TransactItems=put, ReturnConsumedCapacity="BOGUS", ReturnItemCollectionMetrics="BOGUS2")
    refused("2 validation errors detected: {}; {}".format(TOKEN, RCC), dynamodb.transact_write_items,
            TransactItems=put, ClientRequestToken="x" * 37, ReturnConsumedCapacity="BOGUS")
    # Ahead of a missing table and of two actions on one item.
    refused(ENVELOPE + RCC, dynamodb.transact_write_items, ReturnConsumedCapacity="BOGUS",
            TransactItems=[{"Put": {"TableName": "no-such-table", "Item": KEY}}])
    refused(ENVELOPE + RCC, dynamodb.transact_write_items, ReturnConsumedCapacity="BOGUS",
            TransactItems=put + [{"Delete": {"TableName": tbl, "Key": KEY}}])
    assert "Item" not in dynamodb.get_item(TableName=tbl, Key=KEY)


def test_batch_write_reports_an_unknown_enum_alone(server_url, tbl):
    status, body = raw_op(server_url, "BatchWriteItem", {
        "RequestItems": {"bad!name": [{"PutRequest": {"Item": KEY}}]},
        "ReturnConsumedCapacity": "BOGUS"})
    assert status == 400 and body["message"] == ENVELOPE + RCC, body


def test_a_transactions_first_failing_action_is_reported(dynamodb, tbl):
    syntax = {"ConditionCheck": {"TableName": tbl, "Key": KEY,
                                 "ConditionExpression": "attribute_not_exists("}}
    syntax_error = 'Invalid ConditionExpression: Syntax error; token: "<EOF>", near: "("'
    deep_put = {"Put": {"TableName": tbl, "Item": {**KEY, "d": deep_value()}}}
    missing = {"Put": {"TableName": "no-such-table", "Item": KEY}}
    # A parse error is found before any table is looked up, wherever it is.
    refused(syntax_error, dynamodb.transact_write_items, TransactItems=[missing, syntax])
    # Between two actions' own errors, request order decides; the nesting
    # text has no envelope in a transaction.
    refused(syntax_error, dynamodb.transact_write_items, TransactItems=[syntax, deep_put])
    refused(NESTING, dynamodb.transact_write_items, TransactItems=[deep_put, syntax])
    unused = {"ConditionCheck": {"TableName": tbl, "Key": KEY,
                                 "ConditionExpression": "attribute_exists(pk)",
                                 "ExpressionAttributeValues": {":v": {"S": "x"}}}}
    refused("Value provided in ExpressionAttributeValues unused in expressions: keys: {:v}",
            dynamodb.transact_write_items, TransactItems=[missing, unused])


def test_partiql_batches_and_transactions_refuse_a_select_testing_existence(dynamodb, tbl):
    statement = "SELECT * FROM \"{}\" WHERE pk = 'order' AND attribute_exists(ss)".format(tbl)
    refused("Validation failed in TransactStatements[0]: Select statements within "
            "ExecuteTransaction must specify the primary key in the where clause.",
            dynamodb.execute_transaction, TransactStatements=[{"Statement": statement}])
    answer = dynamodb.batch_execute_statement(Statements=[{"Statement": statement}])
    assert answer["Responses"][0]["Error"] == {
        "Code": "ValidationError",
        "Message": "Select statements within BatchExecuteStatement must specify the primary key "
                   "in the where clause."}
    # Without the test it is a key read.
    plain = "SELECT * FROM \"{}\" WHERE pk = 'order'".format(tbl)
    assert "Error" not in dynamodb.batch_execute_statement(
        Statements=[{"Statement": plain}])["Responses"][0]
