#!/usr/bin/env bash
# bench_eth_test.sh [IPXLAB] - the benchmark harness on Ethernet: three
# network namespaces (two agents' machines and the controller's), each
# with one end of a veth pair whose other end is a port of a bridge in a
# fourth namespace (the "switch"); all created here and removed on exit.
# Checks:
#  - `ipxlab agent --link eth:IFACE` in two namespaces come up with their
#    interface's MAC as their node and are found by SAP;
#  - `ipxlab bench protocols --link eth:IFACE --agents tx,rx --count 200
#    --repeat 1 --json` from the third completes, every row (and the
#    round trip) delivers, the session rows deliver everything, and the
#    baseline row is plain Ethernet frames ("Ethernet baseline");
#  - the agents serve a second controller (standing), and an agent killed
#    in that run (SIGKILL, IPXLAB_AGENT_FAULT) is reported by name, exit 1;
#    so is an agent the test kills from outside by its pid mid-run, and a
#    receiver that dies right after answering READY (its sender's set-up
#    fails first: the controller must still name the dead one);
#  - without --agents on Ethernet the command says agents must be started
#    on the other machines (exit 2);
#  - `ipxlab bench eth --controller IF@NS3 IF@NS1 IF@NS2` starts its own
#    sender and receiver agents in the two namespaces, measures both paths
#    (JSON: conditions, every run delivers), and leaves nothing running;
#    without --controller it says why it needs a third interface (exit 2).
# Exits 77 (SKIP) without root, ip(8), network namespaces or a bridge.
# Every process is bounded by timeout and killed on exit.
set -u
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"
use_build "${1:-}"
need_exe "$BIN"
need_cmd python3

id=$$
NS=("ipxlabBA$id" "ipxlabBB$id" "ipxlabBC$id")	# agent tx, agent rx, controller
SW=ipxlabBS$id				# the switch: a bridge
IF=("bea$id" "beb$id" "bec$id")			# in NS[i]; peers sp0$id.. in SW
make_tmp benche
T=$TMP
# after the agents (PIDS) are ended: TERM reaches the ipxlab under timeout(1)
on_exit 'for n in "${NS[@]}" "$SW"; do ip netns del "$n" 2>/dev/null; done'

[ "$(id -u)" = 0 ] || skip "needs root to create network namespaces, veth pairs and a bridge"
need_cmd ip
setup() {
	local i
	ip netns add "$SW" && ip -n "$SW" link set lo up &&
		ip -n "$SW" link add br0 type bridge && ip -n "$SW" link set br0 up || return 1
	for i in 0 1 2; do
		ip netns add "${NS[$i]}" && ip -n "${NS[$i]}" link set lo up &&
			ip link add "${IF[$i]}" type veth peer name "sp$i$id" &&
			ip link set "${IF[$i]}" netns "${NS[$i]}" &&
			ip link set "sp$i$id" netns "$SW" &&
			ip -n "$SW" link set "sp$i$id" master br0 &&
			ip -n "$SW" link set "sp$i$id" up &&
			ip -n "${NS[$i]}" link set "${IF[$i]}" up || return 1
	done
}
if ! err=$(setup 2>&1); then
	skip "cannot create network namespaces, veth pairs and a bridge: ${err%%$'\n'*}"
fi

# agent I NAME [FAULT]: a standing agent on IF[I] in NS[I], stderr to
# $T/NAME.err, in the background (bounded by timeout)
agent() {
	ip netns exec "${NS[$1]}" env IPXLAB_AGENT_FAULT="${3:-}" timeout -k 2 170 "$BIN" agent \
		--link "eth:${IF[$1]}" --name "$2" --config "$T/shell.cfg" 2>"$T/$2.err" &
	PIDS+=($!)
	wait_for "$T/$2.err" "ready at" 100
}
# controller OUT ERR AGENTS OPTION...: bench protocols in NS[2] on IF[2]
controller() {
	local out=$1 err=$2 agents=$3
	shift 3
	ip netns exec "${NS[2]}" timeout -k 2 120 "$BIN" bench protocols --link "eth:${IF[2]}" \
		--agents "$agents" "$@" >"$out" 2>"$err"
}
mac_of() { ip -n "$1" -o link show "$2" | grep -o 'link/ether [0-9a-f:]*' | cut -d' ' -f2 | tr -d ':' | tr a-f A-F; }

# --- bench eth: its own agents in NS[0] and NS[1], the controller on IF[2] ---
# (before the standing agents: two agents on one interface would be one node)
out=$("$BIN" bench eth "${IF[0]}@${NS[0]}" "${IF[1]}@${NS[1]}" 2>&1); rc=$?
if [ $rc = 2 ] && grep -q -- "--controller IFACE\[@NETNS\] is needed" <<<"$out"; then
	pass "bench eth without --controller says why it needs a third interface"
