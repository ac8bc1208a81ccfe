#!/usr/bin/env bash
# The sources as Clang sees them, against LLVM's libc++ instead of GCC's
# libstdc++: every source file of the server (tests aside) compiles with
# clang++ -stdlib=libc++, so the code leans on no GCC-only feature and no
# libstdc++ detail (the Homebrew formula builds with Apple's Clang and libc++),
# and Clang's thread-safety analysis holds: every member marked GUARDED_BY is
# touched with its lock held, every function marked REQUIRES called with it
# (engine/thread_annotations.h). Compiles only (-fsyntax-only): Debian's
# RocksDB and Boost libraries are built against libstdc++, so nothing could
# link. Needs clang++ and libc++ (scripts/setup.sh --tests installs both).
# Exits non-zero on any error or finding.
set -euo pipefail
cd "$(dirname "$0")/.."
clangxx=$(command -v clang++ || true)
if [[ -z "$clangxx" ]]; then
  echo "clang_check: clang++ not found" >&2
  exit 1
fi
mapfile -t sources < <(find engine api emulator cli mcp server -name '*.cc' -not -name '*_test.cc' | sort)
# The BOOST_ASIO_ definitions are CMakeLists.txt's for Clang (why: there).
flags=(-std=c++20 -stdlib=libc++ -fsyntax-only -I. -I/usr/include/rapidjson -DRAPIDJSON_HAS_STDSTRING=1
       -DBOOST_ASIO_HAS_CO_AWAIT=1 -DBOOST_ASIO_HAS_STD_COROUTINE=1 -DBOOST_ASIO_HAS_STD_INVOKE_RESULT=1
       -DLOCALDYNAMO_VERSION=\"check\"
       -Wthread-safety -Wthread-safety-beta -Werror=thread-safety -Werror=thread-safety-beta
       -Wno-unknown-warning-option -Wno-ambiguous-reversed-operator)
echo "clang_check: checking ${#sources[@]} files with $($clangxx --version | sed -n 1p), libc++"
started=$SECONDS
printf '%s\0' "${sources[@]}" |
  xargs -0 -P "$(nproc 2>/dev/null || echo 2)" -n 4 "$clangxx" "${flags[@]}"
echo "clang_check: clean in $((SECONDS - started)) s"
