#!/usr/bin/env bash
# internet_test.sh [IPXLAB] - end to end: an internetwork on loopback that
# addresses every node by its real network number. Two hubs joined by
# `ipxlab router --link hub:H1,net=1 --link hub:H2,net=2`, then a third hub
# and a second router in a chain (net 2 to net 3). The nodes behind the
# hubs do not know their numbers at start (DOSBox hubs do not tell them).
# Checks, with 00000001:... and 00000002:... addresses, in both directions:
# a datagram and an SPX session to a node of one's own hub (straight, at
# once: no waiting for RIP), SPX transfers across the router, ping, routes,
# sap and diag; NetBIOS find, datagrams and a session across one router,
# then across two. Prints PASS:/FAIL: per check; every wait is bounded and
# every process killed.
set -u
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"
use_build "${1:-}"
need_exe "$BIN"
make_tmp internet
start=$SECONDS

start_hub; H1=$HUB
start_hub; H2=$HUB
start_hub; H3=$HUB

# node_of FILE: the node in the "listening on NET:NODE:SOCK" line of FILE
node_of() { sed -n 's/.*listening on [0-9A-F]*:\([0-9A-F]*\):.*/\1/p' "$1" | head -n 1; }
# since_ms T0: milliseconds since T0 (from now_ns)
now_ns() { date +%s%N; }
since_ms() { echo $((($(now_ns) - $1) / 1000000)); }

# --- the router ------------------------------------------------------------------
timeout -k 2 170 "$BIN" router --link "hub:$H1,net=1" --link "hub:$H2,net=2" \
	2>"$TMP/r1.log" & PIDS+=("$!")
wait_for "$TMP/r1.log" "routing between 2 networks" 100 ||
	{ fail "router joins both hubs" "$TMP/r1.log"; finish; }
R1N1=$(sed -n 's/.*network 00000001 on hub .* as node \([0-9A-F]*\).*/\1/p' "$TMP/r1.log")
R1N2=$(sed -n 's/.*network 00000002 on hub .* as node \([0-9A-F]*\).*/\1/p' "$TMP/r1.log")

# Listeners that answer ping and diag, one per hub.
timeout -k 2 160 "$BIN" listen 4545 --hub "$H1" >"$TMP/l1.out" 2>"$TMP/l1.err" & PIDS+=("$!")
timeout -k 2 160 "$BIN" listen 4545 --hub "$H2" >"$TMP/l2.out" 2>"$TMP/l2.err" & PIDS+=("$!")
wait_for "$TMP/l1.err" "listening on" && wait_for "$TMP/l2.err" "listening on" ||
	{ fail "listeners start" "$TMP/l1.err" "$TMP/l2.err"; finish; }
N1=$(node_of "$TMP/l1.err")
N2=$(node_of "$TMP/l2.err")

# --- one's own segment, by its real number ----------------------------------------
t0=$(now_ns)
echo "same hub" | timeout -k 2 10 "$BIN" send "00000001:$N1:4545" --hub "$H1" 2>"$TMP/send1.err"; rc=$?
ms=$(since_ms "$t0")
wait_for "$TMP/l1.out" "^00000001:[0-9A-F]{12}:[0-9A-F]{4} same hub$" 30
st=$?
[ $rc = 0 ] && [ $st = 0 ] && [ "$ms" -lt 1200 ] &&
	pass "send to 00000001:NODE on its own hub: straight, with source 00000001 ($ms ms)" ||
	fail "send to 00000001:NODE on its own hub: straight, with source 00000001" "rc=$rc ${ms} ms" "$TMP/l1.out" "$TMP/send1.err"

out=$(timeout -k 2 10 "$BIN" ping "00000001:$N1" -c 2 -i 0.2 -W 1 --hub "$H1" 2>&1); rc=$?
[ $rc = 0 ] && [ "$(grep -c "bytes from 00000001:$N1:9086: id=[12] hops=0 " <<<"$out")" = 2 ] &&
	pass "ping 00000001:NODE on its own hub answers with hops=0" ||
	fail "ping 00000001:NODE on its own hub answers with hops=0" "rc=$rc" "$out"

