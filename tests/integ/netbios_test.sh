#!/usr/bin/env bash
# netbios_test.sh [IPXLAB] - end-to-end tests of `ipxlab netbios` over a
# real hub on loopback: names claimed, defended (a second claim fails with
# 0x16) and shared (group), found and read (status), datagrams directed
# and broadcast, files across a session both ways (300 KB each way at
# once, four times, and against a side with no input), clear refusals, a
# killed peer ending the session within the abort timeout, and SIGINT or
# SIGTERM on call or listen ending the peer's session at once. Each process
# is one node; every wait is bounded and everything started is killed.
set -u
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"
use_build "${1:-}"
need_exe "$BIN"
make_tmp nb
nb() { timeout 30 "$BIN" netbios "$@" --hub "$HUB" --config "$TMP/fast.cfg"; }

start_hub
# Claims in 2 x 4 ticks instead of 2 x 18; a short watchdog.
cat >"$TMP/fast.cfg" <<'EOF'
NETBIOS BROADCAST DELAY = 4
NETBIOS LISTEN TIMEOUT = 9
NETBIOS VERIFY TIMEOUT = 9
NETBIOS ABORT TIMEOUT = 36 ; about 2 s
EOF

# ---- names ----
nb add SERVER -g CREW -t 20 >"$TMP/add.out" 2>"$TMP/add.err" & A=$!; PIDS+=($A)
wait_for "$TMP/add.err" "holding 2 names" 30 &&
	grep -q "SERVER<00> *unique *registered" "$TMP/add.out" &&
	grep -q "CREW<00> *group *registered" "$TMP/add.out" &&
	pass "add claims a unique and a group name and prints the table" ||
	fail "add claims a unique and a group name and prints the table" "$(cat "$TMP/add.out" "$TMP/add.err")"
start=$(date +%s%N)
"$BIN" netbios add SERVER -t 1 --hub "$HUB" >/dev/null 2>"$TMP/dup.err"; rc=$?
ms=$((($(date +%s%N) - start) / 1000000))
[ $rc = 1 ] && grep -q "add SERVER<00>: duplicate name: in use on another node (0x16)" "$TMP/dup.err" &&
	pass "a second claim of SERVER fails with 0x16 (default timers, ${ms} ms)" ||
	fail "a second claim of SERVER fails with 0x16" "rc=$rc $(cat "$TMP/dup.err")"
nb add -g CREW >/dev/null 2>"$TMP/g.err" & G=$!; PIDS+=($G)
wait_for "$TMP/g.err" "holding 1 name" 30 && pass "a second node shares the group name CREW" ||
	fail "a second node shares the group name CREW" "$(cat "$TMP/g.err")"
nb find SERVER >"$TMP/find.out" 2>"$TMP/last.err"
[ "$(wc -l <"$TMP/find.out")" = 1 ] && grep -q ":0455 unique$" "$TMP/find.out" &&
	pass "find SERVER: one node ($(cut -d' ' -f1 "$TMP/find.out"))" || fail "find SERVER" "$(cat "$TMP/find.out" "$TMP/last.err")"
nb find CREW >"$TMP/findg.out" 2>"$TMP/last.err"
[ "$(grep -c ' group$' "$TMP/findg.out")" = 2 ] && pass "find CREW: both members" ||
	fail "find CREW: both members" "$(cat "$TMP/findg.out" "$TMP/last.err")"
nb find NOBODY >/dev/null 2>"$TMP/nf.err"; rc=$?
[ $rc = 1 ] && grep -q "(0x14)" "$TMP/nf.err" && pass "find NOBODY: no answer, 0x14" || fail "find NOBODY: no answer, 0x14" "rc=$rc $(cat "$TMP/nf.err")"
nb status SERVER >"$TMP/st.out" 2>"$TMP/last.err"
grep -q "SERVER<00>" "$TMP/st.out" && grep -q "CREW<00>" "$TMP/st.out" && grep -q "commands free" "$TMP/st.out" &&
	pass "status SERVER reads that node's table over the network" || fail "status SERVER" "$(cat "$TMP/st.out" "$TMP/last.err")"
