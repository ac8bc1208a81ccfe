# Sourced by scripts/setup.sh and scripts/test.sh. The JavaScript test clients
# need Node 20 or later: the AWS SDK for JavaScript v3 they pin declares it,
# and Node 18's HTTP client tries only the first address of "localhost" (::1
# on Debian, where the server listens on 127.0.0.1) while 20's tries both.
# Debian bookworm's nodejs is 18 and no backport has a newer one, so where
# the `node` on PATH is older than 20, Node 20.20.2 comes from the npm
# registry as the package that ships its binary (scripts/node/, pinned with
# its integrity by the lockfile; npm ci picks the machine's cpu) and goes
# first on PATH. A machine with Node 20 or later keeps its own.
#   . scripts/node-env.sh
node_env_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/node
node_env_major=$(node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0)
if ((node_env_major < 20)); then
  node_env_bin=$(ls -d "$node_env_dir"/node_modules/node-linux-*/bin 2>/dev/null | head -1 || true)
  if [[ -z "$node_env_bin" ]]; then
    echo "node-env: Node $node_env_major is older than 20: installing Node 20.20.2 from npm (scripts/node)"
    (cd "$node_env_dir" && npm ci --no-audit --no-fund --loglevel=error)
    node_env_bin=$(ls -d "$node_env_dir"/node_modules/node-linux-*/bin | head -1)
  fi
  export PATH="$node_env_bin:$PATH"
fi
