#!/usr/bin/env bash
# bench/mount.sh [-s MB] [-r RUNS] - sequential read and write through
# `ipxlab mount` beside the same transfer by `ipxlab ncp get/put`, in one
# run (docs/mount.md).
#
# One hub and one `ipxlab server` on loopback, one mount of its SYS
# volume. Write: a file of MB megabytes (default 32) copied onto the mount
# with dd (1 MB blocks) vs `ipxlab ncp put` of the same file.
# Read: the file read from the mount with dd vs `ipxlab ncp get` of it
# (to /dev/null both; each read opens the file afresh, so the kernel's
# page cache holds nothing of it). The time is the command's wall time,
# process start and login included for ncp, the dd alone for the mount
# (it is mounted already). RUNS alternating pairs (default 5); the
# medians and their ratio mount/ncp are printed (target >= 0.80). Needs
# root, /dev/fuse and python3. IPXLAB=path/to/ipxlab uses another binary.
set -euo pipefail
cd "$(dirname "$0")/.."

mb=32 runs=5
while getopts "s:r:h" o; do
	case $o in
	s) mb=$OPTARG ;;
	r) runs=$OPTARG ;;
	*) sed -n '2,15p' "$0" | sed 's/^# \{0,1\}//'; [ "$o" = h ] && exit 0; exit 2 ;;
	esac
done
for v in "$mb" "$runs"; do
	case $v in '' | *[!0-9]*) echo "bench/mount.sh: -s and -r take whole numbers" >&2; exit 2 ;; esac
done
if [ "$mb" -lt 1 ] || [ "$mb" -gt 1024 ] || [ "$runs" -lt 1 ]; then
	echo "bench/mount.sh: -s 1 to 1024, -r at least 1" >&2
	exit 2
fi
if [ "$(id -u)" != 0 ] || [ ! -c /dev/fuse ]; then
	echo "bench/mount.sh: needs root and /dev/fuse" >&2
	exit 1
fi
bin=${IPXLAB:-build/ipxlab}
[ -n "${IPXLAB:-}" ] || make -s all >&2

tmp=$(mktemp -d "${TMPDIR:-/tmp}/ipxlab-bench-mount.XXXXXX")
pids=()
cleanup() {
	fusermount3 -u "$tmp/m" 2>/dev/null || true
	for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
	wait 2>/dev/null || true
	rm -rf "$tmp"
}
trap cleanup EXIT
mkdir -p "$tmp/sys" "$tmp/m"
port=$(python3 -c 'import socket; s=socket.socket(socket.AF_INET, socket.SOCK_DGRAM); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
hub=127.0.0.1:$port
"$bin" hub --bind 127.0.0.1 --port "$port" -q 2>"$tmp/hub.log" & pids+=($!)
sleep 0.3
"$bin" server --hub "$hub" --name BENCH --volume SYS="$tmp/sys" >"$tmp/server.out" 2>"$tmp/server.log" </dev/null & pids+=($!)
for _ in $(seq 50); do grep -q "ready at" "$tmp/server.log" && break; sleep 0.1; done
"$bin" mount --hub "$hub" --server BENCH SYS "$tmp/m" 2>"$tmp/mount.log" </dev/null & pids+=($!)
for _ in $(seq 50); do grep -q "mounted on" "$tmp/mount.log" && break; sleep 0.1; done
grep -q "mounted on" "$tmp/mount.log" || { cat "$tmp/mount.log" >&2; exit 1; }
head -c $((mb * 1048576)) /dev/urandom >"$tmp/src.bin"
ncp() { "$bin" ncp --hub "$hub" --server BENCH "$@"; }

# secs CMD...: the wall time of CMD in seconds
secs() {
	local s e
	s=$(date +%s%N)
	"$@" >/dev/null 2>"$tmp/cmd.err" || { cat "$tmp/cmd.err" >&2; exit 1; }
	e=$(date +%s%N)
	echo "$(((e - s) / 1000))"
}

echo "bench/mount.sh: $(date -u +%FT%TZ), $(uname -r), $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg); $mb MB, $runs runs"
mw=() nw=() mr=() nr=()
for ((i = 0; i < runs; i++)); do
	rm -f "$tmp/sys/M.BIN" "$tmp/sys/N.BIN"
	mw+=("$(secs dd if="$tmp/src.bin" of="$tmp/m/M.BIN" bs=1M)")
	nw+=("$(secs ncp put "$tmp/src.bin" N.BIN)")
	mr+=("$(secs dd if="$tmp/m/M.BIN" of=/dev/null bs=1M)")
	nr+=("$(secs ncp get N.BIN -)")
	cmp -s "$tmp/src.bin" "$tmp/sys/M.BIN" || { echo "bench/mount.sh: the file written through the mount differs" >&2; exit 1; }
done
python3 - "$mb" "${mw[*]}" "${nw[*]}" "${mr[*]}" "${nr[*]}" <<'PY'
import statistics, sys
mb = int(sys.argv[1])
rate = lambda us: mb / (us / 1e6)
mw, nw, mr, nr = ([rate(int(x)) for x in a.split()] for a in sys.argv[2:6])
for what, m, n in (("write", mw, nw), ("read", mr, nr)):
    a, b = statistics.median(m), statistics.median(n)
    verdict = "meets" if a / b >= 0.80 else "below"
    print(f"{what:5}  mount {a:7.2f} MB/s  ncp {'put' if what == 'write' else 'get'} "
          f"{b:7.2f} MB/s  ratio {a / b:.2f} ({verdict} the 0.80 target)  "
          f"runs mount {' '.join(f'{x:.1f}' for x in m)} ncp {' '.join(f'{x:.1f}' for x in n)}")
PY
