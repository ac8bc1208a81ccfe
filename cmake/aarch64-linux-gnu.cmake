# Cross-compiling for linux/arm64 on a Debian amd64 machine with Debian's
# cross toolchain (g++-aarch64-linux-gnu) and arm64 libraries installed
# through multiarch (`dpkg --add-architecture arm64`, then e.g.
# librocksdb-dev:arm64): headers are shared in /usr/include, arm64 libraries
# and their CMake package files live in /usr/lib/aarch64-linux-gnu, where
# CMake looks once it knows the library architecture.
#   cmake -S . -B build-arm64 -DCMAKE_TOOLCHAIN_FILE=cmake/aarch64-linux-gnu.cmake
# The container image builds with it (Dockerfile, --platform linux/arm64 on amd64).
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)
set(CMAKE_C_COMPILER aarch64-linux-gnu-gcc)
set(CMAKE_CXX_COMPILER aarch64-linux-gnu-g++)
set(CMAKE_LIBRARY_ARCHITECTURE aarch64-linux-gnu)
# Only arm64 libraries: never link an amd64 one found in /usr/lib/x86_64-linux-gnu.
set(CMAKE_IGNORE_PATH /usr/lib/x86_64-linux-gnu /lib/x86_64-linux-gnu)
# Programs run at build time (cmake -P scripts) are the build machine's.
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
# GCC notes on arm64 that a pair<double, double> is passed as GCC 10.1
# changed it to be: that matters only when linking with code from an older
# GCC, and every object here comes from this one compiler.
set(CMAKE_CXX_FLAGS_INIT "-Wno-psabi")
