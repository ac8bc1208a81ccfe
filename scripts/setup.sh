#!/usr/bin/env bash
# Installs what localdynamo needs from Debian's packages (only what is
# missing) and builds it into build/. Used by run.sh and test.sh.
#   scripts/setup.sh          build the server alone (a first start waits for
#                             nothing else: no test framework, no test targets)
#   scripts/setup.sh --tests  also install the test clients (boto3, pytest, AWS CLI), zstd (ImportTable's ZSTD objects),
#                             pytest-xdist, pip, setuptools and wheel for the pytest plugin's
#                             test and the wheels, clang with libFuzzer for the fuzz targets
#                             and libc++ for scripts/clang_check.sh, and chromium,
#                             Node.js and playwright-core (npm ci, pinned by
#                             tests/browser/package-lock.json) for the console's tests,
#                             the AWS SDK for JavaScript (tests/js), the MCP client
#                             SDK (tests/mcp) and Vitest and Jest for integrations/node's
#                             sample project (tests/integrations/node-sample), each
#                             pinned by its package-lock.json; and for the SDK scenario
#                             suites (tests/sdk) and the Java and Go integrations: the
#                             newest boto3 in build/venv (python3-venv, pinned by
#                             tests/requirements.txt), Debian's JDK 17 and Maven with the
#                             AWS SDK for Java v2 in build/m2 (scripts/java-env.sh), and
#                             a Go of 1.24 or later with the AWS SDK for Go v2 in build/go
#                             (scripts/go-env.sh: Debian's golang-1.23 from
#                             bookworm-backports fetches Go 1.26 where the machine has no
#                             Go that new); each suite compiled once here; curl for the
#                             docs' examples; Node 20 from npm where the machine's is
#                             older (scripts/node-env.sh)
set -euo pipefail
cd "$(dirname "$0")/.."

# lld links the server with its functions in the order a running server
# uses them (CMakeLists.txt, LOCALDYNAMO_FUNCTION_ORDER).
# dpkg-dev unpacks RocksDB's source (scripts/rocksdb.sh), installed here so
# that nothing else installs packages while the test clients do.
packages=(g++ make cmake lld librocksdb-dev rapidjson-dev libboost-dev libssl-dev
          libboost-program-options-dev zlib1g-dev dpkg-dev)
tests=OFF
if [[ "${1:-}" == "--tests" ]]; then
  tests=ON
  packages+=(libgtest-dev python3 python3-boto3 python3-pytest python3-pytest-xdist python3-pip
             python3-setuptools python3-wheel awscli zstd clang libclang-rt-14-dev libc++-14-dev
             libc++abi-14-dev chromium file python3-venv openjdk-17-jdk-headless maven curl)
  # A node from elsewhere (with its own npm) is fine; Debian's npm would conflict with it.
  command -v node >/dev/null || packages+=(nodejs)
  command -v npm >/dev/null || packages+=(npm)
fi

scripts/apt-install.sh setup "${packages[@]}"

# The test clients, each pinned by its lockfile: the JS SDK tests', the MCP
# tests', the Node integration sample's and the browser tests' packages;
# the SDK suites' and the Java and Go integrations' dependencies, fetched
# and compiled once (ctest runs them offline).
test_clients() {
  # Node 20 or later for the JavaScript clients (Debian's is 18).
  . scripts/node-env.sh
  (cd tests/js && npm ci --no-audit --no-fund --loglevel=error)
  (cd tests/mcp && npm ci --no-audit --no-fund --loglevel=error)
  (cd tests/integrations/node-sample && npm ci --no-audit --no-fund --loglevel=error)
  local locked installed
  locked=$(node -p "require('./tests/browser/package-lock.json').packages['node_modules/playwright-core'].version")
  installed=$(node -p "try { require('./tests/browser/node_modules/playwright-core/package.json').version } catch { '' }")
  if [[ "$locked" != "$installed" ]]; then
    echo "setup: installing playwright-core $locked (npm ci in tests/browser)"
    (cd tests/browser && npm ci --no-audit --no-fund --loglevel=error)
  fi
  scripts/python-venv.sh
  tests/sdk/java/run.sh setup
  tests/integrations/java-sample/run.sh --setup
  tests/sdk/go/run.sh setup
  tests/integrations/go-sample/run.sh setup
}

jobs=$(nproc 2>/dev/null || echo 2)
# Debian's RocksDB compiled again without its debug assertions, which end
# the process where RocksDB would return an error (scripts/rocksdb.sh): once
# per machine, about 4 minutes on 2 cores.
if [[ "$tests" == ON ]]; then
  # The test clients' set-up waits mostly on npm, PyPI, Maven Central and
  # the Go proxy: it runs while RocksDB compiles, RocksDB's output held in
  # a log until then. The server's own build needs both.
  # In a process group of its own (set -m gives it one before it runs),
  # ended with the script: a failed client set-up must not leave its
  # compilers running into the next attempt.
  mkdir -p build
  set -m
  scripts/rocksdb.sh build/rocksdb >build/rocksdb.log 2>&1 &
  rocksdb_pid=$!
  set +m
  trap 'kill -- "-$rocksdb_pid" 2>/dev/null || true' EXIT
  test_clients
  rocksdb_status=0
  wait "$rocksdb_pid" || rocksdb_status=$?
  cat build/rocksdb.log
  ((rocksdb_status == 0)) || exit "$rocksdb_status"
else
  scripts/rocksdb.sh build/rocksdb
fi
# Unity batches: a build from scratch in about 40% less CPU (CMakeLists.txt).
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DLOCALDYNAMO_TESTS="$tests" -DLOCALDYNAMO_UNITY=ON \
      -DRocksDB_DIR="$(pwd)/build/rocksdb/lib/cmake/rocksdb" >/dev/null
if [[ "$tests" == ON ]]; then
  cmake --build build -j "$jobs"
else
  cmake --build build -j "$jobs" --target localdynamo
fi
