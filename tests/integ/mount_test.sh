#!/usr/bin/env bash
# mount_test.sh [IPXLAB] - `ipxlab mount` (FUSE) of a volume of `ipxlab
# server` through a hub on loopback, as a user meets it: files of several
# sizes up to 20 MB copied in and out with equal sha256; ls, mv, rm,
# mkdir, rmdir; long names (the server's LONG name space): a name with
# spaces and mixed case made, listed and read as it is, the host file of
# that very name; with --dos-names names that are not 8.3 fail with
# ENAMETOOLONG / EINVAL and the long ones show as their 8.3 aliases;
# two mounts of the volume see each other's changes on reopen, and fcntl
# locks between them conflict; fsync; 2,000 random operations of
# tests/mount/fsx.py (20,000 in tests/mount/suites.sh); the server killed:
# EIO within the retry time (--retry-time 2), then, with the server
# started again, the mount reconnects, a file opened before is stale
# (ESTALE), new opens work; SIGINT unmounts cleanly; `ipxlab bench mount`
# runs (1 MB, 1 run) and prints its ratios. Needs root and
# /dev/fuse (else SKIP).
set -u
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"
use_build "${1:-}"
need_exe "$BIN"
need_cmd python3 sha256sum fusermount3
[ "$(id -u)" = 0 ] || skip "needs root (FUSE mounts)"
[ -c /dev/fuse ] || skip "no /dev/fuse"
"$BIN" mount --help >/dev/null 2>&1 || skip "ipxlab mount missing"
make_tmp mount

mkdir -p "$TMP/sys" "$TMP/m1" "$TMP/m2" "$TMP/m3" "$TMP/data"
printf 'alice Secret\n' >"$TMP/users"
printf 'Secret\n' >"$TMP/pw"
on_exit "fusermount3 -uz '$TMP/m1' 2>/dev/null; fusermount3 -uz '$TMP/m2' 2>/dev/null; fusermount3 -uz '$TMP/m3' 2>/dev/null"

start_server() {
	"$BIN" server --hub "$HUB" --name MNTTEST --volume SYS="$TMP/sys" \
		--users "$TMP/users" --watchdog 1,0.5,2 >"$TMP/server.out" 2>"$TMP/server.err" </dev/null &
	SERVER=$!
	PIDS+=("$SERVER")
	wait_for "$TMP/server.err" "ready at" 50
}
# start_mount DIR LOG: in the background (pid MNT), wait until mounted
start_mount() {
	"${WITH_SIGINT[@]}" "$BIN" mount --hub "$HUB" --server MNTTEST -u alice \
		--password-file "$TMP/pw" --retry-time 2 --find-timeout 2 \
		"${@:3}" SYS "$1" 2>"$2" </dev/null &
	MNT=$!
	PIDS+=("$MNT")
	wait_for "$2" "mounted on" 50
}
mounted() { grep -q " $1 fuse" /proc/mounts; }

# A hub that forgets a client silent 3 s and a server whose watchdog
# clears a connection silent 2 s: an idle mount must keep both.
start_hub --keepalive 1 --idle-timeout 3
start_server || { fail "server starts" "$TMP/server.err"; finish; }
start_mount "$TMP/m1" "$TMP/m1.err" || { fail "mount starts" "$TMP/m1.err"; finish; }
M1=$MNT
mounted "$TMP/m1"
check "mounted: SYS of MNTTEST on a directory (fuse.ipxlab)" $? "$TMP/m1.err"

# The pool: 4 connections of the mount (and this client's own).
timeout 20 "$BIN" ncp --hub "$HUB" --server MNTTEST info >"$TMP/info.out" 2>&1
has "$TMP/info.out" "^connections 5 of"
check "the server sees the pool's 4 connections (and ncp info's)" $? "$TMP/info.out"

# Copy in and out: sizes around the NCP buffer and FUSE's 128 KB, to 20 MB.
ok=1
sizes="0 1 4095 4096 4097 131073 1048576 20971520"
# fname SIZE: the 8.3 name of the file of that size
fname() { printf 'S%X.BIN' "$1"; }
for s in $sizes; do
	head -c "$s" /dev/urandom >"$TMP/data/in.$s"
done
for s in $sizes; do
	cp "$TMP/data/in.$s" "$TMP/m1/$(fname "$s")" || ok=0
