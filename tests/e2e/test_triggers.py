"""Local stream triggers and the admin API, end to end: the seed 000 flow
(lambda layers deprecated with a TTL, deleted by the sweeper, cleaned up by a
filtered trigger), Lambda's event shape and filters, batching windows, HTTP
and command targets, retries with backoff that hold later records back, the
on-failure file, the --triggers file, restarts that lose nothing, and a
kill -9 after acknowledged writes.

No test sleeps for a fixed time: each waits for a condition (a delivery, the
trigger's checkpoint) under wait_for's deadline, so that the suite holds in
the ThreadSanitizer build too (LOCALDYNAMO_SLOW=1, see e2e_util.SLOWDOWN).
"That nothing else follows" is checked once the trigger's position has
passed every record of the stream (Lag 0): everything it was going to
deliver has been answered by then.
"""

import json
import os
import signal
import subprocess
import sys
import time

import pytest

from .e2e_util import SLOWDOWN
from .server_util import (
    EventReceiver,
    ServerProcess,
    admin,
    admin_ok,
    advance_clock,
    make_streams_client,
    read_stream,
    run_server,
    server_now,
    sweep,
    wait_for,
)

LAYERS_TABLE = {
    "TableName": "lambda-layers",
    "BillingMode": "PAY_PER_REQUEST",
    "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"},
                  {"AttributeName": "sk", "KeyType": "RANGE"}],
    "AttributeDefinitions": [{"AttributeName": n, "AttributeType": "S"}
                             for n in ("pk", "sk", "pckg", "rgn", "dplySts")],
    "GlobalSecondaryIndexes": [
        {"IndexName": name, "Projection": {"ProjectionType": "ALL"},
         "KeySchema": [{"AttributeName": hash_key, "KeyType": "HASH"},
                       {"AttributeName": "dplySts", "KeyType": "RANGE"}]}
        for name, hash_key in (("pckg-dplySts", "pckg"), ("rgn-dplySts", "rgn"))],
    "StreamSpecification": {"StreamEnabled": True, "StreamViewType": "NEW_AND_OLD_IMAGES"},
}

# How much later than its window or backoff a delivery may come: the
# lower bounds are exact, this one allows for a CI machine busy with other
# builds (times SLOWDOWN under TSan).
LATE = 2.0

CLEANUP_FILTER = {"eventName": ["REMOVE"], "dynamodb": {"Keys": {"pk": {"S": [{"prefix": "lyr#"}]}}}}


@pytest.fixture
def receiver():
    r = EventReceiver()
    yield r
    r.close()


def create_layers_table(ddb):
    """The lambda-layers model is preloaded: its table, both indexes, the
    TTL attribute and the NEW_AND_OLD_IMAGES stream are there at start."""
    table = ddb.describe_table(TableName="lambda-layers")["Table"]
    assert sorted(i["IndexName"] for i in table["GlobalSecondaryIndexes"]) == sorted(
        i["IndexName"] for i in LAYERS_TABLE["GlobalSecondaryIndexes"])
    assert table["StreamSpecification"] == LAYERS_TABLE["StreamSpecification"]
    assert ddb.describe_time_to_live(TableName="lambda-layers")["TimeToLiveDescription"] == {
        "TimeToLiveStatus": "ENABLED", "AttributeName": "ttl"}


def layer(region, package, version, status, **extra):
    item = {"pk": {"S": "lyr#{}.{}".format(region, package)}, "sk": {"S": "lyrVrsn#v{}".format(version)},
            "rgn": {"S": region}, "pckg": {"S": package}, "lyrVrsn": {"N": str(version)},
            "arn": {"S": "arn:aws:lambda:{}:000000000000:layer:{}:{}".format(region, package, version)},
            "dplySts": {"S": status}}
    item.update(extra)
    return item


def add_trigger(url, **definition):
    return admin_ok(url, "triggers", definition)


def trigger_status(url, name):
    return admin_ok(url, "triggers/" + name)


