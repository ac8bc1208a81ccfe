#!/usr/bin/env bash
# The Go SDK scenario suite.
#   run.sh setup   fetch the modules go.sum pins and compile the suite once
#   run.sh test    run it: go test -json to $SDK_RESULTS/go.json (else target/go.json),
#                  the run's text on stdout, a closing "N passed, N failed, N skipped";
#                  exits non-zero when a test failed
# Reads LOCALDYNAMO_BIN (else ../../../build/localdynamo) and SDK_RESULTS.
set -euo pipefail
# A relative SDK_RESULTS is the caller's, not this folder's.
results="$(mkdir -p "${SDK_RESULTS:-$(dirname "$0")/target}" && cd "${SDK_RESULTS:-$(dirname "$0")/target}" && pwd)"
cd "$(dirname "$0")"

# The project's Go set-up (a Go on PATH, module and build caches under build/go), then the
# machine's own Go (1.24 or newer: the SDK's floor); go.mod and go.sum are never rewritten.
. ../../../scripts/go-env.sh
# go-env.sh chose the toolchain (GOTOOLCHAIN) and the flags.

case "${1:-}" in
  setup)
    go mod download
    # Compiles and links the test binary once; go test then finds it in the build cache.
    go test -c -o target/sdk-go.test .
    ;;
  test)
    status=0
    go test -json -count=1 ./... > "$results/go.json" || status=$?
    # The events' text, as go test -v prints it.
    grep -o '"Output":"[^"\\]*\(\\.[^"\\]*\)*"' "$results/go.json" |
      sed -e 's/^"Output":"//' -e 's/"$//' -e 's/\\n$//' -e 's/\\t/\t/g' -e 's/\\"/"/g' -e 's/\\\\/\\/g' -e 's/\\u003c/</g' -e 's/\\u003e/>/g' -e 's/\\u0026/\&/g' |
      grep -v -e '^=== \(RUN\|PAUSE\|CONT\)' || true
    count() { grep -c "\"Action\":\"$1\",\"Package\":\"[^\"]*\",\"Test\":" "$results/go.json" || true; }
    echo "go: $(count pass) passed, $(count fail) failed, $(count skip) skipped"
    exit "$status"
    ;;
  *)
    echo "usage: $0 setup|test" >&2
    exit 2
    ;;
esac
