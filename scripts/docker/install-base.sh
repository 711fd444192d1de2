#!/usr/bin/env bash
# Builds the Debian bookworm root file system the Docker stage imports as its base image, once, into
# a tarball in the cache folder; later runs reuse it. Prints the tarball's path on its last line.
#   AD_CABINET_CACHE  default ~/.cache/n8n-nodes-ad-cabinet
# No image registry is reachable from CI, so the base cannot be pulled: debootstrap makes it from
# Debian's packages (the minimal variant, plus tini as the init and ca-certificates for HTTPS),
# which is what n8n's Debian image is built on. Made in a .partial folder and renamed when
# complete, under a lock, as install-n8n.sh does.
set -euo pipefail

CACHE_ROOT=${AD_CABINET_CACHE:-$HOME/.cache/n8n-nodes-ad-cabinet}
SUITE=bookworm
TARBALL="$CACHE_ROOT/docker-base-$SUITE.tar"

if [ -f "$TARBALL" ]; then
	echo "$TARBALL"
	exit 0
fi

mkdir -p "$CACHE_ROOT"
exec 9>"$CACHE_ROOT/.install-docker-base.lock"
flock 9
if [ -f "$TARBALL" ]; then # another run made it while this one waited
	echo "$TARBALL"
	exit 0
fi

# The Debian mirror this machine's apt uses (its deb822 or one-line sources), so that the base
# comes from where the machine's own packages come from.
# A source file that is absent is no error (grep -s, and || true under pipefail).
mirror=$(
	{
		grep -hsE '^URIs:' /etc/apt/sources.list.d/*.sources | awk '{print $2}' || true
		grep -hsE '^deb ' /etc/apt/sources.list /etc/apt/sources.list.d/*.list | awk '{print $2}' || true
	} | grep -E '/debian/?$' | head -n 1 || true
)
[ -n "$mirror" ] || { echo "no Debian mirror in /etc/apt's sources" >&2; exit 1; }

started=$SECONDS
ROOT="$CACHE_ROOT/docker-base-$SUITE.partial"
rm -rf "$ROOT" "$TARBALL.partial"
echo "Making the Debian $SUITE base for the Docker stage in $ROOT (once; a few minutes)" >&2
debootstrap --variant=minbase --include=tini,ca-certificates "$SUITE" "$ROOT" \
	"$mirror" >&2
# What an image does not need: apt's downloaded packages and lists (the image installs nothing
# more), and the machine's identity, which each container gets from Docker.
rm -rf "$ROOT"/var/cache/apt/archives/*.deb "$ROOT"/var/lib/apt/lists/*
: >"$ROOT/etc/machine-id"
tar --numeric-owner -C "$ROOT" -cf "$TARBALL.partial" .
rm -rf "$ROOT"
mv "$TARBALL.partial" "$TARBALL"
echo "Made $TARBALL ($(du -m "$TARBALL" | cut -f1) MB) in $((SECONDS - started))s" >&2
echo "$TARBALL"
