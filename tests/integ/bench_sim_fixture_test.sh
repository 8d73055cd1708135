#!/bin/bash
# bench_sim_fixture_test.sh - the benchmarks' outputs before and after a
# refactor: every benchmark that has --sim is run with a fixed seed (text,
# --json and --csv) and its output diffed byte for byte against
# tests/fixtures/bench-sim/ (the version, commit, machine and CPU count are
# masked: they are the build's and the host's, not the benchmark's). The
# benchmarks without --sim (protocols, hub, spx, netbios: real time on
# loopback) are run briefly and only their shape is compared: the CSV header
# line and the JSON's key skeleton (every key path, numbers and strings
# masked). bench eth needs two Ethernet interfaces and is not run here
# (bench_eth_test.sh covers it); its option errors are. A few option errors
# (messages and exit status) are compared too.
#
# usage: bench_sim_fixture_test.sh BIN [--update]   (--update rewrites the
# fixtures from BIN: do that only from a build whose outputs are right)
set -u
BIN=${1:?usage: bench_sim_fixture_test.sh BIN [--update]}
UPDATE=0
[ "${2:-}" = --update ] && UPDATE=1
DIR=$(cd "$(dirname "$0")/../fixtures/bench-sim" && pwd) || exit 1
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
fail=0

# The build's and the host's words, masked.
mask() {
	sed -E -e 's/[0-9]+\.[0-9]+\.[0-9]+ \(commit [0-9a-f]+(-dirty)?\)/VERSION/g' \
		-e 's/"machine":"[^"]*"/"machine":"MACHINE"/g' \
		-e 's/"cpus_online":[0-9]+/"cpus_online":N/g' \
		-e 's/ on [A-Za-z]+ [^,]+, [0-9]+ CPUs? online/ on MACHINE, N CPUs online/g'
}

# compare NAME FILE: FILE against the fixture NAME (or write it).
compare() {
	if [ $UPDATE = 1 ]; then
		cp "$2" "$DIR/$1"
	elif ! cmp -s "$DIR/$1" "$2"; then
		echo "FAIL: $1 differs from the fixture:"
		diff "$DIR/$1" "$2" | head -20
		fail=1
	else
		echo "PASS: $1 is the fixture's, byte for byte"
	fi
}

# sim NAME ARGS...: text, --json and --csv of one --sim run.
sim() {
	local name=$1 ext f rc
	shift
	for f in "" --json --csv; do
		case $f in --json) ext=json ;; --csv) ext=csv ;; *) ext=txt ;; esac
		timeout 30 "$BIN" bench "$@" $f >"$TMP/out" 2>"$TMP/err"
		rc=$?
		if [ $rc != 0 ]; then
			echo "FAIL: bench $* $f: exit $rc: $(head -3 "$TMP/err")"
			fail=1
			continue
		fi
		mask <"$TMP/out" >"$TMP/$name.$ext"
		compare "$name.$ext" "$TMP/$name.$ext"
	done
}

# bad NAME ARGS...: an option error's message and exit status.
bad() {
	local name=$1
	shift
	timeout 10 "$BIN" bench "$@" >"$TMP/out" 2>&1
	echo "exit $?" >>"$TMP/out"
	mask <"$TMP/out" >"$TMP/$name.err"
	compare "$name.err" "$TMP/$name.err"
}

# keys: the JSON's key paths in order, each once (arrays as []).
keys() {
	python3 -c '
import json, sys
seen = []
def walk(v, p):
    if isinstance(v, dict):
        for k, x in v.items():
            q = p + "." + k
            if q not in seen:
                seen.append(q)
            walk(x, q)
    elif isinstance(v, list):
        for x in v:
            walk(x, p + "[]")
walk(json.load(sys.stdin), "")
print("\n".join(seen))'
}

# run_rt ARGS...: a real-time run into $TMP/out, once more if it fails
# (loopback on a busy machine: a lost NetBIOS CALL is not the shape).
run_rt() {
	timeout 60 "$BIN" bench "$@" >"$TMP/out" 2>"$TMP/err" ||
		timeout 60 "$BIN" bench "$@" >"$TMP/out" 2>"$TMP/err"
}

# shape NAME ARGS...: a short real-time run: CSV header and JSON keys.
shape() {
	local name=$1
	shift
	if ! run_rt "$@" -q --csv; then
		echo "FAIL: bench $* --csv: $(head -3 "$TMP/err")"
		fail=1
	else
		head -1 "$TMP/out" >"$TMP/$name.csvhead"
		compare "$name.csvhead" "$TMP/$name.csvhead"
	fi
	if ! run_rt "$@" -q --json; then
		echo "FAIL: bench $* --json: $(head -3 "$TMP/err")"
		fail=1
	elif ! keys <"$TMP/out" >"$TMP/$name.keys"; then
		echo "FAIL: bench $* --json: not JSON"
		fail=1
	else
		compare "$name.keys" "$TMP/$name.keys"
	fi
}

# Simulated time: byte for byte.
sim ncp ncp --sim --seed 1
sim ncp-r2 ncp --sim --seed 2 --repeat 2
sim battery battery --sim --seed 1 --quick
sim battery-isn battery --sim --seed 3 --quick --bridge isn
sim copy copy --sim --seed 1
sim copy-r2 copy --sim --seed 2 --repeat 2
sim perftest perftest --sim --seed 1 --quick
sim perftest-r2 perftest --sim --seed 2 --quick --repeat 2
sim arrival arrival --sim --seed 1 --quick
sim arrival-r2 arrival --sim --seed 2 --quick --repeat 2
sim wan wan --sim --seed 1 --quick
sim perform3 perform3 --sim --seed 1 --seconds 0.1
sim perform3-write perform3 --sim --seed 2 --seconds 0.1 --write --stations 3 --only request/tuned,burst/tuned
sim tuning tuning --sim --seed 1 --seconds 0.2
sim retrieval retrieval --sim --seed 1 --stations 3 --files 8

# Option errors (the shared option table must keep them).
bad battery-json-csv battery --sim --json --csv
bad copy-repeat0 copy --sim --repeat 0
bad perftest-quick-seconds perftest --sim --quick --seconds 2
bad arrival-quick-transfers arrival --sim --quick --transfers 3
bad wan-seed-nosim wan --seed x
bad hub-json-csv hub --json --csv
bad eth-json-csv eth --json --csv
bad protocols-repeat0 protocols --repeat 0
bad perform3-repeat perform3 --sim --repeat 2
bad perform3-only perform3 --sim --only request/fast
bad retrieval-repeat retrieval --sim --repeat 2
bad retrieval-files retrieval --sim --files 201
bad tuning-nofit tuning --sim --memory 8K --tx-buffers 2

# Real time on loopback: the shape only.
shape protocols protocols -c 100 -r 1
shape hub hub -s 0.1 -r 1
shape spx spx -s 0.1 -r 1 --links mem
shape netbios netbios -s 0.1 -r 1

if [ $fail != 0 ]; then
	echo "bench_sim_fixture_test: FAIL (after a deliberate change of output: $0 BIN --update, and say so in the commit)"
	exit 1
fi
[ $UPDATE = 1 ] && echo "bench_sim_fixture_test: fixtures written to $DIR" && exit 0
echo "bench_sim_fixture_test: PASS"
