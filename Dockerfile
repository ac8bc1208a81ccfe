# The localdynamo container image: a drop-in for amazon/dynamodb-local, for
# linux/amd64 and linux/arm64 (Apple Silicon, Graviton).
#
#   docker build -t localdynamo .
#   docker run -p 8000:8000 localdynamo
#   docker run -p 8000:8000 localdynamo -jar DynamoDBLocal.jar -sharedDb -inMemory
#   docker buildx build --platform linux/amd64,linux/arm64 -t localdynamo .
#
# The build stage runs on the build machine's own architecture
# ($BUILDPLATFORM), never under emulation, and yields the server for the
# target's ($TARGETARCH), linked statically:
# - from dist/linux-$TARGETARCH/bin/localdynamo when scripts/release.sh made
#   it (the binary the tests ran; LOCALDYNAMO_PREBUILT=no compiles anyway);
# - else compiled with the project's CMake build on Debian bookworm: natively
#   when the architectures match, else with Debian's cross toolchain and the
#   target's libraries installed through multiarch
#   (cmake/aarch64-linux-gnu.cmake, cmake/x86_64-linux-gnu.cmake), over
#   Debian's RocksDB compiled again without its assertions (scripts/rocksdb.sh).
# scripts/release.sh uses this stage (--target build) to compile the binary
# of the architecture it is not running on.
#
# It gathers the runtime file system: the binary, the preloaded models, a
# passwd entry for the unprivileged user, and Debian's static busybox for
# the target as /bin/sh with its applets. The image is that file system
# alone, FROM scratch: no package manager, no libraries. The one static
# busybox (about 2 MB) is there because Testcontainers' default wait
# strategy checks the port from inside the container with
# `/bin/sh -c "cat /proc/net/tcp* | awk … | grep … || nc -vz …"`, and stream
# triggers' "Command" runs through /bin/sh. The health check stays the
# binary's own --healthcheck mode.

