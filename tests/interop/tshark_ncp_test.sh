#!/usr/bin/env bash
# tshark_ncp_test.sh - interop test: Wireshark's NCP dissector decodes a
# whole client session of `ipxlab ncp` against `ipxlab server`.
#
# Usage: tests/interop/tshark_ncp_test.sh [path/to/ipxlab]  (default build/ipxlab)
# Env:   IT_KEEP=1 keeps the temp dir (captures, process output).
#
# A hub on a random loopback port, a server, and one client command after
# another (info, whoami, put of 40 KB, get, both in packet bursts and again
# one request at a time with --no-burst, ls, stat, mkdir, mv, rm, rmdir,
# a read-only refusal, a bad password, a session before login, a message
# sent to oneself and fetched, a change of password: in the DOS name
# space, then with long names through the LONG one, 0x57), each with
# --pcap; the captures merged and decoded. Checks: every frame is IPX and
# every frame to or from socket 0x451 is NCP; no frame is malformed or
# carries an expert warning; the only expert errors are Wireshark's
# "Error/Response" for replies whose completion code is not 0 (it marks
# every such reply), and each of those is one the session meant to get
# (0x17 0x4B excepted, which Wireshark reads otherwise: see below);
# every request has exactly one reply that Wireshark matches to it
# (ncp.req_frame_num) and no reply lacks its request record. Then every
# 0x57 call the server answers, from tests/interop/ns_capture.c.
#
# Prints PASS:/FAIL: per check and "N passed, N failed"; exits 1 if any
# check failed, 77 (SKIP) without tshark or mergecap. Then the watchdog:
# the server's polls of a silent client, in the server's own capture, are
# "IPX Message" frames from socket 0x4001 and none is malformed. Last,
# the trustee calls against a server with a rights store.
set -u
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"
use_build "${1:-}"
need_exe "$BIN"
need_cmd tshark mergecap
make_tmp tshark-ncp

start_hub
mkdir -p "$TMP/sys" "$TMP/data"
echo "read me" >"$TMP/data/README.TXT"
printf 'alice Secret\n' >"$TMP/users"
timeout -k 2 120 "$BIN" server --hub "$HUB" --name NCPCAP --volume SYS="$TMP/sys" \
	--volume DATA="$TMP/data,ro" --users "$TMP/users" --watchdog 2,0.5,20 \
	--pcap "$TMP/server.pcap" >/dev/null 2>"$TMP/server.err" </dev/null &
PIDS+=($!)
wait_for "$TMP/server.err" "ready at" 50 || { fail "server starts" "$TMP/server.err"; finish; }
head -c 40000 /dev/urandom >"$TMP/in.bin"

