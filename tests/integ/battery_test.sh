#!/usr/bin/env bash
# battery_test.sh [IPXLAB] - the file-server benchmarks as a user runs them
# (`ipxlab bench battery`, `copy`, `perftest`, `arrival`): bad options refused with
# clear messages, --fixtures writes the volume, a short battery with 1 and
# 2 workstations whose JSON has every test with every workstation's count
# and whose CSV has a line per workstation, the same in simulated time
# (--sim: deterministic, the analyzer's peak per test) and on a link
# profile (--profile), a copy run with every size, an existing server
# named with --server, running agents with --agents (and one missing),
# --repeat's median [min-max], B5's buckets and JSON, and a workstation
# killed mid-run reported by name with nothing left.
set -u
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"
use_build "${1:-}"
need_exe "$BIN"
need_cmd python3
make_tmp battery

# refused BENCH OPTIONS... -- PATTERN: exit 2 and the message on stderr
refused() {
	local b=$1 want=${*: -1} args=("${@:2:$#-2}") out rc
	out=$(timeout 10 "$BIN" bench "$b" "${args[@]}" 2>&1 >/dev/null); rc=$?
	if [ $rc = 2 ] && grep -q -- "$want" <<<"$out"; then
		pass "bench $b refuses ${args[*]}"
	else
		fail "bench $b refuses ${args[*]}" "rc=$rc" "$out"
	fi
}

refused battery --seconds 0 "--seconds must be a number of seconds"
refused battery --stations 0 "--stations must be a whole number from 1 to 24"
refused battery --stations 25 "--stations must be a whole number from 1 to 24"
refused battery --only frob "--only: unknown test 'frob'"
refused arrival --bridge isn "--bridge is for --sim runs"
refused arrival --sim --bridge eth10 "--bridge eth10 has no bridge buffers"
refused battery --only ping "--only: unknown test 'ping'"
refused battery --quick --seconds 2 "--quick and --seconds exclude each other"
refused battery --json --csv "--json and --csv exclude each other"
refused battery --server X "--server X needs --hub"
refused battery --frobnicate "ipxlab bench battery: unrecognized option '--frobnicate'"
refused battery extra "unexpected argument 'extra'"
refused copy --copies 0 "--copies must be a whole number from 1 to 50"
refused copy --json --csv "--json and --csv exclude each other"
out=$("$BIN" bench battery --help); rc=$?
[ $rc = 0 ] && grep -q -- "--stations LIST" <<<"$out" && grep -q -- "--only OPS" <<<"$out" &&
	pass "bench battery --help lists its options" || fail "bench battery --help lists its options" "$out"
out=$("$BIN" bench --help); grep -q "battery" <<<"$out" && grep -q "copy" <<<"$out" &&
	pass "bench --help names battery and copy" || fail "bench --help names battery and copy" "$out"

# --- fixtures -------------------------------------------------------------------
mkdir "$TMP/vol"
if "$BIN" bench battery --stations 3 --fixtures "$TMP/vol" >/dev/null &&
	[ "$(stat -c %s "$TMP/vol/BATTERY/SHARED4M.DAT")" = 4194304 ] &&
	[ "$(stat -c %s "$TMP/vol/BATTERY/PRIV03.DAT")" = 131072 ] &&
	[ ! -e "$TMP/vol/BATTERY/PRIV04.DAT" ] &&
	[ -f "$TMP/vol/BATTERY/D1/D0/D1/D0/F3.DAT" ] &&
	[ "$(stat -c %s "$TMP/vol/BATTERY/C214705.DAT")" = 214705 ]; then
	pass "--fixtures writes the shared, private, copy and four-level files"
else
	fail "--fixtures writes the shared, private, copy and four-level files" "$(find "$TMP/vol" | head)"
fi

# --- a short real battery -------------------------------------------------------
start=$SECONDS
if timeout 120 "$BIN" bench battery --seconds 0.4 --stations 1,2 --json >"$TMP/b.json" 2>"$TMP/b.err" &&
	python3 - "$TMP/b.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
