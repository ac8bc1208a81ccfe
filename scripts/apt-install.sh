#!/usr/bin/env bash
# Installs the Debian packages named that are not installed yet (apt-get,
# without recommends; with sudo when not root), saying which; does nothing,
# not even `apt-get update`, when all are there. Every script that needs
# packages calls this.
#   scripts/apt-install.sh WHO PACKAGE...     WHO prefixes the message
set -euo pipefail
who=$1
shift
missing=()
for p in "$@"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep "install ok installed" >/dev/null || missing+=("$p")
done
((${#missing[@]})) || exit 0
echo "$who: installing ${missing[*]}"
sudo=""
[[ $(id -u) -ne 0 ]] && sudo="sudo"
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends \
  "${missing[@]}" >/dev/null
