#!/usr/bin/env python3
"""gen_corpus_ncp.py - write the seed corpora of the NCP harnesses under
tests/fuzz/corpus/{ncp_server,ncp_client,ncp_rights}/.

The seeds are committed; run this again only to change them:

    python3 tests/fuzz/gen_corpus_ncp.py

Server seeds: the flags byte of fuzz_ncp_server.c (bit 0 patch into a
request of the live connection), then an NCP request. Client seeds: the
flags byte and the call byte of fuzz_ncp_client.c, then a reply. Rights
seeds: --rights files for fuzz_ncp_rights.c, valid and each error.
"""
import os
import shutil
import struct

HERE = os.path.dirname(os.path.abspath(__file__))
CORPUS = os.path.join(HERE, "corpus")


def nstr(s):
    return bytes([len(s)]) + s


def req(fn, data=b""):
    return struct.pack(">HBBBBB", 0x2222, 0, 0, 1, 0, fn) + data


def sub(fn, sf, data=b""):
    return req(fn, struct.pack(">H", len(data) + 1) + bytes([sf]) + data)


HANDLE = b"\x00\x00\x00\x00\x00\x00"
SERVER = {
    "create": b"\x11\x11\x00\xff\x02\xff\x00",
    "destroy": b"\x55\x55\x00\x00\x01\x00\x00",
    "server_info": sub(0x17, 0x11),
    "login": sub(0x17, 0x14, b"\x00\x01" + nstr(b"GUEST") + nstr(b"")),
    "login_key": sub(0x17, 0x17),
    "keyed_login": sub(0x17, 0x18, b"\x01\x23\x45\x67\x89\xab\xcd\xef" +
                       b"\x00\x01" + nstr(b"GUEST")),
    "keyed_verify": sub(0x17, 0x4A, b"\x01\x23\x45\x67\x89\xab\xcd\xef" +
                        b"\x00\x01" + nstr(b"GUEST")),
    "keyed_change": sub(0x17, 0x4B, b"\x01\x23\x45\x67\x89\xab\xcd\xef" +
                        b"\x00\x01" + nstr(b"GUEST") + b"\x62" + bytes(range(16))),
    "conn_list": sub(0x17, 0x15, b"\x00\x01" + nstr(b"GUEST")),
    "conn_list32": sub(0x17, 0x1B, b"\x00\x00\x00\x00\x00\x01" + nstr(b"GUEST")),
    "msg_send_old": sub(0x15, 0x00, b"\x02\x01\x07" + nstr(b"hello")),
    "msg_send": sub(0x15, 0x0A, b"\x02\x00\x01\x00\x00\x00\x07\x00\x00\x00" +
                    nstr(b"hello")),
    "msg_get_old": sub(0x15, 0x01),
    "msg_get": sub(0x15, 0x0B),
    "msg_off": sub(0x15, 0x02),
    "msg_on": sub(0x15, 0x03),
    "msg_console": sub(0x15, 0x09, nstr(b"to the console")),
    "logged_info": sub(0x17, 0x16, b"\x01"),
    "logged_info32": sub(0x17, 0x1C, b"\x01\x00\x00\x00"),
    "inet_addr32": sub(0x17, 0x1A, b"\x01\x00\x00\x00"),
    "scan_object": sub(0x17, 0x37, b"\xff\xff\xff\xff\xff\xff" + nstr(b"*")),
    "read_property": sub(0x17, 0x3D, b"\x00\x04" + nstr(b"FUZZSRV") + b"\x01" +
                         nstr(b"NET_ADDRESS")),
    "scan_property": sub(0x17, 0x3C, b"\x00\x04" + nstr(b"FUZZSRV") +
                         b"\xff\xff\xff\xff" + nstr(b"*")),
    "desc_strings": sub(0x17, 0xC9),
    "volume_purge": sub(0x16, 0x2C, b"\x00"),
    "alloc_dh": sub(0x16, 0x12, b"\x00Z" + nstr(b"SYS:")),
    "dir_path": sub(0x16, 0x01, b"\x01"),
    "scan_dir": sub(0x16, 0x02, b"\x01\x00\x00" + nstr(b"*")),
    "mkdir": sub(0x16, 0x0A, b"\x01\xff" + nstr(b"D")),
    "rmdir": sub(0x16, 0x0B, b"\x01\x00" + nstr(b"D")),
    "rendir": sub(0x16, 0x0F, b"\x01" + nstr(b"D") + nstr(b"E")),
    "volinfo": req(0x12, b"\x00"),
    "datetime": req(0x14),
    "search_init": req(0x3E, b"\x01" + nstr(b"")),
    "search_next": req(0x3F, b"\x00\x00\x01\xff\xff\x16" + nstr(b"*.*")),
    "search_file": req(0x40, b"\xff\xff\x01\x06" + nstr(b"*.*")),
    "create_file": req(0x43, b"\x01\x00" + nstr(b"A.TXT")),
    "create_new": req(0x4D, b"\x01\x00" + nstr(b"B.TXT")),
    "open": req(0x4C, b"\x01\x06\x03" + nstr(b"A.TXT")),
    "open_create": req(0x54, b"\x01\x00\x03\x11" + nstr(b"C.TXT")),
    "open_deny_write": req(0x54, b"\x01\x00\x0b\x12" + nstr(b"C.TXT")),
    "open_exclusive": req(0x4C, b"\x01\x06\x0f" + nstr(b"A.TXT")),
    "open_trailing": req(0x4C, b"\x01\x06\x01" + nstr(b"A.TXT\\")),
    "rename_login": sub(0x16, 0x0F, b"\x01" + nstr(b"LOGIN") + nstr(b"X")),
    # Trustee calls (0x16 0x0C/0x0D/0x0E/0x27/0x2A); GUEST (ID 0x10001)
    # has RWCEMFA in SYS: by the harness's store.
    "trustee_scan": sub(0x16, 0x0C, b"\x01\x00" + nstr(b"")),
    "trustee_scan_set9": sub(0x16, 0x0C, b"\x01\x09" + nstr(b"SYS:")),
    "trustee_add": sub(0x16, 0x0D, b"\x01\x00\x01\x00\x01\x41" + nstr(b"")),
    "trustee_add_sup": sub(0x16, 0x27, b"\x01\x00\x01\x00\x01\xfb\x01" + nstr(b"")),
    "trustee_add_nobody": sub(0x16, 0x0D, b"\x01\x00\x00\x77\x77\x01" + nstr(b"")),
    "trustee_del": sub(0x16, 0x0E, b"\x01\x00\x01\x00\x01\x00" + nstr(b"")),
    "trustee_short": sub(0x16, 0x0D, b"\x01\x00\x01"),
    "rights_word": sub(0x16, 0x2A, b"\x01" + nstr(b"SYS:")),
    "rights_word_file": sub(0x16, 0x2A, b"\x01" + nstr(b"A.TXT")),
    "open_link": req(0x4C, b"\x01\x06\x01" + nstr(b"LINK\\SECRET.TXT")),
    "dotdot": req(0x4C, b"\x01\x06\x01" + nstr(b"..\\outside\\SECRET.TXT")),
    "read": req(0x48, b"\x00" + HANDLE + b"\x00\x00\x00\x01\x00\x10"),
    "write": req(0x49, b"\x00" + HANDLE + b"\x00\x00\x00\x00\x00\x03abc"),
    "truncate": req(0x49, b"\x00" + HANDLE + b"\x00\x00\x00\x00\x00\x00"),
    "size": req(0x47, b"\x00" + HANDLE),
    "close": req(0x42, b"\x00" + HANDLE),
    "commit": req(0x3D, b"\x00" + HANDLE),
    "erase": req(0x44, b"\x01\x06" + nstr(b"*.TXT")),
    "rename": req(0x45, b"\x01\x06" + nstr(b"A.TXT") + b"\x01" + nstr(b"Z.TXT")),
    "setattr": req(0x46, b"\x01\x01\x06" + nstr(b"A.TXT")),
    "lock": req(0x1A, b"\x01" + HANDLE + b"\x00\x00\x00\x00\x00\x00\x00\x10\x00\x12"),
    "lock_set": req(0x1B, b"\x01\x00\x12"),
    "release": req(0x1C, b"\x00" + HANDLE + b"\x00\x00\x00\x00\x00\x00\x00\x10"),
    "clear": req(0x1E, b"\x00" + HANDLE + b"\x00\x00\x00\x00\x00\x00\x00\x10"),
    "clear_set": req(0x1F, b"\x00"),
    "negotiate": req(0x21, b"\x04\x00"),
    "big_packet": req(0x61, b"\x05\x00\x00"),
    "end_of_job": req(0x18),
    "logout": req(0x19),
    "unknown": req(0x99),
}


