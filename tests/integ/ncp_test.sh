#!/usr/bin/env bash
# ncp_test.sh [IPXLAB] - end-to-end tests of `ipxlab server` and
# `ipxlab ncp` over a real hub on loopback: the server shows in slist; a
# second server of its name is refused; volumes it cannot use are refused;
# files of the B3 sizes and of 5 MB are put and got with equal sha256;
# ls, stat, mv, rm with wildcards, mkdir, rmdir, info, whoami; logins;
# the read-only volume; two clients at once; two puts to one name (the
# second refused, file intact); a server killed with SIGKILL
# in the middle of a put: the client fails clearly (no hang), what was
# acknowledged is on disk, and a restarted server serves the same files;
# SIGUSR1 statistics; bench ncp runs (real and simulated time); bad usage
# exits 2.
set -u
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"
use_build "${1:-}"
need_exe "$BIN"
need_cmd sha256sum
make_tmp ncp

start_hub
mkdir -p "$TMP/sys" "$TMP/data" "$TMP/out"
echo "read me" >"$TMP/data/README.TXT"
printf 'alice Secret\nSUPERVISOR super\n' >"$TMP/users"
SRV=()

# start_server NAME: in the background until the end (pid SERVER)
start_server() {
	"$BIN" server --hub "$HUB" --name "$1" --volume SYS="$TMP/sys" \
		--volume DATA="$TMP/data,ro" --users "$TMP/users" \
		>"$TMP/server.out" 2>"$TMP/server.err" </dev/null &
	SERVER=$!
	PIDS+=("$SERVER")
	wait_for "$TMP/server.err" "ready at" 50
}
# n ARGS...: the client, bounded by a time-out
n() { timeout 60 "$BIN" ncp --hub "$HUB" --server ITEST "$@"; }

start_server ITEST || { fail "server starts" "$TMP/server.err"; finish; }
pass "server starts"
# A second server of the same name (any case) on the network is refused
# before it advertises, naming the one that has it; exit 1.
timeout 10 "$BIN" server --hub "$HUB" --name itest --volume SYS="$TMP/sys" \
	>/dev/null 2>"$TMP/dup.err"; rc=$?
[ $rc = 1 ] && has "$TMP/dup.err" "a file server named 'itest' already answers SAP at [0-9A-Fa-f]+:[0-9A-Fa-f]+:0451: choose another --name" &&
	! has "$TMP/dup.err" "ready at" &&
	pass "a second server of a name already on the network is refused" ||
	fail "a second server of a name already on the network is refused" "rc=$rc" "$TMP/dup.err"
timeout 20 "$BIN" slist --hub "$HUB" >"$TMP/slist.out" 2>&1
has "$TMP/slist.out" "ITEST" && pass "the server shows in slist" || fail "the server shows in slist" "$TMP/slist.out"

# Put and get: the B3 sizes and 5 MB.
ok=1
for size in 1024 1205 5079 10752 25184 50176 108048 214705 5242880; do
	head -c "$size" /dev/urandom >"$TMP/f$size"
	if ! n put "$TMP/f$size" "SYS:F$size.BIN" 2>"$TMP/put.err" ||
	   ! n get "F$size.BIN" "$TMP/out/f$size" 2>"$TMP/get.err" ||
	   [ "$(sha256sum <"$TMP/f$size")" != "$(sha256sum <"$TMP/out/f$size")" ] ||
	   [ "$(sha256sum <"$TMP/f$size")" != "$(sha256sum <"$TMP/sys/F$size.BIN")" ]; then
		ok=0
		fail "put and get $size bytes" "$TMP/put.err" "$TMP/get.err"
	fi
done
[ $ok = 1 ] && pass "files of 1 KB, the B3 sizes and 5 MB put and got with equal sha256"

# Progress on a terminal (script(1) gives the client one), none without.
if command -v script >/dev/null 2>&1; then
	script -qec "timeout 60 '$BIN' ncp --hub '$HUB' --server ITEST get F5242880.BIN '$TMP/out/tty'" /dev/null \
		>"$TMP/tty.out" 2>&1
	has "$TMP/tty.out" 'F5242880.BIN +[0-9]+/5242 kB +[0-9]+ kB/s' && ! has "$TMP/get.err" 'kB/s' &&
		pass "progress shows on a terminal only" || fail "progress shows on a terminal only" "$TMP/tty.out"
fi

