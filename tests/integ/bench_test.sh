#!/usr/bin/env bash
# bench_test.sh [IPXLAB] - the benchmark harness as a user runs it
# (`ipxlab bench protocols`, `ipxlab agent`): bad options refused with
# clear messages, an agent that dies or goes silent mid-run reported by
# name with exit 1 and nothing left running, a quick real run whose JSON
# and CSV have every row, standing agents found by SAP on a hub, and bench
# hub, netbios and spx on the same harness (CSV, JSON, a dead agent named).
set -u
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"
use_build "${1:-}"
need_exe "$BIN"
make_tmp bench

# refused OPTIONS... -- PATTERN: exit 2 and the message on stderr
refused() {
	local want=${*: -1} args=("${@:1:$#-1}") out rc
	out=$(timeout 10 "$BIN" bench protocols "${args[@]}" 2>&1 >/dev/null); rc=$?
	if [ $rc = 2 ] && grep -q -- "$want" <<<"$out"; then
		pass "refuses ${args[*]}"
	else
		fail "refuses ${args[*]}" "rc=$rc" "$out"
	fi
}

# --- options ------------------------------------------------------------------
refused --count 0 "--count must be a whole number from 1 to"
refused --count abc "--count must be a whole number"
refused --size 0 "--size must be a whole number from 1 to 512"
refused --size 513 "NetBIOS datagrams carry at most 512 bytes"
refused --pin sideways "--pin must be split, same or none (got 'sideways')"
refused --repeat 0 "--repeat must be a whole number from 1 to 50"
refused --repeat 51 "--repeat must be a whole number from 1 to 50"
refused --seconds 0 "--seconds must be a number of seconds"
refused --count 10 --seconds 1 "--count and --seconds exclude each other"
refused --json --csv "--json and --csv exclude each other"
refused --agents a,b "--agents needs --hub"
refused --hub 127.0.0.1:1 --agents a "--agents takes two agent names"
refused --hub 127.0.0.1:1 --agents a,a "must be two agents"
refused --link hub:127.0.0.1,net=5 --agents a,b "a hub takes no options"
refused --link eth:eth0 "needs --agents S,R: on Ethernet the agents run on the other machines"
refused --hub 127.0.0.1:1 --link eth:eth0 --agents a,b "give one of them"
refused --hub 127.0.0.1:1 --link hub:127.0.0.1:2 "give one of them"
refused --frobnicate "ipxlab bench protocols: unrecognized option '--frobnicate'"
refused extra "unexpected argument 'extra'"
refused --period nosuch "--period: no period named 'nosuch'"
refused --sim --hub 127.0.0.1:1 "--hub is for the real-time run"
refused --period tr4-1990 --repeat 2 "--repeat is for the real-time run"
refused --sim --csv "--csv is for the real-time run"
refused --profile tr4 "--profile needs --sim or --period"
refused --sim --profile nosuch "nosuch"
out=$("$BIN" bench protocols --help); rc=$?
[ $rc = 0 ] && grep -q -- "--pin P" <<<"$out" && grep -q -- "--agents S,R" <<<"$out" &&
	pass "bench protocols --help lists its options" || fail "bench protocols --help lists its options" "$out"
out=$("$BIN" bench --help); grep -q "protocols" <<<"$out" && "$BIN" agent --help | grep -q "9B1B" &&
	pass "bench --help names protocols; agent --help names its SAP type" ||
	fail "bench --help names protocols; agent --help names its SAP type"
out=$("$BIN" agent --name "" 2>&1); [ $? = 2 ] && grep -q "1 to 31 printable" <<<"$out" &&
	pass "agent refuses an empty name" || fail "agent refuses an empty name" "$out"

