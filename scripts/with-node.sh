#!/usr/bin/env bash
# Runs a command with a given Node version first on PATH:
#
#   scripts/with-node.sh 24 -- npx vitest run --project unit
#   scripts/with-node.sh 22.12.0 -- node --version
#
# The binary comes from the npm registry (the `node-<os>-<arch>` packages, published with every Node
# release), so it needs nothing the rest of the project does not already need: npm and the registry.
# A major (`24`) resolves to its newest release the first time; the binary is kept in
# $PETSTORE_NODE_CACHE (default ~/.cache/petstore-mock) and reused, without asking the registry, until
# that directory is removed or PETSTORE_NODE_REFRESH=1 fetches the newest release again.
# Only `node` changes: `npm` and `npx` are the ones on PATH, which then run on that Node.
set -euo pipefail

usage() {
  echo "usage: $0 VERSION -- COMMAND [ARGS...]   (VERSION: a major such as 24, or an exact 24.21.0)" >&2
  exit 2
}
[ $# -ge 3 ] && [ "$2" = "--" ] || usage
version=$1
shift 2
[[ $version =~ ^[0-9]+(\.[0-9]+\.[0-9]+)?$ ]] || usage

case "$(uname -s)" in
  Linux) os=linux ;;
  Darwin) os=darwin ;;
  *) echo "$0: no node-<os> package for $(uname -s)" >&2; exit 2 ;;
esac
case "$(uname -m)" in
  x86_64 | amd64) arch=x64 ;;
  aarch64 | arm64) arch=arm64 ;;
  *) echo "$0: no node-$os-<arch> package for $(uname -m)" >&2; exit 2 ;;
esac

cache=${PETSTORE_NODE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/petstore-mock}
dir=$cache/node-$version
if [ ! -x "$dir/bin/node" ] || [ "${PETSTORE_NODE_REFRESH:-}" = 1 ]; then
  mkdir -p "$cache"
  work=$(mktemp -d "$cache/.fetch-XXXXXX")
  trap 'rm -rf "$work"' EXIT
  # npm pack resolves the range to its newest release and checks the tarball's integrity against the registry.
  if ! tarball=$(cd "$work" && npm pack --silent "node-$os-$arch@$version"); then
    echo "$0: npm could not fetch node-$os-$arch@$version from the registry" >&2
    exit 1
  fi
  # The package holds bin/node and the C headers (for native addons built from source, which no dependency needs).
  tar -xzf "$work/$tarball" -C "$work" package/bin/node package/package.json
  "$work/package/bin/node" --version >/dev/null
  if [ "${PETSTORE_NODE_REFRESH:-}" = 1 ]; then rm -rf "$dir"; fi
  # Another run may have fetched the same version meanwhile: the first rename wins, the others drop their copy.
  [ -e "$dir" ] || mv "$work/package" "$dir"
  rm -rf "$work" "$dir/package"
  trap - EXIT
fi

export PATH="$dir/bin:$PATH"
exec "$@"