# Interrupted, add gives its names back and exits 0.
kill -INT "$(pgrep -P $G)" 2>/dev/null; wait $G; rc=$?
[ $rc = 0 ] && pass "add gives its names back when interrupted" || fail "add gives its names back when interrupted" "rc=$rc"

# ---- datagrams ----
nb recv INBOX -b -c 3 -t 20 >"$TMP/recv.out" 2>"$TMP/recv.err" & R=$!; PIDS+=($R)
wait_for "$TMP/recv.err" "receiving for INBOX" 30
printf 'one\ntwo words\n' | nb send INBOX 2>"$TMP/last.err"
check "send: two lines as datagrams" $? "$TMP/last.err"
sleep 0.2
echo 'to all' | nb send -b --as SENDER 2>"$TMP/last.err"
check "send --broadcast --as SENDER" $? "$TMP/last.err"
wait $R; rc=$?
printf '*node %s one\n*node %s two words\nSENDER<00> [broadcast] to all\n' x x >"$TMP/want"
sed 's/^\*node [0-9A-F]\{12\}/*node x/' "$TMP/recv.out" >"$TMP/got"
[ $rc = 0 ] && cmp -s "$TMP/want" "$TMP/got" && pass "recv: the directed and broadcast datagrams, in order" ||
	fail "recv: the directed and broadcast datagrams" "rc=$rc" "$(cat "$TMP/recv.out" "$TMP/recv.err")"
head -c 600 /dev/zero | tr '\0' x | nb send -b 2>"$TMP/long.err"; rc=$?
[ $rc = 1 ] && grep -q "line 1 has 600 bytes" "$TMP/long.err" && pass "a line too long for a datagram is refused" ||
	fail "a line too long for a datagram is refused" "rc=$rc $(cat "$TMP/long.err")"

# ---- sessions ----
head -c 1000000 /dev/urandom >"$TMP/in.bin"
head -c 300000 /dev/urandom >"$TMP/back.bin"
# (The caller hangs up at the end of its input, which ends both ways:
# the listener keeps its input open a while, as with SPX.)
(cat "$TMP/back.bin"; sleep 1.5) | nb listen FILESRV >"$TMP/out.bin" 2>"$TMP/l.err" & L=$!; PIDS+=($L)
wait_for "$TMP/l.err" "listening as FILESRV" 30
(sleep 0.3; cat "$TMP/in.bin") | nb call FILESRV --stats >"$TMP/got.bin" 2>"$TMP/c.err"; rc=$?
wait $L; lrc=$?
[ $rc = 0 ] && [ $lrc = 0 ] && cmp -s "$TMP/in.bin" "$TMP/out.bin" && cmp -s "$TMP/back.bin" "$TMP/got.bin" &&
	pass "a session carries 1 MB one way and 300 KB the other, byte-identical, both exit 0" ||
	fail "a session carries files both ways" "call rc=$rc listen rc=$lrc" "$(tail -5 "$TMP/c.err")" "$(cat "$TMP/l.err")"
grep -q "netbios sessions_opened 1" "$TMP/c.err" && pass "--stats prints the counters" || fail "--stats prints the counters"
nb listen QUIET </dev/null >"$TMP/q.out" 2>"$TMP/q.err" & L=$!; PIDS+=($L)
wait_for "$TMP/q.err" "listening as QUIET" 30
printf 'hello over netbios\n' | nb call QUIET --as CALLER 2>"$TMP/last.err"; rc=$?
wait $L; lrc=$?
[ $rc = 0 ] && [ $lrc = 0 ] && [ "$(cat "$TMP/q.out")" = "hello over netbios" ] &&
	pass "call --as CALLER; the listener with no input leaves the hang up to its peer" ||
	fail "call --as; listener with no input" "rc=$rc lrc=$lrc $(cat "$TMP/q.err" "$TMP/last.err")"
start=$SECONDS
nb call NOBODY </dev/null 2>"$TMP/nc.err"; rc=$?
[ $rc = 1 ] && grep -q "call NOBODY<00>: cannot find the name called, or no answer (0x14)" "$TMP/nc.err" &&
	[ $((SECONDS - start)) -le 3 ] && pass "call to nobody: 0x14 within the broadcast window" ||
	fail "call to nobody" "rc=$rc $(cat "$TMP/nc.err")"