t = d["tests"]
names = {x["test"] for x in t}
assert len(names) == 11, names
assert len(t) == 22, len(t)
for x in t:
    assert len(x["per_workstation"]) == x["workstations"], x
    for w in x["per_workstation"]:
        assert w["ops"] > 0 and w["seconds"] > 0 and w["wire_bytes"] > 0, x
    if x["workstations"] == 1:
        assert "published_peak_kbyte_per_s" in x, x
    for r in x["runs"]:
        a = r["analyzer"]
        # the peak is never below the mean; a 0.4 s test is shorter than
        # the 1 s window, so both are over its span
        assert a["peak_kB_per_s"] >= a["mean_kB_per_s"] > 0 and a["short_span"], a
rs = [x for x in t if x["test"] == "random-search"]
assert all(sum(w["misses"] for w in x["per_workstation"]) > 0 for x in rs)
single = [x for x in t if x["workstations"] == 1 and "round_trip_bound" in x]
assert {x["test"] for x in single} == {"shared-small", "shared-large", "lock"}, single
assert d["conditions"]["rtt_us"] > 0 and len(d["conditions"]["agents"]) == 2
PY
then
	pass "battery --json: 11 tests with 1 and 2 workstations, every count, misses, targets ($((SECONDS - start)) s)"
else
	fail "battery --json: 11 tests with 1 and 2 workstations, every count, misses, targets" "$(cat "$TMP/b.err")" "$(head -c 600 "$TMP/b.json")"
fi
if timeout 60 "$BIN" bench battery --seconds 0.2 --stations 2 --only lock,open-single --csv >"$TMP/b.csv" 2>"$TMP/b.err" &&
	[ "$(grep -c '^lock,2,' "$TMP/b.csv")" = 2 ] && [ "$(grep -c '^open-single,2,' "$TMP/b.csv")" = 2 ] &&
	python3 - "$TMP/b.csv" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
assert "wire_kB_per_s" in rows[0] and "analyzer_peak_kB_per_s" in rows[0], rows[0]
assert not [k for k in rows[0] if "kbytes" in k or "kbps" in k], rows[0]
PY
then
	pass "battery --csv: a line per workstation and test, kB in the field names"
else
	fail "battery --csv: a line per workstation and test" "$(cat "$TMP/b.err")" "$(cat "$TMP/b.csv")"
fi
if timeout 60 "$BIN" bench battery --seconds 0.2 --stations 1 --only lock >"$TMP/b.txt" 2>&1 &&
	has "$TMP/b.txt" "record lock/unlock +1 " && has "$TMP/b.txt" "55 \| 17" &&
	has "$TMP/b.txt" "bound .*(PASS|MISS)"; then
	pass "battery table: the test, the 1990 peak KB/s beside, the round-trip target"
else
	fail "battery table: the test, the 1990 peak KB/s beside, the round-trip target" "$(cat "$TMP/b.txt")"
fi

if command -v script >/dev/null 2>&1; then
	script -qec "timeout 60 '$BIN' bench battery --seconds 0.2 --stations 1 --only lock,create" /dev/null \
		>"$TMP/tty.out" 2>&1
	if grep -q "battery 3/3: lock, 1 workstation, 0.2 s (about [0-9]* s left)" "$TMP/tty.out" &&
		grep -q "record lock/unlock" "$TMP/tty.out"; then
		pass "battery on a terminal: a progress line with the test and the time left"
	else
		fail "battery on a terminal: a progress line with the test and the time left" "$(tr '\r' '\n' <"$TMP/tty.out" | head -20)"
	fi
fi

