#!/usr/bin/env bash
# bridge_test.sh [IPXLAB] - link profiles in real time, on loopback: the
# WAN bridge between two hubs it serves carries a tunnel flow at its trunk
# rate, drops (and counts) exactly what the receiver missed, and refuses
# IPX packets over 576 bytes; the same between two running `ipxlab hub`s,
# as a bridge port of each (tunnel: sides), both ways; a hub refusing
# bridge ports stops it; `hub --profile eth10` carries a flood at the
# 10 Mbit/s segment's rate; bad profiles and options are refused at start
# with FILE:LINE or the option's name. Rates come from `ipxlab analyze`
# on the receiver's pcap. Bounded: about 25 s.
set -u
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"
use_build "${1:-}"
need_exe "$BIN"
make_tmp bridge

# within PCT GOT WANT: |GOT - WANT| <= PCT % of WANT
within() { awk -v p="$1" -v g="$2" -v w="$3" 'BEGIN { d = g - w; if (d < 0) d = -d; exit !(d <= w * p / 100) }'; }
# json_num FILE KEY: a number from analyze --json
json_num() { sed -n "s/.*\"$2\":\([0-9.]*\).*/\1/p" "$1"; }
# stat FILE NAME: the last "NAME value" line's value
stat() { awk -v k="$2" '$1 == k { v = $2 } END { print v + 0 }' "$1"; }
# receiver HUB NAME: `listen` on HUB writing TMP/NAME.pcap and TMP/NAME.out,
# ended at exit; RX = its pid, ADDR = its address (finish if it cannot join)
receiver() {
	"$BIN" listen 4545 --hub "$1" --pcap "$TMP/$2.pcap" -c 100000 -t 60 \
		>"$TMP/$2.out" 2>"$TMP/$2.err" &
	RX=$!
	PIDS+=($RX)
	wait_for "$TMP/$2.err" "listening on" || { fail "a receiver joins $1" "$TMP/$2.err"; finish; }
	ADDR=$(sed -n 's/^listening on //p' "$TMP/$2.err")
}
# rate NAME: mean bytes/s of the flow from the first sender in TMP/NAME.out
# (or SRC if given) to ADDR, from analyze on TMP/NAME.pcap
rate() {
	local src=${2:-$(head -1 "$TMP/$1.out" | cut -d: -f2)}
	"$BIN" analyze "$TMP/$1.pcap" --between "$src,$(cut -d: -f2 <<<"$ADDR")" --json >"$TMP/$1-$src.json" 2>&1
	# kB = 1000 bytes (docs/benchmarks.md): the rate in bytes a second
	json_num "$TMP/$1-$src.json" mean_kB_per_s |
		awk '{ printf "%.0f\n", $1 * 1000 }'
}
# lines N LEN: N lines of LEN 'x' characters
lines() { awk -v n="$1" -v l="$2" 'BEGIN { s = sprintf("%*s", l, ""); gsub(/ /, "x", s); for (i = 0; i < n; i++) print s }'; }

# --- refused at start ----------------------------------------------------------
printf 'base eth10\n# a comment\nrate 10Q\n' >"$TMP/bad.profile"
err=$("$BIN" hub --profile "$TMP/bad.profile" --port 0 2>&1); rc=$?
[ $rc = 2 ] && grep -q "ipxlab hub: --profile: $TMP/bad.profile:3: rate must be a bit rate" <<<"$err" &&
	pass "hub refuses a bad profile with file:line" || fail "hub refuses a bad profile with file:line" "rc=$rc $err"
err=$("$BIN" hub --profile eth11 --port 0 2>&1); rc=$?
[ $rc = 2 ] && grep -q "no profile named 'eth11' (there are eth10, tr4, tr16, isn" <<<"$err" &&
	pass "hub refuses an unknown profile name" || fail "hub refuses an unknown profile name" "rc=$rc $err"
