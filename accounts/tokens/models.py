"""The API token model; ``services`` makes and revokes tokens."""

from __future__ import annotations

import hashlib

from django.conf import settings
from django.db import models

TOKEN_PREFIX = "hs_"
SHOWN_PREFIX_LENGTH = 10  # "hs_" and 7 characters of the secret: enough to tell tokens apart


def token_digest(secret: str) -> str:
    """The stored form of a token: its SHA-256, hex."""
    return hashlib.sha256(secret.encode("utf-8", "surrogatepass")).hexdigest()


class ApiToken(models.Model):
    """One credential of one user.  Revoking deletes the row; an expired token stays
    listed (as expired) until its owner deletes it or it is cleaned up."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="api_tokens"
    )
    name = models.CharField(max_length=60, help_text="What the token is for, to recognise it.")
    prefix = models.CharField(max_length=SHOWN_PREFIX_LENGTH)
    digest = models.CharField(max_length=64, unique=True)
    created_at = models.DateTimeField(auto_now_add=True)
    expires_at = models.DateTimeField()
    last_used_at = models.DateTimeField(null=True, blank=True)
    # The one-time value of the tokens page's form that made it (empty: made otherwise):
    # the same form sent again, even twice at once, makes no second token.
    form_once = models.CharField(max_length=40, blank=True, default="")

    class Meta:
        verbose_name = "API token"  # the admin's list: not "Api tokens"
        ordering = ["-created_at", "-id"]
        indexes = [models.Index(fields=["user", "-created_at"], name="tokens_user_created")]
        constraints = [
            models.UniqueConstraint(
                fields=["user", "form_once"],
                condition=~models.Q(form_once=""),
                name="tokens_form_once",
            )
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.prefix}…) of {self.user_id}"

    def is_expired(self, now) -> bool:
        return self.expires_at <= now
