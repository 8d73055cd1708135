#!/usr/bin/env bash
# suite_test.sh - 'ipxlab bench suite' and 'ipxlab bench plot' as a user
# meets them: the quick suite in simulated time (B1 on loopback) writes
# every result, plot and index.html in well under a minute; every JSON
# file it wrote validates against its schema in docs/schema (and a file
# broken on purpose does not); index.html loaded in headless Chromium
# (tests/integ/chromium_report.py, over its DevTools protocol) shows no
# console message, every plot as an image of non-zero size, every table
# of the suite's table with rows, and a screenshot is saved under the
# build directory (suite-report.png); the checker itself catches a
# missing image. Without gnuplot the tables are still written, with a
# message naming the package. Ctrl-C stops it with the report written.
# B7's configurations without figures (burst not offered) are '-' with
# their reason in the tables and in the plot's key; its schema takes a
# real-time and an interrupted run. B8's configurations, ranked, with the
# note's rank and published ranking beside, and its server CPU against
# time per configuration; its schema takes a real-time and an
# interrupted run. B9's tables give ours in kB/s and
# the note's figures as published and in kB/s; its schema takes a
# real-time and an interrupted run and refuses the old KB_per_s names.
# 'bench plot' on stored results (tests/fixtures/suite/: --sim, B7's, B8's
# and B9's in real time and interrupted) writes the expected files; bad input
# is refused.
set -u
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"
use_build "${1:-}"
need_exe "$BIN"
need_cmd gnuplot chromium
make_tmp suite
FIX=$REPO/tests/fixtures/suite
SCHEMAS=$REPO/docs/schema
# Debian's python3 with python3-jsonschema (another python3 first in PATH
# may lack it)
PY=
for p in /usr/bin/python3 python3; do
	"$p" -c 'import jsonschema' 2>/dev/null && PY=$p && break
done
[ -n "$PY" ] || skip "python3-jsonschema not installed (scripts/install-deps.sh)"

PLOTS="b1-rates b2-ops b2-peak b3-copy b5-gaps b6-scaling b6-limit b7-curve b8-cpu b9-steps b9-changes"
TABLES="Rates beside 1990's|Targets|Network Test Battery|File copy|Per workstation|Total|Arrival gaps|Battery with and without the bridge|Bridged traffic share|Throughput limit search|Throughput limit|Scaling|Configurations|The bulletin's best|Total kB/s, blocks of 64,512 to 35,840 bytes|Total kB/s, blocks of 31,744 to 3,072 bytes|Configurations ranked by total time|The note's ranking and CPU|Steps|Changes beside the note's|Wire ceiling|Six workstations together"

# The quick suite, timed.
R=$TMP/report
t0=$(date +%s.%N)
timeout 120 "$BIN" bench suite --quick --sim -o "$R" >"$TMP/out" 2>"$TMP/err"
rc=$?
secs=$(echo "$(date +%s.%N) - $t0" | bc)
echo "suite --quick --sim: ${secs} s"
check "suite --quick --sim exits 0" $rc "$TMP/err" "$TMP/out"
check "the quick --sim suite in under 60 s (${secs} s)" \
	"$(echo "$secs < 60" | bc | grep -qx 1; echo $?)"
ok=0
for f in suite.json index.html b1-protocols.json b2-battery.json b3-copy.json \
	b4-perftest.json b5-arrival.json b6-wan.json b7-perform3.json \
	b8-retrieval.json b9-tuning.json; do
	[ -s "$R/$f" ] || { ok=1; echo "  missing $f"; }
done
for p in $PLOTS; do
	for e in gp dat svg png; do
		[ -s "$R/plots/$p.$e" ] || { ok=1; echo "  missing plots/$p.$e"; }
	done
done
check "every result, plot (gp, dat, svg, png) and index.html written" $ok
has "$TMP/out" "^Report: $R/index.html$" && has "$TMP/out" "1990 peak local" &&
	has "$TMP/out" "^  File copy$"
