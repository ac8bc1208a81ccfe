"""The validation envelope by operation as DynamoDB answered in August 2026
(AWS-verified by public projects): UpdateItem's expression errors, an empty
ExpressionAttributeValues and unused placeholders enveloped on the
single-item writes and bare elsewhere, Query's Select checks enveloped and
Scan's bare, an empty number set enveloped; the texts kept bare; an
oversized UpdateExpression without its size. docs/compatibility.md says
where these overturn older captures."""

import pytest

from .e2e_util import avs, refused

ENVELOPE = "1 validation error detected: "
OVERLAP = ("Invalid UpdateExpression: Two document paths overlap with each other; must remove "
           "or rewrite one of these paths; path one: {}, path two: {}")
N1 = {"N": "1"}


@pytest.fixture(scope="module")
def tbl(tables):
    return tables()


@pytest.fixture(scope="module")
def rtbl(tables):
    """pk (S) / sk (S), GSI by_g on g (S)."""
    return tables(
        range_key=("sk", "S"),
        AttributeDefinitions=[{"AttributeName": n, "AttributeType": "S"} for n in ("pk", "sk", "g")],
        GlobalSecondaryIndexes=[{"IndexName": "by_g",
                                 "KeySchema": [{"AttributeName": "g", "KeyType": "HASH"}],
                                 "Projection": {"ProjectionType": "KEYS_ONLY"}}])


KEY = {"pk": {"S": "k"}}


def update(dynamodb, tbl, expression, values=None, names=None):
    kwargs = {"ExpressionAttributeValues": values} if values else {}
    if names:
        kwargs["ExpressionAttributeNames"] = names
    return dynamodb.update_item(TableName=tbl, Key=KEY, UpdateExpression=expression, **kwargs)


def test_update_expression_errors_carry_the_envelope(dynamodb, tbl):
    refused(ENVELOPE + "Invalid UpdateExpression: The expression can not be empty;",
            update, dynamodb=dynamodb, tbl=tbl, expression="")
    for section, expression in (("SET", "SET a = :v SET b = :v"),
                                ("ADD", "ADD a :v ADD b :v"),
                                ("REMOVE", "REMOVE a REMOVE b"),
                                ("DELETE", "DELETE a :s DELETE b :s")):
        values = {":v": N1, ":s": {"SS": ["x"]}}
        used = {k: v for k, v in values.items() if k in expression}
        refused(ENVELOPE + 'Invalid UpdateExpression: The "{}" section can only be used once in '
                'an update expression;'.format(section),
                update, dynamodb=dynamodb, tbl=tbl, expression=expression, values=used or None)
    big = "SET a = :v" + " " * 4096
    refused(ENVELOPE + "Invalid UpdateExpression: Expression size has exceeded the maximum "
            "allowed size", update, dynamodb=dynamodb, tbl=tbl, expression=big, values={":v": N1})


@pytest.mark.parametrize("expression,values,names,one,two", [
    ("SET a.b = :v REMOVE a", {":v": N1}, None, "[a, b]", "[a]"),
    ("ADD s :s DELETE s :s", {":s": {"SS": ["x"]}}, None, "[s]", "[s]"),
    ("REMOVE a ADD a :v", {":v": N1}, None, "[a]", "[a]"),
    ("SET a = :v, a = :v", {":v": N1}, None, "[a]", "[a]"),
    ("SET #n.b[1] = :v REMOVE #n", {":v": N1}, {"#n": "x"}, "[x, b, [1]]", "[x]"),
], ids=["set-remove", "add-delete", "remove-add", "set-twice", "names-resolved"])
def test_clashing_clauses_name_both_paths(dynamodb, tbl, expression, values, names, one, two):
    refused(ENVELOPE + OVERLAP.format(one, two), update, dynamodb=dynamodb, tbl=tbl,
            expression=expression, values=values, names=names)


def test_an_empty_values_map_is_enveloped_on_the_single_item_writes(dynamodb, tbl):
    message = "ExpressionAttributeValues must not be empty"
    refused(ENVELOPE + message, dynamodb.put_item, TableName=tbl, Item=KEY,
            ConditionExpression="attribute_not_exists(a)", ExpressionAttributeValues={})
    refused(ENVELOPE + message, dynamodb.update_item, TableName=tbl, Key=KEY,
            UpdateExpression="REMOVE a", ExpressionAttributeValues={})
    refused(ENVELOPE + message, dynamodb.delete_item, TableName=tbl, Key=KEY,
            ConditionExpression="attribute_exists(a)", ExpressionAttributeValues={})
    refused(message, dynamodb.transact_write_items, TransactItems=[{"Update": {
        "TableName": tbl, "Key": KEY, "UpdateExpression": "REMOVE a",
        "ExpressionAttributeValues": {}}}])


