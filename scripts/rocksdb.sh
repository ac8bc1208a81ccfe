#!/usr/bin/env bash
# Builds Debian's RocksDB again, from the source of the librocksdb-dev package
# installed (Debian's patches applied), as a static library with its debug
# assertions off, into a prefix that CMake's find_package(RocksDB) is then
# pointed at. Debian compiles RocksDB without NDEBUG, and its assertions end
# the process where its code would otherwise return an error: the write
# after a failed write to a full disk was one (docs/reliability.md).
#   scripts/rocksdb.sh PREFIX [ARCH]
# Does nothing when PREFIX already holds this version's build. With an ARCH
# other than this machine's (amd64, arm64) it cross-compiles with the
# project's toolchain file for it; librocksdb-dev:ARCH must be installed,
# and its version is the one built.
set -euo pipefail
cd "$(dirname "$0")/.."
prefix=$(mkdir -p "$1" && cd "$1" && pwd)
arch=${2:-$(dpkg --print-architecture)}
toolchain=""
if [[ "$arch" != "$(dpkg --print-architecture)" ]]; then
  declare -A triplet=([amd64]=x86_64-linux-gnu [arm64]=aarch64-linux-gnu)
  toolchain=cmake/${triplet[$arch]}.cmake
fi
version=$(dpkg-query -W -f='${source:Version}' "librocksdb-dev:$arch")
# Each function in a section of its own, as the server's own code is, so the
# server's link can order RocksDB's functions too (CMakeLists.txt,
# LOCALDYNAMO_FUNCTION_ORDER). The stamp names the flags: a build with
# other flags is built again.
flags="-O2 -DNDEBUG -ffunction-sections"
stamp="$prefix/localdynamo-rocksdb-version"
if [[ -f "$stamp" && "$(cat "$stamp")" == "$version $flags" && -f "$prefix/lib/librocksdb.a" ]]; then
  exit 0
fi
# The compression libraries come with librocksdb-dev; the compiler is the caller's.
scripts/apt-install.sh rocksdb dpkg-dev

work=$(mktemp -d)
[[ -n "${ROCKSDB_KEEP_WORK:-}" ]] || trap 'rm -rf "$work"' EXIT
# Debian's source packages come from the archive apt already uses: its
# binary entries, read as source entries, in a list of this script's own.
mkdir -p "$work/sources" "$work/lists/partial"
for f in /etc/apt/sources.list.d/*.sources; do
  [[ -f "$f" ]] && sed 's/^Types: .*/Types: deb-src/' "$f" >"$work/sources/$(basename "$f")"
done
if [[ -f /etc/apt/sources.list ]]; then
  sed -n 's/^deb \(.*\)/deb-src \1/p' /etc/apt/sources.list >"$work/sources/from-list.list"
fi
mkdir -p "$work/cache/archives/partial"
apt_src=(-o Dir::Etc::SourceList=/dev/null -o Dir::Etc::SourceParts="$work/sources"
         -o Dir::State::Lists="$work/lists" -o Dir::Cache="$work/cache")
# As root, apt would hand the download to its _apt user, who cannot write here.
[[ $(id -u) -eq 0 ]] && apt_src+=(-o APT::Sandbox::User=root)
apt-get "${apt_src[@]}" update -qq
(cd "$work" && apt-get "${apt_src[@]}" source -qq "rocksdb=$version" >/dev/null)
src=$(find "$work" -maxdepth 1 -type d -name 'rocksdb-*' | head -1)
[[ -n "$src" ]] || { echo "rocksdb: no source of rocksdb $version" >&2; exit 1; }

# Debian's configuration (debian/rules) less the tools, tests and shared
# library no one here links, with CMake's Release flags at Debian's -O2.
cmake_args=(-S "$src" -B "$work/build" -DCMAKE_BUILD_TYPE=Release
            -DCMAKE_CXX_FLAGS_RELEASE="$flags" -DCMAKE_C_FLAGS_RELEASE="$flags"
            -DCMAKE_INSTALL_PREFIX="$prefix" -DCMAKE_INSTALL_LIBDIR=lib
            -DWITH_BZ2=ON -DWITH_LZ4=ON -DWITH_ZLIB=ON -DWITH_ZSTD=ON -DWITH_SNAPPY=ON
            -DWITH_GFLAGS=OFF -DROCKSDB_BUILD_SHARED=OFF -DWITH_BENCHMARK_TOOLS=OFF
            -DWITH_CORE_TOOLS=OFF -DWITH_TOOLS=OFF -DWITH_TESTS=OFF -DWITH_ALL_TESTS=OFF
            -DPORTABLE=ON -DFAIL_ON_WARNINGS=OFF -DUSE_RTTI=ON
            -DCMAKE_UNITY_BUILD=ON -DCMAKE_UNITY_BUILD_BATCH_SIZE="${ROCKSDB_UNITY_BATCH:-16}")
[[ -n "$toolchain" ]] && cmake_args+=(-DCMAKE_TOOLCHAIN_FILE="$(pwd)/$toolchain")
started=$SECONDS
cmake "${cmake_args[@]}" >/dev/null
cmake --build "$work/build" -j "$(nproc 2>/dev/null || echo 2)" >"$work/build.log" 2>&1 || { tail -40 "$work/build.log" >&2; exit 1; }
cmake --install "$work/build" >/dev/null
echo "$version $flags" >"$stamp"
echo "rocksdb: built RocksDB $version for $arch without assertions in $((SECONDS - started)) s"