err=$("$BIN" bridge --profile "$TMP/bad.profile" hub:0 hub:0 2>&1); rc=$?
[ $rc = 2 ] && grep -q "bad.profile:3:" <<<"$err" &&
	pass "bridge refuses a bad profile with file:line" || fail "bridge refuses a bad profile with file:line" "rc=$rc $err"
err=$("$BIN" bridge --hold 5 hub:0 hub:0 2>&1); rc=$?
[ $rc = 2 ] && grep -q "\-\-hold must be a time" <<<"$err" &&
	pass "bridge names a bad option" || fail "bridge names a bad option" "rc=$rc $err"
err=$("$BIN" bridge --release 200K hub:0 hub:0 2>&1); rc=$?
[ $rc = 2 ] && grep -q "release 204800 is more than the rx-buffer" <<<"$err" &&
	pass "bridge refuses a release block larger than its buffer" ||
	fail "bridge refuses a release block larger than its buffer" "rc=$rc $err"
err=$("$BIN" bridge --rx-buffer 1K hub:0 hub:0 2>&1); rc=$?
[ $rc = 2 ] && grep -q "rx-buffer (1024)" <<<"$err" &&
	pass "bridge refuses a buffer smaller than a frame" || fail "bridge refuses a buffer smaller than a frame" "rc=$rc $err"

# `ipxlab profile` prints what a file takes back.
"$BIN" profile isn >"$TMP/isn.profile" && "$BIN" profile "$TMP/isn.profile" | cmp -s - "$TMP/isn.profile" &&
	grep -qx "hold 3ms" "$TMP/isn.profile" && grep -qx "rx-buffer 186368" "$TMP/isn.profile" &&
	grep -qx "release 128" "$TMP/isn.profile" &&
	pass "profile prints a named profile as a file it reads back" ||
	fail "profile prints a named profile as a file it reads back" "$TMP/isn.profile"

# --- the WAN bridge between two hubs -----------------------------------------------
PA=$(free_port)
PB=$(free_port)
"$BIN" bridge "hub:127.0.0.1:$PA" "hub:127.0.0.1:$PB" --rx-buffer 24K --tx-buffer 24K --hold 100ms \
	2>"$TMP/bridge.log" &
BR=$!
PIDS+=($BR)
wait_for "$TMP/bridge.log" "side B is a hub" || { fail "bridge starts" "$TMP/bridge.log"; finish; }
receiver "127.0.0.1:$PB" rx
# One 600-byte IPX packet (570 bytes of data): over the bridge's 576.
lines 1 570 | "$BIN" send "$ADDR" --hub "127.0.0.1:$PA" 2>"$TMP/send0.err"
# 576-byte packets every 2.5 ms: about twice the 950 kbit/s trunk.
N=1000
lines $N 546 >"$TMP/flow"
timeout 30 "$BIN" send "$ADDR" --hub "127.0.0.1:$PA" -i 0.0025 <"$TMP/flow" 2>"$TMP/send.err"
sleep 1.5	# the buffers drain: 48 KB at 118 KB/s, plus the hold
kill -TERM $RX
wait $RX 2>/dev/null
kill -TERM $BR
wait $BR 2>/dev/null
R=$(grep -c ' x' "$TMP/rx.out")
D=$(stat "$TMP/bridge.log" a_drop_tx_buffer_full)
BIG=$(stat "$TMP/bridge.log" a_drop_too_big_for_bridge)
CROSSED=$(stat "$TMP/bridge.log" a_crossed)
[ "$BIG" = 1 ] && ! grep -q "x\{570\}" "$TMP/rx.out" &&
	pass "bridge drops and counts an IPX packet over 576 bytes" ||
	fail "bridge drops and counts an IPX packet over 576 bytes" "too_big=$BIG" "$TMP/bridge.log"
[ $((R + D)) = $N ] && [ "$D" -gt 0 ] && [ "$CROSSED" = "$R" ] &&
	pass "bridge drop counter matches what the receiver missed ($N sent, $R received, $D dropped)" ||
	fail "bridge drop counter matches what the receiver missed" "sent $N received $R dropped $D crossed $CROSSED" "$TMP/bridge.log"