# NCP 0x57, the name-space calls (fn_ns.c): little-endian numbers, a
# handle path (volume, base, style, count, components).
def hp(*comps, vol=0, base=0, style=0xFF):
    return struct.pack("<BIBB", vol, base, style, len(comps)) + b"".join(
        nstr(c) for c in comps)


LONG = b"Long Name.txt"
SERVER.update({
    "ns_loaded": req(0x57, b"\x18\x00\x00\x00"),
    "ns_volume": req(0x57, b"\x16\x00\x00\x00\x00" + hp(b"SYS")),
    "ns_info": req(0x57, b"\x06\x04\x00" + struct.pack("<HI", 0x8006, 0xFFF) +
                   hp(b"SYS", LONG)),
    "ns_info_base": req(0x57, b"\x06\x00\x04" + struct.pack("<HI", 0x8006, 0xFFF) +
                        hp(base=0, style=1)),
    "ns_create": req(0x57, b"\x01\x04\x0b" + struct.pack("<HIIH", 0x8006, 0xFFF, 0, 3) +
                     hp(b"SYS", LONG)),
    "ns_mkdir": req(0x57, b"\x01\x04\x08" + struct.pack("<HIIH", 0x8006, 0xFFF, 0x10, 0) +
                    hp(b"SYS", b"New Folder")),
    "ns_init_search": req(0x57, b"\x02\x04\x00" + hp(b"SYS")),
    "ns_search": req(0x57, b"\x03\x04\x00" + struct.pack("<HIBII", 0x8006, 0xFFF, 0, 0,
                                                              0xFFFFFFFF) + nstr(b"\xff*")),
    "ns_search_set": req(0x57, b"\x14\x04\x00" + struct.pack("<HIHBII", 0x8006, 0xFFF,
                                                                  32767, 0, 0, 0xFFFFFFFF) +
                         nstr(b"\xff*")),
    "ns_rename": req(0x57, b"\x04\x04\x01" + struct.pack("<H", 0x8006) +
                     hp(b"SYS", LONG)[:7] + hp(b"SYS", b"Other Name")[:7] +
                     nstr(b"SYS") + nstr(LONG) + nstr(b"SYS") + nstr(b"Other Name")),
    "ns_modify": req(0x57, b"\x07\x04\x00" + struct.pack("<HI", 0x8006, 0x302) +
                     b"\x01" + b"\x00" * 37 + hp(b"SYS", LONG)),
    "ns_delete": req(0x57, b"\x08\x04\x00" + struct.pack("<H", 0x8006) + hp(b"SYS", LONG)),
    "ns_short_handle": req(0x57, b"\x0c\x04\x00\x00\x00" + hp(b"SYS", b"LOGIN")),
    "ns_full_path": req(0x57, b"\x1c\x04\x04" + struct.pack("<HII", 0, 0xFFFFFFFF,
                                                             0xFFFFFFFF) +
                        hp(b"SYS", b"LOGIN", b"")),
    "ns_rights": req(0x57, b"\x1d\x00\x00" + struct.pack("<HI", 0x8006, 0) + hp(b"SYS")),
    "ns_dotdot": req(0x57, b"\x06\x04\x04" + struct.pack("<HI", 0x8006, 0xFFF) +
                     hp(b"SYS", b"", b"outside", b"SECRET.TXT")),
    "ns_dotdot_inside": req(0x57, b"\x06\x04\x04" + struct.pack("<HI", 0x8006, 0xFFF) +
                            hp(b"SYS:..\\outside\\SECRET.TXT")),
    "ns_link": req(0x57, b"\x01\x04\x0b" + struct.pack("<HIIH", 0x8006, 0xFFF, 0, 3) +
                   hp(b"SYS", b"LINK", b"SECRET.TXT")),
    "ns_handle": req(0x57, b"\x06\x04\x04" + struct.pack("<HI", 0x8006, 0xFFF) +
                     hp(b"a b", base=1, style=0)),
    "ns_bad_space": req(0x57, b"\x06\x02\x00" + struct.pack("<HI", 0x8006, 0xFFF) +
                        hp(b"SYS")),
})

