"""Starting and stopping the localdynamo binary for a test session.

The server is started on port 0 (it picks a free port itself, so no other
process can take the port between choosing and binding it) and the address is
read from its "localdynamo listening on http://..." line.  Its output goes to
a temporary log file rather than a pipe: nobody drains a pipe during the run,
and a full pipe would block the server.
"""

import ctypes
import ctypes.util
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time

STARTUP_DEADLINE_S = 15.0
SHUTDOWN_DEADLINE_S = 10.0

_LISTENING = re.compile(rb"localdynamo listening on (http://\S+)")


_PR_SET_PDEATHSIG = 1


def _stop_with_parent():
    """In the child, before exec (Linux): SIGTERM when the process that
    started the server dies, so that a killed pytest (a CI timeout, SIGKILL)
    leaves no server behind."""
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c"), use_errno=True)
        libc.prctl(_PR_SET_PDEATHSIG, signal.SIGTERM, 0, 0, 0)
    except (OSError, AttributeError):
        pass


class ServerError(RuntimeError):
    """The binary is missing, did not start, or did not stop cleanly."""


def packaged_binary():
    """The binary of the `localdynamo` package (its wheel carries one for
    Linux x86_64 and aarch64), or None where it is not installed."""
    try:
        import localdynamo
        return localdynamo.binary_path()
    except (ImportError, FileNotFoundError):
        return None


def find_binary(configured):
    """The binary to run: `configured` (the --localdynamo-bin option,
    $LOCALDYNAMO_BIN or the localdynamo_bin ini value, in that order, already
    chosen by the caller), the `localdynamo` package's, or `localdynamo` on
    PATH."""
    candidate = configured or packaged_binary() or shutil.which("localdynamo")
    if not candidate:
        raise ServerError(
            "localdynamo binary not found: pip install localdynamo, put it on PATH, or set "
            "--localdynamo-bin, $LOCALDYNAMO_BIN or the localdynamo_bin ini option "
            "(or point $LOCALDYNAMO_URL at a running server)")
    if not (os.path.isfile(candidate) and os.access(candidate, os.X_OK)):
        raise ServerError("localdynamo binary not found or not executable: {}".format(candidate))
    return os.path.abspath(candidate)


class LocalDynamoServer:
    """One localdynamo process on 127.0.0.1, in memory."""

    def __init__(self, binary, args):
        self.binary = binary
        self.args = list(args)
        self.url = None
        self.returncode = None
        self._proc = None
        self._log_path = None

    @property
    def command(self):
        return [self.binary, "--host", "127.0.0.1", "--port", "0"] + self.args

    def start(self):
        fd, self._log_path = tempfile.mkstemp(prefix="pytest-localdynamo-", suffix=".log")
        with os.fdopen(fd, "wb") as log:
            self._proc = subprocess.Popen(
                self.command, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                preexec_fn=_stop_with_parent if sys.platform.startswith("linux") else None)
        deadline = time.monotonic() + STARTUP_DEADLINE_S
        while time.monotonic() < deadline:
            match = _LISTENING.search(self._read_log())
            if match:
                self.url = match.group(1).decode("ascii")
                return self
            if self._proc.poll() is not None:
                raise ServerError("localdynamo exited during start-up (code {}): {}\n{}".format(
                    self._proc.returncode, " ".join(self.command), self.log_tail()))
            time.sleep(0.005)
        self._proc.kill()
        self._proc.wait()
        raise ServerError("localdynamo did not report its address within {:.0f} s: {}\n{}".format(
            STARTUP_DEADLINE_S, " ".join(self.command), self.log_tail()))

    def stop(self):
        """SIGTERM and wait; returns the exit code (0 when it stopped cleanly).
        Kills it if it does not stop in time."""
        if self._proc is None:
            return self.returncode
        if self._proc.poll() is None:
            self._proc.send_signal(signal.SIGTERM)
            try:
                self._proc.wait(timeout=SHUTDOWN_DEADLINE_S)
            except subprocess.TimeoutExpired:
                self._proc.kill()
                self._proc.wait()
        self.returncode = self._proc.returncode
        self._proc = None
        return self.returncode

    def log_tail(self, limit=4000):
        data = self._read_log()
        return "--- localdynamo log ---\n" + data[-limit:].decode("utf-8", "replace")

    def remove_log(self):
        if self._log_path:
            try:
                os.unlink(self._log_path)
            except OSError:
                pass
            self._log_path = None

    def _read_log(self):
        try:
            with open(self._log_path, "rb") as f:
                return f.read()
        except (OSError, TypeError):
            return b""
