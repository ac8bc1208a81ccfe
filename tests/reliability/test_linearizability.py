"""Consistency as clients see it: recorded histories checked for
linearizability (linearizability.py), and a bank whose money neither
appears nor vanishes.

- The checker's self-tests: hand-built histories it must reject (a stale
  read, a lost update, ...) and accept (concurrent ops, unknown outcomes
  that did or did not take effect), and generated legal histories.
- A recorded history: 8 threads, each with its own boto3 client (short
  timeouts, no retries), run GetItem (ConsistentRead), TransactGetItems,
  PutItem, DeleteItem, conditional UpdateItem (compare-and-set) and
  TransactWriteItems on a handful of keys for a few seconds, against a
  server with --transaction-hold-ms (so transactions and writes meet); once
  plain, once with injected faults: refusals before the request runs
  (definite: no effect), 500s and dropped connections (ambiguous: did not
  run), and answers delayed past the client's timeout or dropped after the
  request ran (ambiguous: ran).
- A bank: transfers by TransactWriteItems (conditional on the balance),
  retried with their ClientRequestToken until the outcome is known, and
  TransactGetItems audits of every account, under the same faults; every
  audit sees the total, and the final balances are exactly the applied
  transfers' sum.

CI: 2 s of load per run, 3 keys; RELIABILITY_LONG=1: 30 s, 8 keys.
"""

import random
import time
import uuid

import pytest
from botocore.config import Config
from botocore.exceptions import ClientError, HTTPClientError
from botocore.exceptions import ConnectionError as BotoConnectionError

from e2e.e2e_util import make_session, wait_active
from e2e.server_util import ServerProcess, admin_ok

from .linearizability import CAS, ERROR, FAIL, OK, READ, UNKNOWN, WRITE, cas, check, read, write
from .reliability_util import run_threads, size

THREADS = 8
HOLD_MS = 2                   # --transaction-hold-ms: transactions claim items this long
LOAD_SECONDS = size(2.0, 30.0)
KEYS = size(3, 8)
READ_TIMEOUT = 0.5            # a client's patience; a delayed answer outlasts it
DELAY_MS = 1500

# Answers that mean the request was refused before it ran (DynamoDB's
# semantics, and what the injector does): no effect.
REFUSED = {"TransactionConflictException", "ProvisionedThroughputExceededException",
           "ThrottlingException", "RequestLimitExceeded"}
REFUSED_REASONS = {"None", "TransactionConflict", "ProvisionedThroughputExceeded",
                   "ThrottlingError"}
# Answers after which DynamoDB does not say whether the request ran.
AMBIGUOUS = {"InternalServerError", "ServiceUnavailable"}


# ---------------------------------------------------------------------------
# The checker's self-tests
# ---------------------------------------------------------------------------

def rejected(history):
    result = check(history)
    assert not result.ok, "the checker accepted an illegal history"
    assert result.explanation and result.ops
    return result


def accepted(history):
    result = check(history)
    assert result.ok, result.explanation


def test_checker_rejects_a_stale_read():
    # write a, then write b, then (strictly later) a read that still sees a.
    result = rejected([write(1, "k", 0, 1, "a"), write(2, "k", 2, 3, "b"),
                       read(3, "k", 4, 5, "a")])
    assert result.key == "k"
    assert read(3, "k", 4, 5, "a") in result.ops
    assert "register held 'b'" in result.explanation


def test_checker_rejects_a_lost_update():
    # Both compare-and-sets from 0 succeed: one of the updates was lost.
    rejected([write(1, "k", 0, 1, "0"), cas(2, "k", 2, 4, "0", "x", OK),
              cas(3, "k", 3, 5, "0", "y", OK)])
    # Even if the two never overlap.
    rejected([write(1, "k", 0, 1, "0"), cas(2, "k", 2, 3, "0", "x", OK),
              cas(3, "k", 4, 5, "0", "y", OK)])


