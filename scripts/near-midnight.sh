#!/usr/bin/env bash
# Runs a command with the clock of every process it starts 30 seconds before the next UTC midnight
# (Debian's libfaketime, an offset from the real clock, so that every process reads the same time
# and timers keep their real length). A stage whose expectations take their day from a second
# reading of the clock fails here; one that takes it from what the run used passes.
#   bash scripts/near-midnight.sh npm run test:e2e
#   SECONDS_BEFORE=90 bash scripts/near-midnight.sh …   starts further from midnight
set -euo pipefail
[ $# -gt 0 ] || { echo "usage: $0 command [args…]" >&2; exit 2; }
lib=/usr/lib/x86_64-linux-gnu/faketime/libfaketimeMT.so.1
if [ ! -f "$lib" ]; then
	sudo=()
	[ "$(id -u)" -eq 0 ] || sudo=(sudo -n)
	DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y faketime >&2 ||
		{ "${sudo[@]}" apt-get update >&2 && DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y faketime >&2; }
fi
now=$(date +%s)
offset=$(((now / 86400 + 1) * 86400 - ${SECONDS_BEFORE:-30} - now))
export LD_PRELOAD="$lib${LD_PRELOAD:+:$LD_PRELOAD}" FAKETIME="+${offset}s"
echo "near-midnight: the clock reads $(date -u '+%Y-%m-%d %H:%M:%S UTC') for: $*" >&2
exec "$@"
