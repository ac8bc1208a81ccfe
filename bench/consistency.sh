#!/usr/bin/env bash
# The long mode of the consistency checks: the recorded histories and the
# bank of tests/reliability/test_linearizability.py at RELIABILITY_LONG=1
# sizes (about 100 s on two cores). Not a benchmark of speed: it is here
# because it is too long for CI, and prints the sizes checked.
#   bench/consistency.sh            against build/localdynamo
#   LOCALDYNAMO_BIN=PATH bench/consistency.sh
set -euo pipefail
cd "$(dirname "$0")/.."
export LOCALDYNAMO_BIN="${LOCALDYNAMO_BIN:-build/localdynamo}" RELIABILITY_LONG=1
exec /usr/bin/python3 -m pytest -q -s -p no:cacheprovider tests/reliability/test_linearizability.py
