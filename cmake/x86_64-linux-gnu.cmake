# Cross-compiling for linux/amd64 on a Debian arm64 machine (an Apple-silicon
# laptop's Linux VM, Graviton) with Debian's cross toolchain
# (g++-x86-64-linux-gnu) and amd64 libraries installed through multiarch
# (`dpkg --add-architecture amd64`, then e.g. librocksdb-dev:amd64): the
# mirror of cmake/aarch64-linux-gnu.cmake, which says how this works.
#   cmake -S . -B build-amd64 -DCMAKE_TOOLCHAIN_FILE=cmake/x86_64-linux-gnu.cmake
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR x86_64)
set(CMAKE_C_COMPILER x86_64-linux-gnu-gcc)
set(CMAKE_CXX_COMPILER x86_64-linux-gnu-g++)
set(CMAKE_LIBRARY_ARCHITECTURE x86_64-linux-gnu)
# Only amd64 libraries: never link an arm64 one found in /usr/lib/aarch64-linux-gnu.
set(CMAKE_IGNORE_PATH /usr/lib/aarch64-linux-gnu /lib/aarch64-linux-gnu)
# Programs run at build time (cmake -P scripts) are the build machine's.
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