def test_seed_000_a_deprecated_layer_expires_and_the_cleanup_trigger_sees_it(receiver):
    with run_server("--in-memory", "--ttl-interval", "0") as server:
        ddb, streams = server.client(), make_streams_client(server.url)
        create_layers_table(ddb)
        add_trigger(server.url, Name="layer-cleanup", TableName="lambda-layers", Url=receiver.url,
                    StartingPosition="TRIM_HORIZON",
                    FilterCriteria={"Filters": [{"Pattern": json.dumps(CLEANUP_FILTER)}]})
        now = server_now(server.url)
        # v1 is deployed, then v2 replaces it: v1 is deprecated with a TTL
        # of an hour, in the same transaction that moves the pointer.
        ddb.put_item(TableName="lambda-layers", Item=layer("us-east-1", "numpy", 1, "latest"))
        ddb.transact_write_items(TransactItems=[
            {"Put": {"TableName": "lambda-layers", "Item": layer("us-east-1", "numpy", 2, "latest")}},
            {"Update": {"TableName": "lambda-layers",
                        "Key": {"pk": {"S": "lyr#us-east-1.numpy"}, "sk": {"S": "lyrVrsn#v1"}},
                        "UpdateExpression": "SET dplySts = :d, #ttl = :t",
                        "ExpressionAttributeNames": {"#ttl": "ttl"},
                        "ExpressionAttributeValues": {":d": {"S": "deprecated"},
                                                      ":t": {"N": str(now + 3600)}}}},
            {"Put": {"TableName": "lambda-layers", "Item": {
                "pk": {"S": "lyr#us-east-1.numpy"}, "sk": {"S": "lyrVrsn0#"},
                "arn": {"S": "arn:aws:lambda:us-east-1:000000000000:layer:numpy:2"}}}},
        ])
        # A build record with an expired TTL too: its REMOVE must not reach
        # the cleanup trigger (pk does not begin with lyr#).
        ddb.put_item(TableName="lambda-layers", Item={
            "pk": {"S": "bld#v1"}, "sk": {"S": "pckg#numpy"}, "ttl": {"N": str(now + 60)}})

        def by_region(status):
            return ddb.query(TableName="lambda-layers", IndexName="rgn-dplySts",
                             KeyConditionExpression="rgn = :r AND dplySts = :s",
                             ExpressionAttributeValues={":r": {"S": "us-east-1"},
                                                        ":s": {"S": status}})["Items"]

        assert len(by_region("deprecated")) == 1
        advance_clock(server.url, 3601)
        deleted = sweep(server.url)["Deleted"]
        assert sorted(d["Key"]["pk"]["S"] for d in deleted) == ["bld#v1", "lyr#us-east-1.numpy"]
        # Gone from the table and from both indexes.
        assert "Item" not in ddb.get_item(TableName="lambda-layers", Key={
            "pk": {"S": "lyr#us-east-1.numpy"}, "sk": {"S": "lyrVrsn#v1"}})
        assert by_region("deprecated") == []
        assert [i["sk"]["S"] for i in ddb.query(
            TableName="lambda-layers", IndexName="pckg-dplySts",
            KeyConditionExpression="pckg = :p", ExpressionAttributeValues={
                ":p": {"S": "numpy"}})["Items"]] == ["lyrVrsn#v2"]
        # The stream carries the REMOVE with the service identity and the old image.
        arn = ddb.describe_table(TableName="lambda-layers")["Table"]["LatestStreamArn"]
        removes = [r for r in read_stream(streams, arn) if r["eventName"] == "REMOVE"]
        layer_remove = [r for r in removes if r["dynamodb"]["Keys"]["pk"]["S"].startswith("lyr#")]
        assert len(removes) == 2 and len(layer_remove) == 1
        assert layer_remove[0]["userIdentity"] == {"Type": "Service",
                                                   "PrincipalId": "dynamodb.amazonaws.com"}
        assert layer_remove[0]["dynamodb"]["OldImage"]["dplySts"] == {"S": "deprecated"}
        # The trigger gets exactly that record, in Lambda's shape.
        wait_for(lambda: receiver.records(), what="the cleanup trigger's delivery")
        status = wait_for(lambda: (lambda s: s if s["Lag"] == 0 else None)(
            trigger_status(server.url, "layer-cleanup")), what="the trigger's checkpoint")
        records = receiver.records()  # nothing else followed
        assert len(records) == 1
        record = records[0]
        assert record["eventName"] == "REMOVE"
        assert record["eventSourceARN"] == arn
        assert record["userIdentity"] == {"type": "Service", "principalId": "dynamodb.amazonaws.com"}
        assert record["dynamodb"]["Keys"] == {"pk": {"S": "lyr#us-east-1.numpy"},
                                              "sk": {"S": "lyrVrsn#v1"}}
        assert record["dynamodb"]["OldImage"]["arn"]["S"].endswith(":numpy:1")
        assert status["DeliveredRecords"] == 1
        assert "LastError" not in status


