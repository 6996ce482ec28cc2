"""``python manage.py vapid_keys``: a fresh VAPID key pair for Web Push, printed as the
two settings take it (docs/operations.md, "Web Push").  Nothing is stored: put the
lines in the environment (``.env`` for docker-compose) of every web and worker process.

Make the pair once and keep it: browsers subscribed under one public key get no push
signed with another, so a new pair means every player turns push on again.
"""

from __future__ import annotations

import base64

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from django.core.management.base import BaseCommand


def _b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def vapid_key_pair() -> tuple[str, str]:
    """(public, private): a P-256 key pair, base64url, the public key an uncompressed
    point (what browsers take as ``applicationServerKey``), the private key its number."""
    key = ec.generate_private_key(ec.SECP256R1())
    public = key.public_key().public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
    )
    private = key.private_numbers().private_value.to_bytes(32, "big")
    return _b64url(public), _b64url(private)


class Command(BaseCommand):
    help = "Print a new VAPID key pair for Web Push as VAPID_PUBLIC_KEY=… and VAPID_PRIVATE_KEY=…"

    def handle(self, *args, **options) -> None:
        public, private = vapid_key_pair()
        self.stdout.write(f"VAPID_PUBLIC_KEY={public}")
        self.stdout.write(f"VAPID_PRIVATE_KEY={private}")
        self.stderr.write(
            "Keep the private key secret; also set VAPID_SUBJECT=mailto:you@example.org."
        )
