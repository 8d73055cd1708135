#!/usr/bin/env bash
# suites.sh [IPXLAB] - the long checks of `ipxlab mount` (docs/mount.md),
# run by .ci/run once after `make test` (not in make test: about 4
# minutes): tests/mount/fsx.py with 20,000 operations, then third-party
# suites from Debian's packages over the mount of a volume of `ipxlab
# server` through a hub on loopback: dbench (its default load file, 4
# clients, 60 s) and fio (sequential and random read and write, 4 KB and
# 64 KB blocks, verify=crc32c). Each passes with no error and no verify
# failure; their figures are printed (FIGURES lines) for docs/mount.md.
# Needs root and /dev/fuse (else SKIP); DBENCH_TIME=S shortens dbench.
set -u
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"
use_build "${1:-}"
need_exe "$BIN"
need_cmd python3 fusermount3 dbench fio
[ "$(id -u)" = 0 ] || skip "needs root (FUSE mounts)"
[ -c /dev/fuse ] || skip "no /dev/fuse"
make_tmp suites

mkdir -p "$TMP/sys" "$TMP/m"
printf 'alice Secret\n' >"$TMP/users"
printf 'Secret\n' >"$TMP/pw"
on_exit "fusermount3 -uz '$TMP/m' 2>/dev/null"

start_hub
"$BIN" server --hub "$HUB" --name SUITES --volume SYS="$TMP/sys" \
	--users "$TMP/users" >"$TMP/server.out" 2>"$TMP/server.err" </dev/null &
PIDS+=($!)
wait_for "$TMP/server.err" "ready at" 50 || { fail "server starts" "$TMP/server.err"; finish; }
"${WITH_SIGINT[@]}" "$BIN" mount --hub "$HUB" --server SUITES -u alice \
	--password-file "$TMP/pw" SYS "$TMP/m" 2>"$TMP/mount.err" </dev/null &
MNT=$!
PIDS+=("$MNT")
wait_for "$TMP/mount.err" "mounted on" 50 || { fail "mount starts" "$TMP/mount.err"; finish; }

t0=$(date +%s)
python3 "$REPO/tests/mount/fsx.py" -n 20000 -s 25 "$TMP/m/FSX.DAT" >"$TMP/fsx.out" 2>&1
check "fsx: 20,000 random operations, each checked ($(($(date +%s) - t0)) s)" $? "$TMP/fsx.out"
cat "$TMP/fsx.out"
rm -f "$TMP/m/FSX.DAT"

# dbench: the default load (client.txt), 4 clients, 60 s.
mkdir -p "$TMP/m/DB"
timeout 300 dbench -D "$TMP/m/DB" -t "${DBENCH_TIME:-60}" 4 >"$TMP/dbench.out" 2>&1
rc=$?
grep -Eiq 'error|fail|unexpected' "$TMP/dbench.out" && rc=1
check "dbench: default load, 4 clients, ${DBENCH_TIME:-60} s, no error" $rc "$TMP/dbench.out"
echo "FIGURES dbench: $(grep -E '^ *Throughput' "$TMP/dbench.out")"
sed -n '/Operation/,/^$/p' "$TMP/dbench.out" | head -20
rm -rf "$TMP/m/DB"

# fio: for each block size, a sequential write, a sequential read, a
# random write and a random read of one 16 MB file, crc32c in every block
# (a write job checks what it wrote, a read job what the write before it
# left); a verify failure ends fio non-zero.
mkdir -p "$TMP/m/FIO"
for bs in 4k 64k; do
	for rw in write read randwrite randread; do
		name="$rw-$bs"
		timeout 300 fio --name=J --directory="$TMP/m/FIO" --filename=F.DAT \
			--rw=$rw --bs=$bs --size=16m --ioengine=psync \
			--verify=crc32c --verify_fatal=1 --verify_state_save=0 \
			--output-format=json --output="$TMP/fio-$name.json" \
			>"$TMP/fio-$name.out" 2>&1
		rc=$?
		figs=$(python3 - "$TMP/fio-$name.json" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))["jobs"][0]
w, r = j["write"], j["read"]
print(f"write {w['bw'] / 1024:.2f} MiB/s {w['iops']:.0f} IOPS, "
      f"read {r['bw'] / 1024:.2f} MiB/s {r['iops']:.0f} IOPS, "
      f"error {j['error']}")
PY
)
		[ $rc = 0 ] && ! grep -qi "verify: bad\|bad magic\|crc32c.*wanted" "$TMP/fio-$name.out"
		check "fio $rw $bs, verify=crc32c: no error, no verify failure" $? "$TMP/fio-$name.out" "$TMP/fio-$name.json"
		echo "FIGURES fio $rw $bs: $figs"
	done
	rm -f "$TMP/m/FIO/F.DAT"
done
rm -rf "$TMP/m/FIO"

kill -INT "$MNT"
gone_within "$MNT" 100
check "SIGINT: unmounted" $? "$TMP/mount.err"
finish
