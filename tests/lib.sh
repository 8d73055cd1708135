# shellcheck shell=bash disable=SC2034  # (it sets variables for its callers)
# lib.sh - what the shell tests in tests/integ and tests/interop share;
# each sources it first (`. "$(dirname "$0")/../lib.sh"`). It prints the
# lines scripts/run-tests.sh counts ("PASS: name", "FAIL: name" with its
# evidence, "SKIP: why" with exit 77, a closing "N passed, N failed" with
# exit 1 if any failed), finds the binary under test, makes a temp dir and
# ends background processes at exit, and has tshark's verdict on a capture
# (every frame decoded, none malformed, no expert warning).

LIB_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO=$(cd "$LIB_DIR/.." && pwd)
PASSED=0
FAILED=0
TMP=
PIDS=()		# background processes to end at exit: PIDS+=($!)
EXIT_HOOKS=()

# use_build [IPXLAB]: BIN = the ipxlab under test as an absolute path (a
# directory means the ipxlab in it; default build/ipxlab of this checkout),
# TOOLS = the directory of the test programs built beside it
use_build() {
	BIN=${1:-$REPO/build/ipxlab}
	[ -d "$BIN" ] && BIN=$BIN/ipxlab
	case $BIN in /*) ;; *) BIN=$PWD/$BIN ;; esac
	TOOLS=$(dirname "$BIN")/tools
}

# skip WHY...: the whole script is skipped
skip() {
	echo "SKIP: $*"
	exit 77
}
# need_exe FILE...: skip unless each FILE is built
need_exe() {
	local f
	for f in "$@"; do
		[ -x "$f" ] || skip "$f not built (make)"
	done
}
# need_cmd CMD...: skip unless each command is installed
need_cmd() {
	local c
	for c in "$@"; do
		command -v "$c" >/dev/null 2>&1 || skip "$c not installed (scripts/install-deps.sh)"
	done
}

# make_tmp NAME: TMP = a new directory for this run, removed at exit
# (IT_KEEP=1 keeps it and says where)
make_tmp() {
	TMP=$(mktemp -d "${TMPDIR:-/tmp}/ipxlab-$1.XXXXXX") || { echo "FAIL: mktemp"; exit 1; }
}
# on_exit CMD: run CMD at exit, after the PIDS are ended (last added, first run)
on_exit() { EXIT_HOOKS=("$*" "${EXIT_HOOKS[@]}"); }

lib_exit() {
	local p i left h
	for p in "${PIDS[@]}"; do kill -TERM "$p" 2>/dev/null; done
	for ((i = 0; i < 20; i++)); do
		left=0
		for p in "${PIDS[@]}"; do kill -0 "$p" 2>/dev/null && left=1; done
		[ $left = 0 ] && break
		sleep 0.05
	done
	for p in "${PIDS[@]}"; do kill -KILL "$p" 2>/dev/null; done
	for h in "${EXIT_HOOKS[@]}"; do eval "$h"; done
	wait 2>/dev/null
	[ -n "$TMP" ] && [ -d "$TMP" ] || return 0
	if [ -n "${IT_KEEP:-}" ] && [ "$IT_KEEP" != 0 ]; then
		echo "kept $TMP" >&2
	else
		rm -rf "$TMP"
	fi
}
trap lib_exit EXIT
trap 'exit 130' INT TERM

pass() {
	echo "PASS: $1"
	PASSED=$((PASSED + 1))
}
# fail NAME [EVIDENCE...]: each EVIDENCE is a file (an existing one or a
# path in TMP: its last 20 lines, CRs removed, named relative to TMP) or
# text (shown indented)
fail() {
	local name=$1 e
	shift
	echo "FAIL: $name"
	for e in "$@"; do
		if [ -f "$e" ] || { [ -n "$TMP" ] && [[ $e == "$TMP"/* ]]; }; then
			if [ ! -e "$e" ]; then
				echo "  --- ${e#"$TMP"/}: (missing)"
			elif [ ! -s "$e" ]; then
				echo "  --- ${e#"$TMP"/}: (empty)"
			else
				echo "  --- ${e#"$TMP"/}:"
				tr -d '\r' <"$e" | tail -n 20 | sed 's/^/  | /'
			fi
		else
			printf '%s\n' "$e" | sed 's/^/  /'
		fi
	done
	FAILED=$((FAILED + 1))
}
# check NAME STATUS [EVIDENCE...]: PASS when STATUS is 0, else FAIL
check() {
	local name=$1 rc=$2
	shift 2
	if [ "$rc" -eq 0 ]; then pass "$name"; else fail "$name" "$@"; fi
}
# sigint_json FILE DELAY ARGS...: run ARGS with stdout to FILE, SIGINT after
# DELAY s (from a python parent that does not ignore it for the child); true
# when it exits 1 saying "interrupted" and FILE is JSON with "complete": false
sigint_json() { # FILE DELAY ARGS...
	python3 - "$@" <<'PY'
import json, signal, subprocess, sys, time
path, delay, args = sys.argv[1], float(sys.argv[2]), sys.argv[3:]
with open(path, "w") as out:
    p = subprocess.Popen(args, stdout=out, stderr=subprocess.PIPE,
                         preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    time.sleep(delay)
    p.send_signal(signal.SIGINT)
    _, err = p.communicate(timeout=20)
d = json.load(open(path))
assert p.returncode == 1, (p.returncode, err)
assert d["complete"] is False, d.keys()
assert b"interrupted" in err, err
print(len(json.dumps(d)))
PY
}
# finish: the closing line; exits 1 if any check failed
finish() {
	echo "$PASSED passed, $FAILED failed"
	[ "$FAILED" -eq 0 ] && exit 0
	exit 1
}

# has FILE REGEX: FILE, CRs removed, matches the extended REGEX
has() { tr -d '\r' 2>/dev/null <"$1" | grep -Eq "$2"; }
# wait_for FILE REGEX [TENTHS]: poll until FILE matches (default 5 s)
wait_for() {
	local i
	for ((i = 0; i < ${3:-50}; i++)); do
		grep -Eq "$2" "$1" 2>/dev/null && return 0
		sleep 0.1
	done
	return 1
}
# gone_within PID TENTHS: poll until process PID has ended (it must be a
# child or ours to signal); 1 if it still runs after TENTHS tenths of a s
gone_within() {
	local i
	for ((i = 0; i < $2; i++)); do
		kill -0 "$1" 2>/dev/null || return 0
		sleep 0.1
	done
	return 1
}
# "${WITH_SIGINT[@]}" CMD... &: CMD with SIGINT at its default (a
# script's background commands otherwise ignore it, so `kill -INT` would
# not reach it); env execs CMD, so $! is CMD's own pid
WITH_SIGINT=(env --default-signal=INT)
# free_port: a UDP port on 127.0.0.1 that nobody holds now
free_port() {
	python3 - 2>/dev/null <<'PY' || echo $((20000 + RANDOM % 40000))
import socket
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])
PY
}
# start_hub [OPTION...]: `ipxlab hub` on a free loopback port, ended at
# exit; HUB = 127.0.0.1:PORT. Started means it said "listening on" (bound),
# not only that it still runs: a slow (sanitized, loaded) hub that lost the
# port to another process may take a while to die. "FAIL: hub starts" and
# finish if it cannot.
# shellcheck disable=SC2120  # (options are optional)
start_hub() {
	local port h i _
	for _ in 1 2 3 4 5; do
		port=$(free_port)
		: >"$TMP/hub.err"
		"$BIN" hub --bind 127.0.0.1 --port "$port" "$@" 2>"$TMP/hub.err" &
		h=$!
		for ((i = 0; i < 100; i++)); do
			kill -0 "$h" 2>/dev/null || break
			if grep -q "hub: listening on 127.0.0.1:$port" "$TMP/hub.err"; then
				PIDS+=("$h")
				HUB=127.0.0.1:$port
				return 0
			fi
			sleep 0.1
		done
		kill "$h" 2>/dev/null; wait "$h" 2>/dev/null
	done
	fail "hub starts" "$TMP/hub.err"
	finish
}

# ---- tshark ----
# A display filter for frames tshark finds malformed or marks with expert
# info of severity warning or error (PI_WARN is 0x00600000 and PI_ERROR
# 0x00800000 in every Wireshark since 1.x).
BAD_FRAMES='_ws.malformed || _ws.expert.severity >= 0x00600000'

# live_capture PCAP BPF SECONDS: tshark writes what crosses lo and matches
# the capture filter BPF to PCAP, for at most SECONDS, in the background
# (pid TSHARK); skip when it cannot capture on lo
live_capture() {
	local i msg
	tshark -i lo -f "$2" -w "$1" -a "duration:$3" >"$TMP/capture.out" 2>"$TMP/capture.err" &
	TSHARK=$!
	PIDS+=("$TSHARK")
	for ((i = 0; i < 100; i++)); do
		if grep -q 'Capturing on' "$TMP/capture.err" 2>/dev/null; then
			sleep 0.3	# let dumpcap's filter settle before the first packet
			return 0
		fi
		kill -0 "$TSHARK" 2>/dev/null || break
		sleep 0.1
	done
	msg=$(grep -Ev '^Running as user|^ \*\*|^$' "$TMP/capture.err" | head -n 2 | tr '\n' ' ')
	skip "cannot capture on lo with tshark: ${msg:-no output}"
}
# stop_capture: end live_capture's tshark (it writes the rest of the file)
stop_capture() {
	local i
	kill -TERM "$TSHARK" 2>/dev/null
	for ((i = 0; i < 50; i++)); do
		kill -0 "$TSHARK" 2>/dev/null || break
		sleep 0.1
	done
	wait "$TSHARK" 2>/dev/null
}

# frames PCAP FILTER [TSHARK-OPTION...]: how many frames match a display
# filter (tshark's complaints go to TMP/tshark.err)
frames() {
	local pcap=$1 filter=$2
	shift 2
	tshark -r "$pcap" "$@" -Y "$filter" -T fields -e frame.number 2>>"$TMP/tshark.err" | grep -c .
}
# capture_counts PCAP PROTO [TSHARK-OPTION...]: FRAMES in PCAP, AS_PROTO of
# them matching the display filter PROTO, WORSE of them in BAD_FRAMES, and
# EXPERT_BAD error or warning sections in tshark's expert summary (written
# to PCAP.expert); returns 0 when all of at least one frame match PROTO
# and nothing is worse
capture_counts() {
	local pcap=$1 proto=$2
	shift 2
	FRAMES=$(frames "$pcap" frame "$@")
	AS_PROTO=$(frames "$pcap" "$proto" "$@")
	WORSE=$(frames "$pcap" "$BAD_FRAMES" "$@")
	tshark -r "$pcap" "$@" -q -z expert >"$pcap.expert" 2>>"$TMP/tshark.err"
	EXPERT_BAD=$(grep -Ec '^(Errors|Warns|Warnings) ' "$pcap.expert")
	[ "$FRAMES" -gt 0 ] && [ "$AS_PROTO" = "$FRAMES" ] && [ "$WORSE" = 0 ] && [ "$EXPERT_BAD" = 0 ]
}
# check_capture PCAP PROTO MIN [TSHARK-OPTION...]: three checks: at least
# MIN frames, all decoded as PROTO; none malformed or warned; an expert
# summary without errors or warnings (the frames at fault in PCAP.bad)
check_capture() {
	local pcap=$1 proto=$2 min=$3
	shift 3
	capture_counts "$pcap" "$proto" "$@"
	tshark -r "$pcap" "$@" -Y "!($proto) || $BAD_FRAMES" >"$pcap.bad" 2>>"$TMP/tshark.err"
	[ "$FRAMES" -ge "$min" ] && [ "$AS_PROTO" = "$FRAMES" ]
	check "every frame decodes as ${proto^^} ($AS_PROTO of $FRAMES)" $? "$pcap.bad"
	[ "$WORSE" = 0 ]
	check "no malformed frame and no expert warning or error ($WORSE)" $? "$pcap.bad"
	[ "$EXPERT_BAD" = 0 ]
	check "expert summary has no errors or warnings" $? "$pcap.expert"
}
# tool_capture TOOL: CAP = the pcap BUILD/tools/TOOL writes (a program in
# tests/interop running a protocol on the in-memory link), in a new TMP;
# skip without tshark or TOOL; "capture written" checked, finish if not
tool_capture() {
	need_cmd tshark
	need_exe "$TOOLS/$1"
	make_tmp "$1"
	CAP=$TMP/$1.pcap
	timeout 60 "$TOOLS/$1" "$CAP" 2>"$TMP/tool.err" && [ -s "$CAP" ]
	check "capture written" $? "$TMP/tool.err"
	[ "$FAILED" = 0 ] || finish
}
# check_frames NAME PCAP FILTER MIN: PASS when at least MIN frames match
check_frames() {
	local n
	n=$(frames "$2" "$3")
	if [ "$n" -ge "$4" ]; then pass "$1 ($n)"; else fail "$1" "filter '$3' matched $n, want >= $4"; fi
}
