#!/usr/bin/env python3
"""gen_corpus_stack.py - write the seed corpus of fuzz_stack_proto under
tests/fuzz/corpus/stack_proto/: one file per control request, data frames
both ways, replies, and a few malformed ones. The first byte picks the
parser (0 request, 1 data frame, 2 reply); the rest follows stack_proto.h.

The seeds are committed; run this again only to change them:

    python3 tests/fuzz/gen_corpus_stack.py
"""
import os
import shutil
import struct

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "corpus", "stack_proto")
NODE = bytes.fromhex("7f0000010213")


def addr(net, node, sock):
    return struct.pack(">I6sH", net, node, sock)


def req(op, body=b""):
    return b"\x00" + bytes([op, 0, 0, 0]) + body


SEEDS = {
    "open": req(1),
    "bind_any": req(2, addr(0, bytes(6), 0)),
    "bind_ncp": req(2, addr(0xAA, NODE, 0x451)),
    "connect": req(3, addr(0xAA, NODE, 0x4545) + b"\x11"),
    "info": req(4),
    "settype": req(5, b"\x04"),
    "ifset_internal": req(6, struct.pack(">IBBBB6s16s", 0xABCD, 2, 0, 1, 0,
                                         bytes(5) + b"\x01", b"")),
    "ifset_eth0": req(6, struct.pack(">IBBBB6s16s", 0xAA, 0, 3, 1, 0,
                                     bytes(6), b"eth0")),
    "ifget_hub0": req(7, b"\x03\x00\x00\x00" + b"hub0".ljust(16, b"\0")),
    "cfgset": req(8, b"\x00\x01"),
    "cfgget": req(9),
    "route_add": req(10, struct.pack(">B3xII6s", 1, 0x1234, 0xAA, NODE)),
    "proc_socket": req(11, b"\x02"),
    "unsupported": req(12, b"ioctl:SIOCIPXNCPCONN"),
    "reach": req(13, addr(0xC0FFEE, bytes(6), 0)),
    "bad_padding": b"\x00" + bytes([2, 1, 0, 0]) + addr(0, bytes(6), 0),
    "bad_op": req(99),
    "bad_dev": req(7, b"\x03\x00\x00\x00" + b"a b".ljust(16, b"\0")),
    "frame_send": b"\x01" + bytes([1, 3, 4, 0]) + addr(0xAA, NODE, 0x4545)
    + b"hello",
    "frame_data": b"\x01" + bytes([2, 0, 17, 0]) + addr(0, NODE, 0x4000),
    "frame_short": b"\x01" + bytes([1, 0, 0]),
    "reply_ok": b"\x02" + bytes([0x82, 0, 0, 0]) + struct.pack(">I", 0)
    + addr(0xAA, NODE, 0x4000),
    "reply_errno": b"\x02" + bytes([0x82, 0, 0, 0]) + struct.pack(">I", 98),
}


def main():
    shutil.rmtree(OUT, ignore_errors=True)
    os.makedirs(OUT)
    for name, data in SEEDS.items():
        with open(os.path.join(OUT, name), "wb") as f:
            f.write(data)


if __name__ == "__main__":
    main()
