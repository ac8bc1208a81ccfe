#!/usr/bin/env bash
# Runs a command with podman's Docker-compatible API serving the images of
# buildah's store (the same storage driver and root, so an image that
# scripts/container-test.sh built is there; no registry is needed or
# reached), for Testcontainers: DOCKER_HOST names the socket and Ryuk, which
# would be pulled from a registry, is off (each test stops its container).
# Every container gets ulimits within the machine's own and runs with runc
# (crun refuses hybrid cgroup layouts), through a containers.conf passed in
# CONTAINERS_CONF. Needs root, podman and runc (container-test.sh installs
# them). On failure, the end of the service's log follows the command's.
#   scripts/with-podman.sh STORAGE_DRIVER COMMAND...
set -euo pipefail
driver=$1
shift
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
DOCKER_HOST="unix://$socket" TESTCONTAINERS_RYUK_DISABLED=true "$@" ||
  { status=$?; tail -n 30 "$work/service.log" >&2; exit "$status"; }
