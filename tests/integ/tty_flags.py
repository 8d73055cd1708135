#!/usr/bin/env python3
# tty_flags.py IPXLAB HUB ADDR - runs `IPXLAB send ADDR --hub HUB` with a
# pseudo-terminal as stdin, types a line and ^D, and prints whether the
# terminal's open file is left non-blocking after the command exits (the
# shell shares it: a left-over O_NONBLOCK breaks the shell's next read).
import fcntl
import os
import pty
import subprocess
import sys
import time

ipxlab, hub, addr = sys.argv[1:4]
master, slave = pty.openpty()
p = subprocess.Popen([ipxlab, "send", addr, "--hub", hub], stdin=slave,
                     stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
time.sleep(0.5)
os.write(master, b"typed line\n\x04")
try:
    p.wait(timeout=10)
except subprocess.TimeoutExpired:
    p.kill()
    print("send did not end")
    sys.exit(1)
nonblock = bool(fcntl.fcntl(slave, fcntl.F_GETFL) & os.O_NONBLOCK)
print(f"rc={p.returncode} nonblock={'yes' if nonblock else 'no'}")
