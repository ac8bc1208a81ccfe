#!/usr/bin/env bash
# The ctest entry java_integration: the sample project's tests through the localdynamo Java
# artifacts (JUnit 5 extension, launcher; the Testcontainers class skips itself unless
# run-testcontainers.sh runs it), offline: nothing is fetched.
#   tests/integrations/java-sample/run.sh            # mvn -o test
#   tests/integrations/java-sample/run.sh --setup    # once, online: integrations/java/build.sh
#                                                    # and every plugin and dependency the run needs
# LOCALDYNAMO_BIN names the server's binary (default: <repo>/build/localdynamo).
# Reports: target/surefire-reports/.
set -euo pipefail
cd "$(dirname "$0")"
repo=$(cd ../../.. && pwd)
# A JDK and Maven, and the local repository under build/m2 (build.sh installs
# the integration's artifacts there).
. "$repo/scripts/java-env.sh"
export LOCALDYNAMO_BIN=${LOCALDYNAMO_BIN:-$repo/build/localdynamo}
if [[ "${1:-}" == --setup ]]; then
  shift
  "$repo/integrations/java/build.sh" "$@"
  # Runs no test but resolves what `test` needs, Surefire's JUnit provider included.
  exec mvn -B -ntp test -Dtest=NoTestRunsInSetup "$@"
fi
exec mvn -B -ntp -o test "$@"