else
	fail "bench eth without --controller says why it needs a third interface" "rc=$rc" "$out"
fi
start=$SECONDS
timeout -k 2 60 "$BIN" bench eth -s 0.3 -w 0 -r 2 --size 100 --json --controller "${IF[2]}@${NS[2]}" \
	"${IF[0]}@${NS[0]}" "${IF[1]}@${NS[1]}" >"$T/eth.json" 2>"$T/eth.err"; rc=$?
took=$((SECONDS - start))
if [ $rc = 0 ] && python3 - "$T/eth.json" "${IF[0]}@${NS[0]}" "${IF[2]}@${NS[2]}" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
c = d["conditions"]
assert d["benchmark"] == "eth" and c["link"] == "ethernet", c
assert c["controller_on"] == sys.argv[3], c
assert [a["role"] for a in c["agents"]] == ["sender", "receiver"], c
assert c["agents"][0]["on"] == sys.argv[2] and c["agents"][0]["pid"] > 0, c
assert d["frame_bytes"] == 14 + 30 + 100 and d["repeat"] == 2 and len(d["runs"]) == 2
for r in d["runs"]:
    for p in ("raw", "ipx"):
        assert r[p]["delivered"] > 100 and r[p]["delivered"] <= r[p]["sent"], r
        assert r[p]["pps"] > 0 and 0 <= r[p]["loss"] < 1, r
s = d["summary"]
assert s["ratio"]["min"] <= s["ratio"]["median"] <= s["ratio"]["max"], s
assert d["pass"] == (s["ratio"]["median"] >= d["target_ratio"]), d
EOF
then
	pass "bench eth runs on harness agents in two namespaces, controller in a third (${took} s)"
else
	fail "bench eth runs on harness agents in two namespaces, controller in a third" "rc=$rc" "$T/eth.err" "$T/eth.json"
fi
if ! pgrep -f "ipxlab agent" -P $$ >/dev/null 2>&1 && [ -z "$(ip netns pids "${NS[0]}")$(ip netns pids "${NS[1]}")" ]; then
	pass "bench eth leaves no agent running in the namespaces"
else
	fail "bench eth leaves no agent running in the namespaces" "$(ip netns pids "${NS[0]}") $(ip netns pids "${NS[1]}")"
fi

# --- Ctrl-C: the runs that finished, valid JSON marked incomplete, exit 1 ----------
python3 - "$T/int.json" "$BIN" bench eth -s 0.3 -w 0 -r 50 --size 100 --json --controller "${IF[2]}@${NS[2]}" \
	"${IF[0]}@${NS[0]}" "${IF[1]}@${NS[1]}" >"$T/int.out" 2>&1 <<'EOF'