done
for s in $sizes; do
	cp "$TMP/m1/$(fname "$s")" "$TMP/data/out.$s" || ok=0
	a=$(sha256sum <"$TMP/data/in.$s") b=$(sha256sum <"$TMP/data/out.$s")
	c=$(sha256sum <"$TMP/sys/$(fname "$s")")
	if [ "$a" != "$b" ] || [ "$a" != "$c" ]; then
		ok=0
		echo "  size $s differs"
	fi
done
check "cp in and out, 0 B to 20 MB: sha256 equal (and on the server's disk)" $((1 - ok)) "$TMP/m1.err"
rm -f "$TMP"/data/out.*

# Idle: a file open across 5 s of silence is still the server's.
exec 6<"$TMP/m1/SFFF.BIN"
sleep 5
python3 -c '
import os, sys
sys.exit(0 if os.pread(6, 4095, 0) == open(sys.argv[1], "rb").read() else 1)
' "$TMP/data/in.4095" 2>"$TMP/idle.err" && ls "$TMP/m1" >/dev/null 2>>"$TMP/idle.err"
check "idle 5 s (watchdog 2 s, hub 3 s): an open file still reads, ls works" $? "$TMP/idle.err" "$TMP/m1.err"
exec 6<&-

# ls, mkdir, mv, rm, rmdir
mkdir "$TMP/m1/dir" && echo hello >"$TMP/m1/dir/a.txt" &&
	mv "$TMP/m1/dir/a.txt" "$TMP/m1/dir/b.txt" &&
	[ "$(ls "$TMP/m1/dir")" = "b.txt" ] && [ "$(cat "$TMP/m1/dir/B.TXT")" = hello ] &&
	[ -f "$TMP/sys/dir/b.txt" ]
check "mkdir, write, mv, ls (names as given: the LONG name space keeps case; found in any case)" $? "$(ls -la "$TMP/m1/dir" 2>&1)"
echo other >"$TMP/m1/dir/c.txt"
mv "$TMP/m1/dir/c.txt" "$TMP/m1/dir/b.txt" && [ "$(cat "$TMP/m1/dir/b.txt")" = other ] &&
	[ "$(ls "$TMP/m1/dir")" = "b.txt" ]
check "mv onto an existing file replaces it" $? "$(ls -la "$TMP/m1/dir" 2>&1)"
rmdir "$TMP/m1/dir" 2>"$TMP/rmdir.err"
has "$TMP/rmdir.err" "not empty"
check "rmdir of a directory with a file: ENOTEMPTY" $? "$TMP/rmdir.err"
rm "$TMP/m1/dir/b.txt" && rmdir "$TMP/m1/dir" && [ ! -e "$TMP/sys/DIR" ] &&
	! find "$TMP/m1" -mindepth 1 ! -name 'S*.BIN' ! -name LOGIN | grep -q .
check "rm, rmdir" $? "$(ls -la "$TMP/m1" 2>&1)"
[ "$(stat -c '%A %s' "$TMP/m1/S100000.BIN")" = "-rw-r--r-- 1048576" ]
check "stat: mode and size" $? "$(ls -l "$TMP/m1" 2>&1)"

# Directories renamed (0x16 0x0F within a parent; to another directory
# EXDEV, so mv copies); chmod: the read-only attribute as the write bits.
mkdir -p "$TMP/m1/da/sub" "$TMP/m1/db" && echo x >"$TMP/m1/da/sub/f" &&
	mv "$TMP/m1/da" "$TMP/m1/dc" && [ "$(cat "$TMP/m1/dc/sub/f")" = x ] &&
	mv "$TMP/m1/dc/sub" "$TMP/m1/db/" 2>"$TMP/mvdir.err" &&
	[ "$(cat "$TMP/m1/db/SUB/F")" = x ] && [ ! -e "$TMP/m1/dc/sub" ] &&
	rm -r "$TMP/m1/dc" "$TMP/m1/db"
