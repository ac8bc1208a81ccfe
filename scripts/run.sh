#!/usr/bin/env bash
# Sets up and starts localdynamo on 127.0.0.1:8000 (persistent, data in
# ./localdynamo-data). Extra arguments go to the server, e.g. --in-memory.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
exec build/localdynamo "$@"