def test_checker_rejects_other_impossible_results():
    # A value nobody wrote.
    rejected([write(1, "k", 0, 1, "a"), read(2, "k", 2, 3, "z")])
    # A read of the absent item after a completed write.
    rejected([write(1, "k", 0, 1, "a"), read(2, "k", 2, 3, None)])
    # A cas that fails although the value was what it expected, untouched.
    rejected([write(1, "k", 0, 1, "a"), cas(2, "k", 2, 3, "a", "b", FAIL)])
    # A read that goes back in time: b is seen, then a again.
    rejected([write(1, "k", 0, 1, "a"), write(1, "k", 2, 6, "b"), read(2, "k", 3, 4, "b"),
              read(2, "k", 4.5, 5, "a")])
    # A refused write (error) took effect after all.
    rejected([write(1, "k", 0, 1, "a", outcome=ERROR), read(2, "k", 2, 3, "a")])
    # Two concurrent writes, both done, then the value changes without a write.
    rejected([write(1, "k", 0, 3, "a"), write(2, "k", 0, 3, "b"), read(3, "k", 4, 5, "a"),
              read(4, "k", 6, 7, "b")])
    # An unknown write seen before it was invoked.
    rejected([read(2, "k", 0, 1, "a"), write(1, "k", 2, None, "a", outcome=UNKNOWN)])


def test_checker_names_the_smallest_failing_key():
    good = [write(1, "big", t, t + 1, str(t)) for t in range(20)]
    bad_big = [read(2, "big", 30, 31, "nope")]
    bad_small = [write(1, "small", 0, 1, "a"), write(1, "small", 2, 3, "b"),
                 read(2, "small", 4, 5, "a")]
    assert rejected(good + bad_big + bad_small).key == "small"
    assert rejected(good + bad_big).key == "big"


def test_checker_accepts_concurrent_histories():
    # Overlapping write and read: the read may see either value.
    accepted([write(1, "k", 0, 1, "a"), write(2, "k", 2, 5, "b"), read(3, "k", 3, 4, "a")])
    accepted([write(1, "k", 0, 1, "a"), write(2, "k", 2, 5, "b"), read(3, "k", 3, 4, "b")])
    # Two concurrent writes take effect in either order; b's last here.
    accepted([write(1, "k", 0, 3, "a"), write(2, "k", 0, 3, "b"), read(3, "k", 1, 4, "b"),
              read(4, "k", 5, 6, "b")])
    # Compare-and-set: one winner, one loser; the loser's failure is legal.
    accepted([write(1, "k", 0, 1, "0"), cas(2, "k", 2, 4, "0", "x", OK),
              cas(3, "k", 3, 5, "0", "y", FAIL), read(4, "k", 6, 7, "x")])
    # Reads of the absent item, a delete, a cas that creates the item.
    accepted([read(1, "k", 0, 1, None), cas(2, "k", 2, 3, None, "a", OK),
              write(3, "k", 4, 5, None), read(1, "k", 6, 7, None)])
    # A refused op changes nothing and sees nothing.
    accepted([write(1, "k", 0, 1, "a"), cas(2, "k", 2, 3, "zzz", "b", ERROR),
              read(3, "k", 4, 5, "a")])
    # Equal timestamps count as concurrent.
    accepted([write(1, "k", 0, 1, "a"), read(2, "k", 1, 2, None)])


def test_checker_accepts_unknown_outcomes_that_did_or_did_not_happen():
    # The timed-out write happened (later seen) ...
    accepted([write(1, "k", 0, None, "a", outcome=UNKNOWN), read(2, "k", 5, 6, "a")])
    # ... long after its client gave up on it.
    accepted([write(1, "k", 0, None, "a", outcome=UNKNOWN), read(2, "k", 5, 6, None),
              read(2, "k", 7, 8, "a")])
    # ... or never.
    accepted([write(1, "k", 0, None, "a", outcome=UNKNOWN), read(2, "k", 5, 6, None)])
    # An unknown cas that happened explains a later cas's failure.
    accepted([write(1, "k", 0, 1, "0"), cas(2, "k", 2, None, "0", "x", UNKNOWN),
              cas(3, "k", 4, 5, "0", "y", FAIL), read(3, "k", 6, 7, "x")])
    # An unknown write nobody read explains a failed cas (its value is "junk").
    accepted([write(1, "k", 0, 1, "0"), write(2, "k", 2, None, "lost", outcome=UNKNOWN),
              cas(3, "k", 4, 5, "0", "y", FAIL), write(1, "k", 6, 7, "z"),
              read(3, "k", 8, 9, "z")])
    # Several interchangeable unknown writes; only one of them happened.
    accepted([write(c, "k", 0, None, "u%d" % c, outcome=UNKNOWN) for c in range(12)]
             + [read(0, "k", 5, 6, "u7"), read(0, "k", 7, 8, "u7")])
    # Two unknown writes, both needed, at different moments: the first seen
    # after a completed write, the other taken by a cas after that.
    accepted([write(7, "k", 0.25, None, "u7", outcome=UNKNOWN),
              write(0, "k", 0.62, None, "u0", outcome=UNKNOWN),
              write(0, "k", 1.13, 1.24, "w"),
              read(2, "k", 1.29, 2.46, "u0"),
              cas(0, "k", 1.45, 1.87, "w", "x", FAIL),
              cas(1, "k", 1.57, 3.56, "u7", "y", OK),
              read(0, "k", 2.35, 2.83, "u0"),
              cas(2, "k", 2.54, 3.52, "y", "z", OK)])
    # An unknown read constrains nothing.
    accepted([write(1, "k", 0, 1, "a"), read(2, "k", 2, None, "whatever", outcome=UNKNOWN)])


