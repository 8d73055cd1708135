#!/usr/bin/env bash
# bench_tuning_test.sh [IPXLAB] - B9 (`ipxlab bench tuning`) as a user runs
# it: bad options refused; a buffer configuration that does not fit the
# adapter memory refused before anything runs, with the arithmetic, from
# the options and from a profile file (FILE:LINE for a bad key, `ipxlab
# profile FILE` printing the adapter keys); a short --sim run whose table,
# JSON and CSV have every step and the published figures beside; the same
# seed twice the same JSON; Ctrl-C prints what finished with "complete":
# false and exits 1; a short real-time run of the same network.
set -u
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"
use_build "${1:-}"
need_exe "$BIN"
need_cmd python3
make_tmp tuning

# refused OPTIONS... -- PATTERN: exit 2 and the message on stderr
refused() {
	local want=${*: -1} args=("${@:1:$#-1}") out rc
	out=$(timeout 10 "$BIN" bench tuning "${args[@]}" 2>&1 >/dev/null); rc=$?
	if [ $rc = 2 ] && grep -qF -- "$want" <<<"$out"; then
		pass "bench tuning refuses ${args[*]}"
	else
		fail "bench tuning refuses ${args[*]}" "rc=$rc" "$out"
	fi
}

refused --json --csv "--json and --csv exclude each other"
refused --seed 3 "--seed is for --sim runs only"
refused --tx-buffers 3 "--tx-buffers"
refused --memory 12K "adapter-memory 12288 must be 8K, 16K, 32K or 64K"
refused --period nosuch "--period: no period named 'nosuch'"
refused --period "$TMP/none.period" "--period: $TMP/none.period: No such file or directory"
printf 'kind period\nwire tr16\nbogus 1\n' >"$TMP/bad.period"
refused --period "$TMP/bad.period" "--period: $TMP/bad.period:3: unknown period setting 'bogus'"
refused --sim --memory 8K --tx-buffers 2 "the step 'tx size 4096': adapter memory 8192 bytes cannot hold 2 transmit buffers of 4096 bytes and 4 receive buffers of 1024 bytes: 2 x 4096 + 4 x 1024 = 12288 bytes > 8192"

# A profile file: a bad key says FILE:LINE; one that does not fit is
# refused with the arithmetic; a good one prints its adapter keys.
printf 'base tr16\nadapter-memory 8K\ntx-buffers two\n' >"$TMP/bad.profile"
out=$("$BIN" profile "$TMP/bad.profile" 2>&1); rc=$?
if [ $rc != 0 ] && grep -qF "bad.profile:3: tx-buffers must be a whole number" <<<"$out"; then
	pass "a bad adapter key in a profile file says FILE:LINE"
else
	fail "a bad adapter key in a profile file says FILE:LINE" "rc=$rc" "$out"
fi
printf 'base tr16\nadapter-memory 8K\ntx-buffers 2\ntx-buffer-size 4K\nrx-buffer-size 2K\n' >"$TMP/big.profile"
out=$("$BIN" bench tuning --sim --profile "$TMP/big.profile" 2>&1); rc=$?
if [ $rc = 2 ] && grep -qF "2 x 4096 + 2 x 2048 = 12288 bytes > 8192" <<<"$out"; then
	pass "a profile whose buffers do not fit is refused at start"
else
	fail "a profile whose buffers do not fit is refused at start" "rc=$rc" "$out"
fi
printf "base tr16\nadapter-memory 32K\ntx-buffers 2\ntx-buffer-size 2K\nrx-buffer-size 1K\n" >"$TMP/ok.profile"
out=$("$BIN" profile "$TMP/ok.profile" 2>&1)
if grep -qx "adapter-memory 32768" <<<"$out" && grep -qx "tx-buffers 2" <<<"$out" &&
	grep -qx "rx-buffer-cost 0" <<<"$out"; then
	pass "ipxlab profile FILE prints the adapter keys"
else
	fail "ipxlab profile FILE prints the adapter keys" "$out"
fi

# A short run in simulated time: text, JSON, CSV.
if timeout 30 "$BIN" bench tuning --sim -s 0.2 >"$TMP/t.txt" 2>"$TMP/t.err" &&
	has "$TMP/t.txt" '^tx size 256 +[0-9.]+ +[0-9.]+ +n/a' &&
	has "$TMP/t.txt" '^tx buffers 1 -> 2 .*\+13-18 % for large I/O' &&
	has "$TMP/t.txt" '^wire ceiling: back-to-back 2000-byte frames 66[5-7]\.[0-9] kB/s .*1990: 666\.7 kB/s, one every 3 ms \(651 KB/s as published, its KB 1,024 bytes\)' &&
	has "$TMP/t.txt" '^kB/s .* ncp wr6 +nb rd6 +nb wr6 ' &&
	has "$TMP/t.txt" '^six workstations together: NetBIOS reads [0-9.]+, writes [0-9.]+ kB/s; NCP reads [0-9.]+, writes [0-9.]+ kB/s \| 1990 \(LAN Manager\): 548\.9 kB/s \(536 KB/s as published\)'; then
	pass "the table has every step, the changes beside the note's and the ceiling"