k=0
# c [--expect-fail] ARGS...: one client command with its own capture
c() {
	local want=0
	[ "$1" = --expect-fail ] && { want=1; shift; }
	k=$((k + 1))
	timeout 30 "$BIN" ncp --hub "$HUB" --server NCPCAP --pcap "$TMP/c$k.pcap" "$@" \
		>"$TMP/c$k.out" 2>&1
	local rc=$?
	[ $rc = $want ] || fail "client: $*" "rc=$rc, want $want" "$TMP/c$k.out"
}
c info
c -u alice -p Secret whoami
# The DOS name space's calls (0x3E-0x4C, 0x54), then the same through the
# LONG name space (0x57) with long names.
D=--dos-names
c $D put "$TMP/in.bin" SYS:IN.BIN
c $D get IN.BIN "$TMP/out.bin"
c $D --no-burst put "$TMP/in.bin" SYS:IN3.BIN
c $D --no-burst get IN3.BIN "$TMP/out3.bin"
c $D ls
c $D stat IN.BIN
c $D mkdir SYS:SUB
c $D mv IN.BIN 'SUB\IN.BIN'
c $D rm 'SUB\*.*'
c $D rmdir SUB
c --expect-fail $D put "$TMP/in.bin" DATA:X.BIN
c --expect-fail -u alice -p wrong whoami
c $D --no-login ls SYS:		# LOGIN alone (the way to SYS:LOGIN)
c --expect-fail $D --no-login mkdir SYS:PRE
c $D --no-login ls SYS:LOGIN
c put "$TMP/in.bin" "SYS:Long Name Report.bin"
c get "SYS:long name report.BIN" "$TMP/out2.bin"
c mkdir "SYS:My Folder"
c mv "SYS:Long Name Report.bin" "SYS:My Folder/Moved Report.bin"
c ls "SYS:My Folder"
c stat "SYS:My Folder/Moved Report.bin"
c rm "SYS:My Folder/*.bin"
c rmdir "SYS:My Folder"
c --expect-fail put "$TMP/in.bin" "DATA:Read Only.bin"
c --no-login ls SYS:LOGIN
cmp -s "$TMP/in.bin" "$TMP/out2.bin"
check "the long-name get returns what its put sent" $?
c -u alice -p Secret send alice "hello"	# 0x17 0x15, 0x15 0x0A, 0x15 0x0B
c -u alice -p Secret messages
c -u alice -p Secret passwd <<<Other	# 0x17 0x4B
c -u alice -p other whoami
cmp -s "$TMP/in.bin" "$TMP/out.bin" && cmp -s "$TMP/in.bin" "$TMP/out3.bin"
check "the session's gets return what its puts sent (burst and --no-burst)" $?

CAP=$TMP/session.pcap
mergecap -a -w "$CAP" "$TMP"/c*.pcap 2>"$TMP/mergecap.err"
check "captures merged" $? "$TMP/mergecap.err"
n() { frames "$CAP" "$1"; }
total=$(n frame)
ipx=$(n ipx)
on451=$(n "ipx.src.socket == 0x0451 || ipx.dst.socket == 0x0451")
ncp=$(n "ncp && (ipx.src.socket == 0x0451 || ipx.dst.socket == 0x0451)")
[ "$total" -gt 50 ] && [ "$ipx" = "$total" ] && [ "$ncp" = "$on451" ]
check "every frame is IPX ($ipx of $total), every frame on socket 451 NCP ($ncp of $on451)" $?
# Keyed Change Password (0x17 0x4B) excepted: Wireshark reads the byte
# before the new hash as the length of a string of up to 32, but ncpfs
# and mars_nwe send there the mixed length with 0x40 set, then 16 bytes
# (docs/ncp.md): every such request shows malformed, ncpfs's too.
KEYCHG="ncp.func == 0x17 && ncp.subfunc == 0x4b && ncp.type == 0x2222"
bad=$(n "(_ws.malformed || _ws.expert.severity == 0x00600000) && !($KEYCHG)")
chg=$(n "$KEYCHG")
[ "$bad" = 0 ] && [ "$chg" = 1 ]
check "no malformed frame and no expert warning ($bad) but the one change of password ($chg)" $? \
	"$(tshark -r "$CAP" -Y '_ws.malformed || _ws.expert.severity == 0x00600000' 2>/dev/null | head)"
# The new requests by name: login key, keyed login, object ID, the
# connection list, send and get message, the '!' signal.
for f in "ncp.subfunc == 0x17" "ncp.subfunc == 0x18" "ncp.subfunc == 0x35" \
	 "ncp.subfunc == 0x15 && ncp.func == 0x17" \
	 "ncp.func == 0x15 && ncp.subfunc == 0x0a" "ncp.func == 0x15 && ncp.subfunc == 0x0b"; do
	[ "$(n "ncp.type == 0x2222 && $f")" -ge 1 ] || fail "the session has a request $f" "$(n frame) frames"
