#!/usr/bin/env bash
# stack_test.sh [IPXLAB] - end to end: `ipxlab stack` on a loopback hub and
# AF_IPX programs (build/tools/afipx, written against <netipx/ipx.h>) run
# under `ipxlab run`. Checks: socket() without a stack (EAFNOSUPPORT, one
# line saying how to start one); every af_ipx error case; EACCES/EPERM
# without CAP_NET_ADMIN; poll/select/epoll timeouts, O_NONBLOCK, dup; a
# socket across fork + exec; datagrams between two programs on one stack
# and between two stacks through the hub; broadcast; the internal network
# made and removed by SIOCSIFADDR with the /proc files; bad address
# pointers (EFAULT); sockets 0x452/0x453 sending from the link's address
# beside an internal network; interop with
# `ipxlab listen`, `send`, `ping` and `sap`; the counters of calls that are
# not emulated; refusals. Prints PASS:/FAIL: lines; everything is bounded.
set -u
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"
use_build "${1:-}"
AFIPX=$TOOLS/afipx
need_exe "$BIN" "$AFIPX" "$AFIPX-fortify" "$(dirname "$BIN")/libipxlab-preload.so"
make_tmp stack
start_hub

# stack NAME OPTIONS...: a stack on $TMP/NAME.sock, its log $TMP/NAME.log
stack() {
	local name=$1
	shift
	timeout -k 2 120 "$BIN" stack --socket "$TMP/$name.sock" "$@" 2>"$TMP/$name.log" &
	PIDS+=($!)
	wait_for "$TMP/$name.log" "stack ready" 100
	check "stack $name starts" $? "$TMP/$name.log"
}
# run NAME PROGRAM-ARGS...: afipx under stack NAME (10 s at most)
run() {
	local name=$1
	shift
	timeout -k 2 10 "$BIN" run --socket "$TMP/$name.sock" -- "$AFIPX" "$@"
}
# all_ok NAME FILE: every line of an afipx check run is "ok ..." (and some are)
all_ok() {
	local rc n
	! grep -q '^FAIL' "$2" && grep -q '^ok ' "$2"
	rc=$?	# (before the count below, which would replace $?)
	n=$(grep -c '^ok ' "$2")
	check "$1 ($n checks)" "$rc" "$2"
}

