"""Headless Chromium driven through its DevTools protocol, for the archive's browser tests.

Debian's chromium (installed by the first test that needs it: tests/system.py) is started with a fresh
profile, no network of its own (every host name resolves to nothing, so neither the page
nor the browser's background services reach outside) and a DevTools port on 127.0.0.1.
The protocol's WebSocket is spoken here with the standard library: one page, one
connection, commands answered in order. For each page it records what a user would
suffer: console errors, failed loads, and every request whose URL is outside the site.
"""

from __future__ import annotations

import base64
import json
import os
import re
import shutil
import socket
import struct
import subprocess
import tempfile
import time
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import system

CHROMIUM = os.environ.get("PBEM_CHROMIUM", system.CHROMIUM)
FLAGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
    "--host-resolver-rules=MAP * ~NOTFOUND", "--hide-scrollbars", "--remote-debugging-port=0",
    "--remote-debugging-address=127.0.0.1", "--remote-allow-origins=*",
]
STARTUP_SECONDS = 180
PAGE_SECONDS = 120
"""Time-outs against a hang only, generous for a loaded machine: every wait ends on its event."""


class ChromiumMissing(RuntimeError):
    pass


@dataclass
class PageVisit:
    url: str
    loaded: bool = False
    errors: list[str] = field(default_factory=list)
    requests: list[str] = field(default_factory=list)


class _Socket:
    """The client side of a WebSocket (RFC 6455): masked text frames out, frames in."""

    def __init__(self, url: str) -> None:
        rest = url.removeprefix("ws://")
        host_port, _, path = rest.partition("/")
        host, _, port = host_port.partition(":")
        self.sock = socket.create_connection((host, int(port)), timeout=PAGE_SECONDS)
        key = base64.b64encode(os.urandom(16)).decode()
        self.sock.sendall(
            f"GET /{path} HTTP/1.1\r\nHost: {host_port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n".encode()
        )
        reply = b""
        while b"\r\n\r\n" not in reply:
            chunk = self.sock.recv(4096)
            if not chunk:
                raise ConnectionError("DevTools closed the connection during the handshake")
            reply += chunk
        if b" 101 " not in reply.split(b"\r\n", 1)[0]:
            raise ConnectionError(f"DevTools refused the WebSocket: {reply[:200]!r}")
        self.buffer = reply.split(b"\r\n\r\n", 1)[1]

    def send(self, text: str) -> None:
        data = text.encode()
        mask = os.urandom(4)
        size = len(data)
        head = struct.pack("!B", 0x81)
        if size < 126:
            head += struct.pack("!B", 0x80 | size)
        elif size < 65536:
            head += struct.pack("!BH", 0x80 | 126, size)
        else:
            head += struct.pack("!BQ", 0x80 | 127, size)
        self.sock.sendall(head + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(data)))

    def _read(self, count: int) -> bytes:
        while len(self.buffer) < count:
            chunk = self.sock.recv(65536)
            if not chunk:
                raise ConnectionError("DevTools closed the connection")
            self.buffer += chunk
        data, self.buffer = self.buffer[:count], self.buffer[count:]
        return data

    def receive(self) -> str:
        message = b""
        while True:
            first, second = self._read(2)
            size = second & 0x7F
            if size == 126:
                size = struct.unpack("!H", self._read(2))[0]
            elif size == 127:
                size = struct.unpack("!Q", self._read(8))[0]
            payload = self._read(size)
            if first & 0x0F in (0x1, 0x0, 0x2):
                message += payload
                if first & 0x80:
                    return message.decode()

    def close(self) -> None:
        self.sock.close()


