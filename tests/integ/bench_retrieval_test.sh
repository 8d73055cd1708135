#!/usr/bin/env bash
# bench_retrieval_test.sh [IPXLAB] - B8, `ipxlab bench retrieval`, as a
# user runs it: bad options refused with clear messages; a short --sim run
# whose JSON has the four configurations (burst marked when not offered),
# every workstation's images all retrieved, the lag within the total, the
# spread ordered, the server's CPU series with its baseline (median) no
# more than its peak, units in the field names, the note's ranking beside,
# and the same output twice; the CSV's header and rows; the text's tables;
# a real-time run with the server's CPU from its own counters and the
# single-frame driver (strace: its workstations receive one frame per
# recvmmsg, the batched never); and Ctrl-C mid-run: what finished, "complete":
# false, exit 1.
set -u
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"
use_build "${1:-}"
need_exe "$BIN"
need_cmd python3
make_tmp retrieval

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

refused --stations 25 "--stations must be a whole number from 1 to 24"
refused --files 0 "--files must be a whole number from 1 to 200"
refused --only request/fast "--only: unknown configuration 'request/fast'"
refused --sim --repeat 2 "no --repeat"
refused --json --csv "--json and --csv exclude each other"

# the JSON checks: python3 check FILE STATIONS FILES [real]
cat >"$TMP/check.py" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
n, files, real = int(sys.argv[2]), int(sys.argv[3]), len(sys.argv) > 4
assert d["benchmark"] == "retrieval"
assert d["conditions"]["stations"] == n and d["conditions"]["files_per_station"] == files
assert d["published"]["ranking_total_time"] == ["32/32", "32/16", "16/16", "16/32"]
measured = [c for c in d["configurations"] if c["status"] == "measured"]
for c in d["configurations"]:
    if c["status"] == "burst not offered":
        assert c["client"] == "packet burst" and "total_s" not in c, c
assert measured, d["configurations"]
for c in measured:
    ws = c["per_workstation"]
    assert [w["station"] for w in ws] == [str(i + 1) for i in range(n)]
    assert all(w["files"] == files for w in ws), ws
    assert all(0 < w["first_s"] <= w["time_s"] for w in ws), ws
    assert 0 < c["initial_lag_s"] <= c["total_s"], c
    assert c["initial_lag_s"] == min(w["first_s"] for w in ws)
    assert c["completion_min_s"] <= c["completion_median_s"] <= c["completion_max_s"] == c["total_s"]
    assert c["images_kB_per_s"] > 0
    cpu = c["server_cpu"]
    assert cpu["measured"] and cpu["interval_s"] == 0.1, cpu
    s = sorted(cpu["series_pct"])
    assert s and cpu["peak_pct"] == s[-1] >= cpu["baseline_pct"], cpu
    if not real:
        assert 0 < cpu["baseline_pct"] < 100, cpu
assert sorted(c["rank"] for c in measured) == list(range(1, len(measured) + 1))
print(" ".join("%s=%.3fs/%.1f%%" % (c["name"], c["total_s"], c["server_cpu"]["baseline_pct"]) for c in measured))
PY

# --- --sim ---------------------------------------------------------------
SIM=(bench retrieval --sim --seed 4 --stations 4 --files 15 -q)
if "$BIN" "${SIM[@]}" --json >"$TMP/a.json" 2>"$TMP/a.err" &&
	"$BIN" "${SIM[@]}" --json >"$TMP/b.json" 2>>"$TMP/a.err" &&
	cmp -s "$TMP/a.json" "$TMP/b.json"; then
	pass "retrieval --sim twice with one seed: the same JSON"
else
	fail "retrieval --sim twice with one seed: the same JSON" "$(head -5 "$TMP/a.err")"
fi
if out=$(python3 "$TMP/check.py" "$TMP/a.json" 4 15 2>&1); then
	pass "retrieval --sim JSON: every image retrieved, lag <= total, spread ordered, CPU baseline <= peak ($out)"
else
	fail "retrieval --sim JSON: every image retrieved, lag <= total, spread ordered, CPU baseline <= peak" "$out"
