#!/usr/bin/env bash
# Sets up, builds and runs every test: the GoogleTest suites (engine, api,
# server), the end-to-end suite, which starts the real binary and drives
# it with boto3, the AWS CLI and the AWS SDK for JavaScript, and the browser
# tests of the web console (chromium driven by playwright-core); then checks
# the engine's lock annotations with Clang (scripts/thread_safety.sh); builds
# the container images (amd64, and arm64 cross-compiled and run under qemu) and tests
# them end to end, Testcontainers for Node included (scripts/container-test.sh;
# needs root or sudo; skip it with LOCALDYNAMO_SKIP_CONTAINER_TEST=1); and
# last builds the project twice more, with ASan + UBSan and with TSan, and
# runs the tests against those builds (scripts/sanitizers.sh: about half an
# hour on 2 cores; skip it with LOCALDYNAMO_SKIP_SANITIZERS=1).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh --tests
(cd build && ctest --output-on-failure -j "$(nproc 2>/dev/null || echo 2)")
scripts/thread_safety.sh
if [[ "${LOCALDYNAMO_SKIP_CONTAINER_TEST:-0}" != 1 ]]; then
  scripts/container-test.sh
fi
if [[ "${LOCALDYNAMO_SKIP_SANITIZERS:-0}" != 1 ]]; then
  scripts/sanitizers.sh
fi
