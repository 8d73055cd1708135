#!/usr/bin/env python3
"""chromium_report.py - load a page in headless Chromium over its DevTools
protocol (the Python standard library only: a minimal WebSocket client)
and report what a person would see go wrong: console messages and errors
(failed loads included), every <img> with its natural size, every table's
caption, body rows and the columns with no figure in any row; a screenshot of the whole page is saved.

usage: chromium_report.py CHROMIUM PAGE.html SCREENSHOT.png > report.json
Prints one JSON object: {"console": [...], "images": [...], "tables":
[...], "title": ...}. Exit 1 when the browser cannot be driven.
"""
import base64
import json
import os
import shutil
import socket
import struct
import subprocess
import sys
import tempfile
import time
import urllib.parse
import urllib.request

TIMEOUT = 30.0


class WebSocket:
    """Just enough of RFC 6455 for DevTools: text frames, masked out."""

    def __init__(self, url):
        u = urllib.parse.urlparse(url)
        self.sock = socket.create_connection((u.hostname, u.port), TIMEOUT)
        key = base64.b64encode(os.urandom(16)).decode()
        req = ("GET %s HTTP/1.1\r\nHost: %s:%d\r\nUpgrade: websocket\r\n"
               "Connection: Upgrade\r\nSec-WebSocket-Key: %s\r\n"
               "Sec-WebSocket-Version: 13\r\n\r\n" %
               (u.path, u.hostname, u.port, key))
        self.sock.sendall(req.encode())
        head = b""
        while b"\r\n\r\n" not in head:
            chunk = self.sock.recv(1)
            if not chunk:
                raise OSError("websocket handshake: connection closed")
            head += chunk
        if b" 101 " not in head.split(b"\r\n")[0]:
            raise OSError("websocket handshake refused: %r" % head[:80])
        self.buf = b""

    def send(self, text):
        data = text.encode()
        hdr = bytearray([0x81])
        n = len(data)
        if n < 126:
            hdr.append(0x80 | n)
        elif n < 65536:
            hdr.append(0x80 | 126)
            hdr += struct.pack(">H", n)
        else:
            hdr.append(0x80 | 127)
            hdr += struct.pack(">Q", n)
        mask = os.urandom(4)
        hdr += mask
        body = bytes(b ^ mask[i % 4] for i, b in enumerate(data))
        self.sock.sendall(bytes(hdr) + body)

    def _read(self, n):
        while len(self.buf) < n:
            chunk = self.sock.recv(1 << 16)
            if not chunk:
                raise OSError("websocket closed")
            self.buf += chunk
        out, self.buf = self.buf[:n], self.buf[n:]
        return out

    def recv(self):
        msg = b""
        while True:
            b0, b1 = self._read(2)
            n = b1 & 0x7F
            if n == 126:
                n = struct.unpack(">H", self._read(2))[0]
            elif n == 127:
                n = struct.unpack(">Q", self._read(8))[0]
            data = self._read(n)
            op = b0 & 0x0F
            if op == 8:
                raise OSError("websocket closed by the browser")
            if op in (0, 1, 2):
                msg += data
                if b0 & 0x80:
                    return msg.decode()


class Page:
    def __init__(self, ws):
        self.ws, self.next_id, self.events = ws, 0, []

    def call(self, method, **params):
        self.next_id += 1
        mid = self.next_id
        self.ws.send(json.dumps({"id": mid, "method": method,
                                 "params": params}))
        while True:
            m = json.loads(self.ws.recv())
            if m.get("id") == mid:
                if "error" in m:
                    raise OSError("%s: %s" % (method, m["error"]))
                return m.get("result", {})
            self.events.append(m)

    def wait_event(self, name, deadline):
        while time.time() < deadline:
            for i, m in enumerate(self.events):
                if m.get("method") == name:
                    return self.events.pop(i)
            self.events.append(json.loads(self.ws.recv()))
        raise OSError("no %s within %.0f s" % (name, TIMEOUT))


