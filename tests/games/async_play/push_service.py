"""A push service on this machine, standing in for the browsers' (Google's, Mozilla's,
Apple's) in the Web Push tests: an HTTPS server on 127.0.0.1 (a certificate for
``localhost`` made here, trusted through ``REQUESTS_CA_BUNDLE``) that records every
POST and answers with the status chosen per path.  And a "browser": a P-256 key pair
and an auth secret, as ``PushManager.subscribe`` makes them, to decrypt what arrives.
"""

from __future__ import annotations

import base64
import datetime
import json
import os
import ssl
import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import http_ece
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID

from tests.ports import bind_first


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def b64url_decode(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


@dataclass
class Received:
    path: str
    headers: dict[str, str]  # names in lower case
    body: bytes


@dataclass
class PushService:
    port: int
    received: list[Received] = field(default_factory=list)
    answers: dict[str, int] = field(default_factory=dict)  # path -> status (default 201)

    @property
    def origin(self) -> str:
        return f"https://localhost:{self.port}"

    def endpoint(self, name: str) -> str:
        return f"{self.origin}/push/{name}"


class Browser:
    """The keys of one subscribed browser (``subscription.toJSON()``)."""

    def __init__(self, endpoint: str) -> None:
        self.key = ec.generate_private_key(ec.SECP256R1())
        self.auth = os.urandom(16)
        self.endpoint = endpoint

    def subscription(self) -> dict:
        public = self.key.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
        )
        return {
            "endpoint": self.endpoint,
            "expirationTime": None,
            "keys": {"p256dh": b64url(public), "auth": b64url(self.auth)},
        }

    def decrypt(self, body: bytes) -> dict:
        """What the service worker's ``event.data.json()`` would read."""
        plain = http_ece.decrypt(
            body, private_key=self.key, auth_secret=self.auth, version="aes128gcm"
        )
        return json.loads(plain)


def _certificate(folder: Path) -> tuple[Path, Path]:
    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "localhost")])
    now = datetime.datetime.now(datetime.UTC)
    cert = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(minutes=5))
        .not_valid_after(now + datetime.timedelta(days=1))
        .add_extension(x509.SubjectAlternativeName([x509.DNSName("localhost")]), critical=False)
        .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
        .sign(key, hashes.SHA256())
    )
    cert_path, key_path = folder / "push-service.pem", folder / "push-service.key"
    cert_path.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    key_path.write_bytes(
        key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        )
    )
    return cert_path, key_path


def start(folder: Path) -> tuple[PushService, ThreadingHTTPServer, Path]:
    """The service, its server (``shutdown()`` it) and the certificate to trust."""
    cert_path, key_path = _certificate(folder)
    service = PushService(port=0)

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:  # noqa: N802 (http.server's name)
            length = int(self.headers.get("Content-Length") or 0)
            body = self.rfile.read(length)
            service.received.append(
                Received(
                    path=self.path,
                    headers={k.lower(): v for k, v in self.headers.items()},
                    body=body,
                )
            )
            self.send_response(service.answers.get(self.path, 201))
            self.send_header("Content-Length", "0")
            self.end_headers()

        def log_message(self, *args) -> None:
            pass

    # A port of 8100-8199 (this machine's share for test servers).
    service.port, server = bind_first(
        range(8100, 8200), lambda port: ThreadingHTTPServer(("127.0.0.1", port), Handler)
    )
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(cert_path, key_path)
    server.socket = context.wrap_socket(server.socket, server_side=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return service, server, cert_path


def subscribe(user, service, name="dora-phone"):
    """Subscribe ``user`` with a new "browser" at ``service``; returns the browser,
    which decrypts what the service received for it."""
    from accounts.push import push_subscribe

    browser = Browser(service.endpoint(name))
    push_subscribe(user=user, data=browser.subscription())
    return browser
