#!/usr/bin/env bash
# mutate.sh [--only GLOB] [--keep] [--check] - seed the bugs in tests/mutations/
# one at a time into a scratch copy of the tree, rebuild, run the unit
# tests, and print for each whether the tests caught it, and a score.
#
# A mutation file (tests/mutations/*.mut) is text, not a line-numbered
# patch, so it survives unrelated edits:
#   file: src/hub/hub.c
#   reason: one line saying what bug this stands for
#   --- original
#   the exact text, one or more lines, found exactly once in the file
#   --- replacement
#   the text put in its place
# Outcomes: caught (a unit test failed or timed out), SURVIVED (every
# test passed), no-apply (the original text is not in the file exactly
# once: the mutation needs updating), no-build (the mutant does not
# compile: a broken mutation). The score is caught / (caught + survived).
# The working files are never touched: everything happens in a copy made
# from `git ls-files` (tracked and untracked files, uncommitted edits
# included) in a temporary directory. Exit 1 below MUTATE_TARGET percent
# (default 90) or when a mutation is broken. --check only checks that
# every mutation applies (no build, no tests); --keep keeps the copy.
set -uo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
ONLY='*'
KEEP=0
CHECK=0
TARGET=${MUTATE_TARGET:-90}
TEST_TIMEOUT=${MUTATE_TIMEOUT:-60}	# seconds for each test program
while [ $# -gt 0 ]; do
	case $1 in
	--only) ONLY=$2; shift 2 ;;
	--keep) KEEP=1; shift ;;
	--check) CHECK=1; shift ;;
	-h|--help) sed -n '2,23p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	*) echo "mutate: unknown option '$1' (try --help)" >&2; exit 2 ;;
	esac
done

shopt -s nullglob extglob
muts=(tests/mutations/$ONLY.mut)
if [ ${#muts[@]} -eq 0 ]; then
	echo "mutate: no mutation matches tests/mutations/$ONLY.mut" >&2
	exit 2
fi

SCRATCH=$(mktemp -d /tmp/ipxlab-mutate.XXXXXX)
cleanup() { [ "$KEEP" = 1 ] && echo "scratch tree kept: $SCRATCH" || rm -rf "$SCRATCH"; }
trap cleanup EXIT
git ls-files -co --exclude-standard -z | grep -zv '^build/' |
	tar -c --null -T - -f - | tar -x -C "$SCRATCH" -f -
cd "$SCRATCH" || exit 1
BUILD=build/mutate
TESTS=()
for t in tests/unit/test_*.c; do
	TESTS+=("$BUILD/tests/$(basename "$t" .c)")
done
# The real-socket test last: the quick ones find most mutants first.
ORDER=()
for t in "${TESTS[@]}"; do [[ $t == */test_tunnel ]] || ORDER+=("$t"); done
for t in "${TESTS[@]}"; do [[ $t == */test_tunnel ]] && ORDER+=("$t"); done

build() {
	make -s -j2 BUILD=$BUILD OPT="-O1 -g" "${TESTS[@]}" >"$SCRATCH/build.log" 2>&1
}

# Run the unit tests; print the first that fails (nothing if all pass).
run_tests() {
	local t
	for t in "${ORDER[@]}"; do
		if ! timeout "$TEST_TIMEOUT" "$t" >/dev/null 2>&1; then
			basename "$t"
			return 0
		fi
	done
}

# Read a mutation file into M_FILE, M_REASON, M_ORIG, M_REPL.
parse() {
	local line part=head orig=() repl=()
	M_FILE= M_REASON=
	while IFS= read -r line || [ -n "$line" ]; do
		case $part:$line in
		head:file:*) M_FILE=${line#file:}; M_FILE=${M_FILE# } ;;
		head:reason:*) M_REASON=${line#reason:}; M_REASON=${M_REASON# } ;;
		*:'--- original') part=orig ;;
		*:'--- replacement') part=repl ;;
		orig:*) orig+=("$line") ;;
		repl:*) repl+=("$line") ;;
		esac
	done <"$1"
	M_ORIG=$(printf '%s\n' "${orig[@]}")
	M_REPL=$(printf '%s\n' "${repl[@]}")
	[ ${#repl[@]} -eq 0 ] && M_REPL=
	[ -n "$M_FILE" ] && [ -n "$M_REASON" ] && [ ${#orig[@]} -gt 0 ]
}

# Put the mutation into the scratch copy of M_FILE: 0 done, 1 the
# original text is not there exactly once.
apply() {
	local text rest
	[ -f "$M_FILE" ] || return 1
	text=$(<"$M_FILE")
	case $text in *"$M_ORIG"*) ;; *) return 1 ;; esac
	rest=${text#*"$M_ORIG"}
	case $rest in *"$M_ORIG"*) return 1 ;; esac
	printf '%s\n' "${text%%"$M_ORIG"*}$M_REPL$rest" >"$M_FILE"
}

if [ "$CHECK" = 1 ]; then
	bad=0
	for m in "${muts[@]}"; do
		if parse "$ROOT/$m" && cp -p "$M_FILE" .orig && apply; then
			cp .orig "$M_FILE"
		else
			echo "  no-apply  $(basename "$m" .mut)"
			bad=$((bad + 1))
		fi
	done
	echo "mutate: ${#muts[@]} mutations, $bad do not apply"
	[ "$bad" -eq 0 ]
	exit
fi

echo "mutate: baseline build and unit tests in $SCRATCH"
if ! build; then
	echo "mutate: the unmutated tree does not build:" >&2
	tail -20 "$SCRATCH/build.log" >&2
	exit 1
fi
first=$(run_tests)
if [ -n "$first" ]; then
	echo "mutate: $first fails without any mutation; fix that first" >&2
	exit 1
fi

caught=0 survived=0 noapply=0 nobuild=0
survivors=()
for m in "${muts[@]}"; do
	name=$(basename "$m" .mut)
	if ! parse "$ROOT/$m"; then
		printf '  %-9s %-34s %s\n' no-apply "$name" "(needs file:, reason: and an original)"
		noapply=$((noapply + 1))
		continue
	fi
	cp -p "$M_FILE" "$SCRATCH/.orig" 2>/dev/null
	if ! apply; then
		printf '  %-9s %-34s %s\n' no-apply "$name" "(the original text is not in $M_FILE exactly once)"
		noapply=$((noapply + 1))
		continue
	fi
	if ! build; then
		printf '  %-9s %-34s %s\n' no-build "$name" "($M_FILE: $(grep -m1 'error' "$SCRATCH/build.log"))"
		nobuild=$((nobuild + 1))
	else
		by=$(run_tests)
		if [ -n "$by" ]; then
			printf '  %-9s %-34s by %s\n' caught "$name" "$by"
			caught=$((caught + 1))
		else
			printf '  %-9s %-34s %s\n' SURVIVED "$name" "$M_REASON"
			survived=$((survived + 1))
			survivors+=("$name")
		fi
	fi
	# Back to the original, newer than its object so make rebuilds it.
	cp "$SCRATCH/.orig" "$M_FILE"
	touch "$M_FILE"
done

judged=$((caught + survived))
score=0
[ "$judged" -gt 0 ] && score=$((100 * caught / judged))
echo "mutation score: $caught caught of $judged ($score%), $survived survived," \
	"$noapply did not apply, $nobuild did not build"
[ ${#survivors[@]} -gt 0 ] && echo "survived: ${survivors[*]}"
[ "$noapply" -eq 0 ] && [ "$nobuild" -eq 0 ] && [ "$score" -ge "$TARGET" ]
