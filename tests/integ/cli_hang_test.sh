#!/usr/bin/env bash
# cli_hang_test.sh [IPXLAB] - commands that must end, and say exactly what
# happened, when their input or the network is not the usual one: stdin
# that epoll cannot watch (/dev/null, a regular file), a ping reply later
# than -W, capture -c on a hub, the wait for a hub that is not there, and
# the small refusals and rules of issue 11 (advertise socket 0, router
# links, listen/netbios recv -t without -c, -v, error prefixes).
# Prints PASS:/FAIL: per check; exits nonzero if any check failed.
set -u
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"
use_build "${1:-}"
need_exe "$BIN"
need_cmd python3 timeout
make_tmp clihang
start_hub
HERE=$(cd "$(dirname "$0")" && pwd)

# --- stdin epoll refuses -------------------------------------------------------
"$BIN" listen 4546 --hub "$HUB" -c 1 -t 10 >"$TMP/l.out" 2>"$TMP/l.err" & PIDS+=($!); L=$!
wait_for "$TMP/l.err" "listening on" || fail "listen starts" "$(cat "$TMP/l.err")"
LA=$(sed -n 's/^listening on //p' "$TMP/l.err")
timeout 10 "$BIN" send "$LA" --hub "$HUB" </dev/null 2>"$TMP/e"; rc=$?
[ $rc = 0 ] && pass "send </dev/null ends at once (exit 0)" || fail "send </dev/null ends at once (exit 0)" "rc=$rc $(cat "$TMP/e")"
printf 'from a file\n' >"$TMP/in.txt"
timeout 10 "$BIN" send "$LA" --hub "$HUB" <"$TMP/in.txt" 2>"$TMP/e"; rc=$?
wait "$L"; lrc=$?
[ $rc = 0 ] && [ $lrc = 0 ] && grep -q ' from a file$' "$TMP/l.out" &&
	pass "send reads a regular file on stdin" || fail "send reads a regular file on stdin" "rc=$rc listen=$lrc $(cat "$TMP/e" "$TMP/l.out")"
timeout 10 "$BIN" netbios send LABNAME --hub "$HUB" </dev/null >/dev/null 2>"$TMP/e"; rc=$?
[ $rc != 124 ] && pass "netbios send </dev/null ends" || fail "netbios send </dev/null ends" "rc=$rc $(cat "$TMP/e")"
"$BIN" spx listen 5011 --hub "$HUB" </dev/null >"$TMP/spx.out" 2>"$TMP/spx.err" & PIDS+=($!); S=$!
wait_for "$TMP/spx.err" "listening on" || fail "spx listen starts" "$(cat "$TMP/spx.err")"
SA=$(sed -n 's/^listening on //p' "$TMP/spx.err")
printf 'spx line\n' >"$TMP/spx.in"
timeout 20 "$BIN" spx connect "$SA" --hub "$HUB" <"$TMP/spx.in" >/dev/null 2>"$TMP/e"; rc=$?
timeout 20 tail --pid="$S" -f /dev/null; wait "$S"; src=$?
[ $rc = 0 ] && [ $src = 0 ] && cmp -s "$TMP/spx.in" "$TMP/spx.out" &&
	pass "spx with a file and /dev/null as stdin ends with the data" || fail "spx with a file and /dev/null as stdin ends with the data" "rc=$rc listen=$src $(cat "$TMP/e" "$TMP/spx.err")"

out=$(timeout 15 python3 "$HERE/tty_flags.py" "$BIN" "$HUB" 00000000:FFFFFFFFFFFF:4549 2>&1)
[ "$out" = "rc=0 nonblock=no" ] && pass "send from a terminal leaves the terminal blocking at exit" || fail "send from a terminal leaves the terminal blocking at exit" "$out"

# --- ping: nothing after the summary -----------------------------------------------
# A forged reply comes 0.6 s after the pinger asks RIP for network 00000001
# (nobody routes it, so the request waits 1.5 s): after -W 0.2 has ended.
python3 "$HERE/late_pong.py" "${HUB##*:}" 4000 0.6 >"$TMP/pong.out" 2>&1 & PIDS+=($!)
wait_for "$TMP/pong.out" "^ready" || fail "late_pong.py registers" "$(cat "$TMP/pong.out")"
out=$(timeout 10 "$BIN" ping 00000001:020000000001 --hub "$HUB" -c 1 -W 0.2 2>&1); rc=$?
[ $rc = 1 ] && tail -1 <<<"$out" | grep -q "1 sent, 0 received, 100% loss" && ! grep -q "bytes from" <<<"$out" &&
	pass "ping: a reply after -W is not printed or counted (exit 1)" || fail "ping: a reply after -W is not printed or counted (exit 1)" "rc=$rc $out"