# spx_pair NAME LHUB CHUB NET: SPX between a listener on LHUB and a node
# of CHUB connecting to NET:listener: 200 KB from the connecting side, then
# 150 KB from the listening side, every byte compared, both sides exit 0.
# (One way at a time: both at once is SPX's own matter, not routing's.)
head -c 200000 /dev/urandom >"$TMP/a.bin"
head -c 150000 /dev/urandom >"$TMP/b.bin"
spx_one() {
	local lhub=$1 chub=$2 net=$3 lin=$4 cin=$5 node lp
	rm -f "$TMP/spxl.err"
	timeout -k 2 30 "$BIN" spx listen 5002 --hub "$lhub" <"$lin" \
		>"$TMP/spxl.out" 2>"$TMP/spxl.err" & lp=$!
	PIDS+=("$lp")
	wait_for "$TMP/spxl.err" "listening on" || return 3
	node=$(node_of "$TMP/spxl.err")
	timeout -k 2 25 "$BIN" spx connect "$net:$node:5002" --hub "$chub" \
		<"$cin" >"$TMP/spxc.out" 2>"$TMP/spxc.err" || return 1
	wait $lp || return 2
}
spx_pair() {
	local name=$1 lhub=$2 chub=$3 net=$4 rc
	spx_one "$lhub" "$chub" "$net" /dev/null "$TMP/a.bin"; rc=$?
	[ $rc = 0 ] && cmp -s "$TMP/a.bin" "$TMP/spxl.out" &&
		pass "$name: 200 KB to the listener, every byte, both exit 0" ||
		fail "$name: 200 KB to the listener, every byte, both exit 0" \
			"rc=$rc (1 connect, 2 listen, 3 no listener), $(wc -c <"$TMP/spxl.out") bytes" \
			"$TMP/spxc.err" "$TMP/spxl.err"
	spx_one "$lhub" "$chub" "$net" "$TMP/b.bin" /dev/null; rc=$?
	[ $rc = 0 ] && cmp -s "$TMP/b.bin" "$TMP/spxc.out" &&
		pass "$name: 150 KB from the listener, every byte, both exit 0" ||
		fail "$name: 150 KB from the listener, every byte, both exit 0" \
			"rc=$rc (1 connect, 2 listen, 3 no listener), $(wc -c <"$TMP/spxc.out") bytes" \
			"$TMP/spxc.err" "$TMP/spxl.err"
}
spx_pair "spx connect 00000001:NODE on its own hub" "$H1" "$H1" 00000001
spx_pair "spx connect 00000002:NODE from hub 1" "$H2" "$H1" 00000002
spx_pair "spx connect 00000001:NODE from hub 2" "$H1" "$H2" 00000001

# --- ping, routes, sap, diag across the router -----------------------------------------
for dir in "1 2 $H1 $N2" "2 1 $H2 $N1"; do
	read -r from to hub node <<<"$dir"
	out=$(timeout -k 2 10 "$BIN" ping "0000000$to:$node" -c 2 -i 0.2 -W 1 --hub "$hub" 2>&1); rc=$?
	[ $rc = 0 ] && [ "$(grep -c "bytes from 0000000$to:$node:9086: id=[12] hops=1 " <<<"$out")" = 2 ] &&
		pass "ping 0000000$to:NODE from hub $from: hops=1" ||
		fail "ping 0000000$to:NODE from hub $from: hops=1" "rc=$rc" "$out"
done

out=$(timeout -k 2 10 "$BIN" routes "00000001:$R1N1" --hub "$H1" 2>&1); rc=$?
[ $rc = 0 ] && grep -Eq "^00000002 +1 +1  00000001:$R1N1$" <<<"$out" &&
	pass "routes 00000001:ROUTER on its own hub: net 2 one hop away" ||
	fail "routes 00000001:ROUTER on its own hub: net 2 one hop away" "rc=$rc" "$out"
out=$(timeout -k 2 10 "$BIN" routes "00000002:$R1N2" --hub "$H2" 2>&1); rc=$?
[ $rc = 0 ] && grep -Eq "^00000001 +1 +1  00000002:$R1N2$" <<<"$out" &&
	pass "routes 00000002:ROUTER on hub 2: net 1 one hop away" ||
	fail "routes 00000002:ROUTER on hub 2: net 1 one hop away" "rc=$rc" "$out"

out=$(timeout -k 2 10 "$BIN" routes "00000002:$R1N2" --hub "$H1" 2>&1); rc=$?
[ $rc = 0 ] && grep -Eq "^00000002 +1 +1  00000002:$R1N2( |$)" <<<"$out" &&
	grep -q "^1 answer, 1 route$" <<<"$out" &&
	pass "routes 00000002:ROUTER (its far side) from hub 1: net 2 one hop away, that router's answer only" ||
	fail "routes 00000002:ROUTER (its far side) from hub 1: net 2 one hop away, that router's answer only" "rc=$rc" "$out"

