#!/usr/bin/env python3
"""gen_corpus.py - write the seed corpora under tests/fuzz/corpus/.

The seeds are committed; run this again only to change them:

    python3 tests/fuzz/gen_corpus.py            # every corpus
    python3 tests/fuzz/gen_corpus.py spx        # only corpus/spx
    python3 tests/fuzz/gen_corpus.py spx_repro  # build/fuzz/spx-repro/

It empties and rewrites corpus/ipx_header, corpus/node_input, corpus/hub,
corpus/config and corpus/spx (or only the ones named). Each seed is small:
valid packets, the DOSBox tunnel's registration and ping packets, a valid
SHELL.CFG, SPX sessions, and the edge cases each harness's checks are about
(short, bad length, padding, checksum, hop limit, forged source, every
config error, forged SPX packets).
"""
import os
import shutil
import struct
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
CORPUS = os.path.join(HERE, "corpus")

BCAST = b"\xff" * 6
ZERO = b"\x00" * 6
# fuzz_node_input's node and its peer (ipx_mem_link_new's first two).
NODE = bytes.fromhex("020000000001")
PEER = bytes.fromhex("020000000002")
NODE_NET = 0x00C0FFEE
# The ipxbox-style keepalive source node the hub uses.
KEEPALIVE = bytes.fromhex("02ffffff0000")


def checksum(pkt):
    """The IPX checksum (spec section 1): words from offset 2, hops zero."""
    b = bytearray(pkt)
    b[4] = 0
    total = 0
    for i in range(2, len(b) - 1, 2):
        total += b[i] << 8 | b[i + 1]
    if len(b) % 2:
        total += b[-1] << 8
    while total >> 16:
        total = (total & 0xFFFF) + (total >> 16)
    return ~total & 0xFFFF


def ipx(dnet=0, dnode=ZERO, dsock=0, snet=0, snode=ZERO, ssock=0,
        payload=b"", ptype=4, hops=0, csum=0xFFFF, length=None, pad=b""):
    n = 30 + len(payload) if length is None else length
    hdr = struct.pack(">HHBBI6sHI6sH", csum, n, hops, ptype, dnet, dnode,
                      dsock, snet, snode, ssock)
    return hdr + payload + pad


def with_checksum(pkt):
    return struct.pack(">H", checksum(pkt)) + pkt[2:]


def client_node(i):
    """Hub client i is 127.0.0.1:(10000 + i); its node is IP + port."""
    return bytes([127, 0, 0, 1]) + struct.pack(">H", 10000 + i)


REGISTER = ipx(dsock=2, ssock=2, ptype=2, payload=b"")


def record(client, pkt, step=0):
    return bytes([(step << 3) | client]) + struct.pack(">H", len(pkt)) + pkt


def write(sub, name, data):
    d = os.path.join(CORPUS, sub)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, name), "wb") as f:
        f.write(data)


def header_seeds():
    s = "ipx_header"
    write(s, "register", REGISTER)
    write(s, "register_reply",
          ipx(dnode=client_node(0), dsock=2, snet=1,
              snode=b"\0\0\0\0\x00\xd5", ssock=2, ptype=0))
    write(s, "data", ipx(dnode=NODE, dsock=0x4545, snode=PEER, ssock=0x4000,
                         payload=b"hello"))
    write(s, "padded", ipx(dnode=NODE, dsock=0x4545, snode=PEER,
                           ssock=0x4000, payload=b"ab", pad=b"\0" * 9))
    write(s, "checksummed", with_checksum(
        ipx(dnet=1, dnode=NODE, dsock=0x0452, snet=2, snode=PEER,
            ssock=0x0452, payload=b"\x00\x02\x00\x04odd", ptype=4)))
    write(s, "ping", ipx(dnode=BCAST, dsock=2, snode=client_node(1), ssock=2,
                         ptype=0))
    write(s, "short", REGISTER[:29])
    write(s, "len_below_30", ipx(dsock=2, length=29))
    write(s, "len_beyond", ipx(dsock=2, length=31))
    write(s, "len_max", ipx(dsock=2, length=0xFFFF))
    write(s, "empty", b"")
    # Address texts in every documented spelling (and some near misses).
    for i, t in enumerate([
            "00000000:7F0000012710:4545",
            "0x00C0FFEE.02-00-00-00-00-01.0x0455",
            "FFFFFFFF:FFFFFFFFFFFF:FFFF",
            "1:2:3",
            "1.2.3",
            "0x1:0x2:0x3",
            "123456789:1:1",
            "1:1234567890123:1",
            "1:02-00-00-00-00:1",
            "1:2.3",
            "4545",
            "0x"]):
        write(s, "text%02d" % i, t.encode())


