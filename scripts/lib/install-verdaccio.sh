#!/usr/bin/env bash
# Installs Verdaccio (a small npm registry) from the npm registry into a cache folder outside the
# repository, once; later runs reuse it. Prints the cache folder on its last line.
#   VERDACCIO_VERSION  default 6.10.4 (pinned: the registry stage's checks were written against it)
#   AD_CABINET_CACHE   default ~/.cache/n8n-nodes-ad-cabinet
#   NODE_BIN_DIR       a folder whose `node` and `npm` to install with (the stage passes Node 24's,
#                      which Verdaccio 6 requires); default the ones on PATH
# Built in <dir>.partial and renamed when complete, under a lock, as install-n8n.sh does.
set -euo pipefail

# npm's settings from `npm run` (this repository's .npmrc among them) do not apply to this install.
while IFS='=' read -r name _; do
	case "$name" in npm_config_*) unset "$name" 2>/dev/null || true ;; esac
done < <(env)

VERSION=${VERDACCIO_VERSION:-6.10.4}
CACHE_ROOT=${AD_CABINET_CACHE:-$HOME/.cache/n8n-nodes-ad-cabinet}
DIR="$CACHE_ROOT/verdaccio-$VERSION"
MARKER="$DIR/.installed"
[ -n "${NODE_BIN_DIR:-}" ] && export PATH="$NODE_BIN_DIR:$PATH"

if [ -f "$MARKER" ]; then
	echo "$DIR"
	exit 0
fi

mkdir -p "$CACHE_ROOT"
exec 9>"$CACHE_ROOT/.install-verdaccio-$VERSION.lock"
flock 9
if [ -f "$MARKER" ]; then
	echo "$DIR"
	exit 0
fi

started=$SECONDS
echo "Installing Verdaccio $VERSION into $DIR (once; under a minute)" >&2
rm -rf "$DIR"
WORK="$DIR.partial"
rm -rf "$WORK"
mkdir -p "$WORK"
cd "$WORK"
# verdaccio-audit asks for node-fetch by the dist-tag `cjs` (2.7.0 on npmjs.org); a registry mirror
# that keeps versions but not every dist-tag cannot resolve it, so the version is named here.
cat > package.json <<'JSON'
{
	"name": "verdaccio-runtime",
	"private": true,
	"overrides": { "verdaccio-audit": { "node-fetch": "2.7.0" } }
}
JSON
# No install scripts: Verdaccio needs none to serve and accept packages.
npm install --no-audit --no-fund --ignore-scripts --save-exact "verdaccio@$VERSION" >&2
[ -x node_modules/.bin/verdaccio ] || { echo "no verdaccio executable after the install" >&2; exit 1; }
node node_modules/.bin/verdaccio --version >&2
touch "$WORK/.installed"
cd "$CACHE_ROOT"
mv "$WORK" "$DIR"
echo "installed Verdaccio $VERSION in $((SECONDS - started))s" >&2
echo "$DIR"
