#!/usr/bin/env bash
# bench_wan_test.sh [IPXLAB] - B6 as a user runs it (`ipxlab bench wan`):
# bad options refused with exit 2 and the option's name; --sim --quick in
# seconds, the same output twice, bridged below local; --repeat 2's runs
# and medians; a short real run
# (hubs of eth10, `ipxlab bridge` with the isn profile, two servers,
# agents: all children) whose JSON has the battery test with and without the bridge,
# a limit search that completes with no load and fails at 1.4 Mbit/s
# (above the 950 kbit/s trunk, which carries no more than that), and
# nothing left running after it. Bounded: about 25 s.
set -u
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"
use_build "${1:-}"
need_exe "$BIN"
need_cmd python3
make_tmp bench_wan

# refused OPTIONS... PATTERN: exit 2 and the message on stderr
refused() {
	local want=${*: -1} args=("${@:1:$#-1}") out rc
	out=$(timeout 10 "$BIN" bench wan "${args[@]}" 2>&1 >/dev/null); rc=$?
	if [ $rc = 2 ] && grep -q -- "$want" <<<"$out"; then
		pass "bench wan refuses ${args[*]}"
	else
		fail "bench wan refuses ${args[*]}" "rc=$rc" "$out"
	fi
}

refused --seconds 0 "--seconds must be a number of seconds"
refused --quick --seconds 2 "--quick and --seconds exclude each other"
refused --parts battery,frob "--parts: unknown part 'frob'"
refused --max-stations 25 "--max-stations must be a whole number from 1 to 24"
refused --wan-profile eth11 "--wan-profile: no profile named 'eth11'"
refused --wan-profile eth10 "--wan-profile eth10 has no bridge buffers"
refused --file 1000 "--file: 1000 is not one of the copy test's sizes"
refused --load-step 0 "--load-step must be a whole number"
refused --load-step 500 --max-load 400 "--max-load must be at least --load-step"
refused --load-step 10 --max-load 2000 "at most 31 loads"
refused --only frob "--only: unknown test 'frob'"
refused --server X "--server, --hub and --agents are not taken"
refused --bridge isn "--bridge is not taken"
refused --sim --hub 127.0.0.1:1 "--server, --hub and --agents are not taken"
refused --sim --agents ws1 "--server, --hub and --agents are not taken"
refused --seed 3 "--seed is for --sim runs only"
refused --sim --seed x "--seed must be a whole number"
refused --sim --profile eth11 "--profile: no profile named 'eth11'"
refused --sim --repeat 51 "--repeat must be a whole number from 1 to 50"
refused --json --csv "--json and --csv exclude each other"
refused --frobnicate "ipxlab bench wan: unrecognized option '--frobnicate'"
refused extra "unexpected argument 'extra'"
out=$("$BIN" bench wan --help); rc=$?
[ $rc = 0 ] && grep -q -- "--max-stations N" <<<"$out" && grep -q -- "--wan-profile" <<<"$out" && grep -q -- "--repeat N" <<<"$out" &&
	grep -q -- "--quick" <<<"$out" && grep -q -- "--sim" <<<"$out" && "$BIN" bench --help 2>&1 | grep -q "wan    B6" &&
	pass "bench wan --help lists its options; bench --help names it" ||
	fail "bench wan --help lists its options; bench --help names it" "$out"

# --- simulated time: all of it in this process ----------------------------------
# --quick with --sim: the battery (open-multi, lock; 1 workstation), the
# limit at 0, 700, 1400 kbit/s and scaling 1..3 in seconds of real time;
# the same seed twice gives the same output byte for byte; the bridged
# figures are below the local ones (relations only: the bridge profile's
# timers are not this test's to pin).
start=$SECONDS
if timeout 60 "$BIN" bench wan --sim --quick --json -q >"$TMP/s1.json" 2>"$TMP/s.err" &&
	timeout 60 "$BIN" bench wan --sim --quick --json -q >"$TMP/s2.json" 2>>"$TMP/s.err" &&
	cmp -s "$TMP/s1.json" "$TMP/s2.json" &&
	python3 - "$TMP/s1.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