# Listing, stat, rename, erase with wildcards, directories.
n ls >"$TMP/ls.out" 2>&1
has "$TMP/ls.out" '^F5079\.BIN +5079 ' && has "$TMP/ls.out" '^LOGIN +<DIR>' &&
	pass "ls lists names, sizes and directories" || fail "ls lists names, sizes and directories" "$TMP/ls.out"
n ls 'F1*.BIN' >"$TMP/ls2.out" 2>&1
[ "$(wc -l <"$TMP/ls2.out")" = 4 ] && pass "ls with a wildcard" || fail "ls with a wildcard" "$TMP/ls2.out"
n stat F1205.BIN >"$TMP/stat.out" 2>&1 && has "$TMP/stat.out" '^size 1205$' &&
	pass "stat" || fail "stat" "$TMP/stat.out"
n mkdir SYS:DOCS && n mv F1205.BIN 'DOCS\A.BIN' && [ -f "$TMP/sys/DOCS/A.BIN" ] &&
	pass "mkdir and mv" || fail "mkdir and mv" "$(ls -R "$TMP/sys")"
n rmdir SYS:DOCS 2>"$TMP/rmdir.err"; rc=$?
[ $rc = 1 ] && has "$TMP/rmdir.err" "DIR_IN_USE" && pass "rmdir of a full directory fails with its named code" ||
	fail "rmdir of a full directory fails with its named code" "rc=$rc" "$TMP/rmdir.err"
n rm 'DOCS/*.*' && n rmdir DOCS && [ ! -e "$TMP/sys/DOCS" ] && pass "rm with wildcards and rmdir" || fail "rm with wildcards and rmdir"
n get 'F10*.BIN' "$TMP/out" 2>"$TMP/getw.err" && cmp -s "$TMP/f10752" "$TMP/out/F10752.BIN" &&
	pass "get with a wildcard" || fail "get with a wildcard" "$TMP/getw.err"
# A directory given with its slash: one slash in the paths written and named.
n get 'F10*.BIN' "$TMP/out2/" 2>"$TMP/getw2.err"; rc=$?
mkdir -p "$TMP/out3"
n get 'F10*.BIN' "$TMP/out3/" 2>>"$TMP/getw2.err" && n get F1024.BIN "$TMP/out3/" 2>>"$TMP/getw2.err"
[ $rc = 1 ] && has "$TMP/getw2.err" "cannot write $TMP/out2/F10752.BIN:" && ! has "$TMP/getw2.err" '//' &&
	cmp -s "$TMP/f10752" "$TMP/out3/F10752.BIN" && [ -f "$TMP/out3/F1024.BIN" ] &&
	pass "get into DIR/ joins one slash (in the files and the messages)" ||
	fail "get into DIR/ joins one slash (in the files and the messages)" "rc=$rc" "$TMP/getw2.err"
n get NOSUCH.BIN "$TMP/out/x" 2>"$TMP/nf.err"; rc=$?
[ $rc = 1 ] && has "$TMP/nf.err" "FAILURE" && pass "get of a missing file exits 1 naming the code" || fail "get of a missing file exits 1" "rc=$rc" "$TMP/nf.err"

# Users, login, info.
n -u alice -p Secret whoami >"$TMP/who.out" 2>&1 && has "$TMP/who.out" '^user ALICE$' &&
	pass "login as a user from the file" || fail "login as a user from the file" "$TMP/who.out"
n -u alice -p wrong whoami 2>"$TMP/bad.err"; rc=$?
[ $rc = 1 ] && has "$TMP/bad.err" "BAD_PASSWORD" && pass "a wrong password is refused by name" || fail "a wrong password is refused by name" "rc=$rc" "$TMP/bad.err"
n --no-login ls SYS: >"$TMP/nl.out" 2>"$TMP/nl.err"; rc=$?
[ $rc = 0 ] && has "$TMP/nl.out" 'LOGIN' && [ "$(grep -c . "$TMP/nl.out")" = 1 ] &&
	pass "before login SYS: lists LOGIN alone" || fail "before login SYS: lists LOGIN alone" "rc=$rc" "$TMP/nl.out" "$TMP/nl.err"
n --no-login get F1024.BIN "$TMP/out/nl" 2>"$TMP/nl2.err"; rc=$?
[ $rc = 1 ] && [ ! -e "$TMP/out/nl" ] && pass "before login a file outside SYS:LOGIN cannot be read" ||
	fail "before login a file outside SYS:LOGIN cannot be read" "rc=$rc" "$TMP/nl2.err"
n info >"$TMP/info.out" 2>&1 && has "$TMP/info.out" '^server ITEST$' && has "$TMP/info.out" '^buffer [0-9]+$' &&
	pass "info" || fail "info" "$TMP/info.out"
