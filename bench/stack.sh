#!/usr/bin/env bash
# bench/stack.sh [-n COUNT] [-s SIZE] [-r RUNS] - AF_IPX through `ipxlab
# stack` beside an ipxlab node command on the same path, in one run.
#
# One hub and one stack on loopback; the receiver is `ipxlab listen` on the
# hub both times. Path A: `ipxlab send` (its own node on the hub) sends
# COUNT datagrams of SIZE bytes. Path B: build/tools/afipx blast, a plain
# AF_IPX program under `ipxlab run`, sends the same through the stack. The
# rate is COUNT over the sender's wall time, process start included, until
# the datagrams have left (the AF_IPX program waits until the stack has
# taken them all); what the listener got is printed beside it, since a
# loaded machine drops datagrams at the receiver. RUNS alternating pairs;
# the medians and their ratio (target >= 0.5) are printed. Needs python3.
# IPXLAB=path/to/ipxlab uses another binary (no build then).
set -euo pipefail
cd "$(dirname "$0")/.."

count=20000 size=255 runs=3
while getopts "n:s:r:h" o; do
	case $o in
	n) count=$OPTARG ;;
	s) size=$OPTARG ;;
	r) runs=$OPTARG ;;
	*) sed -n '2,14p' "$0" | sed 's/^# \{0,1\}//'; [ "$o" = h ] && exit 0; exit 2 ;;
	esac
done
for v in "$count" "$size" "$runs"; do
	case $v in '' | *[!0-9]*) echo "bench/stack.sh: -n, -s and -r take whole numbers" >&2; exit 2 ;; esac
done
if [ "$size" -lt 1 ] || [ "$size" -gt 1400 ] || [ "$runs" -lt 1 ] || [ "$count" -lt 1 ]; then
	echo "bench/stack.sh: -s 1 to 1400, -n and -r at least 1" >&2
	exit 2
fi
bin=${IPXLAB:-build/ipxlab}
if [ -z "${IPXLAB:-}" ]; then
	make -s all "$(dirname "$bin")/tools/afipx" >&2
fi
afipx=$(dirname "$bin")/tools/afipx
command -v python3 >/dev/null || { echo "bench/stack.sh: needs python3" >&2; exit 1; }

tmp=$(mktemp -d "${TMPDIR:-/tmp}/ipxlab-bench-stack.XXXXXX")
pids=()
cleanup() {
	for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
	wait 2>/dev/null || true
	rm -rf "$tmp"
}
trap cleanup EXIT
port=$(python3 -c 'import socket; s=socket.socket(socket.AF_INET, socket.SOCK_DGRAM); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
hub=127.0.0.1:$port
"$bin" hub --bind 127.0.0.1 --port "$port" -q 2>"$tmp/hub.log" & pids+=($!)
sleep 0.3
"$bin" stack --hub "$hub" --socket "$tmp/stack.sock" 2>"$tmp/stack.log" & pids+=($!)
for _ in $(seq 50); do grep -q "stack ready" "$tmp/stack.log" && break; sleep 0.1; done
grep -q "stack ready" "$tmp/stack.log" || { cat "$tmp/stack.log" >&2; exit 1; }
python3 -c "import sys; sys.stdout.write(('x' * $size + '\n') * $count)" >"$tmp/lines"

# one PATH: "ARRIVED RATE": the rate is COUNT over the sender's wall time
# (ipxlab send: until its node has sent all; the AF_IPX program: until
# the stack has taken all, TIOCOUTQ), the listener counts what arrived
one() {
	local t0 t1 node
	timeout 60 "$bin" listen 4545 --hub "$hub" -t 2 2>"$tmp/l.err" >"$tmp/l.out" &
	local lp=$!
	for _ in $(seq 50); do grep -q "listening on" "$tmp/l.err" && break; sleep 0.1; done
	node=$(sed -n 's/^listening on [0-9A-F]*:\([0-9A-F]*\):.*/\1/p' "$tmp/l.err")
	t0=$(date +%s.%N)
	if [ "$1" = node ]; then
		"$bin" send "00000000:$node:4545" --hub "$hub" -q <"$tmp/lines"
	else
		"$bin" run --socket "$tmp/stack.sock" -- "$afipx" blast "00000000:$node:4545" "$count" "$size" >/dev/null
	fi
	t1=$(date +%s.%N)
	wait "$lp" || true
	python3 -c "print($(wc -l <"$tmp/l.out"), round($count / ($t1 - $t0)))"
}

echo "# $(date -u '+%Y-%m-%d %H:%M UTC')  $(uname -sr)  $(nproc) CPUs  load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "# $count datagrams of $size bytes to ipxlab listen through one hub, $runs runs per path"
node_rates=() stack_rates=()
for ((i = 1; i <= runs; i++)); do
	read -r n r < <(one node)
	echo "run $i  ipxlab send (node)          $r datagrams/s ($n of $count arrived)"
	node_rates+=("$r")
	read -r n r < <(one stack)
	echo "run $i  AF_IPX under ipxlab stack   $r datagrams/s ($n of $count arrived)"
	stack_rates+=("$r")
done
python3 - "${node_rates[*]}" "${stack_rates[*]}" <<'PY'
import statistics, sys
node = statistics.median(int(x) for x in sys.argv[1].split())
stack = statistics.median(int(x) for x in sys.argv[2].split())
ratio = stack / node if node else 0.0
print(f"median  node {node:.0f}/s  stack {stack:.0f}/s  ratio {ratio:.2f}  "
      f"target >= 0.5: {'PASS' if ratio >= 0.5 else 'MISS'}")
PY
