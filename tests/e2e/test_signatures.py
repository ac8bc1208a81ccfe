"""Opt-in SigV4 verification (--verify-signatures): boto3 signing with the
right key, a wrong secret, an unknown key and a skewed clock, through the
DynamoDB and the DynamoDB Streams clients, with keys from a file and from
LOCALDYNAMO_CREDENTIALS."""

import contextlib
import datetime
import http.client
import re
import subprocess
import urllib.parse
import urllib.request
from unittest import mock

import botocore.auth
import pytest

from .e2e_util import (
    EXTERNAL_URL,
    REGION,
    client_config,
    exact,
    expect_error,
    make_session,
    raw_request,
    signed_headers,
    unique_name,
    wait_active,
)
from .server_util import run_server, server_binary

FILE_KEY, FILE_SECRET = "AKIDFILE", "file/Secret+1"
ENV_KEY, ENV_SECRET = "AKIDENV", "env-secret"

WRONG_SIGNATURE = ("The request signature we calculated does not match the signature you "
                   "provided. Check your AWS Secret Access Key and signing method. Consult the "
                   "service documentation for details.")


@pytest.fixture(scope="module")
def verifying_server(tmp_path_factory):
    credentials = tmp_path_factory.mktemp("creds") / "credentials"
    credentials.write_text("# the team's test keys\n{} {}\n".format(FILE_KEY, FILE_SECRET))
    if EXTERNAL_URL:
        pytest.skip("needs to start its own localdynamo; LOCALDYNAMO_URL is set")
    with run_server("--in-memory", "--no-models", "--verify-signatures",
                    "--credentials", str(credentials),
                    env={"LOCALDYNAMO_CREDENTIALS": "{}:{}".format(ENV_KEY, ENV_SECRET)}) as srv:
        yield srv


def client(server, key, secret, service="dynamodb"):
    return make_session(key, secret, REGION).client(service, endpoint_url=server.url,
                                                     config=client_config())


@contextlib.contextmanager
def skewed_clock(minutes):
    """Clients sign as if the clock were `minutes` off the real one: botocore's
    own SigV4 signer (used instead of the awscrt one when that is installed,
    which reads the clock in C) with the clock it reads
    (botocore.compat.get_current_datetime, naive UTC) shifted."""
    offset = datetime.timedelta(minutes=minutes)

    def skewed_now(remove_tzinfo=True):
        now = datetime.datetime.now(datetime.timezone.utc) + offset
        return now.replace(tzinfo=None) if remove_tzinfo else now

    with mock.patch("botocore.auth.get_current_datetime", skewed_now), \
            mock.patch.dict(botocore.auth.AUTH_TYPE_MAPS, {"v4": botocore.auth.SigV4Auth}):
        yield


def test_keys_from_the_file_and_the_environment_are_accepted(verifying_server):
    name = unique_name("sig")
    ddb = client(verifying_server, FILE_KEY, FILE_SECRET)
    ddb.create_table(TableName=name, KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}],
                     AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"}],
                     BillingMode="PAY_PER_REQUEST",
                     StreamSpecification={"StreamEnabled": True, "StreamViewType": "KEYS_ONLY"})
    wait_active(ddb, name)
    other = client(verifying_server, ENV_KEY, ENV_SECRET)
    other.put_item(TableName=name, Item={"pk": {"S": "a"}, "text": {"S": "héllo wörld"}})
    assert ddb.get_item(TableName=name, Key={"pk": {"S": "a"}})["Item"]["text"] == {
        "S": "héllo wörld"}
    streams = client(verifying_server, ENV_KEY, ENV_SECRET, "dynamodbstreams")
    assert [s["TableName"] for s in streams.list_streams(TableName=name)["Streams"]] == [name]


def test_a_wrong_secret_is_an_invalid_signature(verifying_server):
    ddb = client(verifying_server, FILE_KEY, FILE_SECRET + "x")
    with expect_error("InvalidSignatureException", exact(WRONG_SIGNATURE)) as err:
        ddb.list_tables()
    assert err.value.response["ResponseMetadata"]["HTTPStatusCode"] == 400
    streams = client(verifying_server, ENV_KEY, "not-" + ENV_SECRET, "dynamodbstreams")
    with expect_error("InvalidSignatureException", exact(WRONG_SIGNATURE)):
        streams.list_streams()


def test_an_unknown_key_is_unrecognized(verifying_server):
    ddb = client(verifying_server, "AKIDUNKNOWN", FILE_SECRET)
    with expect_error("UnrecognizedClientException",
                      exact("The security token included in the request is invalid.")) as err:
        ddb.describe_limits()
    assert err.value.response["ResponseMetadata"]["HTTPStatusCode"] == 400
    streams = client(verifying_server, "AKIDUNKNOWN", "x", "dynamodbstreams")
    with expect_error("UnrecognizedClientException"):
        streams.list_streams()


STAMP = r"\d{8}T\d{6}Z"