done
pass "the session has 0x17 0x15/0x17/0x18/0x35 and 0x15 0x0A/0x0B requests"
other=$(n "_ws.expert.severity >= 0x00800000 && !(ncp.type == 0x3333 && ncp.completion_code != 0) && !($KEYCHG)")
[ "$other" = 0 ]
check "expert errors only for replies with a completion code ($other other)" $?
# The non-zero completion codes the session asked for: end of each
# listing (FF), the read-only volume (84), the bad password (DE), before
# login (9C), and get/stat's lookups of nothing else.
codes=$(tshark -r "$CAP" -Y "ncp.type == 0x3333 && ncp.completion_code != 0" \
	-T fields -e ncp.completion_code 2>/dev/null | sort | uniq -c | tr -s ' ' | tr '\n' ';')
unexpected=$(tshark -r "$CAP" -Y "ncp.type == 0x3333 && ncp.completion_code != 0" \
	-T fields -e ncp.completion_code 2>/dev/null | grep -Evic '^0x(ff|84|de|9c)$')
[ "$unexpected" = 0 ]
check "non-zero completion codes are the expected ones ($codes)" $?
req=$(n "ncp.type == 0x2222 || ncp.type == 0x1111 || ncp.type == 0x5555")
rep=$(n "ncp.type == 0x3333")
matched=$(n "ncp.type == 0x3333 && ncp.req_frame_num")
lost=$(n "ncp.no_request_record_found")
[ "$req" -gt 30 ] && [ "$req" = "$rep" ] && [ "$matched" = "$rep" ] && [ "$lost" = 0 ]
check "every request has its reply, matched by tshark ($req requests, $rep replies, $matched matched)" $?
funcs=$(tshark -r "$CAP" -Y "ncp.type == 0x2222" -T fields -e ncp.func 2>/dev/null | sort -u | tr '\n' ' ')
for f in 0x16 0x17 0x13 0x3d 0x3e 0x3f 0x42 0x44 0x45 0x48 0x49 0x4c 0x54 0x57 0x61 0x65; do
	grep -qiw -- "$f" <<<"$funcs" || { fail "the session used function $f" "functions seen: $funcs"; }
done
pass "the session covers 0x13 0x16 0x17 0x3D-0x3F 0x42 0x44 0x45 0x48 0x49 0x4C 0x54 0x57 0x61 0x65 ($funcs)"
# The bursts of the first put and get: Wireshark decodes their burst
# commands (write, read: 1 and 2 little-endian, which it shows as
# 0x02000000 and 0x01000000), ends of burst, and none is malformed (the
# check above covers every frame).
burst=$(n "ncp.type == 0x7777")
bw=$(n "ncp.burst_command == 0x02000000")
br=$(n "ncp.burst_command == 0x01000000")
eob=$(n "ncp.type == 0x7777 && ncp.system_flags.eob == 1")
[ "$burst" -ge 60 ] && [ "$bw" -ge 1 ] && [ "$br" -ge 1 ] && [ "$eob" -ge 4 ]
check "burst frames decoded ($burst, burst write $bw, burst read $br, end of burst $eob)" $?
subs=$(tshark -r "$CAP" -Y "ncp.type == 0x2222 && ncp.func == 0x57" -T fields -e ncp.subfunc 2>/dev/null | sort -u | tr '\n' ' ')
for f in 1 2 3 4 6 8 24; do
	grep -qw -- "$f" <<<"$subs" || { fail "the session used 0x57 subfunction $f" "seen: $subs"; }
done
pass "the LONG name space calls 0x57 1, 2, 3, 4, 6, 8, 24 decode without a malformed frame ($subs)"

