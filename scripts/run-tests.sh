#!/usr/bin/env bash
# run-tests.sh BUILD [unit] - run every test and print one closing line
# "N passed, N failed, N skipped".
#
# Unit tests are cmocka programs (one count per test case). Integration and
# interop tests are scripts under tests/integ and tests/interop that print
# "PASS: name" / "FAIL: name" lines; exit 77 means the whole script was
# skipped (it prints why). Fuzzers replay their corpora briefly.
set -uo pipefail
BUILD=${1:-build}
ONLY=${2:-all}
cd "$(dirname "$0")/.."
BIN="$BUILD/ipxlab"
pass=0 fail=0 skip=0
OUTF=$(mktemp)
trap 'rm -f "$OUTF"' EXIT
failed=()

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
		printf '%s\n' "$out" | grep -E 'FAIL|ERROR|error|Assert|assert' | head -20
	fi
	printf '  %-28s %d passed, %d failed\n' "$(basename "$t")" "$p" "$f"
}

run_script() {
	local s=$1 out rc p f name t0
	name=$(basename "$s")
	t0=$SECONDS
	# Into a file, not $(...): a child the script left behind (a hub
	# stuck in LeakSanitizer at exit was seen) must not hold our pipe.
	timeout 600 bash "$s" "$BIN" >"$OUTF" 2>&1; rc=$?
	out=$(cat "$OUTF")
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
		printf '%s\n' "$out" | tail -40 | sed 's/^/    | /'
	fi
	printf '  %-28s %d passed, %d failed (%d s)\n' "$name" "$p" "$f" $((SECONDS - t0))
}

echo "unit tests:"
for t in "$BUILD"/tests/test_*; do
	[ -x "$t" ] && run_cmocka "$t"
done
if [ "$ONLY" = all ]; then
	for dir in tests/integ tests/interop; do
		[ -d "$dir" ] || continue
		echo "${dir#tests/} tests:"
		for s in "$dir"/*_test.sh; do
			[ -f "$s" ] && run_script "$s"
		done
	done
	# The sanitizer build skips them: the fuzzers are sanitized already.
	if [ -x scripts/run-fuzz.sh ] && [ -z "${SKIP_FUZZ:-}" ]; then
		echo "fuzzers:"
		# Each corpus replayed and 1 s of new inputs (make test stays under 12 min): `make fuzz-run` runs 20 s.
		FUZZ_TIME=${FUZZ_TIME:-1} run_script scripts/run-fuzz.sh
	fi
fi
[ ${#failed[@]} -gt 0 ] && echo "failed: ${failed[*]}"
echo "tests took $SECONDS s"
echo "$pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
