#!/usr/bin/env bash
# install_test.sh [IPXLAB] - ipxlab installed as a user installs it:
# `make install` into a DESTDIR, the installed binary run (--version with
# the commit, --help, a hub started from its systemd unit's command line
# and a ping through it), every manual page rendered by man without a
# warning and holding every option and SHELL.CFG parameter the program
# lists, the bash completion loaded and completing, `systemd-analyze
# verify` and an exposure bound on every unit, the library used through
# pkg-config, `make uninstall` leaving no file, `make deb` installed and
# purged in a scratch root (dpkg --root) leaving nothing, and the commit
# recorded in a tarball and "unknown" outside git.
. "$(dirname "$0")/../lib.sh"
use_build "${1:-}"
need_exe "$BIN"
need_cmd make man groff systemd-analyze dpkg-deb dpkg-shlibdeps pkg-config g++
make_tmp install
cd "$REPO" || exit 1

# The build the binary under test belongs to (and its sanitizers); the
# make run here is its own, not a part of a `make test` that started us.
unset MAKEFLAGS MFLAGS MAKELEVEL
B=$(dirname "$BIN")
B=${B#"$REPO"/}
S=
case $B in */san-*) S=${B##*/san-} S=${S//-/,} ;; esac
# `make coverage INTEG=1`: anything rebuilt there (version.h follows
# HEAD) is instrumented as the rest, and linked with gcov.
C=()
case $B in build/coverage | build/coverage/*) C=(COVERAGE=1 OPT="-O0 -g") ;; esac
M=(make -s --no-print-directory -C "$REPO" BUILD="$B" SANITIZE="$S" "${C[@]}")
DEST=$TMP/dest
PFX=$DEST/usr/local
IBIN=$PFX/bin/ipxlab

"${M[@]}" DESTDIR="$DEST" install >"$TMP/install.out" 2>&1
check "make install into a DESTDIR" $? "$TMP/install.out"
[ -x "$IBIN" ] || { fail "installed binary is there" "$(find "$DEST" | head -40)"; finish; }

# ---- the installed binary ----
VER=$("${M[@]}" version)
out=$("$IBIN" --version)
[ "$out" = "ipxlab ${VER% *} (commit ${VER#* })" ]
check "--version prints the version and the commit the build names ($out)" $? "want: $VER"
if git -C "$REPO" rev-parse --git-dir >/dev/null 2>&1; then
	head=$(git -C "$REPO" rev-parse --short=12 HEAD)
	[[ $out =~ \(commit\ $head(-dirty)?\)$ ]]
	check "the commit is HEAD's ($head)" $? "$out"
fi
"$IBIN" --help >"$TMP/help.out" 2>&1 && grep -q '^commands:' "$TMP/help.out"
check "--help lists the commands" $? "$TMP/help.out"
mapfile -t CMDS < <(sed -n '/^commands:/,/^$/s/^  \([a-z][a-z0-9]*\) .*/\1/p' "$TMP/help.out")
[ "${#CMDS[@]}" -ge 10 ]
check "the command table has the commands (${#CMDS[@]})" $? "$TMP/help.out"

# A hub as its unit starts it (ExecStart with the instance and the
# example options file), on loopback, and a ping through it.
UNITS=$PFX/lib/systemd/system
exec_line=$(sed -n 's/^ExecStart=//p' "$UNITS/ipxlab-hub@.service")
OPTIONS=
# shellcheck disable=SC1091
. "$PFX/share/doc/ipxlab/examples/hub-213.conf"
port=$(free_port)
read -r -a argv <<<"${exec_line//%i/$port}"
argv=("$DEST${argv[0]}" "${argv[@]:1}")
for i in "${!argv[@]}"; do
	# shellcheck disable=SC2016  # (the unit's own text)
	[ "${argv[$i]}" = '$OPTIONS' ] && unset 'argv[i]'
done
read -r -a opts <<<"$OPTIONS"
"${argv[@]}" "${opts[@]}" --bind 127.0.0.1 -q 2>"$TMP/hub.err" &
hub_pid=$!
PIDS+=($hub_pid)
"$IBIN" listen --hub "127.0.0.1:$port" -t 20 >/dev/null 2>"$TMP/listen.err" &
PIDS+=($!)
wait_for "$TMP/listen.err" 'listening on' 50
out=$("$IBIN" ping --hub "127.0.0.1:$port" -c 2 -i 0.2 -W 0.3 2>&1)
grep -Eq 'replies from (1 node|[2-9][0-9]* nodes)' <<<"$out"
check "the installed hub (the unit's command line) relays, and ping gets an answer through it" $? \
	"ExecStart: ${argv[*]} ${opts[*]}" "$out" "$TMP/hub.err" "$TMP/listen.err"
# systemctl reload runs ExecReload: the hub prints its counters.
reload=$(sed -n 's/^ExecReload=//p' "$UNITS/ipxlab-hub@.service")
read -r -a rargv <<<"${reload//\$MAINPID/$hub_pid}"
"${rargv[@]}" && wait_for "$TMP/hub.err" '^unicasts [0-9]+' 30
check "the unit's ExecReload ($reload) makes the hub print its counters" $? "$TMP/hub.err"

# cited_docs BIN PAGES...: every *.md file the help texts of BIN (the
# command list, each command's, each benchmark's) and the page sources
# PAGES cite, one a line
cited_docs() {
	local bin=$1 c v
	shift
	{
		"$bin" --help
		for c in $("$bin" --help | sed -n '/^commands:/,/^$/s/^  \([a-z][a-z0-9]*\) .*/\1/p'); do
			"$bin" "$c" --help
		done
		for v in $("$bin" help bench | head -1 | sed 's/^usage: ipxlab bench//' | grep -oE '[a-z]+' | grep -vx options); do
			"$bin" bench "$v" --help
		done
		[ $# = 0 ] || zcat -f "$@"
	} 2>/dev/null | grep -oE '[^][ ()`"'"'"'<>]+\.md\b' | sort -u
}
# missing_docs ROOT BIN PAGES...: the cited documents not installed under ROOT
missing_docs() {
	local root=$1 d
	shift
	for d in $(cited_docs "$@"); do
		[[ $d == /* ]] && [ -f "$root$d" ] || printf ' %s' "$d"
	done
}
n=$(cited_docs "$IBIN" "$PFX"/share/man/man*/* | wc -l)
miss=$(missing_docs "$DEST" "$IBIN" "$PFX"/share/man/man*/*)
[ "$n" -ge 3 ] && [ -z "$miss" ]
check "every document help and the pages cite is installed there ($n cited)" $? "not installed:$miss"

# The installed README speaks of no command of the table as still coming.
coming=
for c in "${CMDS[@]}"; do
	grep -Eq "ipxlab $c\b[^.]*(being added|not yet|to come)" "$PFX/share/doc/ipxlab/README.md" && coming+=" $c"
done
[ -z "$coming" ]
check "the README calls no command it ships 'being added'" $? "still coming:$coming"

# Every option an example options file uses is one the command has.
for ex in "$PFX"/share/doc/ipxlab/examples/*.conf; do
	cmd=$(basename "$ex" .conf)
	cmd=${cmd%%-*}
	printf '%s\n' "${CMDS[@]}" | grep -qx "$cmd" || continue	# (not built yet)
	OPTIONS=
	# shellcheck disable=SC1090
	. "$ex"
	bad=
	for w in $OPTIONS; do
		[[ $w == --* ]] && ! "$IBIN" "$cmd" --help | grep -q -- "$w\b" && bad+=" $w"
	done
	[ -z "$bad" ]
	check "examples/${ex##*/}: every option is one of 'ipxlab $cmd'" $? "unknown:$bad"
done

# ---- manual pages ----
MAN=$PFX/share/man
pages=("$MAN"/man1/*.1 "$MAN"/man5/*.5)
bad=
for p in "${pages[@]}"; do
	if ! MANWIDTH=80 LC_ALL=C man --warnings -l "$p" >"$TMP/page.txt" 2>"$TMP/page.err" ||
		! groff -ww -man -Tutf8 -z "$p" 2>>"$TMP/page.err" ||
		[ -s "$TMP/page.err" ] || [ ! -s "$TMP/page.txt" ]; then
		bad+="$(basename "$p"): $(head -3 "$TMP/page.err")"$'\n'
	fi
done
[ -z "$bad" ]
check "man (and groff -ww) render all ${#pages[@]} pages without a warning" $? "$bad"

# A command's page is left-adjusted (justified, a long list of verbs or a
# path spread the line before it into wide gaps): no synopsis has a gap,
# no line two (an option's tag and its text are one).
gaps=
for p in "$MAN"/man1/*.1; do
	syn=$(MANWIDTH=80 LC_ALL=C man -l "$p" 2>/dev/null | sed -n '/^SYNOPSIS/,/^[A-Z]/p' | sed '1d;$d')
	grep -Eq '[^ ]   +[^ ]' <<<"$syn" && gaps+="$(basename "$p"): $syn"$'\n'
	[ "${p##*/}" = ipxlab.1 ] && continue	# (prose of its own, justified)
	wide=$(MANWIDTH=80 LC_ALL=C man -l "$p" 2>/dev/null | sed '1d;$d' | grep -E '[^ ]  +[^ ].*[^ ]  +[^ ]')
	[ -n "$wide" ] && gaps+="$(basename "$p"): $wide"$'\n'
done
[ -z "$gaps" ]
check "no synopsis, and no line of a command's page, has wide gaps between its words" $? "$gaps"

# page_text PAGE: its rendered text as one line, blanks squeezed
page_text() { MANWIDTH=80 LC_ALL=C man -l "$1" 2>/dev/null | tr -s ' \n' '  '; }
missing=
for c in "${CMDS[@]}"; do
	p=$MAN/man1/ipxlab-$c.1
	[ -f "$p" ] || { missing+=" ipxlab-$c.1(no page)"; continue; }
	text=$(page_text "$p")
	for o in $("$IBIN" "$c" --help | grep -oE -- '--[a-z][a-z0-9-]*' | sort -u); do
		grep -qF -- "$o" <<<"$text" || missing+=" $c:$o"
	done
	grep -qF "ipxlab-$c(1)" <<<"$(page_text "$MAN/man1/ipxlab.1")" || missing+=" ipxlab(1):$c"
done
[ -z "$missing" ]
check "a page per command, listed in ipxlab(1), with every option its --help names" $? "missing:$missing"

text=$(page_text "$MAN/man5/ipxlab-shell.cfg.5")
missing='' n=0
while IFS= read -r line; do
	name=$(printf '%s' "${line:0:24}" | sed 's/ *$//')
	value=$(printf '%s' "${line:25:20}" | sed 's/ *$//')
	n=$((n + 1))
	grep -qF "$name" <<<"$text" && grep -qF "default $value" <<<"$text" || missing+=" [$name = $value]"
done < <("$IBIN" config | tail -n +2)
[ -z "$missing" ] && [ "$n" -ge 18 ]
check "ipxlab-shell.cfg(5) gives every parameter 'ipxlab config' prints with its default ($n)" $? \
	"missing:$missing"

# ---- bash completion ----
COMP=$PFX/share/bash-completion/completions/ipxlab
# complete WORD...: what the completion offers for the last WORD
complete_words() {
	bash --norc --noprofile -c '
		. "$1" || exit 1
		shift
		COMP_WORDS=("$@")
		COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
		_ipxlab
		printf "%s\n" "${COMPREPLY[@]}"' complete "$COMP" "$@" 2>&1 | sort | tr '\n' ' '
}
out=$(bash --norc --noprofile -c '. "$1" && complete -p ipxlab' x "$COMP" 2>&1)
[ "$out" = "complete -F _ipxlab ipxlab" ]
check "the completion script loads in bash and registers for ipxlab" $? "$out"
got=$(complete_words ipxlab '')
want=$(printf '%s\n' "${CMDS[@]}" help --help --version | sort | tr '\n' ' ')
[ "$got" = "$want" ]
check "it completes every subcommand of the table" $? "got:  $got" "want: $want"
got=$(complete_words ipxlab ro)
[ "$got" = "router routes " ]
check "it completes a prefix (ro: $got)" $? "$got"
got=$(complete_words ipxlab hub --id)
[ "$got" = "--idle-timeout " ]
check "it completes a command's options (hub --id: $got)" $? "$got"
got=$(complete_words ipxlab spx '')
[ "$got" = "connect listen " ]
check "it completes a command's verbs (spx: $got)" $? "$got"
got=$(complete_words ipxlab bench hub --w)
[ "$got" = "--warmup --window " ]
check "it completes a benchmark's own options (bench hub --w: $got)" $? "$got"
got=$(complete_words ipxlab bench battery --na)
[ -z "${got// /}" ]
check "it offers a benchmark no option it refuses (bench battery --na: '$got')" $? "$got"
got=$(complete_words ipxlab hub --profile e)
[ "$got" = "eth10 " ]
check "it completes a profile name after --profile (hub --profile e: $got)" $? "$got"
got=$(complete_words ipxlab bench battery --profile tr)
[ "$got" = "tr16 tr4 " ]
check "it completes a profile name after a benchmark's --profile (tr: $got)" $? "$got"
got=$(complete_words ipxlab bridge --profile "$TMP/ins")
[ "$got" = "$TMP/install.out " ]
check "it completes a profile file after --profile" $? "$got"
got=$(complete_words ipxlab profile i)
[ "$got" = "include isn " ]
check "it completes profile's argument with names and files (profile i: $got)" $? "$got"
got=$(complete_words ipxlab period tr)
[ "$got" = "tr4-1990 " ]
check "it completes period's argument with the period names (period tr: $got)" $? "$got"
# Every option offered is one the command takes: given with a value of
# its kind, then --help, it is not refused as unknown (each command's
# option loop stops at --help).
refused=
for key in "${CMDS[@]}" $("$IBIN" help bench | head -1 | sed 's/^usage: ipxlab bench//' |
	grep -oE '[a-z]+' | grep -vx options | sed 's/^/bench:/'); do
	key=${key/:/ }
	case $key in spx) pre=(spx listen) ;; netbios) pre=(netbios add X) ;; *) read -r -a pre <<<"$key" ;; esac
	for o in $(bash --norc --noprofile -c '. "$1"; _ipxlab_opts "$2"' x "$COMP" "$key"); do
		kind=$(bash --norc --noprofile -c '. "$1"; _ipxlab_kind "$2" "$3"' x "$COMP" "$key" "$o")
		case $kind in
		'') val=() ;;
		file) val=(/dev/null) ;;
		profile) val=(eth10) ;;
		period) val=(tr4-1990) ;;
		iface) val=(lo) ;;
		*) val=(1) ;;
		esac
		timeout 5 "$IBIN" "${pre[@]}" "$o" "${val[@]}" --help </dev/null >/dev/null 2>"$TMP/opt.err"
		grep -Eq "unknown option|unrecognized option|invalid option" "$TMP/opt.err" && refused+=" [$key $o]"
	done