# Every 0x57 call the server answers, from BUILD/tools/ns_capture
# (tests/interop/ns_capture.c: the in-memory link), the ones the client
# does not make among them (0x07, 0x0C, 0x14, 0x16, 0x1C, 0x1D) and two
# refusals: none malformed or warned, errors only for those two.
NSCAP=$TMP/ns.pcap
if [ -x "$TOOLS/ns_capture" ] && timeout 60 "$TOOLS/ns_capture" "$NSCAP" 2>"$TMP/ns.err"; then
	subs=$(tshark -r "$NSCAP" -Y "ncp.type == 0x2222 && ncp.func == 0x57" -T fields -e ncp.subfunc 2>/dev/null | sort -un | tr '\n' ' ')
	bad=$(frames "$NSCAP" "_ws.malformed || _ws.expert.severity == 0x00600000")
	errs=$(frames "$NSCAP" "_ws.expert.severity >= 0x00800000")
	codes=$(tshark -r "$NSCAP" -Y "ncp.type == 0x3333 && ncp.completion_code != 0" -T fields -e ncp.completion_code 2>/dev/null | tr '\n' ' ')
	[ "$subs" = "1 2 3 4 6 7 8 12 20 22 24 28 29 " ] && [ "$bad" = 0 ] && [ "$errs" = 2 ] && [ "$codes" = "0xbf 0x9c " ]
	check "the 0x57 calls of ns_capture decode: subfunctions $subs, none malformed ($bad), errors only the refusals asked for ($codes)" $? \
		"$(tshark -r "$NSCAP" -Y '_ws.malformed || _ws.expert' 2>/dev/null | head)"
else
	fail "ns_capture writes its capture" "$TMP/ns.err"
fi

# The watchdog (the server polls after 2 s of silence, every 0.5 s): a
# client connected and then stuck opening a FIFO for its put answers
# nothing for 5 s (the server's 1 s sweep sends a poll each time from 2 s
# on); the server's capture shows the polls, from socket 0x4001, as "IPX
# Message" frames, and none of its frames is malformed (nor the answer
# the client gives, once free, to the last one).
mkfifo "$TMP/fifo"
timeout 30 "$BIN" ncp --hub "$HUB" --server NCPCAP --pcap "$TMP/wd.pcap" put "$TMP/fifo" SYS:W.BIN \
	>"$TMP/wd.out" 2>&1 &
wd=$!
sleep 5
exec 3>"$TMP/fifo"
exec 3>&-
wait $wd
sleep 0.3
polls=$(frames "$TMP/server.pcap" "ipxmsg && ipx.src.socket == 0x4001 && ipxmsg.sigchar == 0x3f")
bad=$(frames "$TMP/server.pcap" "(_ws.malformed || _ws.expert.severity == 0x00600000) && !($KEYCHG)")
bell=$(frames "$TMP/server.pcap" "ipxmsg && ipxmsg.sigchar == 0x21")
[ "$bell" = 1 ]
check "the message waiting signal is an IPX Message '!' frame ($bell)" $?
ncpwd=$(frames "$TMP/server.pcap" "ncp && ipx.len == 32")
[ "$polls" -ge 2 ] && [ "$bad" = 0 ] && [ "$ncpwd" = 0 ]
check "watchdog polls are IPX Message frames from 0x4001 ($polls), none malformed ($bad), none taken for NCP ($ncpwd)" $? \
	"$(tshark -r "$TMP/server.pcap" -Y 'ipxmsg || _ws.malformed' 2>/dev/null | head)"
# Trustee rights (a second server, with a store): 0x16 0x2A effective
# rights, 0x0C scan, 0x0D add, 0x27 add with Supervisory, 0x0E delete,
# and a refusal for a right not held (84) decode with nothing malformed,
# every request matched to its reply.
mkdir -p "$TMP/rsys/PUB"
printf 'alice Secret\nSUPERVISOR sup\n' >"$TMP/rusers"
printf 'SYS:PUB ALICE RF\n' >"$TMP/rights"
timeout -k 2 60 "$BIN" server --hub "$HUB" --name NCPRTS --volume SYS="$TMP/rsys" \
	--users "$TMP/rusers" --rights "$TMP/rights" >/dev/null 2>"$TMP/rserver.err" </dev/null &
