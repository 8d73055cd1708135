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

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO=$(cd "$HERE/../.." && pwd)
BIN=${1:-$REPO/build/ipxlab}
case $BIN in /*) ;; *) BIN=$(pwd)/$BIN ;; esac

skip() { echo "SKIP: $*"; exit 77; }
[ -x "$BIN" ] || skip "ipxlab binary not found at $BIN (run make first)"
command -v tshark >/dev/null 2>&1 || skip "tshark not installed"

TMP=$(mktemp -d "${TMPDIR:-/tmp}/ipxlab-tshark.XXXXXX") || exit 1
CAP=$TMP/tunnel.pcapng
PIDS=()

cleanup() {
	local p
	for p in "${PIDS[@]}"; do
		kill "$p" 2>/dev/null
	done
	for p in "${PIDS[@]}"; do
		wait "$p" 2>/dev/null
	done
	if [ "${IT_KEEP:-0}" = 1 ]; then
		echo "kept $TMP"
	else
		rm -rf "$TMP"
	fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

PASSED=0
FAILED=0
pass() { echo "PASS: $1"; PASSED=$((PASSED + 1)); }
# fail NAME [EVIDENCE-FILE...]: show the tail of each file
fail() {
	local name=$1 f
	shift
	echo "FAIL: $name"
	for f in "$@"; do
		if [ -s "$f" ]; then
			echo "  --- ${f#"$TMP"/}:"
			tail -n 20 "$f" | sed 's/^/  | /'
		fi
	done
	FAILED=$((FAILED + 1))
}
# check NAME CONDITION-STATUS [EVIDENCE-FILE...]
check() {
	local name=$1 rc=$2
	shift 2
	if [ "$rc" -eq 0 ]; then pass "$name"; else fail "$name" "$@"; fi
}
# wait_for FILE REGEX TENTHS: poll until FILE matches, at most TENTHS/10 s
wait_for() {
	local i
	for ((i = 0; i < $3; i++)); do
		grep -Eq "$2" "$1" 2>/dev/null && return 0
		sleep 0.1
	done
	return 1
}
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
if [ -z "$P" ]; then
	fail "hub starts" "$TMP/hub.err"
	echo "$PASSED passed, $FAILED failed"
	exit 1
fi
HUBADDR=127.0.0.1:$P

# ---- the capture ----
tshark -i lo -f "udp port $P" -w "$CAP" -a duration:25 \
	>"$TMP/capture.out" 2>"$TMP/capture.err" &
TSHARK=$!
PIDS+=("$TSHARK")
started=1
for _ in $(seq 100); do
	grep -q 'Capturing on' "$TMP/capture.err" 2>/dev/null && started=0 && break
	alive "$TSHARK" || break
	sleep 0.1
done
if [ "$started" -ne 0 ] || ! alive "$TSHARK"; then
	msg=$(grep -Ev '^Running as user|^ \*\*|^$' "$TMP/capture.err" | head -n 2 | tr '\n' ' ')
	skip "cannot capture on lo with tshark: ${msg:-no output}"
fi
sleep 0.3	# let dumpcap's filter settle before the first packet

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
kill -TERM "$TSHARK" 2>/dev/null
for _ in $(seq 50); do
	alive "$TSHARK" || break
	sleep 0.1
done
wait "$TSHARK" 2>/dev/null
kill "$LISTEN2" "$HUB" 2>/dev/null

if [ ! -s "$CAP" ]; then
	fail "capture written" "$TMP/capture.err"
	echo "$PASSED passed, $FAILED failed"
	exit 1
fi

# ---- decode with Wireshark's IPX dissector on the tunnel port ----
# count FILTER: frames matching a display filter ("" = all)
count() {
	local -a f=()
	[ -n "$1" ] && f=(-Y "$1")
	tshark -r "$CAP" -d "udp.port==$P,ipx" "${f[@]}" -T fields \
		-e frame.number 2>>"$TMP/decode.err" | grep -c .
}
# shellcheck disable=SC2129  # one decode per output file
tshark -r "$CAP" -d "udp.port==$P,ipx" >"$TMP/decode.txt" 2>>"$TMP/decode.err"
tshark -r "$CAP" -d "udp.port==$P,ipx" -q -z expert >"$TMP/expert.txt" \
	2>>"$TMP/decode.err"
# The frames any of the checks below would object to, as evidence.
tshark -r "$CAP" -d "udp.port==$P,ipx" \
	-Y '!ipx || _ws.malformed || _ws.expert.severity >= 0x00600000' \
	>"$TMP/bad.txt" 2>>"$TMP/decode.err"

total=$(count "")
[ "$total" -ge 20 ]
check "capture has the tunnel traffic ($total frames)" $? "$TMP/decode.txt" \
	"$TMP/decode.err"

ipx=$(count "ipx")
[ "$total" -gt 0 ] && [ "$ipx" -eq "$total" ]
check "every frame decodes as IPX ($ipx of $total)" $? "$TMP/bad.txt"

malformed=$(count "_ws.malformed")
[ "$malformed" -eq 0 ] && ! grep -q 'Malformed' "$TMP/decode.txt"
check "no malformed frames ($malformed)" $? "$TMP/bad.txt" "$TMP/expert.txt"

# PI_WARN is 0x00600000 and PI_ERROR 0x00800000 in every Wireshark since 1.x.
warned=$(count "_ws.expert.severity >= 0x00600000")
[ "$warned" -eq 0 ] && ! grep -Eq '^(Errors|Warns) \(' "$TMP/expert.txt"
check "no expert info of severity warning or error ($warned frames)" $? \
	"$TMP/expert.txt"

tshark -r "$CAP" -d "udp.port==$P,ipx" -T fields -e frame.number \
	-e ipx.len -e udp.length -e ipx.checksum \
	>"$TMP/lengths.txt" 2>>"$TMP/decode.err"
awk -F'\t' '$2 == "" || $2 != $3 - 8 || $4 != "0xffff" { bad++; print }
	END { exit bad > 0 }' "$TMP/lengths.txt" >"$TMP/badlen.txt"
check "IPX length = UDP payload, checksum FFFF, in every frame" $? \
	"$TMP/badlen.txt"

regs=$(count "ipx.dst.socket == 0x0002 && ipx.dst.node == 00:00:00:00:00:00 && ipx.len == 30")
acks=$(count "ipx.src.net == 0x00000001 && ipx.dst.socket == 0x0002 && ipx.len == 30")
[ "$regs" -ge 4 ] && [ "$acks" -ge 4 ]
check "registration requests ($regs) and answers ($acks) decoded" $? \
	"$TMP/decode.txt"

tshark -r "$CAP" -d "udp.port==$P,ipx" -Y "ipx.dst.socket == 0x4545" \
	-T fields -e data.data >"$TMP/data.txt" 2>>"$TMP/decode.err"
[ "$(sort "$TMP/data.txt" | tr -d '\n')" = 616162626363 ]
check "datagrams a, b, c decoded on socket 4545, client and hub side" $? \
	"$TMP/data.txt"

pings=$(count "ipx.dst.node == ff:ff:ff:ff:ff:ff && ipx.dst.socket == 0x0002")
keepalives=$(count "ipx.src.node == 02:ff:ff:ff:00:00 && ipx.src.socket == 0")
[ "$pings" -ge 2 ] && [ "$keepalives" -ge 1 ]
check "pings ($pings) and hub keepalives ($keepalives) decoded" $? \
	"$TMP/decode.txt"

echo "tshark test took $(($(date +%s) - T0)) s"
echo "$PASSED passed, $FAILED failed"
[ "$FAILED" -eq 0 ]
