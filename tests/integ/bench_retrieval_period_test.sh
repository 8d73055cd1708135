#!/usr/bin/env bash
# bench_retrieval_period_test.sh [IPXLAB] - B8 on the period machines,
# `ipxlab bench retrieval --period`: a bad --period refused (no such
# period, a broken file, with --hub, --server or --bridge); a small run
# twice with the same seed prints the same (simulated time, every
# configuration on its set-up's period imaging-C-D, the server's CPU its
# machine's); a period file beside its set-up files is found as the
# built-in family is; and the note's set-up (18 workstations, 100 images
# each: about 7 s of CPU) keeps the fidelity table's median absolute error
# within 10 % and the note's finishing order.
set -u
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"
use_build "${1:-}"
need_exe "$BIN"
need_cmd python3
make_tmp retrieval-period

# refused OPTIONS... PATTERN: exit 2 and the message on stderr
refused() {
	local want=${*: -1} args=("${@:1:$#-1}") out rc
	out=$(timeout 10 "$BIN" bench retrieval "${args[@]}" 2>&1 >/dev/null); rc=$?
	if [ $rc = 2 ] && grep -q -- "$want" <<<"$out"; then
		pass "bench retrieval refuses ${args[*]}"
	else
		fail "bench retrieval refuses ${args[*]}" "rc=$rc" "$out"
	fi
}

printf 'kind period\nwire eth10\nserver no-such-machine\n' >"$TMP/bad.period"
refused --period no-such-period "--period: no period named 'no-such-period'"
refused --period "$TMP/bad.period" "bad.period:3"
refused --period imaging --hub 127.0.0.1:1 "not with --hub"
refused --period imaging --bridge isn "not with --bridge"

# the same seed twice: the same text (stdout: under the sanitizers
# stderr carries a runtime warning naming the process)
SMALL=(bench retrieval --period imaging --stations 3 --files 3 --seed 5 -q)
a=$(timeout 60 "$BIN" "${SMALL[@]}" 2>"$TMP/small-a.err"); rca=$?
b=$(timeout 60 "$BIN" "${SMALL[@]}" 2>"$TMP/small-b.err"); rcb=$?
if [ $rca = 0 ] && [ $rcb = 0 ] && [ "$a" = "$b" ]; then
	pass "--period: the same seed prints the same"
else
	fail "--period: the same seed prints the same" "rc=$rca/$rcb" \
		"$(diff <(echo "$a") <(echo "$b") | head -20)"
fi
for want in "on period imaging-16-32" "on period imaging-32-32" \
	"the period server machine's CPU busy time" "# fidelity: B8" \
	"today: the same run on the wire alone"; do
	if grep -qF -- "$want" <<<"$a"; then
		pass "--period text has '$want'"
	else
		fail "--period text has '$want'" "$a"
	fi
done

# a period file: its set-up files beside it (FILE-C-D.period) are used
for s in 16-16 16-32 32-16 32-32; do
	printf 'kind period\nbase imaging-%s\nwhat mine %s\n' "$s" "$s" \
		>"$TMP/mine-$s.period"
done
printf 'kind period\nbase imaging\n' >"$TMP/mine.period"
out=$(timeout 60 "$BIN" bench retrieval --period "$TMP/mine.period" \
	--stations 2 --files 2 -q 2>&1); rc=$?
if [ $rc = 0 ] && grep -qF "on period mine-32-16" <<<"$out"; then
	pass "--period FILE: FILE-C-D.period beside it"
else
	fail "--period FILE: FILE-C-D.period beside it" "rc=$rc" "$out"
fi

# the note's set-up: the fidelity median within 10 %, the note's order
timeout 300 "$BIN" bench retrieval --period imaging --files 100 --json -q \
	>"$TMP/fid.json" 2>"$TMP/fid.err"; rc=$?
if [ $rc = 0 ] && python3 - "$TMP/fid.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
f = d["fidelity"]
assert f["period"] == "imaging", f["period"]
assert len(f["rows"]) == 7, f["rows"]
assert f["median_abs_error_pct"] <= 10.0, f["median_abs_error_pct"]
assert d["note_order_match"] is True
periods = {c["note_setup"]: c["period"] for c in d["configurations"]}
assert periods == {"16/16": "imaging-16-16", "16/32": "imaging-16-32",
                   "32/16": "imaging-32-16", "32/32": "imaging-32-32"}, periods
assert d["conditions"]["simulated"] is True
for r in f["rows"]:
    u = {"s": "s", "%": "pct"}[r["unit"]]
    assert r["model_" + u] is not None, r
    assert r["today_" + u] is not None, r
PY
then
	pass "--period imaging: median absolute error <= 10 %, the note's order"
else
	fail "--period imaging: median absolute error <= 10 %, the note's order" \
		"rc=$rc" "$(head -c 2000 "$TMP/fid.err")" \
		"$(python3 -c 'import json,sys; print(json.dumps(json.load(open(sys.argv[1])).get("fidelity"), indent=1))' "$TMP/fid.json" 2>&1 | head -60)"
fi
finish
