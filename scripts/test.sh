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
#    and the arm64 one cross-compiled; npm packages and wheels); skip it with
#    LOCALDYNAMO_SKIP_RELEASE=1;
# 4. its proofs: where users run it (scripts/release-test.sh: a bare root, a
#    Debian bullseye root, qemu-user for arm64, and the packages in a fresh
#    root without a compiler), what the release workflow would publish
#    checked without publishing (scripts/release-check.sh: actionlint, npm
#    publish --dry-run, twine check, Maven Central's POM rules), and the
#    container images for amd64 and arm64, assembled from those release
#    binaries, tested end to end, Testcontainers for Node included
#    (scripts/container-test.sh; skip it with
#    LOCALDYNAMO_SKIP_CONTAINER_TEST=1); all need root or sudo. Beside them,
#    the project built twice more, with ASan + UBSan and with TSan;
# 5. last, the tests run against those two builds (scripts/sanitizers.sh;
#    skip both with LOCALDYNAMO_SKIP_SANITIZERS=1).
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
release=1 containers=1 sanitizers=1
[[ "${LOCALDYNAMO_SKIP_RELEASE:-0}" == 1 ]] && release=0
[[ "${LOCALDYNAMO_SKIP_CONTAINER_TEST:-0}" == 1 ]] && containers=0
[[ "${LOCALDYNAMO_SKIP_SANITIZERS:-0}" == 1 ]] && sanitizers=0
if ((release)); then
  stage release scripts/release.sh
fi
# What proves the release (its checks, the bare and old roots, the
# container images) waits mostly on downloads, debootstrap and buildah's
# copies; the sanitizer builds wait on the compiler. So the two run side by
# side, the proofs' output held in a log that is printed when they end.
# The sanitizers' suites start after both: no timed test shares the cores
# with another stage.
proofs() {  # stops at the first failed stage, as set -e does out here
  local status=0
  if ((release)); then
    stage release_check scripts/release-check.sh &&
      stage release_test scripts/release-test.sh || status=$?
  fi
  if ((status == 0 && containers)); then
    stage container_test scripts/container-test.sh || status=$?
  fi
  return "$status"
}
if ((sanitizers)); then
  proofs_log=build/ci-proofs.log proofs_times=build/ci-proofs.times
  # The background shell's stage times come back through a file.
  (
    first=${#timings[@]} status=0
    proofs || status=$?
    printf '%s\n' "${timings[@]:first}" >"$proofs_times"
    exit "$status"
  ) >"$proofs_log" 2>&1 &
  proofs_pid=$!
  builds_status=0 proofs_status=0
  stage sanitizer_builds scripts/sanitizers.sh --build || builds_status=$?
  wait "$proofs_pid" || proofs_status=$?
  cat "$proofs_log"
  if [[ -f "$proofs_times" ]]; then
    mapfile -t -O "${#timings[@]}" timings <"$proofs_times"
  fi
  ((proofs_status == 0)) || exit "$proofs_status"
  ((builds_status == 0)) || exit "$builds_status"
  stage sanitizers scripts/sanitizers.sh --test
else
  proofs
fi