# --- simulated time (--sim, --period) ---------------------------------------------
out=$(timeout 20 "$BIN" bench protocols --period tr4-1990 --json 2>"$TMP/period.err"); rc=$?
if [ $rc = 0 ] && python3 -c '
import json, sys
d = json.loads(sys.argv[1])
assert d["mode"] == "sim" and d["period"] == "tr4-1990" and d["profile"] == "tr4"
assert [r["kind"] for r in d["rows"]] == ["ipx", "spx", "nb-dgram", "nb-session"]
assert all(r["sent"] == 2000 and r["delivered"] == 2000 for r in d["rows"])
f = d["fidelity"]
assert f["period"] == "tr4-1990" and f["unit"] == "pkt/s"
assert [r["ref_pkt_s"] for r in f["rows"]] == [366.0, 140.3, 224.8, 135.9]
assert all(r["today_pkt_s"] > r["model_pkt_s"] for r in f["rows"])
assert f["median_abs_error_pct"] <= f["target_pct"] == 10
try:
    import jsonschema
except ImportError:
    jsonschema = None
if jsonschema:
    jsonschema.validate(d, json.load(open(sys.argv[2])))
' "$out" "$REPO/docs/schema/bench-protocols.json"; then
	pass "bench protocols --period tr4-1990 --json: four rows and the fidelity table within 10 %"
else
	fail "bench protocols --period tr4-1990 --json: four rows and the fidelity table within 10 %" "rc=$rc" "$(cat "$TMP/period.err")" "${out:0:1500}"
fi
a=$(timeout 20 "$BIN" bench protocols --period tr4-1990 --seed 5 --count 300)
b=$(timeout 20 "$BIN" bench protocols --period tr4-1990 --seed 5 --count 300)
[ -n "$a" ] && [ "$a" = "$b" ] && grep -q "median absolute error" <<<"$a" &&
	pass "bench protocols --period: the same seed prints the same (fidelity table after the figures)" ||
	fail "bench protocols --period: the same seed prints the same (fidelity table after the figures)" "$a" "$b"
out=$(timeout 20 "$BIN" bench protocols --sim 2>&1); rc=$?
[ $rc = 0 ] && grep -q "the wire alone" <<<"$out" && ! grep -q "fidelity" <<<"$out" &&
	pass "bench protocols --sim: the wire alone, no fidelity table" ||
	fail "bench protocols --sim: the wire alone, no fidelity table" "rc=$rc" "$out"

# --- an agent killed mid-run ------------------------------------------------------
# The receiver kills itself (SIGKILL) when asked to prepare nb-session in run 2.
start=$SECONDS
IPXLAB_AGENT_FAULT=receiver:nb-session:2:die timeout 60 "$BIN" bench protocols --count 100 --repeat 2 \
	>"$TMP/kill.out" 2>"$TMP/kill.err" & c=$!
PIDS+=($c)
sleep 0.5
kids=$(pgrep -P "$(pgrep -P $c | head -1)" | tr '\n' ' ')
wait $c; rc=$?
err=$(cat "$TMP/kill.err")
sleep 0.2
left=""; for k in $kids; do kill -0 "$k" 2>/dev/null && left="$left $k"; done
if [ $rc = 1 ] && grep -q "agent 'receiver' (pid [0-9]*) died: killed by signal 9 (Killed) during nb-session run 2" <<<"$err" &&
	[ -z "$left" ] && [ -n "$kids" ] && [ $((SECONDS - start)) -lt 30 ]; then
	pass "a killed agent is reported by name and run, exit 1, no children left"
else
	fail "a killed agent is reported by name and run, exit 1, no children left" "rc=$rc children '$kids' left '$left'" "$err"
fi

# The same when the test kills the agent from outside, by its pid.
timeout 60 "$BIN" bench protocols --seconds 5 --repeat 1 >"$TMP/ext.out" 2>"$TMP/ext.err" & c=$!
PIDS+=($c)
ctl="" victim=""
for _ in $(seq 50); do
	sleep 0.1
	ctl=$(pgrep -P $c | head -1)
	# the controller's children: the hub, the sender, the receiver
	[ -n "$ctl" ] && [ "$(pgrep -P "$ctl" | wc -l)" -ge 3 ] && break