timeout -k 2 120 "$BIN" advertise 4 LABFS 451 --hub "$H2" 2>"$TMP/adv.err" & ADV=$!; PIDS+=("$ADV")
wait_for "$TMP/adv.err" "advertising" || fail "advertise starts" "$TMP/adv.err"
AN=$(sed -n 's/.*advertising 0x0004 LABFS at 00000002:\([0-9A-F]*\):0451.*/\1/p' "$TMP/adv.err")
[ -n "$AN" ] && pass "advertise learns its network: 00000002" || fail "advertise learns its network: 00000002" "$TMP/adv.err"
sleep 0.3
out=$(timeout -k 2 10 "$BIN" sap "00000002:$AN" --hub "$H2" 2>&1); rc=$?
[ $rc = 0 ] && grep -Eq "^0x0004 LABFS +00000002:$AN:0451 " <<<"$out" &&
	pass "sap 00000002:SERVER on its own hub" || fail "sap 00000002:SERVER on its own hub" "rc=$rc" "$out"
out=$(timeout -k 2 10 "$BIN" sap "00000002:$AN" --hub "$H1" 2>&1); rc=$?
[ $rc = 0 ] && grep -Eq "^0x0004 LABFS +00000002:$AN:0451 " <<<"$out" &&
	pass "sap 00000002:SERVER from hub 1" || fail "sap 00000002:SERVER from hub 1" "rc=$rc" "$out"
out=$(timeout -k 2 10 "$BIN" sap "00000001:$R1N1" --hub "$H1" 2>&1); rc=$?
[ $rc = 0 ] && grep -Eq "^0x0004 LABFS +00000002:$AN:0451 +2 " <<<"$out" &&
	pass "sap 00000001:ROUTER on its own hub: the server two hops away" ||
	fail "sap 00000001:ROUTER on its own hub: the server two hops away" "rc=$rc" "$out"

for dir in "1 1 $H1 $N1 0" "2 1 $H2 $N1 1" "1 2 $H1 $N2 1"; do
	read -r from to hub node hops <<<"$dir"
	out=$(timeout -k 2 10 "$BIN" diag "0000000$to:$node" --hub "$hub" 2>&1); rc=$?
	[ $rc = 0 ] && grep -q "^0000000$to:$node:0456  diagnostics .*hops $hops$" <<<"$out" &&
		pass "diag 0000000$to:NODE from hub $from: hops $hops" ||
		fail "diag 0000000$to:NODE from hub $from: hops $hops" "rc=$rc" "$out"
done

