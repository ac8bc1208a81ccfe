#!/usr/bin/env bash
# Provides the base image of the Dockerfile's build stage, debian:bookworm-slim,
# to buildah on machines that reach Debian's package archive but no container
# registry: it bootstraps a minimal bookworm root with debootstrap, trims it
# the way the official slim image is trimmed, and tags it under the registry
# name. With CONTAINER_BASE_PULL=1 it pulls the real image instead.
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

if ! command -v buildah >/dev/null || ! command -v debootstrap >/dev/null; then
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq buildah debootstrap >/dev/null
fi
if bah inspect --type image "$image" >/dev/null 2>&1; then
  echo "container-base: $image already present"
  exit 0
fi
if [[ "${CONTAINER_BASE_PULL:-0}" == 1 ]]; then
  bah pull -q "$image" >/dev/null
  echo "container-base: pulled $image"
  exit 0
fi

# A Debian host's own mirror (it may be a local cache); anything else, an
# Ubuntu CI runner for one, uses Debian's CDN.
debian_mirror() {
  local uri
  for uri in $(sed -n 's/^URIs: *//p' /etc/apt/sources.list.d/*.sources 2>/dev/null) \
             $(awk '$1 == "deb" { for (i = 2; i <= NF; i++) if ($i ~ /^[a-z]+:\/\//) { print $i; break } }' \
                 /etc/apt/sources.list 2>/dev/null); do
    if [[ "$uri" == */debian && "$uri" != *security* ]]; then echo "$uri"; return; fi
  done
  echo "http://deb.debian.org/debian"
}

mirror=$(debian_mirror)
scratch=$(mktemp -d)
trap '$sudo rm -rf "$scratch"' EXIT
root="$scratch/root"
echo "container-base: bootstrapping bookworm from $mirror"
if ! $sudo debootstrap --variant=minbase bookworm "$root" "$mirror" >"$scratch/log" 2>&1; then
  tail -n 20 "$scratch/log" >&2
  exit 1
fi
# What the slim image leaves out: package caches and lists, documentation,
# manual pages and translations (kept: locale.alias).
$sudo rm -rf "$root"/var/cache/apt/archives/*.deb "$root"/var/cache/apt/*.bin \
  "$root"/var/lib/apt/lists/* "$root"/usr/share/doc/* "$root"/usr/share/man/* \
  "$root"/usr/share/info/* "$root"/var/log/*.log
$sudo find "$root/usr/share/locale" -mindepth 1 -maxdepth 1 ! -name locale.alias \
  -exec rm -rf {} +
context="$scratch/context"  # apart from the root tree, which buildah would otherwise scan
mkdir "$context"
$sudo tar -C "$root" -cf "$context/root.tar" .
printf 'FROM scratch\nADD root.tar /\nCMD ["bash"]\n' >"$context/Containerfile"
bah bud --isolation chroot -q -t "$image" "$context" >/dev/null
echo "container-base: $image built"
