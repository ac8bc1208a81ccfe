"""Crash safety: writers on tables with GSIs, a vector index, streams and TTL; the server is
killed with SIGKILL at random moments and restarted on the same data
directory; after every restart the checker finds each acknowledged write,
no transaction half there, and the tables, GSIs, TTL schedule and streams
in agreement (crash_model.py, crash_checker.py).

CI: 20 cycles with 4 writers, every check after every cycle;
RELIABILITY_LONG=1: 200 cycles with 8, the streams (read whole each time)
checked every 10th cycle and at the end.
"""

import random
import threading
import time

from e2e.e2e_util import make_client, wait_active
from e2e.server_util import ServerProcess, make_streams_client, server_now

from .crash_checker import (
    check_indexes, check_streams, check_tables, check_ttl, check_vectors, settle_pending,
    table_state)
from .crash_model import (LAYERS, LEDGER, Model, Writer, ledger_create_request,
                          ledger_vector_index)
from .reliability_util import LONG, size

CYCLES = size(20, 200)
WRITERS = size(4, 8)
KEYS_PER_WRITER = 30


def kill(server):
    server.proc.kill()
    server.proc.wait()
    server.proc = None
    server.remove_log()


def write_until_killed(server, model, rng, cycle):
    ttl_base = server_now(server.url)
    stop = threading.Event()
    writers = [Writer(w, make_client(server.url), model, stop, KEYS_PER_WRITER, ttl_base,
                      seed=rng.random()) for w in range(WRITERS)]
    for w in writers:
        w.version = cycle * 1_000_000  # versions stay unique across cycles
        w.start()
    time.sleep(rng.uniform(0.1, 0.8))
    kill(server)
    for w in writers:
        w.join(timeout=60)
        assert not w.is_alive(), "a writer hangs on a dead server"
        assert w.failure is None, "writer {}: {}".format(w.wid, w.failure)


def crash_cycles(args, servers):
    """Runs the write-kill-restart-check cycles; returns (model, TTL deletes,
    stream records). Every server started is appended to `servers`."""
    rng = random.Random(14)
    model = Model()
    server = ServerProcess(args).start()
    servers.append(server)
    client = make_client(server.url)
    client.create_table(**ledger_create_request(), VectorIndexes=[ledger_vector_index()])
    wait_active(client, LEDGER)
    assert table_state(client, LAYERS) == {}, "the preloaded table starts empty"
    expired = 0
    records = 0
    vector_rows = 0
    for cycle in range(CYCLES):
        write_until_killed(server, model, rng, cycle + 1)
        server = ServerProcess(args).start()
        servers.append(server)
        client = make_client(server.url)
        observed = {}
        for table in (LAYERS, LEDGER):
            observed.update(table_state(client, table))
        settle_pending(model, observed)
        check_tables(client, model)
        check_indexes(client, model)
        vector_rows += check_vectors(server.url, model, WRITERS)
        if not LONG or cycle % 10 == 9:  # each check rereads the whole stream
            records = check_streams(client, make_streams_client(server.url), model)
        expired += check_ttl(server.url, client, model, rng)
        check_tables(client, model)
        check_indexes(client, model)
        vector_rows += check_vectors(server.url, model, WRITERS)
    records = check_streams(client, make_streams_client(server.url), model)
    assert server.stop() == 0
    server.remove_log()
    return model, expired, records, vector_rows


def test_acknowledged_writes_survive_sigkill(tmp_path):
    args = ["--data-dir", str(tmp_path / "data"), "--ttl-interval", "0"]
    servers = []  # the live one is last; stopped even when a check fails
    try:
        model, expired, records, vector_rows = crash_cycles(args, servers)
    finally:
        if servers and servers[-1].proc is not None:
            servers[-1].proc.kill()
            servers[-1].proc.wait()
            servers[-1].remove_log()
    print("\ncrash safety: {} SIGKILL cycles, {} acknowledged writes verified, {} TTL deletes, "
          "{} stream records, {} vector index rows checked".format(
              CYCLES, model.acknowledged, expired, records, vector_rows))
    assert model.acknowledged > CYCLES * 10, "the writers barely wrote"
    assert expired > 0, "no TTL'd item ever expired"
    assert vector_rows > 0, "the vector index was never checked against an item"
