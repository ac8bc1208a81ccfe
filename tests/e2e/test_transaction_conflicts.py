"""--transaction-hold-ms: transaction conflicts a test can provoke.

A server started with a hold keeps a transaction's items claimed that long
before committing; requests that meet a claimed item get DynamoDB's
transaction conflicts, which is what retry logic has to handle."""

import threading
import time

import pytest

from .e2e_util import EXTERNAL_URL, exact, expect_error, wait_active
from .server_util import run_server

HOLD_MS = 2000
ONGOING = "Transaction is ongoing for the item"

pytestmark = pytest.mark.skipif(bool(EXTERNAL_URL), reason="starts its own server")


@pytest.fixture(scope="module")
def held():
    """(client, table) on a server holding transactions for HOLD_MS."""
    with run_server("--in-memory", "--transaction-hold-ms", str(HOLD_MS)) as server:
        client = server.client()
        client.create_table(
            TableName="held", BillingMode="PAY_PER_REQUEST",
            KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}],
            AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"}])
        wait_active(client, "held")
        yield client, "held"


def key(pk):
    return {"pk": {"S": pk}}


def start_transaction(client, table, pk):
    """Runs a transaction adding 1 to n of `pk` in the background; returns
    the thread and a list that receives its outcome."""
    outcome = []

    def run():
        try:
            client.transact_write_items(TransactItems=[{"Update": {
                "TableName": table, "Key": key(pk), "UpdateExpression": "ADD n :one",
                "ExpressionAttributeValues": {":one": {"N": "1"}}}}])
            outcome.append("committed")
        except Exception as error:  # reported by the test
            outcome.append(error)

    thread = threading.Thread(target=run)
    thread.start()
    wait_until_held(client, table, pk)
    return thread, outcome


def wait_until_held(client, table, pk):
    """Returns once the item is claimed, probing with a conditional put that
    cannot succeed: it fails its condition until the claim makes it conflict."""
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        try:
            client.put_item(TableName=table, Item=key(pk),
                            ConditionExpression="attribute_exists(never)")
        except client.exceptions.TransactionConflictException:
            return
        except client.exceptions.ConditionalCheckFailedException:
            time.sleep(0.01)
    pytest.fail("the transaction on {} never held its item".format(pk))


def test_single_write_on_a_held_item_conflicts(held):
    client, table = held
    thread, outcome = start_transaction(client, table, "a")
    with expect_error("TransactionConflictException", exact(ONGOING)):
        client.put_item(TableName=table, Item=key("a"))
    client.put_item(TableName=table, Item=key("other"))  # other items are free
    thread.join()
    assert outcome == ["committed"]
    item = client.get_item(TableName=table, Key=key("a"), ConsistentRead=True)["Item"]
    assert item["n"] == {"N": "1"}  # the conflicting put did not land


def test_second_transaction_is_cancelled_with_transaction_conflict(held):
    client, table = held
    thread, outcome = start_transaction(client, table, "b")
    with pytest.raises(client.exceptions.TransactionCanceledException) as raised:
        client.transact_write_items(TransactItems=[
            {"Put": {"TableName": table, "Item": key("free")}},
            {"Update": {"TableName": table, "Key": key("b"), "UpdateExpression": "SET x = :x",
                        "ExpressionAttributeValues": {":x": {"S": "y"}}}}])
    reasons = raised.value.response["CancellationReasons"]
    assert reasons == [{"Code": "None"}, {"Code": "TransactionConflict", "Message": ONGOING}]
    thread.join()
    assert outcome == ["committed"]
    assert "Item" not in client.get_item(TableName=table, Key=key("free"), ConsistentRead=True)


def test_batch_write_returns_the_held_item_unprocessed(held):
    client, table = held
    thread, outcome = start_transaction(client, table, "c")
    result = client.batch_write_item(RequestItems={table: [
        {"PutRequest": {"Item": {"pk": {"S": "c"}, "v": {"S": "batch"}}}},
        {"PutRequest": {"Item": {"pk": {"S": "d"}}}}]})
    assert result["UnprocessedItems"] == {
        table: [{"PutRequest": {"Item": {"pk": {"S": "c"}, "v": {"S": "batch"}}}}]}
    thread.join()
    assert outcome == ["committed"]
    assert "Item" in client.get_item(TableName=table, Key=key("d"), ConsistentRead=True)


def test_transactional_read_of_a_held_item_is_cancelled(held):
    client, table = held
    client.put_item(TableName=table, Item=key("unheld"))
    thread, outcome = start_transaction(client, table, "f")
    with pytest.raises(client.exceptions.TransactionCanceledException) as raised:
        client.transact_get_items(TransactItems=[
            {"Get": {"TableName": table, "Key": key("unheld")}},
            {"Get": {"TableName": table, "Key": key("f")}}])
    assert raised.value.response["CancellationReasons"] == [
        {"Code": "None"}, {"Code": "TransactionConflict", "Message": ONGOING}]
    # A plain read is not blocked: it sees the item as last committed.
    assert "Item" not in client.get_item(TableName=table, Key=key("f"), ConsistentRead=True)
    thread.join()
    assert outcome == ["committed"]
    responses = client.transact_get_items(TransactItems=[
        {"Get": {"TableName": table, "Key": key("f")}}])["Responses"]
    assert responses == [{"Item": {"pk": {"S": "f"}, "n": {"N": "1"}}}]


def test_retry_after_the_hold_succeeds(held):
    client, table = held
    thread, outcome = start_transaction(client, table, "e")
    with expect_error("TransactionConflictException"):
        client.delete_item(TableName=table, Key=key("e"))
    thread.join()
    client.delete_item(TableName=table, Key=key("e"))  # what a retry does
    assert "Item" not in client.get_item(TableName=table, Key=key("e"), ConsistentRead=True)
