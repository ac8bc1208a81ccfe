"""Writes: a throttled batch finished round by round on the test clock, a
cancelled transaction, and PartiQL (SCENARIOS.md)."""

import pytest

from tables import create_table

MAX_ROUNDS = 100


def test_batch_unprocessed(client, make_client, admin):
    # Frozen before the table exists: its bucket then holds exactly one
    # second's worth, with no burst built up while it was being created.
    admin.freeze_clock()
    name = create_table(client, "batch_unprocessed", BillingMode="PROVISIONED",
                        ProvisionedThroughput={"ReadCapacityUnits": 5, "WriteCapacityUnits": 5})
    # One attempt per call: a throttled answer must reach the test, not be
    # hidden by the SDK's retries.
    once = make_client(retries={"mode": "standard", "total_max_attempts": 1})
    # 25 writes of one unit each against a bucket holding five.
    pending = {name: [{"PutRequest": {"Item": {"pk": {"S": "item-{:02d}".format(n)}}}}
                      for n in range(25)]}
    answer = once.batch_write_item(RequestItems=pending)
    assert answer["UnprocessedItems"], "the first answer processed everything"
    rounds = 1
    pending = answer["UnprocessedItems"]
    while pending and rounds < MAX_ROUNDS:
        admin.advance_clock(1)
        pending = once.batch_write_item(RequestItems=pending)["UnprocessedItems"]
        rounds += 1
    assert not pending, "still unprocessed after {} rounds".format(rounds)
    assert rounds > 1
    stored = client.get_paginator("scan").paginate(TableName=name, ConsistentRead=True)
    assert sorted(i["pk"]["S"] for p in stored for i in p["Items"]) == \
        ["item-{:02d}".format(n) for n in range(25)]


def test_transaction_cancellation(client):
    name = create_table(client, "transaction_cancellation")
    client.put_item(TableName=name, Item={"pk": {"S": "guard"}, "open": {"BOOL": False}})
    with pytest.raises(client.exceptions.TransactionCanceledException) as raised:
        client.transact_write_items(TransactItems=[
            {"Put": {"TableName": name, "Item": {"pk": {"S": "new"}}}},
            {"ConditionCheck": {"TableName": name, "Key": {"pk": {"S": "guard"}},
                                "ConditionExpression": "#o = :yes",
                                "ExpressionAttributeNames": {"#o": "open"},
                                "ExpressionAttributeValues": {":yes": {"BOOL": True}}}},
            {"Update": {"TableName": name, "Key": {"pk": {"S": "counter"}},
                        "UpdateExpression": "ADD hits :one",
                        "ExpressionAttributeValues": {":one": {"N": "1"}}}},
        ])
    reasons = raised.value.response["CancellationReasons"]
    assert [r["Code"] for r in reasons] == ["None", "ConditionalCheckFailed", "None"]
    items = client.scan(TableName=name, ConsistentRead=True)["Items"]
    assert items == [{"pk": {"S": "guard"}, "open": {"BOOL": False}}]


def select(client, name, pk):
    return client.execute_statement(
        Statement='SELECT * FROM "{}" WHERE pk = ?'.format(name), Parameters=[{"S": pk}],
        ConsistentRead=True)["Items"]


def test_partiql(client):
    name = create_table(client, "partiql")
    insert = "INSERT INTO \"{}\" VALUE {{'pk': ?, 'n': ?}}".format(name)
    client.execute_statement(Statement=insert, Parameters=[{"S": "a"}, {"N": "1"}])
    client.execute_statement(Statement=insert, Parameters=[{"S": "b"}, {"N": "2"}])
    assert select(client, name, "a") == [{"pk": {"S": "a"}, "n": {"N": "1"}}]

    update = 'UPDATE "{}" SET n = n + ? WHERE pk = ?'.format(name)
    answer = client.batch_execute_statement(Statements=[
        {"Statement": update, "Parameters": [{"N": "10"}, {"S": "a"}]},
        {"Statement": update, "Parameters": [{"N": "20"}, {"S": "b"}]}])
    assert [r.get("Error") for r in answer["Responses"]] == [None, None]
    assert select(client, name, "a") == [{"pk": {"S": "a"}, "n": {"N": "11"}}]
    assert select(client, name, "b") == [{"pk": {"S": "b"}, "n": {"N": "22"}}]

    client.execute_transaction(TransactStatements=[
        {"Statement": insert, "Parameters": [{"S": "c"}, {"N": "3"}]},
        {"Statement": 'DELETE FROM "{}" WHERE pk = ?'.format(name), "Parameters": [{"S": "b"}]}])
    assert select(client, name, "c") == [{"pk": {"S": "c"}, "n": {"N": "3"}}]
    assert select(client, name, "b") == []

    with pytest.raises(client.exceptions.DuplicateItemException):
        client.execute_statement(Statement=insert, Parameters=[{"S": "a"}, {"N": "9"}])
    assert select(client, name, "a") == [{"pk": {"S": "a"}, "n": {"N": "11"}}]
