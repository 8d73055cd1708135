#!/usr/bin/env bash
# run-fuzz.sh - build every libFuzzer harness in tests/fuzz and run each
# for a bounded time over a copy of its seed corpus.
#
# Usage: scripts/run-fuzz.sh [IGNORED] [--replay] [NAME...]
#   NAME      fuzz_ipx_header, fuzz_node_input, ... (default: every
#             tests/fuzz/fuzz_*.c); the first argument may be the ipxlab
#             binary (run-tests.sh passes it) and is then ignored
#   --replay  no libFuzzer: build each harness with $CC (default cc) as a
#             plain replay program (-DFUZZ_REPLAY_MAIN, ASan+UBSan when the
#             compiler has them) and run it once over its corpus
# Env:
#   FUZZ_TIME   seconds per fuzzer (default 20)
#   FUZZ_RUNS   inputs per fuzzer (default 200000); whichever ends first
#   FUZZ_KEEP=1 keep the temporary directory (corpus copies and logs)
#
# Prints "PASS: fuzz_NAME (N runs)" or "FAIL: fuzz_NAME" with the crash
# file (copied to build/fuzz/artifacts/), its bytes in hex and the end of
# the log, then "N passed, N failed". Exits 1 on any failure, and 77 with
# "SKIP: ..." when clang or its libFuzzer is missing. The repository is
# never modified: new corpus entries stay in the temporary directory.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1

FUZZ_TIME=${FUZZ_TIME:-20}
FUZZ_RUNS=${FUZZ_RUNS:-200000}
MODE=fuzz
names=()
for arg in "$@"; do
	case $arg in
	--replay) MODE=replay ;;
	-h | --help)
		sed -n '2,/^set -uo/p' "$0" | sed '$d; s/^# \{0,1\}//'
		exit 0
		;;
	fuzz_*) names+=("${arg%.c}") ;;
	*) ;;	# the ipxlab binary from run-tests.sh: not needed here
	esac
done
if [ ${#names[@]} -eq 0 ]; then
	for f in tests/fuzz/fuzz_*.c; do
		[ -f "$f" ] && names+=("$(basename "$f" .c)")
	done
fi
if [ ${#names[@]} -eq 0 ]; then
	echo "SKIP: no harnesses in tests/fuzz"
	exit 77
fi

TMP=$(mktemp -d "${TMPDIR:-/tmp}/ipxlab-fuzz.XXXXXX") || exit 1
cleanup() {
	if [ "${FUZZ_KEEP:-0}" = 1 ]; then
		echo "kept $TMP"
	else
		rm -rf "$TMP"
	fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# Abort on the first UBSan report too (the Makefile does not make UB fatal).
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1}
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1}

PASSED=0
FAILED=0
pass() { echo "PASS: $1"; PASSED=$((PASSED + 1)); }
# fail NAME LOG [ARTIFACT]
fail() {
	local name=$1 log=$2 art=${3:-} keep
	echo "FAIL: $name"
	if [ -n "$art" ] && [ -f "$art" ]; then
		mkdir -p build/fuzz/artifacts
		keep=build/fuzz/artifacts/$(basename "$art")
		cp "$art" "$keep"
		echo "  crash file: $keep ($(wc -c <"$keep") bytes)"
		echo "  input (hex): $(head -c 2048 "$keep" | od -An -v -tx1 | tr -d ' \n')"
		echo "  reproduce: make build/fuzz/$name && build/fuzz/$name $keep"
	fi
	if [ -f "$log" ]; then
		grep -v -e '^#[0-9]' -e '^INFO:' -e '^"' -e '^\(MS\|base unit\|0x\)' \
			-e '^stat::' -e 'in fuzzer::' -e '^NOTE:' -e '^  *Combine' "$log" \
			| sed 's/ (BuildId: [0-9a-f]*)//' | grep -v '^$' | tail -n 40 \
			| sed 's/^/  | /'
	fi
	FAILED=$((FAILED + 1))
}

# Per-harness libFuzzer options: longest input worth trying.
max_len() {
	case $1 in
	fuzz_hub) echo 8192 ;;
	fuzz_config) echo 4096 ;;
	*) echo 1600 ;;
	esac
}

corpus_of() { echo "tests/fuzz/corpus/${1#fuzz_}"; }

