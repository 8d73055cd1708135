# shellcheck shell=bash
# cli-table.sh - what the manual page and completion generators read from
# the built binary (sourced by dist/man/gen-man.sh and
# dist/bash-completion/gen-completion.sh): the command table as
# `ipxlab --help` prints it, each command's synopsis and help text, and the
# verbs a synopsis names. Reading the binary, not the source, keeps the
# pages and the completion true to what the program says, and a command
# added to the table in src/cli/main.c appears in both with no other edit.

# cli_commands BIN: "NAME<TAB>SUMMARY" per command, in table order
cli_commands() {
	"$1" --help | awk '
		/^commands:/ { on = 1; next }
		on && /^  [a-z]/ {
			name = $1
			sub(/^  [^ ]+ +/, "")
			printf "%s\t%s\n", name, $0
			next
		}
		on && /^$/ { exit }'
}

# cli_help BIN WORD...: the help text of `ipxlab WORD... --help` (bounded:
# a command that ignored --help must not hang the build)
cli_help() {
	local bin=$1
	shift
	timeout 10 "$bin" "$@" --help </dev/null
}

# cli_synopsis WORDS: the arguments after "usage: ipxlab WORDS" on the
# first line of a help text on stdin (WORDS e.g. "bench hub"; a usage line
# that writes them differently, "bench [protocols]", loses only "ipxlab")
cli_synopsis() {
	local first
	IFS= read -r first || true
	cat >/dev/null	# the rest: a writer must not die of SIGPIPE
	first=${first#"usage: ipxlab "}
	first=${first#"$1"}
	printf '%s\n' "${first# }"
}

# cli_verbs SYNOPSIS: the lower-case words a synopsis offers as the first
# argument ("listen [SOCKET] | connect ADDR" -> listen connect;
# "add|find|status" -> add find status; "[protocols|hub]" -> protocols hub)
cli_verbs() {
	printf '%s\n' "$1" | tr ' |[]' '\n\n\n\n' |
		awk '/^[a-z][a-z0-9]*$/ && $0 != "options" && !seen[$0]++'
}

# cli_own_help BIN CMD VERB: the help of `ipxlab CMD VERB` when it is not
# the command's own (a benchmark with its own options), else nothing
cli_own_help() {
	local own base
	own=$(cli_help "$1" "$2" "$3" 2>/dev/null) || return 0
	base=$(cli_help "$1" "$2" 2>/dev/null) || true
	[ "$own" != "$base" ] && printf '%s\n' "$own"
	return 0
}