check "mv of a directory: renamed in place, moved (copied) into another" $? "$TMP/mvdir.err" "$(ls -R "$TMP/m1" 2>&1 | head -20)"
echo ro >"$TMP/m1/RO.TXT"
chmod 444 "$TMP/m1/RO.TXT" && [ "$(stat -c %A "$TMP/m1/RO.TXT")" = "-r--r--r--" ] &&
	[ "$(stat -c %a "$TMP/sys/RO.TXT")" = 444 ] && ! chmod 755 "$TMP/m1/RO.TXT" 2>"$TMP/ro.err" &&
	chmod 644 "$TMP/m1/RO.TXT" && echo y >"$TMP/m1/RO.TXT" && [ "$(cat "$TMP/m1/RO.TXT")" = y ] &&
	rm "$TMP/m1/RO.TXT"
check "chmod 444 sets the read-only attribute (on the server too), 644 clears it, 755 EPERM" $? "$TMP/ro.err" "$(ls -l "$TMP/m1/RO.TXT" 2>&1)"

# Times: the modification time onto the DOS date stamp (2-second steps).
echo t >"$TMP/m1/TIME.TXT"
want=$(date -d "2001-02-03 04:05:06" +%s)
touch -m -d "2001-02-03 04:05:06" "$TMP/m1/TIME.TXT" &&
	[ "$(stat -c %Y "$TMP/m1/TIME.TXT")" = "$want" ] &&
	[ "$(stat -c %Y "$TMP/sys/TIME.TXT")" = "$want" ] &&
	cp -p "$TMP/m1/TIME.TXT" "$TMP/m1/TIME2.TXT" &&
	[ "$(stat -c %Y "$TMP/m1/TIME2.TXT")" = "$want" ] &&
	rm "$TMP/m1/TIME.TXT" "$TMP/m1/TIME2.TXT"
check "touch -d and cp -p set the modification time (on the server too)" $? "$(stat "$TMP/m1/TIME.TXT" 2>&1)"

# Unlink of an open file (NetWare erases no open file): hidden until the
# last close, still readable, gone from ls, then gone from the server.
python3 - "$TMP/m1/OPEN.TXT" "$TMP/sys" <<'PY' >"$TMP/unlink.out" 2>&1
import os, sys, time
p, sysdir = sys.argv[1], sys.argv[2]
fd = os.open(p, os.O_RDWR | os.O_CREAT); os.write(fd, b"still here")
os.unlink(p)
bad = os.path.exists(p) or "OPEN.TXT" in os.listdir(os.path.dirname(p))
bad |= any(n.startswith("~IPX") for n in os.listdir(os.path.dirname(p)))
bad |= os.pread(fd, 100, 0) != b"still here"
os.close(fd)
# FUSE's release comes after close(2) returns: allow it 2 s.
for _ in range(20):
    left = any(n.startswith("~IPX") or n == "OPEN.TXT" for n in os.listdir(sysdir))
    if not left:
        break
    time.sleep(0.1)
bad |= left
print(os.listdir(sysdir)); sys.exit(1 if bad else 0)
PY
check "unlink of an open file: gone from ls, still readable, erased after the last close" $? "$TMP/unlink.out"

# Names DOS cannot hold, through a mount of the DOS name space.
start_mount "$TMP/m3" "$TMP/m3.err" --dos-names || { fail "--dos-names mount starts" "$TMP/m3.err"; finish; }
M3=$MNT
python3 - "$TMP/m3" <<'PY' >"$TMP/names.out" 2>&1
import errno, os, sys
d = sys.argv[1]
want = {"longername.txt": errno.ENAMETOOLONG, "a.text": errno.ENAMETOOLONG,
        "sp ace": errno.EINVAL, "a+b": errno.EINVAL, "a.b.c": errno.EINVAL,
        ".hidden": errno.EINVAL}
bad = 0
for name, e in want.items():
    try:
        os.close(os.open(os.path.join(d, name), os.O_CREAT | os.O_WRONLY))
        print(name, "created"); bad = 1
    except OSError as x:
        if x.errno != e:
            print(name, "errno", x.errno, "want", e); bad = 1
try:
    os.mkdir(os.path.join(d, "directory9"))
    print("mkdir created"); bad = 1
except OSError as x:
    bad |= x.errno != errno.ENAMETOOLONG