HDR = struct.pack(">HBBBBBB", 0x3333, 0, 3, 0, 0, 0, 0)
ENTRY = b"A.TXT".ljust(14, b"\0") + b"\x20\x00" + struct.pack(">IHHHH", 5, 1, 1, 1, 1)
DIRENT = b"SUB".ljust(14, b"\0") + b"\x10\xff" + struct.pack(">HHIHH", 1, 1, 1, 0, 0xD1D1)
CLIENT = {
    "read_even": b"\x01\x00" + HDR + b"\x00\x03abc",
    "rights_word": b"\x01\x0e" + HDR + b"\xfb\x01",
    "rights_short": b"\x01\x0e" + HDR + b"\xfb",
    "trustees": b"\x01\x0f" + HDR + b"A".ljust(16, b"\0") + b"\x00\x01\x00\x01"
                + b"\x00\x00\x00\x01" + b"\x00\x01\x00\x02" + b"\x00" * 16
                + b"\x41\x00\x00\x00\x00",
    "trustees_short": b"\x01\x0f" + HDR + b"A" * 20,
    "user_name": b"\x01\x10" + HDR + b"\x00\x00\x00\x05\x00\x01"
                 + b"ALICE".ljust(48, b"\0") + b"\x00\x31\x00",
    "read_odd": b"\x01\x01" + HDR + b"\x00\x03\x00abc",
    "read_overlong": b"\x01\x00" + HDR + b"\xff\xff",
    "list_file": b"\x01\x02" + HDR + b"\x00\x00\x00\x01\xff\xff" ,
    "list_entry": b"\x01\x02" + HDR + b"\x00\x00\x00\x01" + ENTRY,
    "list_dir": b"\x01\x02" + HDR + b"\x00\x00\x00\x01" + DIRENT,
    "stat": b"\x01\x03" + HDR + b"\x00\x00\x00\x01" + ENTRY,
    "whoami": b"\x01\x04" + HDR + b"\x01",
    "info": b"\x01\x05" + HDR + b"SRV".ljust(48, b"\0") + b"\x03\x0c" + b"\x00" * 80,
    "negotiate": b"\x01\x06" + HDR + b"\x04\x00\x04\x51\x00",
    "open": b"\x01\x07" + HDR + HANDLE + b"\x00\x00" + ENTRY,
    "size": b"\x01\x08" + HDR + b"\x00\x00\x10\x00",
    "busy": b"\x03\x09" + HDR + b"\x7e\x01\x02\x03\x04\x05\x06",
    "bad_conn": b"\x00\x09" + struct.pack(">HBBBBBB", 0x3333, 1, 3, 1, 0, 0, 1),
    "watchdog": b"\x04\x09" + b"\x03?",
    "login_key": b"\x01\x0a" + HDR + b"\x01\x23\x45\x67\x89\xab\xcd\xef",
    "get_message": b"\x01\x0b" + HDR + nstr(b"hello"),
    "get_message_long": b"\x01\x0b" + HDR + b"\xff" + b"m" * 20,
    "conn_list": b"\x01\x0c" + HDR + b"\x02\x01\x03",
    "send_message": b"\x01\x0d" + HDR + b"\x02\x00\x00\x00\x00\x00\xfd\x00\x00\x00",
}

