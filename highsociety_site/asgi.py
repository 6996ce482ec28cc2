"""ASGI entry point (for an ASGI server; the project itself serves through WSGI)."""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "highsociety_site.settings")

application = get_asgi_application()
