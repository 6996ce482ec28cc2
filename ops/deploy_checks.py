"""What ``manage.py check --deploy`` adds to Django's own checks: the defaults that
let ``make run`` work on a fresh machine (SQLite, tasks in the web process, e-mail on
the console, links to 127.0.0.1) are wrong in production, and a site started with
``DEBUG`` off but one of them left in place would run without a word.  Each is a
warning, so ``check --deploy --fail-level WARNING`` (docs/operations.md) stops there;
so does a SITE_URL at odds with the HTTPS settings or ALLOWED_HOSTS.
"""

from __future__ import annotations

from urllib.parse import urlsplit

from django.conf import settings
from django.core import checks
from django.http.request import split_domain_port, validate_host

LOCAL_HOSTS = ("127.0.0.1", "localhost", "::1", "[::1]")


@checks.register(checks.Tags.security, deploy=True)
def embedded_defaults_check(app_configs=None, **kwargs) -> list[checks.CheckMessage]:
    if settings.DEBUG:
        return []
    found = []
    if settings.DATABASES["default"]["ENGINE"].endswith("sqlite3"):
        found.append(
            checks.Warning(
                "The database is SQLite: DATABASE_URL is not set to PostgreSQL.",
                hint='Set DATABASE_URL (docs/operations.md, "Configuration").',
                id="ops.W001",
            )
        )
    if not settings.REDIS_URL:
        found.append(
            checks.Warning(
                "REDIS_URL is not set: tasks run inside the web process (no worker, no "
                "beat) and each process keeps its own cache, so the rate limits count "
                "per process.",
                hint="Set REDIS_URL and start the workers and beat.",
                id="ops.W002",
            )
        )
    if settings.EMAIL_BACKEND.endswith(("console.EmailBackend", "locmem.EmailBackend")):
        found.append(
            checks.Warning(
                "E-mail is not sent: EMAIL_URL is not set, so every e-mail (confirmation "
                "and reset links among them) is written to the console.",
                hint="Set EMAIL_URL to your SMTP server.",
                id="ops.W003",
            )
        )
    if (urlsplit(settings.SITE_URL).hostname or "") in LOCAL_HOSTS:
        found.append(
            checks.Warning(
                f"SITE_URL is {settings.SITE_URL}: the links in e-mails lead there.",
                hint="Set SITE_URL to the site's public address.",
                id="ops.W004",
            )
        )
    found.extend(_site_url_checks())
    if settings.DEFAULT_FROM_EMAIL.rstrip(">").endswith("@localhost"):
        found.append(
            checks.Warning(
                f"E-mails are sent from {settings.DEFAULT_FROM_EMAIL}, which nobody can "
                "answer and many mail servers refuse.",
                hint="Set DEFAULT_FROM_EMAIL.",
                id="ops.W005",
            )
        )
    return found


def _site_url_checks() -> list[checks.CheckMessage]:
    """SITE_URL at odds with the rest: the links in e-mails (confirmations and password
    resets among them) lead where the site does not answer, or over plain http."""
    site = urlsplit(settings.SITE_URL)
    host = site.hostname or ""
    found = []
    if host in LOCAL_HOSTS:
        return found  # ops.W004 says it
    if site.scheme == "http" and settings.SECURE_SSL_REDIRECT:
        found.append(
            checks.Warning(
                f"SITE_URL is {settings.SITE_URL}, but the site redirects to https: the "
                "links in e-mails (password resets among them) travel over plain http "
                "before the redirect.",
                hint="Write SITE_URL with https://.",
                id="ops.W006",
            )
        )
    # As Django reads a request's Host: an IPv6 address in its brackets, no trailing dot.
    domain, _port = split_domain_port(site.netloc.rpartition("@")[2])
    if not validate_host(domain, settings.ALLOWED_HOSTS):
        found.append(
            checks.Warning(
                f"SITE_URL's host, {host}, is not in ALLOWED_HOSTS: the links in e-mails "
                "lead to an address that answers 400.",
                hint="Add it to ALLOWED_HOSTS, or set SITE_URL to the site's public address.",
                id="ops.W007",
            )
        )
    return found