def node_seeds():
    s = "node_input"
    write(s, "to_echo", ipx(dnode=NODE, dsock=0x4545, snode=PEER,
                            ssock=0x4000, payload=b"hi"))
    write(s, "to_echo_net", ipx(dnet=NODE_NET, dnode=NODE, dsock=0x4545,
                                snet=NODE_NET, snode=PEER, ssock=0x4000,
                                payload=b"net"))
    write(s, "bcast_netbios", ipx(dnode=BCAST, dsock=0x0455, snode=PEER,
                                  ssock=0x0455, ptype=20,
                                  payload=b"\0" * 32 + b"NAME"))
    write(s, "bcast_to_echo", ipx(dnode=BCAST, dsock=0x4545, snode=PEER,
                                  ssock=0x4545, payload=b"b"))
    write(s, "from_bcast", ipx(dnode=NODE, dsock=0x4545, snode=BCAST,
                               ssock=0x4545, payload=b"loop"))
    write(s, "from_self_other_net", ipx(dnode=NODE, dsock=0x4545, snet=5,
                                        snode=NODE, ssock=0x4545,
                                        payload=b"self"))
    write(s, "from_self_zero_net", ipx(dnode=NODE, dsock=0x4545, snet=0,
                                       snode=NODE, ssock=0x4545))
    write(s, "to_dynamic", ipx(dnode=NODE, dsock=0x4000, snode=PEER,
                               ssock=0x4001, payload=b"dyn"))
    write(s, "dosbox_ping", ipx(dnode=BCAST, dsock=2, snode=PEER, ssock=2,
                                ptype=0))
    write(s, "no_socket", ipx(dnode=NODE, dsock=0x1234, snode=PEER,
                              ssock=0x4000))
    write(s, "other_node", ipx(dnode=PEER, dsock=0x4545, snode=NODE,
                               ssock=0x4000))
    write(s, "other_net", ipx(dnet=7, dnode=NODE, dsock=0x4545, snode=PEER,
                              ssock=0x4000))
    write(s, "good_checksum", with_checksum(
        ipx(dnode=NODE, dsock=0x4545, snode=PEER, ssock=0x4000,
            payload=b"sum!x")))
    write(s, "bad_checksum", ipx(dnode=NODE, dsock=0x4545, snode=PEER,
                                 ssock=0x4000, csum=0x1234))
    write(s, "hops15", ipx(dnode=NODE, dsock=0x4545, snode=PEER,
                           ssock=0x4000, hops=15))
    write(s, "hops16", ipx(dnode=NODE, dsock=0x4545, snode=PEER,
                           ssock=0x4000, hops=16))
    write(s, "padded", ipx(dnode=NODE, dsock=0x4545, snode=PEER,
                           ssock=0x4000, payload=b"x", pad=b"\xAA" * 30))
    write(s, "short", ipx(dnode=NODE, dsock=0x4545)[:20])
    write(s, "bad_length", ipx(dnode=NODE, dsock=0x4545, length=100))
    write(s, "max_size", ipx(dnode=NODE, dsock=0x4545, snode=PEER,
                             ssock=0x4000, payload=b"\x55" * 1470))


