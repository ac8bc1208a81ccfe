#!/usr/bin/env bash
# The Java SDK scenarios (../SCENARIOS.md).
#   run.sh setup   fetches every pinned artifact into build/m2 and compiles (needs the registry, once)
#   run.sh test    runs the suite offline; reports go to $SDK_RESULTS/java when SDK_RESULTS is
#                  set (the pom's sdk-results profile), else target/surefire-reports
# Reads LOCALDYNAMO_BIN (else ../../../build/localdynamo). Extra arguments go to mvn.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# A JDK and Maven, and the local repository under build/m2.
. "$here/../../../scripts/java-env.sh"
mode="${1:-}"
shift || true
case "$mode" in
  setup)
    # test-compile brings the SDK, JUnit and the plugins up to the compiler. Surefire
    # resolves its JUnit provider only when it forks a test JVM, so it forks one on a
    # method filter that selects no test (no server is started, no report written).
    mvn -B -q -Dstyle.color=never -f "$here/pom.xml" "$@" test-compile
    mvn -B -q -Dstyle.color=never -f "$here/pom.xml" "$@" surefire:test \
        -Dtest='ItemScenariosTest#set_up_runs_no_scenario' -Dsurefire.failIfNoSpecifiedTests=false \
        -Dsdk.reports.dir="$here/target/setup-reports"
    ;;
  test)
    # Not -q: surefire's "Tests run:" lines stay in the log.
    mvn -o -B -Dstyle.color=never -f "$here/pom.xml" "$@" test
    ;;
  *)
    echo "usage: $0 setup|test [maven arguments]" >&2
    exit 2
    ;;
esac
