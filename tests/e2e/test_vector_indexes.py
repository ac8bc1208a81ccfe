"""Vector indexes on CreateTable, UpdateTable and DescribeTable: their
description, DynamoDB's checks and texts, creation with a backfill and
deletion, refusal by Query, Scan and PartiQL, and persistence across a
restart."""

import json
import subprocess

import pytest

from .e2e_util import client_for, exact, expect_error, unique_name
from .server_util import server_binary
from .vector_util import (create_vector_table, describe_vector_indexes, hits, put, search, vec,
                          vector_index)

INVALID = "One or more parameter values were invalid: "


def test_create_table_describes_vector_indexes(server_url):
    index = vector_index("emb", "embedding", 4, "DOT_PRODUCT",
                         {"ProjectionType": "INCLUDE", "NonKeyAttributes": ["title"]},
                         [("tenant", "HASH"), ("lang", "INLINE_FILTER")])
    table, created = create_vector_table(server_url, [index],
                                         definitions=[("tenant", "S"), ("lang", "S")])
    described = created["TableDescription"]["VectorIndexes"]
    assert described == describe_vector_indexes(server_url, table)
    arn = created["TableDescription"]["TableArn"]
    assert described == [{
        "IndexName": "emb",
        "VectorAttribute": {"AttributeName": "embedding"},
        "Dimensions": 4,
        "DistanceFunction": "DOT_PRODUCT",
        "SearchSchema": [{"AttributeName": "tenant", "SearchSchemaElementType": "HASH"},
                         {"AttributeName": "lang", "SearchSchemaElementType": "INLINE_FILTER"}],
        "Projection": {"ProjectionType": "INCLUDE", "NonKeyAttributes": ["title"]},
        "IndexStatus": "ACTIVE",
        "IndexSizeBytes": 0,
        "ItemCount": 0,
        "IndexArn": arn + "/index/emb",
    }]
    put(server_url, table, "p", None, embedding={"L": [{"N": "1"}] * 4}, tenant={"S": "t"})
    counted = describe_vector_indexes(server_url, table)[0]
    assert counted["ItemCount"] == 1 and counted["IndexSizeBytes"] > 16


@pytest.mark.parametrize("change, message, code", [
    (lambda r: r.update(BillingMode="PROVISIONED",
                        ProvisionedThroughput={"ReadCapacityUnits": 1, "WriteCapacityUnits": 1}),
     INVALID + "Vector indexes are only supported for PAY_PER_REQUEST tables", "ValidationException"),
    (lambda r: r["VectorIndexes"].extend(vector_index("ix{}".format(i)) for i in range(5)),
     INVALID + "VectorIndex count exceeds the per-table limit of 5", "ValidationException"),
    (lambda r: r["VectorIndexes"][0].update(SearchSchema=[
        {"AttributeName": "undeclared", "SearchSchemaElementType": "HASH"}]),
     INVALID + "One element in SearchSchema is not defined in attribute definitions",
     "ValidationException"),
    (lambda r: r["AttributeDefinitions"].append({"AttributeName": "v", "AttributeType": "S"}),
     INVALID + "Conflicting attribute definition for 'v'. An attribute cannot be defined in "
     "AttributeDefinitions when used as a VectorAttribute.", "ValidationException"),
    (lambda r: r["VectorIndexes"][0].update(DistanceFunction="MANHATTAN"),
     "1 validation error detected: Value 'MANHATTAN' at 'vectorIndexes.1.member.distanceFunction' "
     "failed to satisfy constraint: Member must satisfy enum value set: [DOT_PRODUCT, COSINE, "
     "EUCLIDEAN]", "ValidationException"),
    (lambda r: r["VectorIndexes"][0].update(Dimensions=4097),
     INVALID + "Number of dimensions must be between 1 and 4096 inclusive.", "ValidationException"),
    (lambda r: r["VectorIndexes"][0].update(Dimensions=0),
     "1 validation error detected: Value '0' at 'vectorIndexes.1.member.dimensions' failed to "
     "satisfy constraint: Member must have value greater than or equal to 1",
     "ValidationException"),
    (lambda r: r["VectorIndexes"].append(vector_index("vix2", dimensions=5)),
     INVALID + "Conflicting attribute definition for 'v'. All VectorIndexes on the same vector "
     "attribute must use the same dimensions.", "ValidationException"),
    (lambda r: r["VectorIndexes"].append(vector_index()),
     INVALID + "Duplicate index name: vix", "ValidationException"),
])
def test_create_table_checks(server_url, change, message, code):
    request = {
        "TableName": unique_name("vecbad"), "BillingMode": "PAY_PER_REQUEST",
        "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}],
        "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}],
        "VectorIndexes": [vector_index()],
    }
    change(request)
    with expect_error(code, exact(message)):
        client_for(server_url).create_table(**request)


