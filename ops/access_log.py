"""Log lines without the secrets some addresses carry.

An e-mail confirmation link (``/accounts/confirm-email/<key>/``), a password reset link
(``/accounts/password/reset/key/<uid>-<key>/``) and an e-mail's one-click unsubscribe
link (``/accounts/unsubscribe/<token>/``) hold their key in the path, and the server's
access log (gunicorn's or uvicorn's) and Django's own request warnings write the path
whole: anyone reading the logs could confirm the address, set the password or switch off
a player's e-mails while the link is valid.  The board's preview of a standing order
(``/games/<id>/order-preview/?maximum=…``) carries in its query the most the player's
order may bid, which no other player may learn.  ``SecretPathFilter`` writes such a key
or query as "…" in every line of those loggers; ``install`` puts it on them (ops.apps,
at start-up).
"""

from __future__ import annotations

import logging
import re

SECRET_PATH = re.compile(
    r"(/accounts/(?:confirm-email|password/reset/key|unsubscribe)/)[^/\s\"?#]+"
)
SECRET_QUERY = re.compile(r"(/order-preview/\?)[^\s\"#]+")
LOGGERS = ("uvicorn.access", "gunicorn.access", "django.request", "django.server")


def redact(value):
    if not isinstance(value, str):
        return value
    return SECRET_QUERY.sub(r"\1…", SECRET_PATH.sub(r"\1…", value))


class SecretPathFilter(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        record.msg = redact(record.msg)
        if isinstance(record.args, tuple):
            record.args = tuple(redact(value) for value in record.args)
        elif isinstance(record.args, dict):  # gunicorn's access log: its atoms by name
            args = {name: redact(value) for name, value in record.args.items()}
            if "/order-preview/" in str(args.get("U", "")) and args.get("q"):
                args["q"] = "…"  # the query alone, as its own atom
            record.args = args
        return True


def install() -> None:
    for name in LOGGERS:
        logger = logging.getLogger(name)
        if not any(isinstance(f, SecretPathFilter) for f in logger.filters):
            logger.addFilter(SecretPathFilter())