FROM --platform=$BUILDPLATFORM debian:bookworm-slim AS build
ARG BUILDARCH=amd64
ARG TARGETARCH=amd64
ARG LOCALDYNAMO_PREBUILT=auto
WORKDIR /src
COPY dist dist
RUN set -eu; \
    if [ "$LOCALDYNAMO_PREBUILT" = auto ] && [ -f "dist/linux-$TARGETARCH/bin/localdynamo" ]; then \
      mode=prebuilt; \
    else \
      mode=compile; \
    fi; \
    echo "$mode" >/tmp/mode; echo "localdynamo for $TARGETARCH: $mode"; \
    case "$BUILDARCH/$TARGETARCH" in \
      amd64/amd64|arm64/arm64) compiler=g++ ;; \
      amd64/arm64) compiler=g++-aarch64-linux-gnu ;; \
      arm64/amd64) compiler=g++-x86-64-linux-gnu ;; \
      *) echo "building for $TARGETARCH on $BUILDARCH is not supported" >&2; exit 1 ;; \
    esac; \
    [ "$TARGETARCH" = "$BUILDARCH" ] || dpkg --add-architecture "$TARGETARCH"; \
    apt-get update -qq; \
    packages="binutils busybox-static"; \
    if [ "$mode" = compile ]; then \
      packages="$packages $compiler make cmake lld dpkg-dev rapidjson-dev librocksdb-dev:$TARGETARCH \
        libboost-dev:$TARGETARCH libboost-program-options-dev:$TARGETARCH \
        zlib1g-dev:$TARGETARCH libssl-dev:$TARGETARCH"; \
    fi; \
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
      $packages >/dev/null; \
    mkdir -p /opt/busybox; \
    if [ "$TARGETARCH" = "$BUILDARCH" ]; then \
      cp /bin/busybox /opt/busybox/busybox; \
    else \
      cd /tmp; apt-get download -qq "busybox-static:$TARGETARCH"; \
      dpkg-deb -x busybox-static_*_"$TARGETARCH".deb /tmp/busybox-root; \
      cp /tmp/busybox-root/bin/busybox /opt/busybox/busybox; \
      rm -rf /tmp/busybox-*; \
    fi; \
    rm -rf /var/lib/apt/lists/*
# The sources (what .dockerignore leaves), in one layer: each layer is a copy
# of the whole root under some storage drivers (buildah's vfs).
COPY . .
ARG JOBS=2
# The commit `localdynamo --version` names (the build context has no .git).
ARG LOCALDYNAMO_COMMIT=unknown
RUN set -eu; mkdir -p /out; \
    case "$TARGETARCH" in \
      amd64) triplet=x86_64-linux-gnu; machine=X86-64 ;; \
      arm64) triplet=aarch64-linux-gnu; machine=AArch64 ;; \
    esac; \
    if [ "$(cat /tmp/mode)" = prebuilt ]; then \
      cp "dist/linux-$TARGETARCH/bin/localdynamo" /out/localdynamo; \
    else \
      cross=""; strip=strip; \
      if [ "$TARGETARCH" != "$BUILDARCH" ]; then \
        cross="-DCMAKE_TOOLCHAIN_FILE=cmake/$triplet.cmake"; strip=$triplet-strip; \
      fi; \
      scripts/rocksdb.sh /opt/rocksdb "$TARGETARCH"; \
      cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DLOCALDYNAMO_TESTS=OFF -DLOCALDYNAMO_UNITY=ON \
            -DRocksDB_DIR=/opt/rocksdb/lib/cmake/rocksdb $cross >/dev/null; \
      LOCALDYNAMO_COMMIT=$LOCALDYNAMO_COMMIT cmake --build build -j "$JOBS" --target localdynamo; \
      $strip --strip-unneeded -o /out/localdynamo build/localdynamo; \
    fi; \
    readelf -h /out/localdynamo | grep -q "Machine: *.*$machine" || \
      { echo "localdynamo: the binary is not for $TARGETARCH" >&2; exit 1; }; \
    if readelf -l /out/localdynamo | grep -q INTERP; then \
      echo "localdynamo: the binary is not statically linked" >&2; exit 1; \
    fi

# The runtime root: the binary, busybox and its applet links (the list from
# the build machine's busybox, the same Debian version).
ARG UID=1000
RUN set -eu; root=/runtime; \
    install -D -m 0755 /out/localdynamo "$root/usr/local/bin/localdynamo"; \
    mkdir -p "$root/etc" "$root/tmp" "$root/usr/share/localdynamo" "$root/usr/bin"; \
    chmod 1777 "$root/tmp"; \
    printf 'root:x:0:0:root:/root:/sbin/nologin\nlocaldynamo:x:%s:%s:localdynamo:/data:/sbin/nologin\n' \
      "$UID" "$UID" >"$root/etc/passwd"; \
    printf 'root:x:0:\nlocaldynamo:x:%s:\n' "$UID" >"$root/etc/group"; \
    printf 'hosts: files dns\n' >"$root/etc/nsswitch.conf"; \
    install -D -m 0755 /opt/busybox/busybox "$root/bin/busybox"; \
    for applet in $(/bin/busybox --list); do \
      [ "$applet" = busybox ] || ln -s busybox "$root/bin/$applet"; \
    done; \
    ln -s /bin/env "$root/usr/bin/env"; \
    mkdir -p /writable/data /writable/home/dynamodblocal

FROM scratch
ARG UID=1000
COPY --from=build /runtime/ /
# Writable by the server's user: the data volume, and DynamoDB Local's working
# directory, which compose files written for it name in `working_dir`.
COPY --from=build --chown=${UID}:${UID} /writable/data /data
COPY --from=build --chown=${UID}:${UID} /writable/home/dynamodblocal /home/dynamodblocal
COPY fixtures /usr/share/localdynamo/fixtures
USER ${UID}:${UID}
WORKDIR /data
VOLUME /data
EXPOSE 8000
HEALTHCHECK --interval=5s --timeout=5s --start-period=5s --retries=3 \
  CMD ["/usr/local/bin/localdynamo", "--healthcheck"]
# Persistent in the /data volume by default; every DynamoDB Local flag works
# as an argument (-inMemory, -dbPath DIR, -port N, -sharedDb, ...), and
# `-jar DynamoDBLocal.jar` and JVM options are accepted and ignored.
# On 0.0.0.0 without a token the admin API is read-only: give
# -e LOCALDYNAMO_ADMIN_TOKEN=... to unlock it for whoever has the token, or
# --admin-open for anyone on the network; --trigger-hosts NAME lets HTTP
# triggers reach a sibling service (docs/security.md).
ENTRYPOINT ["/usr/local/bin/localdynamo", "--host", "0.0.0.0", "--data-dir", "/data"]
