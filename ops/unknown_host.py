"""A request for a host the site does not serve (``ALLOWED_HOSTS``) is logged as one
warning line, without a traceback.

Django logs each one at ERROR with the whole traceback of ``DisallowedHost``: the
scanners of the internet, which try every address with any name, would fill the error
level of the logs with them, where a real error must stand out.  The 400 answer is
unchanged, and the access log still lists each request."""

from __future__ import annotations

import logging


class UnknownHostLogFilter(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        if record.name == "django.security.DisallowedHost" and record.levelno > logging.WARNING:
            record.levelno, record.levelname = logging.WARNING, "WARNING"
            record.exc_info, record.exc_text = None, None
        return True