# --- NetBIOS ----------------------------------------------------------------------
# nb_across NAME HUB_A HUB_B NET_B: a name held on HUB_B is found from HUB_A
# at NET_B; datagrams both ways; a session HUB_A -> HUB_B with data both ways
nb_across() {
	local name=$1 ha=$2 hb=$3 netb=$4 tag=$5 p rc lrc
	timeout -k 2 30 "$BIN" netbios add "NBB$tag" --hub "$hb" -t 25 >"$TMP/nbadd.out" 2>&1 & p=$!
	PIDS+=("$p")
	wait_for "$TMP/nbadd.out" "holding 1 name" 100 || { fail "$name: name claimed" "$TMP/nbadd.out"; return; }
	out=$(timeout -k 2 10 "$BIN" netbios find "NBB$tag" --hub "$ha" 2>&1); rc=$?
	[ $rc = 0 ] && grep -Eq "^$netb:[0-9A-F]{12}:0455 unique$" <<<"$out" &&
		pass "$name: find NAME gives $netb:NODE" || fail "$name: find NAME gives $netb:NODE" "rc=$rc" "$out"
	kill $p 2>/dev/null
	for way in "$ha $hb to" "$hb $ha back"; do
		read -r from to word <<<"$way"
		rm -f "$TMP/nbrecv.err"
		timeout -k 2 30 "$BIN" netbios recv "NBD$tag$word" -c 1 -t 20 --hub "$to" \
			>"$TMP/nbrecv.out" 2>"$TMP/nbrecv.err" & p=$!
		PIDS+=("$p")
		wait_for "$TMP/nbrecv.err" "receiving for" 100 || fail "$name: recv starts" "$TMP/nbrecv.err"
		echo "datagram $word" | timeout -k 2 10 "$BIN" netbios send "NBD$tag$word" --hub "$from" \
			>/dev/null 2>"$TMP/nbsend.err"; rc=$?
		wait $p; lrc=$?
		[ $rc = 0 ] && [ $lrc = 0 ] && grep -q " datagram $word$" "$TMP/nbrecv.out" &&
			pass "$name: a datagram $word" ||
			fail "$name: a datagram $word" "send=$rc recv=$lrc" "$TMP/nbrecv.out" "$TMP/nbsend.err"
	done
	echo "from the caller" >"$TMP/nbc.in"
	echo "from the listener" >"$TMP/nbl.in"
	nb_session "$hb" "$ha" "NBS$tag" /dev/null "$TMP/nbc.in"; rc=$?
	[ $rc = 0 ] && grep -q "^from the caller$" "$TMP/nbl.out" &&
		grep -q "session 1 to NBS$tag<00> ($netb:" "$TMP/nbc.err" &&
		pass "$name: a session, data to the listener, both exit 0" ||
		fail "$name: a session, data to the listener, both exit 0" \
			"rc=$rc (1 call, 2 listen, 3 no listener)" "$TMP/nbc.err" "$TMP/nbl.err" "$TMP/nbl.out"
	nb_session "$hb" "$ha" "NBT$tag" "$TMP/nbl.in" /dev/null; rc=$?
	[ $rc = 0 ] && grep -q "^from the listener$" "$TMP/nbc.out" &&
		pass "$name: a session, data from the listener, both exit 0" ||
		fail "$name: a session, data from the listener, both exit 0" \
			"rc=$rc (1 call, 2 listen, 3 no listener)" "$TMP/nbc.err" "$TMP/nbc.out" "$TMP/nbl.err"
}
# nb_session LHUB CHUB NAME LIN CIN: netbios listen NAME on LHUB (input
# LIN), called from CHUB (input CIN); 0, or 1 call / 2 listen failed, 3 no
# listener. (One way at a time, as for SPX.)
nb_session() {
	local p
	rm -f "$TMP/nbl.err"
	timeout -k 2 30 "$BIN" netbios listen "$3" -t 20 --hub "$1" <"$4" \
		>"$TMP/nbl.out" 2>"$TMP/nbl.err" & p=$!
	PIDS+=("$p")
	wait_for "$TMP/nbl.err" "listening as" 100 || return 3
	timeout -k 2 20 "$BIN" netbios call "$3" --hub "$2" <"$5" \
		>"$TMP/nbc.out" 2>"$TMP/nbc.err" || return 1
	wait $p || return 2
}
nb_across "NetBIOS across one router" "$H1" "$H2" 00000002 A

# --- two routers in a chain ----------------------------------------------------------
timeout -k 2 100 "$BIN" router --link "hub:$H2,net=2" --link "hub:$H3,net=3" \
	2>"$TMP/r2.log" & PIDS+=("$!")
wait_for "$TMP/r2.log" "routing between 2 networks" 100 ||
	{ fail "second router joins hubs 2 and 3" "$TMP/r2.log"; finish; }
# The two routers exchange their tables: wait until the first knows net 3
# and the second net 1 (a fixed sleep was too short under sanitizers).
R2N3=$(sed -n 's/.*network 00000003 on hub .* as node \([0-9A-F]*\).*/\1/p' "$TMP/r2.log")
routes_know() { # HUB ROUTER NET: ROUTER (asked on HUB) has a route to NET
	timeout -k 2 5 "$BIN" routes "$2" --hub "$1" 2>/dev/null | grep -Eq "^$3 "
}
for ((i = 0; i < 100; i++)); do
	routes_know "$H1" "00000001:$R1N1" 00000003 && routes_know "$H3" "00000003:$R2N3" 00000001 && break
	sleep 0.1
done
[ $i -lt 100 ] && pass "two routers learn each other's networks (net 3 on hub 1, net 1 on hub 3)" ||
	fail "two routers learn each other's networks (net 3 on hub 1, net 1 on hub 3)" "$TMP/r1.log" "$TMP/r2.log"
nb_across "NetBIOS across two routers" "$H1" "$H3" 00000003 B
nb_across "NetBIOS across two routers, the other way" "$H3" "$H1" 00000001 C

echo "internet test took $((SECONDS - start)) s"
finish
