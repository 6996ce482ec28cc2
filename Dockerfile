# The one image of the web app, the Celery worker and Celery beat (docker-compose.yml).
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    PYTHONPATH=/app

WORKDIR /app

# GNU gettext compiles the translations at build time (the .mo files are not committed).
RUN apt-get update \
    && apt-get install -y --no-install-recommends gettext \
    && rm -rf /var/lib/apt/lists/*

# The runtime dependencies of pyproject.toml (not the dev tools), at the versions that
# constraints.txt pins, in a layer of their own: rebuilt only when either file changes.
COPY pyproject.toml constraints.txt ./
RUN python -c "import tomllib; print('\n'.join(tomllib.load(open('pyproject.toml', 'rb'))['project']['dependencies']))" > /tmp/requirements.txt \
    && pip install -c constraints.txt -r /tmp/requirements.txt \
    && rm /tmp/requirements.txt

COPY . .
# The compiled catalogues (locale/*/LC_MESSAGES/django.mo) and the collected, hashed
# static files (with DEBUG off every page needs them: an image run on its own, without
# compose's start command, serves its pages too); the key only lets settings load.
RUN SECRET_KEY=build-only-not-a-secret python manage.py compilemessages -v 0 \
    && SECRET_KEY=build-only-not-a-secret python manage.py collectstatic --noinput -v 0

# Run as a user without privileges; it may write only collected static files (all of
# them: a collectstatic run in a container rewrites the hashed files in their folders)
# and beat's schedule.
RUN useradd --create-home --uid 10001 app \
    && mkdir -p /app/staticfiles /app/var \
    && chown -R app:app /app/staticfiles /app/var
USER app

EXPOSE 8000
# ASGI (gunicorn's uvicorn workers): the pages stay sync views, the boards' streams are
# an async view (docs/operations.md, "The board's stream").  A pool of database
# connections per process: under ASGI Django runs each sync request in a thread of its
# own, which would otherwise open a connection of its own.
CMD ["env", "DATABASE_POOL_SIZE=10", "gunicorn", "highsociety_site.asgi:application", "--worker-class", "highsociety_site.asgi_worker.StreamingUvicornWorker", "--bind", "0.0.0.0:8000", "--access-logfile", "-"]
