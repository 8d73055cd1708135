#!/usr/bin/env bash
# bridge_test.sh [IPXLAB] - link profiles in real time, on loopback: the
# WAN bridge between two hubs it serves carries a tunnel flow at its trunk
# rate, drops (and counts) exactly what the receiver missed, and refuses
# IPX packets over 576 bytes; `hub --profile eth10` carries a flood at the
# 10 Mbit/s segment's rate; bad profiles and options are refused at start
# with FILE:LINE or the option's name. Rates come from `ipxlab analyze`
# on the receiver's pcap. Bounded: about 15 s.
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
	json_num "$TMP/$1-$src.json" mean_bytes_per_s
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
err=$("$BIN" bridge --rx-buffer 1K hub:0 hub:0 2>&1); rc=$?
[ $rc = 2 ] && grep -q "rx-buffer (1024)" <<<"$err" &&
	pass "bridge refuses a buffer smaller than a frame" || fail "bridge refuses a buffer smaller than a frame" "rc=$rc $err"

# `ipxlab profile` prints what a file takes back.
"$BIN" profile isn >"$TMP/isn.profile" && "$BIN" profile "$TMP/isn.profile" | cmp -s - "$TMP/isn.profile" &&
	grep -qx "hold 200ms" "$TMP/isn.profile" && grep -qx "rx-buffer 186368" "$TMP/isn.profile" &&
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
