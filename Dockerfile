# Build stage: compile localdynamo with Debian's packages.
FROM debian:bookworm-slim AS build
RUN apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
      g++ make cmake librocksdb-dev rapidjson-dev libboost-dev libboost-program-options-dev \
      zlib1g-dev >/dev/null
WORKDIR /src
COPY CMakeLists.txt ./
COPY cmake cmake
COPY console console
COPY engine engine
COPY api api
COPY server server
COPY tests tests
RUN cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DLOCALDYNAMO_TESTS=OFF >/dev/null \
 && cmake --build build -j "$(nproc)" --target localdynamo

# Runtime stage: the binary, its shared libraries and the fixtures.
FROM debian:bookworm-slim
RUN apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
      librocksdb7.8 libboost-program-options1.74.0 >/dev/null && rm -rf /var/lib/apt/lists/*
COPY --from=build /src/build/localdynamo /usr/local/bin/localdynamo
COPY fixtures /usr/share/localdynamo/fixtures
WORKDIR /data
EXPOSE 8000
ENTRYPOINT ["localdynamo", "--host", "0.0.0.0", "--port", "8000", "--data-dir", "/data"]
