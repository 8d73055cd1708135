#!/usr/bin/env python3
"""gen_corpus_burst.py - write the seed corpus of fuzz_ncp_burst.c under
tests/fuzz/corpus/ncp_burst/.

The seeds are committed; run this again only to change them:

    python3 tests/fuzz/gen_corpus_burst.py

Each seed: the harness's flags byte (bit 0 the session's IDs, bit 1 the
data bytes to fit, bit 2 a request header at offset 0, bit 3 twice), then
a 36-byte burst header (ipxlab/ncp_burst.h) and its data or list.
"""
import os
import shutil
import struct

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "corpus", "ncp_burst")

EOB, LST, SYS = 0x10, 0x40, 0x80


def hdr(flags, seq, blen, off, dlen, nmiss=0):
    return struct.pack(">HBBIIIIHHIIHH", 0x7777, flags, 2, 0, 0, seq, 0,
                       seq, seq, blen, off, dlen, nmiss)


def req(cmd, off, count):
    return struct.pack("<I", cmd) + b"\0" * 12 + struct.pack(">II", off, count)


def gaps(*g):
    return b"".join(struct.pack(">IH", o, n) for o, n in g)


SEEDS = {
    "read": b"\x07" + hdr(EOB, 1, 24, 0, 24) + req(1, 0, 3000),
    "write_one": b"\x07" + hdr(EOB, 2, 24 + 100, 0, 124) + req(2, 10, 100)
    + bytes(range(100)),
    "write_first_of_two": b"\x07" + hdr(0, 3, 24 + 600, 0, 324)
    + req(2, 0, 600) + b"\xaa" * 300,
    "write_second": b"\x03" + hdr(EOB, 3, 24 + 600, 324, 300) + b"\xbb" * 300,
    "missing_list": b"\x03" + hdr(SYS | LST, 1, 3008, 0, 0, 2)
    + gaps((0, 900), (1800, 900)),
    "list_too_long": b"\x01" + hdr(SYS | LST, 1, 3008, 0, 0, 9) + gaps((0, 1)),
    "twice": b"\x0f" + hdr(EOB, 4, 24, 0, 24) + req(1, 500, 40),
    "past_burst": b"\x01" + hdr(EOB, 5, 24, 20, 10) + b"\0" * 10,
    "short": b"\x00" + b"\x77\x77\x10\x02",
    "no_session": b"\x00" + hdr(EOB, 6, 24, 0, 24) + req(1, 0, 10),
}

shutil.rmtree(OUT, ignore_errors=True)
os.makedirs(OUT)
for name, data in SEEDS.items():
    with open(os.path.join(OUT, name), "wb") as f:
        f.write(data)
