#!/usr/bin/env bash
# Makes the release artifacts in dist/ (dist/README.md lists them): the
# server for linux/amd64 and linux/arm64, statically linked and stripped,
# as .tar.gz with SHA-256 sums; the npm packages (localdynamo, its platform
# packages, localdynamo-test) packed with npm; the Python wheels
# (localdynamo per architecture, pytest-localdynamo) built with Debian's
# setuptools, pip and wheel. scripts/release-test.sh proves them.
#
# Build once: this machine's architecture is the binary in build/ that the
# tests ran (scripts/setup.sh builds it, statically linked; it is rebuilt
# here only if a source changed since). The other architecture is
# cross-compiled by the Dockerfile's build stage with buildah, which runs on
# this machine's architecture (no emulation); that needs root or sudo.
#   scripts/release.sh                       both architectures
#   LOCALDYNAMO_RELEASE_ARCHS=amd64 scripts/release.sh   only those named
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)

version=$(sed -n 's/^project(localdynamo VERSION \([0-9.]*\).*/\1/p' CMakeLists.txt)
commit=$(git rev-parse --short=12 HEAD 2>/dev/null || echo unknown)
native=$(dpkg --print-architecture)
read -r -a archs <<<"${LOCALDYNAMO_RELEASE_ARCHS:-amd64 arm64}"
sudo=""
[[ $(id -u) -ne 0 ]] && sudo="sudo"

# Debian's Python, whose setuptools, pip and wheel these are (not another
# python3 that PATH may find first).
py=/usr/bin/python3
need=(python3-pip python3-setuptools python3-wheel binutils)
command -v npm >/dev/null || need+=(npm)
for arch in "${archs[@]}"; do [[ "$arch" == "$native" ]] || need+=(buildah); done
scripts/apt-install.sh release "${need[@]}"

# Every package says the project's version.
for manifest in packaging/npm/localdynamo/package.json integrations/node/package.json; do
  declared=$(node -p "require('./$manifest').version")
  [[ "$declared" == "$version" ]] || { echo "release: $manifest says $declared, CMakeLists.txt $version" >&2; exit 1; }
done
for manifest in packaging/python/pyproject.toml integrations/pytest/pyproject.toml; do
  grep -q "^version = \"$version\"$" "$manifest" ||
    { echo "release: $manifest does not say version $version" >&2; exit 1; }
done

