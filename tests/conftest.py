"""Fixtures for every test: the one set of personas (alice, bob, carol, dave, erin,
dora who is staff, outsider who sits nowhere) and ``run_commits``.  The engine's and
the bots' tests use none of them and run without a database."""

import os
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest
import redis
from django.conf import settings
from django.core.cache import cache

from tests.factories import UserFactory


def pytest_configure(config):
    """The translations compiled, as `make test` does, when a test run starts without
    them or with older ones (a .po edited since): a German page must read German."""
    if shutil.which("msgfmt") is None:
        return
    for po in Path(__file__).resolve().parent.parent.glob("locale/*/LC_MESSAGES/*.po"):
        mo = po.with_suffix(".mo")
        if mo.exists() and mo.stat().st_mtime >= po.stat().st_mtime:
            continue
        fd, tmp = tempfile.mkstemp(dir=po.parent, suffix=".mo.tmp")
        os.close(fd)
        subprocess.run(["msgfmt", "--check-format", "-o", tmp, str(po)], check=True)
        os.replace(tmp, mo)  # atomic: xdist workers may compile at once


@pytest.fixture(autouse=True)
def _fresh_cache(request):
    """Empty this test process's cache before each test that may use Django, so
    rate-limit counters (log-in, sign-up, API throttles) never carry from one test into
    the next.  Only this process's keys go: tests/settings.py gives each test run and
    each xdist worker its own prefix, and Celery's queues in the same Redis database stay
    untouched."""
    if _uses_django(request):
        _cache_clear_own_keys()


@pytest.fixture
def limits_clock(monkeypatch) -> float:
    """Holds the request limits' clock (``ops.limits``) still, one second into a minute,
    and returns that time: a test's requests then count in one fixed window even when
    the run crosses a minute's end (the fourth of three allowed posts was let through
    when it fell in the next minute)."""
    import time
    from types import SimpleNamespace

    import ops.limits

    now = (time.time() // 60) * 60 + 1
    monkeypatch.setattr(ops.limits, "time", SimpleNamespace(time=lambda: now))
    return now


@pytest.fixture(autouse=True)
def _default_language():
    """Each test ends in the site's default language: a request the test client made
    in French (the middleware activates the player's language in this thread) must
    not make the next test's English assertions read French."""
    yield
    from django.utils import translation

    translation.deactivate()


@pytest.fixture(autouse=True)
def _fresh_log_context():
    """Each test starts with nothing bound in the log context, as a new request or task
    does.  (A test whose client re-raises a view's exception never sends the
    end-of-request signal that unbinds the request's id.)"""
    from ops.logcontext import log_context_reset

    log_context_reset()


def _uses_django(request) -> bool:
    names = request.fixturenames
    return request.node.get_closest_marker("django_db") is not None or any(
        name in names for name in ("db", "transactional_db", "client", "live_server")
    )


def _cache_clear_own_keys() -> None:
    config = settings.CACHES["default"]
    if not config["BACKEND"].endswith("RedisCache"):
        cache.clear()
        return
    client = redis.Redis.from_url(config["LOCATION"])
    try:
        keys = list(client.scan_iter(match=f"{config['KEY_PREFIX']}:*", count=1000))
        if keys:
            client.delete(*keys)
    finally:
        client.close()


# --- personas: three verified players (log in with tests.factories.PASSWORD) ----


@pytest.fixture
def alice(db):
    return UserFactory(username="alice", display_name="Alice")


@pytest.fixture
def bob(db):
    return UserFactory(username="bob", display_name="Bob")


@pytest.fixture
def carol(db):
    return UserFactory(username="carol", display_name="Carol")


@pytest.fixture
def dave(db):
    return UserFactory(username="dave", display_name="Dave")


@pytest.fixture
def erin(db):
    return UserFactory(username="erin", display_name="Erin")


@pytest.fixture
def dora(db):
    """Staff: she can fix the deck and the first player of her tables (scenario games)."""
    from tests.games.factories import StaffUserFactory

    return StaffUserFactory(username="dora", display_name="Dora")


@pytest.fixture
def outsider(db):
    """A logged-in user who sits at none of the tables."""
    return UserFactory(username="oscar", display_name="Oscar")


@pytest.fixture
def run_commits(django_capture_on_commit_callbacks):
    """``with run_commits(): ...`` runs what the block queues on commit (bot turns,
    e-mails), as a real commit would; nested commits run too.  The test's own
    transaction never commits."""

    def runner():
        return django_capture_on_commit_callbacks(execute=True)

    return runner


@pytest.fixture
def admin_client(db, admin_user):
    """pytest-django's admin client, signed in as a browser would be: the password,
    then a code of an authenticator app (the admin opens only with a second factor)."""
    from allauth.account.models import EmailAddress
    from django.test import Client

    from tests.second_factor import staff_admin_session

    EmailAddress.objects.update_or_create(
        user=admin_user, email=admin_user.email, defaults={"verified": True, "primary": True}
    )
    client = Client()
    staff_admin_session(client, admin_user, password="password")
    return client
