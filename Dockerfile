# The one image of the web app, the Celery worker and Celery beat (docker-compose.yml).
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    PYTHONPATH=/app

WORKDIR /app

# The runtime dependencies of pyproject.toml (not the dev tools) in a layer of their own,
# rebuilt only when pyproject.toml changes.
COPY pyproject.toml ./
RUN python -c "import tomllib; print('\n'.join(tomllib.load(open('pyproject.toml', 'rb'))['project']['dependencies']))" > /tmp/requirements.txt \
    && pip install -r /tmp/requirements.txt \
    && rm /tmp/requirements.txt

COPY . .

# Run as a user without privileges; it may write only collected static files and
# beat's schedule.
RUN useradd --create-home --uid 10001 app \
    && mkdir -p /app/staticfiles /app/var \
    && chown app:app /app/staticfiles /app/var
USER app

EXPOSE 8000
CMD ["gunicorn", "highsociety_site.wsgi", "--bind", "0.0.0.0:8000", "--access-logfile", "-"]