# --- simulated time and link profiles -------------------------------------------
refused battery --sim --hub 127.0.0.1:1 "--sim builds the whole network in this process .*not with --hub"
refused copy --sim --server X "not with --server"
refused perftest --seed 3 "--seed is for --sim runs only"
refused battery --profile eth10 --hub 127.0.0.1:1 "--profile applies to the hub started here"
refused battery --sim --profile nosuch "--profile: no profile named 'nosuch'"
start=$SECONDS
# stdout only: a sanitized build warns on stderr once per process (its pid)
if timeout 30 "$BIN" bench battery --sim --quick --only lock >"$TMP/sim1.txt" 2>"$TMP/sim1.err" &&
	timeout 30 "$BIN" bench battery --sim --quick --only lock >"$TMP/sim2.txt" 2>>"$TMP/sim1.err" &&
	cmp -s "$TMP/sim1.txt" "$TMP/sim2.txt" &&
	has "$TMP/sim1.txt" "^# simulated time, seed 1: .*profile eth10 \(--sim's default\); [0-9.]+ simulated seconds" &&
	has "$TMP/sim1.txt" "record lock/unlock +1 +[0-9]+ .* [0-9]+\.[0-9] +55 \| 17" &&
	has "$TMP/sim1.txt" "bound .*PASS"; then
	pass "battery --sim: simulated seconds and profile in the conditions, the analyzer's peak beside 1990's, the same twice ($((SECONDS - start)) s)"
else
	fail "battery --sim: simulated seconds and profile in the conditions, the analyzer's peak beside 1990's, the same twice" "$(cat "$TMP/sim1.txt" "$TMP/sim1.err")" "$(diff "$TMP/sim1.txt" "$TMP/sim2.txt" | head)"
fi
if timeout 30 "$BIN" bench battery --sim --profile tr4 --seed 5 --seconds 0.5 --stations 1,3 --json >"$TMP/sim.json" 2>"$TMP/sim.err" &&
	python3 - "$TMP/sim.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
c = d["conditions"]
assert c["simulated"] and c["profile"] == "tr4" and not c["profile_default"] and c["seed"] == 5, c
assert c["simulated_seconds"] > 11 * 0.5, c
t = d["tests"]
assert len(t) == 22, len(t)
for x in t:
    a = x["runs"][0]["analyzer"]
    assert a["source"] == "simulated analyzer", a
    # 4 Mbit/s: never more than 500 kB/s on the wire
    assert 0 < a["mean_kB_per_s"] <= a["peak_kB_per_s"] <= 4e6 / 8 / 1000, x
    # kB = 1000 bytes: the workstation's link bytes over its seconds
    w = x["runs"][0]["per_workstation"]
    mean = sum(y["wire_bytes"] / y["seconds"] for y in w) / len(w) / 1000
    assert abs(x["wire_kB_per_s"] - mean) < 0.01, (x["wire_kB_per_s"], mean)
    assert a["packets"] > 0 and sum(a["gaps"]) == a["packets"] - 1, x
PY
then
	pass "battery --sim --profile tr4 --json: every test's analyzer peak within the ring's rate"
else
	fail "battery --sim --profile tr4 --json: every test's analyzer peak within the ring's rate" "$(cat "$TMP/sim.err")" "$(head -c 600 "$TMP/sim.json")"
fi
# B5 with and without the bridge, in simulated time: the server behind the
# isn modules, every copy slower and its gaps spread past 0-4 ms.
if timeout 30 "$BIN" bench arrival --sim --quick --stations 1 --json >"$TMP/a0.json" 2>"$TMP/a0.err" &&
	timeout 30 "$BIN" bench arrival --sim --quick --stations 1 --bridge isn --json >"$TMP/a1.json" 2>"$TMP/a1.err" &&
	python3 - "$TMP/a0.json" "$TMP/a1.json" <<'PY'
import json, sys
local, bridged = (json.load(open(p)) for p in sys.argv[1:3])
assert local["conditions"]["bridge"] is None and bridged["conditions"]["bridge"] == "isn", bridged["conditions"]
def first(d):
    return d["sets"][0]["runs"][0]["all"]
