"""The Celery app.  Workers: ``celery -A highsociety_site worker``; one beat process:
``celery -A highsociety_site beat``.

Configuration comes from Django's settings, every ``CELERY_*`` name (settings.py says how
the broker and eager mode are chosen).  Tasks live in each app's ``tasks.py``.
"""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "highsociety_site.settings")

app = Celery("highsociety_site")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