else
	fail "the table" "$(cat "$TMP/t.txt" "$TMP/t.err")"
fi
for i in 1 2; do
	timeout 30 "$BIN" bench tuning --sim -s 0.2 --seed 5 --json >"$TMP/j$i.json" 2>/dev/null
done
if python3 - "$TMP/j1.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
assert d["complete"] is True
runs = d["runs"]
assert len(runs) == 8 * 8 - 2 * 4, len(runs)   # NCP n/a at 256 and 512
# NetBIOS with six workstations at every step, 256 and 512 included
nb6 = [r for r in runs if r["workload"] in ("netbios read 6 ws", "netbios write 6 ws")]
assert len(nb6) == 16 and all(r["workstations"] == 6 for r in nb6), nb6
assert all(0 < r["slowest_ws_kB_per_s"] < r["kB_per_s"] / 3 for r in nb6), nb6
for r in runs:
    assert r["kB_per_s"] > 0 and r["slowest_ws_kB_per_s"] <= r["kB_per_s"] + 0.05, r
    assert not any("KB" in k for k in r), r     # ours are all kB (1000 bytes)
    if r["config"] == "tx size 4096" and r["workload"].startswith("netbios"):
        assert max(r["largest_frame_ws_bytes"], r["largest_frame_srv_bytes"]) == 4096, r
steps = [c["step"] for c in d["changes"]]
assert "tx 256 -> 1K" in steps and "tx buffers 1 -> 2" in steps, steps
c = d["ceiling"]
# the note's figures as published (its KB = 1,024 bytes) and in kB
assert c["published_back_to_back_KB_per_s"] == 651 and c["published_six_ws_KB_per_s"] == 536
assert c["published_KB_bytes"] == 1024
assert c["published_back_to_back_in_kB_per_s"] == 666.7 and c["published_six_ws_in_kB_per_s"] == 548.9, c
assert abs(c["back_to_back_kB_per_s"] - 666.7) < 2, c
base = {r["workload"]: r["kB_per_s"] for r in runs if r["config"] == "baseline"}
assert c["six_ws_netbios_read_kB_per_s"] == base["netbios read 6 ws"], c
assert c["six_ws_netbios_write_kB_per_s"] == base["netbios write 6 ws"], c
assert [k for k in c if "KB" in k] == ["published_back_to_back_KB_per_s", "published_six_ws_KB_per_s", "published_KB_bytes"], c
PY
then
	pass "the JSON has every run, its units in the names, and the ceiling"
else
	fail "the JSON" "$(head -c 600 "$TMP/j1.json")"
fi
if cmp -s "$TMP/j1.json" "$TMP/j2.json"; then
	pass "the same seed gives the same JSON"
else
	fail "the same seed gives the same JSON" "$(diff "$TMP/j1.json" "$TMP/j2.json" | head -5)"
fi
# --period: the fidelity table after the output, within its target, the
# same seed the same bytes
for i in 1 2; do
	timeout 60 "$BIN" bench tuning --period lanman-1991 -s 0.2 -q >"$TMP/p$i.txt" 2>"$TMP/p$i.err"
done
if grep -q "^# fidelity: B9: .*, period lanman-1991$" "$TMP/p1.txt" &&
	grep -q "^median absolute error .* (target 10 %)$" "$TMP/p1.txt" &&
	grep -q "^tuning on tr16, .*period lanman-1991" <(sed 's/^B9 buffer and frame-size //' "$TMP/p1.txt") &&
	cmp -s "$TMP/p1.txt" "$TMP/p2.txt"; then
	pass "bench tuning --period lanman-1991: the fidelity table within 10 %, the same twice"
else
	fail "bench tuning --period lanman-1991" "$(tail -15 "$TMP/p1.txt")" "$(cat "$TMP/p1.err")"
fi

timeout 30 "$BIN" bench tuning --sim -s 0.2 --csv >"$TMP/t.csv" 2>/dev/null
if head -1 "$TMP/t.csv" | grep -q '^config,workload,workstations,.*,kB_per_s,slowest_ws_kB_per_s,' &&
	[ "$(wc -l <"$TMP/t.csv")" = 57 ]; then
	pass "the CSV has a header and a line per run"
else
	fail "the CSV" "$(head -3 "$TMP/t.csv")"
fi

# Ctrl-C: what finished, "complete": false, exit 1 (300 simulated seconds
# a test: the run is far from done after 1.5 s).
if n=$(sigint_json "$TMP/int.json" 1.5 "$BIN" bench tuning --sim -s 300 -q --json 2>&1); then
	pass "Ctrl-C prints what finished ($n bytes of JSON, complete false, exit 1)"
else
	fail "Ctrl-C prints what finished" "$n"
fi

# Real time: the same network on the system clock, one short step set.
if timeout 120 "$BIN" bench tuning -s 0.05 --json >"$TMP/rt.json" 2>"$TMP/rt.err" &&
	python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["complete"] and not d["conditions"]["simulated"]
assert all(r["kB_per_s"] > 0 for r in d["runs"])' "$TMP/rt.json"; then
	pass "a real-time run finishes with every run"
else
	fail "a real-time run" "$(cat "$TMP/rt.err")"
fi
finish