n put "$TMP/f1024" DATA:X.BIN 2>"$TMP/ro.err"; rc=$?
[ $rc = 1 ] && has "$TMP/ro.err" "NO_CREATE" && [ ! -e "$TMP/data/X.BIN" ] &&
	pass "the read-only volume refuses a put" || fail "the read-only volume refuses a put" "rc=$rc" "$TMP/ro.err"
n get DATA:README.TXT "$TMP/out/readme" && cmp -s "$TMP/data/README.TXT" "$TMP/out/readme" &&
	pass "the read-only volume serves reads" || fail "the read-only volume serves reads"

# Two clients at once.
n get F5242880.BIN "$TMP/out/a" 2>"$TMP/a.err" & a=$!
n put "$TMP/f214705" SYS:TWO.BIN 2>"$TMP/b.err" & b=$!
wait $a; ra=$?; wait $b; rb=$?
[ $ra = 0 ] && [ $rb = 0 ] && cmp -s "$TMP/f5242880" "$TMP/out/a" && cmp -s "$TMP/f214705" "$TMP/sys/TWO.BIN" &&
	pass "two clients at once" || fail "two clients at once" "a=$ra b=$rb" "$TMP/a.err" "$TMP/b.err"

# Two puts to one name at once (20 MB, then 15 MB 0.3 s later, while the
# first still writes: a segment of 80 Mbit/s makes the first take about
# 2 s): the put opens deny-write, so the second is refused with 0x80 and
# a clear message, exits 1, and the file is the first one's.
"$BIN" profile eth10 | sed 's/^rate .*/rate 80000000/; s/^name .*/name fast/' >"$TMP/fast.profile"
P2=$(free_port)
"$BIN" hub --bind 127.0.0.1 --port "$P2" -q --profile "$TMP/fast.profile" 2>"$TMP/hub2.err" &
PIDS+=($!)
mkdir -p "$TMP/sys2"
sleep 0.3
"$BIN" server --hub "127.0.0.1:$P2" --name PUTS --volume SYS="$TMP/sys2" >/dev/null 2>"$TMP/server2.err" </dev/null &
PIDS+=($!)
wait_for "$TMP/server2.err" "ready at" 50 || fail "the second server starts" "$TMP/server2.err" "$TMP/hub2.err"
head -c 20000000 /dev/urandom >"$TMP/p20"
head -c 15000000 /dev/urandom >"$TMP/p15"
n2() { timeout 60 "$BIN" ncp --hub "127.0.0.1:$P2" --server PUTS "$@"; }
n2 put "$TMP/p20" SYS:SAME.BIN 2>"$TMP/p20.err" & a=$!
sleep 0.3
n2 put "$TMP/p15" SYS:SAME.BIN 2>"$TMP/p15.err"; rb=$?
kill -0 $a 2>/dev/null && still=1 || still=0
wait $a; ra=$?
if [ $ra = 0 ] && [ $rb = 1 ] && [ $still = 1 ] &&
   has "$TMP/p15.err" "put SYS:SAME.BIN: refused, another connection has it open for writing \(0x80 file in use\); the file was not changed" &&
   [ "$(sha256sum <"$TMP/p20")" = "$(sha256sum <"$TMP/sys2/SAME.BIN")" ]; then
	pass "two puts to one name: the second is refused, the file is the first's"
else
	fail "two puts to one name: the second is refused, the file is the first's" \
		"first=$ra second=$rb first-still-running=$still" "$TMP/p20.err" "$TMP/p15.err"
fi
rm -f "$TMP/p20" "$TMP/p15" "$TMP/sys2/SAME.BIN"

# Statistics on SIGUSR1.
kill -USR1 "$SERVER"
wait_for "$TMP/server.out" "^function_49 [0-9]+" 30 && pass "SIGUSR1 prints statistics" || fail "SIGUSR1 prints statistics" "$TMP/server.out"

# The server killed with SIGKILL in the middle of a put of 20 MB; with
# IPX RETRY COUNT = 8 the client gives up after about 18 s of back-off.
# (One request at a time: with packet burst the 20 MB are through in
# about 0.1 s on loopback, before the kill; ncp_client_test kills a
# server under a get with burst.)
head -c 20971520 /dev/urandom >"$TMP/big"
printf 'IPX RETRY COUNT = 8\n' >"$TMP/shell.cfg"
start=$(date +%s)
n --config "$TMP/shell.cfg" --no-burst put "$TMP/big" SYS:BIG.BIN >/dev/null 2>"$TMP/kill.err" & c=$!
for _ in $(seq 1 100); do
	[ -f "$TMP/sys/BIG.BIN" ] && [ "$(stat -c %s "$TMP/sys/BIG.BIN")" -gt 1000000 ] && break
	sleep 0.1
