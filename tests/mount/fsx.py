#!/usr/bin/env python3
"""fsx.py - a random-operation file tester in the manner of fsx (Apple's
and Linux's File System eXerciser): random writes, reads, truncates
(shrinking and growing), reopens and fsyncs at random offsets of one
file, each mirrored on an in-memory reference; after every operation
the file's size (fstat) and its whole content are compared with the
reference. Deterministic for a seed.

usage: fsx.py [-n OPS] [-s SEED] [-m MAXLEN] FILE
exit 0: every operation matched; 1: the first mismatch is printed with
the last operations.
"""
import argparse
import os
import random
import sys


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("-n", type=int, default=20000, help="operations")
    ap.add_argument("-s", type=int, default=1, help="seed")
    ap.add_argument("-m", type=int, default=65536, help="largest file size")
    ap.add_argument("file")
    a = ap.parse_args()
    rng = random.Random(a.s)
    ref = bytearray()
    fd = os.open(a.file, os.O_RDWR | os.O_CREAT | os.O_TRUNC, 0o644)
    log = []
    counts = {}

    def fail(msg):
        print(f"fsx: op {len(log)}: {msg}", file=sys.stderr)
        for line in log[-10:]:
            print("  " + line, file=sys.stderr)
        sys.exit(1)

    for i in range(a.n):
        r = rng.random()
        if r < 0.35:
            off = rng.randrange(0, a.m)
            n = rng.randrange(1, min(a.m - off, 16384) + 1)
            data = bytes(rng.getrandbits(8) for _ in range(n)) if n < 64 \
                else rng.randbytes(n)
            op = f"write {off} {n}"
            if os.pwrite(fd, data, off) != n:
                fail(op + ": short write")
            if off > len(ref):
                ref.extend(bytes(off - len(ref)))
            ref[off:off + n] = data
        elif r < 0.65:
            off = rng.randrange(0, max(len(ref), 1) + 100)
            n = rng.randrange(1, 16385)
            op = f"read {off} {n}"
            got = os.pread(fd, n, off)
            if got != bytes(ref[off:off + n]):
                fail(op + f": got {len(got)} bytes, differ from reference")
        elif r < 0.80:
            n = rng.randrange(0, a.m + 1)
            op = f"truncate {n}"
            os.ftruncate(fd, n)
            if n < len(ref):
                del ref[n:]
            else:
                ref.extend(bytes(n - len(ref)))
        elif r < 0.93:
            op = "reopen"
            os.close(fd)
            fd = os.open(a.file, os.O_RDWR)
        else:
            op = "fsync"
            os.fsync(fd)
        log.append(op)
        kind = op.split()[0]
        counts[kind] = counts.get(kind, 0) + 1
        size = os.fstat(fd).st_size
        if size != len(ref):
            fail(f"{op}: size {size}, reference {len(ref)}")
        whole = os.pread(fd, len(ref) + 1, 0)
        if whole != bytes(ref):
            at = next((k for k in range(min(len(whole), len(ref)))
                       if whole[k] != ref[k]), min(len(whole), len(ref)))
            fail(f"{op}: content differs at byte {at} (file {len(whole)}, "
                 f"reference {len(ref)} bytes)")
    os.close(fd)
    print(f"fsx: {a.n} operations, each checked: " +
          ", ".join(f"{v} {k}" for k, v in sorted(counts.items())))


if __name__ == "__main__":
    main()
