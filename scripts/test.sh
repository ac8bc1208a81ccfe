#!/usr/bin/env bash
# Sets up, builds and runs every test: the GoogleTest suites (engine, api,
# server) and the end-to-end suite, which starts the real binary and drives
# it with boto3 and the AWS CLI; then the same tests in sanitized builds
# (scripts/sanitizers.sh: ASan + UBSan, TSan). LOCALDYNAMO_SKIP_SANITIZERS=1
# skips those for a quicker local run.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh --tests
(cd build && ctest --output-on-failure -j "$(nproc 2>/dev/null || echo 2)")
if [[ "${LOCALDYNAMO_SKIP_SANITIZERS:-0}" != 1 ]]; then
  scripts/sanitizers.sh
fi
