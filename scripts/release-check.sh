#!/usr/bin/env bash
# Proves, without publishing anything, what .github/workflows/release.yml
# would publish from dist/ (run scripts/release.sh first):
#   versions  the Java build says the project's version (release.sh checks
#             npm's and Python's); with RELEASE_TAG, the tag names it too
#   workflows actionlint (built from scripts/tools/go.mod, with shellcheck on
#             the run: scripts) on .github/workflows/*.yml; every action
#             pinned to an exact version; a second pass with each pin read as
#             its major tag, for which actionlint knows the action's inputs
#   npm       `npm publish --dry-run` of each tarball in dist/npm: name,
#             version, the binary executable, repository.url (npm refuses a
#             provenance statement for a package that names no repository)
#   python    `twine check --strict` of each wheel in dist/python (twine
#             pinned by scripts/tools/requirements-release.txt, in build/)
#   maven     integrations/java built with -P release -Dgpg.skip: each jar
#             with its -sources and -javadoc jar, and the POM fields Maven
#             Central requires (name, description, url, licenses,
#             developers, scm), the release profile's signing and
#             publishing plugins
# Writes only under build/ (build/tools, build/go, build/release-venv,
# build/release-check) and Maven's integrations/java/*/target.
#   scripts/release-check.sh
#   RELEASE_TAG=v0.1.0 scripts/release-check.sh    also: the tag is the version
#   RELEASE_CHECK_SKIP="maven python" ...           leave parts out (say so)
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
skip=" ${RELEASE_CHECK_SKIP:-} "
work=build/release-check
rm -rf "$work"
mkdir -p "$work" build/tools

fail() { echo "release-check: $*" >&2; exit 1; }
started=$SECONDS
lap=$SECONDS
done_part() { echo "release-check: $1 passed in $((SECONDS - lap)) s"; lap=$SECONDS; }
skipped() { [[ "$skip" == *" $1 "* ]] && echo "release-check: $1 SKIPPED (RELEASE_CHECK_SKIP)"; }

version=$(sed -n 's/^project(localdynamo VERSION \([0-9.]*\).*/\1/p' CMakeLists.txt)
[[ -n "$version" ]] || fail "no version in CMakeLists.txt"
[[ -d dist/npm && -d dist/python ]] || fail "dist/ has no npm/ or python/: run scripts/release.sh first"

scripts/apt-install.sh release-check shellcheck python3-venv

# --- versions --------------------------------------------------------------
if [[ -n "${RELEASE_TAG:-}" && "$RELEASE_TAG" != "v$version" ]]; then
  fail "the tag $RELEASE_TAG is not v$version (CMakeLists.txt)"
