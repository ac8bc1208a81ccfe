#!/usr/bin/env bash
# The ctest entry node_integration: the sample project under Vitest, then
# under Jest, each with three workers over eight files, through
# integrations/node (installed from its path by `npm ci`). LOCALDYNAMO_BIN
# names the server's binary.
set -euo pipefail
cd "$(dirname "$0")"
workers=${LOCALDYNAMO_SAMPLE_WORKERS:-3}
npx --no-install vitest run --maxWorkers="$workers" --minWorkers=1
npx --no-install jest --maxWorkers="$workers"
