# Sourced by every script that runs Maven (the Java SDK suite, the Java
# integration and its sample, the release checks): installs Debian's JDK 17
# and Maven when missing, and points Maven's local repository at build/m2,
# so a clean clone downloads afresh instead of reusing a machine-wide
# ~/.m2 (the integration is installed there too, where its sample finds it).
#   . scripts/java-env.sh
java_env_root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
command -v mvn >/dev/null && command -v javac >/dev/null ||
  "$java_env_root/scripts/apt-install.sh" java-env openjdk-17-jdk-headless maven
export MAVEN_OPTS="${MAVEN_OPTS:-} -Dmaven.repo.local=$java_env_root/build/m2"