def test_filters_batches_and_order(receiver):
    with run_server("--in-memory") as server:
        ddb = server.client()
        create_layers_table(ddb)
        add_trigger(server.url, Name="inserts", TableName="lambda-layers", Url=receiver.url,
                    BatchSize=2, FilterCriteria={"Filters": [
                        {"Pattern": {"eventName": ["INSERT"],
                                     "dynamodb": {"NewImage": {"lyrVrsn": {"N": [{"numeric": [">=", 3]}]}}}}},
                        {"Pattern": {"dynamodb": {"NewImage": {"rgn": {"S": [{"anything-but": ["us-east-1"]}]}}}}},
                    ]})
        wait_for(lambda: trigger_status(server.url, "inserts")["State"] == "running",
                 what="the trigger to start")
        for version in range(1, 8):
            ddb.put_item(TableName="lambda-layers", Item=layer("us-east-1", "pandas", version, "latest"))
        ddb.put_item(TableName="lambda-layers", Item=layer("eu-west-1", "pandas", 1, "latest"))
        wait_for(lambda: len(receiver.records()) >= 6, what="six matching records")
        wait_for(lambda: trigger_status(server.url, "inserts")["Lag"] == 0,
                 what="the trigger to read past every write")
        versions = [(r["awsRegion"], r["dynamodb"]["NewImage"]["rgn"]["S"],
                     r["dynamodb"]["NewImage"]["lyrVrsn"]["N"]) for r in receiver.records()]
        assert [v[1:] for v in versions] == [("us-east-1", str(v)) for v in range(3, 8)] + [
            ("eu-west-1", "1")]
        assert all(len(event["Records"]) <= 2 for event in receiver.events)


def test_a_batching_window_holds_a_partial_batch_but_not_a_full_one():
    full, partial = EventReceiver(), EventReceiver()
    window = 3
    try:
        with run_server("--in-memory") as server:
            ddb = server.client()
            add_trigger(server.url, Name="full", TableName="lambda-layers", Url=full.url,
                        BatchSize=3, MaximumBatchingWindowInSeconds=300)
            add_trigger(server.url, Name="partial", TableName="lambda-layers", Url=partial.url,
                        BatchSize=10, MaximumBatchingWindowInSeconds=window)
            for name in ("full", "partial"):
                wait_for(lambda: trigger_status(server.url, name)["State"] == "running",
                         what="the trigger {} to start".format(name))
            written = time.monotonic()
            for version in range(1, 4):
                ddb.put_item(TableName="lambda-layers", Item=layer("us-east-1", "jax", version, "latest"))
            # Three records fill the first trigger's batch: it goes at once,
            # long before the 300 s window ends (wait_for gives up first).
            wait_for(lambda: full.events, timeout=20, what="the full batch")
            # They are fewer than the second one's batch: held until its
            # window, which starts once the first of them is read, ends.
            wait_for(lambda: partial.events, timeout=window + 10, what="the partial batch")
            assert [len(event["Records"]) for event in full.events] == [3]
            assert [len(event["Records"]) for event in partial.events] == [3]
            waited = partial.arrivals[0] - written
            assert window <= waited < window + LATE * SLOWDOWN, waited
    finally:
        full.close()
        partial.close()


