#!/usr/bin/env bash
# Proves the release artifacts that scripts/release.sh left in dist/, where
# users run them:
# 1. every file matches SHA256SUMS; each binary is linked statically (no
#    program interpreter, no shared library, no versioned symbol, so no
#    glibc of any age is needed) and `--version` names this commit;
# 2. the amd64 binary in a root holding nothing but the binary, and from its
#    tarball in a Debian bullseye root (glibc 2.31, older than any the build
#    had), models and a data directory included (tests/release);
# 3. the arm64 binary, from its tarball, under qemu-user (tests/release);
# 4. in a fresh Debian bookworm root with no compiler, the npm tarballs
#    installed into a Vitest project and the wheels into a pytest project,
#    each run against the server its packages carry (tests/packages).
# The roots come from scripts/debian-root.sh. Needs root (or sudo); installs
# debootstrap and qemu-user-static when missing.
#   scripts/release-test.sh
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$(pwd)
sudo=""
[[ $(id -u) -ne 0 ]] && sudo="sudo"
py=/usr/bin/python3
version=$(sed -n 's/^project(localdynamo VERSION \([0-9.]*\).*/\1/p' CMakeLists.txt)
commit=$(git rev-parse --short=12 HEAD 2>/dev/null || echo unknown)
native=$(dpkg --print-architecture)

scripts/apt-install.sh release-test debootstrap qemu-user-static python3-boto3 python3-pytest file

work=$(mktemp -d)
cleanup() {
  # Mounts live only in the unshare'd namespaces below; refuse to delete a
  # tree that still has one, should that ever change.
  if findmnt -rn -o TARGET | grep "^$work" >/dev/null; then
    echo "release-test: $work still has mounts; not removed" >&2
  else
    $sudo rm -rf "$work"
  fi
}
trap cleanup EXIT
started=$SECONDS

# 1. Checksums and linking.
(cd dist && sha256sum --quiet -c SHA256SUMS)
for arch in amd64 arm64; do
  binary="dist/linux-$arch/bin/localdynamo"
  [[ -f "$binary" ]] || { echo "release-test: $binary missing (scripts/release.sh)" >&2; exit 1; }
  if readelf -lW "$binary" | grep "INTERP" >/dev/null || readelf -dW "$binary" | grep "(NEEDED)" >/dev/null ||
     readelf -VW "$binary" | grep "GLIBC_" >/dev/null; then
    echo "release-test: $binary is not statically linked:" >&2
    readelf -dW "$binary" | grep NEEDED >&2 || true
    exit 1
  fi
  echo "release-test: $binary: $(file -b "$binary" | cut -d, -f1-2), static," \
    "$(($(stat -c %s "$binary") / 1000000)) MB"
done

with_hosts_file() {  # root: what an installed system has and debootstrap leaves out
  printf '127.0.0.1\tlocalhost\n::1\tlocalhost ip6-localhost\n' | $sudo tee "$1/etc/hosts" >/dev/null
}
run_tests() {  # description, then environment assignments for tests/release
  local what=$1; shift
  echo "release-test: $what"
  env "$@" PYTHONPATH="$repo/tests" LOCALDYNAMO_RELEASE_COMMIT="$commit" \
    "$py" -m pytest -q -p no:cacheprovider tests/release
}
wrapper() {  # path, command the wrapper runs with its arguments
  printf '#!/bin/sh\nexec %s "$@"\n' "$2" >"$1"
  chmod +x "$1"
}

# 2. amd64 where nothing else is: a root holding only the binary.
if [[ "$native" == amd64 ]]; then
  bare="$work/bare"
  mkdir -p "$bare"
  cp dist/linux-amd64/bin/localdynamo "$bare/localdynamo"
  wrapper "$work/bare-run" "$sudo chroot $bare /localdynamo"
  [[ $(find "$bare" -mindepth 1 | wc -l) == 1 ]]
  run_tests "amd64 in a root holding only the binary" \
    LOCALDYNAMO_BIN="$work/bare-run" LOCALDYNAMO_RELEASE_MODELS=0

  # ... and from its tarball in a Debian bullseye root, glibc 2.31.
  old="$work/bullseye"
  scripts/debian-root.sh bullseye "$old"
  $sudo tar -C "$old/opt" -xzf "dist/localdynamo-$version-linux-amd64.tar.gz"
  with_hosts_file "$old"
  glibc=$($sudo chroot "$old" /usr/bin/ldd --version | sed -n 1p)
  echo "release-test: bullseye root: $glibc"
  wrapper "$work/bullseye-run" "$sudo chroot $old /opt/localdynamo-$version-linux-amd64/bin/localdynamo"
  run_tests "amd64 in a Debian bullseye root" LOCALDYNAMO_BIN="$work/bullseye-run" \
    LOCALDYNAMO_RELEASE_MODELS=1 LOCALDYNAMO_RELEASE_DATA_DIR=/var/tmp/localdynamo-data
fi

# 3. arm64 from its tarball, under qemu-user: the binary is static, so the
# emulator needs no root of arm64 libraries.
if [[ "$native" == amd64 ]]; then
  mkdir -p "$work/arm64"
  tar -C "$work/arm64" -xzf "dist/localdynamo-$version-linux-arm64.tar.gz"
  wrapper "$work/arm64-run" "qemu-aarch64-static $work/arm64/localdynamo-$version-linux-arm64/bin/localdynamo"
  run_tests "arm64 under qemu-user" LOCALDYNAMO_BIN="$work/arm64-run" LOCALDYNAMO_RELEASE_MODELS=1 \
    LOCALDYNAMO_RELEASE_DATA_DIR="$work/arm64-data" LOCALDYNAMO_SLOW=1
fi

# 4. The packages in a fresh bookworm root without a compiler.
fresh="$work/bookworm"
scripts/debian-root.sh bookworm "$fresh"
$sudo mkdir -p "$fresh/release"
$sudo cp -r dist/npm dist/python "$fresh/release/"
$sudo cp -r tests/packages "$fresh/packages"
$sudo cp -L /etc/resolv.conf "$fresh/etc/resolv.conf"
with_hosts_file "$fresh"
# npm inside trusts what this machine trusts (a proxy's certificate authority,
# say) besides Debian's list.
$sudo cp -L /etc/ssl/certs/ca-certificates.crt "$fresh/etc/host-certificates.crt"
echo "release-test: the npm and pip packages in a fresh bookworm root"
$sudo env NODE_EXTRA_CA_CERTS=/etc/host-certificates.crt unshare --mount --fork bash -c \
  'mount -t proc proc "$1/proc" && mount --rbind /dev "$1/dev" && exec chroot "$1" /packages/in-root.sh' \
  _ "$fresh"
echo "release-test: passed in $((SECONDS - started)) s"
