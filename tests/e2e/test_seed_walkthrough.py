"""The seed 002 document's AWS CLI walk-through, command for command, against
a freshly started server: create-table Music, scan, put-item, get-item
--consistent-read, update-item, query, update-table adding AlbumTitle-index,
and the query on it. The commands are the document's, with its line breaks
mended and http://localhost:8000 pointing at the test's server; the one
command the document gives without --endpoint-url (a query with the
non-existent --scan-index-name option) is replaced by the document's own
correction that follows it."""

import json
import os
import subprocess

import pytest

from .conftest import _aws_cli_path
from .e2e_util import ACCESS_KEY, REGION, SECRET_KEY
from .server_util import run_server

WALKTHROUGH = [
    """aws dynamodb create-table \\
  --table-name Music \\
  --attribute-definitions \\
    AttributeName=Artist,AttributeType=S \\
    AttributeName=SongTitle,AttributeType=S \\
  --key-schema \\
    AttributeName=Artist,KeyType=HASH \\
    AttributeName=SongTitle,KeyType=RANGE \\
  --provisioned-throughput \\
    ReadCapacityUnits=10,WriteCapacityUnits=5 \\
  --endpoint-url http://localhost:8000""",
    """aws dynamodb scan \\
  --table-name Music \\
  --endpoint-url http://localhost:8000""",
    """aws dynamodb put-item \\
  --table-name Music \\
  --item \\
    '{"Artist": {"S": "No One You Know"}, "SongTitle": {"S": "Call Me Today"}, "AlbumTitle": {"S": "Somewhat Famous"}, "Awards": {"N": "1"}}' \\
  --endpoint-url http://localhost:8000""",
    """aws dynamodb put-item \\
  --table-name Music \\
  --item \\
    '{"Artist": {"S": "Acme Band"}, "SongTitle": {"S": "Happy Day"}, "AlbumTitle": {"S": "Songs About Life"}, "Awards": {"N": "10"} }' \\
  --endpoint-url http://localhost:8000""",
    """aws dynamodb get-item --consistent-read \\
  --table-name Music \\
  --key '{"Artist": {"S": "Acme Band"}, "SongTitle": {"S": "Happy Day"}}' \\
  --endpoint-url http://localhost:8000""",
    """aws dynamodb update-item \\
  --table-name Music \\
  --key '{"Artist": {"S": "Acme Band"}, "SongTitle": {"S": "Happy Day"}}' \\
  --update-expression "SET AlbumTitle = :newval" \\
  --expression-attribute-values '{":newval":{"S":"Updated Album Title"}}' \\
  --return-values ALL_NEW \\
  --endpoint-url http://localhost:8000""",
    """aws dynamodb query \\
  --table-name Music \\
  --key-condition-expression "Artist = :name" \\
  --expression-attribute-values '{":name":{"S":"Acme Band"}}' \\
  --endpoint-url http://localhost:8000""",
    """aws dynamodb update-table \\
  --table-name Music \\
  --attribute-definitions AttributeName=AlbumTitle,AttributeType=S \\
  --global-secondary-index-updates \\
    "[{\\"Create\\":{\\"IndexName\\": \\"AlbumTitle-index\\", \\"KeySchema\\": [{\\"AttributeName\\": \\"AlbumTitle\\", \\"KeyType\\": \\"HASH\\"}], \\
    \\"ProvisionedThroughput\\": {\\"ReadCapacityUnits\\": 10, \\"WriteCapacityUnits\\": 5 }, \\"Projection\\": {\\"ProjectionType\\": \\"ALL\\"}}}]" \\
  --endpoint-url http://localhost:8000""",
    """aws dynamodb query \\
  --table-name Music \\
  --index-name AlbumTitle-index \\
  --key-condition-expression "AlbumTitle = :name" \\
  --expression-attribute-values '{":name":{"S":"Somewhat Famous"}}' \\
  --endpoint-url http://localhost:8000""",
]


def test_the_music_walkthrough_runs_verbatim(tmp_path):
    cli = _aws_cli_path()
    if not cli:
        pytest.fail("the AWS CLI is not installed (scripts/setup.sh --tests installs awscli)")
    shim = tmp_path / "bin"
    shim.mkdir()
    (shim / "aws").symlink_to(cli)
    env = {k: v for k, v in os.environ.items() if not k.startswith("AWS_")}
    env.update({"PATH": "{}:{}".format(shim, env.get("PATH", "")),
                "AWS_ACCESS_KEY_ID": ACCESS_KEY, "AWS_SECRET_ACCESS_KEY": SECRET_KEY,
                "AWS_DEFAULT_REGION": REGION, "AWS_PAGER": "", "AWS_CONFIG_FILE": "/dev/null",
                "AWS_SHARED_CREDENTIALS_FILE": "/dev/null", "AWS_EC2_METADATA_DISABLED": "true"})
    outputs = []
    with run_server("--in-memory") as server:
        for command in WALKTHROUGH:
            command = command.replace("http://localhost:8000", server.url)
            proc = subprocess.run(["bash", "-c", command], env=env, capture_output=True,
                                  text=True, timeout=60)
            assert proc.returncode == 0, "{}\n{}".format(command, proc.stderr)
            outputs.append(json.loads(proc.stdout) if proc.stdout.strip() else {})
    created, scan, _, _, got, updated, queried, table_update, by_album = outputs
    assert created["TableDescription"]["TableName"] == "Music"
    assert scan["Count"] == 0
    assert got["Item"]["AlbumTitle"] == {"S": "Songs About Life"}
    assert updated["Attributes"]["AlbumTitle"] == {"S": "Updated Album Title"}
    assert [i["SongTitle"]["S"] for i in queried["Items"]] == ["Happy Day"]
    assert any(g["IndexName"] == "AlbumTitle-index"
               for g in table_update["TableDescription"]["GlobalSecondaryIndexes"])
    assert [i["SongTitle"]["S"] for i in by_album["Items"]] == ["Call Me Today"]