def hub_seeds():
    s = "hub"
    reg = [record(i, REGISTER) for i in range(8)]
    c0, c1, c2 = client_node(0), client_node(1), client_node(2)
    uni = ipx(dnode=c1, dsock=0x4545, snode=c0, ssock=0x4000,
              payload=b"hello")
    bcast = ipx(dnode=BCAST, dsock=0x4545, snode=c1, ssock=0x4000,
                payload=b"all")
    dping = ipx(dnode=BCAST, dsock=2, snode=c0, ssock=2, ptype=0)
    ka_answer = ipx(dnode=KEEPALIVE, dsock=0, snode=c2, ssock=2, ptype=0)
    write(s, "register_one", reg[0])
    write(s, "register_all", b"".join(reg))
    write(s, "unicast", reg[0] + reg[1] + record(0, uni))
    write(s, "broadcast", reg[0] + reg[1] + reg[2] + record(1, bcast))
    write(s, "dosbox_ping", reg[0] + reg[1] + record(0, dping))
    write(s, "keepalive", reg[2] + record(2, ka_answer, step=8) +
          record(2, ka_answer, step=31))
    write(s, "idle_then_send", reg[0] + reg[1] + record(0, uni, step=31) +
          record(0, uni))
    write(s, "reregister", reg[3] + record(3, REGISTER, step=2) + reg[3])
    write(s, "unregistered", record(5, uni))
    write(s, "forged", reg[0] + reg[1] + record(1, uni))
    write(s, "unknown_dest", reg[0] + record(0, uni))
    write(s, "too_big", reg[0] + record(0, ipx(dnode=c1, dsock=0x4545,
                                               snode=c0,
                                               payload=b"\0" * 1395)))
    write(s, "short", reg[0] + record(0, REGISTER[:12]))
    write(s, "bad_length", reg[0] + reg[1] + record(0, ipx(
        dnode=c1, dsock=0x4545, snode=c0, length=200)))
    write(s, "padded", reg[0] + reg[1] + record(0, ipx(
        dnode=c1, dsock=0x4545, snode=c0, payload=b"p", pad=b"\0" * 20)))
    write(s, "register_short_len", reg[0] + record(
        4, ipx(dsock=2, length=0)))
    # 80 broadcasts among 8 clients in one batch: 560 copies overflow the
    # hub's 512-entry transmit queue.
    many = b"".join(record(i % 8, ipx(dnode=BCAST, dsock=0x4545,
                                      snode=client_node(i % 8),
                                      ssock=0x4000)) for i in range(80))
    write(s, "queue_overflow", b"".join(reg) + many)
    write(s, "truncated_record", reg[0] + b"\x00\x01\x00" + uni[:10])
    # Bridge ports (docs/hub.md): client 0 announces itself, sends for a
    # station behind it (learned), client 1 answers that station, sends
    # to an unknown node (flooded) and forges; client 3 announces too.
    far = bytes.fromhex("00001b00000a")
    announce = lambda c: ipx(dnode=KEEPALIVE, dsock=2, snode=c, ssock=2,
                             ptype=0, payload=b"ipxlabBP\x01\x01\x00\x00")
    c3 = client_node(3)
    write(s, "bridge_port", reg[0] + reg[1] + reg[3] +
          record(0, announce(c0)) + record(3, announce(c3)) +
          record(0, ipx(dnode=c1, dsock=0x4545, snode=far, ssock=0x4000,
                        payload=b"from afar")) +
          record(1, ipx(dnode=far, dsock=0x4545, snode=c1, ssock=0x4000)) +
          record(1, ipx(dnode=bytes.fromhex("00001b0000ff"), dsock=0x4545,
                        snode=c1)) +
          record(0, ipx(dnode=far, dsock=0x4545, snode=c0)) +
          record(0, ipx(dnode=c3, dsock=0x4545, snode=c1)) +
          record(1, ipx(dnode=c0, dsock=0x4545, snode=far)) +
          record(3, ipx(dnode=far, dsock=0x4545, snode=c3), step=31))


SHELL_CFG = b"""; SHELL.CFG for ipxlab: every parameter, defaults changed a little
IPX SOCKETS = 40
IPX RETRY COUNT = 30
SPX CONNECTIONS = 20
SPX LISTEN TIMEOUT = 216
SPX VERIFY TIMEOUT = 108
SPX ABORT TIMEOUT = 1080
NETBIOS SESSIONS = 64
NETBIOS COMMANDS = 24
NETBIOS SEND BUFFERS = 8
NETBIOS RECEIVE BUFFERS = 8
NETBIOS LISTEN TIMEOUT = 216
NETBIOS VERIFY TIMEOUT = 108
NETBIOS ABORT TIMEOUT = 1080
NETBIOS RETRY DELAY = 1000
NETBIOS RETRY COUNT = 20
NETBIOS BROADCAST COUNT = 4
NETBIOS BROADCAST DELAY = 36
NETBIOS INTERNET = OFF
"""


