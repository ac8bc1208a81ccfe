# The localdynamo container image: a drop-in for amazon/dynamodb-local.
#
#   docker run -p 8000:8000 localdynamo
#   docker run -p 8000:8000 localdynamo -jar DynamoDBLocal.jar -sharedDb -inMemory
#
# Stage one compiles the server with the project's own CMake build on Debian
# bookworm and gathers the runtime file system: the stripped binary, exactly
# the shared libraries it loads (from ldd), the preloaded models and a passwd
# entry for the unprivileged user, and Debian's static busybox as /bin/sh
# with its applets. Stage two is that file system alone, FROM scratch: no
# package manager and no libraries but the server's; the one static busybox
# (about 2 MB) is there because Testcontainers' default wait strategy checks
# the port from inside the container with `/bin/sh -c "cat /proc/net/tcp* |
# awk … | grep … || nc -vz …"`, and stream triggers' "Command" runs through
# /bin/sh. The health check stays the binary's own --healthcheck mode.

FROM debian:bookworm-slim AS build
RUN apt-get update -qq \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
      g++ make cmake librocksdb-dev rapidjson-dev libboost-dev libboost-program-options-dev \
      zlib1g-dev libssl-dev busybox-static >/dev/null \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY CMakeLists.txt ./
COPY cmake cmake
COPY console console
COPY bench bench
COPY engine engine
COPY api api
COPY emulator emulator
COPY cli cli
COPY server server
ARG JOBS=2
RUN cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DLOCALDYNAMO_TESTS=OFF >/dev/null \
 && cmake --build build -j "$JOBS" --target localdynamo \
 && strip --strip-unneeded build/localdynamo

# The runtime root: the binary and every library ldd resolves (with the
# dynamic loader), at the paths the loader searches.
ARG UID=1000
RUN set -eu; root=/runtime; \
    install -D -m 0755 build/localdynamo "$root/usr/local/bin/localdynamo"; \
    for lib in $(ldd build/localdynamo | awk '$2 == "=>" && $3 ~ /^\// { print $3 } $1 ~ /^\// { print $1 }'); do \
      cp --parents -L "$lib" "$root/"; \
    done; \
    mkdir -p "$root/etc" "$root/tmp" "$root/usr/share/localdynamo"; \
    chmod 1777 "$root/tmp"; \
    printf 'root:x:0:0:root:/root:/sbin/nologin\nlocaldynamo:x:%s:%s:localdynamo:/data:/sbin/nologin\n' \
      "$UID" "$UID" >"$root/etc/passwd"; \
    printf 'root:x:0:\nlocaldynamo:x:%s:\n' "$UID" >"$root/etc/group"; \
    printf 'hosts: files dns\n' >"$root/etc/nsswitch.conf"; \
    mkdir -p /writable/data /writable/home/dynamodblocal; \
    install -D -m 0755 /bin/busybox "$root/bin/busybox"; \
    for applet in $(/bin/busybox --list); do \
      [ "$applet" = busybox ] || ln -s busybox "$root/bin/$applet"; \
    done; \
    mkdir -p "$root/usr/bin"; ln -s /bin/env "$root/usr/bin/env"

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
ENTRYPOINT ["/usr/local/bin/localdynamo", "--host", "0.0.0.0", "--data-dir", "/data"]