def test_a_failing_target_holds_later_records_back_until_it_recovers():
    receiver = EventReceiver(fail_first=3)
    try:
        with run_server("--in-memory") as server:
            ddb = server.client()
            create_layers_table(ddb)
            add_trigger(server.url, Name="flaky", TableName="lambda-layers", Url=receiver.url,
                        StartingPosition="TRIM_HORIZON", BatchSize=1)
            for version in range(1, 4):
                ddb.put_item(TableName="lambda-layers", Item=layer("us-east-1", "scipy", version, "latest"))
            wait_for(lambda: len(receiver.records()) == 3, timeout=20, what="delivery after retries")
            assert [r["dynamodb"]["Keys"]["sk"]["S"] for r in receiver.records()] == [
                "lyrVrsn#v1", "lyrVrsn#v2", "lyrVrsn#v3"]
            # The trigger counts a delivery once the target has answered it.
            status = wait_for(lambda: (lambda s: s if s["DeliveredRecords"] == 3 and
                                       s["Lag"] == 0 else None)(trigger_status(server.url, "flaky")),
                              what="the trigger to count its deliveries")
            assert status["FailedAttempts"] == 3
            assert "HTTP 500" in status["LastError"]
            # The first record's retries back off 200, 400 and 800 ms after
            # each failed answer (more under a sanitizer, never less).
            gaps = [b - a for a, b in zip(receiver.requested, receiver.requested[1:4])]
            for gap, backoff in zip(gaps, (0.2, 0.4, 0.8)):
                assert backoff <= gap < backoff + LATE * SLOWDOWN, gaps
    finally:
        receiver.close()


def test_a_replaced_stream_is_drained_before_the_trigger_moves_on():
    receiver = EventReceiver(fail_first=2)
    try:
        with run_server("--in-memory") as server:
            ddb = server.client()
            add_trigger(server.url, Name="switch", TableName="lambda-layers", Url=receiver.url,
                        StartingPosition="TRIM_HORIZON", BatchSize=1)
            ddb.put_item(TableName="lambda-layers", Item=layer("us-east-1", "old", 1, "latest"))
            # While the first delivery is being retried, the stream is replaced.
            ddb.update_table(TableName="lambda-layers", StreamSpecification={"StreamEnabled": False})
            ddb.update_table(TableName="lambda-layers", StreamSpecification={
                "StreamEnabled": True, "StreamViewType": "NEW_AND_OLD_IMAGES"})
            ddb.put_item(TableName="lambda-layers", Item=layer("us-east-1", "new", 1, "latest"))
            wait_for(lambda: len(receiver.records()) == 2, timeout=20, what="both records")
            assert [r["dynamodb"]["NewImage"]["pckg"]["S"] for r in receiver.records()] == [
                "old", "new"]
            arns = [r["eventSourceARN"] for r in receiver.records()]
            assert arns[0] != arns[1]
    finally:
        receiver.close()