def config_seeds():
    s = "config"
    write(s, "all_params", SHELL_CFG)
    write(s, "internet_on", b"NETBIOS INTERNET = ON\n")
    write(s, "net_cfg_style", b"ipx   sockets 60\r\n\tspx connections\t30\r\n"
          b"# comment\r\nnetbios   internet   on ; trailing\r\n")
    write(s, "no_final_newline", b"IPX SOCKETS=150")
    write(s, "empty", b"")
    write(s, "comments_only", b"; nothing\n# at all\n\n   \n")
    write(s, "min_max", b"IPX RETRY COUNT = 0\nSPX ABORT TIMEOUT = 65535\n"
          b"NETBIOS RETRY DELAY = 10\n")
    write(s, "err_unknown", b"IPX SOCKETS = 20\nFILE HANDLES = 40\n")
    write(s, "err_range", b"IPX SOCKETS = 9\n")
    write(s, "err_huge", b"IPX SOCKETS = 99999999999999999999\n")
    write(s, "err_duplicate", b"IPX SOCKETS = 20\n\nipx sockets = 30\n")
    write(s, "err_ipatch", b"IPATCH = 0F12:90\n")
    write(s, "err_no_value", b"IPX SOCKETS\n")
    write(s, "err_no_value_eq", b"SPX CONNECTIONS =\n")
    write(s, "err_no_name", b"= 5\n")
    write(s, "err_onoff", b"NETBIOS INTERNET = MAYBE\n")
    write(s, "err_not_number", b"NETBIOS SESSIONS = 3O\n")
    write(s, "err_nul", b"IPX SOCKETS = 20\nSPX\0CONNECTIONS = 5\n")
    write(s, "err_control", b"IPX SOCKETS = 20\x01\n")
    write(s, "err_long_line", b"; " + b"x" * 600 + b"\n")


# ---- fuzz_spx: records of tests/fuzz/fuzz_spx.c (its header comment and
# the comment above each op_* function give the layout) ----

SPX_OPS = {"inject": 0, "advance": 1, "send": 2, "close": 3, "abort": 4,
           "connect": 5, "faults": 6, "end_other": 7, "relisten": 8}
SPX_MTUS = {576: 0, 1000: 1, 1424: 2, 1500: 3}
A, B = 0, 1


def spx_variant(b_spx1=False, a_spx1=False, mtu=1500, small_window=False,
                small_queue=False, lossy=False, short_timers=False):
    return bytes([b_spx1 | a_spx1 << 1 | SPX_MTUS[mtu] << 2 |
                  small_window << 4 | small_queue << 5 | lossy << 6 |
                  short_timers << 7])


def spx_op(name, hi=0):
    return bytes([SPX_OPS[name] | hi << 4])


def spx_advance(unit, n):
    """unit 0: 1 ms, 1: 10 ms, 2: a tick, 3: 8 ticks; n + 1 of them."""
    return spx_op("advance", unit) + bytes([n])