done
[ -n "$ctl" ] && victim=$(pgrep -P "$ctl" | sort -n | tail -1)
sleep 1
[ -n "$victim" ] && kill -9 "$victim"
wait $c; rc=$?
err=$(cat "$TMP/ext.err")
if [ $rc = 1 ] && [ -n "$victim" ] && grep -q "agent 'receiver' (pid $victim) died: killed by signal 9" <<<"$err" &&
	! kill -0 "$ctl" 2>/dev/null && [ -z "$(pgrep -P "$ctl")" ]; then
	pass "an agent killed from outside is reported with its pid"
else
	fail "an agent killed from outside is reported with its pid" "rc=$rc victim=$victim" "$err"
fi

# An agent that stops answering: the run's bound, not a hang.
start=$SECONDS
out=$(IPXLAB_AGENT_FAULT=sender:spx:1:hang timeout 60 "$BIN" bench protocols --count 100 --repeat 1 --timeout 2 2>&1); rc=$?
if [ $rc = 1 ] && grep -q "agent 'sender' (pid [0-9]*) did not answer within 2.0 s (no READY) during spx run 1" <<<"$out" &&
	[ $((SECONDS - start)) -lt 20 ]; then
	pass "a silent agent is reported within --timeout"
else
	fail "a silent agent is reported within --timeout" "rc=$rc after $((SECONDS - start)) s" "$out"
fi

# --- a quick real run ---------------------------------------------------------------
timeout 90 "$BIN" bench protocols --count 200 --repeat 1 --json >"$TMP/run.json" 2>"$TMP/run.err"; rc=$?
if [ $rc = 0 ] && python3 - "$TMP/run.json" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
kinds = [r["kind"] for r in d["rows"]]
assert kinds == ["ipx", "spx", "spx2", "nb-dgram", "nb-session", "udp"], kinds
for r in d["rows"] + [d["rtt"]]:
    assert r["pps"]["median"] > 0, r
    assert r["sent"]["median"] == 200, r
    assert r["delivered"]["median"] <= 200, r
    assert len(r["runs"]) == 1 and r["runs"][0]["sent"] == 200, r
assert [r["ref_1990_pps"] for r in d["rows"]] == [366.0, 140.3, None, 224.8, 135.9, None]
for r in d["rows"]:
    # kB = 1000 bytes: 255-byte payloads at the carried rate (one pass)
    kb = r["carried_pps"]["median"] * 255 / 1000
    assert abs(r["carried_kB_per_s"]["median"] - kb) <= 0.01 * kb + 0.01, r
    assert "kbps" not in r, r
    if r["kind"] in ("spx", "spx2", "nb-session"):
        assert r["delivered"]["median"] == 200, r     # sessions deliver all
assert len(d["targets"]) == 4 and all(t["pass"] in (True, False) for t in d["targets"])
assert d["config"]["count"] == 200 and d["config"]["repeat"] == 1
assert [a["role"] for a in d["config"]["agents"]] == ["sender", "receiver"]
EOF
then
	pass "a quick run's JSON parses and has every row, the 1990 figures and the targets"
else
	fail "a quick run's JSON parses and has every row, the 1990 figures and the targets" "rc=$rc" "$(cat "$TMP/run.err")" "$(head -c 2000 "$TMP/run.json")"
fi

# --- standing agents on a hub, found by SAP ----------------------------------------
start_hub
# (short NetBIOS name claims: set-up only, seconds saved)
printf 'NETBIOS BROADCAST DELAY = 2\n' >"$TMP/shell.cfg"
"$BIN" agent --hub "$HUB" --name tx --once --config "$TMP/shell.cfg" 2>"$TMP/tx.err" & a1=$!; PIDS+=($a1)
"$BIN" agent --hub "$HUB" --name rx --once --config "$TMP/shell.cfg" 2>"$TMP/rx.err" & a2=$!; PIDS+=($a2)
wait_for "$TMP/tx.err" "ready at" && wait_for "$TMP/rx.err" "ready at"
timeout 90 "$BIN" bench protocols --hub "$HUB" --agents tx,rx --count 100 --repeat 1 --csv >"$TMP/run.csv" 2>"$TMP/csv.err"; rc=$?
rows=$(tail -n +2 "$TMP/run.csv" | cut -d, -f1 | tr '\n' ' ')
if [ $rc = 0 ] && [ "$rows" = "ipx spx spx2 nb-dgram nb-session udp rtt " ] && head -1 "$TMP/run.csv" | grep -q "^kind,name,pps_median"; then
	pass "standing agents found by SAP run B1 (CSV has every row)"