nb call SERVER </dev/null 2>"$TMP/rj.err"; rc=$?
[ $rc = 1 ] && grep -q "(0x12)" "$TMP/rj.err" && pass "call to a name nobody listens for: rejected, 0x12" ||
	fail "call without a listen" "rc=$rc $(cat "$TMP/rj.err")"

# Both ways at once, 300 KB each from files, as the issue ran it: neither
# end of input may cut off the other side's data (NetBIOS has no
# half-close; each side marks its end and hangs up when both are through).
head -c 300000 /dev/urandom >"$TMP/b1.bin"
head -c 300000 /dev/urandom >"$TMP/b2.bin"
ok=0
for try in 1 2 3 4; do
	rm -f "$TMP/lb.err"	# (wait_for must not read the last try's)
	nb listen UXS3 <"$TMP/b1.bin" >"$TMP/lb.out" 2>"$TMP/lb.err" & L=$!; PIDS+=($L)
	wait_for "$TMP/lb.err" "listening as UXS3" 30
	nb call UXS3 <"$TMP/b2.bin" >"$TMP/cb.out" 2>"$TMP/cb.err"; rc=$?
	wait $L; lrc=$?
	if [ $rc = 0 ] && [ $lrc = 0 ] && cmp -s "$TMP/b1.bin" "$TMP/cb.out" && cmp -s "$TMP/b2.bin" "$TMP/lb.out" &&
		grep -q "session closed.*: sent 300000 bytes, received 300000" "$TMP/lb.err" &&
		grep -q "session closed.*: sent 300000 bytes, received 300000" "$TMP/cb.err"; then
		ok=$((ok + 1))
	else
		fail "300 KB both ways at once (try $try)" "call rc=$rc listen rc=$lrc, got $(wc -c <"$TMP/cb.out") and $(wc -c <"$TMP/lb.out")" "$(cat "$TMP/cb.err")" "$(cat "$TMP/lb.err")"
	fi
done
[ $ok = 4 ] && pass "300 KB both ways at once, 4 times: both files byte-identical, both exit 0"
# One side's input ends at once: it goes on receiving all the other's.
rm -f "$TMP/lb.err"
nb listen UXS3 </dev/null >"$TMP/lb.out" 2>"$TMP/lb.err" & L=$!; PIDS+=($L)
wait_for "$TMP/lb.err" "listening as UXS3" 30
nb call UXS3 <"$TMP/b2.bin" >"$TMP/cb.out" 2>"$TMP/cb.err"; rc=$?
wait $L; lrc=$?
[ $rc = 0 ] && [ $lrc = 0 ] && cmp -s "$TMP/b2.bin" "$TMP/lb.out" && [ ! -s "$TMP/cb.out" ] &&
	pass "listen </dev/null: receives all 300 KB of the call's, both exit 0" ||
	fail "listen </dev/null against call < 300 KB" "call rc=$rc listen rc=$lrc, got $(wc -c <"$TMP/lb.out")" "$(cat "$TMP/cb.err")" "$(cat "$TMP/lb.err")"
# A peer killed mid-session: the watchdog ends it within the abort time.
# (No timeout wrapper here: the kill must reach ipxlab itself.)
"$BIN" netbios listen VICTIM --hub "$HUB" --config "$TMP/fast.cfg" </dev/null >/dev/null 2>"$TMP/v.err" & V=$!; PIDS+=($V)
wait_for "$TMP/v.err" "listening as VICTIM" 30
mkfifo "$TMP/feed"
nb call VICTIM <"$TMP/feed" >/dev/null 2>"$TMP/k.err" & K=$!; PIDS+=($K)
exec 7>"$TMP/feed"
echo hi >&7
wait_for "$TMP/v.err" "session 1 from" 30
sleep 0.3
kill -9 $V; wait $V 2>/dev/null
start=$(date +%s%N)
wait_for "$TMP/k.err" "session ended abnormally" 60
ds=$((($(date +%s%N) - start) / 100000000))
grep -q "session: session ended abnormally (0x18)" "$TMP/k.err" && [ $ds -lt 40 ] &&
	pass "a killed peer ends the session within the abort timeout ($((ds / 10)).$((ds % 10)) s)" ||
	fail "a killed peer ends the session" "after ${ds}00 ms: $(cat "$TMP/k.err")"
