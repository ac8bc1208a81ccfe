#!/usr/bin/env bash
# Builds the localdynamo Java artifacts (launcher, JUnit 5 extension, Testcontainers module)
# with their -sources and -javadoc jars, runs the launcher's unit tests, and installs them in
# the local Maven repository (build/m2, scripts/java-env.sh), where a project's pom finds dev.localdynamo:*:0.1.0.
#   integrations/java/build.sh [--offline] [more mvn options]
# LOCALDYNAMO_DIST=dist bundles the binaries scripts/release.sh made
# (dist/linux-{amd64,arm64}/bin/localdynamo) into localdynamo-launcher's jar; without it the
# jar carries none and the launcher takes LOCALDYNAMO_BIN or the PATH's.
set -euo pipefail
cd "$(dirname "$0")"
# A JDK and Maven, and the local repository under build/m2.
. ../../scripts/java-env.sh
# clean: a jar built without the dist must not keep binaries an earlier build copied.
args=(-B -ntp clean install)
if [[ "${1:-}" == --offline ]]; then
  args+=(-o)
  shift
fi
if [[ -n "${LOCALDYNAMO_DIST:-}" ]]; then
  args+=("-Dlocaldynamo.dist=$(cd "$LOCALDYNAMO_DIST" && pwd)")
fi
exec mvn "${args[@]}" "$@"
