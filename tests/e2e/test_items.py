"""Single-item operations: PutItem, GetItem, DeleteItem, attribute types,
number handling and item validation."""

from decimal import Decimal

import pytest
from boto3.dynamodb.types import Binary

from .e2e_util import expect_error, unique_name

MAX_ITEM_BYTES = 400 * 1024


@pytest.fixture(scope="module")
def hash_table(tables):
    """Table with hash key pk (S)."""
    return tables(prefix="items")


@pytest.fixture(scope="module")
def range_table(tables):
    """Table with hash key pk (S) and range key sk (N)."""
    return tables(range_key=("sk", "N"), prefix="items-r")


def key():
    return unique_name("k")


def get(dynamodb, table, k, **kwargs):
    return dynamodb.get_item(TableName=table, Key={"pk": {"S": k}}, **kwargs)


def put_number(dynamodb, table, text):
    k = key()
    dynamodb.put_item(TableName=table, Item={"pk": {"S": k}, "n": {"N": text}})
    return get(dynamodb, table, k, ConsistentRead=True)["Item"]["n"]["N"]


def test_all_attribute_types_round_trip(dynamodb, hash_table):
    # PutItem/GetItem preserve all ten attribute types: S, N, B, BOOL, NULL, M, L, SS, NS, BS (sets compare as sets).
    k = key()
    item = {
        "pk": {"S": k},
        "s": {"S": "hello \u00e9\u4e16"},
        "n": {"N": "42"},
        "b": {"B": b"\x00\x01binary\xff"},
        "t": {"BOOL": True},
        "f": {"BOOL": False},
        "z": {"NULL": True},
        "m": {"M": {"inner": {"S": "x"}, "num": {"N": "7"},
                    "deep": {"M": {"list": {"L": [{"BOOL": False}]}}}}},
        "l": {"L": [{"S": "a"}, {"N": "1"}, {"NULL": True}, {"L": []}, {"M": {}}]},
        "ss": {"SS": ["x", "y", "z"]},
        "ns": {"NS": ["1", "2.5", "-3"]},
        "bs": {"BS": [b"\x01", b"\x02\x03"]},
    }
    dynamodb.put_item(TableName=hash_table, Item=item)
    got = get(dynamodb, hash_table, k, ConsistentRead=True)["Item"]
    assert set(got) == set(item)
    for name in ("pk", "s", "n", "b", "t", "f", "z", "m", "l"):
        assert got[name] == item[name], name
    assert set(got["ss"]["SS"]) == {"x", "y", "z"}
    assert set(got["ns"]["NS"]) == {"1", "2.5", "-3"}
    assert set(got["bs"]["BS"]) == {b"\x01", b"\x02\x03"}
    assert len(got["ss"]["SS"]) == 3 and len(got["ns"]["NS"]) == 3 and len(got["bs"]["BS"]) == 2


@pytest.mark.parametrize("given,expected", [
    ("1.50", "1.5"),
    ("1e3", "1000"),
    ("-0", "0"),
    ("1.5E2", "150"),
    ("00042", "42"),
    ("-1.0", "-1"),
    ("0.10", "0.1"),
])
def test_numbers_come_back_canonical(dynamodb, hash_table, given, expected):
    # Numbers are stored by value and returned in canonical form (no trailing zeros, no exponent, no leading zeros, no negative zero).
    assert put_number(dynamodb, hash_table, given) == expected


def test_number_with_38_significant_digits_allowed(dynamodb, hash_table):
    # A number may have up to 38 significant digits and is returned exactly.
    for text in ("12345678901234567890123456789012345678",
                 "-1234567890123456789.0123456789012345678"):
        assert put_number(dynamodb, hash_table, text) == text


