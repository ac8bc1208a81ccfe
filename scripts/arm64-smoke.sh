#!/usr/bin/env bash
# Runs the linux/arm64 image's server under Debian's qemu-user-static and
# drives it end to end with boto3 (tests/container/arm64/test_smoke.py):
# the image's file system is mounted and its own (static) binary runs with
# that root as its file system (`qemu-aarch64-static -L <root>`), so what is
# tested is exactly what the image ships. No binfmt registration is needed.
#   scripts/arm64-smoke.sh IMAGE [STORAGE_DRIVER]
# Needs root or sudo; installs qemu-user-static with apt-get when missing.
set -euo pipefail
cd "$(dirname "$0")/.."
image=$1
driver=${2:-vfs}
sudo=""
[[ $(id -u) -ne 0 ]] && sudo="sudo"
bah() { $sudo buildah --storage-driver "$driver" "$@"; }

scripts/apt-install.sh arm64-smoke qemu-user-static

container=$(bah from --pull-never --arch arm64 "$image")
work=$(mktemp -d)
cleanup() {
  bah umount "$container" >/dev/null 2>&1 || true
  bah rm "$container" >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT
root=$(bah mount "$container")
cat >"$work/localdynamo" <<WRAPPER
#!/bin/sh
exec qemu-aarch64-static -L "$root" "$root/usr/local/bin/localdynamo" "\$@"
WRAPPER
chmod +x "$work/localdynamo"
$sudo env PYTHONPATH="$PWD/tests" LOCALDYNAMO_BIN="$work/localdynamo" LOCALDYNAMO_ARM64_ROOT="$root" \
  /usr/bin/python3 -m pytest -q -p no:cacheprovider -s tests/container/arm64