def test_checker_requires_what_unknown_cannot_excuse():
    # Two values from unknown writes seen in one order, then the other and back.
    rejected([write(1, "k", 0, None, "a", outcome=UNKNOWN),
              write(2, "k", 0, None, "b", outcome=UNKNOWN),
              read(3, "k", 1, 2, "a"), read(3, "k", 3, 4, "b"), read(3, "k", 5, 6, "a")])


def simulated_history(rng, clients, ops_per_client, keys, unknown=0.04, refused=0.04):
    """A legal history by construction: each op takes effect at a random moment
    inside its interval (an unknown one: at some moment after its call, or
    never; a refused one: never), on a register per key."""
    plans = []
    for c in range(clients):
        t = rng.uniform(0, 1)
        for n in range(ops_per_client):
            invoke = t
            ret = invoke + rng.expovariate(1.0)
            t = ret + rng.expovariate(4.0)
            r, o = rng.random(), rng.random()
            outcome = UNKNOWN if o < unknown else ERROR if o < unknown + refused else OK
            at = rng.uniform(invoke, ret)
            if outcome == ERROR or (outcome == UNKNOWN and rng.random() < 0.5):
                at = None
            elif outcome == UNKNOWN:
                at = rng.uniform(invoke, ret + 3)
            plans.append((at, c, "k%d" % rng.randrange(keys),
                          READ if r < 0.4 else WRITE if r < 0.7 else CAS,
                          invoke, None if outcome == UNKNOWN else ret, outcome, "c%d.%d" % (c, n)))
    values, history = {}, []
    for at, c, key, kind, invoke, ret, outcome, value in sorted(
            plans, key=lambda p: float("inf") if p[0] is None else p[0]):
        current = values.get(key)
        if kind == READ:
            history.append(read(c, key, invoke, ret, current if at is not None else None, outcome))
        elif kind == WRITE:
            if at is not None:
                values[key] = value
            history.append(write(c, key, invoke, ret, value, outcome))
        else:
            expected = rng.choice([current, None, "c%d.%d" % (c, rng.randrange(5))])
            if at is not None and outcome == OK and current != expected:
                outcome = FAIL
            if at is not None and current == expected:
                values[key] = value
            history.append(cas(c, key, invoke, ret, expected, value, outcome))
    rng.shuffle(history)
    return history


def test_checker_accepts_simulated_legal_histories():
    rng = random.Random(33)
    for _ in range(size(10, 100)):
        accepted(simulated_history(rng, clients=8, ops_per_client=size(40, 150), keys=2))


def test_checker_rejects_a_stale_read_slipped_into_legal_histories():
    """In a legal history, a read turned stale (it sees a value overwritten,
    strictly before the read began, by a completed later write) must be
    found, wherever it is."""
    rng = random.Random(34)
    planted = 0
    for _ in range(size(20, 200)):
        history = simulated_history(rng, clients=8, ops_per_client=30, keys=1)
        writes = [op for op in history if op.kind == WRITE and op.outcome == OK]
        reads = [op for op in history if op.kind == READ and op.outcome == OK]
        stale = []
        for r in reads:
            before = [w for w in writes if w.ret < r.invoke]
            if before:
                new = max(before, key=lambda w: w.invoke)
                stale += [(r, old) for old in writes
                          if old.ret < new.invoke and old.value != r.value]
        if not stale:
            continue
        r, old = rng.choice(stale)
        history[history.index(r)] = read(r.client, r.key, r.invoke, r.ret, old.value)
        rejected(history)
        planted += 1
    assert planted > 0


