#!/usr/bin/env python3
"""gen_corpus.py - write the seed corpora under tests/fuzz/corpus/.

The seeds are committed; run this again only to change them:

    python3 tests/fuzz/gen_corpus.py

It empties and rewrites corpus/ipx_header, corpus/node_input, corpus/hub
and corpus/config. Each seed is small: valid packets, the DOSBox tunnel's
registration and ping packets, a valid SHELL.CFG, and the edge cases each
harness's checks are about (short, bad length, padding, checksum, hop
limit, forged source, every config error).
"""
import os
import shutil
import struct

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


def main():
    if os.path.isdir(CORPUS):
        shutil.rmtree(CORPUS)
    header_seeds()
    node_seeds()
    hub_seeds()
    config_seeds()
    total = 0
    for root, _, files in os.walk(CORPUS):
        for f in files:
            total += os.path.getsize(os.path.join(root, f))
    print("wrote %s (%d bytes)" % (CORPUS, total))


if __name__ == "__main__":
    main()
