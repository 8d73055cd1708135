#!/usr/bin/env bash
# bench_perform3_test.sh [IPXLAB] - B7, `ipxlab bench perform3`, as a user
# runs it: bad options refused with clear messages; a short --sim run whose
# JSON has the four configurations, 16 sizes from 64,512 down to 3,072 with
# every workstation, totals that are the workstations' sums, peaks never
# below their means, units in the field names, the 1990 figures beside,
# and the same output twice; the CSV's rows; the text's tables and curve;
# a real-time run on an eth10 segment under its 1.25 MB/s; and Ctrl-C
# mid-run (simulated and real time): what finished, "complete": false,
# exit 1.
set -u
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"
use_build "${1:-}"
need_exe "$BIN"
need_cmd python3
make_tmp perform3

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

refused --stations 0 "--stations must be a whole number from 1 to 24"
refused --only request/fast "--only: unknown configuration 'request/fast'"
refused --sim --repeat 2 "no --repeat"
refused --quick --seconds 1 "--quick and --seconds exclude each other"
refused --seed 3 "--seed is for --sim runs only"
refused --sim --hub 127.0.0.1:1 "not with --hub"
refused --json --csv "--json and --csv exclude each other"

# --- --sim: the loop, the totals, the units ----------------------------
SIM=(bench perform3 --sim --seed 4 --seconds 0.1 -q)
if "$BIN" "${SIM[@]}" --json >"$TMP/a.json" 2>"$TMP/a.err" &&
	"$BIN" "${SIM[@]}" --json >"$TMP/b.json" 2>>"$TMP/a.err" &&
	cmp -s "$TMP/a.json" "$TMP/b.json"; then
	pass "perform3 --sim twice with one seed: the same JSON"
else
	fail "perform3 --sim twice with one seed: the same JSON" "$(head -5 "$TMP/a.err")"
fi
if out=$(python3 - "$TMP/a.json" <<'PY' 2>&1
import json, sys
d = json.load(open(sys.argv[1]))
assert d["benchmark"] == "perform3"
assert d["conditions"]["stations"] == 5 and d["conditions"]["operation"] == "read"
assert d["published"] == {"best_average_kbyte_per_s": 988,
                          "best_peak_kbyte_per_s": 1077, "ceiling_MB_per_s": 1.25}
names = [c["name"] for c in d["configurations"]]
assert names == ["request/default", "request/tuned", "burst/default", "burst/tuned"], names
blocks = [64512 - 4096 * s for s in range(16)]
for c in d["configurations"]:
    if c["status"] == "burst not offered":
        assert c["requests"] == "packet burst" and "sizes" not in c, c
        continue
    assert c["status"] == "measured", c
    assert [s["block_bytes"] for s in c["sizes"]] == blocks
    totals = []
    for s in c["sizes"]:
        ws = s["per_workstation"]
        assert [w["station"] for w in ws] == ["1", "2", "3", "4", "5"]
        assert all(w["blocks"] > 0 and w["kB_per_s"] > 0 for w in ws)
        # kB = 1000 bytes of data
        span = max(w["time_s"] for w in ws)   # one window for all
        for w in ws:
            want = w["blocks"] * s["block_bytes"] / 1000 / span
            assert abs(want - w["kB_per_s"]) < 0.01 * want, (w, want)
        assert abs(sum(w["kB_per_s"] for w in ws) - s["total_kB_per_s"]) < 0.01
        totals.append(s["total_kB_per_s"])
    avg = sum(totals) / 16
    assert abs(avg - c["average_total_kB_per_s"]) < 0.01
    assert c["peak_total_kB_per_s"] == max(totals) >= c["average_total_kB_per_s"]
    assert c["peak_total_kB_per_s"] < 1250   # eth10: 10 Mbit/s
assert d["configurations"][0]["buffer_granted_bytes"] == 1024
assert d["configurations"][1]["buffer_granted_bytes"] > 1024
assert "complete" not in d
PY
); then
	pass "perform3 --sim JSON: 4 configurations, 16 sizes x 5 workstations, totals the sums, peak >= average, kB = 1000 bytes"
else
	fail "perform3 --sim JSON: 4 configurations, 16 sizes x 5 workstations, totals the sums, peak >= average, kB = 1000 bytes" "$out"