else
	fail "standing agents found by SAP run B1 (CSV has every row)" "rc=$rc rows '$rows'" "$(cat "$TMP/csv.err")"
fi
# --once: both agents leave after the controller is done
sleep 1
if ! kill -0 $a1 2>/dev/null && ! kill -0 $a2 2>/dev/null; then
	pass "agents with --once exit after their controller"
else
	fail "agents with --once exit after their controller" "$(cat "$TMP/tx.err")"
fi
out=$(timeout 20 "$BIN" bench protocols --hub "$HUB" --agents tx,rx --wait 1 2>&1); rc=$?
[ $rc = 1 ] && grep -q "no agent named 'tx' answered a SAP query" <<<"$out" &&
	pass "an agent nobody runs is named in the error" || fail "an agent nobody runs is named in the error" "rc=$rc $out"

# --pcap: the hub the run starts records every packet; Wireshark reads it
timeout 60 "$BIN" bench protocols --count 20 --repeat 1 -q --pcap "$TMP/b1.pcap" >"$TMP/pcap.out" 2>&1
check "bench protocols --pcap runs" $? "$TMP/pcap.out"
if command -v tshark >/dev/null 2>&1; then
	check_capture "$TMP/b1.pcap" ipx 500
	check_frames "the capture has SPX II data" "$TMP/b1.pcap" "spx && spx.ctl & 0x08" 20
	check_frames "the capture has NetBIOS session data" "$TMP/b1.pcap" "nbipx" 20
fi

# --- bench hub, netbios and spx on the same harness ----------------------------------
out=$(timeout 60 "$BIN" bench hub -s 0.2 -w 0 -r 1 --csv -q 2>&1); rc=$?
if [ $rc = 0 ] && [ "$(cut -d, -f1 <<<"$out" | tr '\n' ' ')" = "figure plain_pps plain_MB_per_s plain_loss hub_pps hub_MB_per_s hub_loss ratio_hub_plain " ] &&
	grep -Eq '^ratio_hub_plain,[0-9.e+-]+,.*,0.50,(PASS|MISS)$' <<<"$out" && ! grep -q '^hub_pps,0,' <<<"$out"; then
	pass "bench hub runs on the harness agents (CSV has every figure and the verdict)"
else
	fail "bench hub runs on the harness agents (CSV has every figure and the verdict)" "rc=$rc" "$out"
fi
out=$(timeout 60 "$BIN" bench hub --json --csv 2>&1); [ $? = 2 ] && grep -q "exclude each other" <<<"$out" &&
	pass "bench hub refuses --json with --csv" || fail "bench hub refuses --json with --csv" "$out"
# the receiver agent dies when asked to prepare the hub path's IPX workload
start=$SECONDS
out=$(IPXLAB_AGENT_FAULT=receiver:ipx:1:die timeout 60 "$BIN" bench hub -s 0.2 -w 0 -r 1 2>&1); rc=$?
if [ $rc = 1 ] && grep -q "agent 'receiver' (pid [0-9]*) died: killed by signal 9 (Killed) during hub run 1" <<<"$out" &&
	[ $((SECONDS - start)) -lt 30 ]; then
	pass "bench hub reports a dead agent by name and run (the harness's child control)"
else
	fail "bench hub reports a dead agent by name and run (the harness's child control)" "rc=$rc" "$out"
