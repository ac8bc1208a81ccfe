"""The update patterns applications build on UpdateItem, through the boto3
resource API: optimistic locking with a version attribute, counters, set
membership and piecemeal edits of a nested document."""

import pytest
from boto3.dynamodb.conditions import Attr
from botocore.exceptions import ClientError

from .e2e_util import key
from .update_item_util import CCF
from .update_item_util import tbl  # fixtures


def test_optimistic_locking(dynamodb_resource, tbl):
    # Optimistic locking: each writer updates only if the version it read is still current, bumping it; a stale writer fails.
    table = dynamodb_resource.Table(tbl)
    k = key()
    table.put_item(Item={"pk": k, "version": 1, "body": "v1"},
                   ConditionExpression=Attr("pk").not_exists())
    seen = table.get_item(Key={"pk": k}, ConsistentRead=True)["Item"]
    stale = dict(seen)

    def save(doc, body):
        return table.update_item(
            Key={"pk": k}, UpdateExpression="SET body = :b, version = version + :one",
            ConditionExpression=Attr("version").eq(doc["version"]),
            ExpressionAttributeValues={":b": body, ":one": 1}, ReturnValues="ALL_NEW")["Attributes"]

    seen = save(seen, "v2")
    assert seen["version"] == 2 and seen["body"] == "v2"
    with pytest.raises(ClientError) as err:
        save(stale, "lost update")
    assert err.value.response["Error"]["Code"] == CCF
    assert table.get_item(Key={"pk": k}, ConsistentRead=True)["Item"] == {
        "pk": k, "version": 2, "body": "v2"}


def test_counters(dynamodb_resource, tbl):
    # Counters with ADD return their new value through UPDATED_NEW; several counters in one map.
    table = dynamodb_resource.Table(tbl)
    k = key()
    values = [table.update_item(Key={"pk": k}, UpdateExpression="ADD #v :one",
                                ExpressionAttributeNames={"#v": "views"},
                                ExpressionAttributeValues={":one": 1},
                                ReturnValues="UPDATED_NEW")["Attributes"]["views"]
              for _ in range(5)]
    assert values == [1, 2, 3, 4, 5]
    table.update_item(Key={"pk": k}, UpdateExpression="SET stats = if_not_exists(stats, :empty)",
                      ExpressionAttributeValues={":empty": {}})
    for day in ("mon", "tue", "mon"):
        table.update_item(Key={"pk": k}, UpdateExpression="SET stats.#d = if_not_exists(stats.#d, :z) + :one",
                          ExpressionAttributeNames={"#d": day},
                          ExpressionAttributeValues={":z": 0, ":one": 1})
    item = table.get_item(Key={"pk": k}, ConsistentRead=True)["Item"]
    assert item["stats"] == {"mon": 2, "tue": 1}
    # a decrement that must not go below zero
    table.update_item(Key={"pk": k}, UpdateExpression="SET stock = :n", ExpressionAttributeValues={":n": 1})
    table.update_item(Key={"pk": k}, UpdateExpression="SET stock = stock - :one",
                      ConditionExpression=Attr("stock").gte(1), ExpressionAttributeValues={":one": 1})
    with pytest.raises(ClientError) as err:
        table.update_item(Key={"pk": k}, UpdateExpression="SET stock = stock - :one",
                          ConditionExpression=Attr("stock").gte(1), ExpressionAttributeValues={":one": 1})
    assert err.value.response["Error"]["Code"] == CCF
    assert table.get_item(Key={"pk": k}, ConsistentRead=True)["Item"]["stock"] == 0


def test_set_membership(dynamodb_resource, tbl):
    # Tag sets: ADD/DELETE members, conditional add only when not yet a member, removal of the last member drops the attribute.
    table = dynamodb_resource.Table(tbl)
    k = key()
    table.update_item(Key={"pk": k}, UpdateExpression="ADD tags :t", ExpressionAttributeValues={":t": {"red"}})
    table.update_item(Key={"pk": k}, UpdateExpression="ADD tags :t",
                      ConditionExpression=~Attr("tags").contains("blue"),
                      ExpressionAttributeValues={":t": {"blue"}})
    with pytest.raises(ClientError) as err:
        table.update_item(Key={"pk": k}, UpdateExpression="ADD tags :t",
                          ConditionExpression=~Attr("tags").contains("blue"),
                          ExpressionAttributeValues={":t": {"blue"}})
    assert err.value.response["Error"]["Code"] == CCF
    assert table.get_item(Key={"pk": k}, ConsistentRead=True)["Item"]["tags"] == {"red", "blue"}
    resp = table.update_item(Key={"pk": k}, UpdateExpression="DELETE tags :t",
                             ExpressionAttributeValues={":t": {"red"}}, ReturnValues="UPDATED_NEW")
    assert resp["Attributes"] == {"tags": {"blue"}}
    resp = table.update_item(Key={"pk": k}, UpdateExpression="DELETE tags :t",
                             ExpressionAttributeValues={":t": {"blue"}}, ReturnValues="ALL_NEW")
    assert resp["Attributes"] == {"pk": k}


def test_nested_document_updates(dynamodb_resource, tbl):
    # A user profile edited piecemeal: nested fields, a map of preferences, a capped history list, and removal of a nested key.
    table = dynamodb_resource.Table(tbl)
    k = key()
    table.put_item(Item={"pk": k, "profile": {"address": {"city": "Oslo", "zip": "0150"},
                                              "prefs": {}}, "history": []})
    table.update_item(
        Key={"pk": k},
        UpdateExpression="SET profile.address.city = :city, profile.prefs.#lang = :lang, "
                         "history = list_append(history, :event) REMOVE profile.address.zip",
        ExpressionAttributeNames={"#lang": "language"},
        ExpressionAttributeValues={":city": "Bergen", ":lang": "nb", ":event": [{"moved": "Bergen"}]})
    for i in range(4):
        table.update_item(Key={"pk": k},
                          UpdateExpression="SET history = list_append(history, :event)",
                          ExpressionAttributeValues={":event": [{"n": i}]})
    # keep the history to its last 3 entries
    table.update_item(Key={"pk": k}, UpdateExpression="REMOVE history[0], history[1]",
                      ConditionExpression=Attr("history").size().gt(3))
    item = table.get_item(Key={"pk": k}, ConsistentRead=True)["Item"]
    assert item == {"pk": k, "profile": {"address": {"city": "Bergen"}, "prefs": {"language": "nb"}},
                    "history": [{"n": 1}, {"n": 2}, {"n": 3}]}
    got = table.get_item(Key={"pk": k}, ProjectionExpression="profile.address.city, history[2].n",
                         ConsistentRead=True)["Item"]
    assert got == {"profile": {"address": {"city": "Bergen"}}, "history": [{"n": 3}]}
