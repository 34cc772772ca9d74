"""Real mail servers for the judge's tests, on loopback ports: Dovecot (IMAP over TLS, with a
self-signed certificate made here) and aiosmtpd (SMTP, from tests/test_mail.py).

Dovecot comes from the OS packages (dovecot-imapd), installed by the first test that needs it
(tests/system.py). If it cannot be installed or does not start, the test fails and says why: it is
never skipped.
"""

from __future__ import annotations

import imaplib
import os
import pwd
import shutil
import socket
import ssl
import subprocess
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from reliability_kit import Inbox, smtp_server  # noqa: F401  (the SMTP side, for the tests' fixtures)
from system import DOVECOT, OPENSSL, need
from test_mail import free_port

PASSWORD = "imap pass 1"
USER = "spies"
START_SECONDS = 180
"""A time-out against a hang only: Dovecot's first start on a loaded machine can take many seconds."""


@dataclass
class Imap:
    port: int
    cafile: str
    folder: Path

    @property
    def url(self) -> str:
        return f"imaps://{USER}@127.0.0.1:{self.port}/INBOX"

    def client(self) -> imaplib.IMAP4_SSL:
        server = imaplib.IMAP4_SSL("127.0.0.1", self.port, ssl_context=ssl.create_default_context(cafile=self.cafile), timeout=30)
        server.login(USER, PASSWORD)
        return server

    def deliver(self, raw: bytes) -> None:
        """Put a message into the mailbox as a mail server would: unseen."""
        with self.client() as server:
            status, data = server.append("INBOX", "", None, raw)
            assert status == "OK", data

    def flag_all(self, change: str) -> None:
        """`+FLAGS (\\Deleted)` and expunge, or `-FLAGS (\\Seen)`: as another mail client might."""
        with self.client() as server:
            _, [count] = server.select("INBOX")
            if int(count):
                server.store("1:*", *change.split(" ", 1))
                server.expunge()

    def empty(self) -> None:
        self.flag_all("+FLAGS (\\Deleted)")

    def all_unseen(self) -> None:
        self.flag_all("-FLAGS (\\Seen)")

    def read_all(self) -> None:
        """The GM opens the mailbox in a mail client: every message is marked seen."""
        self.flag_all("+FLAGS (\\Seen)")

    def seen(self) -> int:
        with self.client() as server:
            server.select("INBOX")
            _, [found] = server.uid("SEARCH", None, "SEEN")
            return len(found.split())

    def unseen(self) -> int:
        with self.client() as server:
            server.select("INBOX")
            _, [found] = server.uid("SEARCH", None, "UNSEEN")
            return len(found.split())


def _certificate(folder: Path) -> tuple[Path, Path]:
    cert, key = folder / "cert.pem", folder / "key.pem"
    made = subprocess.run(
        [OPENSSL, "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", str(key), "-out", str(cert), "-days", "2",
         "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1"],
        capture_output=True, text=True,
    )
    assert made.returncode == 0, f"openssl could not make the test certificate: {made.stderr}"
    return cert, key


@contextmanager
def dovecot() -> Iterator[Imap]:
    need(DOVECOT)
    need(OPENSSL)
    # Dovecot's own processes (users dovecot and dovenull) must reach this folder: not under pytest's 0700 one.
    folder = Path(tempfile.mkdtemp(prefix="pbem-dovecot-"))
    os.chmod(folder, 0o755)
    mail_user = pwd.getpwnam("dovecot")
    home = folder / "home"
    home.mkdir()
    os.chown(home, mail_user.pw_uid, mail_user.pw_gid)
    cert, key = _certificate(folder)
    (folder / "users").write_text(f"{USER}:{{PLAIN}}{PASSWORD}\n")
    port = free_port()
    config = folder / "dovecot.conf"
    config.write_text(f"""
protocols = imap
listen = 127.0.0.1
base_dir = {folder}/run
state_dir = {folder}/state
log_path = {folder}/dovecot.log
ssl = required
ssl_cert = <{cert}
ssl_key = <{key}
auth_mechanisms = plain
first_valid_uid = {mail_user.pw_uid}
passdb {{
  driver = passwd-file
  args = scheme=PLAIN username_format=%u {folder}/users
}}
userdb {{
  driver = static
  args = uid={mail_user.pw_uid} gid={mail_user.pw_gid} home={home}/%u
}}
mail_location = maildir:~/Maildir
service imap-login {{
  inet_listener imap {{
    port = 0
  }}
  inet_listener imaps {{
    port = {port}
    ssl = yes
  }}
}}
service stats {{
  unix_listener stats-writer {{
    mode = 0666
  }}
}}
""")
    process = subprocess.Popen([DOVECOT, "-F", "-c", str(config)], stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + START_SECONDS
        while True:
            if process.poll() is not None:
                log = (folder / "dovecot.log").read_text() if (folder / "dovecot.log").exists() else ""
                raise AssertionError(f"Dovecot did not start (exit {process.returncode}): {process.stdout.read().decode()} {log}")  # type: ignore[union-attr]
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=1):
                    break
            except OSError:
                if time.monotonic() > deadline:
                    raise AssertionError(f"Dovecot did not listen on 127.0.0.1:{port} within {START_SECONDS} s") from None
                time.sleep(0.1)
        yield Imap(port, str(cert), home / USER / "Maildir")
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        shutil.rmtree(folder, ignore_errors=True)