stack a --link "hub:$HUB,net=AA" --pcap "$TMP/a.pcap"
stack b --link "hub:$HUB,net=AA"
A=$(sed -n 's/.*primary interface \([0-9A-F]*:[0-9A-F]*\).*/\1/p' "$TMP/a.log")
ANODE=${A#*:}
SPID=$(pgrep -P "${PIDS[-2]}" | head -n 1)	# stack a itself, not its timeout
SPID=${SPID:-${PIDS[-2]}}

# --- without a stack ------------------------------------------------------------
run none nostack >"$TMP/nostack.out" 2>"$TMP/nostack.err"
all_ok "socket(AF_IPX) without a stack: EAFNOSUPPORT" "$TMP/nostack.out"
[ "$(wc -l <"$TMP/nostack.err")" = 1 ] && grep -q "start one with 'ipxlab stack" "$TMP/nostack.err"
check "ipxlab run says in one line how to start the stack" $? "$TMP/nostack.err"

# --- semantics and errors ---------------------------------------------------------
run a errors >"$TMP/errors.out" 2>&1
all_ok "af_ipx errors and semantics" "$TMP/errors.out"
run a efault >"$TMP/efault.out" 2>&1
all_ok "a bad address pointer to bind, connect, getsockname, getpeername, sendto, sendmsg, recvfrom, recvmsg: EFAULT, not SIGSEGV" "$TMP/efault.out"
IPXLAB_SHIM_COPY=pipe run a efault >"$TMP/efault-pipe.out" 2>&1
all_ok "the same through the shim's pipe (where process_vm_readv is refused)" "$TMP/efault-pipe.out"
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null; then
	timeout -k 2 10 setpriv --bounding-set=-net_admin "$BIN" run --socket "$TMP/a.sock" -- \
		"$AFIPX" unpriv >"$TMP/unpriv.out" 2>&1
else
	run a unpriv >"$TMP/unpriv.out" 2>&1
fi
all_ok "without CAP_NET_ADMIN: EACCES below 0x4000, EPERM for interfaces and routes" "$TMP/unpriv.out"
run a poll >"$TMP/poll.out" 2>&1
all_ok "poll, select, epoll timeouts; O_NONBLOCK; dup" "$TMP/poll.out"
AFIPX=$TOOLS/afipx-fortify run a poll >"$TMP/poll-fortify.out" 2>&1
all_ok "the same built with _FORTIFY_SOURCE=2 (__read_chk, __recv_chk)" "$TMP/poll-fortify.out"
run a fork >"$TMP/fork.out" 2>&1
all_ok "a socket across fork and exec (fd 3)" "$TMP/fork.out"

# --- datagrams --------------------------------------------------------------------
run a recv 0 3 >"$TMP/r1.out" 2>&1 & PIDS+=($!)
wait_for "$TMP/r1.out" "^bound " || fail "receiver on stack a binds" "$TMP/r1.out"
R1=$(sed -n 's/^bound //p' "$TMP/r1.out")
run a send "$R1" 3 4 >"$TMP/s1.out" 2>&1
wait_for "$TMP/r1.out" "msg 2$"
check "two programs on one stack: 3 datagrams, source and type" $? "$TMP/r1.out"
grep -q "^from $A:[0-9A-F]* type 4 len 5 msg 0$" "$TMP/r1.out"
check "recvfrom gives the sender's address and sipx_type" $? "$TMP/r1.out"

run b recv 0 2 >"$TMP/r2.out" 2>&1 & PIDS+=($!)
wait_for "$TMP/r2.out" "^bound " || fail "receiver on stack b binds" "$TMP/r2.out"
R2=$(sed -n 's/^bound //p' "$TMP/r2.out")
run a send "$R2" 2 17 >"$TMP/s2.out" 2>&1
wait_for "$TMP/r2.out" "msg 1$" 50
check "two stacks through the hub" $? "$TMP/r2.out" "$TMP/s2.out"
grep -q "^from $A:[0-9A-F]* type 17 len 5 msg 0$" "$TMP/r2.out"
check "across the hub: source on network AA, type 17" $? "$TMP/r2.out"

run a recv 5555 1 >"$TMP/ba.out" 2>&1 & PIDS+=($!)
run b recv 5555 1 >"$TMP/bb.out" 2>&1 & PIDS+=($!)
wait_for "$TMP/ba.out" "^bound " && wait_for "$TMP/bb.out" "^bound "
run a send "000000AA:FFFFFFFFFFFF:5555" 1 >"$TMP/bs.out" 2>&1
wait_for "$TMP/ba.out" "msg 0$" && wait_for "$TMP/bb.out" "msg 0$"
check "a broadcast reaches this stack's and the other stack's socket" $? \
	"$TMP/ba.out" "$TMP/bb.out" "$TMP/bs.out"

# --- interfaces -------------------------------------------------------------------
run b iface ABCD >"$TMP/iface.out" 2>&1
all_ok "SIOCSIFADDR makes and removes an internal network" "$TMP/iface.out"
grep -q "^0000ABCD   000000000001   Yes      Internal   None$" "$TMP/iface.out"
check "/proc/net/ipx/interface shows it primary, as Linux did" $? "$TMP/iface.out"
grep -q "^0000ABCD   000000001234   Yes      Internal   None$" "$TMP/iface.out"
check "SIOCSIFADDR's node for the internal network is kept (000000001234), as Linux kept it" $? "$TMP/iface.out"

stack c --hub "$HUB"
run c numbering BB >"$TMP/numbering.out" 2>&1
all_ok "SIOCSIFADDR numbers a hub link, refuses renumbering, deletes and creates its interface (the tunnel stays)" "$TMP/numbering.out"

# --- interop with ipxlab node commands ----------------------------------------------
timeout -k 2 15 "$BIN" listen 4545 --hub "$HUB" -c 2 -t 10 >"$TMP/l.out" 2>"$TMP/l.err" & PIDS+=($!)
wait_for "$TMP/l.err" "listening on" || fail "ipxlab listen starts" "$TMP/l.err"
LNODE=$(sed -n 's/^listening on [0-9A-F]*:\([0-9A-F]*\):.*/\1/p' "$TMP/l.err")
run a send "00000000:$LNODE:4545" 2 >"$TMP/s3.out" 2>&1
wait_for "$TMP/l.out" "msg 1$"
check "AF_IPX sendto reaches ipxlab listen" $? "$TMP/l.out" "$TMP/s3.out"
grep -q "^000000AA:$ANODE:[0-9A-F]* msg 0$" "$TMP/l.out"
check "ipxlab listen sees the stack's address" $? "$TMP/l.out"

run a recv 6000 1 >"$TMP/r4.out" 2>&1 & PIDS+=($!)
wait_for "$TMP/r4.out" "^bound "
echo "from ipxlab" | timeout -k 2 10 "$BIN" send "00000000:$ANODE:6000" --hub "$HUB" 2>"$TMP/send.err"
wait_for "$TMP/r4.out" "from ipxlab$"
check "ipxlab send reaches an AF_IPX recvfrom" $? "$TMP/r4.out" "$TMP/send.err"
grep -q "^from 000000AA:[0-9A-F]*:[0-9A-F]* type" "$TMP/r4.out"
check "a source on network 0 gets the receiving interface's number (AA), as af_ipx gave it" $? "$TMP/r4.out"

run a pong 1 >"$TMP/pong.out" 2>&1 & PIDS+=($!)
wait_for "$TMP/pong.out" "pong ready"
timeout -k 2 10 "$BIN" ping "00000000:$ANODE" -c 1 -W 2 --hub "$HUB" >"$TMP/ping.out" 2>&1
check "ipxlab ping is answered by an AF_IPX program on 9086" $? "$TMP/ping.out" "$TMP/pong.out"
timeout -k 2 15 "$BIN" listen 4546 --hub "$HUB" -t 10 >/dev/null 2>"$TMP/l2.err" & PIDS+=($!)
wait_for "$TMP/l2.err" "listening on"
LNODE2=$(sed -n 's/^listening on [0-9A-F]*:\([0-9A-F]*\):.*/\1/p' "$TMP/l2.err")
run a ping "00000000:$LNODE2:9086" >"$TMP/ping2.out" 2>&1
check "an AF_IPX Novell ping is answered by an ipxlab node" $? "$TMP/ping2.out"

run a sap 9B9B STACKSVC >"$TMP/sap.out" 2>&1 & PIDS+=($!)
wait_for "$TMP/sap.out" "sap ready"
timeout -k 2 10 "$BIN" sap --type 0x9B9B -W 1 --hub "$HUB" >"$TMP/sapq.out" 2>&1
grep -q "STACKSVC" "$TMP/sapq.out"
check "ipxlab sap finds the service an AF_IPX program advertises" $? "$TMP/sapq.out" "$TMP/sap.out"

timeout -k 2 20 "$BIN" advertise 0x9B9C NODESVC 4444 --hub "$HUB" 2>"$TMP/adv.err" & PIDS+=($!)
wait_for "$TMP/adv.err" "advertising" 100
run a sapq 9B9C >"$TMP/sapq2.out" 2>&1
grep -q "^service 9B9C NODESVC$" "$TMP/sapq2.out"
check "an AF_IPX SAP query finds what ipxlab advertise offers" $? "$TMP/sapq2.out" "$TMP/adv.err"

# A server on the internal network (mars_nwe's way): its replies come from
# node 000000000001, which the hub takes only from a router.
stack e --link "hub:$HUB,net=AA" --internal-net BAD
run e sap 9B9D INTSVC >"$TMP/sape.out" 2>&1 & PIDS+=($!)
wait_for "$TMP/sape.out" "sap ready"
timeout -k 2 10 "$BIN" sap --type 0x9B9D -W 1 --hub "$HUB" >"$TMP/sapqe.out" 2>&1
grep -q "INTSVC.*00000BAD:000000000001" "$TMP/sapqe.out"
check "a service on the internal network answers through the hub (the stack announces it by RIP)" $? "$TMP/sapqe.out" "$TMP/sape.out"

# Linux af_ipx's "RIP/SAP special handling for mars_nwe": sockets 0x452 and
# 0x453 send from the outgoing interface's network and node, not the
# internal network's, so another host's ncpfs can route through the answer
# (its ipx_make_reachable_rip adds SIOCADDRT via the RIP answer's source).
run b recv 0 2 >"$TMP/rip.out" 2>&1 & PIDS+=($!)
wait_for "$TMP/rip.out" "^bound " || fail "receiver on stack b binds" "$TMP/rip.out"
RR=$(sed -n 's/^bound //p' "$TMP/rip.out")
run e sendfrom 453 "$RR" >"$TMP/sf453.out" 2>&1
run e sendfrom 451 "$RR" >"$TMP/sf451.out" 2>&1
wait_for "$TMP/rip.out" "from 451$"
grep -q "^from 000000AA:[0-9A-F]\{12\}:0453 type 4 len 8 from 453$" "$TMP/rip.out" &&
	! grep -q "^from 00000BAD:000000000001:0453 " "$TMP/rip.out"
check "with an internal network, RIP socket 0x453 sends from the hub link's address (AA), as af_ipx did" $? "$TMP/rip.out" "$TMP/sf453.out"
grep -q "^from 00000BAD:000000000001:0451 type 4 len 8 from 451$" "$TMP/rip.out"
check "other sockets still send from the internal network (00000BAD:000000000001)" $? "$TMP/rip.out" "$TMP/sf451.out"
GW=$(sed -n 's/^from \([0-9A-F]*:[0-9A-F]*\):0453 .*/\1:0453/p' "$TMP/rip.out")
run b route C0DE "${GW:-none}" >"$TMP/route.out" 2>&1
all_ok "SIOCADDRT on another stack through that source works (ncpfs's way to the server)" "$TMP/route.out"

# --- the stack itself -----------------------------------------------------------------
stack d --hub "$HUB" --services
DNODE=$(sed -n 's/.*primary interface [0-9A-F]*:\([0-9A-F]*\).*/\1/p' "$TMP/d.log")
timeout -k 2 10 "$BIN" ping "00000000:$DNODE" -c 1 -W 2 --hub "$HUB" >"$TMP/ping3.out" 2>&1
check "stack --services answers Novell ping itself" $? "$TMP/ping3.out"
run d pong 1 >"$TMP/pong2.out" 2>&1
[ $? = 1 ] && grep -q "Address already in use" "$TMP/pong2.out"
check "stack --services holds 0x9086: a program's bind gets EADDRINUSE" $? "$TMP/pong2.out"

kill -USR1 "$SPID"
wait_for "$TMP/a.log" "^unsupported listen 1$"
check "SIGUSR1: the stack counts calls it does not emulate, by name" $? "$TMP/a.log"
"$BIN" stack --socket "$TMP/a.sock" --hub "$HUB" >/dev/null 2>"$TMP/dup.err"
rc=$?
[ $rc = 1 ] && grep -q "already answers" "$TMP/dup.err"
check "a second stack on the same socket is refused" $? "rc=$rc" "$TMP/dup.err"
"$BIN" run >/dev/null 2>"$TMP/e"
[ $? = 2 ] && grep -q "which program" "$TMP/e"
check "ipxlab run without a program: usage error" $? "$TMP/e"
"$BIN" stack --internal-net 0 >/dev/null 2>"$TMP/e"
[ $? = 2 ] && grep -q "internal-net must be" "$TMP/e"
check "ipxlab stack --internal-net 0: usage error" $? "$TMP/e"
kill -TERM "$SPID"
for _ in $(seq 50); do kill -0 "$SPID" 2>/dev/null || break; sleep 0.1; done
grep -q "^rx_datagrams [1-9]" "$TMP/a.log"
check "stack a stops on SIGTERM and prints its counters" $? "$TMP/a.log"
if command -v tshark >/dev/null; then
	n=$(frames "$TMP/a.pcap" "ipx.dst.socket == 0x4545")
	[ "$n" -ge 2 ]
	check "--pcap: tshark reads the stack's datagrams to ipxlab listen ($n)" $? "$TMP/tshark.err"
fi
finish
