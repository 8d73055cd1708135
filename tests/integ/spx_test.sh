#!/usr/bin/env bash
# spx_test.sh [IPXLAB] - end-to-end tests of `ipxlab spx` over a real hub on
# loopback: files cross byte-identical over SPX II and SPX I, both ways at
# once with each input ending at its own time, --disconnect-at-eof for a
# peer that waits for our disconnect, a busy listener refuses a
# second caller at once, SIGINT/SIGTERM on either side ends the peer at
# once, a connect to nobody fails clearly, and a peer killed mid-transfer
# ends the session within the abort timeout set in SHELL.CFG.
set -u
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"
use_build "${1:-}"
need_exe "$BIN"
make_tmp spx

start_hub
head -c 2000000 /dev/urandom >"$TMP/in.bin"

# transfer NAME LISTEN-OPTIONS: the listener writes what arrives to a file
transfer() {
	local name=$1; shift
	rm -f "$TMP/l.err" "$TMP/out.bin"
	timeout 30 "$BIN" spx listen 5100 --hub "$HUB" "$@" >"$TMP/out.bin" 2>"$TMP/l.err" </dev/null & local l=$!
	PIDS+=($l)
	wait_for "$TMP/l.err" "listening on" || { fail "$name: listener starts" "$(cat "$TMP/l.err")"; return; }
	local addr; addr=$(sed -n 's/^listening on //p' "$TMP/l.err")
	timeout 30 "$BIN" spx connect "$addr" --hub "$HUB" --stats <"$TMP/in.bin" 2>"$TMP/c.err"; local rc=$?
	wait $l; local lrc=$?
	if [ $rc = 0 ] && [ $lrc = 0 ] && cmp -s "$TMP/in.bin" "$TMP/out.bin"; then
		pass "$name: 2 MB arrive byte-identical, both ends exit 0 ($(grep -o 'version [12], [0-9]*-byte packets' "$TMP/c.err"))"
	else
		fail "$name" "connect rc=$rc listen rc=$lrc" "$(cat "$TMP/c.err" "$TMP/l.err")" "$(cmp "$TMP/in.bin" "$TMP/out.bin" 2>&1)"
	fi
}
transfer "SPX II"
grep -q "version 2, 1380-byte packets" "$TMP/c.err" && pass "SPX II negotiates the tunnel's packet size" || fail "SPX II negotiates the tunnel's packet size" "$(cat "$TMP/c.err")"
transfer "SPX I (the listener offers SPX I only)" --spx1
grep -q "version 1, 534-byte packets" "$TMP/c.err" && pass "an SPX II caller falls back to SPX I" || fail "an SPX II caller falls back to SPX I" "$(cat "$TMP/c.err")"

# Both directions at once, each input ending at its own time (2 MB from
# the listener, 5 MB from the caller): each end's end of input is an
# orderly release, so neither loses what the other still sends.
head -c 5000000 /dev/urandom >"$TMP/5m.bin"
sha() { sha256sum <"$1" | cut -d' ' -f1; }
both_ways() {
	local name=$1 port=$2; shift 2
	rm -f "$TMP/l2.err" "$TMP/got5.bin" "$TMP/got2.bin"
	timeout 60 "$BIN" spx listen "$port" --hub "$HUB" "$@" <"$TMP/in.bin" >"$TMP/got5.bin" 2>"$TMP/l2.err" & local l=$!
	PIDS+=($l)
	wait_for "$TMP/l2.err" "listening on" || { fail "$name: listener starts" "$TMP/l2.err"; return; }
	local addr; addr=$(sed -n 's/^listening on //p' "$TMP/l2.err")
	timeout 60 "$BIN" spx connect "$addr" --hub "$HUB" <"$TMP/5m.bin" >"$TMP/got2.bin" 2>"$TMP/c2.err"; local rc=$?
	wait $l; local lrc=$?
	if [ $rc = 0 ] && [ $lrc = 0 ] && [ "$(sha "$TMP/5m.bin")" = "$(sha "$TMP/got5.bin")" ] &&
		[ "$(sha "$TMP/in.bin")" = "$(sha "$TMP/got2.bin")" ]; then
		pass "$name: 5 MB one way and 2 MB the other at once, sha256 equal on each side, both exit 0"
	else
		fail "$name: both directions at once" "connect rc=$rc listen rc=$lrc" \
			"listener got $(wc -c <"$TMP/got5.bin") of 5000000, caller got $(wc -c <"$TMP/got2.bin") of 2000000" \
			"$TMP/c2.err" "$TMP/l2.err"
	fi
}
both_ways "SPX II" 5101
both_ways "SPX I" 5106 --spx1

