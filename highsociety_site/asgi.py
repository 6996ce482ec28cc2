"""ASGI entry point: the site is served by an ASGI server (uvicorn for `make run`,
gunicorn with uvicorn workers in production), so that the boards' streams (an async view,
games/live.py) are served next to the pages, which stay sync views."""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "highsociety_site.settings")

application = get_asgi_application()