check "the text report: the tables with the 1990 columns, where index.html is" $? "$TMP/out"

# B7's configurations in the text: a measured one with its figures, one
# without (burst not offered, not run) with its reason and '-' for each.
"$PY" - "$R/b7-perform3.json" "$TMP/out" "$R/plots/b7-curve.dat" <<'PY' >"$TMP/b7" 2>&1
import json, re, sys
cfgs = json.load(open(sys.argv[1]))["result"]["configurations"]
text = open(sys.argv[2]).read()
dat = open(sys.argv[3]).read().splitlines()
assert [c["name"] for c in cfgs] == ["request/default", "request/tuned",
                                     "burst/default", "burst/tuned"], cfgs
assert len(dat) == 17, dat  # the header, 16 sizes
for c in cfgs:
    if c["status"] == "measured":
        want = r"\n  %s +%d +measured +%d +16 +%.3f +%.3f +%d\n" % (
            re.escape(c["name"]), c["buffer_asked_bytes"],
            c["buffer_granted_bytes"], c["average_total_kB_per_s"],
            c["peak_total_kB_per_s"], c["peak_block_bytes"])
        assert '"%s"' % c["name"] in dat[0], dat[0]
    else:
        want = r"\n  %s +%d +%s( +-){5}\n" % (
            re.escape(c["name"]), c["buffer_asked_bytes"], c["status"])
        assert '"%s: %s, no figures"' % (c["name"], c["status"]) in dat[0], dat[0]
    assert re.search(want, text), want
print("ok", [c["status"] for c in cfgs])
PY
check "B7 in the text report: measured configurations' figures, the others '-' with their reason; its plot data" $? "$TMP/b7"

# B8 in the text: each configuration's figures as its JSON wrote them,
# its rank beside the note's, the note's ranking; the CPU plot's data.
"$PY" - "$R/b8-retrieval.json" "$TMP/out" "$R/plots/b8-cpu.dat" <<'PY' >"$TMP/b8" 2>&1
import json, re, shlex, sys
d = json.load(open(sys.argv[1]), parse_float=str)["result"]
text = open(sys.argv[2]).read()
dat = [shlex.split(l) for l in open(sys.argv[3]).read().splitlines()]
cfgs = d["configurations"]
assert [c["name"] for c in cfgs] == ["request/batched", "request/single",
                                     "burst/batched", "burst/single"], cfgs
assert d["conditions"]["stations"] == 18 and d["conditions"]["files_per_station"] == 100
for c in cfgs:
    assert c["status"] == "measured", c["status"]
    cpu = c["server_cpu"]
    want = r"\n  %s +%s +measured +%s +%s +%s +%s +%s +%s +%s +%s +%d +%d\n" % (
        re.escape(c["name"]), c["note_setup"], c["total_s"], c["initial_lag_s"],
        c["completion_min_s"], c["completion_median_s"], c["completion_max_s"],
        c["images_kB_per_s"], cpu["baseline_pct"], cpu["peak_pct"], c["rank"],
        c["note_rank"])
    assert re.search(want, text), want
    k = dat[0].index("%s (%s)" % (c["name"], c["note_setup"]))
    col = [row[k] for row in dat[1:]]
    got = [x for x in col if x != "NaN"]
    assert [float(x) for x in got] == [float(x) for x in cpu["series_pct"]], (c["name"], got[:5])
    assert col[len(got):] == ["NaN"] * (len(col) - len(got))
assert sorted(c["rank"] for c in cfgs) == [1, 2, 3, 4]
assert re.search(r"\n  1st +2nd +3rd +4th +1990 CPU straight +1990 CPU hybrid +1990 ws +ws +images each\n"
                 r"  32/32 +32/16 +16/16 +16/32 +13 +20 +18 +18 +100\n", text), "the note's ranking"
