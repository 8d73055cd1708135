#!/usr/bin/env bash
# coverage.sh BUILD [unit|all] [SCRIPT...] - run the tests of an
# instrumented build (`make coverage` makes it in build/coverage with
# --coverage) and print line and branch coverage per module
# (src/<module>/) with gcovr, each module with a target marked PASS or
# MISS. unit: the unit tests; all: every integration and interop script
# too; each SCRIPT given (`make coverage SCRIPTS=...`) is run after the
# unit tests. Per-file figures go to BUILD/coverage-files.txt. Exit 1 if
# a test failed (the figures would not mean much), else 0.
set -uo pipefail
BUILD=${1:-build/coverage}
MODE=${2:-unit}
shift 2 2>/dev/null || shift $#
SCRIPTS=("$@")
cd "$(dirname "$0")/.."

# Modules with a target (docs/testing.md); the others are shown only.
TARGETED="base link ipx spx netbios rip sap hub emu ncp fileserver capture"
MODULES="base link ipx spx netbios rip sap hub emu ncp fileserver capture diag bench"
LINE_TARGET=85
BRANCH_TARGET=70
# Files only the root-only integration scripts reach (network namespaces
# and raw sockets): each module that has one also gets a row without it,
# so what the unit tests cover of the rest is seen. The target is judged
# on the whole module.
ROOT_ONLY="src/link/eth.c"

if ! command -v gcovr >/dev/null; then
	echo "coverage: gcovr is missing (scripts/install-deps.sh installs it)" >&2
	exit 1
fi
find "$BUILD" -name '*.gcda' -delete 2>/dev/null
tests_rc=0
SKIP_FUZZ=1 scripts/run-tests.sh "$BUILD" "$MODE" >"$BUILD/coverage-tests.log" 2>&1 ||
	tests_rc=1
tail -1 "$BUILD/coverage-tests.log"
for s in "${SCRIPTS[@]}"; do
	out=$(timeout 600 bash "$s" "$BUILD/ipxlab" 2>&1)
	rc=$?
	printf '%s\n' "$out" >>"$BUILD/coverage-tests.log"
	if [ "$rc" -eq 77 ]; then
		echo "$s: skipped ($(printf '%s\n' "$out" | grep -m1 SKIP))"
	elif [ "$rc" -ne 0 ]; then
		echo "$s: failed (see $BUILD/coverage-tests.log)"
		tests_rc=1
	else
		echo "$s: $(printf '%s\n' "$out" | grep -c '^PASS:') passed"
	fi
done

# Branches on lines without real code (compiler-made) are left out.
if ! gcovr -r . --object-directory "$BUILD" --filter 'src/' \
	--exclude-unreachable-branches \
	--json-summary "$BUILD/coverage.json" \
	--txt "$BUILD/coverage-files.txt" >/dev/null 2>"$BUILD/gcovr.log"; then
	cat "$BUILD/gcovr.log" >&2
	exit 1
fi

python3 - "$BUILD/coverage.json" "$MODULES" "$TARGETED" \
	"$LINE_TARGET" "$BRANCH_TARGET" "$ROOT_ONLY" <<'EOF'
import json, sys

data = json.load(open(sys.argv[1]))
modules = sys.argv[2].split()
targeted = set(sys.argv[3].split())
line_t, branch_t = float(sys.argv[4]), float(sys.argv[5])
root_only = sys.argv[6].split()
tot = {m: [0, 0, 0, 0] for m in modules}
without = {}    # module -> totals without its root-only files
for f in data["files"]:
    parts = f["filename"].split("/")
    if len(parts) < 3 or parts[0] != "src" or parts[1] not in tot:
        continue
    fig = (f["line_covered"], f["line_total"],
           f["branch_covered"], f["branch_total"])
    t = tot[parts[1]]
    for i in range(4):
        t[i] += fig[i]
    if any(r.split("/")[1] == parts[1] for r in root_only):
        w = without.setdefault(parts[1], [0, 0, 0, 0])
        if f["filename"] not in root_only:
            for i in range(4):
                w[i] += fig[i]

def pct(a, b):
    return 100.0 * a / b if b else 100.0

print("%-10s %15s %8s %17s %8s  %s" % ("module", "lines", "%", "branches", "%",
                                       "target %d/%d" % (line_t, branch_t)))
miss = 0
for m in modules:
    lc, lt, bc, bt = tot[m]
    lp, bp = pct(lc, lt), pct(bc, bt)
    if m in targeted:
        ok = lp >= line_t and bp >= branch_t
        mark = "PASS" if ok else "MISS"
        miss += not ok
    else:
        mark = "-"
    print("%-10s %7d / %5d %7.1f%% %8d / %6d %7.1f%%  %s" %
          (m, lc, lt, lp, bc, bt, bp, mark))
    if m in without:
        lc, lt, bc, bt = without[m]
        print("%-10s %7d / %5d %7.1f%% %8d / %6d %7.1f%%  %s" %
              ("  -root", lc, lt, pct(lc, lt), bc, bt, pct(bc, bt),
               "(without %s)" % ", ".join(
                   r.split("/")[-1] for r in root_only
                   if r.split("/")[1] == m)))
print("%d of %d targeted modules miss the target" % (miss, len(targeted)))
print("-root rows: without %s, which need root and network namespaces "
      "(make coverage SCRIPTS=\"tests/integ/eth_link_test.sh "
      "tests/integ/eth_test.sh\" as root reaches them)"
      % ", ".join(root_only))
EOF
echo "per file: $BUILD/coverage-files.txt"
if [ "$tests_rc" -ne 0 ]; then
	echo "coverage: some tests failed (see $BUILD/coverage-tests.log)" >&2
	exit 1
fi
exit 0
