#!/usr/bin/env bash
# Builds the libFuzzer targets with clang (ASan + UBSan) and runs each for a
# bounded time from its seed corpus. Exits non-zero on any crash, leak,
# sanitizer report or timeout. Usage: tests/fuzz/run.sh [seconds per target]
set -euo pipefail
seconds="${1:-${FUZZ_SECONDS:-30}}"
root="$(cd "$(dirname "$0")/../.." && pwd)"
out="${FUZZ_BUILD_DIR:-$root/build/fuzz}"
mkdir -p "$out"

flags=(-std=c++20 -O1 -g -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined
       -fsanitize-ignorelist="$root/tests/fuzz/ubsan_ignore.txt"
       -DRAPIDJSON_HAS_STDSTRING=1 -I"$root")
# The code under test: the api and engine layers, instrumented for ASan,
# UBSan and libFuzzer's coverage. Under ctest they come from the ASan build
# (scripts/sanitizers.sh builds it with clang and -fsanitize=fuzzer-no-link;
# FUZZ_LAYER_LIBS names its libddb_api.a and libddb_engine.a, colon-separated),
# so they are compiled once for both. Run by hand without it, they are compiled here,
# two files at a time, again when any of their files changed.
layer_libs=()
if [[ -n "${FUZZ_LAYER_LIBS:-}" ]]; then
  IFS=':' read -r -a layer_libs <<<"$FUZZ_LAYER_LIBS"
else
  objdir="$out/obj"
  mkdir -p "$objdir"
  if [[ ! -f "$objdir/.stamp" || "$0" -nt "$objdir/.stamp" ||
        -n "$(find "$root/engine" "$root/api" -newer "$objdir/.stamp" -name '*.[ch]*' -print -quit)" ]]; then
    echo "building the api and engine layers"
    rm -f "$objdir"/*.o
    find "$root/engine" "$root/api" -name '*.cc' | sort |
      xargs -P 2 -I{} sh -c 'src=$0 dir=$1 top=$2; shift 2
        clang++ "$@" -fsanitize=address,undefined -c "$src" -o "$dir/$(echo "${src#"$top"/}" | tr / _).o"' \
        {} "$objdir" "$root" "${flags[@]/-fsanitize=fuzzer,address,undefined/-fsanitize=fuzzer-no-link}"
    touch "$objdir/.stamp"
  fi
  layer_libs=("$objdir"/*.o)
fi

for name in expression attribute_json streams partiql; do
  echo "building ${name}_fuzzer"
  # zlib and zstd: api/'s data-file compressions (RocksDB's own link them
  # too); libcrypto: its MD5 checksums.
  clang++ "${flags[@]}" "$root/tests/fuzz/${name}_fuzzer.cc" "${layer_libs[@]}" -lrocksdb -lz -lzstd -lcrypto -lpthread \
    -o "$out/${name}_fuzzer"
done

for name in expression attribute_json streams partiql; do
  corpus="$out/corpus_$name"
  mkdir -p "$corpus"
  echo "fuzzing $name for ${seconds}s"
  # -timeout: one input may take at most 5 s (a hang is a failure);
  # -rss_limit_mb: no input may make the code balloon.
  status=0
  "$out/${name}_fuzzer" -max_total_time="$seconds" -timeout=5 -rss_limit_mb=1024 \
      -max_len=4200 -print_final_stats=1 -artifact_prefix="$out/" "$corpus" "$root/tests/fuzz/corpus/$name" \
      >"$out/$name.log" 2>&1 || status=$?
  grep -E "^(stat::number_of_executed_units|stat::new_units_added|Done)" "$out/$name.log" || true
  if [[ $status -ne 0 ]]; then
    grep -E -A30 "^(==|ERROR|SUMMARY)|runtime error" "$out/$name.log" | sed -n 1,60p
    echo "FAILED: $name fuzzer (exit $status); reproducer in $out" >&2
    exit 1
  fi
done