# ---------------------------------------------------------------------------
# The server and its clients
# ---------------------------------------------------------------------------

@pytest.fixture(scope="module")
def server():
    srv = ServerProcess(["--in-memory", "--transaction-hold-ms", str(HOLD_MS)]).start()
    yield srv
    rc = srv.stop()
    tail = srv.log_tail()
    srv.remove_log()
    assert rc == 0, tail


def impatient_client(url):
    """A client of its own: one attempt, no retries, a short read timeout (an
    answer later than that is an unknown outcome)."""
    config = Config(retries={"mode": "standard", "total_max_attempts": 1},
                    connect_timeout=2, read_timeout=READ_TIMEOUT)
    return make_session().client("dynamodb", endpoint_url=url, config=config)


def create_table(client, name):
    client.create_table(TableName=name, BillingMode="PAY_PER_REQUEST",
                        KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}],
                        AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"}])
    wait_active(client, name)


def fault_rules(table, delays):
    """Faults on one table: refused before running (definite), 500s and
    dropped connections (ambiguous, did not run), answers delayed past the
    client's timeout or dropped after running (ambiguous, ran)."""
    return [
        {"Tables": [table], "Error": {"Type": "ProvisionedThroughputExceededException"},
         "Probability": 0.03, "Seed": 1},
        {"Tables": [table], "Error": {"Type": "InternalServerError"}, "Probability": 0.01,
         "Seed": 2},
        {"Tables": [table], "DropConnection": True, "Probability": 0.01, "Seed": 3},
        {"Tables": [table], "DelayMillis": DELAY_MS, "Probability": 0.005, "Seed": 4,
         "Count": delays},
        # Last, so the rules above draw on the same requests as without it.
        {"Tables": [table], "DropAnswer": True, "Probability": 0.01, "Seed": 5},
    ]


class InjectedFaults:
    """Adds the rules for the block, then removes every rule."""

    def __init__(self, url, rules):
        self.url, self.rules = url, rules

    def __enter__(self):
        for rule in self.rules:
            admin_ok(self.url, "faults", rule)
        return self

    def applied(self):
        return [rule.get("Applied", 0) for rule in admin_ok(self.url, "faults")["Rules"]]

    def __exit__(self, *exc):
        admin_ok(self.url, "faults", method="DELETE")


def call(operation, **request):
    """(outcome, answer): OK and the answer; UNKNOWN when the client got no
    verdict (timeout, closed connection, a 500); else the error's code and
    its response."""
    try:
        return OK, operation(**request)
    except ClientError as e:
        code = e.response["Error"]["Code"]
        return (UNKNOWN if code in AMBIGUOUS else code), e.response
    except (HTTPClientError, BotoConnectionError):
        return UNKNOWN, None


# ---------------------------------------------------------------------------
# Recorded histories of registers
# ---------------------------------------------------------------------------

def refused_or_unknown(outcome, answer):
    """An op's outcome after an answer that is not a success or a condition
    failure: ERROR (refused, no effect) or UNKNOWN."""
    if outcome == UNKNOWN:
        return UNKNOWN
    if outcome in REFUSED:
        return ERROR
    if outcome == "TransactionCanceledException":
        reasons = {r["Code"] for r in answer["CancellationReasons"]}
        if reasons <= REFUSED_REASONS:
            return ERROR
    raise AssertionError("unexpected answer {}: {}".format(outcome, answer))


def reason_codes(answer):
    return [r["Code"] for r in answer.get("CancellationReasons") or []]