assert dat[0][1:3] == ["1990 straight set-ups, about 13 %", "1990 hybrids, about 20 %"], dat[0]
assert all(row[1:3] == ["13", "20"] for row in dat[1:]) and len(dat) > 10, len(dat)
print("ok", [c["rank"] for c in cfgs], len(dat) - 1, "samples")
PY
check "B8 in the text report: each configuration's figures, rank beside the note's, the note's ranking; its CPU plot's data" $? "$TMP/b8"

# B9 in the text: every measurement, the ceiling and six workstations
# in kB/s beside the note's in kB/s and as published, its plots' data.
"$PY" - "$R/b9-tuning.json" "$TMP/out" "$R/plots/b9-steps.dat" "$R/plots/b9-changes.dat" <<'PY' >"$TMP/b9" 2>&1
import json, re, shlex, sys
d = json.load(open(sys.argv[1]))["result"]
text = open(sys.argv[2]).read()
steps = open(sys.argv[3]).read().splitlines()
cells = [shlex.split(l) for l in steps]
changes = open(sys.argv[4]).read().splitlines()
assert d["complete"] and d["conditions"]["simulated"], d["conditions"]
assert len(d["runs"]) == 56, len(d["runs"])
for r in d["runs"]:
    want = r"\n  %s +%s +%.1f +%.1f +%d +%d +%d\n" % (
        re.escape(r["config"]), re.escape(r["workload"]), r["kB_per_s"],
        r["slowest_ws_kB_per_s"], r["largest_frame_ws_bytes"],
        r["largest_frame_srv_bytes"], r["rx_no_buffer_frames"])
    assert re.search(want, text), want
c = d["ceiling"]
assert re.search(r"\n  back to back +per frame +wire alone +1990 +1990 as published\n"
                 r"  %.1f +%.3f +%.1f +666\.7 +651\n" % (
                     c["back_to_back_kB_per_s"], c["per_frame_ms"],
                     c["wire_alone_kB_per_s"]), text), "ceiling"
assert re.search(r"\n  NetBIOS reads +NetBIOS writes +NCP reads +NCP writes +1990 +1990 as published\n"
                 r"  %.1f +%.1f +%.1f +%.1f +548\.9 +536\n" % (
    c["six_ws_netbios_read_kB_per_s"], c["six_ws_netbios_write_kB_per_s"],
    c["six_ws_read_kB_per_s"], c["six_ws_write_kB_per_s"]), text), "six ws"
assert re.search(r"\n  tx buffers 1 -> 2 +(-?[0-9.]+ +){8}\+13-18 % for large I/O\n", text)
assert "1990 ceiling 666.7 kB/s (its 651 KB/s)" in steps[0], steps[0]
assert len(steps) == 9 and steps[1].startswith('"baseline" '), steps
base = [r["kB_per_s"] for r in d["runs"] if r["config"] == "baseline"]
assert cells[1][1:] == ["%g" % x for x in base] + ["666.7", "548.9"], steps[1]
assert cells[2][0] == "tx size 256" and cells[2][3:7] == ["NaN"] * 4, steps[2]  # NCP n/a
assert len(changes) == 10 and changes[3].endswith(" 36 153"), changes
print("ok")
PY
check "B9 in the text report: every measurement, ceiling and six ws beside 666.7/651 and 548.9/536; its plots' data" $? "$TMP/b9"

# The schemas.
"$PY" "$REPO/tests/integ/validate_suite.py" "$R" "$SCHEMAS" >"$TMP/valid" 2>&1
check "every JSON file of the suite validates against docs/schema" $? "$TMP/valid"
cp -r "$R" "$TMP/broken"
"$PY" - "$TMP/broken/b3-copy.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
del d["result"]["sizes"][0]["average"]
json.dump(d, open(sys.argv[1], "w"))
PY
! "$PY" "$REPO/tests/integ/validate_suite.py" "$TMP/broken" "$SCHEMAS" >"$TMP/invalid" 2>&1 &&
	has "$TMP/invalid" "INVALID b3-copy.json result at /sizes/0: 'average' is a required property"
