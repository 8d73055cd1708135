#!/usr/bin/env bash
# cli_test.sh [IPXLAB] - end-to-end tests of the ipxlab commands as a user
# runs them: real processes on loopback (a hub, listeners, senders, ping),
# configuration refusals, and clear errors for bad input.
# Prints PASS:/FAIL: per check; exits nonzero if any check failed.
set -u
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"
use_build "${1:-}"
need_exe "$BIN"
make_tmp cli

# --- help and usage ---------------------------------------------------------
out=$("$BIN" --help)
ok=1
for c in hub listen send ping config demo bench; do
	grep -q "^  $c " <<<"$out" || ok=0
	"$BIN" "$c" --help >/dev/null 2>&1 || ok=0
done
[ $ok = 1 ] && pass "help lists every command and each has --help" || fail "help lists every command and each has --help"
"$BIN" frobnicate >/dev/null 2>&1; [ $? = 2 ] && pass "unknown command exits 2" || fail "unknown command exits 2"
"$BIN" help nope >/dev/null 2>"$TMP/e"; rc=$?
[ $rc = 2 ] && grep -q "unknown command 'nope'" "$TMP/e" &&
	pass "help for an unknown command exits 2 and says so" || fail "help for an unknown command exits 2 and says so" "rc=$rc $(cat "$TMP/e")"
out=$("$BIN" --help)
grep -Eq '^  advertise  +[a-z]' <<<"$out" && ! grep -q 'advertise  *advertise' <<<"$out" &&
	pass "the command list keeps a column after the longest name (advertise) and does not repeat it" ||
	fail "the command list keeps a column after the longest name (advertise) and does not repeat it" "$(grep advertise <<<"$out")"
# A bad option: getopt's words, naming the command (opterr is 0; each
# command says it), exit 2, the usage line; for every command.
bad=
for c in $(sed -n '/^commands:/,/^$/s/^  \([a-z][a-z0-9]*\) .*/\1/p' <<<"$out"); do
	case $c in
	bench) continue ;;	# (each verb's, below)
	spx) pre=(spx listen) ;;
	netbios) pre=(netbios add X) ;;
	*) pre=("$c") ;;
	esac
	timeout 5 "$BIN" "${pre[@]}" --frob </dev/null >/dev/null 2>"$TMP/e"; rc=$?
	{ [ $rc = 2 ] && [ "$(head -1 "$TMP/e")" = "ipxlab $c: unrecognized option '--frob'" ] &&
		grep -q "^usage: ipxlab $c" "$TMP/e"; } || bad+=" $c(rc=$rc: $(head -1 "$TMP/e"))"
	timeout 5 "$BIN" "${pre[@]}" -Z </dev/null >/dev/null 2>"$TMP/e"; rc=$?
	{ [ $rc = 2 ] && [ "$(head -1 "$TMP/e")" = "ipxlab $c: invalid option -- 'Z'" ]; } ||
		bad+=" $c-Z(rc=$rc: $(head -1 "$TMP/e"))"
done
for v in $("$BIN" help bench | head -1 | sed 's/^usage: ipxlab bench//' | grep -oE '[a-z][a-z0-9]*' | grep -vx options); do
	timeout 5 "$BIN" bench "$v" --frob </dev/null >/dev/null 2>"$TMP/e"; rc=$?
	{ [ $rc = 2 ] && [ "$(head -1 "$TMP/e")" = "ipxlab bench $v: unrecognized option '--frob'" ]; } ||
		bad+=" bench-$v(rc=$rc: $(head -1 "$TMP/e"))"
done
[ -z "$bad" ] && pass "every command refuses a bad option as 'ipxlab CMD: ...'" ||
	fail "every command refuses a bad option as 'ipxlab CMD: ...'" "$bad"
err=$("$BIN" hub --port 2>&1); rc=$?
[ $rc = 2 ] && [ "$(head -1 <<<"$err")" = "ipxlab hub: option '--port' requires an argument" ] &&
	pass "a missing option value is named with the command" || fail "a missing option value is named with the command" "rc=$rc $err"
err=$("$BIN" ping -c 2>&1); rc=$?
[ $rc = 2 ] && [ "$(head -1 <<<"$err")" = "ipxlab ping: option requires an argument -- 'c'" ] &&
	pass "a missing short option value is named with the command" || fail "a missing short option value is named with the command" "rc=$rc $err"