fi
timeout 90 "$BIN" bench netbios -s 0.1 -r 1 --json >"$TMP/nb.json" 2>"$TMP/nb.err"; rc=$?
if [ $rc = 0 ] && python3 - "$TMP/nb.json" <<'EOF2'
import json, sys
d = json.load(open(sys.argv[1]))
c = d["conditions"]
assert c["version"] and c["cpus_online"] >= 1 and c["hub_pid"] > 0, c
assert [a["role"] for a in c["agents"]] == ["sender", "receiver"], c
r = d["runs"][0]
for k in ("ipx_round_trips", "ipx_datagrams", "netbios_datagrams", "session_messages", "session_64k_messages"):
    assert r[k]["rate"] > 0, (k, r[k])
for k in ("ipx_datagrams", "netbios_datagrams"):
    assert 0 < r[k]["delivered"] <= r[k]["sent"], (k, r[k])
assert r["session_messages"]["p50_us"] > 0 and d["ref_1990"] is None
assert set(d["summary"]) == set(k for k in r if isinstance(r[k], dict))
EOF2
then
	pass "bench netbios runs on the harness agents (JSON: every row, conditions, summary)"
else
	fail "bench netbios runs on the harness agents (JSON: every row, conditions, summary)" "rc=$rc" "$(cat "$TMP/nb.err")" "$(head -c 1500 "$TMP/nb.json")"
fi
out=$(timeout 60 "$BIN" bench spx --links udp -s 0.1 -w 0 -r 1 --csv -q 2>&1); rc=$?
if [ $rc = 0 ] && [ "$(tail -n +2 <<<"$out" | cut -d, -f1,2 | tr '\n' ' ')" = "udp,ipx-small udp,spx1 udp,ipx-large udp,spx2 " ] &&
	grep -Eq '^udp,spx2,1424,1380,[0-9.]+,.*,0.80,(PASS|MISS)$' <<<"$out"; then
	pass "bench spx's udp rows run on the harness agents (CSV)"
else
	fail "bench spx's udp rows run on the harness agents (CSV)" "rc=$rc" "$out"
fi


# --- Ctrl-C mid-run: what finished, valid JSON marked incomplete, exit 1 ----
if out=$(sigint_json "$TMP/int.json" 2.5 "$BIN" bench protocols --count 200 --repeat 50 --json 2>&1); then
	pass "bench protocols --json interrupted by SIGINT: the passes that finished, \"complete\": false, exit 1"
else
	fail "bench protocols --json interrupted by SIGINT: the passes that finished, \"complete\": false, exit 1" "$out" "$(head -c 600 "$TMP/int.json")"
fi
# hub, netbios, ncp: the same on the harness's agents (ncp: a file server too)
for b in "hub 3 -s 0.3 -w 0 -r 50" "netbios 6 -s 0.2 -r 20" "ncp 6 -s 1 --repeat 50"; do
	set -- $b
	name=$1 delay=$2
	shift 2
	if out=$(sigint_json "$TMP/$name-int.json" "$delay" "$BIN" bench "$name" "$@" --json 2>&1); then
		pass "bench $name --json interrupted by SIGINT: what finished, \"complete\": false, exit 1"
	else
		fail "bench $name --json interrupted by SIGINT: what finished, \"complete\": false, exit 1" "$out" "$(head -c 600 "$TMP/$name-int.json")"
	fi
done
for links in mem mem,udp; do	# mem: no loop reads the signal; udp: the harness's loop does
	if out=$(sigint_json "$TMP/spx.json" 3 "$BIN" bench spx --links $links -s 0.2 -w 0 -r 50 --json 2>&1); then
		pass "bench spx --links $links --json interrupted by SIGINT: the runs that finished, \"complete\": false, exit 1"
	else
		fail "bench spx --links $links --json interrupted by SIGINT: the runs that finished, \"complete\": false, exit 1" "$out" "$(head -c 600 "$TMP/spx.json")"
	fi
done
finish
