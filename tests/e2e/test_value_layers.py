"""A bad attribute value is worded by the layer of DynamoDB that checks the
operation (api/value_layers.h), as captured in four regions in October 2026:
PutItem, UpdateItem and DeleteItem in the current layer's words inside the
`1 validation error detected: ` envelope wherever the value sits; GetItem,
BatchGetItem and Query in the same words, bare; BatchWriteItem, the
transactions, Scan and PartiQL in the older layer's words, an expression
value's inside the `ExpressionAttributeValues contains invalid value`
wrapper. Nothing is written in any case."""

import pytest

from .e2e_util import refused

NOT_NUMERIC = "The parameter cannot be converted to a numeric value"
OVERFLOW = ("Number overflow. Attempting to store a number with magnitude larger than supported "
            "range")
UNDERFLOW = ("Number underflow. Attempting to store a number with magnitude smaller than "
             "supported range")
INVALID = "One or more parameter values were invalid: "

# Four number shapes and each layer's answer: the current layer reads an
# exponent that fits 64 bits and keeps ": " after an empty text; the older
# one reads as Java's BigDecimal (1e2147483647 wraps to an underflow).
SHAPES = ["abc", "", "1e126", "1e2147483647"]
CURRENT = [NOT_NUMERIC + ": abc", NOT_NUMERIC + ": ", OVERFLOW, OVERFLOW]
OLDER = [NOT_NUMERIC + ": abc", NOT_NUMERIC, OVERFLOW, UNDERFLOW]

# Sets with a repeated member, not in order.
DUPLICATES = [{"SS": ["b", "a", "b"]}, {"BS": [b"\xff", b"\x00", b"\x00"]}, {"NS": ["2", "1", "2"]}]
DUPLICATES_CURRENT = [INVALID + 'Input collection ["a", "b", "b"] contains duplicates.',
                      INVALID + 'Input collection ["AA==","/w==","AA=="]of type BS contains '
                                "duplicates.",
                      INVALID + "Input collection contains duplicates."]
DUPLICATES_OLDER = [INVALID + "Input collection [b, a, b] contains duplicates.",
                    INVALID + "Input collection [/w==, AA==, AA==]of type BS contains duplicates.",
                    "Input collection contains duplicates"]

# Every bad value with both layers' texts: (value, current, older).
BAD_VALUES = ([({"N": shape}, current, older) for shape, current, older in zip(SHAPES, CURRENT, OLDER)]
              + list(zip(DUPLICATES, DUPLICATES_CURRENT, DUPLICATES_OLDER)))
IDS = ["n-abc", "n-empty", "n-1e126", "n-1e2147483647", "ss-duplicate", "bs-duplicate",
       "ns-duplicate"]


def enveloped(message):
    return "1 validation error detected: " + message


def wrapped(message, key=":v"):
    return "ExpressionAttributeValues contains invalid value: {} for key {}".format(message, key)


@pytest.fixture(scope="module")
def tbl(tables):
    return tables()


KEY = {"pk": {"S": "layers"}}


@pytest.mark.parametrize("text,message", [
    ("1e99999999999", OVERFLOW), ("-1e99999999999", OVERFLOW), ("1e2147483648", OVERFLOW),
    ("1e-99999999999", UNDERFLOW), ("1e-2147483648", UNDERFLOW), ("1e-131", UNDERFLOW),
    ("0e126", OVERFLOW), ("0.0e-130", UNDERFLOW),
    ("1.2.3", NOT_NUMERIC + ": 1.2.3"), (" 1", NOT_NUMERIC + ":  1"), ("1 ", NOT_NUMERIC + ": 1 "),
    ("NaN", NOT_NUMERIC + ": NaN"), ("Infinity", NOT_NUMERIC + ": Infinity"),
    ("1e99999999999999999999", NOT_NUMERIC + ": 1e99999999999999999999"),
    ("1" * 40, "Attempting to store more than 38 significant digits in a Number"),
])
def test_put_item_words_every_malformed_number_in_the_envelope(dynamodb, tbl, text, message):
    refused(enveloped(message), dynamodb.put_item, TableName=tbl, Item={**KEY, "n": {"N": text}})


