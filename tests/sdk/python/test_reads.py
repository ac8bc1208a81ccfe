"""Reads: boto3's own paginators, a parallel scan, and a large answer whose
X-Amz-Crc32 botocore checks (SCENARIOS.md)."""

import zlib
from concurrent.futures import ThreadPoolExecutor
from decimal import Decimal

from boto3.dynamodb.conditions import Key

from tables import create_table


def test_paginators(client, dynamodb):
    table = dynamodb.Table(create_table(client, "paginators", range_key=("sk", "N")))
    with table.batch_writer() as batch:
        for n in range(25):
            batch.put_item(Item={"pk": "one", "sk": Decimal(n)})
    # The resource's client: its paginators take boto3.dynamodb.conditions
    # and give Python values.
    resource_client = dynamodb.meta.client

    pages = list(resource_client.get_paginator("query").paginate(
        TableName=table.name, KeyConditionExpression=Key("pk").eq("one"), Limit=4))
    assert len(pages) == 7
    assert [int(i["sk"]) for p in pages for i in p["Items"]] == list(range(25))
    assert all("LastEvaluatedKey" in p for p in pages[:-1])
    assert "LastEvaluatedKey" not in pages[-1]

    pages = list(resource_client.get_paginator("scan").paginate(TableName=table.name, Limit=7))
    assert [len(p["Items"]) for p in pages] == [7, 7, 7, 4]
    assert sorted(int(i["sk"]) for p in pages for i in p["Items"]) == list(range(25))
    assert "LastEvaluatedKey" not in pages[-1]


def test_parallel_scan(client, dynamodb):
    table = dynamodb.Table(create_table(client, "parallel_scan"))
    with table.batch_writer() as batch:
        for n in range(100):
            batch.put_item(Item={"pk": "item-{:03d}".format(n)})

    def segment(number):
        # boto3 clients are thread-safe (resources are not): one paginator
        # chain per segment over the shared client.
        pages = client.get_paginator("scan").paginate(
            TableName=table.name, Segment=number, TotalSegments=4, Limit=10)
        return [i["pk"]["S"] for p in pages for i in p["Items"]]

    with ThreadPoolExecutor(max_workers=4) as pool:
        segments = list(pool.map(segment, range(4)))
    keys = [k for s in segments for k in s]
    assert len(keys) == len(set(keys)), "the segments overlap"
    assert set(keys) == {"item-{:03d}".format(n) for n in range(100)}


def test_crc32(client, make_client, dynamodb):
    table = dynamodb.Table(create_table(client, "crc32"))
    with table.batch_writer() as batch:
        for n in range(120):
            batch.put_item(Item={"pk": "row-{:03d}".format(n), "pad": "x" * 1000})

    # Standard retry mode runs botocore's DynamoDB CRC32 check
    # (retries/special.py): a body that does not match the header would be
    # retried, so RetryAttempts 0 means the SDK accepted the answer.
    checked = make_client(retries={"mode": "standard", "max_attempts": 3})
    seen = {}

    def identity(request, **_):
        request.headers["Accept-Encoding"] = "identity"  # gzip off

    def keep_raw(http_response, **_):
        seen["header"] = http_response.headers.get("x-amz-crc32")
        seen["body"] = http_response.content

    checked.meta.events.register("before-send.dynamodb.Scan", identity)
    checked.meta.events.register("after-call.dynamodb.Scan", keep_raw)
    answer = checked.scan(TableName=table.name)

    assert answer["Count"] == 120 and "LastEvaluatedKey" not in answer
    assert answer["ResponseMetadata"]["RetryAttempts"] == 0
    assert len(seen["body"]) > 100 * 1024
    assert seen["header"] is not None, "no X-Amz-Crc32 header"
    assert int(seen["header"]) == zlib.crc32(seen["body"]) & 0xFFFFFFFF
