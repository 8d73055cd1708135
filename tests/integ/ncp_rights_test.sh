#!/usr/bin/env bash
# ncp_rights_test.sh [IPXLAB] - trustee rights with the real binaries
# through a hub on loopback: `ipxlab server --rights FILE` preset from
# the file, `ipxlab ncp rights` (effective rights and trustees), a user
# with Read and File Scan refused a put (exit 1, "no create privilege")
# and a grant by SUPERVISOR that lets the next put through and is
# written to the file, then a revoke; a bad store refuses the start with
# file:line. A few seconds.
set -u
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"
use_build "${1:-}"
need_exe "$BIN"
make_tmp ncprights
# ok NAME CMD...: PASS when CMD succeeds
ok() { local name=$1; shift; if "$@"; then pass "$name"; else fail "$name" "$TMP"/*.err; fi; }

mkdir -p "$TMP/sys/PUB"
printf 'hello\n' >"$TMP/sys/PUB/README.TXT"
printf 'hi\n' >"$TMP/local.txt"
printf 'alice Secret\nSUPERVISOR sup\n' >"$TMP/users"
printf '# preset\nSYS:PUB ALICE RF\n' >"$TMP/rights"

start_hub
# A bad store: the start is refused, with the file and line.
printf 'SYS:PUB ALICE RF\nSYS:PUB NOBODY R\n' >"$TMP/bad"
if timeout 10 "$BIN" server --hub "$HUB" --name RTEST \
	--volume SYS="$TMP/sys" --users "$TMP/users" --rights "$TMP/bad" \
	>/dev/null 2>"$TMP/bad.err" </dev/null; then
	fail "a bad rights file refuses the start" "$TMP/bad.err"
else
	ok "a bad rights file: refused with file:line" \
		has "$TMP/bad.err" "bad:2: no such user"
fi

"$BIN" server --hub "$HUB" --name RTEST --volume SYS="$TMP/sys" \
	--users "$TMP/users" --rights "$TMP/rights" \
	>"$TMP/server.out" 2>"$TMP/server.err" </dev/null &
SERVER=$!
PIDS+=("$SERVER")
wait_for "$TMP/server.err" "ready at" 50 || { fail "server starts" "$TMP/server.err"; finish; }
a() { timeout 20 "$BIN" ncp --hub "$HUB" --server RTEST -u alice -p Secret "$@"; }
su() { timeout 20 "$BIN" ncp --hub "$HUB" --server RTEST -u SUPERVISOR -p sup "$@"; }

a rights SYS:PUB >"$TMP/r1" 2>&1
ok "ncp rights: ALICE's effective rights in SYS:PUB are [ R    F ]" \
	has "$TMP/r1" '^effective \[ R    F \]$'
ok "ncp rights: without Access Control the trustees are not shown" \
	has "$TMP/r1" "trustees not shown"
su rights SYS:PUB >"$TMP/r2" 2>&1
ok "ncp rights as SUPERVISOR: all rights" has "$TMP/r2" '^effective \[SRWCEMFA\]$'
ok "ncp rights as SUPERVISOR: ALICE listed as a trustee" \
	has "$TMP/r2" '^trustee ALICE +\[ R    F \]$'
a get PUB\\README.TXT "$TMP/got.txt" >/dev/null 2>&1
ok "a read in SYS:PUB works" cmp -s "$TMP/got.txt" "$TMP/sys/PUB/README.TXT"
a put "$TMP/local.txt" PUB\\NEW.TXT >/dev/null 2>"$TMP/put.err"; rc=$?
ok "a put without Create: exit 1, no file" \
	test $rc = 1 -a ! -e "$TMP/sys/PUB/NEW.TXT"
ok "the refusal is named" has "$TMP/put.err" "create"
su grant alice RWCF SYS:PUB >"$TMP/g.out" 2>&1; rc=$?
ok "SUPERVISOR grants RWCF" test $rc = 0
ok "the grant is written to the store" has "$TMP/rights" '^SYS:PUB ALICE RWCF$'
a put "$TMP/local.txt" PUB\\NEW.TXT >/dev/null 2>&1
ok "the next put goes through" cmp -s "$TMP/local.txt" "$TMP/sys/PUB/NEW.TXT"
a grant alice S SYS:PUB >/dev/null 2>"$TMP/g2.err"; rc=$?
ok "ALICE cannot grant (no Access Control): exit 1" test $rc = 1
su revoke alice SYS:PUB >/dev/null 2>&1; rc=$?
ok "SUPERVISOR revokes" test $rc = 0
a get PUB\\README.TXT "$TMP/got2.txt" >/dev/null 2>"$TMP/get2.err"; rc=$?
ok "after the revoke a read is refused (exit 1)" test $rc = 1
ok "the store no longer has ALICE" test -z "$(grep ALICE "$TMP/rights")"
su revoke alice SYS:PUB >/dev/null 2>"$TMP/rv.err"; rc=$?
ok "revoking again: exit 1" test $rc = 1
ok "revoking again: not a trustee there" has "$TMP/rv.err" "not a trustee"
a grant alice RXZ SYS:PUB >/dev/null 2>&1; rc=$?
ok "bad rights letters: usage error (exit 2)" test $rc = 2
kill "$SERVER"
wait "$SERVER" 2>/dev/null
finish