fi
"$BIN" "${SIM[@]}" --csv >"$TMP/a.csv" 2>/dev/null
head -1 "$TMP/a.csv" | grep -q '^config,note_setup,status,station,files,time_s,first_s,lag_s,min_s,median_s,max_s,t_s,cpu_pct,cpu_baseline_pct,cpu_peak_pct,rank$' &&
	[ "$(grep -c '^request/single,16/16,measured,[0-9],15,' "$TMP/a.csv")" = 4 ] &&
	grep -q '^request/batched,16/32,measured,cpu,' "$TMP/a.csv"
check "retrieval --csv: a header with units, a row per workstation, the CPU series" $? "$(head -3 "$TMP/a.csv")"
"$BIN" "${SIM[@]}" >"$TMP/a.txt" 2>/dev/null
if has "$TMP/a.txt" '^configuration +note +total s +lag s' &&
	has "$TMP/a.txt" '^request/single +16/16 +[0-9.]+ ' &&
	has "$TMP/a.txt" "^the 1990 note's ranking \\(client/driver bits\\): 1 32/32, 2 32/16, 3 16/16, 4 16/32" &&
	has "$TMP/a.txt" '^ranking \(total time' && has "$TMP/a.txt" '^request/batched +\|[0-9*]+\|'; then
	pass "retrieval text: the table, our ranking beside the note's, the CPU series"
else
	fail "retrieval text: the table, our ranking beside the note's, the CPU series" "$(cat "$TMP/a.txt")"
fi

# --- real time: the server's own counters, both drivers --------------------
if timeout 120 "$BIN" bench retrieval --stations 4 --files 200 \
	--only request/batched,request/single -q --json >"$TMP/rt.json" 2>"$TMP/rt.err" &&
	out=$(python3 "$TMP/check.py" "$TMP/rt.json" 4 200 real 2>&1); then
	pass "retrieval in real time: 4 x 200 images, the server's CPU sampled, batched and single-frame ($out)"
else
	fail "retrieval in real time: 4 x 200 images, the server's CPU sampled, batched and single-frame" "${out:-}" "$(head -5 "$TMP/rt.err")"
fi

# --- the driver: one frame per system call (strace, where it may trace) ------
# recvmmsg of one frame is made only by a link with single_frame set (every
# other caller asks for up to 64)
recv1() { # CONFIG: the recvmmsg calls of vlen 1 in a tiny real-time run
	local try	# (traced, every process is slower: a second try on a loaded machine)
	for try in 1 2 3; do
		# (LeakSanitizer cannot run under ptrace: off for this run)
		ASAN_OPTIONS=detect_leaks=0 strace -f -e trace=recvmmsg -o "$TMP/st" \
			timeout 60 "$BIN" bench retrieval \
			--stations 1 --files 3 --only "$1" -q >/dev/null 2>"$TMP/st.err" &&
			{ grep -cE 'recvmmsg\([0-9]+, \[.*\], 1, ' "$TMP/st"; return 0; }
	done
	echo "failed: $(tail -n 2 "$TMP/st.err" | tr '\n' ' ')"
}
if command -v strace >/dev/null && strace -o /dev/null true 2>/dev/null; then
	single=$(recv1 request/single) batched=$(recv1 request/batched)
	[ "${single:-0}" -gt 0 ] 2>/dev/null && [ "${batched:-x}" = 0 ]
	check "the single-frame driver receives one frame per recvmmsg ($single calls), the batched never" $? "single=$single batched=$batched"
else
	skip "the single-frame driver's system calls: strace cannot trace here"
fi

# --- Ctrl-C mid-run: what finished, valid JSON marked incomplete, exit 1 ----
if out=$(sigint_json "$TMP/int.json" 2 "$BIN" bench retrieval --profile eth10 --stations 2 --json 2>&1); then
	pass "retrieval --profile eth10 --json interrupted by SIGINT: valid JSON, \"complete\": false, exit 1"
else
	fail "retrieval --profile eth10 --json interrupted by SIGINT: valid JSON, \"complete\": false, exit 1" "$out"
fi
finish