sys.exit(bad)
PY
check "names not 8.3: ENAMETOOLONG, bad characters: EINVAL, nothing created" $? "$TMP/names.out"
! find "$TMP/sys" -mindepth 1 ! -name 'S*.BIN' ! -name LOGIN | grep -q .
check "no truncated name on the server" $? "$(ls "$TMP/sys")"
# Long names through the default mount (the server's LONG name space).
LN="Quarterly Report 2026.txt"
echo report >"$TMP/m1/$LN" && mkdir "$TMP/m1/My Documents" &&
	mv "$TMP/m1/$LN" "$TMP/m1/My Documents/$LN" &&
	[ "$(cat "$TMP/m1/My Documents/$LN")" = report ] &&
	[ -f "$TMP/sys/My Documents/$LN" ] && ls "$TMP/m1" | grep -qx "My Documents"
check "long names: made, moved, listed and read as they are; the host file of that name" $? "$(ls -R "$TMP/sys")"
ls "$TMP/m3" | grep -Eq '^MY[0-9A-F]{4}~1$'
check "--dos-names: a long name shows as its 8.3 alias" $? "$(ls "$TMP/m3")"
mv "$TMP/m1/My Documents/$LN" "$TMP/m1/My Documents/QUARTERLY report 2026.TXT" &&
	[ "$(ls "$TMP/m1/My Documents")" = "QUARTERLY report 2026.TXT" ] &&
	[ "$(cat "$TMP/m1/My Documents/QUARTERLY report 2026.TXT")" = report ]
check "long names: mv to another case of the same name keeps the file" $? "$(ls -la "$TMP/m1/My Documents" 2>&1)"
rm -rf "$TMP/m1/My Documents" && [ ! -e "$TMP/sys/My Documents" ]
check "long names: rm -r" $? "$(ls "$TMP/sys")"
fusermount3 -u "$TMP/m3"; wait "$M3" 2>/dev/null

