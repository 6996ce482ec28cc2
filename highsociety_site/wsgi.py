"""WSGI entry point: ``gunicorn highsociety_site.wsgi``."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "highsociety_site.settings")

application = get_wsgi_application()
