#!/usr/bin/env bash
# Installs real n8n (and the Node 24 it needs) from the npm registry into a cache folder outside the
# repository, once; later runs reuse it. Prints the cache folder on its last line.
#   N8N_VERSION       default 2.41.1 (the newest installable here)
#   AD_CABINET_CACHE  default ~/.cache/n8n-nodes-ad-cabinet
# The install is built in <dir>.partial and renamed when complete, under a lock, so an interrupted
# or concurrent run never leaves a half-installed n8n behind.
set -euo pipefail

# Run from `npm run`, npm's settings arrive as npm_config_* variables (this repository's .npmrc sets
# ignore-scripts, which would stop the sqlite3 build below); this install uses its own flags only.
while IFS='=' read -r name _; do
	case "$name" in npm_config_*) unset "$name" 2>/dev/null || true ;; esac
done < <(env)

N8N_VERSION=${N8N_VERSION:-2.41.1}
CACHE_ROOT=${AD_CABINET_CACHE:-$HOME/.cache/n8n-nodes-ad-cabinet}
DIR="$CACHE_ROOT/n8n-$N8N_VERSION"
MARKER="$DIR/.installed"

if [ -f "$MARKER" ]; then
	echo "$DIR"
	exit 0
fi

mkdir -p "$CACHE_ROOT"
exec 9>"$CACHE_ROOT/.install-$N8N_VERSION.lock"
flock 9
if [ -f "$MARKER" ]; then # another run finished it while this one waited
	echo "$DIR"
	exit 0
fi

started=$SECONDS
echo "Installing n8n $N8N_VERSION and Node 24 into $DIR (once; several minutes)" >&2
rm -rf "$DIR"
WORK="$DIR.partial"
mkdir -p "$WORK"
cd "$WORK"

# Each step leaves a marker when it completed, so a rerun after an interruption redoes only the rest.

# Node 24 from the registry's `node` package (n8n >= 2.36 needs it); its install script fetches the
# platform binary package.
if [ ! -f node24/.done ]; then
	rm -rf node24 && mkdir -p node24
	(cd node24 && echo '{"name":"node24","private":true}' > package.json &&
		npm install --no-audit --no-fund --ignore-scripts=false node@24 >&2)
	touch node24/.done
fi
NODE24_EXE=$(find node24/node_modules -path '*/bin/node' -type f | head -n 1)
[ -n "$NODE24_EXE" ] || { echo "node@24 binary not found" >&2; exit 1; }
mkdir -p bin
# Relative, so the folder can be renamed from .partial to its final name.
ln -sfn "../$NODE24_EXE" bin/node
"$WORK/bin/node" --version >&2

# n8n itself, without install scripts (the native modules it needs are handled below). n8n 1.x
# pins xlsx to a tarball on cdn.sheetjs.com; the registry's @e965/xlsx (what n8n 2.x uses) replaces it.
if [ ! -f n8n/.done ]; then
	rm -rf n8n && mkdir -p n8n
	cat > n8n/package.json <<JSON
{
	"name": "n8n-e2e-runtime",
	"private": true,
	"dependencies": { "n8n": "$N8N_VERSION" },
	"overrides": { "linkedom": "0.18.14", "xlsx": "npm:@e965/xlsx@0.20.3" }
}
JSON
	(cd n8n && PATH="$WORK/bin:$PATH" npm install --no-audit --no-fund --ignore-scripts >&2)
	touch n8n/.done
fi

# sqlite3 built against Node 24's headers (shipped in the node package's include/ folder).
HEADERS=$(find node24/node_modules -type d -path '*/include/node' | head -n 1 | xargs -r dirname | xargs -r dirname)
[ -n "$HEADERS" ] || { echo "Node 24 headers not found" >&2; exit 1; }
(cd n8n && PATH="$WORK/bin:$PATH" npm_config_nodedir="$WORK/$HEADERS" npm rebuild --ignore-scripts=false sqlite3 >&2) || {
	echo "native rebuild of sqlite3 failed" >&2
	exit 1
}

# isolated-vm (n8n's default expression engine) ships a linux-x64 prebuild; check that it loads.
(cd n8n && "$WORK/bin/node" -e "require('isolated-vm'); require('sqlite3')" >&2) || {
	echo "isolated-vm or sqlite3 does not load on Node 24" >&2
	exit 1
}

touch "$WORK/.installed"
cd "$CACHE_ROOT"
mv "$WORK" "$DIR"
echo "installed n8n $N8N_VERSION in $((SECONDS - started))s" >&2
echo "$DIR"
