#!/usr/bin/env bash
# tshark_spx_test.sh - interop test: Wireshark's SPX dissector decodes every
# kind of SPX packet ipxlab sends without a warning: connect requests and
# accepts (SPX I and SPX II), size negotiation, data, ACKs, ipxlab's SPX II
# NAK, watchdog probes and keepalives, disconnect and its acknowledgement.
#
# Usage: tests/interop/tshark_spx_test.sh [path/to/ipxlab]
# The traffic comes from BUILD/tools/spx_capture (tests/interop/spx_capture.c),
# which runs SPX over the in-memory link with loss on a simulated clock and
# writes every frame to a pcap file. Prints PASS:/FAIL: per check; exit 77
# (SKIP) when tshark is missing.
set -u
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO=$(cd "$HERE/../.." && pwd)
BIN=${1:-$REPO/build/ipxlab}
case $BIN in /*) ;; *) BIN=$(pwd)/$BIN ;; esac
TOOL=$(dirname "$BIN")/tools/spx_capture
command -v tshark >/dev/null 2>&1 || { echo "SKIP: tshark not installed"; exit 77; }
[ -x "$TOOL" ] || { echo "SKIP: $TOOL not built"; exit 77; }
TMP=$(mktemp -d "${TMPDIR:-/tmp}/ipxlab-spxcap.XXXXXX") || exit 1
trap 'rm -rf "$TMP"' EXIT
CAP=$TMP/spx.pcap
failures=0
pass() { echo "PASS: $1"; }
fail() { echo "FAIL: $1"; shift; [ $# -gt 0 ] && printf '  %s\n' "$@"; failures=$((failures + 1)); }

timeout 60 "$TOOL" "$CAP" 2>"$TMP/tool.err"
[ $? = 0 ] && [ -s "$CAP" ] && pass "capture written" || { fail "capture written" "$(cat "$TMP/tool.err")"; exit 1; }

# count FILTER: frames that match a display filter
count() {
	tshark -r "$CAP" -Y "$1" -T fields -e frame.number 2>>"$TMP/decode.err" | grep -c .
}
check() { # name filter min
	local n
	n=$(count "$2")
	if [ "$n" -ge "$3" ]; then pass "$1 ($n)"; else fail "$1" "filter '$2' matched $n, want >= $3"; fi
}

total=$(count "frame")
spx=$(count "spx")
[ "$total" -gt 100 ] && [ "$spx" = "$total" ] && pass "every frame decodes as SPX ($spx of $total)" ||
	fail "every frame decodes as SPX" "$spx of $total"
n=$(count "_ws.malformed || _ws.expert.severity >= 0x00600000")
[ "$n" = 0 ] && pass "no malformed frame and no expert warning or error" ||
	fail "no malformed frame and no expert warning or error" \
		"$(tshark -r "$CAP" -Y "_ws.malformed || _ws.expert.severity >= 0x00600000" 2>/dev/null | head -5)"
tshark -r "$CAP" -q -z expert 2>/dev/null >"$TMP/expert.txt"
grep -Eq '^(Errors|Warnings) ' "$TMP/expert.txt" && fail "expert summary has no errors or warnings" "$(cat "$TMP/expert.txt")" ||
	pass "expert summary has no errors or warnings"

# Connection control is frame byte 44 (14 Ethernet + 30 IPX), so the flags
# are tested on the byte itself: SYS 0x80, ACK 0x40, EOM 0x10, SPX II 0x08,
# negotiate 0x04. (tshark's spx.ctl field holds only the high nibble and,
# with -T fields, leaves false booleans out of its tree.)
SYS='(frame[44] & 0x80)' ACKREQ='(frame[44] & 0x40)' EOM='(frame[44] & 0x10)'
V2='(frame[44] & 0x08)' NEG='(frame[44] & 0x04)'
check "SPX I connect request (SYS|ACK, destination 0xFFFF, 42 bytes)" \
	"spx.dst == 0xffff && $SYS && $ACKREQ && !$V2 && ipx.len == 42" 1
check "SPX I accept (SYS only, no SPX II bit)" \
	"$SYS && !$ACKREQ && !$V2 && spx.seq == 0 && spx.ack == 0 && spx.dst != 0xffff && spx.type == 0" 1
check "SPX II connect request (SPX II and negotiate bits, 42 bytes)" \
	"spx.dst == 0xffff && $V2 && $NEG && ipx.len == 42" 1
check "SPX II accept with the negotiation size field" \
	"$SYS && !$ACKREQ && $V2 && $NEG && spx.neg_size > 0 && ipx.len == 44" 1
check "size negotiation padded to the size tried" \
	"$SYS && $ACKREQ && $NEG && spx.dst != 0xffff && ipx.len == spx.neg_size && ipx.len > 576" 1
check "data packets" "!$SYS && spx.type == 0 && ipx.len > 44" 50
check "end-of-message flags" "!$SYS && $EOM" 5
check "acknowledgements (system packets)" "$SYS && !$ACKREQ && !$NEG && spx.type == 0" 20
check "ipxlab's SPX II NAK (system packet, datastream 0xFB)" "$SYS && $V2 && spx.type == 0xfb" 1
check "watchdog probes (SYS|ACK on an open connection)" \
	"$SYS && $ACKREQ && !$NEG && spx.dst != 0xffff" 2
check "disconnect requests (datastream 0xFE)" "spx.type == 0xfe" 2
check "disconnect acknowledgements (datastream 0xFF)" "$SYS && spx.type == 0xff" 2
check "retransmissions seen by Wireshark" "spx.rexmt_frame" 1

echo "tshark spx: $failures failed"
[ $failures = 0 ]
