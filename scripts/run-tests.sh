#!/usr/bin/env bash
# run-tests.sh BUILD [unit] - run every test and print one closing line
# "N passed, N failed, N skipped".
#
# Unit tests are cmocka programs (one count per test case). Integration and
# interop tests are scripts under tests/integ and tests/interop that print
# "PASS: name" / "FAIL: name" lines; exit 77 means the whole script was
# skipped (it prints why). Fuzzers replay their corpora briefly.
# Integration and interop scripts run TEST_JOBS (default 2) at a time,
# except those in SERIAL_TESTS; TEST_JOBS=1 runs them one by one.
set -uo pipefail
BUILD=${1:-build}
ONLY=${2:-all}
cd "$(dirname "$0")/.."
BIN="$BUILD/ipxlab"
pass=0 fail=0 skip=0
TEST_JOBS=${TEST_JOBS:-2}
OUTD=$(mktemp -d)
trap 'rm -rf "$OUTD"' EXIT
failed=()
fail_lines=()	# one line per failed program, repeated at the end (a CI log keeps its tail)

run_cmocka() {
	local t=$1 out rc p f
	out=$(timeout 300 "$t" 2>&1); rc=$?
	p=$(printf '%s\n' "$out" | sed -n 's/^\[  PASSED  \] \([0-9]*\) test.*/\1/p' | tail -1)
	f=$(printf '%s\n' "$out" | sed -n 's/^\[  FAILED  \] \([0-9]*\) test.*/\1/p' | tail -1)
	p=${p:-0} f=${f:-0}
	if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then f=1; fi
	pass=$((pass + p)); fail=$((fail + f))
	if [ "$f" -ne 0 ]; then
		failed+=("$(basename "$t")")
		fail_lines+=("$(basename "$t"): $(printf '%s\n' "$out" | grep -m3 -E 'FAILED|ERROR|Sanitizer' | cut -c1-200 | tr '\n' ' ')")
		printf '%s\n' "$out" | grep -E 'FAIL|ERROR|error|Assert|assert' | head -20
	fi
	printf '  %-28s %d passed, %d failed\n' "$(basename "$t")" "$p" "$f"
}

# report_script NAME RC SECS OUTFILE: count the PASS:/FAIL: lines of one
# finished script and print its line (and its tail when it failed)
report_script() {
	local name=$1 rc=$2 secs=$3 out p f
	out=$(cat "$4")
	if [ "$rc" -eq 77 ]; then
		skip=$((skip + 1))
		printf '  %-28s skipped: %s\n' "$name" "$(printf '%s\n' "$out" | grep -m1 SKIP)"
		return
	fi
	p=$(printf '%s\n' "$out" | grep -c '^PASS:')
	f=$(printf '%s\n' "$out" | grep -c '^FAIL:')
	if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then f=1; fi
	if [ "$rc" -eq 0 ] && [ "$p" -eq 0 ]; then f=1; fi	# ran nothing
	pass=$((pass + p)); fail=$((fail + f))
	if [ "$f" -ne 0 ]; then
		failed+=("$name")
		fail_lines+=("$name: $(printf '%s\n' "$out" | grep -m3 '^FAIL:' | cut -c1-200 | tr '\n' ' ')$([ "$rc" -ne 0 ] && echo "(exit $rc)")")
		printf '%s\n' "$out" | tail -40 | sed 's/^/    | /'
	fi
	printf '  %-28s %d passed, %d failed (%d s)\n' "$name" "$p" "$f" "$secs"
}

# A script's output goes through a file, not $(...), so that a child it
# left behind cannot hold a pipe open.
run_script() {
	local s=$1 name t0 rc
	name=$(basename "$s")
	t0=$SECONDS
	timeout 600 bash "$s" "$BIN" >"$OUTD/$name.out" 2>&1; rc=$?
	report_script "$name" "$rc" $((SECONDS - t0)) "$OUTD/$name.out"
}

# run_pool SCRIPT...: run the scripts TEST_JOBS at a time (each waits mostly
# on timers and peers, not the CPU), then report them in the given order.
# Scripts named in SERIAL_TESTS (wall-clock bounds on a loaded machine) run
# alone afterwards.
SERIAL_TESTS=" cli_hang_test.sh mount_test.sh bridge_test.sh install_test.sh "
run_pool() {
	local s name par=() ser=() running=0
	for s in "$@"; do
		[ -f "$s" ] || continue
		name=$(basename "$s")
		if [ "$TEST_JOBS" -le 1 ] || [[ $SERIAL_TESTS == *" $name "* ]]; then
			ser+=("$s")
		else
			par+=("$s")
		fi
	done
	for s in "${par[@]}"; do
		name=$(basename "$s")
		if [ "$running" -ge "$TEST_JOBS" ]; then
			wait -n; running=$((running - 1))
		fi
		(
			t0=$SECONDS
			timeout 600 bash "$s" "$BIN" >"$OUTD/$name.out" 2>&1
			echo "$? $((SECONDS - t0))" >"$OUTD/$name.rc"
		) &
		running=$((running + 1))
	done
	wait
	for s in "${par[@]}"; do
		name=$(basename "$s")
		read -r rc secs <"$OUTD/$name.rc"
		report_script "$name" "$rc" "$secs" "$OUTD/$name.out"
	done
	for s in "${ser[@]}"; do run_script "$s"; done
}

echo "unit tests:"
for t in "$BUILD"/tests/test_*; do
	[ -x "$t" ] && run_cmocka "$t"
done
if [ "$ONLY" = all ]; then
	for dir in tests/integ tests/interop; do
		[ -d "$dir" ] || continue
		echo "${dir#tests/} tests:"
		run_pool "$dir"/*_test.sh
	done
	# The sanitizer build skips them: the fuzzers are sanitized already.
	if [ -x scripts/run-fuzz.sh ] && [ -z "${SKIP_FUZZ:-}" ]; then
		echo "fuzzers:"
		# Each corpus replayed and 1 s of new inputs (make test stays under 12 min): `make fuzz-run` runs 20 s.
		FUZZ_TIME=${FUZZ_TIME:-1} run_script scripts/run-fuzz.sh
	fi
fi
if [ ${#failed[@]} -gt 0 ]; then
	printf '  %s\n' "${fail_lines[@]}"
	echo "failed: ${failed[*]}"
fi
echo "tests took $SECONDS s"
echo "$pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