def test_number_magnitude_limits_allowed(dynamodb, hash_table):
    # The largest (9.99..E+125) and smallest (1E-130) magnitudes DynamoDB documents are accepted.
    for text in ("9.9999999999999999999999999999999999999E+125", "1E-130",
                 "-9.9999999999999999999999999999999999999E+125", "-1E-130"):
        k = key()
        dynamodb.put_item(TableName=hash_table, Item={"pk": {"S": k}, "n": {"N": text}})
        got = get(dynamodb, hash_table, k, ConsistentRead=True)["Item"]["n"]["N"]
        assert Decimal(got) == Decimal(text)


def test_number_with_39_significant_digits_rejected(dynamodb, hash_table):
    # More than 38 significant digits is a ValidationException.
    with expect_error("ValidationException", "significant digits"):
        dynamodb.put_item(TableName=hash_table, Item={
            "pk": {"S": key()}, "n": {"N": "123456789012345678901234567890123456789"}})


def test_number_overflow_rejected(dynamodb, hash_table):
    # A magnitude above 9.99..E+125 (e.g. 1E+126) is rejected as a number overflow.
    with expect_error("ValidationException", "overflow"):
        dynamodb.put_item(TableName=hash_table, Item={"pk": {"S": key()}, "n": {"N": "1E+126"}})


def test_number_underflow_rejected(dynamodb, hash_table):
    # A non-zero magnitude below 1E-130 (e.g. 1E-131) is rejected as a number underflow.
    with expect_error("ValidationException", "underflow"):
        dynamodb.put_item(TableName=hash_table, Item={"pk": {"S": key()}, "n": {"N": "1E-131"}})


def test_get_missing_item_has_no_item_key(dynamodb, hash_table):
    # GetItem of a key that has no item succeeds and the response has no 'Item' element.
    resp = get(dynamodb, hash_table, key())
    assert "Item" not in resp


@pytest.mark.parametrize("consistent", [True, False])
def test_consistent_read_accepted(dynamodb, hash_table, consistent):
    # GetItem accepts ConsistentRead true and false and returns the item.
    k = key()
    dynamodb.put_item(TableName=hash_table, Item={"pk": {"S": k}, "v": {"S": "x"}})
    resp = get(dynamodb, hash_table, k, ConsistentRead=consistent)
    assert resp["Item"] == {"pk": {"S": k}, "v": {"S": "x"}}


def test_put_replaces_whole_item(dynamodb, range_table):
    # PutItem on an existing key replaces the entire item; old attributes do not survive.
    k = key()
    ident = {"pk": {"S": k}, "sk": {"N": "1"}}
    dynamodb.put_item(TableName=range_table, Item=dict(ident, a={"S": "1"}, b={"S": "2"}))
    dynamodb.put_item(TableName=range_table, Item=dict(ident, c={"S": "3"}))
    got = dynamodb.get_item(TableName=range_table, Key=ident, ConsistentRead=True)["Item"]
    assert got == dict(ident, c={"S": "3"})


def test_hash_range_items_are_distinct(dynamodb, range_table):
    # In a hash+range table, items with the same hash key but different range keys are separate items.
    k = key()
    for sk in ("1", "2"):
        dynamodb.put_item(TableName=range_table,
                          Item={"pk": {"S": k}, "sk": {"N": sk}, "v": {"S": "v" + sk}})
    for sk in ("1", "2"):
        got = dynamodb.get_item(TableName=range_table, Key={"pk": {"S": k}, "sk": {"N": sk}},
                                ConsistentRead=True)["Item"]
        assert got["v"] == {"S": "v" + sk}


def test_put_return_values_all_old(dynamodb, hash_table):
    # PutItem with ReturnValues=ALL_OLD returns the replaced item, and no Attributes when there was none.
    k = key()
    resp = dynamodb.put_item(TableName=hash_table, Item={"pk": {"S": k}, "v": {"N": "1"}},
                             ReturnValues="ALL_OLD")
    assert "Attributes" not in resp
    resp = dynamodb.put_item(TableName=hash_table, Item={"pk": {"S": k}, "w": {"N": "2"}},
                             ReturnValues="ALL_OLD")
    assert resp["Attributes"] == {"pk": {"S": k}, "v": {"N": "1"}}