def test_unused_placeholders_are_enveloped_on_the_single_item_writes_only(dynamodb, tbl):
    names = "Value provided in ExpressionAttributeNames unused in expressions: keys: {#count}"
    values = "Value provided in ExpressionAttributeValues unused in expressions: keys: {:count}"
    unused_name = {"ExpressionAttributeNames": {"#a": "a", "#count": "c"}}
    unused_value = {"ExpressionAttributeValues": {":v": N1, ":count": N1}}
    refused(ENVELOPE + names, dynamodb.put_item, TableName=tbl, Item=KEY,
            ConditionExpression="attribute_not_exists(#a)", **unused_name)
    refused(ENVELOPE + values, dynamodb.update_item, TableName=tbl, Key=KEY,
            UpdateExpression="SET a = :v", **unused_value)
    refused(ENVELOPE + names, dynamodb.delete_item, TableName=tbl, Key=KEY,
            ConditionExpression="attribute_exists(#a)", **unused_name)
    refused(names, dynamodb.get_item, TableName=tbl, Key=KEY, ProjectionExpression="#a",
            **unused_name)
    refused(names, dynamodb.batch_get_item, RequestItems={tbl: {
        "Keys": [KEY], "ProjectionExpression": "#a", **unused_name}})
    refused(values, dynamodb.query, TableName=tbl, KeyConditionExpression="pk = :v",
            **unused_value)
    refused(values, dynamodb.scan, TableName=tbl, FilterExpression="a = :v", **unused_value)
    refused(values, dynamodb.transact_write_items, TransactItems=[{"Update": {
        "TableName": tbl, "Key": KEY, "UpdateExpression": "SET a = :v", **unused_value}}])


@pytest.mark.parametrize("select,projection,message", [
    ("ALL_PROJECTED_ATTRIBUTES", None,
     "ALL_PROJECTED_ATTRIBUTES can be used only when Querying using an IndexName"),
    ("SPECIFIC_ATTRIBUTES", None, "Must specify the AttributesToGet or ProjectionExpression when "
     "choosing to get SPECIFIC_ATTRIBUTES"),
    ("ALL_ATTRIBUTES", "a", "Cannot specify the ProjectionExpression when choosing to get "
     "ALL_ATTRIBUTES"),
    ("COUNT", "a", "Cannot specify the ProjectionExpression when choosing to get only the Count"),
], ids=["all-projected", "specific", "all", "count"])
def test_select_checks_are_enveloped_on_query_and_bare_on_scan(dynamodb, tbl, select, projection,
                                                               message):
    extra = {"ProjectionExpression": projection} if projection else {}
    refused(ENVELOPE + message, dynamodb.query, TableName=tbl, KeyConditionExpression="pk = :v",
            ExpressionAttributeValues={":v": {"S": "k"}}, Select=select, **extra)
    refused(message, dynamodb.scan, TableName=tbl, Select=select, **extra)


def test_an_empty_number_set_value_is_enveloped_on_the_single_item_writes(dynamodb, tbl):
    message = (ENVELOPE + "One or more parameter values were invalid: An number set  may not be "
               "empty")
    empty = {":e": {"NS": []}}
    refused(message, dynamodb.put_item, TableName=tbl, Item=KEY, ConditionExpression="a <> :e",
            ExpressionAttributeValues=empty)
    refused(message, dynamodb.update_item, TableName=tbl, Key=KEY, UpdateExpression="SET a = :e",
            ExpressionAttributeValues=empty)
    refused(message, dynamodb.delete_item, TableName=tbl, Key=KEY, ConditionExpression="a <> :e",
            ExpressionAttributeValues=empty)


def test_texts_the_captures_keep_bare(dynamodb, tbl, rtbl):
    refused("ReturnValues can only be ALL_OLD or NONE", dynamodb.delete_item, TableName=tbl,
            Key=KEY, ReturnValues="UPDATED_NEW")
    refused("One or more parameter values were invalid: Empty attribute name",
            dynamodb.transact_write_items, TransactItems=[{"Put": {
        "TableName": tbl, "Item": {"pk": {"S": "k"}, "": {"S": "x"}}}}])
    refused('One or more parameter values were invalid: Input collection ["a", "a"] contains '
            'duplicates.', dynamodb.query, TableName=rtbl, KeyConditionExpression="pk = :p",
            ExpressionAttributeValues={":p": {"S": "k"}},
            ExclusiveStartKey={"pk": {"S": "k"}, "sk": {"S": "a"}, "g": {"SS": ["a", "a"]}})


def test_an_lsi_range_key_without_a_definition(dynamodb):
    # The text public suites pin against DynamoDB: the index's keys, then the
    # definitions given.
    refused("One or more parameter values were invalid: Some index key attributes are not "
            "defined in AttributeDefinitions. Keys: [pk, c], AttributeDefinitions: [pk, sk]",
            dynamodb.create_table, TableName="lsi-undefined", BillingMode="PAY_PER_REQUEST",
            KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"},
                       {"AttributeName": "sk", "KeyType": "RANGE"}],
            AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"},
                                  {"AttributeName": "sk", "AttributeType": "S"}],
            LocalSecondaryIndexes=[{"IndexName": "by_c", "Projection": {"ProjectionType": "ALL"},
                                    "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"},
                                                  {"AttributeName": "c", "KeyType": "RANGE"}]}])


def test_a_hash_only_tables_start_key_with_a_range_attribute(dynamodb, tbl):
    message = ("The provided starting key is invalid: The provided key element does not match "
               "the schema")
    start = {"pk": {"S": "k"}, "sk": {"S": "s"}}
    refused(message, dynamodb.scan, TableName=tbl, ExclusiveStartKey=start)
    refused(message, dynamodb.query, TableName=tbl, KeyConditionExpression="pk = :v",
            ExpressionAttributeValues={":v": {"S": "k"}}, ExclusiveStartKey=start)