def test_update_table_creates_with_backfill_and_deletes(server_url):
    table, _ = create_vector_table(server_url, [vector_index("first")])
    put(server_url, table, "a", [1, 0, 0], tenant={"S": "x"})
    put(server_url, table, "b", [0, 1, 0], tenant={"S": "y"})
    put(server_url, table, "c", None, w=vec([0, 1]), tenant={"S": "y"})
    put(server_url, table, "d", None, w=vec([0, 1]))  # no HASH value: stays out
    answer = client_for(server_url).update_table(
        TableName=table, AttributeDefinitions=[{"AttributeName": "tenant", "AttributeType": "S"}],
        VectorIndexUpdates=[{"Create": vector_index(
            "second", "w", 2, "EUCLIDEAN", search_schema=[("tenant", "HASH")])}])
    description = answer["TableDescription"]
    assert description["TableStatus"] == "UPDATING"
    created = [i for i in description["VectorIndexes"] if i["IndexName"] == "second"][0]
    assert created["IndexStatus"] == "CREATING" and created["Backfilling"] is False
    indexes = {i["IndexName"]: i for i in describe_vector_indexes(server_url, table)}
    assert indexes["second"]["IndexStatus"] == "ACTIVE" and "Backfilling" not in indexes["second"]
    assert indexes["second"]["ItemCount"] == 1
    assert hits(search(server_url, table, [0, 1], index="second", condition="tenant = :t",
                       values={":t": {"S": "y"}})) == [("c", 0.0)]
    # The search schema's attribute joined the table's definitions.
    defined = client_for(server_url).describe_table(TableName=table)["Table"]["AttributeDefinitions"]
    assert {"AttributeName": "tenant", "AttributeType": "S"} in defined

    with expect_error("ValidationException", exact("Attempting to create an index which already exists")):
        client_for(server_url).update_table(TableName=table, VectorIndexUpdates=[
            {"Create": vector_index("first")}])
    with expect_error("LimitExceededException", exact(
            "Subscriber limit exceeded: Only 1 online index can be created or deleted "
            "simultaneously per table")):
        client_for(server_url).update_table(TableName=table, VectorIndexUpdates=[
            {"Create": vector_index("third")}, {"Delete": {"IndexName": "first"}}])
    with expect_error("ResourceNotFoundException", exact(
            "Requested resource not found: Index: nope not found")):
        client_for(server_url).update_table(TableName=table, VectorIndexUpdates=[
            {"Delete": {"IndexName": "nope"}}])
    with expect_error("ValidationException", exact(
            INVALID + "Vector indexes are only supported for PAY_PER_REQUEST tables")):
        client_for(server_url).update_table(
            TableName=table, BillingMode="PROVISIONED",
            ProvisionedThroughput={"ReadCapacityUnits": 1, "WriteCapacityUnits": 1})

    client_for(server_url).update_table(TableName=table, VectorIndexUpdates=[
        {"Delete": {"IndexName": "second"}}])
    assert [i["IndexName"] for i in describe_vector_indexes(server_url, table)] == ["first"]
    defined = client_for(server_url).describe_table(TableName=table)["Table"]["AttributeDefinitions"]
    assert defined == [{"AttributeName": "pk", "AttributeType": "S"}]
    with expect_error("ValidationException", exact("The table does not have the specified index: second")):
        search(server_url, table, [0, 1], index="second")
    assert [pk for pk, _ in hits(search(server_url, table, [1, 0, 0], index="first"))] == ["a", "b"]


