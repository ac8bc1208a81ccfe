#!/bin/sh
# Prints the shared libraries an ELF executable loads, with its dynamic
# loader, as absolute paths on this machine: what the container image must
# hold beside the binary. Reads the ELF headers (readelf) instead of running
# the binary, as ldd does, so it works for a cross-compiled one too: the
# libraries are looked up in the multiarch directories of TRIPLET
# (aarch64-linux-gnu, x86_64-linux-gnu), where Debian installs a foreign
# architecture's packages.
#   scripts/image-libs.sh BINARY TRIPLET
set -eu
binary=$1
triplet=$2

needed() { readelf -d "$1" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p'; }

find_lib() {
  for dir in "/lib/$triplet" "/usr/lib/$triplet" /lib /usr/lib; do
    if [ -e "$dir/$1" ]; then echo "$dir/$1"; return; fi
  done
  echo "image-libs: $1 not found for $triplet" >&2
  exit 1
}

interpreter=$(readelf -l "$binary" | sed -n 's/.*Requesting program interpreter: \(.*\)\]/\1/p')
seen=""
queue=$(needed "$binary")
[ -n "$interpreter" ] && echo "$interpreter"
while [ -n "$queue" ]; do
  set -- $queue
  lib=$1
  shift
  queue="$*"
  case " $seen " in *" $lib "*) continue ;; esac
  seen="$seen $lib"
  path=$(find_lib "$lib")
  # The loader is already listed under the path the binary names.
  [ "$(basename "$interpreter")" = "$lib" ] && continue
  echo "$path"
  queue="$queue $(needed "$path")"
done