l, b = first(local), first(bridged)
assert b["copy_ms_mean"] > 5 * l["copy_ms_mean"], (l["copy_ms_mean"], b["copy_ms_mean"])
assert l["share_percent"]["0-4"] == 100 and b["share_percent"]["0-4"] < 90, (l, b)
PY
then
	pass "arrival --sim --bridge isn: the conditions name the bridge, copies slower, gaps spread past 0-4 ms"
else
	fail "arrival --sim --bridge isn: the conditions name the bridge, copies slower, gaps spread past 0-4 ms" "$(cat "$TMP/a1.err")" "$(head -c 800 "$TMP/a1.json")"
fi
if timeout 30 "$BIN" bench battery --sim --seconds 0.2 --stations 16 --only lock --csv >"$TMP/sim16.csv" 2>"$TMP/sim.err" &&
	[ "$(grep -c '^lock,16,' "$TMP/sim16.csv")" = 16 ]; then
	pass "battery --sim --stations 16: the controller holds a session to each of 16 workstations"
else
	fail "battery --sim --stations 16: the controller holds a session to each of 16 workstations" "$(cat "$TMP/sim.err")"
fi
if timeout 30 "$BIN" bench copy --sim --copies 1 --json >"$TMP/simc.json" 2>"$TMP/simc.err" &&
	timeout 30 "$BIN" bench perftest --sim --quick --json >"$TMP/simp.json" 2>>"$TMP/simc.err" &&
	python3 - "$TMP/simc.json" "$TMP/simp.json" <<'PY'
import json, sys
c = json.load(open(sys.argv[1]))
p = json.load(open(sys.argv[2]))
assert c["conditions"]["simulated"] and p["conditions"]["simulated"]
s = c["sizes"]
# eth10 carries at most 1.25 MB/s: the largest copy takes at least 0.17 s
assert s[6]["seconds"][0] > 214705 / 1.25e6 and s[0]["seconds"][0] < s[6]["seconds"][0]
assert 0 < p["total_kB_per_s"] < 1.25e6 / 1000
# kB = 1000 bytes: records of 4,096 bytes over the seconds
for w in p["runs"][0]["per_workstation"]:
    assert abs(w["kB_per_s"] - w["records"] * 4096 / 1000 / w["seconds"]) < 0.01, w
PY
then
	pass "copy and perftest --sim: simulated seconds bound by the eth10 wire"
else
	fail "copy and perftest --sim: simulated seconds bound by the eth10 wire" "$(cat "$TMP/simc.err")" "$(cat "$TMP/simc.json")"
fi
if timeout 60 "$BIN" bench perftest --profile eth10 --seconds 0.3 --json >"$TMP/prof.json" 2>"$TMP/prof.err" &&
	python3 -c 'import json,sys; c=json.load(open(sys.argv[1]))["conditions"]
assert c["profile"]=="eth10" and not c["simulated"] and c["link"]=="udp hub"' "$TMP/prof.json"; then
	pass "perftest --profile eth10 in real time: the hub started here has the profile"
else
	fail "perftest --profile eth10 in real time: the hub started here has the profile" "$(cat "$TMP/prof.err")" "$(cat "$TMP/prof.json")"
fi

# --- copy -----------------------------------------------------------------------
if timeout 60 "$BIN" bench copy --copies 2 --json >"$TMP/c.json" 2>"$TMP/c.err" &&
	python3 - "$TMP/c.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
s = d["sizes"]
assert [x["bytes"] for x in s] == [1205, 5079, 10752, 25184, 50176, 108048, 214705]
assert all(len(x["seconds"]) == 2 and min(x["seconds"]) > 0 for x in s)
assert s[0]["published"]["local_avg"] == 0.72 and s[6]["published"]["bridged_avg"] == 10.04
PY
then
	pass "copy --json: seven sizes, each copy timed, the 1990 seconds beside"
else
	fail "copy --json: seven sizes, each copy timed, the 1990 seconds beside" "$(cat "$TMP/c.err")" "$(cat "$TMP/c.json")"
