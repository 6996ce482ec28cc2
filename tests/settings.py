"""Settings for the test suite: the real settings, read from the environment as always
(``make test`` points DATABASE_URL at the local PostgreSQL and REDIS_URL at Redis
database 15), with these differences only:

- Celery runs tasks eagerly, in the test's own process, whatever the broker, and lets
  their exceptions propagate.  A test that needs a real worker starts one and sets
  ``celery_app.conf.task_always_eager = False`` itself (Celery reads its settings once,
  so pytest-django's ``settings`` fixture cannot switch this).
- The per-account table limits are lifted (the personas play many games).
- Passwords are hashed with MD5: argon2 costs ~150 ms a hash by design, which every
  factory-made user would pay.  tests/highsociety_site checks the real list starts with argon2.
- Static files need no collectstatic: WhiteNoise serves them from the source folders,
  as under runserver (the manifest storage is for DEBUG off).
- The test database has a name of its own per test run (pytest-django adds the xdist
  worker's), so two runs on one machine never create, use or drop each other's
  database: ``test_<name>_<run>`` on PostgreSQL, a file ``.test-<run>.sqlite3`` on
  SQLite (a file, not memory: the browser tests' live server and the end-to-end tests'
  threads must share it).
- Cache keys carry a prefix of their own per test run and per pytest-xdist worker, so
  a process clearing its cache (tests/conftest.py) never touches the counters of another
  worker or of another run sharing the same Redis.  A server or worker that a test
  starts as a subprocess inherits the variables, and with them the same prefix.
"""

import os
import secrets

# The tests run as a developer's machine does (DEBUG on, the development key) unless
# the environment says otherwise; the settings' own defaults are tested in
# tests/highsociety_site/test_settings.py.
os.environ.setdefault("DEBUG", "1")

from highsociety_site.settings import *  # noqa: E402, F403
from highsociety_site.settings import BASE_DIR, CACHES, DATABASES  # noqa: E402

CELERY_TASK_ALWAYS_EAGER = True
# One queue per test that starts a worker (it sets the default queue): no kind of task
# goes to a queue of its own here.
TASK_QUEUES: dict[str, str] = {}
CELERY_TASK_EAGER_PROPAGATES = True

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]

# Tests play many games with few personas: the per-account limits are lifted, and the
# tests of the limits (tests/games/services/test_limits.py) set them low again.
TABLE_LIMITS = {
    "open": 10_000,
    "running": 10_000,
    "joined": 10_000,
    "bot_only": 10_000,
    "invitations": 10_000,
    "invitations_per_day": 10_000,
    "invitations_per_person": 10_000,
}
# Likewise the form posts (every test client posts from 127.0.0.1); the tests of the
# limit (tests/ops/test_limits.py) set them low again.
FORM_POST_RATES = {"user": "100000/min", "ip": "100000/min"}
# Turn e-mails go out at once here, so the tests of their content and of the outbox need
# no clock; the tests of the wait (tests/games/async_play/test_presence.py) set it again.
TURN_EMAIL_GRACE_SECONDS = 0

STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}
WHITENOISE_USE_FINDERS = True
WHITENOISE_AUTOREFRESH = True

# Set once in the pytest process, before xdist starts its workers (they inherit it).
_TEST_RUN = os.environ.setdefault("HIGHSOCIETY_TEST_RUN", secrets.token_hex(4))
DATABASES = {"default": {**DATABASES["default"]}}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    DATABASES["default"]["TEST"] = {"NAME": str(BASE_DIR / f".test-{_TEST_RUN}.sqlite3")}
else:
    DATABASES["default"]["TEST"] = {"NAME": f"test_{DATABASES['default']['NAME']}_{_TEST_RUN}"}

CACHES = {
    "default": {
        **CACHES["default"],
        "KEY_PREFIX": f"test-{_TEST_RUN}-{os.environ.get('PYTEST_XDIST_WORKER', 'main')}",
    }
}
