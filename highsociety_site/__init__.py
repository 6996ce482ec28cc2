"""The Django project: settings, URLs, WSGI/ASGI entry points and the Celery app."""

from highsociety_site.celery import app as celery_app

__all__ = ("celery_app",)
