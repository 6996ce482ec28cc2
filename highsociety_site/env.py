"""Typed readers for settings that come from the environment.

Each helper takes the variable's name, a default used when the variable is unset or
empty, and optionally the mapping to read (``os.environ`` unless given; tests pass a
dict).  A value that cannot be understood raises ``ImproperlyConfigured`` naming the
variable, so a typo stops the process at start-up instead of silently becoming a
default.  Only ``settings.py`` calls these: app code reads ``django.conf.settings``.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from typing import Any
from urllib.parse import parse_qs, unquote, urlsplit

from django.core.exceptions import ImproperlyConfigured

_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off"}


def _raw(name: str, environ: Mapping[str, str] | None) -> str | None:
    """The stripped value of ``name``, or None when unset or blank."""
    value = (os.environ if environ is None else environ).get(name)
    if value is None or not value.strip():
        return None
    return value.strip()


def env_str(
    name: str, default: str | None = None, *, environ: Mapping[str, str] | None = None
) -> str | None:
    value = _raw(name, environ)
    return default if value is None else value


def env_bool(name: str, default: bool, *, environ: Mapping[str, str] | None = None) -> bool:
    value = _raw(name, environ)
    if value is None:
        return default
    lowered = value.lower()
    if lowered in _TRUE:
        return True
    if lowered in _FALSE:
        return False
    raise ImproperlyConfigured(
        f"{name}={value!r} is not a boolean: use one of 1/0, true/false, yes/no, on/off."
    )


def env_int(
    name: str,
    default: int,
    *,
    minimum: int | None = None,
    maximum: int | None = None,
    environ: Mapping[str, str] | None = None,
) -> int:
    value = _raw(name, environ)
    if value is None:
        return default
    try:
        number = int(value)
    except ValueError:
        raise ImproperlyConfigured(f"{name}={value!r} is not a whole number.") from None
    if minimum is not None and number < minimum:
        raise ImproperlyConfigured(f"{name}={number} is below the minimum of {minimum}.")
    if maximum is not None and number > maximum:
        raise ImproperlyConfigured(f"{name}={number} is above the maximum of {maximum}.")
    return number


def env_email(name: str, *, environ: Mapping[str, str] | None = None) -> str:
    """A plain address (``staff@example.org``), or "" when unset."""
    from django.core.exceptions import ValidationError
    from django.core.validators import validate_email

    value = _raw(name, environ)
    if value is None:
        return ""
    try:
        validate_email(value)
    except ValidationError:
        raise ImproperlyConfigured(
            f"{name}={value!r} is not an e-mail address (write it plain: staff@example.org)."
        ) from None
    return value


def env_emails(name: str, *, environ: Mapping[str, str] | None = None) -> list[str]:
    """Comma-separated plain addresses (``a@example.org, b@example.org``); [] when unset."""
    from django.core.exceptions import ValidationError
    from django.core.validators import validate_email

    addresses = env_list(name, environ=environ)
    for value in addresses:
        try:
            validate_email(value)
        except ValidationError:
            raise ImproperlyConfigured(
                f"{name} holds {value!r}, which is not an e-mail address "
                "(write them plain, separated by commas: a@example.org, b@example.org)."
            ) from None
    return addresses


def env_list(
    name: str, default: list[str] | None = None, *, environ: Mapping[str, str] | None = None
) -> list[str]:
    """A comma-separated list; blank items are dropped (``"a, b,"`` is ``["a", "b"]``)."""
    value = _raw(name, environ)
    if value is None:
        return list(default or [])
    return [item.strip() for item in value.split(",") if item.strip()]


def env_url(
    name: str,
    default: str | None = None,
    *,
    schemes: tuple[str, ...] = ("http", "https"),
    environ: Mapping[str, str] | None = None,
) -> str | None:
    """An absolute URL with one of ``schemes``, a host and, if any, a numeric port; a
    ``redis://`` or ``rediss://`` URL's path, if any, is its database number.  The
    error names the URL with its password as ``***``."""
    value = _raw(name, environ)
    if value is None:
        return default
    shown = redact_url(value)
    try:
        parts = urlsplit(value)
    except ValueError:  # a broken [IPv6] host
        parts = None
    if parts is None or parts.scheme not in schemes or not parts.hostname:
        raise ImproperlyConfigured(
            f"{name}={shown!r} is not an absolute URL starting with {' or '.join(s + '://' for s in schemes)}."
        )
    try:
        port = parts.port
    except ValueError:  # not a number, or out of range
        port = 0
    if port == 0:
        raise ImproperlyConfigured(
            f"{name}={shown!r} has a port that is not a number from 1 to 65535."
        )
    if parts.scheme in {"redis", "rediss"}:
        database = [parts.path.removeprefix("/")] + parse_qs(parts.query).get("db", [])
        if not all(re.fullmatch(r"[0-9]*", text) for text in database):
            raise ImproperlyConfigured(
                f"{name}={shown!r}: the database must be a number, as in "
                f"{parts.scheme}://host:6379/0."
            )
    return value


# --- e-mail ------------------------------------------------------------------

_SMTP_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
_EMAIL_BACKENDS = {
    "console": "django.core.mail.backends.console.EmailBackend",
    "file": "django.core.mail.backends.filebased.EmailBackend",
    "locmem": "django.core.mail.backends.locmem.EmailBackend",
    "dummy": "django.core.mail.backends.dummy.EmailBackend",
}


def _password_span(url: str) -> tuple[int, int] | None:
    """Where the password of ``url`` lies (start, end), or None if it has none.

    Whatever the URL: the password is what lies between the first ``:`` after the
    scheme's ``//`` (or the start, for a URL without a scheme, such as
    ``user:password@host/db``) and the last ``@``, even if it holds a ``/``, ``@`` or
    ``#`` that should have been percent-encoded.  When in doubt more is hidden, never
    less."""
    scheme = re.match(r"[A-Za-z][A-Za-z0-9+.-]*://|//", url)
    start = scheme.end() if scheme else 0
    at = url.rfind("@")
    colon = url.find(":", start, at)
    if at < start or colon < 0:
        return None
    return colon + 1, at


def redact_url(url: str) -> str:
    """``url`` with its password replaced by ``***``, for error messages and logs."""
    span = _password_span(url)
    return url if span is None else f"{url[: span[0]]}***{url[span[1] :]}"


def _redact_text(text: str, url: str) -> str:
    """``text`` (an error from a library) without the password of ``url``."""
    span = _password_span(url)
    password = url[span[0] : span[1]] if span else ""
    text = text.replace(url, redact_url(url))
    return text.replace(password, "***") if password else text


def parse_email_url(url: str, *, name: str = "EMAIL_URL") -> dict[str, Any]:
    """Django's e-mail settings from one URL.

    - ``smtp://user:password@host:port`` plain SMTP (port 25 unless given),
      ``smtp+tls://…`` STARTTLS (587), ``smtps://…`` or ``smtp+ssl://…`` implicit TLS (465).
      User and password are percent-decoded; ``?timeout=10`` sets EMAIL_TIMEOUT.
    - ``console:`` prints messages to stdout; ``file:///absolute/dir`` writes one file
      per message into that folder; ``locmem:`` keeps them in ``django.core.mail.outbox``;
      ``dummy:`` drops them.
    """
    shown = redact_url(url)
    try:
        parts = urlsplit(url)
    except ValueError:  # a broken [IPv6] host
        raise ImproperlyConfigured(f"{name}={shown!r} is not a URL.") from None
    scheme = parts.scheme.lower()
    settings: dict[str, Any] = {}
    if scheme in _EMAIL_BACKENDS:
        settings["EMAIL_BACKEND"] = _EMAIL_BACKENDS[scheme]
        if scheme == "file":
            path = unquote(parts.path)
            if parts.netloc or not path.startswith("/"):
                raise ImproperlyConfigured(
                    f"{name}={shown!r}: a file URL needs an absolute folder, as in file:///var/mail/highsociety."
                )
            settings["EMAIL_FILE_PATH"] = path
        return settings
    if scheme not in {"smtp", "smtp+tls", "smtps", "smtp+ssl"}:
        raise ImproperlyConfigured(
            f"{name}={shown!r}: the scheme must be smtp, smtp+tls, smtps, console, file, locmem or dummy."
        )
    try:
        port = parts.port
    except ValueError:
        raise ImproperlyConfigured(
            f"{name}={shown!r} has a port that is not a number (a user name or password "
            "holding / : @ ? or # is written percent-encoded: / as %2F)."
        ) from None
    if not parts.hostname:
        raise ImproperlyConfigured(f"{name}={shown!r} names no host.")
    use_ssl = scheme in {"smtps", "smtp+ssl"}
    use_tls = scheme == "smtp+tls"
    settings.update(
        EMAIL_BACKEND=_SMTP_BACKEND,
        EMAIL_HOST=parts.hostname,
        EMAIL_PORT=port or (465 if use_ssl else 587 if use_tls else 25),
        EMAIL_HOST_USER=unquote(parts.username or ""),
        EMAIL_HOST_PASSWORD=unquote(parts.password or ""),
        EMAIL_USE_TLS=use_tls,
        EMAIL_USE_SSL=use_ssl,
    )
    query = parse_qs(parts.query)
    if "timeout" in query:
        try:
            settings["EMAIL_TIMEOUT"] = int(query["timeout"][-1])
        except ValueError:
            raise ImproperlyConfigured(
                f"{name}={shown!r}: timeout must be a whole number of seconds."
            ) from None
    return settings


# --- database ----------------------------------------------------------------


POOLERS = ("", "transaction")


def parse_database_url(
    url: str,
    *,
    conn_max_age: int,
    pool_size: int = 0,
    name: str = "DATABASE_URL",
    pooler: str = "",
) -> dict[str, Any]:
    """Django's DATABASES entry from a URL (dj-database-url).

    Persistent connections (``conn_max_age`` seconds, with health checks) apply to
    server databases only: a new PostgreSQL connection per request costs several times
    the request itself.  SQLite opens a file, so it keeps ``CONN_MAX_AGE = 0``; its
    transactions begin IMMEDIATE (see below).

    ``pool_size`` (PostgreSQL only): a pool of at most that many connections per process
    (Django's psycopg pool) instead of a connection per thread.  Under ASGI every sync
    request runs in a thread of its own, so without a pool each request in flight opens
    a connection of its own (unbounded, and new each time); the pool bounds them and
    keeps them open.  Pooled connections are never "persistent": ``CONN_MAX_AGE`` is 0.

    ``pooler="transaction"``: PostgreSQL is reached through a pooler in transaction
    mode (PgBouncer's ``pool_mode = transaction``), which hands each transaction, or
    each statement outside one, to any of its server connections.  Nothing may then
    outlive a transaction on the server: no server-side cursors (a ``.iterator()``
    would open one WITHOUT HOLD outside a transaction and read its next batch on
    another connection).  Django's other session state is the time zone it sets on a
    new connection, which the pooler keeps per client (PgBouncer tracks ``TimeZone``),
    and its queries bind parameters on the client, so no prepared statement is left
    on a server connection.  The connection to the pooler itself stays persistent (or
    pooled, with ``pool_size``).
    """
    if pooler not in POOLERS:
        raise ImproperlyConfigured(
            f"DATABASE_POOLER={pooler!r} is not understood: leave it unset, or set 'transaction'."
        )
    import dj_database_url

    shown = redact_url(url)
    try:
        config = dict(dj_database_url.parse(url))
    except ValueError as exc:  # UnknownSchemeError is a ValueError
        reason = _redact_text(str(exc), url)  # it may quote the URL
        raise ImproperlyConfigured(f"{name}={shown!r} cannot be used: {reason}") from None
    if not config.get("NAME"):
        raise ImproperlyConfigured(f"{name}={shown!r} names no database.")
    if config["ENGINE"] == "django.db.backends.postgresql" and pool_size > 0:
        config["CONN_MAX_AGE"] = 0
        # The pool checks a kept connection before handing it out (Django passes the
        # pool psycopg's check_connection): a server or PgBouncer restart would
        # otherwise fail one request per kept connection.
        config["CONN_HEALTH_CHECKS"] = True
        # A request waits up to 10 s for a free connection, then gets the outage page.
        pool = {"min_size": 1, "max_size": pool_size, "timeout": 10}
        config["OPTIONS"] = {**config.get("OPTIONS", {}), "pool": pool}
    elif config["ENGINE"] != "django.db.backends.sqlite3":
        config["CONN_MAX_AGE"] = conn_max_age
        config["CONN_HEALTH_CHECKS"] = conn_max_age > 0
    else:
        # SQLite has no row locks: each transaction takes the write lock as it begins
        # (IMMEDIATE), so two services on one game run one after the other, as the row
        # lock makes them on PostgreSQL; a writer waits up to 20 s for another.
        config["OPTIONS"] = {
            **config.get("OPTIONS", {}),
            "transaction_mode": "IMMEDIATE",
            "timeout": 20,
        }
    if config["ENGINE"] != "django.db.backends.sqlite3" and pooler == "transaction":
        config["DISABLE_SERVER_SIDE_CURSORS"] = True
    return config


# --- Web Push ----------------------------------------------------------------


def _b64url_bytes(name: str, value: str) -> bytes:
    import base64
    import binascii

    if not re.fullmatch(r"[A-Za-z0-9_-]+={0,2}", value):
        raise ImproperlyConfigured(f"{name} is not base64url text.")
    try:
        return base64.urlsafe_b64decode(value + "=" * (-len(value) % 4))
    except (binascii.Error, ValueError):
        raise ImproperlyConfigured(f"{name} is not base64url text.") from None


def parse_vapid_keys(
    public: str | None,
    private: str | None,
    subject: str | None,
    *,
    default_subject: str,
) -> dict[str, str] | None:
    """The VAPID key pair of Web Push (RFC 8292), as ``manage.py vapid_keys`` prints it:
    the public key as an uncompressed P-256 point and the private key as its 32-byte
    number, both base64url.  None when neither key is set (push is then not offered);
    one without the other, a key that is not one, or two keys that do not belong
    together stop the process.  The private key is never shown in an error."""
    if public is None and private is None:
        return None
    if public is None or private is None:
        raise ImproperlyConfigured(
            "Set both VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY (python manage.py vapid_keys "
            "prints a pair), or neither to turn Web Push off."
        )
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import ec

    point = _b64url_bytes("VAPID_PUBLIC_KEY", public)
    number = _b64url_bytes("VAPID_PRIVATE_KEY", private)
    if len(point) != 65 or point[0] != 4:
        raise ImproperlyConfigured(
            "VAPID_PUBLIC_KEY is not a P-256 public key (65 bytes, base64url)."
        )
    if len(number) != 32:
        raise ImproperlyConfigured(
            "VAPID_PRIVATE_KEY is not a P-256 private key (32 bytes, base64url)."
        )
    try:
        key = ec.derive_private_key(int.from_bytes(number, "big"), ec.SECP256R1())
    except ValueError:
        raise ImproperlyConfigured("VAPID_PRIVATE_KEY is not a P-256 private key.") from None
    derived = key.public_key().public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
    )
    if derived != point:
        raise ImproperlyConfigured("VAPID_PUBLIC_KEY is not the public key of VAPID_PRIVATE_KEY.")
    subject = subject or default_subject
    if not re.fullmatch(r"mailto:[^@\s]+@[^@\s]+|https://[^\s/]+\S*", subject):
        raise ImproperlyConfigured(
            f"VAPID_SUBJECT={subject!r}: write a contact for the push services, "
            "mailto:you@example.org or an https:// address."
        )
    return {"public_key": public, "private_key": private, "subject": subject}