err=$("$BIN" stack --s 2>&1); rc=$?
[ $rc = 2 ] && [ "$(head -1 <<<"$err")" = "ipxlab stack: option '--s' is ambiguous" ] &&
	pass "an ambiguous abbreviation is named" || fail "an ambiguous abbreviation is named" "rc=$rc $err"

# --- configuration -----------------------------------------------------------
printf 'IPX SOCKETS = 40\nnetbios internet = on\n' >"$TMP/good.cfg"
out=$("$BIN" config "$TMP/good.cfg")
grep -q "^IPX SOCKETS  *40  *$TMP/good.cfg:1$" <<<"$out" &&
	grep -q "^NETBIOS BROADCAST COUNT  *4  *default (NETBIOS INTERNET = ON)$" <<<"$out" &&
	grep -q "^SPX ABORT TIMEOUT  *540 ticks" <<<"$out" &&
	pass "config prints values and origins" || fail "config prints values and origins" "$out"
printf '; ok\nSPX CONNECTIONS = 200\n' >"$TMP/bad.cfg"
err=$("$BIN" config "$TMP/bad.cfg" 2>&1); rc=$?
[ $rc = 1 ] && grep -q "$TMP/bad.cfg:2: SPX CONNECTIONS = 200 is out of range: it must be 5 to 150" <<<"$err" &&
	pass "config refuses out-of-range with file:line" || fail "config refuses out-of-range with file:line" "rc=$rc $err"
printf 'IPATCH = 1234,5\n' >"$TMP/patch.cfg"
err=$("$BIN" config "$TMP/patch.cfg" 2>&1)
grep -q "patch.cfg:1: IPATCH patches" <<<"$err" && pass "IPATCH refused" || fail "IPATCH refused" "$err"
# A node refuses to start at all on a bad configuration.
err=$("$BIN" listen --config "$TMP/bad.cfg" --hub 127.0.0.1:9 --wait 5 2>&1); rc=$?
[ $rc = 1 ] && grep -q "bad.cfg:2:" <<<"$err" && ! grep -q listening <<<"$err" &&
	pass "a node with a bad SHELL.CFG starts nothing" || fail "a node with a bad SHELL.CFG starts nothing" "rc=$rc $err"

# --- bad arguments -----------------------------------------------------------
"$BIN" send nonsense </dev/null >/dev/null 2>"$TMP/e"; rc=$?
[ $rc = 2 ] && grep -q "not an IPX address" "$TMP/e" && pass "send refuses a bad address" || fail "send refuses a bad address" "$(cat "$TMP/e")"
"$BIN" hub --bind 1.2.3 >/dev/null 2>"$TMP/e"; rc=$?
[ $rc = 2 ] && grep -q "IPv4 address" "$TMP/e" && pass "hub refuses a bad --bind" || fail "hub refuses a bad --bind"
"$BIN" hub --port 70000 >/dev/null 2>"$TMP/e"; [ $? = 2 ] && pass "hub refuses a bad --port" || fail "hub refuses a bad --port"
"$BIN" bridge foo:1 hub:127.0.0.1:9 >/dev/null 2>"$TMP/e"; rc=$?
[ $rc = 2 ] && grep -q "side A: 'foo:1': unknown kind 'foo' (hub:\[ADDR:\]PORT, tunnel:HOST\[:PORT\] or eth:IFACE)" "$TMP/e" &&
	pass "bridge refuses an unknown side kind, naming all three (tunnel too)" ||
	fail "bridge refuses an unknown side kind, naming all three (tunnel too)" "rc=$rc $(cat "$TMP/e")"
"$BIN" listen zz --hub 127.0.0.1:9 >/dev/null 2>"$TMP/e"; [ $? = 2 ] && pass "listen refuses a bad socket" || fail "listen refuses a bad socket"
"$BIN" listen --hub "127.0.0.1:99999" >/dev/null 2>"$TMP/e"; rc=$?
[ $rc = 2 ] && grep -q "port must be" "$TMP/e" && pass "a bad --hub port is refused" || fail "a bad --hub port is refused" "$(cat "$TMP/e")"
# Nobody there: a clear message, not a hang.
P0=$(free_port)
start=$SECONDS
"$BIN" listen --hub 127.0.0.1:$P0 --wait 0.6 >/dev/null 2>"$TMP/e"; rc=$?
[ $rc = 1 ] && grep -q "no answer from an IPX tunnel server at 127.0.0.1:$P0" "$TMP/e" && [ $((SECONDS - start)) -le 5 ] &&
	pass "no hub: clear error within the wait" || fail "no hub: clear error within the wait" "rc=$rc $(cat "$TMP/e")"