check "a result missing a figure does not validate" $? "$TMP/invalid"
# B7's schema on stored real-time runs (one whole, one interrupted with
# the later configurations not run) and on figures where there are none.
"$PY" - "$SCHEMAS/bench-perform3.json" "$FIX/perform3-realtime.json" \
	"$FIX/perform3-interrupted.json" <<'PY' >"$TMP/b7schema" 2>&1
import copy, json, sys
import jsonschema
s = json.load(open(sys.argv[1]))
v = jsonschema.validators.validator_for(s)(s)
rt, cut = json.load(open(sys.argv[2])), json.load(open(sys.argv[3]))
for d in (rt, cut):
    errs = list(v.iter_errors(d))
    assert not errs, [e.message for e in errs[:3]]
assert rt["conditions"]["simulated"] is False and "complete" not in rt
assert cut["complete"] is False
assert [c["status"] for c in cut["configurations"]][1:] == ["not run"] * 3
bad = copy.deepcopy(rt)
no = [c for c in bad["configurations"] if c["status"] != "measured"][0]
no["sizes"] = bad["configurations"][0]["sizes"]
assert list(v.iter_errors(bad)), "figures in a configuration without them"
bad = copy.deepcopy(cut)
del bad["configurations"][0]["sizes"][3]["total_kB_per_s"]
assert list(v.iter_errors(bad)), "a size without its total"
print("ok")
PY
check "bench-perform3.json: a real-time and an interrupted run validate, figures where there are none do not" $? "$TMP/b7schema"
# B8's schema on stored real-time and interrupted runs; figures in a
# configuration not run, a measured one without its CPU series and
# another ranking for the note do not.
"$PY" - "$SCHEMAS/bench-retrieval.json" "$FIX/retrieval-realtime.json" \
	"$FIX/retrieval-interrupted.json" <<'PY' >"$TMP/b8schema" 2>&1
import copy, json, sys
import jsonschema
s = json.load(open(sys.argv[1]))
v = jsonschema.validators.validator_for(s)(s)
rt, cut = json.load(open(sys.argv[2])), json.load(open(sys.argv[3]))
for d in (rt, cut):
    errs = list(v.iter_errors(d))
    assert not errs, [e.message for e in errs[:3]]
assert rt["conditions"]["simulated"] is False and "complete" not in rt
assert [c["status"] for c in rt["configurations"]] == ["measured"] * 4
assert cut["complete"] is False
st = [c["status"] for c in cut["configurations"]]
assert st[0] == "measured" and "not run" in st, st
bad = copy.deepcopy(cut)
no = [c for c in bad["configurations"] if c["status"] != "measured"][0]
no["total_s"] = 1.0
assert list(v.iter_errors(bad)), "figures in a configuration not run"
bad = copy.deepcopy(rt)
del bad["configurations"][1]["server_cpu"]["series_pct"]
assert list(v.iter_errors(bad)), "a measured CPU without its series"
bad = copy.deepcopy(rt)
bad["published"]["ranking_total_time"].reverse()
assert list(v.iter_errors(bad)), "another ranking for the note"
print("ok")
PY
check "bench-retrieval.json: a real-time and an interrupted run validate; figures not run, no CPU series, another note ranking do not" $? "$TMP/b8schema"
# B9's schema on stored real-time and interrupted runs; the old KB/s
# names, a missing figure and the note's figure unconverted do not.
"$PY" - "$SCHEMAS/bench-tuning.json" "$FIX/tuning-realtime.json" \
	"$FIX/tuning-interrupted.json" <<'PY' >"$TMP/b9schema" 2>&1
