"""Tag rules: key and value lengths in Unicode characters, the allowed
characters, a tag without a Value, and malformed resource ARNs."""

import pytest

from .e2e_util import exact, expect_error

VE = "ValidationException"


@pytest.fixture(scope="module")
def arn(dynamodb, tables):
    return dynamodb.describe_table(TableName=tables())["Table"]["TableArn"]


def tags_of(dynamodb, arn):
    return {t["Key"]: t["Value"] for t in dynamodb.list_tags_of_resource(ResourceArn=arn)["Tags"]}


def test_lengths_count_characters_not_bytes(dynamodb, arn):
    key = "\u00e9" * 128      # 256 bytes, 128 characters
    value = "\u65e5" * 256    # 768 bytes, 256 characters
    dynamodb.tag_resource(ResourceArn=arn, Tags=[{"Key": key, "Value": value}])
    assert tags_of(dynamodb, arn)[key] == value
    with expect_error(VE, exact("The Tag Key provided is invalid, Key: " + key + "e")):
        dynamodb.tag_resource(ResourceArn=arn, Tags=[{"Key": key + "e", "Value": "v"}])
    with expect_error(VE, exact("The Tag Value provided is invalid, Value: " + value + "x")):
        dynamodb.tag_resource(ResourceArn=arn, Tags=[{"Key": "k", "Value": value + "x"}])


def test_allowed_characters(dynamodb, arn):
    fine = "Az09 +-=._:/@"
    dynamodb.tag_resource(ResourceArn=arn, Tags=[{"Key": fine, "Value": fine}])
    assert tags_of(dynamodb, arn)[fine] == fine
    for bad in ("a*b", "a#b", "a!b", "semi;colon"):
        with expect_error(VE, exact("The Tag Key provided is invalid, Key: " + bad)):
            dynamodb.tag_resource(ResourceArn=arn, Tags=[{"Key": bad, "Value": "v"}])
        with expect_error(VE, exact("The Tag Value provided is invalid, Value: " + bad)):
            dynamodb.tag_resource(ResourceArn=arn, Tags=[{"Key": "k", "Value": bad}])
    # An empty value is a value.
    dynamodb.tag_resource(ResourceArn=arn, Tags=[{"Key": "empty", "Value": ""}])
    assert tags_of(dynamodb, arn)["empty"] == ""


def test_tag_without_value(dynamodb, arn):
    with expect_error(VE, exact("The Tag Value provided is invalid, Value: null")):
        dynamodb.tag_resource(ResourceArn=arn, Tags=[{"Key": "novalue"}])
    assert "novalue" not in tags_of(dynamodb, arn)


def test_malformed_arn(dynamodb):
    with expect_error(VE, exact("One or more parameter values were invalid: ARNs must start with "
                                "'arn:': not-an-arn")):
        dynamodb.tag_resource(ResourceArn="not-an-arn", Tags=[{"Key": "k", "Value": "v"}])
    with expect_error(VE, exact("One or more parameter values were invalid: ARNs must start with "
                                "'arn:': table/x")):
        dynamodb.list_tags_of_resource(ResourceArn="table/x")
