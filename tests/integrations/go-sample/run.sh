#!/usr/bin/env bash
# The Go sample project: its tests through localdynamotest (../../../integrations/go).
#   run.sh setup   fetch the modules go.sum pins and compile once
#   run.sh test    go test ./... (the server: $LOCALDYNAMO_BIN, else ../../../build/localdynamo,
#                  or the running one at $LOCALDYNAMO_URL)
set -euo pipefail
cd "$(dirname "$0")"
# The project's Go set-up (a Go on PATH, module and build caches under build/go), then the
# machine's own Go (1.24 or newer: the SDK's floor); go.mod and go.sum are never rewritten.
. ../../../scripts/go-env.sh
# go-env.sh chose the toolchain (GOTOOLCHAIN) and the flags.
export LOCALDYNAMO_BIN="${LOCALDYNAMO_BIN:-$PWD/../../../build/localdynamo}"

case "${1:-test}" in
  setup) go mod download && go test -c -o target/go-sample.test . ;;
  test)  go test -count=1 ./... ;;
  *)     echo "usage: $0 [setup|test]" >&2; exit 2 ;;
esac