class RegisterClient:
    """One thread's client: runs random ops on the keys and records each as
    an Op (or two, for a transaction over two keys)."""

    def __init__(self, cid, url, table, keys, seed):
        self.cid, self.table, self.keys = cid, table, keys
        self.client = impatient_client(url)
        self.rng = random.Random(seed)
        self.history = []
        self.seen = {k: None for k in keys}  # what this client last saw per key
        self.n = 0

    def run(self, deadline):
        ops = [(0.30, self.get_item), (0.10, self.transact_get), (0.15, self.put_item),
               (0.05, self.delete_item), (0.22, self.update_cas), (0.08, self.transact_cas),
               (0.05, self.transact_put), (0.05, self.transact_pair)]
        while time.monotonic() < deadline:
            self.n += 1
            r = self.rng.random()
            for weight, op in ops:
                r -= weight
                if r < 0:
                    break
            op(self.rng.choice(self.keys))

    def value(self):
        return "c{}.{}".format(self.cid, self.n)

    def expected(self, key):
        """Mostly the value this client last saw (likely to win), sometimes
        the absent item or a stale guess."""
        r = self.rng.random()
        return self.seen[key] if r < 0.8 else None if r < 0.9 else "c{}.{}".format(
            self.cid, self.rng.randrange(1, self.n + 1))

    def key(self, key):
        return {"pk": {"S": key}}

    def condition(self, expected):
        if expected is None:
            return {"ConditionExpression": "attribute_not_exists(pk)"}
        return {"ConditionExpression": "v = :e", "ExpressionAttributeValues": {
            ":e": {"S": expected}}}

    def timed(self, operation, **request):
        invoke = time.monotonic()
        outcome, answer = call(operation, **request)
        return invoke, time.monotonic(), outcome, answer

    def record(self, op):
        if op.outcome == OK:
            self.seen[op.key] = op.value
        self.history.append(op)

    def get_item(self, key):
        invoke, ret, outcome, answer = self.timed(self.client.get_item, TableName=self.table,
                                                  Key=self.key(key), ConsistentRead=True)
        seen = None
        if outcome == OK:
            seen = answer["Item"]["v"]["S"] if "Item" in answer else None
        else:
            outcome = refused_or_unknown(outcome, answer)
        self.record(read(self.cid, key, invoke, ret, seen, outcome))

    def transact_get(self, key):
        invoke, ret, outcome, answer = self.timed(
            self.client.transact_get_items,
            TransactItems=[{"Get": {"TableName": self.table, "Key": self.key(key)}}])
        seen = None
        if outcome == OK:
            item = answer["Responses"][0].get("Item")
            seen = item["v"]["S"] if item else None
        else:
            outcome = refused_or_unknown(outcome, answer)
        self.record(read(self.cid, key, invoke, ret, seen, outcome))

    def put_item(self, key):
        value = self.value()
        invoke, ret, outcome, answer = self.timed(
            self.client.put_item, TableName=self.table,
            Item={"pk": {"S": key}, "v": {"S": value}})
        if outcome != OK:
            outcome = refused_or_unknown(outcome, answer)
        self.record(write(self.cid, key, invoke, ret, value, outcome))

    def delete_item(self, key):
        invoke, ret, outcome, answer = self.timed(self.client.delete_item, TableName=self.table,
                                                  Key=self.key(key))
        if outcome != OK:
            outcome = refused_or_unknown(outcome, answer)
        self.record(write(self.cid, key, invoke, ret, None, outcome))

    def update_cas(self, key):
        expected, value = self.expected(key), self.value()
        request = self.condition(expected)
        request.setdefault("ExpressionAttributeValues", {})[":v"] = {"S": value}
        invoke, ret, outcome, answer = self.timed(
            self.client.update_item, TableName=self.table, Key=self.key(key),
            UpdateExpression="SET v = :v", **request)
        if outcome == "ConditionalCheckFailedException":
            outcome = FAIL
        elif outcome != OK:
            outcome = refused_or_unknown(outcome, answer)
        self.record(cas(self.cid, key, invoke, ret, expected, value, outcome))

    def cas_action(self, key, expected, value):
        action = {"TableName": self.table, "Key": self.key(key),
                  "UpdateExpression": "SET v = :v"}
        action.update(self.condition(expected))
        action.setdefault("ExpressionAttributeValues", {})[":v"] = {"S": value}
        return {"Update": action}

    def transact_cas(self, key):
        expected, value = self.expected(key), self.value()
        invoke, ret, outcome, answer = self.timed(
            self.client.transact_write_items,
            TransactItems=[self.cas_action(key, expected, value)])
        if outcome == "TransactionCanceledException" and \
                reason_codes(answer) == ["ConditionalCheckFailed"]:
            outcome = FAIL
        elif outcome != OK:
            outcome = refused_or_unknown(outcome, answer)
        self.record(cas(self.cid, key, invoke, ret, expected, value, outcome))

    def transact_put(self, key):
        value = self.value()
        invoke, ret, outcome, answer = self.timed(
            self.client.transact_write_items,
            TransactItems=[{"Put": {"TableName": self.table,
                                    "Item": {"pk": {"S": key}, "v": {"S": value}}}}])
        if outcome != OK:
            outcome = refused_or_unknown(outcome, answer)
        self.record(write(self.cid, key, invoke, ret, value, outcome))

    def transact_pair(self, key):
        """A put on one key and a compare-and-set on another, in one
        transaction: each key's register sees its own half."""
        other = self.rng.choice([k for k in self.keys if k != key])
        value, expected = self.value(), self.expected(other)
        invoke, ret, outcome, answer = self.timed(
            self.client.transact_write_items, TransactItems=[
                {"Put": {"TableName": self.table,
                         "Item": {"pk": {"S": key}, "v": {"S": value}}}},
                self.cas_action(other, expected, value)])
        put_outcome = cas_outcome = outcome
        if outcome == "TransactionCanceledException":
            put_reason, cas_reason = reason_codes(answer)
            assert put_reason in REFUSED_REASONS, answer
            put_outcome = ERROR
            cas_outcome = FAIL if cas_reason == "ConditionalCheckFailed" else \
                refused_or_unknown(outcome, answer)
        elif outcome != OK:
            put_outcome = cas_outcome = refused_or_unknown(outcome, answer)
        self.record(write(self.cid, key, invoke, ret, value, put_outcome))
        self.record(cas(self.cid, other, invoke, ret, expected, value, cas_outcome))