PROBE = """JSON.stringify({
 title: document.title,
 images: Array.from(document.images).map(i => ({src: i.getAttribute('src'),
   complete: i.complete, width: i.naturalWidth, height: i.naturalHeight})),
 tables: Array.from(document.querySelectorAll('table.result')).map(t => ({
   caption: t.caption ? t.caption.textContent : '',
   section: t.closest('section') ? t.closest('section').id : '',
   columns: t.tHead ? t.tHead.rows[0].cells.length : 0,
   rows: t.tBodies.length ? t.tBodies[0].rows.length : 0,
   empty: t.tHead ? Array.from(t.tHead.rows[0].cells).map((h, c) =>
     Array.from(t.tBodies[0].rows).every(r => r.cells[c].textContent === '-')
     ? h.textContent : null).filter(x => x) : []})),
 height: document.documentElement.scrollHeight
})"""


def console_of(events):
    out = []
    for m in events:
        meth, p = m.get("method"), m.get("params", {})
        if meth == "Runtime.consoleAPICalled":
            out.append({"level": p.get("type"), "text": " ".join(
                str(a.get("value", a.get("description", "")))
                for a in p.get("args", []))})
        elif meth == "Runtime.exceptionThrown":
            d = p.get("exceptionDetails", {})
            out.append({"level": "exception", "text": d.get("text", "")})
        elif meth == "Log.entryAdded":
            e = p.get("entry", {})
            out.append({"level": e.get("level"), "text": e.get("text"),
                        "url": e.get("url", "")})
    return out


def devtools_port(profile, proc):
    path = os.path.join(profile, "DevToolsActivePort")
    deadline = time.time() + TIMEOUT
    while time.time() < deadline:
        if proc.poll() is not None:
            raise OSError("chromium exited (%d) before it listened" %
                          proc.returncode)
        try:
            with open(path) as f:
                return int(f.readline())
        except (OSError, ValueError):
            time.sleep(0.1)
    raise OSError("chromium opened no DevTools port")


def run(chromium, page, shot):
    profile = tempfile.mkdtemp(prefix="ipxlab-chromium-")
    proc = subprocess.Popen(
        [chromium, "--headless", "--disable-gpu", "--no-sandbox",
         "--no-first-run", "--no-default-browser-check",
         "--disable-extensions", "--disable-background-networking",
         "--remote-debugging-port=0", "--remote-allow-origins=*",
         "--user-data-dir=" + profile, "--window-size=1200,900",
         "about:blank"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        port = devtools_port(profile, proc)
        with urllib.request.urlopen("http://127.0.0.1:%d/json/list" % port,
                                    timeout=TIMEOUT) as r:
            targets = [t for t in json.load(r) if t.get("type") == "page"]
        p = Page(WebSocket(targets[0]["webSocketDebuggerUrl"]))
        for domain in ("Page", "Runtime", "Log"):
            p.call(domain + ".enable")
        url = "file://" + os.path.abspath(page)
        p.call("Page.navigate", url=url)
        p.wait_event("Page.loadEventFired", time.time() + TIMEOUT)
        time.sleep(0.3)  # late console messages
        res = p.call("Runtime.evaluate", expression=PROBE,
                     returnByValue=True)
        report = json.loads(res["result"]["value"])
        p.call("Emulation.setDeviceMetricsOverride", width=1200,
               height=min(int(report["height"]), 16000),
               deviceScaleFactor=1, mobile=False)
        img = p.call("Page.captureScreenshot", format="png")
        with open(shot, "wb") as f:
            f.write(base64.b64decode(img["data"]))
        p.call("Runtime.evaluate", expression="0")  # drain events
        report["console"] = console_of(p.events)
        report["url"] = url
        return report
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        shutil.rmtree(profile, ignore_errors=True)


def main():
    if len(sys.argv) != 4:
        sys.exit("usage: chromium_report.py CHROMIUM PAGE.html SHOT.png")
    try:
        print(json.dumps(run(*sys.argv[1:]), indent=1))
    except (OSError, KeyError, IndexError, ValueError) as e:
        print("chromium_report: %s" % e, file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
