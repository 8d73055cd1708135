#!/usr/bin/env bash
# tshark_svc_test.sh - interop test: Wireshark's dissectors decode what
# ipxlab's routing, SAP, diagnostics and ping put on the wire, without a
# single warning.
#
# Usage: tests/interop/tshark_svc_test.sh [path/to/ipxlab]  (default build/ipxlab)
# Env:   IT_KEEP=1 keeps the temp dir (capture, process output).
#
# Two hubs on random loopback ports P1, P2 joined by `ipxlab router`
# (networks 0000AA01 and 0000AA02) while tshark captures both ports, and:
#   ipxlab advertise 4 LABFS1 451   on P2 (then stopped: it goes down)
#   ipxlab listen                   on P2 (a node to ping)
#   ipxlab routes / slist / sap / diag --broadcast / ping ADDR   from P1
# Decoded with `-d udp.port==P1,ipx -d udp.port==P2,ipx`, it checks that
# every frame is IPX, none is malformed or carries expert info of severity
# warning or error, RIP requests and responses decode (ipxrip) with the
# route to 0000AA02, SAP queries, responses and the going-down decode
# (ipxsap) with the service, and diagnostics and ping packets are on their
# sockets with their payloads (Wireshark 4.0 has no dissector for these
# two: it shows their payload as data, which is checked byte for byte).
# Wireshark quirks met here: IPX network fields compare as 0x0000aa02, not
# 0000aa02; anything from or to socket 0x4001/0x4003 is decoded as "IPX
# Message" whatever the other socket (so ipxlab's clients avoid them).
#
# Prints PASS:/FAIL: per check and "N passed, N failed"; exits 1 if any
# check failed, 77 (SKIP) if tshark is missing or cannot capture on lo.
set -u
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"
use_build "${1:-}"
need_exe "$BIN"
need_cmd tshark
make_tmp tshark-svc
CAP=$TMP/svc.pcapng
T0=$(date +%s)

P1=$(free_port)
P2=$(free_port)
[ "$P1" = "$P2" ] && P2=$((P1 + 1))
timeout -k 2 40 "$BIN" hub --bind 127.0.0.1 --port "$P1" -q 2>"$TMP/hub1.err" & PIDS+=($!)
timeout -k 2 40 "$BIN" hub --bind 127.0.0.1 --port "$P2" -q 2>"$TMP/hub2.err" & PIDS+=($!)
sleep 0.3

live_capture "$CAP" "udp port $P1 or udp port $P2" 35

H1=127.0.0.1:$P1
H2=127.0.0.1:$P2
timeout -k 2 30 "$BIN" router --link "hub:$H1,net=0000AA01" --link "hub:$H2,net=0000AA02" \
	2>"$TMP/router.err" & ROUTER=$!; PIDS+=($ROUTER)
wait_for "$TMP/router.err" "routing between" 100
timeout -k 2 30 "$BIN" listen 4545 --hub "$H2" >/dev/null 2>"$TMP/listen.err" & PIDS+=($!)
timeout -k 2 30 "$BIN" advertise 4 LABFS1 451 --hub "$H2" 2>"$TMP/adv.err" & ADV=$!; PIDS+=($ADV)
wait_for "$TMP/listen.err" "listening on" 100
wait_for "$TMP/adv.err" "advertising" 100
NODE=$(sed -n 's/^listening on [0-9A-F]*:\([0-9A-F]*\):.*/\1/p' "$TMP/listen.err")

timeout -k 2 10 "$BIN" routes --hub "$H1" -W 0.3 >"$TMP/routes.out" 2>&1
check "routes answered" $? "$TMP/routes.out"
timeout -k 2 10 "$BIN" slist --hub "$H1" -W 0.3 >"$TMP/slist.out" 2>&1
check "slist answered" $? "$TMP/slist.out"
timeout -k 2 10 "$BIN" sap --hub "$H1" -W 0.3 >"$TMP/sap.out" 2>&1
check "sap answered" $? "$TMP/sap.out"
timeout -k 2 10 "$BIN" diag --hub "$H1" -W 0.3 >"$TMP/diag.out" 2>&1
check "diag answered" $? "$TMP/diag.out"
timeout -k 2 10 "$BIN" ping "0000AA02:$NODE" -c 2 -i 0.1 -W 0.3 -s 8 --hub "$H1" >"$TMP/ping.out" 2>&1
check "ping answered" $? "$TMP/ping.out"
kill "$ADV"; wait "$ADV" 2>/dev/null
sleep 0.5

stop_capture
[ -s "$CAP" ] || { fail "capture written" "$TMP/capture.err"; finish; }

D=(-d "udp.port==$P1,ipx" -d "udp.port==$P2,ipx")
count() { frames "$CAP" "$1" "${D[@]}"; }
tshark -r "$CAP" "${D[@]}" -V >"$TMP/decode.txt" 2>>"$TMP/tshark.err"
check_capture "$CAP" ipx 20 "${D[@]}"

req=$(count "ipxrip.packet_type == 1 && ipx.packet_type == 1 && ipx.dst.socket == 0x0453")
resp=$(count "ipxrip.packet_type == 2 && ipxrip.route_vector == 0x0000aa02 && ipxrip.hops == 1 && ipxrip.ticks == 1")
[ "$req" -ge 2 ] && [ "$resp" -ge 1 ]
check "RIP requests ($req) and responses with 0000AA02 at 1 hop ($resp) decode" $? "$TMP/decode.txt"

gq=$(count "ipxsap.packet_type == 1")
nq=$(count "ipxsap.packet_type == 3")
ga=$(count "ipxsap.packet_type == 2 && ipxsap.server.name == \"LABFS1\" && ipxsap.server.type == 4 && ipxsap.server.socket == 0x0451")
na=$(count "ipxsap.packet_type == 4 && ipxsap.server.name == \"LABFS1\"")
down=$(count "ipxsap.server.name == \"LABFS1\" && ipxsap.server.intermediate_networks == 16")
[ "$gq" -ge 2 ] && [ "$nq" -ge 1 ] && [ "$ga" -ge 2 ] && [ "$na" -ge 1 ] && [ "$down" -ge 1 ]
check "SAP queries (general $gq, nearest $nq), responses ($ga, nearest $na) and going down ($down) decode" $? "$TMP/decode.txt"

dreq=$(count "ipx.dst.socket == 0x0456 && ipx.dst.node == ff:ff:ff:ff:ff:ff && data.len == 7")
drsp=$(count "ipx.src.socket == 0x0456 && data.data[0:2] == 01:00")
[ "$dreq" -ge 1 ] && [ "$drsp" -ge 1 ]
check "diagnostics requests ($dreq) and a router's 1.0 answer ($drsp) on socket 0456" $? "$TMP/decode.txt"

preq=$(count "ipx.dst.socket == 0x9086 && data.data[0:6] == 50:69:6e:67:01:00 && data.len == 18")
prep=$(count "ipx.src.socket == 0x9086 && data.data[0:6] == 50:69:6e:67:01:01 && data.data[8] == 01 && ipx.hops == 1")
[ "$preq" -ge 2 ] && [ "$prep" -ge 2 ]
check "Novell ping requests ($preq) and replies ($prep) on socket 9086" $? "$TMP/decode.txt"

echo "tshark service test took $(($(date +%s) - T0)) s"
finish