import copy, json, sys
import jsonschema
s = json.load(open(sys.argv[1]))
v = jsonschema.validators.validator_for(s)(s)
rt, cut = json.load(open(sys.argv[2])), json.load(open(sys.argv[3]))
for d in (rt, cut):
    errs = list(v.iter_errors(d))
    assert not errs, [e.message for e in errs[:3]]
assert rt["conditions"]["simulated"] is False and rt["complete"] is True
assert len(rt["runs"]) == 40, len(rt["runs"])
assert cut["complete"] is False and 0 < len(cut["runs"]) < 40
assert cut["ceiling"]["six_ws_write_kB_per_s"] is None
bad = copy.deepcopy(rt)
bad["runs"][0]["KB_per_s"] = bad["runs"][0].pop("kB_per_s")
assert list(v.iter_errors(bad)), "the old KB_per_s name"
bad = copy.deepcopy(rt)
del bad["runs"][3]["slowest_ws_kB_per_s"]
assert list(v.iter_errors(bad)), "a run without its slowest workstation"
bad = copy.deepcopy(rt)
bad["ceiling"]["published_back_to_back_in_kB_per_s"] = 651
assert list(v.iter_errors(bad)), "the note's 651 KB/s taken for kB/s"
print("ok")
PY
check "bench-tuning.json: a real-time and an interrupted run validate; old KB names, a missing figure, 651 as kB/s do not" $? "$TMP/b9schema"

# index.html in headless Chromium.
SHOT=$(dirname "$BIN")/suite-report.png
t0=$(date +%s.%N)
timeout 90 "$PY" "$REPO/tests/integ/chromium_report.py" chromium "$R/index.html" "$SHOT" \
	>"$TMP/page.json" 2>"$TMP/page.err"
rc=$?
secs=$(echo "$(date +%s.%N) - $t0" | bc)
echo "chromium: ${secs} s"
check "chromium loads index.html" $rc "$TMP/page.err"
"$PY" - "$TMP/page.json" "$PLOTS" "$TABLES" <<'PY' >"$TMP/page.check" 2>&1
import json, sys
d = json.load(open(sys.argv[1]))
want_img = ["plots/%s.svg" % p for p in sys.argv[2].split()]
want_tab = sys.argv[3].split("|")
bad = []
if d["console"]:
    bad.append("console: %s" % d["console"])
got = [i["src"] for i in d["images"]]
if got != want_img:
    bad.append("images %s, want %s" % (got, want_img))
for i in d["images"]:
    if not i["complete"] or i["width"] <= 0 or i["height"] <= 0:
        bad.append("image not loaded: %s" % i)
caps = [t["caption"] for t in d["tables"]]
if caps != want_tab:
    bad.append("tables %s, want %s" % (caps, want_tab))
for t in d["tables"]:
    if t["rows"] < 1 or t["columns"] < 2:
        bad.append("empty table: %s" % t)
    if t["empty"]:  # a key the result does not have
        bad.append("%s: no figure in columns %s" % (t["caption"], t["empty"]))
print("\n".join(bad) or "ok")
sys.exit(1 if bad else 0)
PY
check "index.html: no console message, every plot an image with a size, every table with rows and a figure in every column" $? "$TMP/page.check"
[ -s "$SHOT" ] && head -c 8 "$SHOT" | od -An -tx1 | grep -q "89 50 4e 47"
check "the screenshot saved as $SHOT" $?
rm "$TMP/broken/plots/b3-copy.svg"
timeout 90 "$PY" "$REPO/tests/integ/chromium_report.py" chromium "$TMP/broken/index.html" \
	"$TMP/broken.png" >"$TMP/broken.json" 2>&1
grep -q "ERR_FILE_NOT_FOUND" "$TMP/broken.json" &&
	"$PY" -c 'import json,sys; d=json.load(open(sys.argv[1])); sys.exit(0 if [i for i in d["images"] if i["width"]==0] else 1)' "$TMP/broken.json"
check "the page check sees a missing image (console error, width 0)" $? "$TMP/broken.json"