def record_history(server, table):
    keys = ["key%d" % k for k in range(KEYS)]
    clients = [RegisterClient(c, server.url, table, keys, seed="{}-{}".format(table, c))
               for c in range(THREADS)]
    deadline = time.monotonic() + LOAD_SECONDS
    run_threads(THREADS, lambda i: clients[i].run(deadline))
    return [op for c in clients for op in c.history]


def summary(history):
    """Counts by (kind, outcome), ops per key, and how many unknown writes
    were seen to take effect (their value, unique, read or matched later)."""
    counts, per_key = {}, {}
    for op in history:
        counts[(op.kind, op.outcome)] = counts.get((op.kind, op.outcome), 0) + 1
        per_key[op.key] = per_key.get(op.key, 0) + 1
    seen = {(op.key, op.value if op.kind == READ else op.expected) for op in history
            if op.outcome == OK and op.kind != WRITE}
    happened = sum(1 for op in history if op.kind != READ and op.outcome == UNKNOWN
                   and op.value is not None and (op.key, op.value) in seen)
    return counts, per_key, happened


def check_recorded(history, name):
    started = time.monotonic()
    result = check(history)
    took = time.monotonic() - started
    counts, per_key, happened = summary(history)
    print("\n{}: {} ops, per key {}, checked in {:.2f}s; {}; unknown writes seen to take "
          "effect: {}".format(name, len(history), sorted(per_key.values()), took,
                              ", ".join("{} {}: {}".format(k, o, n)
                                        for (k, o), n in sorted(counts.items())), happened))
    assert result.ok, result.explanation
    # The run tested something: every kind of op ran and both cas verdicts came.
    for kind, outcome in [(READ, OK), (WRITE, OK), (CAS, OK), (CAS, FAIL)]:
        assert counts.get((kind, outcome)), "no {} {} in the history".format(kind, outcome)
    return counts


def test_recorded_history_is_linearizable(server):
    create_table(server.client(), "registers")
    history = record_history(server, "registers")
    counts = check_recorded(history, "registers")
    # --transaction-hold-ms made transactions and writes meet.
    assert sum(n for (kind, outcome), n in counts.items() if outcome == ERROR), \
        "no conflict in the whole run"


def test_recorded_history_with_injected_faults_is_linearizable(server):
    create_table(server.client(), "registers_faults")
    with InjectedFaults(server.url, fault_rules("registers_faults", delays=6)) as faults:
        history = record_history(server, "registers_faults")
        applied = faults.applied()
    counts = check_recorded(history, "registers with faults (applied {})".format(applied))
    assert sum(n for (kind, outcome), n in counts.items() if outcome == UNKNOWN), \
        "no unknown outcome in the whole run"


# ---------------------------------------------------------------------------
# The bank
# ---------------------------------------------------------------------------

ACCOUNTS = size(6, 12)
START = 100
RETRY_LIMIT = 1000