c = d["conditions"]
assert c["simulated"] and c["seed"] == 1 and c["profile"] == "eth10" and c["profile_default"], c
assert c["wan_profile"] == "isn" and c["link"] == "in-memory segment", c
assert c["simulated_seconds_local"] > 0 and c["simulated_seconds_bridged"] > 0, c
assert abs(c["simulated_seconds"] - c["simulated_seconds_local"] - c["simulated_seconds_bridged"]) < 1e-3, c
assert len(c["agents"]) == 3 and all(a.get("in_process") for a in c["agents"]), c
b = d["battery"]
assert [x["test"] for x in b] == ["open-multi", "lock"], b
for x in b:
    assert x["workstations"] == 1 and x["local"]["ops"] > 0 and x["bridged"]["ops"] > 0, x
    assert x["bridged"]["ops_per_s_per_ws"] < x["local"]["ops_per_s_per_ws"], x
    assert x["bridged"]["wire_kB_per_s"] < x["local"]["wire_kB_per_s"], x
s = d["limit"]["steps"]
assert [x["load_bit_per_s"] for x in s][:2] == [0, 700000] and s[0]["ok"], s
# the load runs both ways; over the same time carried <= sent <= offered
assert d["limit"]["both_ways"], d["limit"]
for x in s[1:]:
    for w in ("to_ws", "to_server"):
        assert 0 < x[w + "_carried_bit_per_s"] <= x[w + "_sent_bit_per_s"] <= x["load_bit_per_s"], x
assert not [k for k in json.dumps(d).split('"') if k.endswith("_bps") or "kbytes" in k or k == "kbps"], "old unit names"
assert all(x["ok"] for x in s[:-1]) and len(s) <= 3, s
p = d["scaling"]["points"]
assert [x["workstations"] for x in p] == [1, 2, 3], p
for x in p:
    assert x["local"]["active"] == x["workstations"] == x["bridged"]["active"], x
    assert x["bridged"]["total_ops_per_s"] < x["local"]["total_ops_per_s"], x
PY
then
	pass "bench wan --sim --quick: the three parts, bridged below local, same seed same output ($((SECONDS - start)) s)"
else
	fail "bench wan --sim --quick: the three parts, bridged below local, same seed same output" "$(cat "$TMP/s.err")" "$(diff "$TMP/s1.json" "$TMP/s2.json" | head -c 1500)"
fi
# --repeat 2: every battery test, scaling point and limit search twice (the
# simulated clocks run about twice as long as once), each run in the JSON,
# the old fields the medians, within the runs' [min, max]
start=$SECONDS
if timeout 60 "$BIN" bench wan --sim --quick --repeat 2 --json -q >"$TMP/r.json" 2>"$TMP/r.err" &&
	python3 - "$TMP/r.json" "$TMP/s1.json" <<'PY'
import json, sys
d, one = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
assert d["repeat"] == 2 and one["repeat"] == 1, (d["repeat"], one["repeat"])
for side in ("local", "bridged"):
    k = "simulated_seconds_" + side
    assert 1.8 * one["conditions"][k] < d["conditions"][k] < 2.2 * one["conditions"][k], (k, d["conditions"], one["conditions"])
def within(x):
    assert len(x["runs"]) == 2, x
    for side in ("local", "bridged"):
        for f in ("ops_per_s_per_ws", "total_ops_per_s", "wire_kB_per_s"):
            v = [r[side][f] for r in x["runs"]]
            assert all(y > 0 for y in v), (f, x)
            assert min(v) - 1e-3 <= x[side][f] <= max(v) + 1e-3, (side, f, x)
            assert abs(x[side][f] - sum(v) / 2) < 1e-3, (side, f, x)
for x in d["battery"] + d["scaling"]["points"]:
    within(x)
assert len(d["battery"]) == 2 and len(d["scaling"]["points"]) == 3, d.keys()
l = d["limit"]
assert len(l["runs"]) == 2 and all(r["steps"][0]["ok"] for r in l["runs"]), l
loads = [r["last_completed"]["load_bit_per_s"] for r in l["runs"]]
assert l["last_completed_load_bit_per_s"]["runs"] == loads, l
lc = l["last_completed_load_bit_per_s"]
assert lc["min"] == min(loads) and lc["max"] == max(loads) and lc["median"] == sum(loads) / 2, lc
assert l["runs"][l["median_run"]]["steps"] == l["steps"], l
PY
then
	pass "bench wan --sim --quick --repeat 2: every run in the JSON, the medians within them ($((SECONDS - start)) s)"
else
	fail "bench wan --sim --quick --repeat 2: every run in the JSON, the medians within them" "$(cat "$TMP/r.err")" "$(head -c 1500 "$TMP/r.json")"
