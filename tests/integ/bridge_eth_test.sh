#!/usr/bin/env bash
# bridge_eth_test.sh [IPXLAB] - `ipxlab bridge` between a hub it serves
# and an Ethernet interface: two network namespaces joined by a veth pair
# (created here, removed at exit). A tunnel client on the hub side and an
# Ethernet node in the other namespace exchange unicasts both ways and a
# broadcast across the bridge, and the bridge's counters show each module
# held and released them; `capture --analyze` counts the Ethernet side's
# packets live. Exits 77 (SKIP) without root, ip(8) or network
# namespaces; every process is bounded and killed at exit.
set -u
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"
# shellcheck source-path=SCRIPTDIR source=netns_pair.sh
. "$LIB_DIR/integ/netns_pair.sh"
use_build "${1:-}"
need_exe "$BIN"
make_tmp bridge-eth
netns_pair_up

stat() { awk -v k="$2" '$1 == k { v = $2 } END { print v + 0 }' "$1"; }
addr_in() { sed -n 's/^listening on //p' "$1" | head -n 1; }

PORT=$(free_port)
"${A[@]}" timeout -k 2 30 "$BIN" bridge "hub:127.0.0.1:$PORT" "eth:$VA" --hold 20ms \
	2>"$TMP/bridge.log" &
BR=$!
PIDS+=($BR)
wait_for "$TMP/bridge.log" "side B|side A is a hub" && sleep 0.2
kill -0 $BR 2>/dev/null || { fail "bridge starts" "$TMP/bridge.log"; finish; }

# A tunnel client (hub side) and an Ethernet node (the other namespace).
"${A[@]}" timeout -k 2 20 "$BIN" listen 4545 --hub "127.0.0.1:$PORT" -c 3 -t 15 \
	>"$TMP/tun.out" 2>"$TMP/tun.err" &
TL=$!
PIDS+=($TL)
"${B[@]}" timeout -k 2 20 "$BIN" listen 4545 --link "eth:$VB,frame=ethernet_ii" -c 2 -t 15 \
	>"$TMP/lan.out" 2>"$TMP/lan.err" &
LL=$!
PIDS+=($LL)
wait_for "$TMP/tun.err" "listening on" && wait_for "$TMP/lan.err" "listening on" ||
	{ fail "listeners start" "$TMP/tun.err" "$TMP/lan.err"; finish; }
# The 1990 analyzer, live on the Ethernet side.
"${B[@]}" timeout -k 2 20 "$BIN" capture --link "eth:$VB" --analyze --json -s 3 \
	>"$TMP/an.json" 2>"$TMP/an.err" &
AN=$!
PIDS+=($AN)
wait_for "$TMP/an.err" "capture: on" || sleep 0.3
TADDR=$(addr_in "$TMP/tun.err")
LADDR=$(addr_in "$TMP/lan.err")
echo to-tunnel | "${B[@]}" timeout -k 2 8 "$BIN" send "$TADDR" --link "eth:$VB,frame=ethernet_ii" 2>"$TMP/s1.err"
echo to-lan | "${A[@]}" timeout -k 2 8 "$BIN" send "$LADDR" --hub "127.0.0.1:$PORT" 2>"$TMP/s2.err"
echo bcast-from-lan | "${B[@]}" timeout -k 2 8 "$BIN" send 00000000:FFFFFFFFFFFF:4545 --link "eth:$VB,frame=ethernet_ii" 2>>"$TMP/s1.err"
echo bcast-from-tunnel | "${A[@]}" timeout -k 2 8 "$BIN" send 00000000:FFFFFFFFFFFF:4545 --hub "127.0.0.1:$PORT" 2>>"$TMP/s2.err"
wait $TL
wait $LL
wait $AN
kill -TERM $BR
wait $BR 2>/dev/null
tun=$(awk '{print $2}' "$TMP/tun.out" | sort | tr '\n' ' ')
lan=$(awk '{print $2}' "$TMP/lan.out" | sort | tr '\n' ' ')
# (the other tunnel client's broadcast reaches it through the hub itself)
[ "$tun" = "bcast-from-lan bcast-from-tunnel to-tunnel " ] &&
	pass "Ethernet node to tunnel client across the bridge, unicast and broadcast" ||
	fail "Ethernet node to tunnel client across the bridge, unicast and broadcast" "got '$tun'" "$TMP/bridge.log"
[ "$lan" = "bcast-from-tunnel to-lan " ] &&
	pass "tunnel client to Ethernet node across the bridge, unicast and broadcast" ||
	fail "tunnel client to Ethernet node across the bridge, unicast and broadcast" "got '$lan'" "$TMP/bridge.log"
a=$(stat "$TMP/bridge.log" a_crossed)
b=$(stat "$TMP/bridge.log" b_crossed)
t=$(( $(stat "$TMP/bridge.log" a_timer_releases) + $(stat "$TMP/bridge.log" b_timer_releases) ))
[ "$a" -ge 2 ] && [ "$b" -ge 2 ] && [ "$t" -ge 2 ] &&
	pass "each module held frames and released them by its timer ($a and $b crossed)" ||
	fail "each module held frames and released them by its timer" "a_crossed $a b_crossed $b timer releases $t" "$TMP/bridge.log"
# Its namespace's own sends are outgoing frames the capture does not see:
# it counts what the bridge put onto the LAN, a unicast and a broadcast.
n=$(sed -n 's/.*"ipx":\([0-9]*\).*/\1/p' "$TMP/an.json")
[ "${n:-0}" = 2 ] && grep -q '"gaps_ms":{"0-4":' "$TMP/an.json" &&
	pass "capture --analyze counts the segment's packets live ($n IPX)" ||
	fail "capture --analyze counts the segment's packets live" "$TMP/an.json" "$TMP/an.err"
finish