def test_a_clock_twenty_minutes_slow_has_expired(verifying_server):
    ddb = client(verifying_server, FILE_KEY, FILE_SECRET)
    with skewed_clock(-20), expect_error(
            "InvalidSignatureException",
            r"^Signature expired: {0} is now earlier than {0} \({0} - 15 min\.\)$".format(
                STAMP)) as err:
        ddb.list_tables()
    assert err.value.response["ResponseMetadata"]["HTTPStatusCode"] == 400


def test_a_clock_twenty_minutes_fast_is_not_yet_current(verifying_server):
    streams = client(verifying_server, ENV_KEY, ENV_SECRET, "dynamodbstreams")
    with skewed_clock(20), expect_error(
            "InvalidSignatureException",
            r"^Signature not yet current: {0} is still later than {0} \({0} \+ 15 min\.\)$"
            .format(STAMP)):
        streams.list_streams()


def test_ten_minutes_of_skew_is_accepted(verifying_server):
    ddb = client(verifying_server, FILE_KEY, FILE_SECRET)
    with skewed_clock(-10):
        ddb.list_tables()
    with skewed_clock(10):
        ddb.list_tables()


def test_the_expired_message_quotes_the_signing_time(verifying_server):
    ddb = client(verifying_server, FILE_KEY, FILE_SECRET)
    skew = datetime.timedelta(hours=2)
    before = datetime.datetime.utcnow().replace(microsecond=0)
    with skewed_clock(-120), expect_error("InvalidSignatureException") as err:
        ddb.list_tables()
    after = datetime.datetime.utcnow()
    message = err.value.response["Error"]["Message"]
    match = re.match(r"Signature expired: (\d{8}T\d{6}Z) is now earlier than ", message)
    assert match, message
    # The signer read its clock, two hours behind, between our two readings
    # (comparing text instead would fail whenever they fall on either side
    # of a ten-minute boundary).
    signed_at = datetime.datetime.strptime(match.group(1), "%Y%m%dT%H%M%SZ")
    assert before - skew <= signed_at <= after - skew, message


def test_a_tampered_body_is_an_invalid_signature(verifying_server):
    url = verifying_server.url
    conn = http.client.HTTPConnection(urllib.parse.urlparse(url).netloc, timeout=10)
    try:
        headers = signed_headers(url, "ListTables", b"{}", FILE_KEY, FILE_SECRET, REGION)
        conn.request("POST", "/", body=b'{"Limit":1}', headers=headers)
        resp = conn.getresponse()
        body = resp.read()
    finally:
        conn.close()
    assert resp.status == 400
    assert b"InvalidSignatureException" in body


def test_unsigned_requests_still_miss_their_token_and_the_health_check_is_open(verifying_server):
    url = verifying_server.url
    conn = http.client.HTTPConnection(urllib.parse.urlparse(url).netloc, timeout=10)
    try:
        resp = raw_request(conn, url, "ListTables", "{}", sign=False)
    finally:
        conn.close()
    assert resp.status == 400
    assert resp.json()["__type"].endswith("#MissingAuthenticationTokenException")
    with urllib.request.urlopen(url + "/", timeout=5) as health:
        assert health.status == 200


def test_an_authorization_without_its_parts_is_incomplete(verifying_server):
    url = verifying_server.url
    conn = http.client.HTTPConnection(urllib.parse.urlparse(url).netloc, timeout=10)
    try:
        resp = raw_request(conn, url, "ListTables", "{}", sign=False,
                           extra_headers={"Authorization": "AWS4-HMAC-SHA256 Credential=x"})
    finally:
        conn.close()
    assert resp.status == 400
    doc = resp.json()
    assert doc["__type"] == "com.amazon.coral.service#IncompleteSignatureException"
    assert doc["message"].endswith("Authorization=AWS4-HMAC-SHA256 Credential=x")


def test_without_the_flag_any_signature_passes(start_server):
    with start_server("--in-memory", "--no-models") as srv:
        make_session("anything", "at-all", REGION).client(
            "dynamodb", endpoint_url=srv.url, config=client_config()).list_tables()


def test_verification_without_keys_refuses_to_start(tmp_path):
    proc = subprocess.run([str(server_binary()), "--in-memory", "--no-models", "--port", "0",
                           "--verify-signatures"], stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, timeout=30,
                          env={"PATH": "/usr/bin:/bin"})
    assert proc.returncode == 2
    assert b"--verify-signatures needs access keys" in proc.stderr
    bad = tmp_path / "credentials"
    bad.write_text("only-a-key\n")
    proc = subprocess.run([str(server_binary()), "--in-memory", "--no-models", "--port", "0",
                           "--verify-signatures", "--credentials", str(bad)],
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=30,
                          env={"PATH": "/usr/bin:/bin"})
    assert proc.returncode == 2
    assert b"line 1: expected ACCESS_KEY SECRET" in proc.stderr
