#!/usr/bin/env bash
# Clang's thread-safety analysis over the engine and the api layer: every
# member marked GUARDED_BY must be touched with its lock held, every
# function marked REQUIRES called with it (engine/thread_annotations.h).
# Compiles only (-fsyntax-only): nothing links or runs. Needs clang++
# (scripts/setup.sh --tests installs it). Exits non-zero on any finding.
set -euo pipefail
cd "$(dirname "$0")/.."
clangxx=$(command -v clang++ || true)
if [[ -z "$clangxx" ]]; then
  echo "thread_safety: clang++ not found" >&2
  exit 1
fi
mapfile -t sources < <(find engine api -name '*.cc' -not -name '*_test.cc' | sort)
flags=(-std=c++20 -fsyntax-only -I. -I/usr/include/rapidjson -DRAPIDJSON_HAS_STDSTRING=1
       -Wthread-safety -Wthread-safety-beta -Werror=thread-safety -Werror=thread-safety-beta
       -Wno-unknown-warning-option -Wno-ambiguous-reversed-operator)
echo "thread_safety: checking ${#sources[@]} files with $($clangxx --version | head -1)"
printf '%s\0' "${sources[@]}" |
  xargs -0 -P "$(nproc 2>/dev/null || echo 2)" -n 4 "$clangxx" "${flags[@]}"
echo "thread_safety: clean"
