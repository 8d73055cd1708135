#!/usr/bin/env bash
# dosbox_bridge_test.sh - interop test: real DOSBox 0.74 on the tunnel of a
# bridging `ipxlab hub --bridge`, talking to an ipxlab node on Ethernet.
#
# Usage: tests/interop/dosbox_bridge_test.sh [path/to/ipxlab]
# Env:   IT_KEEP=1 keeps the temp dir.
#
# Two network namespaces joined by a veth pair (tests/integ/netns_pair.sh).
# In the first: the hub, bridged to its end of the pair (frame 802.2), and
# headless DOSBox instances running tests/interop/ipxtest.asm. In the
# second: ipxlab nodes on the other end (--link eth:IFACE,frame=802.2).
#   dos1: IPXNET CONNECT; IPXTEST R  (a unicast from the Ethernet node)
#   dos2: IPXNET CONNECT; IPXTEST S to the Ethernet node
#   dos3: IPXNET CONNECT; IPXTEST S to broadcast (another Ethernet node)
# Checks that each arrives, and that tshark reads the hub's pcap (tunnel
# and Ethernet frames) with no malformed frames and no warnings.
# Exits 77 (SKIP) without root/namespaces, dosbox or nasm.

set -u

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO=$(cd "$HERE/../.." && pwd)
# shellcheck source-path=SCRIPTDIR source=dosbox_common.sh
. "$HERE/dosbox_common.sh"
# shellcheck source=../integ/netns_pair.sh
. "$REPO/tests/integ/netns_pair.sh"