def test_command_targets_and_the_on_failure_file(tmp_path):
    out = tmp_path / "events.jsonl"
    failed = tmp_path / "failed.jsonl"
    with run_server("--in-memory", "--allow-command-triggers") as server:
        ddb = server.client()
        create_layers_table(ddb)
        add_trigger(server.url, Name="to-file", TableName="lambda-layers",
                    Command="cat >> '{}'; echo >> '{}'".format(out, out),
                    StartingPosition="TRIM_HORIZON")
        add_trigger(server.url, Name="always-fails", TableName="lambda-layers",
                    Command="cat > /dev/null; exit 3", MaximumRetryAttempts=1,
                    OnFailure=str(failed), StartingPosition="TRIM_HORIZON")
        ddb.put_item(TableName="lambda-layers", Item=layer("us-east-1", "torch", 1, "latest"))
        wait_for(lambda: out.exists() and out.read_text().strip(), what="the command's output")
        event = json.loads(out.read_text().splitlines()[0])
        assert event["Records"][0]["dynamodb"]["NewImage"]["pckg"] == {"S": "torch"}
        wait_for(lambda: failed.exists() and failed.read_text().strip(), timeout=15,
                 what="the on-failure file")
        given_up = json.loads(failed.read_text().splitlines()[0])
        assert given_up["trigger"] == "always-fails"
        assert given_up["attempts"] == 2
        assert "exited with status 3" in given_up["error"]
        assert given_up["event"]["Records"][0]["eventName"] == "INSERT"
        # The batch goes to the file before the trigger moves past it: the
        # position may trail the file by a moment (much longer in sanitized
        # builds).
        wait_for(lambda: trigger_status(server.url, "always-fails")["Lag"] == 0,
                 what="the trigger to move past the given-up batch")
        status = trigger_status(server.url, "always-fails")
        assert status["GivenUpBatches"] == 1 and status["Lag"] == 0


def test_command_triggers_need_the_file_or_a_flag(tmp_path):
    with run_server("--in-memory") as server:
        for definition in ({"Command": "true"}, {"Url": "http://127.0.0.1:9/", "OnFailure": "/tmp/x"}):
            status, answer = admin(server.url, "triggers",
                                   dict(Name="cmd", TableName="lambda-layers", **definition))
            assert status == 400 and "--allow-command-triggers" in answer["message"]
    triggers = tmp_path / "triggers.json"
    triggers.write_text(json.dumps([{"Name": "from-file", "TableName": "lambda-layers",
                                     "Command": "cat > /dev/null"}]))
    with run_server("--in-memory", "--triggers", str(triggers)) as server:
        assert [t["Definition"]["Name"] for t in admin_ok(server.url, "triggers")["Triggers"]] \
            == ["from-file"]


def test_the_admin_api_refuses_pages_of_another_origin(receiver):
    import urllib.request
    with run_server("--in-memory") as server:
        def call(origin, method="POST"):
            request = urllib.request.Request(server.url + "/_localdynamo/reset", data=b"{}",
                                             method=method, headers={"Origin": origin,
                                                                     "Content-Type": "text/plain"})
            try:
                with urllib.request.urlopen(request) as response:
                    return response.status, dict(response.headers)
            except urllib.error.HTTPError as error:
                return error.code, dict(error.headers)
        status, headers = call("http://evil.example")
        assert status == 403
        assert "Access-Control-Allow-Origin" not in headers
        status, _ = call(server.url)  # the console, same origin
        assert status == 200
        # A rebound name: the page's origin resolves to this server.
        host = "evil.example:" + server.url.rsplit(":", 1)[1]
        status, _ = call("http://" + host)
        assert status == 403
        status, headers = call("http://evil.example", method="OPTIONS")
        assert status == 403 and "Access-Control-Allow-Methods" not in headers


