# Sourced by every script that runs Go (the SDK suite, the Go integration's
# sample, actionlint). The AWS SDK for Go v2 needs Go 1.24; bookworm's own Go
# is 1.19, too old even to fetch a newer one. So: a `go` of 1.24 or later on
# PATH is used as it is; else Debian's golang-1.23 from bookworm-backports
# (installed when missing) fetches Go $go_env_toolchain from the Go module
# proxy as a module (GOTOOLCHAIN), into the module cache. Go's module and
# build caches live under build/go, so a clean clone downloads and compiles
# afresh instead of reusing a machine-wide cache.
#   . scripts/go-env.sh
go_env_root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

go_env_toolchain=go1.26.8

go_env_at_least() {  # MINOR: the `go` on PATH is 1.MINOR or later
  local v
  v=$(go env GOVERSION 2>/dev/null) || return 1
  v=${v#go}
  local major=${v%%.*} rest=${v#*.}
  local minor=${rest%%.*}
  ((major > 1 || (major == 1 && minor >= $1)))
}

if go_env_at_least 24; then
  export GOTOOLCHAIN=local
else
  [[ -x /usr/lib/go-1.23/bin/go ]] || {
    sudo=""
    [[ $(id -u) -ne 0 ]] && sudo="sudo"
    list=/etc/apt/sources.list.d/localdynamo-bookworm-backports.list
    if ! grep -rqs "bookworm-backports" /etc/apt/sources.list /etc/apt/sources.list.d/; then
      mirror=$({ sed -n 's/^URIs: *//p' /etc/apt/sources.list.d/*.sources
                 sed -n 's/^deb \(\[[^]]*\] \)\{0,1\}\([^ ]*\) .*/\2/p' /etc/apt/sources.list
               } 2>/dev/null | grep -v security | head -1)
      echo "go-env: adding bookworm-backports ($mirror) for golang-1.23"
      echo "deb $mirror bookworm-backports main" | $sudo tee "$list" >/dev/null
      $sudo apt-get update -qq
    fi
    echo "go-env: installing golang-1.23-go from bookworm-backports"
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends \
      -t bookworm-backports golang-1.23-go >/dev/null
  }
  export PATH="/usr/lib/go-1.23/bin:$PATH" GOTOOLCHAIN=$go_env_toolchain
fi

export GOPATH="$go_env_root/build/go/path"
export GOMODCACHE="$go_env_root/build/go/mod"
export GOCACHE="$go_env_root/build/go/cache"
# -modcacherw: the cache can go with `rm -rf build`, as the rest of build/ does.
export GOFLAGS="${GOFLAGS:--mod=readonly -modcacherw}"
