#!/usr/bin/env bash
# bench/spx.sh [OPTIONS] - the SPX goodput benchmark.
#
# Builds ipxlab if needed, prints where it runs (kernel, CPUs, current
# load), then runs `ipxlab bench spx OPTIONS`: bulk goodput of SPX I and
# SPX II beside IPX datagrams of the same IPX packet size, over the UDP
# tunnel through a hub (three processes on 127.0.0.1) and over the
# in-memory link (one process), with the ratios, the round trip that
# bounds SPX I, the memory of one connection and whether the target
# (SPX II >= 80% of IPX datagram goodput) is met. Any option of
# `ipxlab bench spx --help` passes through (--json, -r 5, --links udp).
# IPXLAB=path/to/ipxlab uses another binary (no build then).
# Exit status: that of ipxlab (0 = measured, whatever the verdict).
set -euo pipefail
cd "$(dirname "$0")/.."

bin=${IPXLAB:-build/ipxlab}
if [ -z "${IPXLAB:-}" ]; then
	make -s all >&2
fi
if [ ! -x "$bin" ]; then
	echo "bench/spx.sh: no ipxlab binary at $bin" >&2
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
exec "$bin" bench spx "$@"
