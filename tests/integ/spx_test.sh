#!/usr/bin/env bash
# spx_test.sh [IPXLAB] - end-to-end tests of `ipxlab spx` over a real hub on
# loopback: files cross byte-identical over SPX II and SPX I, a connect to
# nobody fails clearly, and a peer killed mid-transfer ends the session
# within the abort timeout set in SHELL.CFG.
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

# Both directions at once: the listener sends too.
head -c 300000 /dev/urandom >"$TMP/back.bin"
# (SPX's disconnect closes both directions: the listener keeps its input
# open, so only the caller closes, after its own data.)
(cat "$TMP/back.bin"; sleep 3) | timeout 30 "$BIN" spx listen 5101 --hub "$HUB" >"$TMP/out2.bin" 2>"$TMP/l2.err" & l=$!; PIDS+=($l)
wait_for "$TMP/l2.err" "listening on"
addr=$(sed -n 's/^listening on //p' "$TMP/l2.err")
(sleep 0.5; cat "$TMP/in.bin") | timeout 30 "$BIN" spx connect "$addr" --hub "$HUB" >"$TMP/got.bin" 2>"$TMP/c2.err"; rc=$?
wait $l
cmp -s "$TMP/in.bin" "$TMP/out2.bin" && cmp -s "$TMP/back.bin" "$TMP/got.bin" && pass "data flows both ways in one session" ||
	fail "data flows both ways in one session" "rc=$rc $(cat "$TMP/c2.err" "$TMP/l2.err")"

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
