#!/usr/bin/env python3
"""gen_corpus_frame.py - write the seed corpus of fuzz_frame under
tests/fuzz/corpus/frame/.

The seeds are committed; run this again only to change them:

    python3 tests/fuzz/gen_corpus_frame.py

Each seed is one Ethernet frame (MAC header onward, no FCS): IPX in each of
the four Novell frame types, a padded short packet, the old NetWare LLC SAP
0x10, the type/length boundaries 1500/1501/1535/1536, and frames the codec
must drop (too short, another protocol, bad IPX length). fuzz_frame also
reads each seed's first byte as a frame type for its encode check.
"""
import os
import shutil
import struct

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "corpus", "frame")

DST = b"\xff" * 6
SRC = bytes.fromhex("021122334455")


def ipx(payload=b"", length=None, csum=0xFFFF):
    n = 30 + len(payload) if length is None else length
    return struct.pack(">HHBBI6sHI6sH", csum, n, 0, 4, 0, DST, 0x4545,
                       1, SRC, 0x4001) + payload


def frame(typelen, body):
    f = DST + SRC + struct.pack(">H", typelen) + body
    return f + b"\0" * max(0, 60 - len(f))


def main():
    shutil.rmtree(OUT, ignore_errors=True)
    os.makedirs(OUT)
    p = ipx(b"hello, ipx")
    llc = b"\xe0\xe0\x03"
    snap = b"\xaa\xaa\x03\x00\x00\x00\x81\x37"
    seeds = {
        "ethernet_ii": frame(0x8137, p),
        "raw_8023": frame(len(p), p),
        "llc_8022": frame(len(p) + 3, llc + p),
        "snap": frame(len(p) + 8, snap + p),
        "padded_short": frame(0x8137, ipx()),
        "sap_0x10": frame(len(p) + 3, b"\x10\x10\x03" + p),
        "typelen_1500": frame(1500, ipx(b"x" * 1470)),
        "typelen_1501": frame(1501, p),
        "typelen_1535": frame(1535, p),
        "typelen_1536": frame(1536, p),
        "ipv4": frame(0x0800, b"\x45" + b"\0" * 40),
        "stp": frame(38, b"\x42\x42\x03" + b"\0" * 35),
        "snap_other": frame(len(p) + 8, b"\xaa\xaa\x03\x00\x00\x0c\x20\x00" + p),
        "bad_len_29": frame(0x8137, ipx(length=29)),
        "bad_len_beyond": (DST + SRC + b"\x81\x37" + ipx(b"ab", length=200)),
        "mac_only": DST + SRC + b"\x81\x37",
        "short_llc": DST + SRC + b"\x00\x10\xe0",
        "checksummed_8022": frame(len(p) + 3, llc + ipx(b"z", csum=0x1234)),
        "max_ii": DST + SRC + b"\x81\x37" + ipx(b"m" * 1470),
    }
    for name, data in seeds.items():
        with open(os.path.join(OUT, name), "wb") as f:
            f.write(data)


if __name__ == "__main__":
    main()