# Long names (flag 8): NetWare's 76-byte info structure, then the name.
INFO = (struct.pack("<IIHIIH", 7, 0x20, 0x20, 7, 7, 0) + b"\x00" * 26 +
        struct.pack("<HIII", 0xFF, 5, 5, 0) + b"\x00" * 12 +
        struct.pack("<I", 4) + nstr(b"Long Name.txt"))
CLIENT.update({
    "long_list_init": b"\x09\x02" + HDR + b"\x00\x05\x00\x00\x00\xff\xff\xff\xff",
    "long_list_entry": b"\x09\x02" + HDR + b"\x00\x05\x00\x00\x00\x00\x00\x00\x00\x00" +
                       INFO,
    "long_stat": b"\x09\x03" + HDR + INFO,
    "long_open": b"\x09\x07" + HDR + b"\x01\x00\x00\x00\x01\x00" + INFO,
    "long_short_name": b"\x09\x03" + HDR + INFO[:76] + b"\xff",
})


def write(name, seeds):
    d = os.path.join(CORPUS, name)
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    for k, v in seeds.items():
        with open(os.path.join(d, k), "wb") as f:
            f.write(v)


write("ncp_server", {k: b"\x01" + v for k, v in SERVER.items()})
# The --rights store (fuzz_ncp_rights.c: users ALICE and BOB, volumes SYS
# and a read-only DATA): valid files and each of the parser's errors.
write("ncp_rights", {
    "valid": b"# store\nSYS: ALICE RF\nSYS:PUB\\DOCS bob RWCEMF\n"
             b"DATA:X ALICE S\nsys:/a/b ALICE -\n",
    "empty": b"",
    "comments": b"# only\n\n   \t\n# more\n",
    "no_newline": b"SYS: ALICE SRWCEMFA",
    "crlf": b"SYS: ALICE RF\r\nSYS:A BOB R # why\r\n",
    "err_user": b"SYS: ALICE R\nSYS: NOBODY R\n",
    "err_letter": b"SYS: ALICE RQ\n",
    "err_volume": b"VOL1:X ALICE R\n",
    "err_no_colon": b"SYS ALICE R\n",
    "err_dup": b"SYS:A ALICE R\nsys:a alice W\n",
    "err_fields": b"SYS: ALICE\n",
    "err_more": b"SYS: ALICE R F\n",
    "err_name": b"SYS:LONGNAME123 ALICE R\n",
    "err_deep": b"SYS:" + b"\\D" * 17 + b" ALICE R\n",
    "err_nul": b"SYS: ALICE R\x00 x\n",
    "err_long": b"SYS: ALICE R" + b" " * 1100 + b"\n",
    "err_empty_rights": b"SYS: ALICE \n",
})
write("ncp_client", CLIENT)
