#!/usr/bin/env bash
# routing_test.sh [IPXLAB] - end to end: two hubs on loopback joined by
# `ipxlab router`, each hub its own IPX network (0000AA01, 0000AA02).
# Checks: a listener on one side gets `ipxlab send` from the other (source
# network learned, one hop), `ipxlab ping ADDR` crosses the router,
# `ipxlab routes` and `ipxlab diag` see the router, an `ipxlab advertise`d
# service shows in `ipxlab slist` and `ipxlab sap` across the router and
# vanishes when it stops, SIGUSR1 prints the router's tables, and the
# router takes its routes down when stopped.
# Prints PASS:/FAIL: per check; every process is bounded and killed.
set -u
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"
use_build "${1:-}"
need_exe "$BIN"
make_tmp routing
start=$SECONDS

P1=$(free_port)
P2=$(free_port)
[ "$P1" = "$P2" ] && P2=$((P1 + 1))
timeout -k 2 60 "$BIN" hub --bind 127.0.0.1 --port "$P1" 2>"$TMP/hub1.log" & PIDS+=($!)
timeout -k 2 60 "$BIN" hub --bind 127.0.0.1 --port "$P2" 2>"$TMP/hub2.log" & PIDS+=($!)
wait_for "$TMP/hub1.log" "listening on" && wait_for "$TMP/hub2.log" "listening on" ||
	fail "hubs start" "$(cat "$TMP/hub1.log" "$TMP/hub2.log")"
H1=127.0.0.1:$P1
H2=127.0.0.1:$P2

# --- refusals ------------------------------------------------------------------
"$BIN" router --link "hub:$H1" >/dev/null 2>"$TMP/e"; rc=$?
[ $rc = 2 ] && grep -q "needs its network" "$TMP/e" && pass "router refuses a link without net=" || fail "router refuses a link without net=" "$(cat "$TMP/e")"
"$BIN" router --link "hub:$H1,net=1" --link "hub:$H2,net=1" >/dev/null 2>"$TMP/e"; rc=$?
[ $rc = 2 ] && grep -q "two links on network 00000001" "$TMP/e" && pass "router refuses two links on one network" || fail "router refuses two links on one network" "$(cat "$TMP/e")"
"$BIN" router --link "tap:tap0,net=1" >/dev/null 2>"$TMP/e"; rc=$?
[ $rc = 2 ] && grep -q "unknown link kind 'tap' (hub or eth)" "$TMP/e" && pass "router names the link kinds it has" || fail "router names the link kinds it has" "$(cat "$TMP/e")"

# --- the router ------------------------------------------------------------------
timeout -k 2 50 "$BIN" router --link "hub:$H1,net=0000AA01" --link "hub:$H2,net=AA02" \
	2>"$TMP/router.log" & ROUTER=$!; PIDS+=($ROUTER)
wait_for "$TMP/router.log" "routing between 2 networks" 100 &&
	pass "router joins both hubs" || fail "router joins both hubs" "$(cat "$TMP/router.log")"
# Signals go to the router itself, not to timeout (USR1 would kill that).
RPID=$(pgrep -P $ROUTER | head -n 1)
RPID=${RPID:-$ROUTER}

# --- a datagram across the router --------------------------------------------------
timeout -k 2 20 "$BIN" listen 4545 --hub "$H2" -c 1 -t 15 >"$TMP/l.out" 2>"$TMP/l.err" & L=$!; PIDS+=($L)
wait_for "$TMP/l.err" "listening on" || fail "listener starts" "$(cat "$TMP/l.err")"
# Behind a DOSBox hub a node knows its node but not its network: AA02.
NODE=$(sed -n 's/^listening on [0-9A-F]*:\([0-9A-F]*\):.*/\1/p' "$TMP/l.err")
echo "across" | timeout -k 2 10 "$BIN" send "0000AA02:$NODE:4545" --hub "$H1" 2>"$TMP/send.err"; rc=$?
wait $L; lrc=$?
[ $rc = 0 ] && [ $lrc = 0 ] && grep -q "^0000AA01:7F000001[0-9A-F]*:[0-9A-F]* across$" "$TMP/l.out" &&
	pass "send crosses the router (source on 0000AA01)" || fail "send crosses the router (source on 0000AA01)" "rc=$rc listen=$lrc" "$(cat "$TMP/l.out" "$TMP/send.err" "$TMP/l.err")"

# --- Novell ping across the router --------------------------------------------------
timeout -k 2 30 "$BIN" listen 4546 --hub "$H2" >/dev/null 2>"$TMP/l2.err" & PIDS+=($!)
wait_for "$TMP/l2.err" "listening on" || fail "second listener starts"
NODE2=$(sed -n 's/^listening on [0-9A-F]*:\([0-9A-F]*\):.*/\1/p' "$TMP/l2.err")
out=$(timeout -k 2 10 "$BIN" ping "0000AA02:$NODE2" -c 3 -i 0.2 -W 1 --hub "$H1" 2>&1); rc=$?
[ $rc = 0 ] && [ "$(grep -c "bytes from 0000AA02:$NODE2:9086: id=[123] hops=1 time=" <<<"$out")" = 3 ] &&
	grep -q "3 sent, 3 received, 0% loss" <<<"$out" && grep -q "rtt min/avg/max/p99 = " <<<"$out" &&
	pass "ping ADDR crosses the router, hops=1, with min/avg/max/p99" || fail "ping ADDR crosses the router, hops=1, with min/avg/max/p99" "rc=$rc" "$out"
