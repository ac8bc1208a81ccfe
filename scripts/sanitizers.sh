#!/usr/bin/env bash
# Builds localdynamo and its tests with sanitizers and runs them (CI runs
# this after the normal ctest and the container test, unless
# LOCALDYNAMO_SKIP_SANITIZERS=1; see scripts/test.sh):
#   build-asan  AddressSanitizer + UndefinedBehaviorSanitizer (and LeakSanitizer
#               at exit), built with clang: every unit test, the whole
#               end-to-end suite, the JS SDK, MCP, reliability and browser
#               tests, the sanitized binary started by the suites through
#               LOCALDYNAMO_BIN; and the libFuzzer targets (30 s each), which
#               link this build's libraries. The pytest plugin's and the
#               Vitest/Jest samples stay out: they prove the packages'
#               start-up glue, and drive the server through requests the
#               end-to-end suite already makes (a minute of CI between them);
#               so do the SDK scenario suites and the Java and Go samples
#               (label sdk).
#   build-tsan  ThreadSanitizer: every unit test, the reliability and browser
#               tests, and the end-to-end files that drive the server from many
#               threads at once (the whole suite under TSan costs more CI time
#               than it finds races; the integration samples too).
# Measured on 2 shared cores, clean build dirs: asan 8-9 min to build + 2
# min of tests, tsan 3-4.5 + 3 min; 15-19 min in all (more on busier cores).
# Both build in unity batches (CMakeLists.txt, LOCALDYNAMO_UNITY): asan's
# build then took 4 min 20 s on an idle machine.
# A report fails the run: UBSan aborts, ASan/TSan make the process exit
# non-zero, and the e2e suites require the server to exit 0 after SIGTERM.
# Known false positives from the prebuilt libraries are suppressed in
# tests/sanitizers/*.supp, each with the reason.
#   scripts/sanitizers.sh [--build|--test] [asan|tsan]...   (default: both)
# --build only builds, --test only runs what was built: scripts/test.sh
# builds while the release is being proved beside it, and tests after, so
# no timed suite shares the cores with another stage.
set -euo pipefail
cd "$(dirname "$0")/.."
root="$(pwd)"
jobs=2  # 2-core CI machines, shared

# The e2e files run under TSan: concurrent writers, transactions racing,
# stream readers next to writers, background TTL sweeps, the persistent
# store's restarts, triggers delivering from their own threads while the
# table is written, stopped and restarted. Their waits and timing
# tolerances stretch with LOCALDYNAMO_SLOW=1 (tests/e2e/e2e_util.py).
tsan_e2e=(test_item_concurrency.py test_transaction_conflicts.py test_streams.py
          test_ttl.py test_persistence.py test_signatures.py test_triggers.py)

configure_and_build() {  # dir, sanitizers, more cmake arguments...
  # -O1 runs the suites at a bearable speed; -g1 keeps the line tables the
  # reports' stacks need (inlined frames included) and compiles a quarter
  # faster than -g. Only what the tests run is built (no benchmarks).
  local dir=$1 sanitizers=$2
  shift 2
  cmake -S . -B "$dir" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g1" \
        -DLOCALDYNAMO_SANITIZE="$sanitizers" -DLOCALDYNAMO_UNITY=ON "$@" >/dev/null
  cmake --build "$dir" -j "$jobs" --target localdynamo \
        engine_tests api_tests emulator_tests cli_tests server_tests mcp_tests
}

build_asan() {
  # With clang, and libFuzzer's coverage instrumentation too: the fuzz
  # targets (ctest's fuzz, tests/fuzz/run.sh) link this build's api and
  # engine libraries instead of compiling those layers a second time.
  # RapidJSON's headers are left uninstrumented for UBSan (its null-stack
  # arithmetic, tests/fuzz/ubsan_ignore.txt).
  configure_and_build build-asan address,undefined,fuzzer-no-link -DCMAKE_CXX_COMPILER=clang++ \
    -DCMAKE_CXX_FLAGS="-fsanitize-ignorelist=$root/tests/fuzz/ubsan_ignore.txt"
}

test_asan() {
  export ASAN_OPTIONS="detect_leaks=1:halt_on_error=1:detect_stack_use_after_return=0"
  export LSAN_OPTIONS="suppressions=$root/tests/sanitizers/lsan.supp:print_suppressions=0"
  export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1:suppressions=$root/tests/sanitizers/ubsan.supp"
  # Tells the suites which checks a sanitized server cannot pass (RSS bounds
  # under ASan's quarantine, running out of descriptors under UBSan).
  export LOCALDYNAMO_SANITIZER=address,undefined
  (cd build-asan && ctest --output-on-failure -j "$jobs" -LE sdk -E "^(pytest_plugin|node_integration)$")
  unset ASAN_OPTIONS LSAN_OPTIONS UBSAN_OPTIONS LOCALDYNAMO_SANITIZER
}

build_tsan() {
  configure_and_build build-tsan thread
}

test_tsan() {
  export TSAN_OPTIONS="halt_on_error=0:exitcode=66:second_deadlock_stack=1:suppressions=$root/tests/sanitizers/tsan.supp"
  # The server runs several times slower: the suites' waits and timing
  # tolerances stretch (LOCALDYNAMO_SLOW), memory bounds are not checked.
  export LOCALDYNAMO_SANITIZER=thread LOCALDYNAMO_SLOW=1
  (cd build-tsan && ctest --output-on-failure -j "$jobs" -LE sdk -E "fuzz|e2e|js_sdk|mcp_sdk|node_integration|pytest_plugin")
  local files=()
  for f in "${tsan_e2e[@]}"; do files+=("tests/e2e/$f"); done
  LOCALDYNAMO_BIN="$root/build-tsan/localdynamo" "$root/build/venv/bin/python" -m pytest -q "${files[@]}"
  unset TSAN_OPTIONS LOCALDYNAMO_SANITIZER LOCALDYNAMO_SLOW
}

phases=(build test)
case "${1:-}" in
  --build) phases=(build); shift ;;
  --test) phases=(test); shift ;;
esac
targets=("$@")
((${#targets[@]})) || targets=(asan tsan)
for target in "${targets[@]}"; do
  [[ "$target" == asan || "$target" == tsan ]] || { echo "usage: $0 [--build|--test] [asan|tsan]..." >&2; exit 2; }
  for phase in "${phases[@]}"; do
    start=$SECONDS
    "${phase}_$target"
    what=built
    [[ "$phase" == test ]] && what=passed
    echo "sanitizers: $target $what in $((SECONDS - start)) s"
  done
done
