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
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"
# shellcheck source-path=SCRIPTDIR source=dosbox_common.sh
. "$LIB_DIR/interop/dosbox_common.sh"
# shellcheck source-path=SCRIPTDIR source=../integ/netns_pair.sh
. "$LIB_DIR/integ/netns_pair.sh"
use_build "${1:-}"
need_exe "$BIN"
netns_pair_up
interop_init
T0=$(date +%s)

# DOSBox runs in the hub's namespace: the tunnel is its loopback.
IT_DOSBOX_WRAP=("${A[@]}" "${IT_DOSBOX_WRAP[@]}")

P=$(pick_port)
bg_start hub 90 "${A[@]}" "$BIN" hub --bind 127.0.0.1 --port "$P" \
	--bridge "$VA" --frame 802.2 --pcap "$TMP/hub.pcap"
wait_for_file "$TMP/hub.err" 5 'bridged to' || fail "hub starts bridged" "$TMP/hub.err"

# The Ethernet node that DOS sends to (IPXTEST S sends 5 copies).
bg_start lan 60 "${B[@]}" "$BIN" listen 5002 --link "eth:$VB,frame=802.2" \
	--count 1 --timeout 55
wait_for_file "$TMP/lan.err" 8 'listening on'
LNODE=$(listen_addr "$TMP/lan.err" | cut -d: -f2)

dosbox_start dos1 60 \
	"IPXNET CONNECT 127.0.0.1 $P > CONN.TXT" \
	"IPXTEST R 5001 1 40 > R.OUT" \
	"IF ERRORLEVEL 1 ECHO fail> R.ERR"
wait_for_file "$TMP/dos1/ADDR.TXT" 20 ':'
D1NODE=$(node_of "$TMP/dos1/ADDR.TXT")

# Ethernet -> DOS, a few times (IPXTEST R takes the first).
if [ -n "$D1NODE" ]; then
	(for _ in 1 2 3 4 5; do echo "ethernet to dos1"; sleep 0.3; done |
		timeout -k 2 10 "${B[@]}" "$BIN" send "00000000:$D1NODE:5001" \
			--link "eth:$VB,frame=802.2" >"$TMP/send.out" 2>"$TMP/send.err") &
	IT_PID[send]=$!
fi

dosbox_start dos2 40 \
	"IPXNET CONNECT 127.0.0.1 $P > CONN.TXT" \
	"IPXTEST S ${LNODE:-000000000000} 5002 dos2 unicast > S.OUT"

wait_for_file "$TMP/dos1/RECV.TXT" 30 'ethernet to dos1'
has "$TMP/dos1/RECV.TXT" "^00000000:[0-9A-F]{12}:[0-9A-F]{4} ethernet to dos1\$" &&
	pass "Ethernet node to DOSBox through the bridging hub (unicast)" ||
	fail "Ethernet node to DOSBox through the bridging hub (unicast)" \
		"$TMP/dos1/R.OUT" "$TMP/send.err" "$TMP/hub.err"

bg_wait lan
has "$TMP/lan.out" "^00000000:[0-9A-F]{12}:[0-9A-F]{4} dos2 unicast\$" &&
	pass "DOSBox to an Ethernet node through the bridging hub (unicast)" ||
	fail "DOSBox to an Ethernet node through the bridging hub (unicast)" \
		"$TMP/lan.out" "$TMP/lan.err" "$TMP/dos2/S.OUT" "$TMP/hub.err"
dosbox_wait dos2
dosbox_wait dos1
bg_stop send

# The broadcast: another listener, DOS sending again.
bg_start lan2 40 "${B[@]}" "$BIN" listen 5003 --link "eth:$VB,frame=802.2" \
	--count 1 --timeout 35
wait_for_file "$TMP/lan2.err" 8 'listening on'
dosbox_start dos3 40 \
	"IPXNET CONNECT 127.0.0.1 $P > CONN.TXT" \
	"IPXTEST S FFFFFFFFFFFF 5003 dos3 broadcast > B.OUT"
bg_wait lan2
has "$TMP/lan2.out" "^00000000:[0-9A-F]{12}:[0-9A-F]{4} dos3 broadcast\$" &&
	pass "DOSBox broadcast reaches the Ethernet segment" ||
	fail "DOSBox broadcast reaches the Ethernet segment" "$TMP/lan2.out" \
		"$TMP/lan2.err" "$TMP/dos3/B.OUT" "$TMP/hub.err"
dosbox_wait dos3
bg_stop hub

if command -v tshark >/dev/null 2>&1 && [ -s "$TMP/hub.pcap" ]; then
	capture_counts "$TMP/hub.pcap" ipx
	check "tshark reads the hub's pcap ($FRAMES frames): all IPX, no warnings ($AS_PROTO IPX, $WORSE bad)" $? \
		"$TMP/hub.pcap.expert" "$TMP/tshark.err"
fi

echo "dosbox bridge test took $(($(date +%s) - T0)) s"
finish
