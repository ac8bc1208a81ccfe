"""Starts the real localdynamo binary on a free port for the SDK suite and
stops it with SIGTERM, as SCENARIOS.md says every SDK suite does."""

import os
import queue
import socket
import subprocess
import threading
from pathlib import Path

REPO = Path(__file__).resolve().parents[3]
STARTUP_SECONDS = 20


def binary():
    return os.environ.get("LOCALDYNAMO_BIN") or str(REPO / "build" / "localdynamo")


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    def __init__(self):
        self.port = free_port()
        self.url = "http://127.0.0.1:{}".format(self.port)
        self.lines = []
        self.process = subprocess.Popen(
            [binary(), "--in-memory", "--host", "127.0.0.1", "--port", str(self.port),
             "--throttle"],
            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        ready = queue.Queue()
        # The reader keeps draining stdout for the whole run, so a chatty
        # server never blocks on a full pipe.
        threading.Thread(target=self._read, args=(ready,), daemon=True).start()
        try:
            ready.get(timeout=STARTUP_SECONDS)
        except queue.Empty:
            self.process.kill()
            raise RuntimeError("localdynamo did not say 'listening on' within {} s:\n{}".format(
                STARTUP_SECONDS, "".join(self.lines)))
        if self.process.poll() is not None:
            raise RuntimeError("localdynamo exited with {}:\n{}".format(
                self.process.returncode, "".join(self.lines)))

    def _read(self, ready):
        for line in self.process.stdout:
            self.lines.append(line)
            if "listening on" in line:
                ready.put(True)
        ready.put(False)  # stdout closed: the process has ended

    def stop(self):
        """SIGTERM; returns the exit code (0 when it shut down cleanly)."""
        self.process.terminate()
        try:
            return self.process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            self.process.kill()
            return self.process.wait()

    def log(self):
        return "".join(self.lines[-40:])
