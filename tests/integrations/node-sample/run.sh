#!/usr/bin/env bash
# The ctest entry node_integration: the sample project under Vitest, then
# under Jest, each with three workers over eight files, through
# integrations/node (installed from its path by `npm ci`); then the
# access-profile report and rules on the small sample in profile/
# (profile/check.mjs). LOCALDYNAMO_BIN names the server's binary.
set -euo pipefail
cd "$(dirname "$0")"
workers=${LOCALDYNAMO_SAMPLE_WORKERS:-3}
# The runs' access-profile reports go to a scratch folder, not into the tree.
reports=$(mktemp -d)
trap 'rm -rf "$reports"' EXIT
LOCALDYNAMO_PROFILE_REPORT="$reports/vitest" npx --no-install vitest run --maxWorkers="$workers" --minWorkers=1
LOCALDYNAMO_PROFILE_REPORT="$reports/jest" npx --no-install jest --maxWorkers="$workers"
test -s "$reports/vitest.html" && test -s "$reports/jest.json"
node --test profile/check.mjs
