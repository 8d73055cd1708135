#!/usr/bin/env bash
# gen-man.sh BIN MKMAN_SHELLCFG OUTDIR VERSION DATE - write the manual
# pages into OUTDIR: ipxlab.1 (dist/man/ipxlab.1.in with the command list),
# ipxlab-CMD.1 for every command in BIN's table (its --help text as man(7),
# through help2roff.awk; a verb with help of its own, such as each
# benchmark, gets a section), and ipxlab-shell.cfg.5 (its template with the
# parameter table, by MKMAN_SHELLCFG). Run by `make man`.
set -euo pipefail
BIN=$1 MKCFG=$2 OUT=$3 VERSION=$4 DATE=$5
HERE=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=../cli-table.sh
. "$HERE/../cli-table.sh"
mkdir -p "$OUT"

# roff text: backslashes escaped
roff() { sed 's/\\/\\e/g'; }
# the template on stdin with @VERSION@ and @DATE@ filled in
fill() { sed -e "s|@VERSION@|$VERSION|g" -e "s|@DATE@|$DATE|g"; }
h2r() { awk -v sections="$1" -f "$HERE/help2roff.awk"; }

# page CMD SUMMARY: ipxlab-CMD.1
page() {
	local cmd=$1 summary=$2 help verb own upper
	help=$(cli_help "$BIN" "$cmd")
	upper=$(printf '%s' "$cmd" | tr '[:lower:]' '[:upper:]')
	printf '.TH IPXLAB-%s 1 "@DATE@" "ipxlab @VERSION@" "ipxlab manual"\n' "$upper" | fill
	# no hyphenation, left-adjusted: justified, a long word (a path, a list
	# of verbs) spread the line before it into wide gaps
	printf ".nh\n.ad l\n"
	printf '.SH NAME\nipxlab\\-%s \\- %s\n' "$cmd" "$(printf '%s' "$summary" | roff)"
	printf '%s\n' "$help" | h2r 1
	for verb in $(cli_verbs "$(printf '%s\n' "$help" | cli_synopsis "$cmd")"); do
		own=$(cli_own_help "$BIN" "$cmd" "$verb")
		[ -n "$own" ] || continue
		printf '.SH "%s %s"\n' "$upper" "$(printf '%s' "$verb" | tr '[:lower:]' '[:upper:]')"
		printf '%s\n' "$own" | h2r 0
	done
	printf '.SH "EXIT STATUS"\n0 on success, 1 on a failure, 2 on bad usage.\n'
	if grep -q 'IPXLAB_HUB' <<<"$help"; then
		printf '.SH ENVIRONMENT\n.TP\n.B IPXLAB_HUB\nThe hub to join without \\fB\\-\\-hub\\fR or \\fB\\-\\-link\\fR.\n'
	fi
	printf '.SH "SEE ALSO"\n.BR ipxlab (1)'
	if grep -qE -- '--config|SHELL.CFG' <<<"$help"; then
		printf ',\n.BR ipxlab\\-shell.cfg (5)'
	fi
	printf '\n'
}

commands=$(cli_commands "$BIN")
[ -n "$commands" ] || { echo "gen-man: no commands in '$BIN --help'" >&2; exit 1; }
list='' see=''
while IFS=$'\t' read -r cmd summary; do
	page "$cmd" "$summary" >"$OUT/ipxlab-$cmd.1"
	list+=$(printf '.TP\n.BR ipxlab\\-%s (1)\n%s\n' "$cmd" "$(printf '%s' "$summary" | roff)")$'\n'
	see+=$(printf '.BR ipxlab\\-%s (1),' "$cmd")$'\n'
done <<<"$commands"

# (through the environment: awk -v would eat the backslashes)
LIST=$list SEE=$see awk '
	$0 == "@COMMANDS@" { printf "%s", ENVIRON["LIST"]; next }
	$0 == "@SEE_ALSO@" { printf "%s", ENVIRON["SEE"]; next }
	{ print }' "$HERE/ipxlab.1.in" | fill >"$OUT/ipxlab.1"
"$MKCFG" <"$HERE/ipxlab-shell.cfg.5.in" | fill >"$OUT/ipxlab-shell.cfg.5"
