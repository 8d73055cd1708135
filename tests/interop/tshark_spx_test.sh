#!/usr/bin/env bash
# tshark_spx_test.sh - interop test: Wireshark's SPX dissector decodes every
# kind of SPX packet ipxlab sends without a warning: connect requests and
# accepts (SPX I and SPX II), size negotiation, data, ACKs, ipxlab's SPX II
# NAK, watchdog probes and keepalives, disconnect and its acknowledgement
# (queued, at once, and as a busy listener's refusal), the orderly release
# and its acknowledgement.
#
# Usage: tests/interop/tshark_spx_test.sh [path/to/ipxlab]
# The traffic comes from BUILD/tools/spx_capture (tests/interop/spx_capture.c),
# which runs SPX over the in-memory link with loss on a simulated clock and
# writes every frame to a pcap file. Prints PASS:/FAIL: per check; exit 77
# (SKIP) when tshark is missing.
set -u
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"
use_build "${1:-}"
tool_capture spx_capture
check_capture "$CAP" spx 100
# at_least NAME FILTER MIN
at_least() { check_frames "$1" "$CAP" "$2" "$3"; }

# Connection control is frame byte 44 (14 Ethernet + 30 IPX), so the flags
# are tested on the byte itself: SYS 0x80, ACK 0x40, EOM 0x10, SPX II 0x08,
# negotiate 0x04. (tshark's spx.ctl field holds only the high nibble and,
# with -T fields, leaves false booleans out of its tree.)
SYS='(frame[44] & 0x80)' ACKREQ='(frame[44] & 0x40)' EOM='(frame[44] & 0x10)'
V2='(frame[44] & 0x08)' NEG='(frame[44] & 0x04)'
at_least "SPX I connect request (SYS|ACK, destination 0xFFFF, 42 bytes)" \
	"spx.dst == 0xffff && $SYS && $ACKREQ && !$V2 && ipx.len == 42" 1
at_least "SPX I accept (SYS only, no SPX II bit)" \
	"$SYS && !$ACKREQ && !$V2 && spx.seq == 0 && spx.ack == 0 && spx.dst != 0xffff && spx.type == 0" 1
at_least "SPX II connect request (SPX II and negotiate bits, 42 bytes)" \
	"spx.dst == 0xffff && $V2 && $NEG && ipx.len == 42" 1
at_least "SPX II accept with the negotiation size field" \
	"$SYS && !$ACKREQ && $V2 && $NEG && spx.neg_size > 0 && ipx.len == 44" 1
at_least "size negotiation padded to the size tried" \
	"$SYS && $ACKREQ && $NEG && spx.dst != 0xffff && ipx.len == spx.neg_size && ipx.len > 576" 1
at_least "data packets" "!$SYS && spx.type == 0 && ipx.len > 44" 50
at_least "end-of-message flags" "!$SYS && $EOM" 5
at_least "acknowledgements (system packets)" "$SYS && !$ACKREQ && !$NEG && spx.type == 0" 20
at_least "ipxlab's SPX II NAK (system packet, datastream 0xFB)" "$SYS && $V2 && spx.type == 0xfb" 1
at_least "watchdog probes (SYS|ACK on an open connection)" \
	"$SYS && $ACKREQ && !$NEG && spx.dst != 0xffff" 2
at_least "disconnect requests (datastream 0xFE)" "spx.type == 0xfe" 2
at_least "disconnect acknowledgements (datastream 0xFF)" "$SYS && spx.type == 0xff" 2
at_least "retransmissions seen by Wireshark" "spx.rexmt_frame" 1
at_least "orderly release requests (datastream 0xFC, sequenced)" "!$SYS && $ACKREQ && spx.type == 0xfc" 2
at_least "orderly release acknowledgements (datastream 0xFD)" "$SYS && spx.type == 0xfd" 2
at_least "a busy listener's refusal (0xFE from no connection)" "$SYS && spx.type == 0xfe && spx.src == 0xffff" 1
at_least "a disconnect at once (0xFE as a system packet)" "$SYS && $ACKREQ && spx.type == 0xfe && spx.src != 0xffff" 1

finish