fi

# --- perftest -------------------------------------------------------------------
refused perftest --size 0 "--size must be a whole number from 1 to 65536"
refused perftest --quick --seconds 1 "--quick and --seconds exclude each other"
if timeout 60 "$BIN" bench perftest --seconds 0.3 --stations 2 --json >"$TMP/p.json" 2>"$TMP/p.err" &&
	python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); w=d["per_workstation"]
assert len(w)==2 and all(x["records"]>0 and x["kB_per_s"]>0 for x in w) and d["conditions"]["record"]==4096' "$TMP/p.json"; then
	pass "perftest --json: every workstation's records and kB/s"
else
	fail "perftest --json: every workstation's records and kB/s" "$(cat "$TMP/p.err")" "$(cat "$TMP/p.json")"
fi

# --- an existing server on an existing hub --------------------------------------
start_hub
"$BIN" server --hub "$HUB" --name BATT-IT --volume "SYS=$TMP/vol" -q >/dev/null 2>"$TMP/srv.err" & PIDS+=($!)
if timeout 60 "$BIN" bench battery --hub "$HUB" --server BATT-IT --seconds 0.2 --stations 1 \
	--only private-random,lock --json >"$TMP/s.json" 2>"$TMP/s.err" &&
	python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); c=d["conditions"]
assert c["server"]=="BATT-IT" and not c["server_started_here"] and not c["hub_started_here"]
assert all(x["per_workstation"][0]["ops"] > 0 for x in d["tests"])' "$TMP/s.json"; then
	pass "battery --hub --server: an existing server with the fixtures, recorded as given"
else
	fail "battery --hub --server: an existing server with the fixtures, recorded as given" "$(cat "$TMP/s.err")" "$(cat "$TMP/srv.err")"
fi

# --- running agents (--agents), found by SAP on the hub of --hub ----------------
refused battery --repeat 0 "--repeat must be a whole number from 1 to 50"
refused battery --agents a1 "--agents needs --hub"
refused battery --hub "$HUB" --agents a1,a1 "--agents: 'a1' twice"
refused battery --hub "$HUB" --server BATT-IT --agents a1 --stations 2 "2 workstations wanted, --agents names 1"
refused arrival --hub "$HUB" "the capture of the hub this command starts"
refused arrival --quick --transfers 3 "--quick and --transfers exclude each other"
"$BIN" agent --hub "$HUB" --name "bt-a1-$$" -q >/dev/null 2>"$TMP/a1.err" & a1=$!; PIDS+=($a1)
"$BIN" agent --hub "$HUB" --name "bt-a2-$$" -q >/dev/null 2>"$TMP/a2.err" & a2=$!; PIDS+=($a2)
if timeout 60 "$BIN" bench battery --hub "$HUB" --server BATT-IT --agents "bt-a1-$$,bt-a2-$$" \
	--stations 2 --seconds 0.2 --only lock --json >"$TMP/ag.json" 2>"$TMP/ag.err" &&
	python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); c=d["conditions"]
assert [a["name"] for a in c["agents"]] == sys.argv[2].split(","), c
x = d["tests"][0]
assert x["workstations"] == 2 and all(w["ops"] > 0 for w in x["per_workstation"])
assert x["analyzer_peak_kB_per_s"] is None  # a given hub is not recorded' \
		"$TMP/ag.json" "bt-a1-$$,bt-a2-$$" &&
	timeout 60 "$BIN" bench copy --hub "$HUB" --server BATT-IT --agents "bt-a2-$$" --copies 1 \
		>"$TMP/ag.txt" 2>>"$TMP/ag.err" && has "$TMP/ag.txt" "^ +214705 "; then
	pass "battery and copy --agents: running agents found by SAP do the work"
else
	fail "battery and copy --agents: running agents found by SAP do the work" "$(cat "$TMP/ag.err")" "$(head -c 600 "$TMP/ag.json")"