def spx_send(side, length, ds=0, eom=False, attn=False):
    big = length > 255
    if big:
        assert length % 8 == 0 and length <= 8 * 255
    return spx_op("send", side | eom << 1 | attn << 2 | big << 3) + \
        bytes([length // 8 if big else length, ds])


def spx_hdr(cc, ds=0, src=0, dst=0, seq=0, ack=0, alloc=0, neg=None):
    h = struct.pack(">BBHHHHH", cc, ds, src, dst, seq, ack, alloc)
    return h + (struct.pack(">H", neg) if neg is not None else b"")


def spx_inject(target, spx, patch=True, seqmode=0, dst=0, src=0,
               ack=False, alloc=False, size=0, other=False, k=0):
    """dst: 0 the connection's socket, 1 the listener, 2 nobody, 3 the
    peer's listener; src: 0 the true peer, 1 another socket of its node,
    2 a stranger, 3 ourselves; size: 0 as given, 1 576 bytes, 2 the MTU,
    3 one over it."""
    assert len(spx) <= 255
    sel = dst | src << 2 | ack << 4 | alloc << 5 | size << 6
    return spx_op("inject", target | patch << 1 | seqmode << 2) + \
        bytes([sel, other << 7 | k, len(spx)]) + spx


def spx_seeds():
    s = "spx"
    v2 = spx_variant()
    t = spx_advance(1, 9)           # 100 ms
    long_wait = spx_advance(3, 31)  # 256 ticks, 14 s
    data = spx_hdr(0x50, seq=0) + b"forged!"
    write(s, "setup_only", v2)
    write(s, "spx1_setup", spx_variant(b_spx1=True))
    write(s, "spx1_requester", spx_variant(a_spx1=True, mtu=576))
    write(s, "bulk_both_ways", v2 + spx_send(A, 2040) + spx_send(B, 1000) +
          t + spx_send(A, 7, eom=True, ds=0x42) + t)
    write(s, "spx1_bulk", spx_variant(b_spx1=True, mtu=1000) +
          spx_send(A, 2040, eom=True) + spx_send(A, 2040) + t)
    write(s, "eom_attn", v2 + spx_send(A, 1200, eom=True, ds=7) +
          spx_send(A, 1, attn=True) + spx_send(A, 0) + t)
    write(s, "ds_disconnect_refused", v2 + spx_send(A, 5, ds=0xFE) +
          spx_send(B, 5, ds=0xFF) + t)
    write(s, "small_queue_full", spx_variant(small_queue=True,
                                             small_window=True) +
          b"".join(spx_send(A, 1016) for _ in range(4)) + t)
    write(s, "lossy_bulk", spx_variant(lossy=True, mtu=576) +
          spx_send(A, 2040) + spx_send(B, 2040) + t + t)
    write(s, "close_a", v2 + spx_send(A, 600) + spx_op("close", A) + t)
    write(s, "close_b_while_a_sends", v2 + spx_send(A, 2040) +
          spx_op("close", B) + t)
    write(s, "abort_b_then_close_a", v2 + spx_send(A, 2040) +
          spx_op("abort", B) + spx_op("close", A) + t)
    write(s, "cut_then_heal", v2 + spx_op("faults", 2) +
          spx_send(A, 2040) + spx_advance(2, 20) + spx_op("faults", 0) +
          long_wait)
    write(s, "cut_until_abort", spx_variant(short_timers=True) +
          spx_send(A, 100) + spx_op("faults", 2) + long_wait)
    write(s, "idle_watchdog", v2 + long_wait + long_wait + long_wait)
    write(s, "dup_delay", v2 + spx_op("faults", 3) + spx_send(A, 2040) +
          spx_send(B, 2040) + spx_advance(0, 3) + spx_advance(0, 5) + t)
    write(s, "connections_limit", v2 + spx_op("connect", A) * 6 + t +
          spx_op("connect", B) * 6 + t + spx_op("end_other", 0) + b"\0" +
          spx_op("end_other", 1) + b"\3" + t)
    write(s, "connect_nobody", v2 + spx_op("connect", A | 2) + long_wait)
    write(s, "connect_refused", v2 + spx_op("connect", A | 4) + t +
          spx_op("connect", B | 4) + t)
    write(s, "sendable_after_full", spx_variant(small_queue=True) +
          b"".join(spx_send(A, 1016) for _ in range(3)) + t +
          spx_send(A, 1016) + t)
    write(s, "relisten_b", v2 + spx_send(A, 100) + spx_op("relisten", B) +
          spx_op("connect", A) + t)
    # Forgeries at the main connection (ids patched in by the harness).
    write(s, "inject_dup", v2 + spx_send(A, 304) + t +
          spx_inject(B, data, seqmode=1))
    write(s, "inject_beyond_window", v2 + spx_inject(B, data, seqmode=2) +
          spx_send(A, 304) + t)
    write(s, "inject_in_window", v2 + spx_inject(B, data, seqmode=3, k=2) +
          spx_send(A, 304) + t)
    write(s, "inject_spx1_next", spx_variant(b_spx1=True) +
          spx_inject(B, data, seqmode=3) + spx_send(A, 304) + t)
    write(s, "inject_ack_nak", v2 + spx_send(A, 2040) +
          spx_inject(A, spx_hdr(0x88, ds=0xFB, neg=1500), ack=True, k=1) +
          t)
    write(s, "inject_forged_ack", v2 + spx_op("faults", 2) +
          spx_send(A, 2040) +
          spx_inject(A, spx_hdr(0x88, neg=1500), ack=True, alloc=True, k=3) +
          spx_op("faults", 0) + long_wait)
    write(s, "inject_watchdog_req", v2 +
          spx_inject(B, spx_hdr(0xC8, neg=1500)) + t)
    write(s, "inject_neg_request", v2 +
          spx_inject(B, spx_hdr(0xCC, neg=1000), size=2) +
          spx_inject(B, spx_hdr(0xCC, neg=600), size=1) + t)
    write(s, "inject_sys_disconnect", v2 + spx_send(A, 100) +
          spx_inject(A, spx_hdr(0xC8, ds=0xFE, neg=1500)) + t)
    write(s, "inject_disconnect_ack", v2 +
          spx_inject(B, spx_hdr(0x88, ds=0xFF, neg=1500)) + t)
    write(s, "inject_data_disconnect", spx_variant(b_spx1=True) +
          spx_inject(B, spx_hdr(0x40, ds=0xFE), seqmode=3) + t)
    write(s, "inject_wrong_peer", v2 + spx_inject(B, data, src=2,
                                                  seqmode=3) +
          spx_inject(B, data, src=1, seqmode=3) +
          spx_inject(B, data, src=3, seqmode=3) + t)
    write(s, "inject_connect_request", v2 +
          spx_inject(B, spx_hdr(0xCC, src=0x4242, dst=0xFFFF), patch=False,
                     dst=1) +
          spx_inject(A, spx_hdr(0xC0, src=0x4343, dst=0xFFFF), patch=False,
                     dst=1) +
          spx_inject(B, spx_hdr(0xC0, src=0xFFFF, dst=0xFFFF), patch=False,
                     dst=1) + t)
    write(s, "inject_stray_disconnect", v2 +
          spx_inject(B, spx_hdr(0x40, ds=0xFE, src=1, dst=0x0BAD),
                     patch=False) + t)
    write(s, "inject_short", v2 + spx_inject(B, b"\xc8\x00\x01") +
          spx_inject(B, spx_hdr(0xC8)[:13]) + t)


def spx_repro():
    """Inputs that fail fuzz_spx while the SPX bugs they show are open;
    written to build/fuzz/spx-repro/ (not a seed corpus: they would fail
    every fuzz run). Move each into spx_seeds() once its bug is fixed."""
    d = os.path.join(HERE, "..", "..", "build", "fuzz", "spx-repro")
    if os.path.isdir(d):
        shutil.rmtree(d)
    os.makedirs(d)
    v2 = spx_variant()
    t = spx_advance(1, 9)
    # A connection in negotiation (the accept forged while the segment is
    # cut) told to disconnect by a system packet: on_connected(IPX_OK),
    # then the connection is freed.
    with open(os.path.join(d, "negotiating_sys_disconnect"), "wb") as f:
        f.write(v2 + spx_op("faults", 2) + spx_op("connect", A) +
                spx_inject(A, spx_hdr(0x8C, src=0x7777, neg=576),
                           other=True) +
                spx_inject(A, spx_hdr(0x80, ds=0xFE, neg=576), other=True) +
                t)
    # An acknowledge number exactly half the sequence space ahead, while
    # nothing is in flight, passes got_ack's checks (spx_seq_lt is true
    # both ways at that distance): in_flight becomes 32768, nothing is
    # ever sent again.
    with open(os.path.join(d, "ack_half_space"), "wb") as f:
        f.write(v2 + spx_inject(A, spx_hdr(0x88, ack=0x8000, alloc=0x8000,
                                           neg=1424)) +
                spx_send(A, 100) + t)
    print("wrote %s" % os.path.normpath(d))


CORPORA = {"ipx_header": header_seeds, "node_input": node_seeds,
           "hub": hub_seeds, "config": config_seeds, "spx": spx_seeds}


def main():
    names = sys.argv[1:] or list(CORPORA)
    if names == ["spx_repro"]:
        spx_repro()
        return
    for n in names:
        if n not in CORPORA:
            sys.exit("gen_corpus.py: no corpus '%s' (one of: %s)" %
                     (n, ", ".join(CORPORA)))
    for n in names:
        d = os.path.join(CORPUS, n)
        if os.path.isdir(d):
            shutil.rmtree(d)
        CORPORA[n]()
    total = 0
    for root, _, files in os.walk(CORPUS):
        for f in files:
            total += os.path.getsize(os.path.join(root, f))
    print("wrote %s (%d bytes)" % (CORPUS, total))


if __name__ == "__main__":
    main()
