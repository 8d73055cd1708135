#!/usr/bin/env python3
# late_pong.py HUB_PORT PING_SOCKET DELAY - a tunnel client for cli_hang_test.sh
# that forges one Novell ping reply (id 1, 32 bytes of 'a'..'z') to the
# first node it hears asking RIP for a route, DELAY seconds later: a reply
# that arrives after `ipxlab ping -W` has ended, while the pinger still
# waits for that route. Prints "ready" once registered; exits after sending.
import socket
import struct
import sys
import time

port, sock_no, delay = int(sys.argv[1]), int(sys.argv[2], 16), float(sys.argv[3])
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.settimeout(10)
hub = ("127.0.0.1", port)


def header(length, ptype, dnet, dnode, dsock, snet, snode, ssock):
    return struct.pack(">HHBBI6sHI6sH", 0xFFFF, length, 0, ptype, dnet, dnode,
                       dsock, snet, snode, ssock)


# Registration: an echo packet to socket 2 with zero addresses.
s.sendto(header(30, 0, 0, bytes(6), 2, 0, bytes(6), 2), hub)
reply, _ = s.recvfrom(2048)
me = reply[10:16]
print("ready", flush=True)
while True:
    pkt, _ = s.recvfrom(2048)
    if len(pkt) < 32:
        continue
    dsock = struct.unpack(">H", pkt[16:18])[0]
    op = struct.unpack(">H", pkt[30:32])[0]
    if dsock != 0x453 or op != 1 or pkt[22:28] == me:
        continue
    asker = pkt[22:28]
    time.sleep(delay)
    data = bytes(ord("a") + i % 26 for i in range(32))
    body = b"Ping" + bytes([1, 1]) + struct.pack(">H", 1) + bytes(2) + data
    s.sendto(header(30 + len(body), 4, 0, asker, sock_no, 1, me, 0x9086)
             + body, hub)
    break
