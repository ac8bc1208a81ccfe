#!/bin/bash
# Runs inside a fresh Debian bookworm root (scripts/release-test.sh makes it,
# with the release's dist/ at /release and this folder at /packages): installs
# Node.js, npm and Python from Debian's packages — no compiler — then the
# packed npm tarballs into the Vitest sample and the wheels into a virtual
# environment for the pytest sample, and runs both. Nothing comes from the
# source tree: the samples reach the server only through the packages.
set -euo pipefail
export DEBIAN_FRONTEND=noninteractive HOME=/root LANG=C.UTF-8
apt-get update -qq
apt-get install -y -qq --no-install-recommends ca-certificates nodejs npm python3-venv \
  python3-pytest python3-boto3 >/dev/null
for compiler in cc gcc g++ c++ clang; do
  if command -v "$compiler" >/dev/null; then
    echo "in-root: $compiler is installed; the packages must need no compiler" >&2
    exit 1
  fi
done
echo "in-root: node $(node --version), npm $(npm --version), $(python3 --version); no compiler"

cpu=$(node -p process.arch)
tarballs=(/release/npm/localdynamo-[0-9]*.tgz /release/npm/localdynamo-linux-"$cpu"-*.tgz
          /release/npm/localdynamo-test-*.tgz)
cp -r /packages/vitest-sample /work-vitest
cd /work-vitest
npm ci --no-audit --no-fund --loglevel=error
npm install --no-save --no-audit --no-fund --loglevel=error "${tarballs[@]}"
npx --no-install localdynamo --version
npx --no-install vitest run --maxWorkers=2 --minWorkers=2

machine=$(uname -m)
python3 -m venv --system-site-packages /venv
/venv/bin/pip install --quiet --no-index --disable-pip-version-check \
  /release/python/localdynamo-*-manylinux2014_"$machine".whl /release/python/pytest_localdynamo-*.whl
/venv/bin/localdynamo --version
cp -r /packages/pytest-sample /work-pytest
cd /work-pytest
/venv/bin/python -m pytest -v