class Browser:
    """One headless Chromium with one page; `visit(url)` loads a page and reports on it."""

    def __init__(self) -> None:
        if CHROMIUM == system.CHROMIUM:
            system.need(CHROMIUM)  # Debian's chromium, installed by the first browser test of a fresh machine
        if not Path(CHROMIUM).is_file():
            raise ChromiumMissing(f"{CHROMIUM} (PBEM_CHROMIUM) is not a file: the browser tests need a Chromium")
        self.profile = Path(tempfile.mkdtemp(prefix="pbem-chromium-"))
        self.process = subprocess.Popen(
            [CHROMIUM, *FLAGS, f"--user-data-dir={self.profile}", "about:blank"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )
        port_file = self.profile / "DevToolsActivePort"
        deadline = time.monotonic() + STARTUP_SECONDS
        # The file holds "PORT\nPATH": once its first line is ended, the port is whole (not "12" of "1234").
        while not port_file.is_file() or "\n" not in port_file.read_text():
            if self.process.poll() is not None or time.monotonic() > deadline:
                self.close()
                raise ChromiumMissing(f"{CHROMIUM} did not start its DevTools port within {STARTUP_SECONDS}s")
            time.sleep(0.05)
        port = int(port_file.read_text().split()[0])
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/json/list", timeout=PAGE_SECONDS) as reply:
            page = next(t for t in json.load(reply) if t["type"] == "page")
        self.ws = _Socket(page["webSocketDebuggerUrl"])
        self.next_id = 0
        self.events: list[dict[str, Any]] = []
        for domain in ("Page", "Runtime", "Log", "Network"):
            self.call(f"{domain}.enable")

    def call(self, method: str, **params: Any) -> dict[str, Any]:
        self.next_id += 1
        self.ws.send(json.dumps({"id": self.next_id, "method": method, "params": params}))
        while True:
            message = json.loads(self.ws.receive())
            if message.get("id") == self.next_id:
                if "error" in message:
                    raise RuntimeError(f"{method}: {message['error']}")
                return message.get("result", {})
            self.events.append(message)

    def _wait_for(self, method: str) -> bool:
        deadline = time.monotonic() + PAGE_SECONDS
        while time.monotonic() < deadline:
            if any(e.get("method") == method for e in self.events):
                return True
            self.events.append(json.loads(self.ws.receive()))
        return False

    def visit(self, url: str, inside: str) -> PageVisit:
        """Load `url`; requests to anything not starting with `inside` are outside the site."""
        self.events = []
        visit = PageVisit(url)
        self.call("Page.navigate", url=url)
        visit.loaded = self._wait_for("Page.loadEventFired")
        self.call("Runtime.evaluate", expression="document.readyState")  # flushes the events the load caused
        for event in self.events:
            method, params = event.get("method"), event.get("params", {})
            if method == "Runtime.consoleAPICalled" and params.get("type") in ("error", "assert", "warning"):
                visit.errors.append(" ".join(str(a.get("value", a.get("description", ""))) for a in params.get("args", [])))
            elif method == "Runtime.exceptionThrown":
                visit.errors.append(params["exceptionDetails"].get("text", "exception"))
            elif method == "Log.entryAdded" and params["entry"]["level"] in ("error", "warning"):
                visit.errors.append(params["entry"]["text"])
            elif method == "Network.loadingFailed":
                visit.errors.append(f"failed to load: {params.get('errorText')}")
            elif method == "Network.requestWillBeSent":
                target = params["request"]["url"]
                if not (target.startswith(inside) or target.startswith("data:")):
                    visit.requests.append(target)
        return visit

    def screenshot(self, url: str, path: Path, width: int, height: int) -> None:
        self.call("Emulation.setDeviceMetricsOverride", width=width, height=height, deviceScaleFactor=1, mobile=False)
        self.events = []
        self.call("Page.navigate", url=url)
        self._wait_for("Page.loadEventFired")
        shot = self.call("Page.captureScreenshot", format="png", clip={"x": 0, "y": 0, "width": width, "height": height, "scale": 1})
        path.write_bytes(base64.b64decode(shot["data"]))
        self.call("Emulation.clearDeviceMetricsOverride")

    def photograph(self, picture: Path, target: Path, max_height: int = 900) -> None:
        """A PNG of an SVG file at its own width (and its height, up to `max_height`)."""
        width, height = map(int, re.search(r'width="(\d+)" height="(\d+)"', picture.read_text()[:400]).groups())  # type: ignore[union-attr]
        self.screenshot(picture.as_uri(), target, width, min(height, max_height))

    def close(self) -> None:
        if getattr(self, "ws", None):
            self.ws.close()
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        shutil.rmtree(self.profile, ignore_errors=True)
