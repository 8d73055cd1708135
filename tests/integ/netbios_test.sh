#!/usr/bin/env bash
# netbios_test.sh [IPXLAB] - end-to-end tests of `ipxlab netbios` over a
# real hub on loopback: names claimed, defended (a second claim fails with
# 0x16) and shared (group), found and read (status), datagrams directed
# and broadcast, files across a session both ways, clear refusals, and a
# killed peer ending the session within the abort timeout. Each process
# is one node; every wait is bounded and everything started is killed.
set -u
BIN=${1:-build/ipxlab}
case $BIN in /*) ;; *) BIN=$PWD/$BIN ;; esac
[ -x "$BIN" ] || { echo "SKIP: $BIN not built"; exit 77; }
T=$(mktemp -d /tmp/ipxlab-nb.XXXXXX)
PIDS=()
cleanup() {
	for p in "${PIDS[@]}"; do kill -9 "$p" 2>/dev/null; done
	wait 2>/dev/null
	rm -rf "$T"
}
trap cleanup EXIT
failures=0
ok() { echo "PASS: $1"; }
no() { echo "FAIL: $1"; shift; [ $# -gt 0 ] && printf '  %s\n' "$@"; failures=$((failures + 1)); }
# expect NAME COMMAND...: PASS when the command succeeds
expect() { local name=$1; shift; if "$@"; then ok "$name"; else no "$name" "$(tail -5 "$T/last.err" 2>/dev/null)"; fi; }
waitfor() { local i; for ((i = 0; i < ${3:-50}; i++)); do grep -q "$2" "$1" 2>/dev/null && return 0; sleep 0.1; done; return 1; }
nb() { timeout 30 "$BIN" netbios "$@" --hub "$HUB" --config "$T/fast.cfg"; }

P=
for _ in 1 2 3 4 5; do
	try=$((20000 + RANDOM % 40000))
	"$BIN" hub --bind 127.0.0.1 --port "$try" -q 2>"$T/hub.err" & h=$!
	sleep 0.3
	if kill -0 $h 2>/dev/null; then P=$try; PIDS+=($h); break; fi
done
[ -n "$P" ] || { no "hub starts" "$(cat "$T/hub.err")"; exit 1; }
HUB=127.0.0.1:$P
# Claims in 2 x 4 ticks instead of 2 x 18; a short watchdog.
cat >"$T/fast.cfg" <<'EOF'
NETBIOS BROADCAST DELAY = 4
NETBIOS LISTEN TIMEOUT = 9
NETBIOS VERIFY TIMEOUT = 9
NETBIOS ABORT TIMEOUT = 36 ; about 2 s
EOF

# ---- names ----
nb add SERVER -g CREW -t 20 >"$T/add.out" 2>"$T/add.err" & A=$!; PIDS+=($A)
waitfor "$T/add.err" "holding 2 names" 30 &&
	grep -q "SERVER<00> *unique *registered" "$T/add.out" &&
	grep -q "CREW<00> *group *registered" "$T/add.out" &&
	ok "add claims a unique and a group name and prints the table" ||
	no "add claims a unique and a group name and prints the table" "$(cat "$T/add.out" "$T/add.err")"
start=$(date +%s%N)
"$BIN" netbios add SERVER -t 1 --hub "$HUB" >/dev/null 2>"$T/dup.err"; rc=$?
ms=$((($(date +%s%N) - start) / 1000000))
[ $rc = 1 ] && grep -q "add SERVER<00>: duplicate name: in use on another node (0x16)" "$T/dup.err" &&
	ok "a second claim of SERVER fails with 0x16 (default timers, ${ms} ms)" ||
	no "a second claim of SERVER fails with 0x16" "rc=$rc $(cat "$T/dup.err")"
nb add -g CREW >/dev/null 2>"$T/g.err" & G=$!; PIDS+=($G)
waitfor "$T/g.err" "holding 1 name" 30 && ok "a second node shares the group name CREW" ||
	no "a second node shares the group name CREW" "$(cat "$T/g.err")"
nb find SERVER >"$T/find.out" 2>"$T/last.err"
[ "$(wc -l <"$T/find.out")" = 1 ] && grep -q ":0455 unique$" "$T/find.out" &&
	ok "find SERVER: one node ($(cut -d' ' -f1 "$T/find.out"))" || no "find SERVER" "$(cat "$T/find.out" "$T/last.err")"
nb find CREW >"$T/findg.out" 2>"$T/last.err"
[ "$(grep -c ' group$' "$T/findg.out")" = 2 ] && ok "find CREW: both members" ||
	no "find CREW: both members" "$(cat "$T/findg.out" "$T/last.err")"
nb find NOBODY >/dev/null 2>"$T/nf.err"; rc=$?
[ $rc = 1 ] && grep -q "(0x14)" "$T/nf.err" && ok "find NOBODY: no answer, 0x14" || no "find NOBODY: no answer, 0x14" "rc=$rc $(cat "$T/nf.err")"
nb status SERVER >"$T/st.out" 2>"$T/last.err"
grep -q "SERVER<00>" "$T/st.out" && grep -q "CREW<00>" "$T/st.out" && grep -q "commands free" "$T/st.out" &&
	ok "status SERVER reads that node's table over the network" || no "status SERVER" "$(cat "$T/st.out" "$T/last.err")"
# Interrupted, add gives its names back and exits 0.
kill -INT "$(pgrep -P $G)" 2>/dev/null; wait $G; rc=$?
[ $rc = 0 ] && ok "add gives its names back when interrupted" || no "add gives its names back when interrupted" "rc=$rc"

# ---- datagrams ----
nb recv INBOX -b -c 3 -t 20 >"$T/recv.out" 2>"$T/recv.err" & R=$!; PIDS+=($R)
waitfor "$T/recv.err" "receiving for INBOX" 30
printf 'one\ntwo words\n' | nb send INBOX 2>"$T/last.err"
expect "send: two lines as datagrams" test $? = 0
sleep 0.2
echo 'to all' | nb send -b --as SENDER 2>"$T/last.err"
expect "send --broadcast --as SENDER" test $? = 0
wait $R; rc=$?
printf '*node %s one\n*node %s two words\nSENDER<00> [broadcast] to all\n' x x >"$T/want"
sed 's/^\*node [0-9A-F]\{12\}/*node x/' "$T/recv.out" >"$T/got"
[ $rc = 0 ] && cmp -s "$T/want" "$T/got" && ok "recv: the directed and broadcast datagrams, in order" ||
	no "recv: the directed and broadcast datagrams" "rc=$rc" "$(cat "$T/recv.out" "$T/recv.err")"
head -c 600 /dev/zero | tr '\0' x | nb send -b 2>"$T/long.err"; rc=$?
[ $rc = 1 ] && grep -q "line 1 has 600 bytes" "$T/long.err" && ok "a line too long for a datagram is refused" ||
	no "a line too long for a datagram is refused" "rc=$rc $(cat "$T/long.err")"

# ---- sessions ----
head -c 1000000 /dev/urandom >"$T/in.bin"
head -c 300000 /dev/urandom >"$T/back.bin"
# (The caller hangs up at the end of its input, which ends both ways:
# the listener keeps its input open a while, as with SPX.)
(cat "$T/back.bin"; sleep 1.5) | nb listen FILESRV >"$T/out.bin" 2>"$T/l.err" & L=$!; PIDS+=($L)
waitfor "$T/l.err" "listening as FILESRV" 30
(sleep 0.3; cat "$T/in.bin") | nb call FILESRV --stats >"$T/got.bin" 2>"$T/c.err"; rc=$?
wait $L; lrc=$?
[ $rc = 0 ] && [ $lrc = 0 ] && cmp -s "$T/in.bin" "$T/out.bin" && cmp -s "$T/back.bin" "$T/got.bin" &&
	ok "a session carries 1 MB one way and 300 KB the other, byte-identical, both exit 0" ||
	no "a session carries files both ways" "call rc=$rc listen rc=$lrc" "$(tail -5 "$T/c.err")" "$(cat "$T/l.err")"
grep -q "netbios sessions_opened 1" "$T/c.err" && ok "--stats prints the counters" || no "--stats prints the counters"
nb listen QUIET </dev/null >"$T/q.out" 2>"$T/q.err" & L=$!; PIDS+=($L)
waitfor "$T/q.err" "listening as QUIET" 30
printf 'hello over netbios\n' | nb call QUIET --as CALLER 2>"$T/last.err"; rc=$?
wait $L; lrc=$?
[ $rc = 0 ] && [ $lrc = 0 ] && [ "$(cat "$T/q.out")" = "hello over netbios" ] &&
	ok "call --as CALLER; the listener with no input leaves the hang up to its peer" ||
	no "call --as; listener with no input" "rc=$rc lrc=$lrc $(cat "$T/q.err" "$T/last.err")"
start=$SECONDS
nb call NOBODY </dev/null 2>"$T/nc.err"; rc=$?
[ $rc = 1 ] && grep -q "call NOBODY<00>: cannot find the name called, or no answer (0x14)" "$T/nc.err" &&
	[ $((SECONDS - start)) -le 3 ] && ok "call to nobody: 0x14 within the broadcast window" ||
	no "call to nobody" "rc=$rc $(cat "$T/nc.err")"
nb call SERVER </dev/null 2>"$T/rj.err"; rc=$?
[ $rc = 1 ] && grep -q "(0x12)" "$T/rj.err" && ok "call to a name nobody listens for: rejected, 0x12" ||
	no "call without a listen" "rc=$rc $(cat "$T/rj.err")"

# A peer killed mid-session: the watchdog ends it within the abort time.
# (No timeout wrapper here: the kill must reach ipxlab itself.)
"$BIN" netbios listen VICTIM --hub "$HUB" --config "$T/fast.cfg" </dev/null >/dev/null 2>"$T/v.err" & V=$!; PIDS+=($V)
waitfor "$T/v.err" "listening as VICTIM" 30
mkfifo "$T/feed"
nb call VICTIM <"$T/feed" >/dev/null 2>"$T/k.err" & K=$!; PIDS+=($K)
exec 7>"$T/feed"
echo hi >&7
waitfor "$T/v.err" "session 1 from" 30
sleep 0.3
kill -9 $V; wait $V 2>/dev/null
start=$(date +%s%N)
waitfor "$T/k.err" "session ended abnormally" 60
ds=$((($(date +%s%N) - start) / 100000000))
grep -q "session: session ended abnormally (0x18)" "$T/k.err" && [ $ds -lt 40 ] &&
	ok "a killed peer ends the session within the abort timeout ($((ds / 10)).$((ds % 10)) s)" ||
	no "a killed peer ends the session" "after ${ds}00 ms: $(cat "$T/k.err")"
exec 7>&-

# ---- the benchmark, briefly (its own hub and nodes) ----
timeout 60 "$BIN" bench netbios -s 0.2 -r 1 >"$T/bench.out" 2>&1; rc=$?
[ $rc = 0 ] && grep -q "^NetBIOS session, 65535-byte msgs" "$T/bench.out" &&
	grep -q "^round trip measured: IPX [0-9.]* us; session message" "$T/bench.out" &&
	ok "bench netbios runs and reports the round trip it measured" ||
	no "bench netbios runs" "rc=$rc" "$(tail -5 "$T/bench.out")"

# ---- usage ----
"$BIN" netbios dance >/dev/null 2>&1; [ $? = 2 ] && ok "unknown action exits 2" || no "unknown action exits 2"
"$BIN" netbios add '*BAD' 2>"$T/u.err"; rc=$?
[ $rc = 2 ] && grep -q "is not a NetBIOS name" "$T/u.err" && ok "a bad name exits 2 before joining" || no "a bad name exits 2" "rc=$rc $(cat "$T/u.err")"
"$BIN" netbios send 2>/dev/null; [ $? = 2 ] && ok "send without NAME or --broadcast exits 2" || no "send without NAME exits 2"
"$BIN" netbios add ABCDEFGHIJKLMNOPQ 2>/dev/null; [ $? = 2 ] && ok "a 17-character name exits 2" || no "a 17-character name exits 2"

kill $A 2>/dev/null; wait $A 2>/dev/null
echo "netbios: $failures failed"
[ $failures = 0 ]