fi
kill "$a1" "$a2" 2>/dev/null; wait "$a1" "$a2" 2>/dev/null
out=$(timeout 30 "$BIN" bench battery --hub "$HUB" --server BATT-IT --agents "bt-gone-$$" --wait 1 \
	--stations 1 --only lock --seconds 0.2 2>&1 >/dev/null); rc=$?
if [ $rc = 1 ] && grep -q "no agent named 'bt-gone-$$' answered" <<<"$out"; then
	pass "--agents with an agent that is not running: exit 1, named"
else
	fail "--agents with an agent that is not running: exit 1, named" "rc=$rc" "$out"
fi

# --- --repeat: median [min-max] in the table, every run in the JSON -------------
if timeout 60 "$BIN" bench battery --seconds 0.2 --stations 1 --only lock --repeat 3 >"$TMP/r.txt" 2>&1 &&
	has "$TMP/r.txt" "each test 3 times: the median" &&
	has "$TMP/r.txt" "^record lock/unlock +1 .*ws mean \[[0-9]+-[0-9]+\] peak \[[0-9.]+-[0-9.]+\]" &&
	timeout 60 "$BIN" bench perftest --seconds 0.2 --repeat 3 --json >"$TMP/r.json" 2>>"$TMP/r.txt" &&
	python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); r=d["runs"]
assert len(r) == 3 and all(x["total_kB_per_s"] > 0 for x in r)
w = d["per_workstation"][0]
assert w["kB_per_s_min"] <= w["kB_per_s"] <= w["kB_per_s_max"]' "$TMP/r.json"; then
	pass "--repeat 3: the median and [min-max] shown, the three runs in the JSON"
else
	fail "--repeat 3: the median and [min-max] shown, the three runs in the JSON" "$(cat "$TMP/r.txt")" "$(cat "$TMP/r.json")"
fi

# --- arrival (B5) ---------------------------------------------------------------
if timeout 60 "$BIN" bench arrival --quick >"$TMP/ar.txt" 2>"$TMP/ar.err" &&
	has "$TMP/ar.txt" "0-4 +5-9 +10-14 +15-19 +20-24 +25-29 +>=30" &&
	has "$TMP/ar.txt" "^1 +all +[0-9]+ +[0-9]+ " && has "$TMP/ar.txt" "^5 +all " &&
	has "$TMP/ar.txt" "^ +ws5 +[0-9]+ " && has "$TMP/ar.txt" "No 1990 figures for this test"; then
	pass "arrival --quick: the seven buckets with 1 and 5 workstations, all and each"
else
	fail "arrival --quick: the seven buckets with 1 and 5 workstations, all and each" "$(cat "$TMP/ar.err")" "$(cat "$TMP/ar.txt")"
fi
if timeout 60 "$BIN" bench arrival --transfers 2 --stations 2 --repeat 2 --json >"$TMP/ar.json" 2>"$TMP/ar.err" &&
	python3 - "$TMP/ar.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
assert d["conditions"]["bytes"] == 25184 and d["published"] is None
(s,) = d["sets"]
assert s["workstations"] == 2 and len(s["runs"]) == 2
for r in s["runs"]:
    assert len(r["copy_seconds"]) == 2 and all(len(c) == 2 for c in r["copy_seconds"])
    for who in ("all", "ws1", "ws2"):
        x = r[who]
        assert x["gaps"] == sum(x["gaps_ms"].values()) > 0, x
        assert abs(sum(x["share_percent"].values()) - 100) < 0.01, x
    # each workstation's packets are part of all; nothing counted twice:
    # what the hub recorded (less the 14-byte Ethernet header each) is
    # what the workstation's own link counted, less its SPX packets to
    # the controller (the ack of GO; more when the machine is busy)
    assert r["ws1"]["packets"] + r["ws2"]["packets"] == r["all"]["packets"], r
    for who in ("ws1", "ws2"):
        x = r[who]
        seen = x["bytes"] - 14 * x["packets"]
        assert 0.9 * x["link_bytes"] <= seen <= x["link_bytes"], (who, x)
    # request and reply pairs, as many for each workstation and transfer
    # (unless a request was sent again: a busy machine)
    if r["ws1"]["retransmits"] == r["ws2"]["retransmits"] == 0:
        assert r["ws1"]["packets"] == r["ws2"]["packets"] and r["ws1"]["packets"] % 4 == 0, r