exec 7>&-

# SIGINT/SIGTERM on call or listen: the session end goes out at once, so
# the peer ends within 3 s, sanitized and loaded (its watchdog here would take 30 s); the
# interrupted side says what it carried and exits 1, and so does the
# peer: the interrupted side's end of data never came.
printf 'NETBIOS BROADCAST DELAY = 4\n' >"$TMP/sig.cfg"
mkfifo "$TMP/hold"
exec 8<>"$TMP/hold"	# (open both ways: never an end of input)
for victim in call listen; do
	rm -f "$TMP/sl.err" "$TMP/sc.err"	# (wait_for must not read the last round's)
	"${WITH_SIGINT[@]}" "$BIN" netbios listen SIGTEST --hub "$HUB" --config "$TMP/sig.cfg" <"$TMP/hold" >/dev/null 2>"$TMP/sl.err" & L=$!; PIDS+=($L)
	wait_for "$TMP/sl.err" "listening as SIGTEST" 30
	"${WITH_SIGINT[@]}" "$BIN" netbios call SIGTEST --hub "$HUB" --config "$TMP/sig.cfg" <"$TMP/hold" >/dev/null 2>"$TMP/sc.err" & C=$!; PIDS+=($C)
	wait_for "$TMP/sl.err" "session [0-9]+ from" 30
	printf 'some data\n' >&8
	sleep 0.3
	if [ $victim = call ]; then v=$C o=$L ve=$TMP/sc.err oe=$TMP/sl.err sig=INT; else v=$L o=$C ve=$TMP/sl.err oe=$TMP/sc.err sig=TERM; fi
	kill -$sig $v
	start=$(date +%s%N)
	gone_within $v 30 && { wait $v; vrc=$?; } || vrc=running
	gone_within $o 30 && { wait $o; orc=$?; } || orc=running
	ms=$((($(date +%s%N) - start) / 1000000))
	[ $vrc = 1 ] && grep -Eq "interrupted: sent [0-9]+ bytes, received [0-9]+; session end sent" "$ve" &&
		[ "$orc" = 1 ] && grep -q "session closed by the peer before the end of its data" "$oe" && [ $ms -lt 3000 ] &&
		pass "SIG$sig on netbios $victim: session end sent, the peer ends at once (${ms} ms)" ||
		fail "SIG$sig on netbios $victim" "interrupted rc=$vrc peer rc=$orc after ${ms} ms" "$ve" "$oe"
done
exec 8>&-

# ---- the benchmark, briefly (its own hub and nodes) ----
timeout 60 "$BIN" bench netbios -s 0.2 -r 1 >"$TMP/bench.out" 2>&1; rc=$?
[ $rc = 0 ] && grep -q "^NetBIOS session, 65535-byte msgs" "$TMP/bench.out" &&
	grep -q "^round trip measured: IPX [0-9.]* us; session message" "$TMP/bench.out" &&
	pass "bench netbios runs and reports the round trip it measured" ||
	fail "bench netbios runs" "rc=$rc" "$(tail -5 "$TMP/bench.out")"

# ---- usage ----
"$BIN" netbios dance >/dev/null 2>&1; [ $? = 2 ] && pass "unknown action exits 2" || fail "unknown action exits 2"
"$BIN" netbios add '*BAD' 2>"$TMP/u.err"; rc=$?
[ $rc = 2 ] && grep -q "is not a NetBIOS name" "$TMP/u.err" && pass "a bad name exits 2 before joining" || fail "a bad name exits 2" "rc=$rc $(cat "$TMP/u.err")"
"$BIN" netbios send 2>/dev/null; [ $? = 2 ] && pass "send without NAME or --broadcast exits 2" || fail "send without NAME exits 2"
"$BIN" netbios add ABCDEFGHIJKLMNOPQ 2>/dev/null; [ $? = 2 ] && pass "a 17-character name exits 2" || fail "a 17-character name exits 2"

kill $A 2>/dev/null; wait $A 2>/dev/null
finish
