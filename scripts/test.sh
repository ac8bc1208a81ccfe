#!/usr/bin/env bash
# Sets up, builds and runs every test: the GoogleTest suites (engine, api,
# server), the end-to-end suite, which starts the real binary and drives
# it with boto3 and the AWS CLI, and the browser tests of the web console
# (chromium driven by playwright-core).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh --tests
cd build
ctest --output-on-failure -j "$(nproc 2>/dev/null || echo 2)"
