#!/usr/bin/env bash
# bench/eth.sh [OPTIONS] - the Ethernet link benchmark.
#
# Builds ipxlab if needed, creates two network namespaces joined by a veth
# pair, prints where it runs (kernel, CPUs, current load), runs
# `ipxlab bench eth OPTIONS SENDER@NS-A RECEIVER@NS-B` and removes the
# namespaces again (also on Ctrl-C or failure). The result: the IPX
# datagram rate over the Ethernet link beside a raw AF_PACKET sender and
# receiver of the same frames, the ratio, and whether the target (ratio >=
# 0.80) is met. Any option of `ipxlab bench eth --help` passes through
# (-r 9, --frame 802.2, --size 1000, --json).
# IPXLAB=path/to/ipxlab uses another binary (no build then). Needs root.
# Exit status: that of ipxlab (0 = measured, whatever the verdict); 1 if the
# namespaces cannot be made.
set -euo pipefail
cd "$(dirname "$0")/.."

bin=${IPXLAB:-build/ipxlab}
if [ -z "${IPXLAB:-}" ]; then
	make -s all >&2
fi
if [ ! -x "$bin" ]; then
	echo "bench/eth.sh: no ipxlab binary at $bin" >&2
	exit 1
fi
if [ "$(id -u)" -ne 0 ]; then
	echo "bench/eth.sh: needs root (network namespaces, raw sockets)" >&2
	exit 1
fi

NSA=ipxbench-$$-a
NSB=ipxbench-$$-b
VA=ipxbs$$
VB=ipxbr$$
cleanup() {
	ip netns del "$NSA" 2>/dev/null || true
	ip netns del "$NSB" 2>/dev/null || true
}
trap cleanup EXIT
trap 'exit 130' INT TERM
if ! ip netns add "$NSA" || ! ip netns add "$NSB" ||
	! ip link add "$VA" netns "$NSA" type veth peer name "$VB" netns "$NSB" ||
	! ip -n "$NSA" link set "$VA" up || ! ip -n "$NSB" link set "$VB" up; then
	echo "bench/eth.sh: cannot create the namespaces and veth pair" >&2
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
# Not exec: the trap removes the namespaces afterwards.
"$bin" bench eth "$@" "$VA@$NSA" "$VB@$NSB"
