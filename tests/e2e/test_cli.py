"""The AWS CLI (v2) against the server."""

import json

from .e2e_util import TableFactory, unique_name


def test_cli_table_and_item_lifecycle(aws, dynamodb):
    # The AWS CLI can create a table, put an item given as --item JSON, get it back, list tables and delete the table.
    name = unique_name("cli")
    cleanup = TableFactory(dynamodb)
    cleanup.register(name)
    try:
        rc, out = aws("create-table", "--table-name", name,
                      "--attribute-definitions", "AttributeName=pk,AttributeType=S",
                      "--key-schema", "AttributeName=pk,KeyType=HASH",
                      "--billing-mode", "PAY_PER_REQUEST")
        assert rc == 0, out
        assert out["TableDescription"]["TableName"] == name

        rc, out = aws("wait", "table-exists", "--table-name", name)
        assert rc == 0, out

        item = {"pk": {"S": "cli-key"}, "n": {"N": "42"}, "tags": {"SS": ["a", "b"]},
                "m": {"M": {"x": {"BOOL": True}}}}
        rc, out = aws("put-item", "--table-name", name, "--item", json.dumps(item))
        assert rc == 0, out

        rc, out = aws("get-item", "--table-name", name, "--consistent-read",
                      "--key", json.dumps({"pk": {"S": "cli-key"}}))
        assert rc == 0, out
        got = out["Item"]
        assert got["pk"] == {"S": "cli-key"}
        assert got["n"] == {"N": "42"}
        assert sorted(got["tags"]["SS"]) == ["a", "b"]
        assert got["m"] == {"M": {"x": {"BOOL": True}}}

        rc, out = aws("list-tables")
        assert rc == 0, out
        assert name in out["TableNames"]

        rc, out = aws("delete-table", "--table-name", name)
        assert rc == 0, out
        assert out["TableDescription"]["TableName"] == name

        rc, out = aws("wait", "table-not-exists", "--table-name", name)
        assert rc == 0, out
        rc, out = aws("list-tables")
        assert rc == 0, out
        assert name not in out["TableNames"]
    finally:
        cleanup.cleanup()


def test_cli_missing_table_error(aws):
    # A service error makes the CLI exit with code 254 and name the error (ResourceNotFoundException) on stderr.
    rc, err = aws("describe-table", "--table-name", unique_name("missing"))
    assert rc == 254, err
    assert "ResourceNotFoundException" in err