def test_admin_api_triggers_and_errors(receiver):
    with run_server("--in-memory") as server:
        url = server.url
        assert admin_ok(url, "triggers") == {"Triggers": []}
        status, answer = admin(url, "triggers", {"Name": "x", "TableName": "t"})
        assert status == 400 and "Url and Command" in answer["message"]
        status, answer = admin(url, "triggers", {
            "Name": "x", "TableName": "t", "Url": receiver.url,
            "FilterCriteria": {"Filters": [{"Pattern": {"eventName": [{"suffixes": "x"}]}}]}})
        assert status == 400 and "unknown operator" in answer["message"]
        add_trigger(url, Name="one", TableName="nope", Url=receiver.url)
        status, answer = admin(url, "triggers", {"Name": "one", "TableName": "t", "Url": receiver.url})
        assert status == 400 and answer["__type"].endswith("ResourceInUseException")
        listed = admin_ok(url, "triggers")["Triggers"]
        assert [t["Definition"]["Name"] for t in listed] == ["one"]
        wait_for(lambda: trigger_status(url, "one")["State"] == "waiting for the table",
                 what="the trigger to notice the table is missing")
        assert admin_ok(url, "triggers/one", method="DELETE") == {}
        assert admin(url, "triggers/one")[0] == 404
        assert admin(url, "nothing-here")[0] == 404
        assert admin(url, "sweep")[0] == 405
        assert admin(url, "clock", {"AdvanceSeconds": -5})[0] == 400
        before = admin_ok(url, "clock")
        moved = admin_ok(url, "clock", {"SetMillis": 4102444800000})
        assert moved["Now"].startswith("2100-01-01T00:00:00")
        assert admin_ok(url, "clock", {"Reset": True})["OffsetMillis"] == 0
        assert abs(admin_ok(url, "clock")["NowMillis"] - before["NowMillis"]) < 60000
        assert [e["Path"] for e in admin_ok(url, "")["Endpoints"]][0] == "/_localdynamo/clock"
    with run_server("--in-memory", "--no-admin") as server:
        status, answer = admin(server.url, "clock")
        assert status == 403 and answer["__type"].endswith("AdminApiDisabledException")


def test_the_triggers_file_and_a_restart_in_the_middle_of_a_backlog(tmp_path):
    """Records written while the target is down are all delivered, in order,
    by the server started again over the same data directory."""
    receiver = EventReceiver()
    port = receiver.server.server_address[1]
    receiver.close()  # the target is down for now
    triggers = tmp_path / "triggers.json"
    triggers.write_text(json.dumps([{
        "Name": "backlog", "TableName": "lambda-layers", "StartingPosition": "TRIM_HORIZON",
        "Url": "http://127.0.0.1:{}/invoke".format(port), "BatchSize": 3, "TimeoutSeconds": 2}]))
    data = str(tmp_path / "data")
    args = ["--data-dir", data, "--triggers", str(triggers)]
    with run_server(*args) as server:
        ddb = server.client()
        create_layers_table(ddb)
        for version in range(1, 11):
            ddb.put_item(TableName="lambda-layers", Item=layer("us-east-1", "jax", version, "latest"))
        wait_for(lambda: trigger_status(server.url, "backlog")["FailedAttempts"] >= 1,
                 what="a failed delivery")
        assert trigger_status(server.url, "backlog")["Lag"] == 10
    import http.server
    import threading
    received = []

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_POST(self):
            received.append(json.loads(self.rfile.read(int(self.headers["Content-Length"]))))
            self.send_response(200)
            self.send_header("Content-Length", "0")
            self.end_headers()

        def log_message(self, *args):
            pass

    target = http.server.ThreadingHTTPServer(("127.0.0.1", port), Handler)
    threading.Thread(target=target.serve_forever, daemon=True).start()
    try:
        with run_server(*args) as server:
            wait_for(lambda: sum(len(e["Records"]) for e in received) >= 10, timeout=20,
                     what="the backlog after the restart")
            versions = [int(r["dynamodb"]["NewImage"]["lyrVrsn"]["N"])
                        for e in received for r in e["Records"]]
            assert versions == list(range(1, 11))
            wait_for(lambda: trigger_status(server.url, "backlog")["Lag"] == 0,
                     what="the checkpoint to catch up")
        # Once more: the checkpoint holds, nothing is delivered again.
        with run_server(*args) as server:
            server.client().put_item(TableName="lambda-layers",
                                     Item=layer("us-east-1", "jax", 11, "latest"))
            wait_for(lambda: sum(len(e["Records"]) for e in received) >= 11, what="the 11th")
            wait_for(lambda: trigger_status(server.url, "backlog")["Lag"] == 0,
                     what="the checkpoint to pass the 11th")
            versions = [int(r["dynamodb"]["NewImage"]["lyrVrsn"]["N"])
                        for e in received for r in e["Records"]]
            assert versions == list(range(1, 12))
    finally:
        target.shutdown()
        target.server_close()


