#!/usr/bin/env python3
"""gen_corpus_svc.py - write the seed corpora of the RIP, SAP, diagnostics
and ping harnesses under tests/fuzz/corpus/{rip,sap,diag,ping}/.

The seeds are committed; run this again only to change them:

    python3 tests/fuzz/gen_corpus_svc.py

Each RIP/SAP/ping seed starts with the flags byte of fuzz_svc.h (bit 0
crossed a router, bit 1 broadcast, bit 2 looped back, bit 3 second segment,
bit 4 source network 0), then the IPX payload. The diagnostics harness
reads the whole input both as a response and (after the flags byte) as a
request.
"""
import os
import shutil
import struct

HERE = os.path.dirname(os.path.abspath(__file__))
CORPUS = os.path.join(HERE, "corpus")


def write(sub, name, data):
    d = os.path.join(CORPUS, sub)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, name), "wb") as f:
        f.write(data)


def rip(op, entries):
    return struct.pack(">H", op) + b"".join(
        struct.pack(">IHH", n, h, t) for n, h, t in entries)


def sap_entry(stype, name, net, node, sock, hops):
    return struct.pack(">H48sI6sHH", stype, name, net, node, sock, hops)


NODE = bytes.fromhex("020000000902")


def rip_seeds():
    s = "rip"
    write(s, "request_all", b"\x02" + rip(1, [(0xFFFFFFFF, 0xFFFF, 0xFFFF)]))
    write(s, "request_one", b"\x00" + rip(1, [(0x0B, 0xFFFF, 0xFFFF)]))
    write(s, "response", b"\x02" + rip(2, [(0x1234, 1, 2), (0x99, 3, 4)]))
    write(s, "withdraw", b"\x02" + rip(2, [(0x1234, 16, 16)]))
    write(s, "attached", b"\x00" + rip(2, [(0x0A, 1, 1), (0x0B, 1, 1)]))
    write(s, "bad_entries", b"\x00" + rip(2, [(0, 1, 1), (0xFFFFFFFF, 1, 1)]))
    write(s, "full", b"\x00" + rip(2, [(0x100 + i, 1 + i % 15, i)
                                       for i in range(50)]))
    write(s, "too_many", b"\x00" + rip(2, [(0x100 + i, 1, 1)
                                           for i in range(51)]))
    write(s, "not_neighbour", b"\x01" + rip(2, [(0x1234, 1, 2)]))
    write(s, "looped", b"\x04" + rip(2, [(0x1234, 1, 2)]))
    write(s, "net0_source", b"\x18" + rip(2, [(0x4444, 2, 2)]))
    write(s, "short", b"\x00\x00")
    write(s, "bad_op", b"\x00" + rip(3, [(1, 1, 1)]))
    write(s, "bad_length", b"\x00" + rip(2, [(1, 1, 1)])[:-1])
    write(s, "empty", b"\x00" + rip(2, []))


def sap_seeds():
    s = "sap"
    fs = sap_entry(4, b"FS1", 0x1234, NODE, 0x451, 1)
    write(s, "general_query", b"\x02" + struct.pack(">HH", 1, 0xFFFF))
    write(s, "nearest_query", b"\x02" + struct.pack(">HH", 3, 4))
    write(s, "response", b"\x02" + struct.pack(">H", 2) + fs)
    write(s, "nearest_response", b"\x00" + struct.pack(">H", 4) + fs)
    write(s, "down", b"\x02" + struct.pack(">H", 2) +
          sap_entry(4, b"FS1", 0x1234, NODE, 0x451, 16))
    write(s, "ours", b"\x02" + struct.pack(">H", 2) +
          sap_entry(4, b"FUZZ_SERVER", 0x1234, NODE, 0x451, 1))
    write(s, "seven", b"\x00" + struct.pack(">H", 2) + b"".join(
        sap_entry(0x47, b"P%d" % i, 0x77, NODE, 0x8000 + i, i)
        for i in range(7)))
    write(s, "eight", b"\x00" + struct.pack(">H", 2) + b"".join(
        sap_entry(0x47, b"P%d" % i, 0x77, NODE, 0x8000 + i, 1)
        for i in range(8)))
    write(s, "no_nul", b"\x00" + struct.pack(">H", 2) +
          struct.pack(">H", 4) + b"X" * 48 + b"\x00" * 14)
    write(s, "net0", b"\x10" + struct.pack(">H", 2) +
          sap_entry(4, b"LOCAL", 0, NODE, 0x451, 1))
    write(s, "bad_type", b"\x00" + struct.pack(">H", 2) +
          sap_entry(0xFFFF, b"ANY", 1, NODE, 1, 1))
    write(s, "not_neighbour", b"\x01" + struct.pack(">H", 2) + fs)
    write(s, "short", b"\x00\x00")
    write(s, "bad_query_len", b"\x00" + struct.pack(">HHB", 1, 4, 0))
    write(s, "bad_op", b"\x00" + struct.pack(">HH", 9, 4))
    write(s, "empty", b"\x00" + struct.pack(">H", 2))


def diag_seeds():
    s = "diag"
    write(s, "request_none", b"\x02\x00")
    write(s, "request_excl_other", b"\x02\x01" + NODE)
    write(s, "request_excl_us", b"\x02\x01" + bytes.fromhex("020000000001"))
    write(s, "request_bad_count", b"\x00\x05" + NODE)
    write(s, "empty", b"")
    write(s, "flags_only", b"\x02")
    router = (bytes([1, 0, 0, 0, 3, 0, 1, 6, 2]) +
              bytes([1]) + struct.pack(">I", 0x77) + bytes(5) + b"\x01" +
              bytes([0]) + struct.pack(">I", 0x0A) + NODE)
    write(s, "response_router", router)
    write(s, "response_node", bytes([1, 1, 0, 0, 2, 0, 2]))
    write(s, "response_cut", router[:-3])
    write(s, "response_bad_id", bytes([1, 1, 0, 0, 1, 9]))


def ping_seeds():
    s = "ping"
    hdr = b"Ping\x01"
    write(s, "request", b"\x00" + hdr + b"\x00\x00\x07\x00\x00" + b"abc" * 10)
    write(s, "request_empty", b"\x02" + hdr + b"\x00\x12\x34\x00\x00")
    write(s, "request_routed", b"\x01" + hdr + b"\x00\x00\x01\x00\x00x")
    write(s, "request_looped", b"\x04" + hdr + b"\x00\x00\x02\x00\x00")
    write(s, "reply", b"\x00" + hdr + b"\x01\x00\x07\x01\x00")
    write(s, "bad_sig", b"\x00Pong\x01\x00\x00\x07\x00\x00")
    write(s, "bad_version", b"\x00Ping\x02\x00\x00\x07\x00\x00")
    write(s, "bad_type", b"\x00Ping\x01\x07\x00\x07\x00\x00")
    write(s, "short", b"\x00Ping\x01")
    write(s, "big", b"\x00" + hdr + b"\x00\xff\xff\x00\x00" + bytes(1300))


def main():
    for sub in ("rip", "sap", "diag", "ping"):
        shutil.rmtree(os.path.join(CORPUS, sub), ignore_errors=True)
    rip_seeds()
    sap_seeds()
    diag_seeds()
    ping_seeds()


if __name__ == "__main__":
    main()
