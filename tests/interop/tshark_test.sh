#!/usr/bin/env bash
# tshark_test.sh - interop test: Wireshark's own IPX dissector decodes the
# tunnel traffic of `ipxlab hub` and its clients without a single warning.
#
# Usage: tests/interop/tshark_test.sh [path/to/ipxlab]   (default build/ipxlab)
# Env:   IT_KEEP=1 keeps the temp dir (capture, process output).
#
# Captures a random high loopback UDP port P with tshark while a hub serves
# on it and these run against it:
#   ipxlab listen 4545 --count 3        (receives a, b, c)
#   ipxlab listen 4546                  (stays up to answer pings/keepalives)
#   printf 'a\nb\nc\n' | ipxlab send ADDR-OF-THE-FIRST-LISTENER
#   ipxlab ping -c 2 -i 0.2 -W 0.3      (the second listener answers)
#   ~1.6 s of quiet, so the hub (--keepalive 1) pings its silent clients.
# Then decodes the capture with `tshark -d udp.port==P,ipx` and checks that
# every frame is IPX, none is malformed or carries expert info of severity
# warning or error, each IPX length field matches its UDP payload, and the
# registration handshake, the data and the keepalives are all there.
#
# Prints PASS:/FAIL: per check and a final "N passed, N failed" line; exits
# 1 if any check failed, 77 (SKIP) if tshark is missing or cannot capture
# on lo. Every process it starts is bounded in time and killed on exit.

set -u
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"
use_build "${1:-}"
need_exe "$BIN"
need_cmd tshark
make_tmp tshark
CAP=$TMP/tunnel.pcapng

alive() { kill -0 "$1" 2>/dev/null; }
# is_bound PORT: a UDP socket listens on 127.0.0.1:PORT
is_bound() {
	if command -v ss >/dev/null 2>&1; then
		ss -Hlun "sport = :$1" 2>/dev/null | grep -q .
	else
		return 0
	fi
}

T0=$(date +%s)

# ---- the hub, on a free high port ----
P=
for _ in 1 2 3 4 5; do
	try=$((20000 + RANDOM % 40000))
	is_bound "$try" && command -v ss >/dev/null 2>&1 && continue
	timeout -k 2 28 "$BIN" hub --bind 127.0.0.1 --port "$try" -q \
		--keepalive 1 >"$TMP/hub.out" 2>"$TMP/hub.err" &
	HUB=$!
	PIDS+=("$HUB")
	for _ in $(seq 20); do
		alive "$HUB" || break
		is_bound "$try" && break
		sleep 0.1
	done
	if alive "$HUB" && is_bound "$try"; then
		P=$try
		break
	fi
done
[ -n "$P" ] || { fail "hub starts" "$TMP/hub.err"; finish; }
HUBADDR=127.0.0.1:$P

# ---- the capture ----
live_capture "$CAP" "udp port $P" 25

# ---- traffic ----
timeout -k 2 12 "$BIN" listen 4545 --hub "$HUBADDR" --count 3 --timeout 10 \
	>"$TMP/listen.out" 2>"$TMP/listen.err" &
LISTEN=$!
PIDS+=("$LISTEN")
timeout -k 2 20 "$BIN" listen 4546 --hub "$HUBADDR" \
	>"$TMP/listen2.out" 2>"$TMP/listen2.err" &
LISTEN2=$!
PIDS+=("$LISTEN2")
wait_for "$TMP/listen.err" 'listening on [0-9A-Fa-f]{8}:[0-9A-Fa-f]{12}:[0-9A-Fa-f]{4}' 100
ADDR=$(grep -Eo 'listening on [0-9A-Fa-f]{8}:[0-9A-Fa-f]{12}:[0-9A-Fa-f]{4}' \
	"$TMP/listen.err" | head -n 1 | cut -d' ' -f3)
wait_for "$TMP/listen2.err" 'listening on' 100
if [ -z "$ADDR" ]; then
	fail "listener joins the hub" "$TMP/listen.err" "$TMP/hub.err"
