#!/usr/bin/env bash
# bench/eth.sh [OPTIONS] - the Ethernet link benchmark.
#
# Builds ipxlab if needed, creates one Ethernet segment of network
# namespaces: a bridge in a namespace of its own (the switch) and three
# namespaces (the sender's, the receiver's, the controller's), each with
# one veth whose peer is a port of the bridge; prints where it runs
# (kernel, CPUs, current load), runs `ipxlab bench eth OPTIONS
# --controller C@NS-C SENDER@NS-A RECEIVER@NS-B` and removes the
# namespaces again (also on Ctrl-C or failure). The result: the IPX
# datagram rate over the Ethernet link beside plain AF_PACKET frames of the
# same length between the same two interfaces, the ratio, and whether the
# target (ratio >= 0.80) is met. Any option of `ipxlab bench eth --help`
# passes through (-r 9, --frame 802.2, --size 1000, --json, --csv).
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
NSC=ipxbench-$$-c
NSW=ipxbench-$$-sw
VA=ipxbs$$
VB=ipxbr$$
VC=ipxbc$$
cleanup() {
	for n in "$NSA" "$NSB" "$NSC" "$NSW"; do
		ip netns del "$n" 2>/dev/null || true
	done
}
trap cleanup EXIT
trap 'exit 130' INT TERM
# plug NS IFACE PORT: IFACE in NS, its peer PORT a port of the bridge
plug() {
	ip netns add "$1" && ip link add "$2" netns "$1" type veth peer name "$3" netns "$NSW" &&
		ip -n "$NSW" link set "$3" master br0 && ip -n "$NSW" link set "$3" up &&
		ip -n "$1" link set "$2" up
}
if ! ip netns add "$NSW" || ! ip -n "$NSW" link add br0 type bridge ||
	! ip -n "$NSW" link set br0 up ||
	! plug "$NSA" "$VA" "pa$$" || ! plug "$NSB" "$VB" "pb$$" || ! plug "$NSC" "$VC" "pc$$"; then
	echo "bench/eth.sh: cannot create the namespaces, veths and bridge" >&2
	exit 1
fi

json=0
for a in "$@"; do
	case $a in --json | --csv) json=1 ;; esac
done
if [ "$json" -eq 0 ]; then
	model=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1)
	echo "# $(date -u '+%Y-%m-%d %H:%M UTC')  $(uname -sr)  ${model:-unknown CPU}  $(nproc) CPUs  load $(cut -d' ' -f1-3 /proc/loadavg)"
fi
# Not exec: the trap removes the namespaces afterwards.
"$bin" bench eth "$@" --controller "$VC@$NSC" "$VA@$NSA" "$VB@$NSB"