# --disconnect-at-eof: for a peer that waits for us (a receive-only peer
# whose input stays open, as ipxcat -l): the caller disconnects once its
# 2 MB are acknowledged and exits 0; the listener has them all, and exits
# 1 (its own input had not ended).
mkfifo "$TMP/open"
exec 6<>"$TMP/open"
rm -f "$TMP/d.err"
timeout 30 "$BIN" spx listen 5102 --hub "$HUB" <"$TMP/open" >"$TMP/d.out" 2>"$TMP/d.err" & l=$!; PIDS+=($l)
wait_for "$TMP/d.err" "listening on"
addr=$(sed -n 's/^listening on //p' "$TMP/d.err")
timeout 30 "$BIN" spx connect "$addr" --hub "$HUB" --disconnect-at-eof <"$TMP/in.bin" 2>"$TMP/dc.err"; rc=$?
wait $l; lrc=$?
exec 6>&-
[ $rc = 0 ] && [ $lrc = 1 ] && cmp -s "$TMP/in.bin" "$TMP/d.out" && grep -q "session closed by our disconnect" "$TMP/dc.err" &&
	grep -q "session ended by the peer before our input ended" "$TMP/d.err" &&
	pass "--disconnect-at-eof: 2 MB through, the caller disconnects and exits 0" ||
	fail "--disconnect-at-eof" "connect rc=$rc listen rc=$lrc" "$(cat "$TMP/dc.err" "$TMP/d.err")"

# A busy listener refuses a second caller at once, and says so.
mkfifo "$TMP/hold"
exec 7<>"$TMP/hold"	# (open both ways: never an end of input)
"${WITH_SIGINT[@]}" "$BIN" spx listen 5103 --hub "$HUB" <"$TMP/hold" >/dev/null 2>"$TMP/l4.err" & l=$!; PIDS+=($l)
wait_for "$TMP/l4.err" "listening on"
addr=$(sed -n 's/^listening on //p' "$TMP/l4.err")
"${WITH_SIGINT[@]}" "$BIN" spx connect "$addr" --hub "$HUB" <"$TMP/hold" >/dev/null 2>"$TMP/c4.err" & c=$!; PIDS+=($c)
wait_for "$TMP/l4.err" "session from" 30
start=$(date +%s%N)
timeout 20 "$BIN" spx connect "$addr" --hub "$HUB" </dev/null >/dev/null 2>"$TMP/c5.err"; rc=$?
ms=$((($(date +%s%N) - start) / 1000000))
[ $rc = 1 ] && grep -q "connect: refused: the listener is busy" "$TMP/c5.err" && ! grep -q "^connected" "$TMP/c5.err" &&
	[ $ms -lt 1500 ] && pass "a second caller to a busy listener is refused at once (${ms} ms)" ||
	fail "a second caller to a busy listener is refused at once" "rc=$rc after ${ms} ms" "$TMP/c5.err"

# SIGINT on the caller: it says what it sent, exits 1, and the listener
# hears the disconnect at once (not after its 30 s watchdog).
printf 'hello\n' >&7
sleep 0.3
kill -INT $c
start=$(date +%s%N)
gone_within $c 30 && { wait $c; rc=$?; } || rc=running
gone_within $l 30 && { wait $l; lrc=$?; } || lrc=running
ms=$((($(date +%s%N) - start) / 1000000))
[ $rc = 1 ] && grep -Eq "interrupted: sent [0-9]+ bytes \([0-9]+ acknowledged\), received [0-9]+; disconnect sent" "$TMP/c4.err" &&
	[ "$lrc" = 1 ] && grep -q "session ended by the peer before our input ended" "$TMP/l4.err" && [ $ms -lt 1500 ] &&
	pass "SIGINT on spx connect: disconnect sent, the listener ends at once (${ms} ms)" ||
	fail "SIGINT on spx connect" "caller rc=$rc listener rc=$lrc after ${ms} ms" "$TMP/c4.err" "$TMP/l4.err"

