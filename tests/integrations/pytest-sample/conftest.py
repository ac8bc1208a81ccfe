"""The sample project's own conftest: seed data through the plugin's hook, and
the `same_keys` fixture every module uses to write THE SAME keys as the other
modules at the same time (under -n 4 --dist loadfile each module runs on its
own worker).

`same_keys` starts all workers together (a file barrier in the run's shared
temporary directory) and, when $SAMPLE_RECORD_DIR is set, records when each
module hammered and on which worker, so that the driver (run.py) can check
that the writes really overlapped.
"""

import json
import os
import time
from pathlib import Path

import pytest

from seed_data import ROUNDS, SEED_VISITS, SEEDED_ORDERS

# LOCALDYNAMO_SLOW=1: a ThreadSanitizer build of the server (scripts/sanitizers.sh),
# several times slower to prepare each worker's database.
BARRIER_TIMEOUT_S = 20.0 * (10 if os.environ.get("LOCALDYNAMO_SLOW") == "1" else 1)


def pytest_localdynamo_seed(localdynamo):
    """The plugin's hook: runs once per worker, after tables.json's tables and
    data exist and before the snapshot every test starts from."""
    with localdynamo.resource().Table("orders").batch_writer() as batch:
        for n in range(SEEDED_ORDERS):
            batch.put_item(Item={"PK": "USER#2", "SK": "ORDER#{:03d}".format(n),
                                 "status": "PENDING", "total": n})


@pytest.fixture
def worker_tag(request):
    return "{}:{}".format(os.environ.get("PYTEST_XDIST_WORKER", "main"), request.node.module.__name__)


def _shared_dir(tmp_path_factory):
    if os.environ.get("SAMPLE_RECORD_DIR"):
        return Path(os.environ["SAMPLE_RECORD_DIR"])
    # Under xdist every worker's basetemp is inside the run's own directory.
    return tmp_path_factory.getbasetemp().parent


def _barrier(directory, name):
    """Wait until min(workers, 4) modules have arrived (the first round of
    same_keys calls), or give up after a while and go on."""
    workers = int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", "1"))
    if workers < 2:
        return
    (directory / "arrived-{}".format(name)).touch()
    deadline = time.monotonic() + BARRIER_TIMEOUT_S
    while len(list(directory.glob("arrived-*"))) < min(workers, 4):
        if time.monotonic() > deadline:
            return
        time.sleep(0.005)


@pytest.fixture
def same_keys(dynamodb_client, worker_tag, tmp_path_factory, request):
    """Write orders USER#1/PROFILE and counter `visits` ROUNDS times, reading
    back after each write: every read must see this test's own write, and
    the counter must end at the seed's value plus this test's increments."""

    def hammer():
        directory = _shared_dir(tmp_path_factory)
        directory.mkdir(parents=True, exist_ok=True)
        _barrier(directory, request.node.module.__name__)
        started = time.monotonic()
        for i in range(ROUNDS):
            dynamodb_client.put_item(TableName="orders", Item={
                "PK": {"S": "USER#1"}, "SK": {"S": "PROFILE"},
                "owner": {"S": worker_tag}, "round": {"N": str(i)}})
            dynamodb_client.update_item(
                TableName="counters", Key={"pk": {"S": "visits"}},
                UpdateExpression="ADD n :one", ExpressionAttributeValues={":one": {"N": "1"}})
            profile = dynamodb_client.get_item(
                TableName="orders", Key={"PK": {"S": "USER#1"}, "SK": {"S": "PROFILE"}},
                ConsistentRead=True)["Item"]
            assert (profile["owner"]["S"], profile["round"]["N"]) == (worker_tag, str(i))
        visits = dynamodb_client.get_item(TableName="counters", Key={"pk": {"S": "visits"}},
                                          ConsistentRead=True)["Item"]["n"]["N"]
        finished = time.monotonic()
        assert int(visits) == SEED_VISITS + ROUNDS
        if os.environ.get("SAMPLE_RECORD_DIR"):
            (directory / "window-{}.json".format(request.node.module.__name__)).write_text(
                json.dumps({"worker": worker_tag, "start": started, "end": finished}))

    return hammer
