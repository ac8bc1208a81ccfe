#!/usr/bin/env bash
# Sets up, builds once and runs every test against what was built:
# 1. the GoogleTest suites (engine, api, server, ...), the end-to-end suite,
#    which starts the real binary and drives it with boto3, the AWS CLI and
#    the AWS SDK for JavaScript, the SDK scenario suites (Java, Go, Python,
#    JavaScript: tests/sdk) with their report, the Java and Go integrations'
#    samples, the browser tests of the web console
#    (chromium driven by playwright-core), reliability and fuzzing (ctest);
# 2. the sources under Clang and libc++, with its thread-safety analysis
#    (scripts/clang_check.sh, compile only);
# 3. the release (scripts/release.sh: the binary the tests ran, stripped,
#    and the arm64 one cross-compiled; npm packages and wheels) proved where
#    users run it (scripts/release-test.sh: a bare root, a Debian bullseye
#    root, qemu-user for arm64, and the packages in a fresh root without a
#    compiler), and what the release workflow would publish checked without
#    publishing (scripts/release-check.sh: actionlint, npm publish --dry-run,
#    twine check, Maven Central's POM rules); needs root or sudo; skip with
#    LOCALDYNAMO_SKIP_RELEASE=1;
# 4. the container images for amd64 and arm64, assembled from those release
#    binaries, tested end to end, Testcontainers for Node included
#    (scripts/container-test.sh; needs root or sudo; skip it with
#    LOCALDYNAMO_SKIP_CONTAINER_TEST=1);
# 5. last, the project built twice more, with ASan + UBSan and with TSan, and
#    the tests run against those builds (scripts/sanitizers.sh; skip it with
#    LOCALDYNAMO_SKIP_SANITIZERS=1).
# Prints the time of each stage.
set -euo pipefail
cd "$(dirname "$0")/.."
timings=()
stage() {  # name, command...
  local name=$1 started=$SECONDS status=0
  shift
  "$@" || status=$?
  timings+=("$name $((SECONDS - started)) s")
  echo "test.sh: $name took $((SECONDS - started)) s (at $((SECONDS / 60)) min)"
  return "$status"
}
# Every stage's time again at the end, failed or not: the end of a long log
# is the part a reader (or a CI excerpt) sees.
report_timings() {
  local IFS=,
  echo "test.sh: stage times: ${timings[*]:-none finished}; $SECONDS s in all"
}
trap report_timings EXIT
stage setup scripts/setup.sh --tests
# The Node the set-up chose (scripts/node-env.sh), for every stage after it.
. scripts/node-env.sh
stage ctest bash -c 'cd build && ctest --output-on-failure -j "$(nproc 2>/dev/null || echo 2)"'
stage clang_check scripts/clang_check.sh
if [[ "${LOCALDYNAMO_SKIP_RELEASE:-0}" != 1 ]]; then
  stage release scripts/release.sh
  stage release_check scripts/release-check.sh
  stage release_test scripts/release-test.sh
fi
if [[ "${LOCALDYNAMO_SKIP_CONTAINER_TEST:-0}" != 1 ]]; then
  stage container_test scripts/container-test.sh
fi
if [[ "${LOCALDYNAMO_SKIP_SANITIZERS:-0}" != 1 ]]; then
  stage sanitizers scripts/sanitizers.sh
fi