RATE=$(rate rx)
BITS=$(awk -v r="$RATE" 'BEGIN { printf "%.0f", r * 8 }')
# Each 576-byte packet is 590 bytes on the trunk and in the pcap.
within 5 "$BITS" 950000 &&
	pass "bridge carries the flow at the trunk rate ($BITS bit/s of 950000)" ||
	fail "bridge carries the flow at the trunk rate" "got $BITS bit/s" "$TMP"/rx-*.json

# --- the WAN bridge between two running hubs, a bridge port on each ------------------
# hub_on NAME [OPTION...]: `ipxlab hub -v` on a free loopback port writing
# TMP/NAME.log, ended at exit; P = its port (finish if it cannot start)
hub_on() {
	local name=$1 h _
	shift
	for _ in 1 2 3 4 5; do
		P=$(free_port)
		"$BIN" hub --bind 127.0.0.1 --port "$P" -v "$@" 2>"$TMP/$name.log" &
		h=$!
		PIDS+=("$h")
		wait_for "$TMP/$name.log" "listening on" 20 && kill -0 $h 2>/dev/null && { HPID=$h; return 0; }
	done
	fail "hub $name starts" "$TMP/$name.log"
	finish
}
hub_on hubA; PA=$P; HA=$HPID
hub_on hubB; PB=$P; HB=$HPID
"$BIN" bridge "tunnel:127.0.0.1:$PA" "tunnel:127.0.0.1:$PB" --rx-buffer 24K --tx-buffer 24K --hold 100ms \
	2>"$TMP/tbridge.log" &
BR=$!
PIDS+=("$BR")
wait_for "$TMP/tbridge.log" "side B is a bridge port" 50 && wait_for "$TMP/tbridge.log" "side A is a bridge port" 50 ||
	{ fail "bridge joins two running hubs as a bridge port" "$TMP/tbridge.log" "$TMP/hubA.log"; finish; }
grep -q "is a bridge port (1)" "$TMP/hubA.log" && grep -q "is a bridge port (1)" "$TMP/hubB.log" &&
	pass "bridge joins two running hubs as a bridge port of each" ||
	fail "bridge joins two running hubs as a bridge port of each" "$TMP/hubA.log" "$TMP/hubB.log"
receiver "127.0.0.1:$PB" trx
lines 1 570 | "$BIN" send "$ADDR" --hub "127.0.0.1:$PA" 2>"$TMP/tsend0.err"
N=1000
timeout 30 "$BIN" send "$ADDR" --hub "127.0.0.1:$PA" -i 0.0025 <"$TMP/flow" 2>"$TMP/tsend.err"
sleep 1.5	# the buffers drain
kill -TERM $RX
wait $RX 2>/dev/null
R=$(grep -c ' x' "$TMP/trx.out")
RATE=$(rate trx)
BITS=$(awk -v r="$RATE" 'BEGIN { printf "%.0f", r * 8 }')
SENDER=$(head -1 "$TMP/trx.out" | cut -d: -f2)
# And back: a listener on hub A, a sender on hub B.
receiver "127.0.0.1:$PA" tback
echo back across | "$BIN" send "$ADDR" --hub "127.0.0.1:$PB" 2>"$TMP/tback-send.err"
wait_for "$TMP/tback.out" "back across" 50
kill -TERM $RX
wait $RX 2>/dev/null
# A stray 3-byte datagram: with -v, the first drop of a kind is logged.
printf 'abc' >"/dev/udp/127.0.0.1/$PA"
sleep 0.2
kill -TERM $BR
wait $BR 2>/dev/null
kill -TERM $HA $HB
wait $HA $HB 2>/dev/null
D=$(stat "$TMP/tbridge.log" a_drop_tx_buffer_full)
CROSSED=$(stat "$TMP/tbridge.log" a_crossed)
[ "$(stat "$TMP/tbridge.log" a_drop_too_big_for_bridge)" = 1 ] && ! grep -q "x\{570\}" "$TMP/trx.out" &&
	[ $((R + D)) = $N ] && [ "$D" -gt 0 ] && [ "$CROSSED" = "$R" ] &&
	pass "bridge between running hubs: A to B, drops counted ($N sent, $R received, $D dropped, 1 too big)" ||
	fail "bridge between running hubs: A to B, drops counted" "sent $N received $R dropped $D crossed $CROSSED" "$TMP/tbridge.log"