out=$(timeout -k 2 10 "$BIN" ping "0000AA02:0200DEADBEEF" -c 1 -W 0.5 --hub "$H1" 2>&1); rc=$?
[ $rc = 1 ] && grep -q "1 sent, 0 received, 100% loss" <<<"$out" &&
	pass "ping of nobody: 100% loss, exit 1" || fail "ping of nobody: 100% loss, exit 1" "rc=$rc" "$out"

# --- routes and diag --------------------------------------------------------------
out=$(timeout -k 2 10 "$BIN" routes --hub "$H1" 2>&1); rc=$?
[ $rc = 0 ] && grep -q "^this network is 0000AA01$" <<<"$out" &&
	grep -Eq "^0000AA02 +1 +1  0000AA01:7F000001[0-9A-F]{4}$" <<<"$out" &&
	pass "routes shows AA02 one hop away via the router" || fail "routes shows AA02 one hop away via the router" "rc=$rc" "$out"
out=$(timeout -k 2 10 "$BIN" diag --hub "$H2" 2>&1); rc=$?
[ $rc = 0 ] && grep -q "diagnostics 1.0" <<<"$out" && grep -q "bridge driver" <<<"$out" &&
	grep -q "network 0000AA01 node" <<<"$out" && grep -q "diagnostics 1.1" <<<"$out" &&
	pass "diag --broadcast lists the router (both networks) and the listener" || fail "diag --broadcast lists the router (both networks) and the listener" "rc=$rc" "$out"

# --- SAP across the router -----------------------------------------------------------
timeout -k 2 30 "$BIN" advertise 4 LABFS1 451 --hub "$H2" 2>"$TMP/adv.err" & ADV=$!; PIDS+=($ADV)
wait_for "$TMP/adv.err" "advertising" || fail "advertise starts" "$(cat "$TMP/adv.err")"
grep -q "advertising 0x0004 LABFS1 at 0000AA02:7F000001[0-9A-F]*:0451" "$TMP/adv.err" &&
	pass "advertise learns its network before advertising" || fail "advertise learns its network before advertising" "$(cat "$TMP/adv.err")"
sleep 0.3
out=$(timeout -k 2 10 "$BIN" slist --hub "$H1" 2>&1); rc=$?
[ $rc = 0 ] && grep -Eq "^LABFS1 +0000AA02  7F000001[0-9A-F]{4}  Default$" <<<"$out" &&
	grep -q "Total of 1 file server found" <<<"$out" &&
	pass "slist finds the server across the router" || fail "slist finds the server across the router" "rc=$rc" "$out"
out=$(timeout -k 2 10 "$BIN" sap --type 4 --hub "$H1" 2>&1); rc=$?
[ $rc = 0 ] && grep -Eq "^0x0004 LABFS1 +0000AA02:7F000001[0-9A-F]{4}:0451    2  file server$" <<<"$out" &&
	pass "sap --type 4 shows it two hops away" || fail "sap --type 4 shows it two hops away" "rc=$rc" "$out"
kill -USR1 $RPID
wait_for "$TMP/router.log" "LABFS1" 30 && grep -q "^0000AA02 .* attached" "$TMP/router.log" &&
	grep -q "^forwarded [1-9]" "$TMP/router.log" &&
	pass "SIGUSR1 prints the router's routes, services and counters" || fail "SIGUSR1 prints the router's routes, services and counters" "$(tail -40 "$TMP/router.log")"
kill $ADV; wait $ADV 2>/dev/null
sleep 0.3
out=$(timeout -k 2 10 "$BIN" sap --hub "$H1" -W 0.5 2>&1); rc=$?
[ $rc = 1 ] && ! grep -q LABFS1 <<<"$out" &&
	pass "a stopped service vanishes at once" || fail "a stopped service vanishes at once" "rc=$rc" "$out"

# --- the router goes down ------------------------------------------------------------
kill $RPID; wait $ROUTER 2>/dev/null
grep -q "routes and services go down" "$TMP/router.log" && pass "router stops cleanly on SIGTERM" || fail "router stops cleanly on SIGTERM" "$(tail -5 "$TMP/router.log")"
out=$(timeout -k 2 10 "$BIN" routes --hub "$H1" -W 0.3 2>&1); rc=$?
[ $rc = 1 ] && grep -q "0 answers" <<<"$out" && pass "no router, no routes (exit 1)" || fail "no router, no routes (exit 1)" "rc=$rc" "$out"

echo "routing test took $((SECONDS - start)) s"
finish
