"""The vector capacity units, in DynamoDB's shapes (captured 2026-08 and
2026-10): SearchVectors reports {VectorSearchRequestBytes} alone; a write
under INDEXES adds VectorIndexes with each changed index's
VectorWriteRequestBytes (the entry's size, its vector counted as its name
plus 4 bytes per dimension, at least 1024), never under TOTAL and never for
a write that changes nothing the index holds; the table's write units count
a vector at 4 bytes per dimension, while reads and the 400 KB limit count
its numbers."""

import pytest

from .e2e_util import client_for, expect_error
from .vector_util import create_vector_table, search, vec, vector_index

WIDE = "12345678901234567890123456789012345678"  # 20 bytes as a number, 4 as a dimension
MAX_ITEM = 400 * 1024


@pytest.fixture(scope="module")
def table(server_url):
    name, _ = create_vector_table(server_url, [
        vector_index("vix", "embedding", 3),
        vector_index("vkeys", "embedding", 3, projection={"ProjectionType": "KEYS_ONLY"}),
        vector_index("vdims", "sixdimvec", 6),
        vector_index("vname", "embeddingWithALongerName", 3)])
    return name


def put(url, table, item, mode="INDEXES"):
    answer = client_for(url).put_item(TableName=table, Item=item, ReturnConsumedCapacity=mode)
    return answer["ConsumedCapacity"]


def vector_bytes(url, table, item):
    return {name: entry["VectorWriteRequestBytes"]
            for name, entry in put(url, table, item).get("VectorIndexes", {}).items()}


def test_search_reports_only_vector_search_request_bytes(server_url, table):
    put(server_url, table, {"pk": {"S": "seed"}, "embedding": vec([1, 0, 0])})
    total = search(server_url, table, [1, 0, 0], top_k=1, ReturnConsumedCapacity="TOTAL")
    indexes = search(server_url, table, [1, 0, 0], top_k=1, ReturnConsumedCapacity="INDEXES")
    assert set(total["ConsumedCapacity"]) == {"VectorSearchRequestBytes"}
    assert total["ConsumedCapacity"]["VectorSearchRequestBytes"] > 0
    assert indexes["ConsumedCapacity"] == total["ConsumedCapacity"]
    none = search(server_url, table, [1, 0, 0], top_k=1, ReturnConsumedCapacity="NONE")
    assert "ConsumedCapacity" not in none


def test_a_write_reports_vector_indexes_under_indexes_only(server_url, table):
    capacity = put(server_url, table, {"pk": {"S": "fresh"}, "embedding": vec([0, 1, 0])})
    assert capacity["CapacityUnits"] == 1 and capacity["Table"] == {"CapacityUnits": 1}
    assert capacity["VectorIndexes"] == {"vix": {"VectorWriteRequestBytes": 1024},
                                         "vkeys": {"VectorWriteRequestBytes": 1024}}
    total = put(server_url, table, {"pk": {"S": "total"}, "embedding": vec([0, 0, 1])}, "TOTAL")
    assert total == {"TableName": table, "CapacityUnits": 1}
    assert "VectorIndexes" not in put(server_url, table, {"pk": {"S": "plain"}, "x": {"S": "y"}})


def test_only_a_change_to_what_an_index_holds_is_a_vector_write(server_url, table):
    item = {"pk": {"S": "same"}, "embedding": vec([0.5, 0.5, 0])}
    assert set(vector_bytes(server_url, table, item)) == {"vix", "vkeys"}
    assert vector_bytes(server_url, table, item) == {}  # identical overwrite
    assert set(vector_bytes(server_url, table, {**item, "note": {"S": "n"}})) == {"vix"}


def test_vector_write_request_bytes_term_by_term(server_url, table):
    blob = {"blob": {"S": "x" * 1500}}
    # Keys of one length, so the entries differ by the term under test only.
    three = vector_bytes(server_url, table, {"pk": {"S": "3a"}, "embedding": vec([1, 0, 0]), **blob})
    assert three["vkeys"] == 1024  # the floor holds per index
    entry = len("pk") + len("3a") + len("embedding") + 4 * 3 + len("blob") + 1500
    assert three["vix"] == entry
    six = vector_bytes(server_url, table, {"pk": {"S": "6a"}, "sixdimvec": vec([1, 0, 0, 0, 1, 0]),
                                           **blob})
    assert six["vdims"] - three["vix"] == 4 * 3
    named = vector_bytes(server_url, table, {"pk": {"S": "na"},
                                             "embeddingWithALongerName": vec([1, 0, 0]), **blob})
    assert named["vname"] - three["vix"] == len("embeddingWithALongerName") - len("embedding")
    noted = vector_bytes(server_url, table, {"pk": {"S": "nb"}, "embedding": vec([1, 0, 0]),
                                             "note": {"S": "n"}, **blob})
    assert noted["vix"] - three["vix"] == len("note") + 1


def item_of(size, key, vector_size, dims=6):
    """An item of `size` bytes when its six-dimension vector counts `vector_size`."""
    fixed = len("pk") + len(key) + len("sixdimvec") + vector_size + len("pad")
    return {"pk": {"S": key}, "sixdimvec": {"L": [{"N": WIDE}] * dims},
            "pad": {"S": "p" * (size - fixed)}}


STORED_VECTOR = 3 + 6 * (1 + 20)  # a list of six 38-digit numbers


def test_writes_bill_a_vector_at_four_bytes_per_dimension(server_url, table):
    assert put(server_url, table, item_of(1024, "a6", 4 * 6), "TOTAL")["CapacityUnits"] == 1
    assert put(server_url, table, item_of(1025, "b6", 4 * 6), "TOTAL")["CapacityUnits"] == 2


def test_reads_and_the_item_limit_count_the_vectors_numbers(server_url, table):
    item = item_of(4096, "r6", 4 * 6)
    client_for(server_url).put_item(TableName=table, Item=item)
    read = client_for(server_url).get_item(TableName=table, Key={"pk": item["pk"]},
                                           ConsistentRead=True, ReturnConsumedCapacity="TOTAL")
    assert read["ConsumedCapacity"]["CapacityUnits"] == 2
    client_for(server_url).put_item(TableName=table, Item=item_of(MAX_ITEM, "g0", STORED_VECTOR))
    with expect_error("ValidationException", "^Item size has exceeded the maximum allowed size$"):
        client_for(server_url).put_item(TableName=table,
                                        Item=item_of(MAX_ITEM + 1, "g1", STORED_VECTOR))