within 5 "$BITS" 950000 &&
	pass "bridge between running hubs carries the flow at the trunk rate ($BITS bit/s of 950000)" ||
	fail "bridge between running hubs carries the flow at the trunk rate" "got $BITS bit/s" "$TMP"/trx-*.json
grep -q "back across" "$TMP/tback.out" && [ "$(stat "$TMP/tbridge.log" b_crossed)" -ge 1 ] &&
	pass "bridge between running hubs: B to A" ||
	fail "bridge between running hubs: B to A" "$TMP/tback.out" "$TMP/tbridge.log"
# Hub A flooded the unicasts for B's listener to its port; hub B took them
# from its port with A's sender as source, learned that node, and sent
# them to its listener alone. Nothing was dropped as forged.
FLOOD=$(stat "$TMP/hubA.log" flooded)
PFRAMES=$(stat "$TMP/hubB.log" port_frames)
[ "$FLOOD" -ge $((N + 1)) ] && [ "$PFRAMES" -ge "$R" ] && [ "$(stat "$TMP/hubB.log" learned)" -ge 1 ] &&
	[ "$(stat "$TMP/hubB.log" drop_forged_source)" = 0 ] && [ "$(stat "$TMP/hubA.log" drop_forged_source)" = 0 ] &&
	pass "the hubs flood to their bridge port, learn what is behind it and count it (A flooded $FLOOD, B took $PFRAMES)" ||
	fail "the hubs flood to their bridge port, learn what is behind it and count it" "flooded $FLOOD port_frames $PFRAMES" "$TMP/hubA.log" "$TMP/hubB.log"
# -v: every join with its address and node; the counters at exit.
[ "$(grep -Ec '^hub: join 127\.0\.0\.1:[0-9]+ node 7F000001[0-9A-F]{4} ' "$TMP/hubA.log")" -ge 3 ] &&
	grep -q "^client 127.0.0.1:[0-9]* node .* bridge-port rx" "$TMP/hubA.log" &&
	grep -q "^flooded " "$TMP/hubA.log" && grep -qi "node 7F000001${SENDER:8:4}" "$TMP/hubA.log" &&
	grep -q "^debug: hub: dropped a datagram from 127.0.0.1:[0-9]*: short" "$TMP/hubA.log" &&
	[ "$(stat "$TMP/hubA.log" drop_short)" = 1 ] &&
	pass "hub -v logs each join with address and node, the first drop of a kind, and the counters at exit" ||
	fail "hub -v logs each join with address and node, the first drop of a kind, and the counters at exit" "$TMP/hubA.log"

# A hub that allows no bridge ports: refused at once, exit 1, said why.
hub_on hubN --allow-bridge none
err=$(timeout 10 "$BIN" bridge "tunnel:127.0.0.1:$P" "tunnel:127.0.0.1:$P" 2>&1); rc=$?
[ $rc = 1 ] && grep -q "refuses this address as a bridge port" <<<"$err" &&
	pass "bridge stops with a clear error when a hub refuses it" ||
	fail "bridge stops with a clear error when a hub refuses it" "rc=$rc $err"
kill -TERM $HPID
err=$("$BIN" bridge tunnel:127.0.0.1:0 hub:0 2>&1); rc=$?
[ $rc = 2 ] && grep -q "side A: tunnel:.*port must be a number" <<<"$err" &&
	pass "bridge refuses a bad tunnel: side" || fail "bridge refuses a bad tunnel: side" "rc=$rc $err"