b = s["summary"]["all"]["share_percent"]["0-4"]
assert b["min"] <= b["median"] <= b["max"]
PY
then
	pass "arrival --json: per run all and each workstation, each packet once, shares summing to 100"
else
	fail "arrival --json: per run all and each workstation, each packet once, shares summing to 100" "$(cat "$TMP/ar.err")" "$(head -c 800 "$TMP/ar.json")"
fi

# --- a workstation killed mid-run -----------------------------------------------
# ws2 kills itself when asked to prepare the third test (repeat 3).
start=$SECONDS
IPXLAB_AGENT_FAULT=ws2:ncp:3:die timeout 60 "$BIN" bench battery --seconds 0.2 --stations 2 \
	>"$TMP/kill.out" 2>"$TMP/kill.err" & c=$!
PIDS+=($c)
sleep 0.5
kids=$(pgrep -P "$(pgrep -P $c | head -1)" | tr '\n' ' ')
wait $c; rc=$?
sleep 0.2
left=""; for k in $kids; do kill -0 "$k" 2>/dev/null && left="$left $k"; done
if [ $rc = 1 ] && grep -q "agent 'ws2' (pid [0-9]*) died: killed by signal 9" "$TMP/kill.err" &&
	[ -z "$left" ] && [ $((SECONDS - start)) -lt 40 ]; then
	pass "a killed workstation is reported by name, exit 1, nothing left running"
else
	fail "a killed workstation is reported by name, exit 1, nothing left running" "rc=$rc left '$left'" "$(cat "$TMP/kill.err")"
fi


# --- Ctrl-C mid-run: what finished, valid JSON marked incomplete, exit 1 ----
if out=$(sigint_json "$TMP/int.json" 1.5 "$BIN" bench battery --sim --seconds 120 --only lock,open-multi --json 2>&1); then
	pass "battery --json interrupted by SIGINT: valid JSON, \"complete\": false, exit 1"
else
	fail "battery --json interrupted by SIGINT: valid JSON, \"complete\": false, exit 1" "$out"
fi
# B3, B4, B5 in real time on an eth10 segment, cut after the server is up
for b in "copy --repeat 5" "perftest --seconds 10" "arrival --repeat 5"; do
	# shellcheck disable=SC2086
	if out=$(sigint_json "$TMP/int.json" 3 "$BIN" bench $b --profile eth10 --json 2>&1); then
		pass "${b%% *} --json interrupted by SIGINT: valid JSON, \"complete\": false, exit 1"
	else
		fail "${b%% *} --json interrupted by SIGINT: valid JSON, \"complete\": false, exit 1" "$out"
	fi
done
# Ctrl-C while the network starts (the file server's start takes about a
# second, its name checked on the network): the command ends at once,
# saying so, and leaves no server behind.
"${WITH_SIGINT[@]}" "$BIN" bench battery --only lock >/dev/null 2>"$TMP/su.err" & p=$!
sleep 0.3
t0=$(date +%s%N)
kill -INT $p
wait $p; rc=$?
ms=$((($(date +%s%N) - t0) / 1000000))
[ $rc = 1 ] && [ $ms -lt 500 ] && grep -q "interrupted" "$TMP/su.err" &&
	pass "SIGINT while the file server starts: exit 1 in $ms ms, interrupted" ||
	fail "SIGINT while the file server starts: exit 1 within 500 ms, interrupted" "rc=$rc after $ms ms" "$TMP/su.err"

finish
