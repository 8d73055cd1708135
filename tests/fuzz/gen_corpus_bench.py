#!/usr/bin/env python3
"""gen_corpus_bench.py - seed corpus for fuzz_bench_msg: one file per
harness control message (layouts in src/bench/harness_msg.c), a stream
of several, and refusals (bad magic, version, type, lengths)."""
import os
import struct

OUT = os.path.join(os.path.dirname(__file__), "corpus", "bench_msg")


def frame(t, body, magic=0x4942, version=3):
    return struct.pack(">HBBI", magic, version, t, len(body)) + body


def info(sock=0x4545, credit=0):
    """40 bytes: address, NetBIOS name, UDP address, credit address."""
    addr = struct.pack(">I", 0x10) + bytes([2, 0, 0, 0, 0, 7]) + struct.pack(">H", sock)
    return (addr + b"BWR020000000007 " + bytes([127, 0, 0, 1]) + struct.pack(">H", 4242)
            + bytes([127, 0, 0, 1] if credit else [0, 0, 0, 0]) + struct.pack(">H", credit))


# after the NCP operation and station (version 2): the credit window u32,
# the SPX II window u16 and the send queue u32 (version 3)
def tail(window=0, spx_window=0, queue=0):
    return struct.pack(">IHI", window, spx_window, queue)


hello = frame(1, struct.pack(">IH", 1234, 2) + b"receiver".ljust(32, b"\0"))
# the last three bytes: NCP operation u8, station u16 (version 2)
prepare = frame(2, struct.pack(">IBBhHIIII", 7, 0, 4, -1, 3, 255, 2000, 0, 250)
                + info(credit=5151) + bytes([10, 0, 0, 1]) + struct.pack(">I", 0) + bytes(3)
                + tail(window=1024))
prepare_time = frame(2, struct.pack(">IBBhHIIII", 8, 1, 2, 1, 1, 1380, 0, 1500, 200)
                     + info() + bytes(4) + struct.pack(">I", 4000) + bytes(3)
                     + tail(spx_window=64, queue=1 << 20))
# an NCP workstation: kind 7, operation 12 (copy), station 2, size 25184
prepare_ncp = frame(2, struct.pack(">IBBhHIIII", 9, 0, 7, -1, 1, 25184, 1, 0, 0)
                    + info(0x451) + bytes(4) + struct.pack(">IBH", 10000, 12, 2) + tail())
# B7: operation 15 (perform3-read), a 64,512-byte block, and the optional
# NCP tail: the buffer asked for u16, flags u8 (bit 0: no packet burst)
prepare_p3 = frame(2, struct.pack(">IBBhHIIII", 10, 0, 7, -1, 1, 64512, 0, 2000, 0)
                   + info(0x451) + bytes(4) + struct.pack(">IBH", 10000, 15, 1) + tail()
                   + struct.pack(">HB", 1024, 1))
ready = frame(3, struct.pack(">Ih", 7, 1) + info(credit=5151))
go = frame(4, struct.pack(">I", 7))
finish = frame(5, struct.pack(">I", 7))
quit_ = frame(8, struct.pack(">I", 0))


def result(buckets):
    count = sum(c for _, c in buckets)
    fixed = struct.pack(">IBBh", 7, 2, 0, 1) + struct.pack(">QQQQQ", 2000, 0, 0, 510000, 3)
    fixed += struct.pack(">dddddd", 0.02, 100000.0, 24900.0, 55.5, 0.01, 0.02)
    lo = 1000 if buckets else 0
    hi = 5000000 if buckets else 0
    fixed += struct.pack(">QQQQH", count, lo, hi, count * 3000 if buckets else 0, len(buckets))
    fixed += struct.pack(">Q", 2)  # window stalls (version 3)
    return frame(6, fixed + b"".join(struct.pack(">HI", i, c) for i, c in buckets))


res = result([(600, 1500), (700, 499), (1500, 1)])
# with the optional NCP tail: the buffer granted u16, flags (bit 0: burst)
res_ncp = result([(600, 1500)])
res_ncp = res_ncp[:4] + struct.pack(">I", len(res_ncp) - 8 + 3) + res_ncp[8:] + struct.pack(">HB", 1446, 1)
res_empty = result([])
error = frame(7, struct.pack(">IH", 7, 19) + b"cannot run on CPU 3")

seeds = {
    "hello": hello, "prepare": prepare, "prepare_time": prepare_time,
    "prepare_ncp": prepare_ncp, "prepare_p3": prepare_p3,
    "result_ncp": res_ncp,
    "ready": ready, "go": go, "finish": finish, "quit": quit_,
    "result": res, "result_empty": res_empty, "error": error,
    "stream": hello + prepare + ready + go + res + finish + quit_,
    "bad_magic": frame(4, struct.pack(">I", 1), magic=0x1234),
    "bad_version": frame(4, struct.pack(">I", 1), version=2),
    "bad_type": frame(9, struct.pack(">I", 1)),
    "bad_go_length": frame(4, struct.pack(">IB", 1, 0)),
    "huge_length": struct.pack(">HBBI", 0x4942, 3, 6, 0x7FFFFFFF),
    "truncated_result": res[:-3],
    "bad_result_total": result([(600, 1500)])[:-4] + struct.pack(">I", 7),
    "nan_rate": res[:8 + 56] + b"\x7f\xf8" + bytes(6) + res[8 + 64:],
}

os.makedirs(OUT, exist_ok=True)
for name, data in seeds.items():
    with open(os.path.join(OUT, name), "wb") as f:
        f.write(data)