done
[ -z "$refused" ]
check "every option the completion offers, the command takes" $? "refused:$refused"
got=$(complete_words ipxlab listen --pcap "$TMP/ins")
[ "$got" = "$TMP/install.out " ]
check "it completes a file after an option that takes one" $? "$got"

# ---- systemd units ----
# verify_root DIR: DIR with what systemd-analyze needs to check units in
# it as on a running system (systemd's own units, kill)
verify_root() {
	mkdir -p "$1/usr/lib/systemd" "$1/usr/bin"
	[ -e "$1/lib" ] || ln -s usr/lib "$1/lib"
	[ -e "$1/bin" ] || ln -s usr/bin "$1/bin"
	cp -r /usr/lib/systemd/system "$1/usr/lib/systemd/"
	cp "$(type -P kill)" "$1/usr/bin/"
}
# verify_units ROOT MANPATH NAME: verify each unit instance, and bound
# its exposure (systemd-analyze security, 0-100: the sandbox applied)
verify_units() {
	local root=$1 manpath=$2 u inst rc level
	for u in hub@213 router@lan server@fs1; do
		inst=ipxlab-$u.service
		MANPATH=$manpath systemd-analyze verify --root="$root" "$inst" >"$TMP/verify.out" 2>&1
		rc=$?
		[ $rc = 0 ] && [ ! -s "$TMP/verify.out" ]
		check "$3: systemd-analyze verify accepts $inst (Documentation= pages found)" $? "$TMP/verify.out"
		systemd-analyze security --offline=yes --root="$root" --threshold=30 "$inst" \
			>"$TMP/security.out" 2>&1
		rc=$?
		level=$(grep -o 'level for [^:]*: [0-9.]*' "$TMP/security.out" | awk '{print $NF}')
		check "$3: $inst exposure ${level:-?} (at most 3.0)" $rc "$TMP/security.out"
	done
}
cp -a "$DEST" "$TMP/vroot"
verify_root "$TMP/vroot"
verify_units "$TMP/vroot" "$TMP/vroot/usr/local/share/man" "make install"

