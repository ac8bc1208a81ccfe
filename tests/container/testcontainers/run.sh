#!/usr/bin/env bash
# Runs image.test.mjs: Testcontainers for Node against podman's
# Docker-compatible API (scripts/with-podman.sh), serving the image that
# scripts/container-test.sh built.
#   tests/container/testcontainers/run.sh IMAGE [STORAGE_DRIVER] [node --test options]
# (LOCALDYNAMO_STARTUP_MS: each container's start-up timeout, default 90 s)
# Needs root, podman and runc (scripts/container-test.sh installs them), node
# and npm.
set -euo pipefail
cd "$(dirname "$0")"
image=$1
driver=${2:-vfs}
shift $(($# < 2 ? $# : 2))
[[ -d node_modules ]] || npm ci --no-audit --no-fund --loglevel=error
LOCALDYNAMO_IMAGE="$image" ../../../scripts/with-podman.sh "$driver" node --test "$@" image.test.mjs