# SIGTERM, then SIGINT, on the listener: the caller ends at once.
for sig in TERM INT; do
	rm -f "$TMP/l6.err" "$TMP/c6.err"	# the last round's lines must not be read as this one's
	"${WITH_SIGINT[@]}" "$BIN" spx listen 5104 --hub "$HUB" <"$TMP/hold" >/dev/null 2>"$TMP/l6.err" & l=$!; PIDS+=($l)
	wait_for "$TMP/l6.err" "listening on"
	addr=$(sed -n 's/^listening on //p' "$TMP/l6.err")
	"$BIN" spx connect "$addr" --hub "$HUB" <"$TMP/hold" >/dev/null 2>"$TMP/c6.err" & c=$!; PIDS+=($c)
	wait_for "$TMP/l6.err" "session from" 30
	# the caller too must know the session is open, or the disconnect
	# reaches it as a refused connect
	wait_for "$TMP/c6.err" "connected" 30
	kill -$sig $l
	start=$(date +%s%N)
	gone_within $l 30 && { wait $l; lrc=$?; } || lrc=running
	gone_within $c 30 && { wait $c; rc=$?; } || rc=running
	ms=$((($(date +%s%N) - start) / 1000000))
	[ $lrc = 1 ] && grep -q "interrupted: sent 0 bytes (0 acknowledged), received 0; disconnect sent" "$TMP/l6.err" &&
		[ "$rc" = 1 ] && grep -q "session ended" "$TMP/c6.err" && [ $ms -lt 1500 ] &&
		pass "SIG$sig on spx listen: disconnect sent, the caller ends at once (${ms} ms)" ||
		fail "SIG$sig on spx listen" "listener rc=$lrc caller rc=$rc after ${ms} ms" "$TMP/l6.err" "$TMP/c6.err"
done
exec 7>&-

# Nobody listening: a clear error, bounded by --connect-timeout.
start=$SECONDS
out=$(timeout 20 "$BIN" spx connect 00000000:7F0000010001:5555 --hub "$HUB" --connect-timeout 1 </dev/null 2>&1); rc=$?
[ $rc = 1 ] && grep -q "connect: timed out" <<<"$out" && [ $((SECONDS - start)) -le 4 ] &&
	pass "connect to nobody fails clearly within its timeout" || fail "connect to nobody fails clearly within its timeout" "rc=$rc $out"
"$BIN" spx connect 00000000:FFFFFFFFFFFF:5555 --hub "$HUB" </dev/null >/dev/null 2>&1; [ $? = 2 ] &&
	pass "connect refuses a broadcast address" || fail "connect refuses a broadcast address"
"$BIN" spx dance >/dev/null 2>&1; [ $? = 2 ] && pass "unknown spx mode exits 2" || fail "unknown spx mode exits 2"

# A peer killed mid-session: the watchdog ends it within SPX ABORT TIMEOUT.
printf 'SPX LISTEN TIMEOUT = 9\nSPX VERIFY TIMEOUT = 9\nSPX ABORT TIMEOUT = 36 ; about 2 s\n' >"$TMP/shell.cfg"
# (No timeout wrapper here: the kill must reach ipxlab itself.)
"$BIN" spx listen 5102 --hub "$HUB" --config "$TMP/shell.cfg" >/dev/null 2>"$TMP/l3.err" </dev/null & l=$!; PIDS+=($l)
wait_for "$TMP/l3.err" "listening on"
addr=$(sed -n 's/^listening on //p' "$TMP/l3.err")
(echo hello; sleep 6) | timeout 30 "$BIN" spx connect "$addr" --hub "$HUB" --config "$TMP/shell.cfg" >/dev/null 2>"$TMP/c3.err" & c=$!
PIDS+=($c)
wait_for "$TMP/l3.err" "session from" 30
sleep 0.5
kill -9 $l; wait $l 2>/dev/null
start=$(date +%s%N)
# (wait would also wait for the sleep feeding the caller's input)
wait_for "$TMP/c3.err" "session ended" 100
el=$((($(date +%s%N) - start) / 100000000))
el="$((el / 10)).$((el % 10))"
grep -q "connection aborted" "$TMP/c3.err" && [ "${el%.*}" -lt 5 ] &&
	pass "a killed peer is detected within the abort timeout (${el} s)" || fail "a killed peer is detected within the abort timeout" "after ${el}s: $(cat "$TMP/c3.err")"

finish