PIDS+=($!)
wait_for "$TMP/rserver.err" "ready at" 50 || { fail "rights server starts" "$TMP/rserver.err"; finish; }
r() {
	local want=0
	[ "$1" = --expect-fail ] && { want=1; shift; }
	k=$((k + 1))
	timeout 30 "$BIN" ncp --hub "$HUB" --server NCPRTS --pcap "$TMP/r$k.pcap" "$@" \
		>"$TMP/r$k.out" 2>&1
	local rc=$?
	[ $rc = $want ] || fail "client: $*" "rc=$rc, want $want" "$TMP/r$k.out"
}
r -u SUPERVISOR -p sup rights SYS:PUB
r -u SUPERVISOR -p sup grant alice RWCF SYS:PUB
r -u SUPERVISOR -p sup grant alice S SYS:PUB
r -u SUPERVISOR -p sup revoke alice SYS:PUB
r -u alice -p Secret rights SYS:PUB
r --expect-fail -u alice -p Secret put "$TMP/in.bin" 'PUB\X.BIN'
RCAP=$TMP/rights.pcap
mergecap -a -w "$RCAP" "$TMP"/r[0-9]*.pcap 2>"$TMP/mergecap.err"
bad=$(frames "$RCAP" "_ws.malformed || _ws.expert.severity == 0x00600000")
subs=$(tshark -r "$RCAP" -Y "ncp.type == 0x2222 && ncp.func == 0x16" -T fields \
	-e ncp.subfunc 2>/dev/null | sort -u | tr '\n' ' ')
req=$(frames "$RCAP" "ncp.type == 0x2222 || ncp.type == 0x1111 || ncp.type == 0x5555")
matched=$(frames "$RCAP" "ncp.type == 0x3333 && ncp.req_frame_num")
miss=""
# tshark prints subfunctions in decimal: 0x0C 0x0D 0x0E 0x27 0x2A
for f in 12 13 14 39 42; do grep -qw -- "$f" <<<"$subs" || miss="$miss $f"; done
[ "$bad" = 0 ] && [ -z "$miss" ] && [ "$req" -gt 10 ] && [ "$req" = "$matched" ]
check "trustee calls 0x16 0x0C 0x0D 0x0E 0x27 0x2A decode: none malformed ($bad), missing:${miss:- none}, $matched of $req matched" $? \
	"$(tshark -r "$RCAP" -Y '_ws.malformed || _ws.expert.severity == 0x00600000' 2>/dev/null | head)"

# Packet burst under loss, duplication and reordering (BUILD/tools/
# burst_capture, tests/interop/burst_capture.c: the in-memory link): the
# missing-fragment lists both ways and the fragments resent for them, then
# a server that refuses burst (0xFB) and the client's fallback; no frame
# malformed or warned about, the only expert error the refused 0x65.
if [ -x "$TOOLS/burst_capture" ]; then
	BCAP=$TMP/burst.pcap
	timeout 60 "$TOOLS/burst_capture" "$BCAP" 2>"$TMP/burst.err" && [ -s "$BCAP" ]
	check "burst capture written, its data intact" $? "$TMP/burst.err"
	bad=$(frames "$BCAP" "_ws.malformed || _ws.expert.severity == 0x00600000")
	lists=$(frames "$BCAP" "ncp.type == 0x7777 && ncp.system_flags.sys == 1 && ncp.missing_fraglist_count > 0")
	frags=$(frames "$BCAP" "ncp.type == 0x7777 && ncp.system_flags.sys == 0")
	errs=$(frames "$BCAP" "_ws.expert.severity >= 0x00800000 && !(ncp.func == 0x65 && ncp.completion_code == 0xfb)")
	[ "$bad" = 0 ] && [ "$lists" -ge 5 ] && [ "$frags" -ge 200 ] && [ "$errs" = 0 ]
	check "burst under loss decodes: $frags fragments, $lists missing-fragment lists, none malformed or warned ($bad), no other expert error ($errs)" $? \
		"$(tshark -r "$BCAP" -Y '_ws.malformed || _ws.expert.severity >= 0x00600000' 2>/dev/null | head)"
else
	fail "burst capture" "$TOOLS/burst_capture missing (make $TOOLS/burst_capture)"
fi
finish