# A hub that is a segment of a link profile says which at start.
P1=$(free_port)
timeout 10 "$BIN" hub --bind 127.0.0.1 --port "$P1" --profile eth10 2>"$TMP/phub.log" & PIDS+=($!); PH=$!
wait_for "$TMP/phub.log" "listening on 127.0.0.1:$P1"
sleep 0.1; kill $PH 2>/dev/null; wait $PH 2>/dev/null
grep -q "^hub: one segment of profile eth10: 10 Mbit/s$" "$TMP/phub.log" &&
	pass "hub --profile eth10 names its profile at start" || fail "hub --profile eth10 names its profile at start" "$(cat "$TMP/phub.log")"

# --- a live network ------------------------------------------------------------
P=$(free_port)
"$BIN" hub --bind 127.0.0.1 --port "$P" --keepalive 0.2 --idle-timeout 1 2>"$TMP/hub.log" &
PIDS+=($!); HUB=$!
wait_for "$TMP/hub.log" "listening on 127.0.0.1:$P" || fail "hub starts" "$(cat "$TMP/hub.log")"
# A second hub on the same port is refused clearly.
"$BIN" hub --bind 127.0.0.1 --port "$P" 2>"$TMP/e" & p2=$!
sleep 0.3
if kill -0 $p2 2>/dev/null; then kill $p2; fail "second hub on a taken port is refused"
else grep -q "cannot serve on 127.0.0.1:$P" "$TMP/e" && pass "second hub on a taken port is refused" || fail "second hub on a taken port is refused" "$(cat "$TMP/e")"; fi

"$BIN" listen 4545 --hub 127.0.0.1:$P -c 3 -t 10 >"$TMP/l1.out" 2>"$TMP/l1.err" & PIDS+=($!); L1=$!
"$BIN" listen 4545 --hub 127.0.0.1:$P -c 1 -t 10 >"$TMP/l2.out" 2>"$TMP/l2.err" & PIDS+=($!); L2=$!
wait_for "$TMP/l1.err" "listening on" && wait_for "$TMP/l2.err" "listening on"
A1=$(sed -n 's/^listening on //p' "$TMP/l1.err")
A2=$(sed -n 's/^listening on //p' "$TMP/l2.err")
[[ $A1 =~ ^00000000:7F000001[0-9A-F]{4}:4545$ ]] && pass "listen prints its address (IP+port node)" || fail "listen prints its address (IP+port node)" "$A1"

# ping: both listeners answer.
out=$("$BIN" ping --hub 127.0.0.1:$P -c 2 -i 0.2 -W 0.3 2>&1); rc=$?
n=$(grep -c "^reply from" <<<"$out")
[ $rc = 0 ] && [ "$n" -ge 4 ] && grep -q "replies from 2 nodes" <<<"$out" && pass "ping gets answers from every node" || fail "ping gets answers from every node" "$out"

# The hub can come from the environment instead of --hub.
out=$(IPXLAB_HUB=127.0.0.1:$P "$BIN" ping -c 1 -W 0.3 2>&1); rc=$?
[ $rc = 0 ] && grep -q "replies from 2 nodes" <<<"$out" && pass "IPXLAB_HUB names the hub" || fail "IPXLAB_HUB names the hub" "$out"

# unicast with an over-long line in the middle: the others still go, exit 1.
long=$(head -c 2000 /dev/zero | tr '\0' x)
printf 'first\n%s\nthird \001\n' "$long" | "$BIN" send "$A1" --hub 127.0.0.1:$P 2>"$TMP/send.err"; rc=$?
# broadcast to both
BC=$(sed 's/:[0-9A-F]*:/:FFFFFFFFFFFF:/' <<<"$A1")
echo "to all" | "$BIN" send "$BC" --hub 127.0.0.1:$P 2>>"$TMP/send.err"
wait "$L1"; r1=$?
wait "$L2"; r2=$?
[ $rc = 1 ] && grep -q "line 2 is longer than the 1394 bytes" "$TMP/send.err" &&
	pass "an over-long line is refused by number" || fail "an over-long line is refused by number" "rc=$rc $(cat "$TMP/send.err")"
