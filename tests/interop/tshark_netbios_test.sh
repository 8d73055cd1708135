#!/usr/bin/env bash
# tshark_netbios_test.sh - interop test: Wireshark's NBIPX dissector decodes
# every kind of NetBIOS-over-IPX packet ipxlab sends, without a warning:
# name claims, objections, finds and their answers, deregistration,
# datagrams (broadcast and directed, type 20 and type 4), status query and
# response, and session packets (call request, accept, reject, data with
# end-of-message and resend flags, acks, "not ready" acks, watchdog probes,
# session end and its ack). Docs: docs/netbios.md.
#
# Usage: tests/interop/tshark_netbios_test.sh [path/to/ipxlab]
# The traffic comes from BUILD/tools/nb_capture (tests/interop/nb_capture.c)
# on the in-memory link with loss on a simulated clock. Prints PASS:/FAIL:
# per check; exit 77 (SKIP) when tshark is missing.
set -u
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"
use_build "${1:-}"
tool_capture nb_capture
check_capture "$CAP" nbipx 200
! grep -v 'Running as user' "$TMP/tshark.err" | grep -q .
check "tshark ran cleanly" $? "$TMP/tshark.err"

# name | display filter | at least this many frames
while IFS='|' read -r name filter least; do
	[ -n "$name" ] || continue
	check_frames "$name" "$CAP" "$filter" "$least"
done <<'EOF'
check name (claim) as a type-20 broadcast to socket 0x455|nmpi.packettype == 3 && ipx.packet_type == 20 && ipx.dst.socket == 0x455 && ipx.dst.node == ff:ff:ff:ff:ff:ff && ipx.len == 80|10
group claims carry the group flag|nmpi.packettype == 3 && nmpi.name_flags.group == 1|4
name in use: the defender's objection, type 4 with the list|nmpi.packettype == 4 && ipx.packet_type == 4 && ipx.len == 80 && nmpi.name_flags.in_use == 1|1
find name as a type-20 broadcast|nmpi.packettype == 1 && ipx.packet_type == 20|4
name recognized, from unique and group holders|nmpi.packettype == 2 && ipx.packet_type == 4 && nmpi.name_flags.registered == 1|3
deregister name|nmpi.packettype == 5 && ipx.packet_type == 20 && nmpi.name_flags.deregistered == 1|1
broadcast and group datagrams as type-20 packets|nmpi.packettype == 0x0b && ipx.packet_type == 20 && ipx.dst.node == ff:ff:ff:ff:ff:ff|2
directed datagram straight to its node (type 4)|nmpi.packettype == 0x0b && ipx.packet_type == 4 && ipx.len == 75|1
status query|nmpi.packettype == 9 && ipx.len == 48|1
status response with the adapter status|nmpi.packettype == 0x0a && ipx.len >= 108|1
call request (destination id 0xFFFF, 34 bytes of names)|nmpi.packettype == 6 && nmpi.session.dest_conn_id == 0xffff && nmpi.conn_control == 0xc0 && nmpi.session.data_length == 34|2
call accept (system packet with 2 bytes)|nmpi.packettype == 6 && nmpi.conn_control == 0x80 && nmpi.session.data_length == 2|2
call reject (session end from id 0xFFFF)|nmpi.packettype == 7 && nmpi.session.src_conn_id == 0xffff && nmpi.session.data_length == 1|1
session data fragments of a 64 KB message|nmpi.packettype == 6 && nmpi.conn_control.sys_packet == 0 && nmpi.session.total_data_length == 65535 && nmpi.session.data_length > 1000|90
end of message on the last fragment|nmpi.conn_control.end_msg == 1 && nmpi.session.offset + nmpi.session.data_length == nmpi.session.total_data_length|6
resends carry the resend flag|nmpi.conn_control.resend == 1 && nmpi.conn_control.sys_packet == 0|5
acks (system packets without data)|nmpi.packettype == 6 && nmpi.conn_control == 0x80 && nmpi.session.data_length == 0|100
receiver not ready (ack with attention)|nmpi.conn_control == 0xa0 && nmpi.session.data_length == 0|1
watchdog probes (system, ack required, no data)|nmpi.packettype == 6 && nmpi.conn_control == 0xc0 && nmpi.session.dest_conn_id != 0xffff|2
session end and its acknowledgement|nmpi.packettype == 7 && nmpi.session.src_conn_id != 0xffff|1
session end ack|nmpi.packettype == 8|1
EOF

finish