done
kill -9 "$SERVER"
wait "$c"; rc=$?
el=$(($(date +%s) - start))
if [ $rc = 1 ] && has "$TMP/kill.err" "no reply from the server" && [ $el -lt 40 ]; then
	pass "a killed server: the client fails clearly (in ${el} s)"
else
	fail "a killed server: the client fails clearly" "rc=$rc after ${el}s" "$TMP/kill.err"
fi
acked=$(sed -n 's/.*failed after \([0-9]*\) bytes acknowledged.*/\1/p' "$TMP/kill.err")
have=$(stat -c %s "$TMP/sys/BIG.BIN" 2>/dev/null || echo 0)
if [ -n "$acked" ] && [ "$have" -ge "$acked" ] &&
   cmp -s <(head -c "$acked" "$TMP/big") <(head -c "$acked" "$TMP/sys/BIG.BIN"); then
	pass "every acknowledged byte is on disk ($acked acknowledged, $have there)"
else
	fail "every acknowledged byte is on disk" "acked=$acked have=$have" "$TMP/kill.err"
fi
start_server ITEST || fail "the server restarts" "$TMP/server.err"
n get F108048.BIN "$TMP/out/again" && cmp -s "$TMP/f108048" "$TMP/out/again" &&
	pass "a restarted server serves the same files" || fail "a restarted server serves the same files"

# The benchmark runs on the file-server benchmarks' network (hub, one
# workstation agent, server: children) and prints its three rows.
timeout 60 "$BIN" bench ncp -s 0.5 >"$TMP/bench.out" 2>&1; rc=$?
[ $rc = 0 ] && [ "$(grep -cE '^  (1-byte read|open\+close|large get) .*(PASS|MISS)$' "$TMP/bench.out")" = 3 ] &&
	grep -q '^# workstations: 1 agent(s), each its own process' "$TMP/bench.out" &&
	grep -qE '^    burst .* kB/s, datagrams .* kB/s; ratio [0-9.]+ .*(PASS|FAIL) \(target 0.80\)$' "$TMP/bench.out" &&
	pass "bench ncp runs on the harness agent" || fail "bench ncp runs on the harness agent" "rc=$rc" "$TMP/bench.out"
# In simulated time (eth10): JSON with the conditions, the three rows and
# repeats summarised; the rows' figures follow from the wire's speed.
timeout 30 "$BIN" bench ncp --sim -s 0.2 --repeat 2 --json >"$TMP/bench.json" 2>"$TMP/bench.err"; rc=$?
if [ $rc = 0 ] && python3 - "$TMP/bench.json" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
c = d["conditions"]
assert d["benchmark"] == "ncp" and c["simulated"] and c["profile"] == "eth10"
assert c["repeat"] == 2 and c["bufsize"] > 512 and len(c["agents"]) == 1
rows = {r["row"]: r for r in d["rows"]}
assert set(rows) == {"read1", "open_close", "large_get"}
for r in rows.values():
    m = r["measured"]
    assert 0 < m["min"] <= m["median"] <= m["max"]
    assert r["pass"] == (r["ratio"]["median"] >= 0.8)
# a buffer of 1,446 bytes each way at 10 Mbit/s: the full ping costs
# more than ten empty ones, and the get stays under 1.25 MB/s
rt = d["round_trip_us"]
assert rt["full"]["median"] > 10 * rt["empty"]["median"]
assert 500 < rows["large_get"]["measured"]["median"] < 1250
# the packet-burst target: on the simulated wire a burst read carries at
# least 0.8 of the datagrams of its packet size (deterministic)
b = d["burst_read"]
assert b["packet_bytes"] == 1500 and b["rounds"] == 5
assert 1000 < b["datagram_kB_per_s"] < 1250 and b["pass"]
assert b["ratio"] >= 0.8 and b["ratio_min"] <= b["ratio"] <= b["ratio_max"]
EOF
then pass "bench ncp --sim --repeat --json: rows, repeats, conditions"
else fail "bench ncp --sim --repeat --json: rows, repeats, conditions" "rc=$rc" "$(cat "$TMP/bench.err")" "$(head -c 1500 "$TMP/bench.json")"
fi
"$BIN" bench ncp --size 1 >/dev/null 2>&1; [ $? = 2 ] && pass "bench ncp: an option it no longer has exits 2" || fail "bench ncp: an option it no longer has exits 2"

