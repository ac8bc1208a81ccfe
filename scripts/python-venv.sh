#!/usr/bin/env bash
# Makes build/venv: Debian's Python 3 (/usr/bin/python3 -m venv, which needs
# the python3-venv package) with the Python test clients pinned by
# tests/requirements.txt (the newest boto3, pytest, pytest-xdist). A venv whose
# recorded requirements equal the file's is reused as it is; any other is made
# anew, so a changed pin never meets a stale install.
#   scripts/python-venv.sh            make or reuse build/venv
#   LOCALDYNAMO_VENV=DIR LOCALDYNAMO_WHEELS=DIR scripts/python-venv.sh   other places
set -euo pipefail
cd "$(dirname "$0")/.."

venv=${LOCALDYNAMO_VENV:-build/venv}
# The pinned wheels themselves, kept beside the venv: the pytest plugin's test
# (tests/integrations/run_pytest_samples.py) makes a fresh venv from them
# with no index at all.
wheels=${LOCALDYNAMO_WHEELS:-build/python-wheels}
requirements=tests/requirements.txt
stamp=$venv/requirements.installed

if [[ -x $venv/bin/python && -d $wheels ]] && cmp -s "$requirements" "$stamp"; then
  echo "python-venv: $venv matches $requirements"
  exit 0
fi

if ! /usr/bin/python3 -c 'import ensurepip, venv' 2>/dev/null; then
  echo "python-venv: /usr/bin/python3 -m venv needs Debian's python3-venv package" >&2
  exit 1
fi

rm -rf "$venv" "$wheels"
/usr/bin/python3 -m venv "$venv"
pip=("$venv/bin/python" -m pip --disable-pip-version-check)
# --no-deps: the file is the whole closure, so nothing unpinned comes in;
# pip check then proves the closure is complete and consistent.
"${pip[@]}" download --quiet --no-deps --only-binary=:all: -d "$wheels" -r "$requirements"
"${pip[@]}" install --quiet --no-deps --no-index --find-links "$wheels" \
    --require-virtualenv --root-user-action=ignore -r "$requirements"
"$venv/bin/python" -m pip check --disable-pip-version-check
cp "$requirements" "$stamp"
echo "python-venv: $venv made from $requirements"