[ $r1 = 0 ] && sed -n 1p "$TMP/l1.out" | grep -q "^00000000:7F000001[0-9A-F]*:4[0-9A-F]* first$" &&
	sed -n 2p "$TMP/l1.out" | grep -q ' third \\x01$' && sed -n 3p "$TMP/l1.out" | grep -q ' to all$' &&
	pass "unicast lines arrive in order with their source" || fail "unicast lines arrive in order with their source" "$(cat "$TMP/l1.out")"
[ $r2 = 0 ] && grep -q ' to all$' "$TMP/l2.out" && [ "$(wc -l <"$TMP/l2.out")" = 1 ] &&
	pass "broadcast reaches the other listener only once" || fail "broadcast reaches the other listener only once" "$(cat "$TMP/l2.out")"

# listen --timeout: exit 1 and say how many arrived.
"$BIN" listen --hub 127.0.0.1:$P -c 2 -t 0.5 >/dev/null 2>"$TMP/e"; rc=$?
[ $rc = 1 ] && grep -q "timed out after 0 of 2" "$TMP/e" && pass "listen times out with exit 1" || fail "listen times out with exit 1" "$(cat "$TMP/e")"

# The listeners are gone: the hub pings them, then forgets them.
wait_for "$TMP/hub.log" "idle timeout" 40 && pass "silent clients leave after the idle timeout" || fail "silent clients leave after the idle timeout" "$(tail -5 "$TMP/hub.log")"
kill -USR1 $HUB; sleep 0.3
grep -q "^keepalives [1-9]" "$TMP/hub.log" && grep -q "^unicasts [1-9]" "$TMP/hub.log" && grep -q "^drop_forged_source 0" "$TMP/hub.log" &&
	pass "SIGUSR1 prints the hub's counters" || fail "SIGUSR1 prints the hub's counters" "$(tail -20 "$TMP/hub.log")"
# One node, one request: the summary's counts in the singular.
"$BIN" listen --hub 127.0.0.1:$P -t 10 >/dev/null 2>"$TMP/l3.err" & PIDS+=($!); L3=$!
wait_for "$TMP/l3.err" "listening on"
out=$("$BIN" ping --hub 127.0.0.1:$P -c 1 -W 0.5 2>&1); rc=$?
kill $L3 2>/dev/null; wait $L3 2>/dev/null
[ $rc = 0 ] && grep -q "^1 request, 1 reply from 1 node, rtt" <<<"$out" &&
	pass "ping's summary says 1 request, 1 reply from 1 node" || fail "ping's summary says 1 request, 1 reply from 1 node" "$out"
kill $HUB; wait $HUB 2>/dev/null
grep -q "hub: stopping" "$TMP/hub.log" && pass "hub stops cleanly on SIGTERM" || fail "hub stops cleanly on SIGTERM"

# The demo works end to end.
out=$(timeout 20 "$BIN" demo -c 3); rc=$?
[ $rc = 0 ] && grep -q "3 of 3 datagrams echoed" <<<"$out" && pass "demo exchanges datagrams" || fail "demo exchanges datagrams" "$out"
out=$(timeout 60 "$BIN" bench copy --sim -n 1 -q 2>&1); rc=$?
out2=$(timeout 60 "$BIN" bench arrival --sim -n 1 --stations 1 -q 2>&1); rc2=$?
[ $rc = 0 ] && [ $rc2 = 0 ] && grep -q "1 consecutive copy per size$" <<<"$out" && grep -q "at once, 1 transfer$" <<<"$out2" &&
	pass "bench copy and arrival name one copy and one transfer in the singular" ||
	fail "bench copy and arrival name one copy and one transfer in the singular" "rc=$rc $(head -1 <<<"$out")" "rc=$rc2 $(head -1 <<<"$out2")"
out=$(timeout 20 "$BIN" demo -c 1); rc=$?
[ $rc = 0 ] && grep -q "^1 of 1 datagram echoed" <<<"$out" && pass "demo counts one datagram in the singular" || fail "demo counts one datagram in the singular" "$out"

# The benchmark runs and reports its ratio (a smoke test: no speed target).
out=$(timeout 60 "$BIN" bench hub -s 0.3 -w 0.1 -r 1 --json 2>&1); rc=$?
[ $rc = 0 ] && grep -q '"ratio"' <<<"$out" && pass "bench hub runs and reports a ratio" || fail "bench hub runs and reports a ratio" "$out"
"$BIN" bench hub --window -1 >/dev/null 2>&1; [ $? = 2 ] && pass "bench refuses a bad option" || fail "bench refuses a bad option"

finish
