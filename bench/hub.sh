#!/usr/bin/env bash
# bench/hub.sh [OPTIONS] - the hub forwarding-rate benchmark.
#
# Builds ipxlab if needed, prints where it runs (kernel, CPUs, current
# load), then runs `ipxlab bench hub OPTIONS` and prints its result: the
# hub path's rate of 255-byte IPX datagrams beside plain one-hop UDP, the
# ratio and whether the target (ratio >= 0.5) is met. Any option of
# `ipxlab bench hub --help` passes through (--json, -r 5, --pin 0,1,0,0,1).
# IPXLAB=path/to/ipxlab uses another binary (no build then).
# Exit status: that of ipxlab (0 = measured, whatever the verdict).
set -euo pipefail
cd "$(dirname "$0")/.."

bin=${IPXLAB:-build/ipxlab}
if [ -z "${IPXLAB:-}" ]; then
	make -s all >&2
fi
if [ ! -x "$bin" ]; then
	echo "bench/hub.sh: no ipxlab binary at $bin" >&2
	exit 1
fi

json=0
for a in "$@"; do
	[ "$a" = "--json" ] && json=1
done
if [ "$json" -eq 0 ]; then
	model=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1)
	echo "# $(date -u '+%Y-%m-%d %H:%M UTC')  $(uname -sr)  ${model:-unknown CPU}  $(nproc) CPUs  load $(cut -d' ' -f1-3 /proc/loadavg)"
fi
exec "$bin" bench hub "$@"