def test_update_table_limit_of_five(server_url):
    table, _ = create_vector_table(server_url, [vector_index("ix{}".format(i)) for i in range(5)])
    with expect_error("LimitExceededException", exact(
            "Subscriber limit exceeded: Number of vector secondary indexes exceeds per-table "
            "limit of 5")):
        client_for(server_url).update_table(TableName=table, VectorIndexUpdates=[
            {"Create": vector_index("ix5")}])


def test_query_scan_and_partiql_refuse_a_vector_index(server_url):
    table, _ = create_vector_table(server_url, [vector_index()])
    with expect_error("ValidationException", exact("Query operation not supported on this index type.")):
        client_for(server_url).query(TableName=table, IndexName="vix",
                                     KeyConditionExpression="pk = :p",
                                     ExpressionAttributeValues={":p": {"S": "a"}})
    with expect_error("ValidationException", exact("Scan operation not supported on this index type")):
        client_for(server_url).scan(TableName=table, IndexName="vix")
    with expect_error("ValidationException", exact("Scan operation not supported on this index type")):
        client_for(server_url).execute_statement(Statement='SELECT * FROM "{}"."vix"'.format(table))


def test_vector_indexes_survive_a_restart(start_server, tmp_path):
    with start_server("--data-dir", str(tmp_path)) as srv:
        table, _ = create_vector_table(srv.url, [vector_index(distance="EUCLIDEAN")])
        for i in range(50):
            put(srv.url, table, "k{:02d}".format(i), [i, 0, 0])
        client_for(srv.url).delete_item(TableName=table, Key={"pk": {"S": "k10"}})
        before = hits(search(srv.url, table, [10, 0, 0], top_k=5))
        described = describe_vector_indexes(srv.url, table)
    with start_server("--data-dir", str(tmp_path)) as srv:
        assert describe_vector_indexes(srv.url, table) == described
        assert hits(search(srv.url, table, [10, 0, 0], top_k=5)) == before
        assert [pk for pk, _ in before] == ["k09", "k11", "k08", "k12", "k07"]


def test_dump_models_and_import_keep_vector_indexes(start_server, tmp_path):
    # dump-models writes the vector index into the table's CreateTable
    # request; importing that model rebuilds an index that searches the same.
    data = tmp_path / "data"
    index = vector_index(distance="DOT_PRODUCT", search_schema=[("tenant", "HASH")])
    with start_server("--data-dir", str(data)) as srv:
        table, _ = create_vector_table(srv.url, [index], definitions=[("tenant", "S")])
        for i in range(5):
            put(srv.url, table, "k{}".format(i), [i, 1, 0], tenant={"S": "t"})
        before = hits(search(srv.url, table, [1, 0, 0], condition="tenant = :t",
                             values={":t": {"S": "t"}}))
    binary = [str(server_binary())]
    subprocess.run(binary + ["dump-models", "--data-dir", str(data), "--out", str(tmp_path / "m"),
                             "--items"], check=True, stdout=subprocess.DEVNULL, timeout=120)
    request = json.loads((tmp_path / "m" / "tables" / (table + ".json")).read_text())
    assert request["VectorIndexes"] == [index]
    fresh = tmp_path / "fresh"
    subprocess.run(binary + ["import", "--data-dir", str(fresh), "--create-table",
                             str(tmp_path / "m" / "tables" / (table + ".json")),
                             str(tmp_path / "m" / "items" / (table + ".jsonl"))],
                   check=True, stdout=subprocess.DEVNULL, timeout=120)
    with start_server("--data-dir", str(fresh)) as srv:
        assert hits(search(srv.url, table, [1, 0, 0], condition="tenant = :t",
                           values={":t": {"S": "t"}})) == before
        assert [pk for pk, _ in before] == ["k4", "k3", "k2", "k1", "k0"]
