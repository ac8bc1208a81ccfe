#!/usr/bin/env bash
# Provides the base image of the Dockerfile's build stage, debian:bookworm-slim,
# to buildah on machines that reach Debian's package archive but no container
# registry: a minimal bookworm root trimmed the way the official slim image is
# (scripts/debian-root.sh), tagged under the registry name. With
# CONTAINER_BASE_PULL=1 it pulls the real image instead.
#
# Does nothing when the image is already in buildah's store. Needs root (or
# sudo); installs buildah and debootstrap with apt-get when they are missing.
# STORAGE_DRIVER chooses buildah's storage driver (default vfs, which works
# everywhere, inside containers too; it must match the one the build uses).
set -euo pipefail

image=docker.io/library/debian:bookworm-slim
driver=${STORAGE_DRIVER:-vfs}
sudo=""
[[ $(id -u) -ne 0 ]] && sudo="sudo"
bah() { $sudo buildah --storage-driver "$driver" "$@"; }

"$(dirname "$0")/apt-install.sh" container-base buildah debootstrap
if bah inspect --type image "$image" >/dev/null 2>&1; then
  echo "container-base: $image already present"
  exit 0
fi
if [[ "${CONTAINER_BASE_PULL:-0}" == 1 ]]; then
  bah pull -q "$image" >/dev/null
  echo "container-base: pulled $image"
  exit 0
fi

scratch=$(mktemp -d)
trap '$sudo rm -rf "$scratch"' EXIT
root="$scratch/root"
"$(dirname "$0")/debian-root.sh" bookworm "$root"
context="$scratch/context"  # apart from the root tree, which buildah would otherwise scan
mkdir "$context"
$sudo tar -C "$root" -cf "$context/root.tar" .
printf 'FROM scratch\nADD root.tar /\nCMD ["bash"]\n' >"$context/Containerfile"
bah bud --isolation chroot -q -t "$image" "$context" >/dev/null
echo "container-base: $image built"