@pytest.mark.parametrize("value,current,older", BAD_VALUES, ids=IDS)
def test_single_item_writes_envelope_the_current_words_wherever_the_value_sits(
        dynamodb, tbl, value, current, older):
    want = enveloped(current)
    refused(want, dynamodb.put_item, TableName=tbl, Item={**KEY, "v": value})
    refused(want, dynamodb.put_item, TableName=tbl, Item={**KEY, "v": {"M": {"x": {"L": [value]}}}})
    refused(want, dynamodb.put_item, TableName=tbl, Item=KEY,
            ConditionExpression="attribute_not_exists(pk) OR v = :v",
            ExpressionAttributeValues={":v": value})
    refused(want, dynamodb.put_item, TableName=tbl, Item=KEY, Expected={"v": {"Value": value}})
    refused(want, dynamodb.update_item, TableName=tbl, Key=KEY, UpdateExpression="SET v = :v",
            ExpressionAttributeValues={":v": value})
    refused(want, dynamodb.update_item, TableName=tbl, Key=KEY,
            AttributeUpdates={"v": {"Action": "PUT", "Value": value}})
    refused(want, dynamodb.update_item, TableName=tbl, Key={"pk": value},
            UpdateExpression="SET o = :o", ExpressionAttributeValues={":o": {"N": "1"}})
    refused(want, dynamodb.delete_item, TableName=tbl, Key=KEY, ConditionExpression="v = :v",
            ExpressionAttributeValues={":v": value})
    refused(want, dynamodb.delete_item, TableName=tbl, Key={"pk": value})
    assert "Item" not in dynamodb.get_item(TableName=tbl, Key=KEY)


@pytest.mark.parametrize("value,current,older", BAD_VALUES, ids=IDS)
def test_reads_by_key_answer_the_current_words_bare(dynamodb, tbl, value, current, older):
    refused(current, dynamodb.get_item, TableName=tbl, Key={"pk": value})
    refused(current, dynamodb.batch_get_item, RequestItems={tbl: {"Keys": [{"pk": value}]}})
    refused(current, dynamodb.query, TableName=tbl, KeyConditionExpression="pk = :p",
            FilterExpression="v = :v", ExpressionAttributeValues={":p": KEY["pk"], ":v": value})
    refused(current, dynamodb.query, TableName=tbl,
            KeyConditions={"pk": {"ComparisonOperator": "EQ", "AttributeValueList": [KEY["pk"]]}},
            QueryFilter={"v": {"ComparisonOperator": "EQ", "AttributeValueList": [value]}})


@pytest.mark.parametrize("value,current,older", BAD_VALUES, ids=IDS)
def test_batches_transactions_and_scan_answer_the_older_words(dynamodb, tbl, value, current, older):
    refused(older, dynamodb.batch_write_item,
            RequestItems={tbl: [{"PutRequest": {"Item": {**KEY, "v": value}}}]})
    refused(older, dynamodb.transact_write_items,
            TransactItems=[{"Put": {"TableName": tbl, "Item": {**KEY, "v": value}}}])
    refused(wrapped(older), dynamodb.transact_write_items, TransactItems=[
        {"Update": {"TableName": tbl, "Key": KEY, "UpdateExpression": "SET v = :v",
                    "ExpressionAttributeValues": {":v": value}}}])
    refused(wrapped(older, ":t"), dynamodb.transact_write_items, TransactItems=[
        {"ConditionCheck": {"TableName": tbl, "Key": KEY, "ConditionExpression": "v = :t",
                            "ExpressionAttributeValues": {":t": value}}}])
    refused(older, dynamodb.transact_get_items,
            TransactItems=[{"Get": {"TableName": tbl, "Key": {"pk": value}}}])
    refused(wrapped(older), dynamodb.scan, TableName=tbl, FilterExpression="v = :v",
            ExpressionAttributeValues={":v": value})
    assert "Item" not in dynamodb.get_item(TableName=tbl, Key=KEY)


@pytest.mark.parametrize("shape,older", list(zip(SHAPES, OLDER)), ids=IDS[:4])
def test_partiql_parameters_are_read_in_the_older_layer(dynamodb, tbl, shape, older):
    refused(older, dynamodb.execute_statement,
            Statement="INSERT INTO \"{}\" VALUE {{'pk': 'layers', 'v': ?}}".format(tbl),
            Parameters=[{"N": shape}])
