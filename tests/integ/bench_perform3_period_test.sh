#!/usr/bin/env bash
# bench_perform3_period_test.sh [IPXLAB] - B7 on the bulletin's machines,
# `ipxlab bench perform3 --period`: a bad period refused with clear
# messages; a short run on lantastic-1993 (0.2 simulated s a size: about
# a second of CPU) whose JSON has the period in its conditions and a
# fidelity table of the bulletin's best average and peak (988 and 1,077)
# beside ipxlab's best configuration, within the 10 % median target, with
# today (the wire alone) beside and faster; the same output twice with one
# seed; the JSON valid against docs/schema/bench-perform3.json; the text's
# table; a prediction period (8-bit) with no 1990 figure.
set -u
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"
use_build "${1:-}"
need_exe "$BIN"
need_cmd python3
make_tmp perform3p

# refused OPTIONS... PATTERN: exit 2 and the message on stderr
refused() {
	local want=${*: -1} args=("${@:1:$#-1}") out rc
	out=$(timeout 10 "$BIN" bench perform3 "${args[@]}" 2>&1 >/dev/null); rc=$?
	if [ $rc = 2 ] && grep -q -- "$want" <<<"$out"; then
		pass "bench perform3 refuses ${args[*]}"
	else
		fail "bench perform3 refuses ${args[*]}" "rc=$rc" "$out"
	fi
}

refused --period nosuch "--period: no period named 'nosuch' (there are"
refused --period "$TMP/none.period" "--period: "
refused --period lantastic-1993 --hub 127.0.0.1:1 "not with --hub or --server"
refused --period lantastic-1993 --bridge isn "not with --bridge"
printf 'kind period\nwire eth10\nserver nosuchmachine\n' >"$TMP/bad.period"
refused --period "$TMP/bad.period" "nosuchmachine"

RUN=(bench perform3 --period lantastic-1993 --seed 3 --seconds 0.2 -q)
if "$BIN" "${RUN[@]}" --json >"$TMP/a.json" 2>"$TMP/a.err" &&
	"$BIN" "${RUN[@]}" --json >"$TMP/b.json" 2>>"$TMP/a.err" &&
	cmp -s "$TMP/a.json" "$TMP/b.json"; then
	pass "perform3 --period twice with one seed: the same JSON"
else
	fail "perform3 --period twice with one seed: the same JSON" "$(head -5 "$TMP/a.err")"
fi
if out=$(python3 - "$TMP/a.json" "$REPO/docs/schema/bench-perform3.json" <<'PY' 2>&1
import json, sys
d = json.load(open(sys.argv[1]))
c = d["conditions"]
assert c["simulated"] is True and c["period"] == "lantastic-1993", c
assert c["period_server"] == "pc486-50" and c["period_station"] == "pc386sx-25", c
assert c["profile"] == "eth10" and c["profile_default"] is False, c
f = d["fidelity"]
assert f["period"] == "lantastic-1993" and f["unit"] == "kB/s", f
assert f["today_what"].startswith("the wire alone"), f
rows = f["rows"]
assert [r["ref_kb_s"] for r in rows] == [988, 1077], rows
for r in rows:
    assert r["model_kb_s"] > 0 and r["today_kb_s"] > r["model_kb_s"], r
    assert abs(r["error_pct"] - (r["model_kb_s"] - r["ref_kb_s"]) / r["ref_kb_s"] * 100) < 0.01, r
assert f["median_abs_error_pct"] <= f["target_pct"] == 10, f
# the model row is the best configuration's average and peak
best = [x for x in d["configurations"] if x["name"] == d["best_configuration"]][0]
assert abs(best["average_total_kB_per_s"] - rows[0]["model_kb_s"]) < 0.01
assert abs(best["peak_total_kB_per_s"] - rows[1]["model_kb_s"]) < 0.01
assert all(x["average_total_kB_per_s"] <= best["average_total_kB_per_s"]
           for x in d["configurations"] if x["status"] == "measured")
try:
    import jsonschema
except ImportError:
    jsonschema = None
if jsonschema:
    jsonschema.validate(d, json.load(open(sys.argv[2])))
PY
); then
	pass "perform3 --period JSON: the period's machines, the fidelity table within 10 %, today faster"
else
	fail "perform3 --period JSON: the period's machines, the fidelity table within 10 %, today faster" "$out"
fi

"$BIN" "${RUN[@]}" >"$TMP/a.txt" 2>&1
if grep -q '^# fidelity: B7: throughput in all, the best configuration, period lantastic-1993$' "$TMP/a.txt" &&
	grep -q '^average over the 16 sizes *988.0 ' "$TMP/a.txt" &&
	grep -q '^peak  *1077.0 ' "$TMP/a.txt" &&
	grep -q '^median absolute error [0-9.]* % (target 10 %)$' "$TMP/a.txt" &&
	grep -q 'period lantastic-1993: the file server on pc486-50, the workstations on pc386sx-25' "$TMP/a.txt"; then
	pass "perform3 --period text: the conditions name the machines, the table after the benchmark's output"
else
	fail "perform3 --period text: the conditions name the machines, the table after the benchmark's output" "$(tail -8 "$TMP/a.txt")"
fi

"$BIN" bench perform3 --period lantastic-8bit-1993 --seconds 0.2 -q --only burst/tuned >"$TMP/p.txt" 2>&1
if grep -q 'a prediction: no 1990 figure' "$TMP/p.txt" &&
	grep -q '^average over the 16 sizes *- ' "$TMP/p.txt" &&
	! grep -q '^median absolute error' "$TMP/p.txt"; then
	pass "perform3 --period lantastic-8bit-1993: a prediction beside no 1990 figure"
else
	fail "perform3 --period lantastic-8bit-1993: a prediction beside no 1990 figure" "$(tail -6 "$TMP/p.txt")"
fi

finish