rm -rf dist/linux-* dist/npm dist/python dist/*.tar.gz dist/SHA256SUMS
mkdir -p dist/npm dist/python
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# This machine's binary: build/'s, which must be the release configuration.
native_binary() {
  if [[ ! -f build/CMakeCache.txt ]]; then
    scripts/setup.sh
  fi
  grep -q '^CMAKE_BUILD_TYPE:STRING=Release$' build/CMakeCache.txt &&
    grep -q '^LOCALDYNAMO_SANITIZE:STRING=$' build/CMakeCache.txt &&
    ! grep -q '^LOCALDYNAMO_STATIC:BOOL=OFF$' build/CMakeCache.txt ||
    { echo "release: build/ is not a static Release build (scripts/setup.sh makes one)" >&2; exit 1; }
  cmake --build build -j "$(nproc 2>/dev/null || echo 2)" --target localdynamo
  strip --strip-unneeded -o "$1" build/localdynamo
}

# Another architecture's: the Dockerfile's build stage, compiling.
cross_binary() {  # arch, output
  STORAGE_DRIVER=${STORAGE_DRIVER:-vfs} scripts/container-base.sh
  local bah=($sudo buildah --storage-driver "${STORAGE_DRIVER:-vfs}")
  local tag="localdynamo-build:$1" started=$SECONDS
  echo "release: compiling for linux/$1 in the Dockerfile's build stage"
  # buildah 1.28 knows TARGETARCH but not BUILDPLATFORM/BUILDARCH. No
  # --layers: the stage runs in one container, committed once (with the vfs
  # driver each commit copies the whole root).
  "${bah[@]}" bud --isolation chroot --pull-never --format docker --target build \
    --platform "linux/$1" --build-arg BUILDPLATFORM="linux/$native" --build-arg BUILDARCH="$native" \
    --build-arg TARGETARCH="$1" --build-arg LOCALDYNAMO_PREBUILT=no \
    --build-arg LOCALDYNAMO_COMMIT="$commit" -q -t "$tag" . >/dev/null
  local container
  container=$("${bah[@]}" from --pull-never "$tag")
  local mounted
  mounted=$("${bah[@]}" mount "$container")
  $sudo cp "$mounted/out/localdynamo" "$2"
  $sudo chown "$(id -u):$(id -g)" "$2"
  "${bah[@]}" umount "$container" >/dev/null
  "${bah[@]}" rm "$container" >/dev/null
  echo "release: linux/$1 compiled in $((SECONDS - started)) s"
}

# The tree each package carries: bin/localdynamo and the preloaded models
# where the binary looks for them (share/localdynamo/fixtures, next to bin/).
for arch in "${archs[@]}"; do
  tree="dist/linux-$arch"
  mkdir -p "$tree/bin" "$tree/share/localdynamo"
  if [[ "$arch" == "$native" ]]; then
    native_binary "$tree/bin/localdynamo"
  else
    cross_binary "$arch" "$tree/bin/localdynamo"
  fi
  chmod 0755 "$tree/bin/localdynamo"
  if readelf -l "$tree/bin/localdynamo" | grep INTERP >/dev/null; then
    echo "release: $tree/bin/localdynamo is not statically linked" >&2
    exit 1
  fi
  # The text of one of RocksDB's assertions (the one a full disk set off) is
  # in a binary only if its RocksDB kept its assertions (scripts/rocksdb.sh).
  if grep -q sync_without_flush_called_ "$tree/bin/localdynamo"; then
    echo "release: $tree/bin/localdynamo links a RocksDB with its debug assertions" >&2
    exit 1
  fi
  cp -r fixtures "$tree/share/localdynamo/fixtures"
done

# The tarballs, the same bytes for the same tree (sorted, owner and times
# fixed to the commit's).
stamp=$(git log -1 --format=%ct 2>/dev/null || echo 0)
for arch in "${archs[@]}"; do
  name="localdynamo-$version-linux-$arch"
  tar --sort=name --mtime="@$stamp" --owner=0 --group=0 --numeric-owner \
      --transform "s,^dist/linux-$arch,$name," -cf - "dist/linux-$arch" | gzip -9n >"dist/$name.tar.gz"
done

# npm: a platform package per architecture (npm installs the one whose os
# and cpu match), the package that finds it, and the test-runner integration.
declare -A npm_cpu=([amd64]=x64 [arm64]=arm64)
for arch in "${archs[@]}"; do
  cpu=${npm_cpu[$arch]}
  pkg="$work/npm-linux-$cpu"
  mkdir -p "$pkg"
  cp -r "dist/linux-$arch/bin" "dist/linux-$arch/share" "$pkg/"
  node -e '
    const [version, cpu] = process.argv.slice(1);
    const manifest = {
      name: `@localdynamo/linux-${cpu}`, version,
      description: `The localdynamo server for Linux on ${cpu}, statically linked (the localdynamo package finds it)`,
      license: "MIT", os: ["linux"], cpu: [cpu], files: ["bin", "share"], preferUnplugged: true,
      // npm publishes with provenance only for a package that names its source.
      repository: { type: "git", url: "git+https://github.com/localdynamo/localdynamo.git",
                    directory: "packaging/npm" },
    };
    require("fs").writeFileSync(process.argv[3], JSON.stringify(manifest, null, 2) + "\n");
  ' "$version" "$cpu" "$pkg/package.json"
  printf '# @localdynamo/linux-%s\n\nThe localdynamo binary for Linux on %s; install `localdynamo`, which depends on it.\n' \
    "$cpu" "$cpu" >"$pkg/README.md"
  (cd "$pkg" && npm pack --silent --pack-destination "$root/dist/npm" >/dev/null)
done
for pkg in packaging/npm/localdynamo integrations/node; do
  (cd "$pkg" && npm pack --silent --pack-destination "$root/dist/npm" >/dev/null)
done

# Python: the localdynamo wheel per architecture (a manylinux platform tag;
# the binary is static, so any glibc or musl will do), and the plugin.
declare -A wheel_platform=([amd64]=manylinux2014_x86_64 [arm64]=manylinux2014_aarch64)
for arch in "${archs[@]}"; do
  src="$work/python-$arch"
  cp -r packaging/python "$src"
  cp -r "dist/linux-$arch/bin" "dist/linux-$arch/share" "$src/localdynamo/"
  printf '[bdist_wheel]\npython_tag = py3\nplat_name = %s\n' "${wheel_platform[$arch]}" >"$src/setup.cfg"
  "$py" -m pip wheel -q --no-deps --no-build-isolation --no-index -w dist/python "$src"
done
cp -r integrations/pytest "$work/pytest-plugin"
"$py" -m pip wheel -q --no-deps --no-build-isolation --no-index -w dist/python "$work/pytest-plugin"

(cd dist && find . -maxdepth 3 -type f \( -name '*.tar.gz' -o -name '*.tgz' -o -name '*.whl' \) |
   sed 's,^\./,,' | sort | xargs sha256sum >SHA256SUMS)
echo "release: localdynamo $version (commit $commit) in dist/:"
(cd dist && ls -l ./*.tar.gz npm/*.tgz python/*.whl | awk '{ printf "  %-72s %6.1f MB\n", $NF, $5 / 1e6 }')
