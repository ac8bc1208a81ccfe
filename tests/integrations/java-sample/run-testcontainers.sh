#!/usr/bin/env bash
# Runs ContainerTest alone: the Testcontainers module (integrations/java)
# against podman's Docker-compatible API (scripts/with-podman.sh), serving
# the image that scripts/container-test.sh built.
#   tests/integrations/java-sample/run-testcontainers.sh IMAGE [STORAGE_DRIVER] [mvn options]
# Needs root, podman and runc (scripts/container-test.sh installs them), and
# run.sh --setup done (offline here).
set -euo pipefail
cd "$(dirname "$0")"
image=$1
driver=${2:-vfs}
shift $(($# < 2 ? $# : 2))
. ../../../scripts/java-env.sh
LOCALDYNAMO_IMAGE="$image" ../../../scripts/with-podman.sh "$driver" \
  mvn -B -ntp -o test -Dtest=ContainerTest "$@"
# ContainerTest skips itself without an image and a socket: here it must have
# run, every test of it.
report=target/surefire-reports/TEST-com.example.orders.ContainerTest.xml
grep -q 'skipped="0"' "$report" && ! grep -q 'tests="0"' "$report" ||
  { echo "run-testcontainers: ContainerTest did not run ($report)" >&2; exit 1; }
