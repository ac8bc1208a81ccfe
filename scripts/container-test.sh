#!/usr/bin/env bash
# Builds the container image with buildah and tests it end to end
# (tests/container/check_image.py): the server in the container answers
# boto3, the preloaded models are there, data survives a restart in the
# volume, the process runs as a non-root user, the HEALTHCHECK works.
#
# No Docker engine is needed: buildah builds and runs the image (chroot
# isolation, the host's network), with the base image made by
# scripts/container-base.sh. Installs what it needs with apt-get; needs root
# or sudo. Prints the build time, the image size and the start-up time.
#   scripts/container-test.sh            build as localdynamo:test and test it
#   IMAGE=name scripts/container-test.sh another tag
#   STORAGE_DRIVER=overlay ...           buildah's storage driver (default vfs)
set -euo pipefail
cd "$(dirname "$0")/.."

image=${IMAGE:-localdynamo:test}
driver=${STORAGE_DRIVER:-vfs}
sudo=""
[[ $(id -u) -ne 0 ]] && sudo="sudo"

missing=()
for p in buildah debootstrap python3 python3-boto3; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "container-test: installing ${missing[*]}"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends \
    "${missing[@]}" >/dev/null
fi

started=$(date +%s)
STORAGE_DRIVER=$driver scripts/container-base.sh
echo "container-test: building $image"
build_started=$(date +%s)
$sudo buildah --storage-driver "$driver" bud --isolation chroot --pull-never --layers \
  --format docker -q -t "$image" . >/dev/null
echo "container-test: image built in $(($(date +%s) - build_started)) s"
$sudo /usr/bin/python3 tests/container/check_image.py --image "$image" --storage-driver "$driver"
echo "container-test: passed in $(($(date +%s) - started)) s"