# No gnuplot: the tables still, and a message.
IPXLAB_GNUPLOT=/nonexistent/gnuplot timeout 120 "$BIN" bench suite --quick --sim \
	--only B3,B4 -o "$TMP/nognuplot" >"$TMP/ng.out" 2>"$TMP/ng.err"
rc=$?
[ $rc = 0 ] && has "$TMP/ng.err" "gnuplot not found \(install Debian's gnuplot-nox" &&
	grep -q "<caption>File copy</caption>" "$TMP/nognuplot/index.html" &&
	! grep -q "<img" "$TMP/nognuplot/index.html" &&
	[ -s "$TMP/nognuplot/plots/b3-copy.gp" ] && has "$TMP/ng.out" "^  File copy$"
check "without gnuplot: a message naming the package, the tables, the scripts (exit $rc)" $? "$TMP/ng.err" "$TMP/ng.out"

# Ctrl-C during B1 (SIGINT to the process group, as a terminal sends it):
# B1 writes what finished, nothing more runs, the report is written.
"$PY" - "$BIN" "$TMP/int" <<'PY' >"$TMP/int.out" 2>&1
import json, os, signal, subprocess, sys, time
p = subprocess.Popen([sys.argv[1], "bench", "suite", "--quick", "--sim", "-q",
                      "-o", sys.argv[2]], stdout=subprocess.PIPE,
                     stderr=subprocess.PIPE, start_new_session=True)
time.sleep(0.8)
os.killpg(p.pid, signal.SIGINT)
out, err = p.communicate(timeout=30)
s = json.load(open(sys.argv[2] + "/suite.json"))
b1 = json.load(open(sys.argv[2] + "/b1-protocols.json"))
print(p.returncode, s["complete"], [b["benchmark"] for b in s["benchmarks"]],
      b1["result"]["complete"])
assert p.returncode == 1 and s["complete"] is False, (p.returncode, s)
assert [b["benchmark"] for b in s["benchmarks"]] == ["protocols"], s
assert b1["result"]["complete"] is False, b1
assert b"Interrupted: the benchmarks after" in out, out[-300:]
assert "Interrupted" in open(sys.argv[2] + "/index.html").read()
PY
check "interrupted during B1: exit 1, B1's partial result, no more run, the report says so" $? "$TMP/int.out"

