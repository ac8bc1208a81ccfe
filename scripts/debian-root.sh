#!/usr/bin/env bash
# Makes a minimal Debian root file system (debootstrap --variant=minbase) in
# DIR, trimmed the way the official slim images are: no package lists or
# caches, documentation, manual pages or translations. The first root of a
# suite is kept as a tarball in $LOCALDYNAMO_ROOT_CACHE (default
# build/debian-roots), so that one test run bootstraps each suite once and
# every later root of it is a fresh copy of that tarball.
#   scripts/debian-root.sh SUITE DIR     e.g. bookworm, bullseye
# Used by scripts/container-base.sh (the build stage's base image) and
# scripts/release-test.sh (the roots the release binaries and packages are
# tried in). Needs root (or sudo); installs debootstrap when missing.
set -euo pipefail
suite=$1
dir=$2
cache=${LOCALDYNAMO_ROOT_CACHE:-$(cd "$(dirname "$0")/.." && pwd)/build/debian-roots}
sudo=""
[[ $(id -u) -ne 0 ]] && sudo="sudo"

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

tarball="$cache/$suite-$(dpkg --print-architecture).tar"
if [[ ! -f "$tarball" ]]; then
  "$(dirname "$0")/apt-install.sh" debian-root debootstrap
  mirror=$(debian_mirror)
  scratch=$(mktemp -d)
  trap '$sudo rm -rf "$scratch"' EXIT
  echo "debian-root: bootstrapping $suite from $mirror"
  started=$SECONDS
  if ! $sudo debootstrap --variant=minbase "$suite" "$scratch/root" "$mirror" >"$scratch/log" 2>&1; then
    tail -n 20 "$scratch/log" >&2
    exit 1
  fi
  root="$scratch/root"
  $sudo rm -rf "$root"/var/cache/apt/archives/*.deb "$root"/var/cache/apt/*.bin \
    "$root"/var/lib/apt/lists/* "$root"/usr/share/doc/* "$root"/usr/share/man/* \
    "$root"/usr/share/info/* "$root"/var/log/*.log
  $sudo find "$root/usr/share/locale" -mindepth 1 -maxdepth 1 ! -name locale.alias \
    -exec rm -rf {} +
  mkdir -p "$cache"
  $sudo tar -C "$root" -cf "$tarball.part" .
  mv "$tarball.part" "$tarball"
  echo "debian-root: $suite bootstrapped in $((SECONDS - started)) s"
fi
mkdir -p "$dir"
$sudo tar -C "$dir" -xf "$tarball"