fi
java_version=$(/usr/bin/python3 -c '
import sys, xml.etree.ElementTree as ET
ns = {"m": "http://maven.apache.org/POM/4.0.0"}
print(ET.parse(sys.argv[1]).getroot().findtext("m:version", namespaces=ns))' integrations/java/pom.xml)
[[ "$java_version" == "$version" ]] || fail "integrations/java/pom.xml says $java_version, CMakeLists.txt $version"
done_part "versions ($version)"

# --- workflows -------------------------------------------------------------
if ! skipped workflows; then
  # A Go on PATH, and the module and build caches under build/go, so that a
  # clean clone downloads and builds the pinned version afresh. actionlint
  # needs Go 1.25: an older go fetches that toolchain (GOTOOLCHAIN=auto).
  # shellcheck source=scripts/go-env.sh
  . scripts/go-env.sh
  (cd scripts/tools && GOFLAGS="-mod=mod -modcacherw" \
    go build -trimpath -o "$root/build/tools/actionlint" github.com/rhysd/actionlint/cmd/actionlint)
  lint=("$root/build/tools/actionlint" -shellcheck "$(command -v shellcheck)" -pyflakes=)
  "${lint[@]}" .github/workflows/*.yml
  # A tag like v4 moves; an exact version or a commit does not.
  if grep -nE '^\s*(- )?uses:' .github/workflows/*.yml |
      grep -vE 'uses:\s*[^@]+@(v[0-9]+\.[0-9]+\.[0-9]+|[0-9a-f]{40})(\s|$)'; then
    fail "the actions above are not pinned to an exact version"
  fi
  # actionlint checks inputs only for the refs it knows (actions/checkout@v6,
  # pypa/gh-action-pypi-publish@release/v1): the same workflows again with
  # each exact version read as its major tag.
  mkdir -p "$work/majors/.github/workflows"
  for file in .github/workflows/*.yml; do
    sed -E -e '/^\s*(- )?uses:/ s#(pypa/gh-action-pypi-publish)@v1(\.[0-9]+)+#\1@release/v1#' \
      -e '/^\s*(- )?uses:/ s/@v([0-9]+)(\.[0-9]+)+/@v\1/' "$file" >"$work/majors/$file"
  done
  (cd "$work/majors" && "${lint[@]}" .github/workflows/*.yml)
  done_part "workflows (actionlint $("$root/build/tools/actionlint" -version | sed -n 1p), shellcheck $(shellcheck --version | sed -n 's/^version: //p'))"
fi

# --- npm -------------------------------------------------------------------
if ! skipped npm; then
  shopt -s nullglob
  tarballs=(dist/npm/*.tgz)
  ((${#tarballs[@]} == 4)) || fail "dist/npm holds ${#tarballs[@]} tarballs, expected 4"
  unready=()  # all of them are checked, then the unready named
  for tarball in "${tarballs[@]}"; do
    report="$work/$(basename "$tarball" .tgz).dry-run.json"
    # --dry-run: npm packs, checks and prints the publish, sending nothing.
    npm publish --dry-run --json --access public "$tarball" >"$report" 2>"$report.log" ||
      { cat "$report.log" >&2; fail "npm publish --dry-run $tarball failed"; }
    tar -xOzf "$tarball" package/package.json >"$work/$(basename "$tarball" .tgz).package.json"
    # shellcheck disable=SC2016  # JavaScript's template literals, not the shell's
    node -e '
      const fs = require("fs");
      const [reportFile, manifestFile, version, tarball] = process.argv.slice(1);
      // npm prints the JSON object alone, or keyed by the package name.
      let report = JSON.parse(fs.readFileSync(reportFile, "utf8"));
      if (!report.files) report = Object.values(report)[0];
      const manifest = JSON.parse(fs.readFileSync(manifestFile, "utf8"));
      const problems = [];
      if (report.version !== version) problems.push(`version ${report.version}, not ${version}`);
      if (report.name !== manifest.name) problems.push(`publishes ${report.name}, the manifest names ${manifest.name}`);
      const url = manifest.repository && (manifest.repository.url || manifest.repository);
      if (!url) problems.push("package.json has no repository.url (npm publish --provenance needs it)");
      if (manifest.name.startsWith("@localdynamo/linux-")) {
        const binary = report.files.find((f) => f.path === "bin/localdynamo");
        if (!binary) problems.push("no bin/localdynamo");
        else if ((binary.mode & 0o111) === 0) problems.push("bin/localdynamo is not executable");
      }
      if (problems.length) { console.error(`${tarball}: ${problems.join("; ")}`); process.exit(1); }
      console.log(`release-check: npm ${report.name}@${report.version}: ${report.files.length} files, ${report.size} bytes packed`);
    ' "$report" "$work/$(basename "$tarball" .tgz).package.json" "$version" "$tarball" ||
      unready+=("$tarball")
  done
  ((${#unready[@]} == 0)) || fail "npm: not ready to publish: ${unready[*]}"
  done_part npm
fi

# --- python ----------------------------------------------------------------
if ! skipped python; then
  venv=build/release-venv
  requirements=scripts/tools/requirements-release.txt
  # Reused while it was made from this very file.
  if ! cmp -s "$requirements" "$venv/requirements.installed" 2>/dev/null; then
    rm -rf "$venv"
    /usr/bin/python3 -m venv "$venv"
    # The file is the whole closure: --no-deps lets nothing unpinned in, pip
    # check proves nothing is missing.
    "$venv/bin/python" -m pip install --quiet --disable-pip-version-check --no-deps \
      --only-binary=:all: --require-virtualenv -r "$requirements"
    "$venv/bin/python" -m pip check --disable-pip-version-check >/dev/null
    cp "$requirements" "$venv/requirements.installed"
  fi
  wheels=(dist/python/*.whl)
  ((${#wheels[@]} == 3)) || fail "dist/python holds ${#wheels[@]} wheels, expected 3"
  for wheel in "${wheels[@]}"; do
    [[ "$(basename "$wheel")" == *-"$version"-* ]] || fail "$wheel is not version $version"
  done
  "$venv/bin/twine" --no-color check --strict "${wheels[@]}"
  done_part "python (twine $("$venv/bin/twine" --no-color --version | sed -n 's/^twine version \([^ ]*\).*/\1/p'))"
fi

# --- maven -----------------------------------------------------------------
if ! skipped maven; then
  . scripts/java-env.sh  # a JDK and Maven, the repository under build/m2
  mvn=(mvn -B --no-transfer-progress -f integrations/java/pom.xml -P release -Dgpg.skip)
  # With both binaries in the launcher, as the release workflow deploys it.
  dist_property=()
  [[ -f dist/linux-amd64/bin/localdynamo && -f dist/linux-arm64/bin/localdynamo ]] &&
    dist_property=(-Dlocaldynamo.dist="$root/dist")
  "${mvn[@]}" -q -DskipTests "${dist_property[@]}" verify >"$work/maven-verify.log" 2>&1 ||
    { tail -40 "$work/maven-verify.log" >&2; fail "mvn verify -P release failed ($work/maven-verify.log)"; }
  # The POMs as Central reads them: inherited fields filled in.
  "${mvn[@]}" -q org.apache.maven.plugins:maven-help-plugin:3.5.2:effective-pom \
    -Doutput="$root/$work/effective-pom.xml" >"$work/maven-effective-pom.log" 2>&1 ||
    { tail -40 "$work/maven-effective-pom.log" >&2; fail "mvn help:effective-pom failed"; }
  /usr/bin/python3 - "$work/effective-pom.xml" integrations/java "$version" \
    "$( ((${#dist_property[@]})) && echo yes || echo no)" <<'PY'
import pathlib, sys, zipfile
import xml.etree.ElementTree as ET

effective, base, version, bundled = sys.argv[1], pathlib.Path(sys.argv[2]), sys.argv[3], sys.argv[4] == "yes"
ns = "{http://maven.apache.org/POM/4.0.0}"
root = ET.parse(effective).getroot()
# A reactor's effective POM is <projects> (no namespace) around one <project> each.
projects = root.findall(f"{ns}project") if root.tag in ("projects", f"{ns}projects") else [root]
problems = []

def text(node, path):
    found = node.find("/".join(ns + part for part in path.split("/")))
    return (found.text or "").strip() if found is not None else ""

for project in projects:
    artifact = text(project, "artifactId")
    where = f"{text(project, 'groupId')}:{artifact}"
    if text(project, "version") != version:
        problems.append(f"{where}: version {text(project, 'version')}, not {version}")
    # What Central's validation refuses a deployment for.
    for field in ("name", "description", "url", "licenses/license/name", "licenses/license/url",
                  "developers/developer/name", "scm/url", "scm/connection"):
        if not text(project, field):
            problems.append(f"{where}: no <{field}>")
    # The plugins that run (with the release profile merged in), not pluginManagement's.
    plugins = {text(p, "artifactId") for p in project.findall(f"{ns}build/{ns}plugins/{ns}plugin")}
    if "maven-gpg-plugin" not in plugins:
        problems.append(f"{where}: the release profile has no maven-gpg-plugin (Central wants .asc files)")
    if "central-publishing-maven-plugin" not in plugins and not text(project, "distributionManagement/repository/url"):
        problems.append(f"{where}: the release profile has no central-publishing-maven-plugin nor a distributionManagement repository")
    if text(project, "packaging") in ("", "jar"):
        # The module's folder: the reactor's modules are folders named as their artifactIds.
        target = base / artifact / "target"
        for suffix, must_hold in (("", ".class"), ("-sources", ".java"), ("-javadoc", "index.html")):
            jar = target / f"{artifact}-{version}{suffix}.jar"
            if not jar.is_file():
                problems.append(f"{where}: no {jar}")
                continue
            names = zipfile.ZipFile(jar).namelist()
            if not any(n.endswith(must_hold) for n in names):
                problems.append(f"{where}: {jar.name} holds no {must_hold}")
            # The launcher carries both binaries when built from dist/ (-Dlocaldynamo.dist).
            if artifact == "localdynamo-launcher" and suffix == "" and bundled:
                for arch in ("amd64", "arm64"):
                    if f"native/linux-{arch}/localdynamo" not in names:
                        problems.append(f"{where}: {jar.name} lacks native/linux-{arch}/localdynamo")
        print(f"release-check: maven {where}:{version}: jar, -sources.jar, -javadoc.jar")
    else:
        print(f"release-check: maven {where}:{version} ({text(project, 'packaging')})")

if problems:
    print("\n".join("release-check: maven: " + p for p in problems), file=sys.stderr)
    sys.exit(1)
PY
  done_part maven
fi

echo "release-check: passed in $((SECONDS - started)) s (nothing was published)"