def test_delete_return_values_all_old(dynamodb, hash_table):
    # DeleteItem with ReturnValues=ALL_OLD returns the deleted item, and no Attributes when there was none.
    k = key()
    dynamodb.put_item(TableName=hash_table, Item={"pk": {"S": k}, "v": {"S": "old"}})
    resp = dynamodb.delete_item(TableName=hash_table, Key={"pk": {"S": k}}, ReturnValues="ALL_OLD")
    assert resp["Attributes"] == {"pk": {"S": k}, "v": {"S": "old"}}
    assert "Item" not in get(dynamodb, hash_table, k, ConsistentRead=True)
    resp = dynamodb.delete_item(TableName=hash_table, Key={"pk": {"S": k}}, ReturnValues="ALL_OLD")
    assert "Attributes" not in resp


def test_put_return_values_all_new_rejected(dynamodb, hash_table):
    # PutItem supports only ReturnValues NONE and ALL_OLD; ALL_NEW is a ValidationException.
    with expect_error("ValidationException", "ReturnValues can only be ALL_OLD or NONE"):
        dynamodb.put_item(TableName=hash_table, Item={"pk": {"S": key()}},
                          ReturnValues="ALL_NEW")


def test_delete_missing_item_is_not_an_error(dynamodb, hash_table):
    # DeleteItem of a key with no item succeeds and returns no Attributes.
    resp = dynamodb.delete_item(TableName=hash_table, Key={"pk": {"S": key()}})
    assert "Attributes" not in resp


def test_put_missing_key_attribute_rejected(dynamodb, range_table):
    # PutItem of an item lacking a key attribute is a ValidationException "Missing the key ...".
    with expect_error("ValidationException", "Missing the key"):
        dynamodb.put_item(TableName=range_table, Item={"pk": {"S": key()}, "v": {"S": "x"}})
    with expect_error("ValidationException", "Missing the key"):
        dynamodb.put_item(TableName=range_table, Item={"sk": {"N": "1"}, "v": {"S": "x"}})


def test_put_wrong_key_type_rejected(dynamodb, range_table):
    # PutItem with a key attribute of the wrong type is a ValidationException "Type mismatch".
    with expect_error("ValidationException", "Type mismatch"):
        dynamodb.put_item(TableName=range_table, Item={"pk": {"N": "1"}, "sk": {"N": "1"}})
    with expect_error("ValidationException", "Type mismatch"):
        dynamodb.put_item(TableName=range_table, Item={"pk": {"S": key()}, "sk": {"S": "1"}})


def test_get_key_with_extra_attribute_rejected(dynamodb, hash_table):
    # GetItem whose Key has a non-key attribute is a ValidationException "The provided key element does not match the schema".
    with expect_error("ValidationException", "The provided key element does not match the schema"):
        dynamodb.get_item(TableName=hash_table, Key={"pk": {"S": key()}, "extra": {"S": "x"}})


def test_get_key_missing_range_rejected(dynamodb, range_table):
    # GetItem on a hash+range table with only the hash key is a ValidationException (key does not match the schema).
    with expect_error("ValidationException", "The provided key element does not match the schema"):
        dynamodb.get_item(TableName=range_table, Key={"pk": {"S": key()}})


def test_empty_string_key_rejected(dynamodb, hash_table):
    # A key attribute may not be an empty string (ValidationException mentioning the empty string value).
    with expect_error("ValidationException", "empty string"):
        dynamodb.put_item(TableName=hash_table, Item={"pk": {"S": ""}, "v": {"S": "x"}})


def test_empty_string_and_binary_in_non_key_attribute_allowed(dynamodb, hash_table):
    # Non-key attributes may hold an empty string or empty binary value, which round-trips.
    k = key()
    item = {"pk": {"S": k}, "es": {"S": ""}, "eb": {"B": b""},
            "nested": {"M": {"e": {"S": ""}}}}
    dynamodb.put_item(TableName=hash_table, Item=item)
    assert get(dynamodb, hash_table, k, ConsistentRead=True)["Item"] == item


