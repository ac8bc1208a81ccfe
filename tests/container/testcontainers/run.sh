#!/usr/bin/env bash
# Runs image.test.mjs: Testcontainers for Node against podman's
# Docker-compatible API, serving the images of buildah's store (the same
# storage driver and root, so the image built by scripts/container-test.sh
# is there; no registry is needed or reached).
#   tests/container/testcontainers/run.sh IMAGE [STORAGE_DRIVER] [node --test options]
# (LOCALDYNAMO_STARTUP_MS: each container's start-up timeout, default 90 s)
# Needs root, podman and runc (scripts/container-test.sh installs them), node
# and npm. Every container gets ulimits within the machine's own and runs
# with runc (crun refuses hybrid cgroup layouts), through a containers.conf
# passed in CONTAINERS_CONF; Ryuk, which would be pulled from a registry, is
# off (each test stops its container).
set -euo pipefail
cd "$(dirname "$0")"
image=$1
driver=${2:-vfs}
shift $(($# < 2 ? $# : 2))

work=$(mktemp -d)
cat >"$work/containers.conf" <<'CONF'
[containers]
default_ulimits = ["nofile=1024:1024", "nproc=1024:1024"]
[engine]
runtime = "runc"
CONF
export CONTAINERS_CONF="$work/containers.conf"
socket="$work/podman.sock"
podman --storage-driver "$driver" system service --time=0 "unix://$socket" \
  >"$work/service.log" 2>&1 &
service=$!
cleanup() {
  kill "$service" 2>/dev/null || true
  wait "$service" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT
for _ in $(seq 100); do [[ -S "$socket" ]] && break; sleep 0.1; done
[[ -S "$socket" ]] || { cat "$work/service.log" >&2; exit 1; }

[[ -d node_modules ]] || npm ci --no-audit --no-fund --loglevel=error
DOCKER_HOST="unix://$socket" TESTCONTAINERS_RYUK_DISABLED=true LOCALDYNAMO_IMAGE="$image" \
  node --test "$@" image.test.mjs || { tail -n 30 "$work/service.log" >&2; exit 1; }