run_fuzzer() {
	local name=$1 bin=build/fuzz/$1 log=$TMP/$1.log corpus dict runs rc art
	local -a opts
	if ! make --no-print-directory "$bin" >"$TMP/$name.build" 2>&1; then
		fail "$name (build)" "$TMP/$name.build"
		return
	fi
	corpus=$TMP/corpus-$name
	mkdir -p "$corpus"
	if [ -d "$(corpus_of "$name")" ]; then
		cp -R "$(corpus_of "$name")/." "$corpus/"
	fi
	# A fixed seed by default, so a CI run explores the same inputs each
	# time; FUZZ_SEED=0 lets libFuzzer pick one (for exploring by hand).
	opts=(-seed="${FUZZ_SEED:-1}" -runs="$FUZZ_RUNS" -max_total_time="$FUZZ_TIME" -timeout=10
	      -rss_limit_mb=2048 -max_len="$(max_len "$name")"
	      -print_final_stats=1 -artifact_prefix="$TMP/$name-")
	dict=tests/fuzz/$name.dict
	[ -f "$dict" ] && opts+=(-dict="$dict")
	# The harness runs bounded; timeout only guards against a hang in
	# libFuzzer itself.
	timeout -k 5 $((FUZZ_TIME + 60)) "$bin" "${opts[@]}" "$corpus" \
		>"$log" 2>&1
	rc=$?
	runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
	[ -n "$runs" ] || runs=$(sed -n 's/^Done \([0-9]*\) runs.*/\1/p' "$log" | tail -1)
	art=$(find "$TMP" -maxdepth 1 -name "$name-*" -type f ! -name '*.log' \
		! -name '*.build' | head -n 1)
	if [ "$rc" -ne 0 ] || [ -n "$art" ] || grep -q 'runtime error:' "$log"; then
		fail "$name" "$log" "$art"
		return
	fi
	pass "$name (${runs:-?} runs)"
}

run_replay() {
	local name=$1 bin=$TMP/$1-replay log=$TMP/$1.log cc=${CC:-cc} n
	# shellcheck disable=SC2054  # the commas are inside one option
	local -a san=(-fsanitize=address,undefined -fno-sanitize-recover=all
		      -fno-omit-frame-pointer)
	local -a lib
	# Every library folder, as the Makefile takes them (all but cli).
	mapfile -t lib < <(ls src/*/*.c | grep -v '^src/cli/')
	printf 'int main(void){return 0;}\n' >"$TMP/san.c"
	"$cc" "${san[@]}" -o "$TMP/san" "$TMP/san.c" 2>/dev/null || san=()
	if ! "$cc" -std=c11 -D_GNU_SOURCE -O1 -g -Iinclude -DFUZZ_REPLAY_MAIN \
		"${san[@]}" -o "$bin" "tests/fuzz/$name.c" "${lib[@]}" -lm \
		>"$TMP/$name.build" 2>&1; then
		fail "$name (build)" "$TMP/$name.build"
		return
	fi
	if ! "$bin" "$(corpus_of "$name")" >"$log" 2>&1; then
		fail "$name" "$log"
		return
	fi
	n=$(sed -n 's/^replayed \([0-9]*\) inputs/\1/p' "$log")
	pass "$name replay (${n:-?} inputs)"
}

if [ "$MODE" = fuzz ]; then
	if ! command -v clang >/dev/null 2>&1; then
		echo "SKIP: clang not found (libFuzzer harnesses need it; try --replay)"
		exit 77
	fi
	printf '#include <stdint.h>\n#include <stddef.h>\nint LLVMFuzzerTestOneInput(const uint8_t *d, size_t n);\nint LLVMFuzzerTestOneInput(const uint8_t *d, size_t n) { (void)d; (void)n; return 0; }\n' \
		>"$TMP/probe.c"
	if ! clang -fsanitize=fuzzer,address,undefined -o "$TMP/probe" \
		"$TMP/probe.c" >"$TMP/probe.log" 2>&1; then
		echo "SKIP: clang cannot link -fsanitize=fuzzer (libFuzzer missing): $(head -n 1 "$TMP/probe.log")"
		exit 77
	fi
fi

T0=$(date +%s)
# Build every harness first, as many at once as there are CPUs (the
# library they share is most of the work); a harness that fails to
# build is reported by its own run below.
if [ "$MODE" = fuzz ]; then
	bins=()
	for name in "${names[@]}"; do
		[ -f "tests/fuzz/$name.c" ] && bins+=("build/fuzz/$name")
	done
	[ ${#bins[@]} -gt 0 ] &&
		make --no-print-directory -j"$(nproc 2>/dev/null || echo 2)" \
			"${bins[@]}" >"$TMP/build-all.log" 2>&1
fi
for name in "${names[@]}"; do
	if [ ! -f "tests/fuzz/$name.c" ]; then
		echo "FAIL: $name (no tests/fuzz/$name.c)"
		FAILED=$((FAILED + 1))
		continue
	fi
	if [ "$MODE" = fuzz ]; then
		run_fuzzer "$name"
	else
		run_replay "$name"
	fi
done
echo "fuzzers took $(($(date +%s) - T0)) s"
echo "$PASSED passed, $FAILED failed"
[ "$FAILED" -eq 0 ]