# --- capture: its own joining is not a packet; -c N is N lines --------------------
out=$(timeout 10 "$BIN" capture --hub "$HUB" -c 1 -s 1 2>"$TMP/e"); rc=$?
[ $rc = 0 ] && [ -z "$out" ] && pass "capture does not count its own registration" || fail "capture does not count its own registration" "rc=$rc $out $(cat "$TMP/e")"
timeout 10 "$BIN" capture --hub "$HUB" -c 2 -s 8 >"$TMP/cap.out" 2>"$TMP/cap.err" & C=$!
sleep 0.5
printf 'a\nb\nc\nd\n' | "$BIN" send 00000000:FFFFFFFFFFFF:4547 --hub "$HUB" 2>"$TMP/e"
wait "$C"; rc=$?
[ $rc = 0 ] && [ "$(wc -l <"$TMP/cap.out")" = 2 ] && pass "capture -c 2 prints 2 lines of a burst of 4" || fail "capture -c 2 prints 2 lines of a burst of 4" "rc=$rc $(cat "$TMP/cap.out" "$TMP/cap.err")"

# --- no hub: --wait exactly, one message, "waiting" only on a terminal ------------
P0=$(free_port)
for w in 0.6 1; do
	t0=$(date +%s%N)
	"$BIN" listen --hub 127.0.0.1:$P0 --wait $w >/dev/null 2>"$TMP/e"; rc=$?
	ms=$((($(date +%s%N) - t0) / 1000000))
	want=$(awk -v w=$w 'BEGIN { print w * 1000 }')
	[ $rc = 1 ] && [ "$(wc -l <"$TMP/e")" = 1 ] && [ $ms -ge "$want" ] && [ $ms -le $((want + 500)) ] &&
		grep -q "^ipxlab listen: no answer from an IPX tunnel server at 127.0.0.1:$P0 after $w s" "$TMP/e" &&
		pass "no hub, --wait $w: one message after ${want} ms (took $ms)" || fail "no hub, --wait $w: one message after ${want} ms (took $ms)" "rc=$rc $(cat "$TMP/e")"
done
if command -v script >/dev/null; then
	out=$(timeout 10 script -qec "'$BIN' ping -c 1 --hub 127.0.0.1:$P0 --wait 0.8" /dev/null 2>&1 | tr -d '\r')
	[ "$(grep -c "waiting up to 0.8 s (--wait) for the hub at 127.0.0.1:$P0" <<<"$out")" = 1 ] &&
		[ "$(grep -c "no answer" <<<"$out")" = 1 ] &&
		pass "no hub on a terminal: says once that it waits, then one message" || fail "no hub on a terminal: says once that it waits, then one message" "$out"
fi

# --- smaller refusals and rules ----------------------------------------------------
timeout 10 "$BIN" advertise 4 FS1 0 --hub "$HUB" >/dev/null 2>"$TMP/e"; rc=$?
[ $rc = 2 ] && grep -q "^ipxlab advertise: SOCKET must be 1 to 4 hex digits, not 0" "$TMP/e" &&
	pass "advertise refuses socket 0" || fail "advertise refuses socket 0" "rc=$rc $(cat "$TMP/e")"
timeout 10 "$BIN" router --link "hub:$HUB,net=AA01" >/dev/null 2>"$TMP/e"; rc=$?
[ $rc = 2 ] && grep -q "^ipxlab router: one --link is one network: a router needs two or more" "$TMP/e" &&
	pass "router refuses a single link" || fail "router refuses a single link" "rc=$rc $(cat "$TMP/e")"
timeout 10 "$BIN" router --link "hub:$HUB,net=AA01" --link "hub:localhost:${HUB##*:},net=AA02" >/dev/null 2>"$TMP/e"; rc=$?
[ $rc = 2 ] && grep -q "^ipxlab router: links 1 and 2 both join hub $HUB: a router joins each segment once" "$TMP/e" &&
	pass "router refuses two links to the same hub" || fail "router refuses two links to the same hub" "rc=$rc $(cat "$TMP/e")"
# -t without -c is a duration (exit 0) for listen and netbios recv alike;
# with -c, too few by then is exit 1 and says so.
"$BIN" listen 4548 --hub "$HUB" -t 0.3 >/dev/null 2>"$TMP/e"; r1=$?
"$BIN" netbios recv -b --hub "$HUB" -t 0.3 >/dev/null 2>"$TMP/e2"; r2=$?
[ $r1 = 0 ] && [ $r2 = 0 ] && ! grep -q "timed out" "$TMP/e" "$TMP/e2" &&
	pass "listen -t and netbios recv -t without -c: exit 0" || fail "listen -t and netbios recv -t without -c: exit 0" "listen=$r1 netbios=$r2 $(cat "$TMP/e" "$TMP/e2")"