# Bad usage.
"$BIN" ncp --hub "$HUB" frobnicate >/dev/null 2>&1; [ $? = 2 ] && pass "an unknown ncp command exits 2" || fail "an unknown ncp command exits 2"
"$BIN" ncp --hub "$HUB" mv A >/dev/null 2>&1; [ $? = 2 ] && pass "a missing argument exits 2" || fail "a missing argument exits 2"
out=$(timeout 5 "$BIN" ncp ls --help 2>&1); rc=$?
[ $rc = 0 ] && grep -q "^usage: ipxlab ncp" <<<"$out" && pass "ncp VERB --help prints the help at once" || fail "ncp VERB --help prints the help at once" "rc=$rc $out"
P0=$(free_port)
out=$(timeout 5 "$BIN" ncp get X --hub "127.0.0.1:$P0" --wait 0.3 2>&1); rc=$?
[ $rc = 1 ] && grep -q "127.0.0.1:$P0 after 0.3 s" <<<"$out" && pass "ncp options after the command are options (--hub, --wait)" || fail "ncp options after the command are options (--hub, --wait)" "rc=$rc $out"
out=$(timeout 5 "$BIN" ncp get --hub "127.0.0.1:$P0" --wait 5 2>&1); rc=$?
[ $rc = 2 ] && grep -q "wrong number of arguments" <<<"$out" && pass "a missing argument is refused before joining the network" || fail "a missing argument is refused before joining the network" "rc=$rc $out"
"$BIN" server --hub "$HUB" --volume DATA="$TMP/data" >/dev/null 2>"$TMP/nosys.err"; rc=$?
[ $rc = 1 ] && has "$TMP/nosys.err" "SYS is required" && pass "a server without SYS is refused" || fail "a server without SYS is refused" "rc=$rc" "$TMP/nosys.err"
"$BIN" server --volume SYS >/dev/null 2>&1; [ $? = 2 ] && pass "a bad --volume exits 2" || fail "a bad --volume exits 2"
# Volumes checked at start: one the server cannot write (/proc), one it
# cannot open or read (as nobody, when this runs as root): refused, exit
# 1, said; nothing said "ready".
timeout 10 "$BIN" server --hub "$HUB" --name BADVOL --volume SYS="$TMP/sys" --volume DATA=/proc \
	>/dev/null 2>"$TMP/badvol.err"; rc=$?
[ $rc = 1 ] && has "$TMP/badvol.err" "volume DATA: /proc is not writable" && ! has "$TMP/badvol.err" "ready at" &&
	pass "a volume the server cannot write is refused at start" || fail "a volume the server cannot write is refused at start" "rc=$rc" "$TMP/badvol.err"
if [ "$(id -u)" = 0 ] && command -v runuser >/dev/null 2>&1; then
	chmod 711 "$TMP"	# nobody may pass through to the directories below
	mkdir -p "$TMP/private/sys" && chmod 700 "$TMP/private"
	chmod 755 "$TMP/private/sys"
	timeout 10 runuser -u nobody -- "$BIN" server --hub "$HUB" --name BADVOL --volume SYS="$TMP/private/sys" \
		>/dev/null 2>"$TMP/badvol2.err"; rc=$?
	[ $rc = 1 ] && has "$TMP/badvol2.err" "volume SYS: cannot open $TMP/private/sys: Permission denied" &&
		pass "a volume the server cannot read is refused at start" || fail "a volume the server cannot read is refused at start" "rc=$rc" "$TMP/badvol2.err"
	chmod 755 "$TMP/private"; chmod 744 "$TMP/private/sys"	# listed, not entered
	timeout 10 runuser -u nobody -- "$BIN" server --hub "$HUB" --name BADVOL --volume SYS="$TMP/private/sys,ro" \
		>/dev/null 2>"$TMP/badvol3.err"; rc=$?
	[ $rc = 1 ] && has "$TMP/badvol3.err" "volume SYS: $TMP/private/sys is not readable: Permission denied" &&
		pass "a volume the server cannot list is refused at start" || fail "a volume the server cannot list is refused at start" "rc=$rc" "$TMP/badvol3.err"
fi
timeout 20 "$BIN" ncp --hub "$HUB" --server NOSUCH --find-timeout 0.5 info 2>"$TMP/ns.err"; rc=$?
[ $rc = 1 ] && has "$TMP/ns.err" "no file server NOSUCH" && pass "an unknown server name fails clearly" || fail "an unknown server name fails clearly" "rc=$rc" "$TMP/ns.err"

finish