WRITER = r"""
import json, sys, boto3
from botocore.config import Config
url, now = sys.argv[1], int(sys.argv[2])
ddb = boto3.client("dynamodb", endpoint_url=url, region_name="us-east-1",
                   aws_access_key_id="k", aws_secret_access_key="s",
                   config=Config(retries={"total_max_attempts": 1}))
for i in range(100000):
    item = {"pk": {"S": "lyr#crash.p%d" % (i % 50)}, "sk": {"S": "lyrVrsn#v%d" % i},
            "pckg": {"S": "p%d" % (i % 50)}, "rgn": {"S": "crash"}, "dplySts": {"S": "latest"},
            "ttl": {"N": str(now + (-10 if i % 3 == 0 else 86400))}}
    ddb.put_item(TableName="lambda-layers", Item=item)
    print(i, flush=True)
"""


def test_kill_9_after_acknowledged_writes_keeps_table_stream_and_ttl_in_agreement(tmp_path):
    data = str(tmp_path / "data")
    server = ServerProcess(["--data-dir", data, "--ttl-interval", "0"]).start()
    try:
        ddb = server.client()
        create_layers_table(ddb)
        now = server_now(server.url)
        writer = subprocess.Popen([sys.executable, "-c", WRITER, server.url, str(now)],
                                  stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        acknowledged = -1
        deadline = time.monotonic() + 20 * SLOWDOWN
        while acknowledged < 300 and time.monotonic() < deadline:
            line = writer.stdout.readline()
            if not line:
                break
            acknowledged = int(line)
        os.kill(server.proc.pid, signal.SIGKILL)
        server.proc.wait()
        # The writer ran ahead of this loop: the lines not read yet (in the
        # pipe or in its reader's buffer) are writes acknowledged too. Its
        # next request fails and it exits; the last line it printed is the
        # last acknowledged write.
        try:
            writer.wait(timeout=10 * SLOWDOWN)
        except subprocess.TimeoutExpired:
            writer.kill()
            writer.wait()
        for line in writer.stdout.read().split():
            acknowledged = int(line)
        writer.stdout.close()
        assert acknowledged >= 300
    finally:
        server.proc = None
        server.remove_log()
    with run_server("--data-dir", data, "--ttl-interval", "0") as server:
        ddb, streams = server.client(), make_streams_client(server.url)
        items = []
        for page in ddb.get_paginator("scan").paginate(TableName="lambda-layers"):
            items += page["Items"]
        versions = {int(i["sk"]["S"][len("lyrVrsn#v"):]) for i in items}
        # Every acknowledged write is there; at most the one in flight beyond.
        assert set(range(acknowledged + 1)) <= versions
        assert len(versions) <= acknowledged + 2
        arn = ddb.describe_table(TableName="lambda-layers")["Table"]["LatestStreamArn"]
        records = read_stream(streams, arn)
        assert sorted(int(r["dynamodb"]["Keys"]["sk"]["S"][len("lyrVrsn#v"):]) for r in records) \
            == sorted(versions)
        assert all(r["eventName"] == "INSERT" for r in records)
        table = ddb.describe_table(TableName="lambda-layers")["Table"]
        assert table["ItemCount"] == len(versions)
        assert all(index["ItemCount"] == len(versions) for index in table["GlobalSecondaryIndexes"])
        # The TTL schedule agrees: exactly the expired third goes.
        advance_clock(server.url, 60)
        deleted = sweep(server.url)["Deleted"]
        expected = {v for v in versions if v % 3 == 0}
        assert {int(d["Key"]["sk"]["S"][len("lyrVrsn#v"):]) for d in deleted} == expected
        assert ddb.describe_table(TableName="lambda-layers")["Table"]["ItemCount"] == \
            len(versions) - len(expected)
        removes = [r for r in read_stream(streams, arn) if r["eventName"] == "REMOVE"]
        assert len(removes) == len(expected)
        assert all(r["userIdentity"]["PrincipalId"] == "dynamodb.amazonaws.com" for r in removes)