err=$("$BIN" hub --allow-bridge 300.1.1.1 --port 0 2>&1); rc=$?
[ $rc = 2 ] && grep -q "\-\-allow-bridge needs an IPv4 address" <<<"$err" &&
	pass "hub refuses a bad --allow-bridge" || fail "hub refuses a bad --allow-bridge" "rc=$rc $err"

# --- --segment: the hub sides are eth10 segments too -------------------------------
PA=$(free_port)
PB=$(free_port)
"$BIN" bridge "hub:127.0.0.1:$PA" "hub:127.0.0.1:$PB" --segment eth10 --hold 10ms 2>"$TMP/seg.log" &
BR=$!
PIDS+=($BR)
wait_for "$TMP/seg.log" "side B is a hub" || { fail "bridge --segment starts" "$TMP/seg.log"; finish; }
receiver "127.0.0.1:$PB" seg
echo across | "$BIN" send "$ADDR" --hub "127.0.0.1:$PA" 2>"$TMP/seg-send.err"
wait_for "$TMP/seg.out" "across" 30
kill -TERM $RX $BR
wait $BR 2>/dev/null
# Side A's wire carried it to the bridge, side B's from it.
n=$(awk '$1 == "segment_frames" && $2 >= 1 { n++ } END { print n + 0 }' "$TMP/seg.log")
grep -q across "$TMP/seg.out" && [ "$n" = 2 ] && grep -q "segment_profile eth10" "$TMP/seg.log" &&
	pass "bridge --segment eth10: the packet took both segments' wire and the trunk" ||
	fail "bridge --segment eth10: the packet took both segments' wire and the trunk" "$TMP/seg.out" "$TMP/seg.log"

# --- hub --profile eth10 ------------------------------------------------------------
start_hub --profile eth10
HUBPID=${PIDS[-1]}
receiver "$HUB" eth
# Two senders of 1,424-byte packets, each as fast as `send -i` paces
# (about one a millisecond): together twice what 10 Mbit/s carries.
N=2500
lines $N 1394 >"$TMP/flood"
timeout 30 "$BIN" send "$ADDR" --hub "$HUB" -i 0.0001 <"$TMP/flood" 2>"$TMP/flood1.err" &
S1=$!
timeout 30 "$BIN" send "$ADDR" --hub "$HUB" -i 0.0001 <"$TMP/flood" 2>"$TMP/flood2.err" &
S2=$!
wait $S1 $S2
sleep 0.5
kill -TERM $RX
wait $RX 2>/dev/null
kill -USR1 "$HUBPID"
sleep 0.3
R=$(grep -c ' x' "$TMP/eth.out")
D=$(stat "$TMP/hub.err" segment_drop_queue_full)
[ $((R + D)) = $((2 * N)) ] && [ "$D" -gt 0 ] &&
	pass "hub --profile eth10 drop counter matches what the receivers missed ($((2 * N)) sent, $R received, $D dropped)" ||
	fail "hub --profile eth10 drop counter matches what the receivers missed" "sent $((2 * N)) received $R dropped $D" "$TMP/hub.err"
# Each 1,424-byte packet is 1,438 bytes in the pcap and 1,462 on the
# wire (preamble, FCS, gap), and both stations always want the wire, so
# each frame also loses one 51.2 us collision slot: a frame every
# 1,220.8 us, every other one for each sender.
WANT=$(awk 'BEGIN { printf "%.0f", 1438 / (2 * 1220.8e-6) }')
ok=1
got=
for SRC in $(cut -d: -f2 "$TMP/eth.out" | sort -u); do
	RATE=$(rate eth "$SRC")
	got="$got $RATE"
	within 5 "$RATE" "$WANT" || ok=0
done
[ $ok = 1 ] && [ "$(wc -w <<<"$got")" = 2 ] &&
	pass "hub --profile eth10 shares the segment rate fairly between two senders ($got B/s, each of $WANT)" ||
	fail "hub --profile eth10 shares the segment rate fairly between two senders" "got$got B/s, want $WANT each" "$TMP/hub.err"
finish
