#!/usr/bin/env bash
# bench/mount.sh [OPTIONS] - sequential write and read through
# `ipxlab mount` beside the same transfer by the NCP client, the ratio in
# one run: `ipxlab bench mount OPTIONS` (docs/mount.md). Builds ipxlab if
# needed, prints where it runs (kernel, CPUs, current load), then runs
# it; any option of `ipxlab bench mount --help` passes through (--mb 64,
# -r 9, --json). Needs root and /dev/fuse. IPXLAB=path/to/ipxlab uses
# another binary (no build then). Exit status: that of ipxlab (0 =
# measured, whatever the verdict).
set -euo pipefail
cd "$(dirname "$0")/.."

bin=${IPXLAB:-build/ipxlab}
if [ -z "${IPXLAB:-}" ]; then
	make -s all >&2
fi
if [ ! -x "$bin" ]; then
	echo "bench/mount.sh: no ipxlab binary at $bin" >&2
	exit 1
fi
case " $* " in
*" --json "* | *" --csv "*) ;;
*) echo "# $(date -u '+%Y-%m-%d %H:%M UTC')  $(uname -sr)  $(nproc) CPUs  load $(cut -d' ' -f1-3 /proc/loadavg)" ;;
esac
exec "$bin" bench mount "$@"
