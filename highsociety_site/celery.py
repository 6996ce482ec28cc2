"""The Celery app.  Workers: ``celery -A highsociety_site worker``; one beat process:
``celery -A highsociety_site beat``.

Configuration comes from Django's settings, every ``CELERY_*`` name (settings.py says how
the broker and eager mode are chosen).  Tasks live in each app's ``tasks.py``.
"""

import logging.config
import os

from celery import Celery
from celery.signals import setup_logging

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "highsociety_site.settings")

app = Celery("highsociety_site")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@setup_logging.connect
def logging_as_configured(**_):
    """Workers and beat log as the web does: Django's ``LOGGING`` (JSON lines on stdout at
    ``LOG_LEVEL``), whatever ``--loglevel`` says.  Without this receiver Celery set the
    root logger to its own level, WARNING unless ``--loglevel=INFO`` was given, and a
    worker started without it wrote none of the lines docs/operations.md, "Logs", relies on."""
    from django.conf import settings

    logging.config.dictConfig(settings.LOGGING)
