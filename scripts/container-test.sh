#!/usr/bin/env bash
# Builds the container image for linux/amd64 and linux/arm64 with buildah
# and tests both end to end:
# - amd64 (tests/container/check_image.py): the server in the container
#   answers boto3, the preloaded models are there, data survives a restart
#   in the volume, the process runs as a non-root user, the HEALTHCHECK
#   works, the image's /bin/sh runs Testcontainers' port checks and a
#   Command trigger;
# - amd64 through Testcontainers for Node and for Java (integrations/java's
#   LocalDynamoContainer, tests/integrations/java-sample/run-testcontainers.sh)
#   against podman's Docker-compatible API
#   (tests/container/testcontainers/run.sh): the default wait strategy,
#   DynamoDB Local's command line with a log-message wait, the .NET module's
#   GET / wait; then the AWS SDK for JavaScript v3;
# - arm64, run under qemu-user-static with a boto3 smoke set
#   (scripts/arm64-smoke.sh);
# and puts both into a manifest list, $IMAGE-multiarch.
# Builds run on an amd64 machine (the build stage is always amd64). Each image
# takes its binary from dist/ when scripts/release.sh made it there (test.sh
# runs that first: build once, test many), else the build stage compiles it
# (natively for amd64, cross-compiled for arm64: no emulated build step).
#
# No Docker engine is needed: buildah builds and runs the images (chroot
# isolation, the host's network), with the base image made by
# scripts/container-base.sh. Installs what it needs with apt-get; needs root
# or sudo. Prints the build times, the image sizes and the start-up time.
#   scripts/container-test.sh            build localdynamo:test (+ -arm64) and test them
#   IMAGE=name scripts/container-test.sh another tag
#   STORAGE_DRIVER=overlay ...           buildah's storage driver (default vfs)
#   LOCALDYNAMO_SKIP_ARM64=1 ...         leave out the arm64 image and its smoke test
#   LOCALDYNAMO_SKIP_TESTCONTAINERS=1 ... leave out the Testcontainers test
set -euo pipefail
cd "$(dirname "$0")/.."

image=${IMAGE:-localdynamo:test}
driver=${STORAGE_DRIVER:-vfs}
sudo=""
[[ $(id -u) -ne 0 ]] && sudo="sudo"
bah() { $sudo buildah --storage-driver "$driver" "$@"; }

needed=(buildah debootstrap python3 python3-boto3 python3-pytest podman runc qemu-user-static)
# Testcontainers' test needs node and npm (a node from elsewhere is fine).
if [[ "${LOCALDYNAMO_SKIP_TESTCONTAINERS:-0}" != 1 ]] && ! command -v npm >/dev/null; then
  needed+=(npm)
fi
scripts/apt-install.sh container-test "${needed[@]}"

size_of() { bah images --format '{{.Size}}' "$1" | sed -n 1p; }

started=$(date +%s)
STORAGE_DRIVER=$driver scripts/container-base.sh
# The manifest list an earlier run left (below) goes first: with it in the
# store, Debian's buildah and podman were seen failing to list any image
# after a run ("reading manifest for image instance ... file does not
# exist"), and Testcontainers for Java lists them.
bah manifest rm "$image-multiarch" >/dev/null 2>&1 || true
echo "container-test: building $image (linux/amd64)"
build_started=$(date +%s)
commit=$(git rev-parse --short=12 HEAD 2>/dev/null || echo unknown)
build_for() {  # ARCH TAG: buildah knows TARGETARCH but not BUILDPLATFORM/BUILDARCH
  bah bud --isolation chroot --pull-never --layers --format docker --platform "linux/$1" \
    --build-arg BUILDPLATFORM=linux/amd64 --build-arg BUILDARCH=amd64 \
    --build-arg TARGETARCH="$1" --build-arg LOCALDYNAMO_COMMIT="$commit" -q -t "$2" . >/dev/null
  # Build once: with scripts/release.sh's binary in dist/, the image holds
  # exactly that binary (the one the tests and release-test.sh ran).
  local released="dist/linux-$1/bin/localdynamo"
  if [[ -f "$released" ]]; then
    local container root
    container=$(bah from --pull-never --arch "$1" "$2")
    root=$(bah mount "$container")
    if ! $sudo cmp -s "$root/usr/local/bin/localdynamo" "$released"; then
      echo "container-test: the $1 image's binary is not $released" >&2
      exit 1
    fi
    bah umount "$container" >/dev/null
    bah rm "$container" >/dev/null
    echo "container-test: the $1 image holds $released"
  fi
}
build_for amd64 "$image"
echo "container-test: amd64 image built in $(($(date +%s) - build_started)) s, $(size_of "$image")"
$sudo /usr/bin/python3 tests/container/check_image.py --image "$image" --storage-driver "$driver"

if [[ "${LOCALDYNAMO_SKIP_TESTCONTAINERS:-0}" != 1 ]]; then
  tc_started=$(date +%s)
  $sudo tests/container/testcontainers/run.sh "localhost/$image" "$driver"
  echo "container-test: Testcontainers for Node passed in $(($(date +%s) - tc_started)) s"
  # And for Java: integrations/java's LocalDynamoContainer (the sample's
  # ContainerTest, offline: scripts/setup.sh --tests fetched its artifacts).
  tc_started=$(date +%s)
  $sudo tests/integrations/java-sample/run-testcontainers.sh "localhost/$image" "$driver" -q
  echo "container-test: Testcontainers for Java passed in $(($(date +%s) - tc_started)) s"
fi

if [[ "${LOCALDYNAMO_SKIP_ARM64:-0}" != 1 ]]; then
  arm_image="$image-arm64"
  echo "container-test: building $arm_image (linux/arm64)"
  build_started=$(date +%s)
  build_for arm64 "$arm_image"
  echo "container-test: arm64 image built in $(($(date +%s) - build_started)) s," \
    "$(size_of "$arm_image")"
  smoke_started=$(date +%s)
  scripts/arm64-smoke.sh "$arm_image" "$driver"
  echo "container-test: arm64 smoke test passed in $(($(date +%s) - smoke_started)) s"
  # The manifest list a registry serves to both architectures
  # (`buildah manifest push --all` it to yours).
  list="$image-multiarch"
  bah manifest rm "$list" >/dev/null 2>&1 || true
  bah manifest create "$list" >/dev/null
  bah manifest add "$list" "$image" >/dev/null
  bah manifest add "$list" "$arm_image" >/dev/null
  archs=$(bah manifest inspect "$list" | /usr/bin/python3 -c \
    'import json,sys; print(" ".join(sorted(m["platform"]["architecture"] for m in json.load(sys.stdin)["manifests"])))')
  [[ "$archs" == "amd64 arm64" ]] || { echo "container-test: manifest list holds: $archs" >&2; exit 1; }
  echo "container-test: manifest list $list: $archs"
fi
echo "container-test: passed in $(($(date +%s) - started)) s"
