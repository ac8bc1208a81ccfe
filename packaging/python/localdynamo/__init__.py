"""The localdynamo server's binary, carried by this wheel.

`localdynamo` on the command line (or `python3 -m localdynamo`) runs it
with the arguments given; binary_path() is where it is, for code that starts
the server itself."""

import os
import sys
from pathlib import Path

__all__ = ["binary_path", "main"]


def binary_path():
    """The absolute path of the server binary; FileNotFoundError where this
    installation has none (a source checkout, not a built wheel)."""
    path = Path(__file__).resolve().parent / "bin" / "localdynamo"
    if not path.is_file():
        raise FileNotFoundError(
            "localdynamo: no binary at {} (install a wheel built by scripts/release.sh, "
            "for linux x86_64 or aarch64)".format(path))
    if not os.access(path, os.X_OK):  # an installer that dropped the mode bits
        path.chmod(path.stat().st_mode | 0o111)
    return str(path)


def main():
    """The console script: becomes the server process, so that signals and
    the exit status are the server's own."""
    try:
        binary = binary_path()
    except FileNotFoundError as error:
        sys.exit(str(error))
    os.execv(binary, [binary, *sys.argv[1:]])