else
	pass "listener joins the hub ($ADDR)"
	printf 'a\nb\nc\n' | timeout -k 2 10 "$BIN" send "$ADDR" --hub "$HUBADDR" \
		>"$TMP/send.out" 2>"$TMP/send.err"
	check "send a, b, c" $? "$TMP/send.err"
fi
wait "$LISTEN"
rc=$?
got=$(awk '{print $NF}' "$TMP/listen.out" 2>/dev/null | tr -d '\n')
[ "$rc" -eq 0 ] && [ "$got" = abc ]
check "listener receives a, b, c" $? "$TMP/listen.out" "$TMP/listen.err"

timeout -k 2 10 "$BIN" ping --hub "$HUBADDR" -c 2 -i 0.2 -W 0.3 \
	>"$TMP/ping.out" 2>"$TMP/ping.err"
rc=$?
[ "$rc" -eq 0 ] && grep -q 'reply from' "$TMP/ping.out"
check "ping is answered" $? "$TMP/ping.out" "$TMP/ping.err"

sleep 1.6	# silence: the hub's keepalive pings go out

# ---- stop the capture ----
stop_capture
kill "$LISTEN2" "$HUB" 2>/dev/null

[ -s "$CAP" ] || { fail "capture written" "$TMP/capture.err"; finish; }

# ---- decode with Wireshark's IPX dissector on the tunnel port ----
D=(-d "udp.port==$P,ipx")
# count FILTER: frames matching a display filter
count() { frames "$CAP" "$1" "${D[@]}"; }
tshark -r "$CAP" "${D[@]}" >"$TMP/decode.txt" 2>>"$TMP/tshark.err"

total=$(count frame)
[ "$total" -ge 20 ]
check "capture has the tunnel traffic ($total frames)" $? "$TMP/decode.txt" \
	"$TMP/tshark.err"
check_capture "$CAP" ipx 1 "${D[@]}"

tshark -r "$CAP" "${D[@]}" -T fields -e frame.number \
	-e ipx.len -e udp.length -e ipx.checksum \
	>"$TMP/lengths.txt" 2>>"$TMP/tshark.err"
awk -F'\t' '$2 == "" || $2 != $3 - 8 || $4 != "0xffff" { bad++; print }
	END { exit bad > 0 }' "$TMP/lengths.txt" >"$TMP/badlen.txt"
check "IPX length = UDP payload, checksum FFFF, in every frame" $? \
	"$TMP/badlen.txt"

regs=$(count "ipx.dst.socket == 0x0002 && ipx.dst.node == 00:00:00:00:00:00 && ipx.len == 30")
acks=$(count "ipx.src.net == 0x00000001 && ipx.dst.socket == 0x0002 && ipx.len == 30")
[ "$regs" -ge 4 ] && [ "$acks" -ge 4 ]
check "registration requests ($regs) and answers ($acks) decoded" $? \
	"$TMP/decode.txt"

tshark -r "$CAP" "${D[@]}" -Y "ipx.dst.socket == 0x4545" \
	-T fields -e data.data >"$TMP/data.txt" 2>>"$TMP/tshark.err"
[ "$(sort "$TMP/data.txt" | tr -d '\n')" = 616162626363 ]
check "datagrams a, b, c decoded on socket 4545, client and hub side" $? \
	"$TMP/data.txt"

pings=$(count "ipx.dst.node == ff:ff:ff:ff:ff:ff && ipx.dst.socket == 0x0002")
keepalives=$(count "ipx.src.node == 02:ff:ff:ff:00:00 && ipx.src.socket == 0")
[ "$pings" -ge 2 ] && [ "$keepalives" -ge 1 ]
check "pings ($pings) and hub keepalives ($keepalives) decoded" $? \
	"$TMP/decode.txt"

# --pcap of a command: what demo's two nodes sent and received, with the
# Ethernet II header ipxlab adds, decodes as IPX on its own (no -d).
timeout 20 "$BIN" demo -c 3 --pcap "$TMP/demo.pcap" >"$TMP/demo.out" 2>&1
check "demo --pcap runs" $? "$TMP/demo.out"
check_capture "$TMP/demo.pcap" ipx 14

echo "tshark test took $(($(date +%s) - T0)) s"
finish