import json, signal, subprocess, sys, time
path, args = sys.argv[1], sys.argv[2:]
with open(path, "w") as out:
    p = subprocess.Popen(args, stdout=out, stderr=subprocess.PIPE,
                         preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    time.sleep(3)
    p.send_signal(signal.SIGINT)
    _, err = p.communicate(timeout=20)
d = json.load(open(path))
assert p.returncode == 1 and d["complete"] is False and b"interrupted" in err, (p.returncode, err)
assert d["repeat"] == len(d["runs"]) < 50, d["repeat"]
EOF
if [ $? = 0 ]; then
	pass "bench eth --json interrupted by SIGINT: the runs that finished, \"complete\": false, exit 1"
else
	fail "bench eth --json interrupted by SIGINT: the runs that finished, \"complete\": false, exit 1" "$(cat "$T/int.out")" "$(head -c 600 "$T/int.json")"
fi

# --- without --agents: a clear refusal ----------------------------------------------
out=$(ip netns exec "${NS[2]}" timeout 10 "$BIN" bench protocols --link "eth:${IF[2]}" 2>&1); rc=$?
if [ $rc = 2 ] && grep -q "needs --agents S,R: on Ethernet the agents run on the other machines" <<<"$out"; then
	pass "--link eth: without --agents says where agents must run"
else
	fail "--link eth: without --agents says where agents must run" "rc=$rc" "$out"
fi

# --- standing agents on Ethernet ---------------------------------------------------
# (short NetBIOS name claims: set-up only, seconds saved.) rx kills itself
# when asked to prepare nb-session in counted pass 2: only the second
# controller, with --repeat 2, gets there.
printf 'NETBIOS BROADCAST DELAY = 2\n' >"$T/shell.cfg"
agent 0 tx
agent 1 rx rx:nb-session:2:die
if grep -q ":$(mac_of "${NS[0]}" "${IF[0]}"):" "$T/tx.err" &&
	grep -q ":$(mac_of "${NS[1]}" "${IF[1]}"):" "$T/rx.err"; then
	pass "agents start on Ethernet with their interface's MAC as node"
else
	fail "agents start on Ethernet with their interface's MAC as node" "$T/tx.err" "$T/rx.err"
fi

start=$SECONDS
controller "$T/run.json" "$T/run.err" tx,rx --count 200 --repeat 1 --json
rc=$?
took=$((SECONDS - start))
if [ $rc = 0 ] && python3 - "$T/run.json" <<'EOF'; then
import json, sys
d = json.load(open(sys.argv[1]))
rows = {r["kind"]: r for r in d["rows"]}
assert set(rows) == {"ipx", "spx", "spx2", "nb-dgram", "nb-session", "udp"}, rows.keys()
assert d["config"]["baseline"] == "ethernet frames", d["config"]
assert d["config"]["link"].startswith("eth:"), d["config"]
assert rows["udp"]["name"] == "Ethernet baseline", rows["udp"]["name"]
for r in d["rows"] + [d["rtt"]]:
    assert r["sent"]["median"] > 0, (r["kind"], "sent nothing")
    assert r["delivered"]["median"] > 0, (r["kind"], "delivered nothing")
    assert r["pps"]["median"] > 0, (r["kind"], "no rate")
for k in ("spx", "spx2", "nb-session"):
    assert rows[k]["delivered"]["median"] == rows[k]["sent"]["median"] == 200, k
assert [t["name"] for t in d["targets"]][0] == "ipx/eth", d["targets"]
for r in d["rows"]:
    print("  %-11s %10.0f pkt/s  delivered %4.0f/%4.0f" % (r["kind"], r["pps"]["median"],
          r["delivered"]["median"], r["sent"]["median"]))
print("  rtt         %10.0f round trips/s" % d["rtt"]["pps"]["median"])
EOF
	pass "bench protocols over Ethernet with standing agents: every row delivers (${took} s)"
else
	fail "bench protocols over Ethernet with standing agents: every row delivers" "rc=$rc" "$T/run.err" "$T/run.json"
fi

# --- the same agents, a second controller; rx is killed mid-run ---------------------
start=$SECONDS
controller "$T/kill.out" "$T/kill.err" tx,rx --count 200 --repeat 2 --timeout 20
rc=$?
took=$((SECONDS - start))
if [ $rc = 1 ] && grep -q "agent 'rx' (pid [0-9]*).*nb-session run 2" "$T/kill.err"; then
	pass "an agent killed mid-run on Ethernet is reported by name (${took} s)"
else
	fail "an agent killed mid-run on Ethernet is reported by name" "rc=$rc after ${took} s" "$T/kill.err"
fi

# --- killed from outside: a fresh receiver, SIGKILL by its pid mid-run -----------
agent 1 rx2
victim=$(grep -o 'pid [0-9]*' "$T/rx2.err" | head -n 1 | cut -d' ' -f2)
controller "$T/kill2.out" "$T/kill2.err" tx,rx2 --count 20000 --repeat 5 --timeout 20 &
ctl=$!
PIDS+=("$ctl")
wait_for "$T/rx2.err" "controller .* connected" 150 && sleep 1.5
[ -n "$victim" ] && kill -9 "$victim" 2>/dev/null
start=$SECONDS
wait $ctl
rc=$?
took=$((SECONDS - start))
if [ $rc = 1 ] && [ -n "$victim" ] && grep -q "agent 'rx2' (pid $victim)" "$T/kill2.err"; then
	pass "an agent killed from outside on Ethernet is reported with its name and pid (${took} s after the kill)"
else
	fail "an agent killed from outside on Ethernet is reported with its name and pid" \
		"rc=$rc victim=$victim after ${took} s" "$T/kill2.err"
fi

# --- a receiver that dies right after answering READY ------------------------------
# The sender's set-up then fails (FIND NAME or CALL unanswered): the
# controller must name the dead receiver, not only the sender's failure.
for kind in nb-dgram spx; do
	agent 1 "rx-$kind" "rx-$kind:$kind:1:vanish"
	start=$SECONDS
	controller /dev/null "$T/vanish-$kind.err" "tx,rx-$kind" --count 200 --repeat 1
	rc=$?
	took=$((SECONDS - start))
	if [ $rc = 1 ] && grep -q "agent 'rx-$kind' (pid [0-9]*).* during $kind run 1" "$T/vanish-$kind.err"; then
		pass "a receiver dead after READY ($kind) is named (${took} s)"
	else
		fail "a receiver dead after READY ($kind) is named" "rc=$rc after ${took} s" "$T/vanish-$kind.err"
	fi
done

finish