@pytest.mark.parametrize("set_type", ["SS", "NS", "BS"])
def test_empty_set_rejected(dynamodb, hash_table, set_type):
    # Sets may not be empty: an empty SS/NS/BS is a ValidationException.
    with expect_error("ValidationException", "empty"):
        dynamodb.put_item(TableName=hash_table, Item={"pk": {"S": key()}, "s": {set_type: []}})


@pytest.mark.parametrize("value", [
    {"SS": ["a", "b", "a"]},
    {"NS": ["1", "2", "1"]},
    {"NS": ["1", "1.0"]},
    {"BS": [b"x", b"x"]},
], ids=["SS", "NS", "NS-equal-values", "BS"])
def test_duplicate_set_members_rejected(dynamodb, hash_table, value):
    # Set members must be distinct (numbers by value: "1" and "1.0" are duplicates): ValidationException "contains duplicates".
    with expect_error("ValidationException", "contains duplicates"):
        dynamodb.put_item(TableName=hash_table, Item={"pk": {"S": key()}, "s": value})


def test_item_over_400kb_rejected(dynamodb, hash_table):
    # Items larger than 400 KB (names + values) are a ValidationException "Item size has exceeded the maximum allowed size".
    with expect_error("ValidationException", "Item size has exceeded the maximum allowed size"):
        dynamodb.put_item(TableName=hash_table, Item={
            "pk": {"S": key()}, "big": {"S": "x" * (MAX_ITEM_BYTES + 1)}})


def test_item_just_under_400kb_allowed(dynamodb, hash_table):
    # An item just under the 400 KB limit is stored and read back intact.
    k = key()
    size = MAX_ITEM_BYTES - len("pk") - len(k) - len("big") - 100
    dynamodb.put_item(TableName=hash_table, Item={"pk": {"S": k}, "big": {"S": "y" * size}})
    got = get(dynamodb, hash_table, k, ConsistentRead=True)["Item"]
    assert got["big"]["S"] == "y" * size


def test_item_operations_on_missing_table(dynamodb):
    # PutItem, GetItem and DeleteItem on a table that does not exist fail with ResourceNotFoundException.
    name = unique_name("missing")
    with expect_error("ResourceNotFoundException"):
        dynamodb.put_item(TableName=name, Item={"pk": {"S": "a"}})
    with expect_error("ResourceNotFoundException"):
        dynamodb.get_item(TableName=name, Key={"pk": {"S": "a"}})
    with expect_error("ResourceNotFoundException"):
        dynamodb.delete_item(TableName=name, Key={"pk": {"S": "a"}})


def test_resource_api_round_trip(dynamodb_resource, hash_table):
    # The boto3 resource API (Table.put_item/get_item/delete_item) round-trips Decimal, str/number/bytes sets, bytes, bool, None, lists and maps.
    tbl = dynamodb_resource.Table(hash_table)
    k = key()
    item = {
        "pk": k,
        "price": Decimal("19.99"),
        "count": 3,
        "tags": {"red", "green"},
        "scores": {Decimal("1"), Decimal("2.5")},
        "blobs": {b"\x00", b"\x01\x02"},
        "raw": b"\xde\xad\xbe\xef",
        "flag": True,
        "nothing": None,
        "list": ["a", Decimal("1"), {"x": "y"}],
        "map": {"nested": {"deep": [True, False]}},
    }
    tbl.put_item(Item=item)
    got = tbl.get_item(Key={"pk": k}, ConsistentRead=True)["Item"]
    assert got == item
    assert isinstance(got["raw"], Binary)
    old = tbl.delete_item(Key={"pk": k}, ReturnValues="ALL_OLD")["Attributes"]
    assert old == item
    assert "Item" not in tbl.get_item(Key={"pk": k}, ConsistentRead=True)