"$BIN" listen 4548 --hub "$HUB" -c 2 -t 0.3 >/dev/null 2>"$TMP/e"; r1=$?
"$BIN" netbios recv -b --hub "$HUB" -c 2 -t 0.3 >/dev/null 2>"$TMP/e2"; r2=$?
[ $r1 = 1 ] && [ $r2 = 1 ] && grep -q "^ipxlab listen: timed out after 0 of 2 datagrams" "$TMP/e" &&
	grep -q "^ipxlab netbios: timed out after 0 of 2 datagrams" "$TMP/e2" &&
	pass "listen and netbios recv with -c: exit 1 with the count" || fail "listen and netbios recv with -c: exit 1 with the count" "listen=$r1 netbios=$r2 $(cat "$TMP/e" "$TMP/e2")"
printf 'SPX CONNECTIONS = 1x\n' >"$TMP/x.cfg"
"$BIN" config "$TMP/x.cfg" >/dev/null 2>"$TMP/e"; rc=$?
[ $rc = 1 ] && grep -q "SPX CONNECTIONS = 1X is not a whole decimal number: it must be 5 to 150" "$TMP/e" &&
	pass "config says what is wrong with a value in plain words" || fail "config says what is wrong with a value in plain words" "rc=$rc $(cat "$TMP/e")"
# One prefix for every command's errors: "ipxlab CMD: ".
ok=1; bad=
for c in listen send ping routes sap diag advertise netbios spx router; do
	case $c in
	send) args=(00000000:FFFFFFFFFFFF:4545) ;;
	advertise) args=(4 FS1 451) ;;
	netbios) args=(recv -b) ;;
	spx) args=(listen) ;;
	router) args=(--link "hub:$HUB,net=1" --link "hub:127.0.0.1:9,net=2") ;;
	*) args=() ;;
	esac
	if [ $c = router ]; then opt=(); else opt=(--hub "$HUB"); fi
	timeout 10 "$BIN" $c "${args[@]}" "${opt[@]}" --config "$TMP/x.cfg" </dev/null >/dev/null 2>"$TMP/e"
	head -1 "$TMP/e" | grep -q "^ipxlab $c: " || { ok=0; bad+="$c: $(head -1 "$TMP/e"); "; }
done
[ $ok = 1 ] && pass "errors start 'ipxlab CMD: ' for every node command" || fail "errors start 'ipxlab CMD: ' for every node command" "$bad"
# -v: the node's address on joining, its counters at exit.
echo hi | "$BIN" send 00000000:FFFFFFFFFFFF:4549 --hub "$HUB" -v 2>"$TMP/e"; rc=$?
[ $rc = 0 ] && grep -q "^ipxlab send: node 00000000:[0-9A-F]\{12\}:0000 on the hub at $HUB" "$TMP/e" &&
	grep -q "^ipxlab send: sent 1 packets" "$TMP/e" &&
	pass "-v prints the node, its hub and its counters" || fail "-v prints the node, its hub and its counters" "rc=$rc $(cat "$TMP/e")"
timeout 10 "$BIN" capture --hub "$HUB" -s 0.3 -v >/dev/null 2>"$TMP/e"; rc=$?
[ $rc = 0 ] && grep -q "^ipxlab capture: 0 packets recorded; link rx" "$TMP/e" &&
	pass "capture -v prints what it recorded" || fail "capture -v prints what it recorded" "rc=$rc $(cat "$TMP/e")"
# bench hub --pcap, as README promises for the benchmarks that start a hub.
timeout 60 "$BIN" bench hub -s 0.1 -w 0.05 -r 1 --pcap "$TMP/bh.pcap" >"$TMP/bh.out" 2>&1; rc=$?
size=$(stat -c %s "$TMP/bh.pcap" 2>/dev/null || echo 0)
[ $rc = 0 ] && [ "$size" -gt 10000 ] && grep -q "target >= 0.50: \(PASS\|MISS\)" "$TMP/bh.out" &&
	pass "bench hub --pcap records the hub ($size bytes), verdict PASS/MISS" || fail "bench hub --pcap records the hub ($size bytes), verdict PASS/MISS" "rc=$rc $(cat "$TMP/bh.out")"
if command -v tshark >/dev/null 2>&1; then
	n=$(tshark -r "$TMP/bh.pcap" -Y ipx 2>/dev/null | wc -l)
	[ "$n" -gt 100 ] && pass "tshark reads the bench hub capture as IPX ($n frames)" || fail "tshark reads the bench hub capture as IPX ($n frames)"
fi

finish