# A second mount: changes seen on reopen, locks conflict.
start_mount "$TMP/m2" "$TMP/m2.err" || { fail "second mount starts" "$TMP/m2.err"; finish; }
M2=$MNT
echo one >"$TMP/m1/SHARE.TXT"
[ "$(cat "$TMP/m2/SHARE.TXT")" = one ] && echo two >>"$TMP/m2/SHARE.TXT" &&
	[ "$(cat "$TMP/m1/SHARE.TXT")" = "one
two" ] && rm "$TMP/m2/SHARE.TXT" && [ ! -e "$TMP/m1/SHARE.TXT" ]
check "two mounts: each sees the other's create, append and rm at the next open" $? "$TMP/m2.err"
python3 - "$TMP/m1/LOCK.DAT" "$TMP/m2/LOCK.DAT" <<'PY' >"$TMP/lock.out" 2>&1
import errno, fcntl, os, sys, time
a = os.open(sys.argv[1], os.O_RDWR | os.O_CREAT); os.write(a, b"x" * 1000)
b = os.open(sys.argv[2], os.O_RDWR)
fcntl.lockf(a, fcntl.LOCK_EX | fcntl.LOCK_NB, 100, 0)
bad = 0
try:
    fcntl.lockf(b, fcntl.LOCK_EX | fcntl.LOCK_NB, 100, 50)
    print("overlapping write lock granted"); bad = 1
except OSError as x:
    if x.errno not in (errno.EAGAIN, errno.EACCES):
        print("errno", x.errno); bad = 1
try:
    fcntl.lockf(b, fcntl.LOCK_EX | fcntl.LOCK_NB, 100, 200)
except OSError as x:
    print("disjoint lock refused", x); bad = 1
fcntl.lockf(a, fcntl.LOCK_UN, 100, 0)
try:
    fcntl.lockf(b, fcntl.LOCK_EX | fcntl.LOCK_NB, 100, 0)
except OSError as x:
    print("lock after unlock refused", x); bad = 1
t = time.time()
pid = os.fork()
if pid == 0:
    time.sleep(0.5); fcntl.lockf(b, fcntl.LOCK_UN, 100, 0); os._exit(0)
fcntl.lockf(a, fcntl.LOCK_EX, 100, 0)   # F_SETLKW: waits for the unlock
waited = time.time() - t
os.waitpid(pid, 0)
if not 0.3 < waited < 5:
    print("F_SETLKW waited", waited); bad = 1
os.close(a); os.close(b)
sys.exit(bad)
PY
check "fcntl locks between the mounts conflict; disjoint ones do not; F_SETLKW waits for the unlock" $? "$TMP/lock.out"
rm -f "$TMP/m1/LOCK.DAT"
python3 -c '
import os, sys
fd = os.open(sys.argv[1], os.O_RDWR | os.O_CREAT); os.write(fd, b"sync"); os.fsync(fd); os.close(fd)
' "$TMP/m1/SYNC.DAT" && [ "$(cat "$TMP/sys/SYNC.DAT")" = sync ]
check "fsync (NCP commit)" $? "$TMP/m1.err"
rm -f "$TMP/m1/SYNC.DAT"

t0=$(date +%s)
python3 "$REPO/tests/mount/fsx.py" -n 2000 -s 7 "$TMP/m1/FSX.DAT" >"$TMP/fsx.out" 2>&1
check "fsx: 2,000 random writes, reads, truncates, reopens, fsyncs, each checked ($(($(date +%s) - t0)) s)" $? "$TMP/fsx.out"
rm -f "$TMP/m1/FSX.DAT"

# fusermount3 -u ends the second mount.
fusermount3 -u "$TMP/m2" && gone_within "$M2" 50 && ! mounted "$TMP/m2" &&
	has "$TMP/m2.err" "unmounted"
check "fusermount3 -u: unmounted, the process ends" $? "$TMP/m2.err"

# The server killed: EIO within the retry time (2 s); started again: the
# mount reconnects, the file opened before is stale, new opens work.
exec 7<"$TMP/m1/S20001.BIN"
kill "$SERVER"
wait "$SERVER" 2>/dev/null
s=$(date +%s%N)
ls "$TMP/m1" >/dev/null 2>"$TMP/eio.err"
rc=$?
el=$((($(date +%s%N) - s) / 1000000))
[ $rc != 0 ] && has "$TMP/eio.err" "Input/output error" && [ $el -lt 3500 ]
check "server killed: ls fails with EIO after ${el} ms (retry time 2 s)" $? "$TMP/eio.err" "$TMP/m1.err"
start_server || { fail "server starts again" "$TMP/server.err"; finish; }
ok=1
for _ in 1 2 3 4 5 6 7 8 9 10; do
	ls "$TMP/m1" >"$TMP/ls.out" 2>&1 && break
	sleep 0.5
done
has "$TMP/ls.out" "S1000.BIN" && cmp -s "$TMP/m1/S1000.BIN" "$TMP/data/in.4096" || ok=0
check "server back: the mount connects again, ls and a new open work" $((1 - ok)) "$TMP/ls.out" "$TMP/m1.err"
python3 -c '
import errno, os, sys
try:
    os.read(7, 10)
except OSError as x:
    sys.exit(0 if x.errno == errno.ESTALE else 1)
sys.exit(1)
' 2>"$TMP/stale.err"
check "a file opened before the restart: ESTALE, not reopened" $? "$TMP/stale.err"
exec 7<&-
has "$TMP/m1.err" "connected again"
check "the reconnection is logged" $? "$TMP/m1.err"

# SIGINT unmounts.
kill -INT "$M1"
gone_within "$M1" 100 && ! mounted "$TMP/m1" && has "$TMP/m1.err" "unmounted"
check "SIGINT: unmounted, the process ends" $? "$TMP/m1.err"

# `ipxlab bench mount`: its own hub, server and mount; a tiny file, one
# run: the ratio columns and a verdict against 0.80, nothing left mounted.
timeout 120 "$BIN" bench mount --mb 1 -r 1 -q >"$TMP/bm.out" 2>&1
rc=$?
[ $rc = 0 ] && has "$TMP/bm.out" "ratio" &&
	grep -Eq '^write .* [0-9]+\.[0-9]{2}  >= 0\.80 (PASS|MISS)$' "$TMP/bm.out" &&
	grep -Eq '^read .* [0-9]+\.[0-9]{2}  >= 0\.80 (PASS|MISS)$' "$TMP/bm.out" &&
	! grep -q "ipxlab-bench-mount" /proc/mounts
check "bench mount: runs, prints both ratios against 0.80, unmounts" $? "$TMP/bm.out"
timeout 120 "$BIN" bench mount --mb 1 -r 1 -q --json >"$TMP/bm.json" 2>&1 &&
	python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["benchmark"] == "mount" and d["complete"] and len(d["runs"]) == 1
for k in ("write", "read"):
    assert d[k]["target"] == 0.8 and d[k]["ratio"] > 0
' "$TMP/bm.json"
check "bench mount --json: both paths, the ratio and the target" $? "$TMP/bm.json"
finish