# bench plot on stored --sim results.
P=$TMP/plot
"$BIN" bench plot "$FIX/b2-battery.json" -o "$P" >"$TMP/plot.out" 2>&1
rc=$?
[ $rc = 0 ] && [ "$(find "$P" -maxdepth 1 -type f ! -name '*.log' -printf '%f\n' | sort | tr '\n' ' ')" = \
	"b2-ops.dat b2-ops.gp b2-ops.png b2-ops.svg b2-peak.dat b2-peak.gp b2-peak.png b2-peak.svg " ] &&
	has "$TMP/plot.out" "^B2 battery: 2 plots in $P$" &&
	grep -q '"1 ws" "5 ws" "1990 local, 1 ws"' "$P/b2-peak.dat" &&
	grep -q '^"open-multi" .* 31 9$' "$P/b2-peak.dat" &&
	[ "$(grep -c '^"' "$P/b2-ops.dat")" = 11 ] &&
	head -c 4 "$P/b2-ops.svg" | grep -q "<svg\|<?xm"
check "bench plot on a suite result: its two plots (gp, dat, svg, png), 11 tests, the 1990 peaks" $? "$TMP/plot.out"
"$BIN" bench plot "$FIX/copy.json" -o "$P/copy" >"$TMP/plot.out" 2>&1 &&
	[ -s "$P/copy/b3-copy.svg" ] && [ -s "$P/copy/b3-copy.png" ] &&
	[ "$(grep -c '^ *[0-9]' "$P/copy/b3-copy.dat")" = 7 ] &&
	grep -q '^ *1205 .* 0.72 1.99$' "$P/copy/b3-copy.dat"
check "bench plot on a bench's own --json: B3's copy plot, seven sizes beside 1990's" $? "$TMP/plot.out"
mkdir -p "$TMP/beside" && cp "$FIX/wan.json" "$TMP/beside/" &&
	"$BIN" bench plot "$TMP/beside/wan.json" >"$TMP/plot.out" 2>&1 &&
	[ -s "$TMP/beside/plots/b6-scaling.png" ] && [ -s "$TMP/beside/plots/b6-limit.svg" ]
check "bench plot without -o: plots/ beside the result" $? "$TMP/plot.out"
"$BIN" bench plot "$FIX/perform3-interrupted.json" -o "$P/cut" >"$TMP/plot.out" 2>&1 &&
	[ -s "$P/cut/b7-curve.svg" ] && [ -s "$P/cut/b7-curve.png" ] &&
	[ "$(grep -c '^[0-9]' "$P/cut/b7-curve.dat")" = 10 ] &&
	grep -q '^64512 988 1077 1.25 1007.74 NaN NaN NaN$' "$P/cut/b7-curve.dat" &&
	grep -q 'burst/tuned: not run, no figures' "$P/cut/b7-curve.svg" &&
	"$BIN" bench plot "$FIX/perform3-realtime.json" -o "$P/rt" >>"$TMP/plot.out" 2>&1 &&
	[ "$(grep -c '^[0-9]' "$P/rt/b7-curve.dat")" = 16 ] &&
	grep -q 'burst/default: burst not offered, no figures' "$P/rt/b7-curve.svg" &&
	grep -q '>request/tuned<' "$P/rt/b7-curve.svg"
check "bench plot on B7's runs: interrupted (10 sizes, the rest 'not run' in the key), real time (16 sizes, burst not offered in the key)" $? "$TMP/plot.out"
# the stored B8 runs' longest CPU series (the interrupted one's first
# configuration, the real-time one's request configurations: 42 samples)
B8CUT=42 B8RT=42
"$BIN" bench plot "$FIX/retrieval-interrupted.json" -o "$P/b8cut" >"$TMP/plot.out" 2>&1 &&
	has "$TMP/plot.out" "^B8 retrieval: 1 plot in $P/b8cut$" &&
	[ -s "$P/b8cut/b8-cpu.svg" ] && [ -s "$P/b8cut/b8-cpu.png" ] &&
	[ "$(grep -c '^[0-9]' "$P/b8cut/b8-cpu.dat")" = "$B8CUT" ] &&
	grep -q '^0.100 13 20 [0-9.]* NaN NaN NaN$' "$P/b8cut/b8-cpu.dat" &&
	grep -q 'burst/single (32/16): not run, no figures' "$P/b8cut/b8-cpu.svg" &&
	"$BIN" bench plot "$FIX/retrieval-realtime.json" -o "$P/b8rt" >>"$TMP/plot.out" 2>&1 &&
	[ "$(grep -c '^[0-9]' "$P/b8rt/b8-cpu.dat")" = "$B8RT" ] &&
	grep -q '>burst/batched (32/32)<' "$P/b8rt/b8-cpu.svg" &&
	grep -q '1990 hybrids, about 20 %' "$P/b8rt/b8-cpu.svg"
check "bench plot on B8's runs: interrupted ($B8CUT samples, the rest 'not run' in the key), real time ($B8RT samples, every configuration a line)" $? "$TMP/plot.out"
"$BIN" bench plot "$FIX/tuning-interrupted.json" -o "$P/b9cut" >"$TMP/plot.out" 2>&1 &&
	has "$TMP/plot.out" "^B9 tuning: 2 plots in $P/b9cut$" &&
	[ -s "$P/b9cut/b9-steps.svg" ] && [ -s "$P/b9cut/b9-changes.png" ] &&
	[ "$(grep -c '^"' "$P/b9cut/b9-steps.dat")" = 1 ] &&
	grep -q '^"baseline" .* NaN 666.7 548.9$' "$P/b9cut/b9-steps.dat" &&
	"$BIN" bench plot "$FIX/tuning-realtime.json" -o "$P/b9rt" >>"$TMP/plot.out" 2>&1 &&
	[ "$(grep -c '^"' "$P/b9rt/b9-steps.dat")" = 8 ] &&
	[ "$(grep -c '^"' "$P/b9rt/b9-changes.dat")" = 9 ] &&
	grep -q '1990 six ws 548.9 kB/s (its 536 KB/s)' "$P/b9rt/b9-steps.svg"
check "bench plot on B9's runs: interrupted (the baseline only, its last workload NaN), real time (8 steps, 9 changes, the note's lines in the key)" $? "$TMP/plot.out"
"$BIN" bench plot "$FIX/../bench-sim/copy.txt" >"$TMP/bad1" 2>&1
[ $? = 1 ] && has "$TMP/bad1" "ipxlab bench: plot: .*copy.txt: not JSON: .* at byte 0"
check "bench plot on a file that is not JSON: exit 1, says so" $? "$TMP/bad1"
echo '{"benchmark":"nope"}' >"$TMP/nope.json"
"$BIN" bench plot "$TMP/nope.json" >"$TMP/bad2" 2>&1
[ $? = 1 ] && has "$TMP/bad2" "not the result of a benchmark of the suite"
check "bench plot on an unknown result: exit 1, says so" $? "$TMP/bad2"
"$BIN" bench plot >"$TMP/bad3" 2>&1
[ $? = 2 ] && has "$TMP/bad3" "which result\\?"
check "bench plot without a file: exit 2" $? "$TMP/bad3"
"$BIN" bench suite --only B10 >"$TMP/bad4" 2>&1
[ $? = 2 ] && has "$TMP/bad4" "no benchmark 'B10' in the suite"
check "bench suite --only B10: exit 2, names it" $? "$TMP/bad4"
"$BIN" bench suite --profile nosuch >"$TMP/bad5" 2>&1
[ $? = 2 ]
check "bench suite --profile nosuch: exit 2" $? "$TMP/bad5"

# --periods: every benchmark on its paper's period; B4-B6 (no 1990
# figures of their own) on netware-1990 as B2 and B3, simulated, seeded;
# the files validate.
P=$TMP/periods
timeout 120 "$BIN" bench suite --quick --periods --only B4,B5,B6 -o "$P" \
	>"$TMP/pout" 2>"$TMP/perr"
check "suite --quick --periods --only B4,B5,B6 exits 0" $? "$TMP/perr"
"$PY" - "$P" <<'PY' >"$TMP/pchk" 2>&1
import json, sys
top = json.load(open(sys.argv[1] + "/suite.json"))
assert top["conditions"]["periods"] is True, top["conditions"]
assert top["conditions"]["simulated"] is True, top["conditions"]
for n in ("b4-perftest", "b5-arrival", "b6-wan"):
    d = json.load(open("%s/%s.json" % (sys.argv[1], n)))
    c = d["conditions"]
    assert d["exit_status"] == 0, (n, d["exit_status"], d["error"])
    assert c["period"] == "netware-1990", (n, c)
    assert c["simulated"] is True and c["seed"] == 1, (n, c)
    assert "--period" in c["argv"], (n, c["argv"])
    assert d["result"]["conditions"]["period"] == "netware-1990", n
print("ok")
PY
check "--periods: B4-B6 ran on netware-1990, simulated and seeded" $? "$TMP/pchk"
"$PY" "$REPO/tests/integ/validate_suite.py" "$P" "$SCHEMAS" >"$TMP/pvalid" 2>&1
check "the --periods suite's JSON validates against docs/schema" $? "$TMP/pvalid"

finish