BIN=${1:-$REPO/build/ipxlab}
case $BIN in /*) ;; *) BIN=$(pwd)/$BIN ;; esac
[ -x "$BIN" ] || skip "ipxlab binary not found at $BIN (run make first)"

netns_pair_up || exit 77
interop_init
# interop_init set its own EXIT trap: remove the namespaces there too.
trap 'it_cleanup; netns_pair_down' EXIT
T0=$(date +%s)

PASSED=0
FAILED=0
pass() { echo "PASS: $1"; PASSED=$((PASSED + 1)); }
fail() {
	local name=$1 f
	shift
	echo "FAIL: $name"
	for f in "$@"; do
		[ -f "$f" ] && tr -d '\r' <"$f" | tail -n 15 | sed 's/^/  | /'
	done
	FAILED=$((FAILED + 1))
}
has() { tr -d '\r' 2>/dev/null <"$1" | grep -Eq "$2"; }
listen_addr() {
	grep -Eo 'listening on [0-9A-F]{8}:[0-9A-F]{12}:[0-9A-F]{4}' "$1" 2>/dev/null |
		head -n 1 | cut -d' ' -f3
}

# DOSBox runs in the hub's namespace: the tunnel is its loopback.
IT_DOSBOX_WRAP=("${A[@]}" "${IT_DOSBOX_WRAP[@]}")

P=$(pick_port)
bg_start hub 90 "${A[@]}" "$BIN" hub --bind 127.0.0.1 --port "$P" \
	--bridge "$VA" --frame 802.2 --pcap "$IT_TMP/hub.pcap"
wait_for_file "$IT_TMP/hub.err" 5 'bridged to' || fail "hub starts bridged" "$IT_TMP/hub.err"

# The Ethernet node that DOS sends to (IPXTEST S sends 5 copies).
bg_start lan 60 "${B[@]}" "$BIN" listen 5002 --link "eth:$VB,frame=802.2" \
	--count 1 --timeout 55
wait_for_file "$IT_TMP/lan.err" 8 'listening on'
LNODE=$(listen_addr "$IT_TMP/lan.err" | cut -d: -f2)

dosbox_start dos1 60 \
	"IPXNET CONNECT 127.0.0.1 $P > CONN.TXT" \
	"IPXTEST R 5001 1 40 > R.OUT" \
	"IF ERRORLEVEL 1 ECHO fail> R.ERR"
wait_for_file "$IT_TMP/dos1/ADDR.TXT" 20 ':'
D1NODE=$(tr -d '\r\n' <"$IT_TMP/dos1/ADDR.TXT" 2>/dev/null | cut -d: -f2)

# Ethernet -> DOS, a few times (IPXTEST R takes the first).
if [ -n "$D1NODE" ]; then
	(for _ in 1 2 3 4 5; do echo "ethernet to dos1"; sleep 0.3; done |
		timeout -k 2 10 "${B[@]}" "$BIN" send "00000000:$D1NODE:5001" \
			--link "eth:$VB,frame=802.2" >"$IT_TMP/send.out" 2>"$IT_TMP/send.err") &
	IT_PID[send]=$!
fi

dosbox_start dos2 40 \
	"IPXNET CONNECT 127.0.0.1 $P > CONN.TXT" \
	"IPXTEST S ${LNODE:-000000000000} 5002 dos2 unicast > S.OUT"

wait_for_file "$IT_TMP/dos1/RECV.TXT" 30 'ethernet to dos1'
has "$IT_TMP/dos1/RECV.TXT" "^00000000:[0-9A-F]{12}:[0-9A-F]{4} ethernet to dos1\$" &&
	pass "Ethernet node to DOSBox through the bridging hub (unicast)" ||
	fail "Ethernet node to DOSBox through the bridging hub (unicast)" \
		"$IT_TMP/dos1/R.OUT" "$IT_TMP/send.err" "$IT_TMP/hub.err"

bg_wait lan
has "$IT_TMP/lan.out" "^00000000:[0-9A-F]{12}:[0-9A-F]{4} dos2 unicast\$" &&
	pass "DOSBox to an Ethernet node through the bridging hub (unicast)" ||
	fail "DOSBox to an Ethernet node through the bridging hub (unicast)" \
		"$IT_TMP/lan.out" "$IT_TMP/lan.err" "$IT_TMP/dos2/S.OUT" "$IT_TMP/hub.err"
dosbox_wait dos2
dosbox_wait dos1
bg_stop send

# The broadcast: another listener, DOS sending again.
bg_start lan2 40 "${B[@]}" "$BIN" listen 5003 --link "eth:$VB,frame=802.2" \
	--count 1 --timeout 35
wait_for_file "$IT_TMP/lan2.err" 8 'listening on'
dosbox_start dos3 40 \
	"IPXNET CONNECT 127.0.0.1 $P > CONN.TXT" \
	"IPXTEST S FFFFFFFFFFFF 5003 dos3 broadcast > B.OUT"
bg_wait lan2
has "$IT_TMP/lan2.out" "^00000000:[0-9A-F]{12}:[0-9A-F]{4} dos3 broadcast\$" &&
	pass "DOSBox broadcast reaches the Ethernet segment" ||
	fail "DOSBox broadcast reaches the Ethernet segment" "$IT_TMP/lan2.out" \
		"$IT_TMP/lan2.err" "$IT_TMP/dos3/B.OUT" "$IT_TMP/hub.err"
dosbox_wait dos3
bg_stop hub

if command -v tshark >/dev/null 2>&1 && [ -s "$IT_TMP/hub.pcap" ]; then
	n=$(tshark -r "$IT_TMP/hub.pcap" -T fields -e frame.number 2>/dev/null | grep -c .)
	ipx=$(tshark -r "$IT_TMP/hub.pcap" -Y ipx -T fields -e frame.number 2>/dev/null | grep -c .)
	worse=$(tshark -r "$IT_TMP/hub.pcap" -Y '_ws.malformed || _ws.expert.severity >= 0x00600000' \
		-T fields -e frame.number 2>/dev/null | grep -c .)
	[ "$n" -gt 0 ] && [ "$ipx" = "$n" ] && [ "$worse" = 0 ] &&
		pass "tshark reads the hub's pcap ($n frames): all IPX, no warnings" ||
		fail "tshark reads the hub's pcap: all IPX, no warnings ($ipx of $n IPX, $worse bad)"
fi

echo "dosbox bridge test took $(($(date +%s) - T0)) s"
echo "$PASSED passed, $FAILED failed"
[ "$FAILED" -eq 0 ]