fi
# another seed, the table: the conditions say simulated time and the seed
if timeout 60 "$BIN" bench wan --sim --seed 7 --quick --parts scaling --max-stations 2 -q >"$TMP/s.txt" 2>"$TMP/s.err" &&
	grep -q "^# simulated time, seed 7: .*profile eth10 .*simulated seconds in all" "$TMP/s.txt" &&
	grep -q "^Scaling:" "$TMP/s.txt" && ! grep -q "^Battery" "$TMP/s.txt"; then
	pass "bench wan --sim --seed 7: the conditions name simulated time and the seed"
else
	fail "bench wan --sim --seed 7: the conditions name simulated time and the seed" "$(cat "$TMP/s.err")" "$(head -c 1500 "$TMP/s.txt")"
fi

# --- a short real run -------------------------------------------------------------
start=$SECONDS
# --quick (1 s per test, the 1,205-byte file, no warm-up) cut down, with a
# 1 s deadline (the copy takes about 0.1 s alone, over 2 s behind the
# overloaded trunk): the
# battery's lock only, loads 0 and 1400 kbit/s (the scaling loop is
# test_bench_wan.c's and --sim's above), both hubs segments of eth10.
if timeout 90 "$BIN" bench wan --quick --parts battery,limit --only lock \
	--load-step 1400 --max-load 1400 --deadline 1 --profile eth10 --json >"$TMP/w.json" 2>"$TMP/w.err" &&
	python3 - "$TMP/w.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
c = d["conditions"]
assert c["wan_profile"] == "isn" and c["trunk_bit_per_s"] == 950000 and c["bridge_max"] == 576, c
assert c["far_max_buffer"] == 512 and len(c["agents"]) == 1, c
assert c["profile"] == "eth10" and not c["simulated"], c
b = d["battery"]
assert len(b) == 1 and b[0]["test"] == "lock" and b[0]["workstations"] == 1, b
l, br = b[0]["local"], b[0]["bridged"]
assert l["ops"] > 0 and br["ops"] > 0 and br["ops_per_s_per_ws"] < l["ops_per_s_per_ws"], b
assert b[0]["published_peak_kbyte_per_s"] == {"local": 55, "bridged": 17}, b
assert d["traffic_pct_mean"][0]["published_pct"] == 32, d["traffic_pct_mean"]
s = d["limit"]["steps"]
assert len(s) == 2 and s[0]["ok"] and not s[1]["ok"] and s[1]["why"], s
assert s[0]["load_bit_per_s"] == 0 and s[1]["load_bit_per_s"] == 1400000, s
for w in ("to_ws", "to_server"):    # both ways, each at most the trunk's
    assert 1300000 < s[1][w + "_sent_bit_per_s"] <= 1400000, s
    assert 800000 < s[1][w + "_carried_bit_per_s"] < 950000, s
assert d["limit"]["last_completed"]["step"] == 0 and d["limit"]["limit_found"], d["limit"]
assert "scaling" not in d, d.keys()
PY
then
	pass "bench wan --json: battery local and bridged, the limit found after no load ($((SECONDS - start)) s)"
else
	fail "bench wan --json: battery local and bridged, the limit found after no load" "$(cat "$TMP/w.err")" "$(head -c 1500 "$TMP/w.json")"
fi
far=$(sed -n 's/.*"far_server":"\([^"]*\)".*/\1/p' "$TMP/w.json")
farhub=$(sed -n 's/.*"far_hub":"\([^"]*\)".*/\1/p' "$TMP/w.json")
# the bridge and the far server are forked children (ipx_wanbr_fork,
# ipx_fsrv_fork_buf): a leftover one has the run's own command line
if [ -n "$far" ] && [ -n "$farhub" ] &&
	! pgrep -f -- "wan --quick --parts battery,limit --only lock --load-step 1400" >/dev/null; then
	pass "bench wan leaves no bridge or server running"
else
	fail "bench wan leaves no bridge or server running" "far=$far" "$(pgrep -af -- "$far")"
fi

# --- Ctrl-C mid-run: what finished, valid JSON marked incomplete, exit 1 ----
if out=$(sigint_json "$TMP/int.json" 1.5 "$BIN" bench wan --sim --seconds 30 --only lock --stations 1 --json 2>&1) &&
	python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert "scaling" not in d or "limit" in d, d.keys()' "$TMP/int.json"; then
	pass "bench wan --json interrupted by SIGINT: the parts that finished, \"complete\": false, exit 1"
else
	fail "bench wan --json interrupted by SIGINT: the parts that finished, \"complete\": false, exit 1" "$out" "$(head -c 600 "$TMP/int.json")"
fi
finish
