#!/usr/bin/env bash
# ncp_names_test.sh [IPXLAB] - long names through the LONG (OS/2) name
# space (NCP 0x57), `ipxlab ncp` against `ipxlab server` on a loopback
# hub: put and get of "Quarterly Report 2026.txt" (equal bytes, the host
# name exact), ls of a directory with long and short names, stat, mv and
# rm of long names, mkdir of a name with spaces; with --dos-names the
# same directory shows the 8.3 aliases and a long name is refused before
# the server is asked. A few seconds.
set -u
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"
use_build "${1:-}"
need_exe "$BIN"
make_tmp ncpnames

start_hub
mkdir -p "$TMP/sys" "$TMP/out"
"$BIN" server --hub "$HUB" --name NAMES --volume SYS="$TMP/sys" \
	>"$TMP/server.out" 2>"$TMP/server.err" </dev/null &
PIDS+=("$!")
wait_for "$TMP/server.err" "ready at" 50 || { fail "server starts" "$TMP/server.err"; finish; }
n() { timeout 30 "$BIN" ncp --hub "$HUB" --server NAMES "$@"; }

LONG="Quarterly Report 2026.txt"
head -c 50000 /dev/urandom >"$TMP/$LONG"
echo short >"$TMP/sys/SHORT.TXT"
n put "$TMP/$LONG" 2>"$TMP/put.err" && cmp -s "$TMP/$LONG" "$TMP/sys/$LONG" &&
	pass "put of '$LONG': the host file has that very name and the bytes" ||
	fail "put of a long name" "$TMP/put.err" "$(ls "$TMP/sys")"
n get "SYS:$LONG" "$TMP/out/got" 2>"$TMP/get.err" && cmp -s "$TMP/$LONG" "$TMP/out/got" &&
	pass "get of '$LONG': the same bytes" || fail "get of a long name" "$TMP/get.err"
n get "SYS:quarterly report 2026.TXT" "$TMP/out/any" 2>"$TMP/get2.err" &&
	cmp -s "$TMP/$LONG" "$TMP/out/any" &&
	pass "get in another case finds it" || fail "get in another case" "$TMP/get2.err"

n mkdir "SYS:My Documents" 2>"$TMP/mk.err" && [ -d "$TMP/sys/My Documents" ] &&
	pass "mkdir of a name with a space" || fail "mkdir 'My Documents'" "$TMP/mk.err"
n ls SYS: >"$TMP/ls.out" 2>"$TMP/ls.err"
grep -q "^$LONG " "$TMP/ls.out" && grep -q "^SHORT.TXT " "$TMP/ls.out" &&
	grep -q "^My Documents .*<DIR>" "$TMP/ls.out" &&
	pass "ls shows long and short names" || fail "ls with long names" "$TMP/ls.out" "$TMP/ls.err"
n stat "SYS:$LONG" >"$TMP/stat.out" 2>&1 && has "$TMP/stat.out" "^size 50000" &&
	pass "stat of a long name" || fail "stat of a long name" "$TMP/stat.out"
# The DOS name space of the same server: aliases, long names refused.
n --dos-names ls SYS: >"$TMP/dos.out" 2>&1
grep -Eq '^QU[0-9A-F]{4}~1\.TXT ' "$TMP/dos.out" && grep -Eq '^MY[0-9A-F]{4}~1 .*<DIR>' "$TMP/dos.out" &&
	grep -q "^SHORT.TXT " "$TMP/dos.out" &&
	pass "--dos-names: long names show under their 8.3 aliases" ||
	fail "--dos-names ls shows the aliases" "$TMP/dos.out"
alias=$(grep -Eo '^QU[0-9A-F]{4}~1\.TXT' "$TMP/dos.out")
n --dos-names get "SYS:$alias" "$TMP/out/alias" 2>"$TMP/dosget.err" &&
	cmp -s "$TMP/$LONG" "$TMP/out/alias" &&
	pass "--dos-names: get by the alias" || fail "--dos-names get by the alias" "$TMP/dosget.err"
n --dos-names stat "SYS:$LONG" 2>"$TMP/dos.err"; rc=$?
[ $rc = 1 ] && has "$TMP/dos.err" "not an 8.3 name" &&
	pass "--dos-names: a long name is refused (not an 8.3 name)" ||
	fail "--dos-names refuses a long name" "rc=$rc" "$TMP/dos.err"
n mv "SYS:$LONG" "SYS:My Documents/Annual Report.txt" 2>"$TMP/mv.err" &&
	[ -f "$TMP/sys/My Documents/Annual Report.txt" ] && [ ! -e "$TMP/sys/$LONG" ] &&
	pass "mv of long names into a directory" || fail "mv of long names" "$TMP/mv.err"

n rm "SYS:My Documents/*.txt" 2>"$TMP/rm.err" &&
	[ -z "$(ls -A "$TMP/sys/My Documents")" ] &&
	pass "rm with a wildcard of long names" || fail "rm of long names" "$TMP/rm.err"
n rmdir "SYS:My Documents" 2>"$TMP/rmd.err" && [ ! -e "$TMP/sys/My Documents" ] &&
	pass "rmdir of a name with a space" || fail "rmdir 'My Documents'" "$TMP/rmd.err"
finish
