"""ASGI entry point: the site is served by an ASGI server (uvicorn for `make run`,
gunicorn with uvicorn workers in production), so that the boards' streams (an async view,
games/live.py) are served next to the pages, which stay sync views."""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "highsociety_site.settings")

from ops.logcontext import asgi_request_ids  # noqa: E402

# Each request's log lines carry its request_id (ops/logcontext.py says why it is bound here).
application = asgi_request_ids(get_asgi_application())

from django.conf import settings  # noqa: E402  (once Django is set up)

if settings.SWEEP_IN_PROCESS_SECONDS:  # `make run`: the sweeps beat would run, in this process
    from games.sweeps import start_sweeper  # noqa: E402

    start_sweeper(settings.SWEEP_IN_PROCESS_SECONDS)
