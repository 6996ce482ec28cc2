"""gunicorn's worker for the site under ASGI: uvicorn's, with a short grace on shutdown
and no proxy headers.

An open board holds a stream for up to ``LIVE_STREAM_SECONDS`` (ten minutes).  A
worker told to stop (a deploy, a scale-down, ``docker compose stop``) waits for its
open requests to finish, and a stream does not finish: every stop took gunicorn's whole
``--graceful-timeout`` and ended in a kill.  Here the requests in flight get
``GRACE_SECONDS`` to finish (a page or a move takes milliseconds), then what is still
open, the streams, is cancelled: the browsers reconnect at once, to a node that runs.
"""

from __future__ import annotations

from uvicorn_worker import UvicornWorker

GRACE_SECONDS = 5


class StreamingUvicornWorker(UvicornWorker):
    CONFIG_KWARGS = {
        **UvicornWorker.CONFIG_KWARGS,
        "timeout_graceful_shutdown": GRACE_SECONDS,
        # uvicorn would take X-Forwarded-For (and -Proto) from any client whose address is
        # in FORWARDED_ALLOW_IPS (127.0.0.1 by default: a forged header from the same
        # host, or through a local proxy that passes it on, set the client's address).
        # The app reads those headers itself, by TRUSTED_PROXY_COUNT and
        # SECURE_PROXY_SSL_HEADER: one rule for every limit, wherever it runs.
        "proxy_headers": False,
    }