fi
"$BIN" "${SIM[@]}" --csv >"$TMP/a.csv" 2>/dev/null
no=$(grep -c ',burst not offered,' "$TMP/a.csv")
got="$(head -1 "$TMP/a.csv")|$(($(wc -l <"$TMP/a.csv") - 1))"
want="config,status,buffer_bytes,block_bytes,station,blocks,time_s,kB_per_s|$(((4 - no) * 16 * 6 + no))"
[ "$got" = "$want" ]
check "perform3 --csv: a header with units, 16 x 6 rows a configuration measured, one for each not offered" $? "$got" "want $want"
"$BIN" "${SIM[@]}" --stations 2 >"$TMP/a.txt" 2>/dev/null
if has "$TMP/a.txt" '^ block bytes  ws1  kB/s  ws2  kB/s   total kB/s$' &&
	has "$TMP/a.txt" '^        3072 ' && has "$TMP/a.txt" '^1990 best +988 +1077' &&
	has "$TMP/a.txt" '^total kB/s against block size' &&
	has "$TMP/a.txt" '^        r request/default$' &&
	{ has "$TMP/a.txt" '^burst/tuned: packet burst, buffer 65535 bytes asked: burst not offered$' ||
		has "$TMP/a.txt" '^burst/tuned: packet burst, buffer 65535 bytes asked, [0-9]+ granted$'; }; then
	pass "perform3 text: a table per configuration, burst not offered marked, 1990 beside, the curve"
else
	fail "perform3 text: a table per configuration, burst not offered marked, 1990 beside, the curve" "$(cat "$TMP/a.txt")"
fi

# --- real time on an eth10 segment --------------------------------------
if timeout 60 "$BIN" bench perform3 --profile eth10 --stations 2 --seconds 0.2 \
	--only request/tuned -q --json >"$TMP/rt.json" 2>"$TMP/rt.err" &&
	out=$(python3 - "$TMP/rt.json" <<'PY' 2>&1
import json, sys
c = json.load(open(sys.argv[1]))["configurations"][0]
assert c["name"] == "request/tuned" and c["sizes_measured"] == 16, c
for s in c["sizes"]:
    assert 0 < s["total_kB_per_s"] < 1250, s
PY
); then
	pass "perform3 --profile eth10 in real time: 16 sizes, each total under the 1.25 MB/s wire"
else
	fail "perform3 --profile eth10 in real time: 16 sizes, each total under the 1.25 MB/s wire" "${out:-}" "$(head -5 "$TMP/rt.err")"
fi

# --- Ctrl-C mid-run: what finished, valid JSON marked incomplete, exit 1 ----
# The signal goes after as long as one configuration of the four took on
# its own just before (this build, this machine's load: a sanitized build
# on a loaded machine is many times slower than a plain one), so it finds
# about a quarter of the sizes done and the rest not.
t0=$(date +%s%N)
timeout 120 "$BIN" bench perform3 --sim --seconds 60 --only request/tuned -q >/dev/null 2>&1
delay=$(python3 -c "print(max(0.5, ($(date +%s%N) - $t0) / 1e9))")
if out=$(sigint_json "$TMP/int.json" "$delay" "$BIN" bench perform3 --sim --seconds 60 --json 2>&1) &&
	python3 -c 'import json,sys; n=sum(c.get("sizes_measured", 0) for c in json.load(open(sys.argv[1]))["configurations"]); assert 1 <= n < 64, n' "$TMP/int.json"; then
	pass "perform3 --sim --json interrupted by SIGINT: the sizes measured, \"complete\": false, exit 1"
else
	fail "perform3 --sim --json interrupted by SIGINT: the sizes measured, \"complete\": false, exit 1" "signal after ${delay} s" "$out"
fi
if out=$(sigint_json "$TMP/int.json" 3 "$BIN" bench perform3 --profile eth10 --seconds 10 --json 2>&1); then
	pass "perform3 --profile eth10 --json interrupted by SIGINT: valid JSON, \"complete\": false, exit 1"
else
	fail "perform3 --profile eth10 --json interrupted by SIGINT: valid JSON, \"complete\": false, exit 1" "$out"
fi
finish