class Teller:
    """One thread's client: transfers (each retried with its token until its
    outcome is known) and audits (TransactGetItems of every account)."""

    def __init__(self, url, seed):
        self.client = impatient_client(url)
        self.rng = random.Random(seed)
        self.applied = []     # (from, to, amount) of the transfers that took effect
        self.refused = 0      # cancelled on their condition
        self.retries = 0
        self.audits = []      # balances each audit saw

    def key(self, account):
        return {"pk": {"S": "a%02d" % account}}

    def transfer(self):
        a, b = self.rng.sample(range(ACCOUNTS), 2)
        amount = self.rng.randrange(1, 60)
        request = dict(ClientRequestToken=str(uuid.uuid4()), TransactItems=[
            {"Update": {"TableName": "bank", "Key": self.key(a),
                        "UpdateExpression": "SET balance = balance - :x",
                        "ConditionExpression": "balance >= :x",
                        "ExpressionAttributeValues": {":x": {"N": str(amount)}}}},
            {"Update": {"TableName": "bank", "Key": self.key(b),
                        "UpdateExpression": "SET balance = balance + :x",
                        "ExpressionAttributeValues": {":x": {"N": str(amount)}}}}])
        # Until the outcome is known: the same token makes a retry of a
        # transfer that did take effect a repeat, not a second transfer.
        for _ in range(RETRY_LIMIT):
            outcome, answer = call(self.client.transact_write_items, **request)
            if outcome == OK:
                self.applied.append((a, b, amount))
                return
            if outcome == "TransactionCanceledException" and \
                    "ConditionalCheckFailed" in reason_codes(answer):
                self.refused += 1
                return
            if outcome not in (UNKNOWN, "TransactionInProgressException"):
                assert refused_or_unknown(outcome, answer) == ERROR
            self.retries += 1
            time.sleep(self.rng.uniform(0, 0.005))
        raise AssertionError("a transfer found no outcome in {} attempts".format(RETRY_LIMIT))

    def audit(self, deadline):
        items = [{"Get": {"TableName": "bank", "Key": self.key(a)}} for a in range(ACCOUNTS)]
        while time.monotonic() < deadline:
            outcome, answer = call(self.client.transact_get_items, TransactItems=items)
            if outcome == OK:
                self.audits.append([int(r["Item"]["balance"]["N"]) for r in answer["Responses"]])
                return
            if outcome != UNKNOWN:
                assert refused_or_unknown(outcome, answer) == ERROR
            self.retries += 1
            time.sleep(self.rng.uniform(0, 0.005))

    def run(self, deadline):
        while time.monotonic() < deadline:
            if self.rng.random() < 0.7:
                self.transfer()
            else:
                self.audit(deadline)


def test_bank_transfers_keep_every_balance(server):
    setup = server.client()
    create_table(setup, "bank")
    for a in range(ACCOUNTS):
        setup.put_item(TableName="bank", Item={"pk": {"S": "a%02d" % a},
                                               "balance": {"N": str(START)}})
    total = ACCOUNTS * START
    tellers = [Teller(server.url, seed=t) for t in range(THREADS)]
    with InjectedFaults(server.url, fault_rules("bank", delays=4)) as faults:
        deadline = time.monotonic() + LOAD_SECONDS
        run_threads(THREADS, lambda i: tellers[i].run(deadline))
        applied = faults.applied()

    audits = [seen for t in tellers for seen in t.audits]
    transfers = [x for t in tellers for x in t.applied]
    print("\nbank: {} accounts, {} transfers applied, {} refused on balance, {} retries, "
          "{} audits; faults applied {}".format(
              ACCOUNTS, len(transfers), sum(t.refused for t in tellers),
              sum(t.retries for t in tellers), len(audits), applied))
    for seen in audits:
        assert sum(seen) == total and min(seen) >= 0, seen
    expected = [START] * ACCOUNTS
    for a, b, amount in transfers:
        expected[a] -= amount
        expected[b] += amount
    final = [int(setup.get_item(TableName="bank", Key={"pk": {"S": "a%02d" % a}},
                                ConsistentRead=True)["Item"]["balance"]["N"])
             for a in range(ACCOUNTS)]
    # Exactly the transfers that were acknowledged, each once: none lost,
    # none applied twice by a retry.
    assert final == expected
    assert sum(final) == total and min(final) >= 0
    assert transfers and audits
    assert any(t.refused for t in tellers), "no transfer met its balance condition"