# ---- the library through pkg-config ----
cat >"$TMP/use.c" <<'EOF'
#include <stdio.h>
#include <ipxlab/config.h>
#include <ipxlab/ipx.h>
int main(void)
{
	struct ipx_config cfg;
	struct ipx_addr a;

	ipx_config_defaults(&cfg);
	if (ipx_addr_parse("00000001:FFFFFFFFFFFF:4545", &a) != 0)
		return 1;
	printf("%u %u\n", cfg.ipx_sockets, (unsigned)a.socket);
	return 0;
}
EOF
flags=$(PKG_CONFIG_PATH=$PFX/lib/pkgconfig PKG_CONFIG_SYSROOT_DIR=$DEST \
	pkg-config --cflags --libs ipxlab 2>"$TMP/pc.err")
san=()
[ -n "$S" ] && san=("-fsanitize=$S")
[ ${#C[@]} -gt 0 ] && san+=(--coverage)	# an instrumented library
# shellcheck disable=SC2086  # (pkg-config's flags are words)
${CC:-cc} -std=c11 -o "$TMP/use" "$TMP/use.c" $flags "${san[@]}" \
	>"$TMP/cc.out" 2>&1 && out=$("$TMP/use")
[ "${out:-}" = "20 17733" ]
check "a C program builds against the installed library with pkg-config ($flags)" $? \
	"$TMP/pc.err" "$TMP/cc.out" "output: ${out:-}"

# A C++ program: every installed header included, functions of the
# library called (they link only if the headers declare them extern "C").
{
	for h in "$PFX"/include/ipxlab/*.h; do printf '#include <ipxlab/%s>\n' "${h##*/}"; done
	cat <<'EOF'
#include <cstdio>
int main()
{
	struct ipx_config cfg;
	struct ipx_addr a;

	ipx_config_defaults(&cfg);
	if (ipx_addr_parse("00000001:FFFFFFFFFFFF:4545", &a) != 0)
		return 1;
	std::printf("%u %u %s\n", cfg.ipx_sockets, (unsigned)a.socket, ipx_strerror(IPX_ENOMEM));
	return 0;
}
EOF
} >"$TMP/use.cpp"
out=
# shellcheck disable=SC2086  # (pkg-config's flags are words)
${CXX:-g++} -std=c++17 -o "$TMP/usecpp" "$TMP/use.cpp" $flags "${san[@]}" \
	>"$TMP/cxx.out" 2>&1 && out=$("$TMP/usecpp")
[ "${out:-}" = "20 17733 out of memory" ]
check "a C++ program including every header links against the installed library" $? \
	"$TMP/cxx.out" "output: ${out:-}"
nog=$(grep -L 'extern "C"' "$PFX"/include/ipxlab/*.h)
[ -z "$nog" ]
check "every installed header has extern \"C\" guards" $? "without: $nog"

# ---- uninstall ----
"${M[@]}" DESTDIR="$DEST" uninstall >"$TMP/uninstall.out" 2>&1
left=$(find "$DEST" -type f -o -type l)
[ -z "$left" ]
check "make uninstall removes every file it installed" $? "$left" "$TMP/uninstall.out"

# ---- the Debian package ----
deb=$("${M[@]}" deb 2>"$TMP/deb.err" | tail -1)
[ -f "$REPO/$deb" ]
check "make deb builds $deb" $? "$TMP/deb.err"
[ -f "$REPO/$deb" ] || finish
dpkg-deb -c "$REPO/$deb" | awk '{print $NF}' >"$TMP/deb.list"
missing=
for f in ./usr/bin/ipxlab ./usr/share/man/man1/ipxlab.1.gz ./usr/share/man/man5/ipxlab-shell.cfg.5.gz \
	./usr/share/bash-completion/completions/ipxlab ./lib/systemd/system/ipxlab-hub@.service \
	./lib/systemd/system/ipxlab-router@.service ./lib/systemd/system/ipxlab-server@.service \
	./usr/share/doc/ipxlab/copyright ./usr/share/doc/ipxlab/changelog.gz; do
	grep -qx -- "$f" "$TMP/deb.list" || missing+=" $f"
done
for c in "${CMDS[@]}"; do
	grep -qx -- "./usr/share/man/man1/ipxlab-$c.1.gz" "$TMP/deb.list" || missing+=" ipxlab-$c.1.gz"
done
[ -z "$missing" ]
check "the package holds the binary, pages, completion, units and docs in Debian's places" $? \
	"missing:$missing"

R=$TMP/root
mkdir -p "$R/var/lib/dpkg/info" "$R/var/lib/dpkg/updates"
: >"$R/var/lib/dpkg/status"
# Maintainer scripts run outside the root with DPKG_ROOT set; libc6 is
# not in this empty root's database, hence --force-depends.
DPKG=(dpkg --root="$R" --force-not-root --force-script-chrootless --log=/dev/null)
"${DPKG[@]}" --force-depends -i "$REPO/$deb" >"$TMP/dpkg-i.out" 2>&1 &&
	"${DPKG[@]}" -s ipxlab 2>&1 | grep -q '^Status: install ok installed'
check "the package installs into a scratch root" $? "$TMP/dpkg-i.out"
miss=$(missing_docs "$R" "$R/usr/bin/ipxlab" "$R"/usr/share/man/man*/*)
n=$(cited_docs "$R/usr/bin/ipxlab" | grep -c '^/usr/share/doc/ipxlab/docs/')
[ "$n" -ge 3 ] && [ -z "$miss" ]
check "the package installs every document its help and pages cite ($n in /usr/share/doc/ipxlab/docs)" $? \
	"not installed:$miss"
out=$("$R/usr/bin/ipxlab" --version)
[[ $out == "ipxlab ${VER% *} (commit ${VER#* }"* ]]
check "the packaged binary names its commit ($out)" $? "$out"
cp -a "$R" "$TMP/droot"
verify_root "$TMP/droot"
verify_units "$TMP/droot" "$TMP/droot/usr/share/man" "the package"

# What the services leave behind on a real system: an enabled instance,
# a log directory with a capture, an empty state directory.
mkdir -p "$R/etc/systemd/system/multi-user.target.wants" "$R/var/log/private/ipxlab/hub-213" \
	"$R/var/log/ipxlab" "$R/var/lib/private/ipxlab/server-fs1" "$R/var/lib/ipxlab"
ln -s /lib/systemd/system/ipxlab-hub@.service \
	"$R/etc/systemd/system/multi-user.target.wants/ipxlab-hub@213.service"
ln -s ../private/ipxlab/hub-213 "$R/var/log/ipxlab/hub-213"
echo capture >"$R/var/log/private/ipxlab/hub-213/hub.pcap"
ln -s ../private/ipxlab/server-fs1 "$R/var/lib/ipxlab/server-fs1"
"${DPKG[@]}" --purge ipxlab >"$TMP/dpkg-p.out" 2>&1
rc=$?
left=$(cd "$R" && find . ! -path './var/lib/dpkg*' \( -type f -o -type l \) | sort)
dirs=$(cd "$R" && find . -mindepth 1 -type d ! -path './var/lib/dpkg*' | sort | tr '\n' ' ')
[ $rc = 0 ] && [ -z "$left" ] && ! "${DPKG[@]}" -l 2>/dev/null | grep -q ipxlab &&
	[ "$dirs" = "./etc ./etc/systemd ./etc/systemd/system ./etc/systemd/system/multi-user.target.wants ./var ./var/lib ./var/lib/private ./var/log ./var/log/private " ]
check "purge leaves nothing behind (files, links, its directories, the dpkg entry)" $? \
	"$TMP/dpkg-p.out" "left: $left" "directories: $dirs"

# ---- the commit outside git ----
mkdir -p "$TMP/nogit/dist"
cp Makefile "$TMP/nogit/" && cp dist/dist.mk "$TMP/nogit/dist/"
out=$(make -s --no-print-directory -C "$TMP/nogit" version 2>&1)
[ "$out" = "${VER% *} unknown" ]
check "outside git the commit is 'unknown' ($out)" $? "$out"
if git -C "$REPO" rev-parse --git-dir >/dev/null 2>&1; then
	tarball=$("${M[@]}" dist 2>"$TMP/dist.err" | tail -1)
	mkdir -p "$TMP/src"
	tar -xzf "$REPO/$tarball" -C "$TMP/src" 2>>"$TMP/dist.err"
	left=$(tar -tzf "$REPO/$tarball" | grep -E '\.(pid|log)$')
	[ -z "$left" ]
	check "the tarball holds no leftovers of a run (pid files, logs)" $? "$left"
	top=$TMP/src/ipxlab-${VER% *}
	env -u SANITIZE -u BUILD make -s --no-print-directory -C "$top" build/gen/version.h >>"$TMP/dist.err" 2>&1
	grep -q "IPXLAB_COMMIT \"$head\"" "$top/build/gen/version.h" 2>/dev/null
	check "a build from 'make dist' names the commit ($head)" $? "$TMP/dist.err" \
		"$top/build/gen/version.h"
fi
finish
