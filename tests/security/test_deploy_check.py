"""``manage.py check --deploy`` is clean with production settings, and the security
settings follow the environment (docs/operations.md, "HTTPS")."""

import os
import runpy
import secrets
import subprocess
import sys
from pathlib import Path

import pytest

import highsociety_site.settings

ROOT = Path(__file__).resolve().parents[2]
SECURITY_VARIABLES = [
    "SECURE_SSL_REDIRECT", "SECURE_PROXY_SSL_HEADER", "SESSION_COOKIE_SECURE",
    "CSRF_COOKIE_SECURE", "SECURE_HSTS_SECONDS", "SECURE_HSTS_INCLUDE_SUBDOMAINS",
    "SECURE_HSTS_PRELOAD",
]  # fmt: skip


def _production_environ(tmp_path, **extra):
    environ = {
        name: value
        for name, value in os.environ.items()
        if name not in SECURITY_VARIABLES and not name.startswith(("DJANGO_", "PYTEST_"))
    }
    environ.update(
        DJANGO_SETTINGS_MODULE="highsociety_site.settings",
        DEBUG="0",
        SECRET_KEY=secrets.token_urlsafe(50),
        ALLOWED_HOSTS="example.org",
        DATABASE_URL="postgres://highsociety@db.example.org:5432/highsociety",
        REDIS_URL="redis://redis.example.org:6379/0",
        EMAIL_URL="smtp://mail.example.org:587?timeout=10",
        SITE_URL="https://example.org",
        DEFAULT_FROM_EMAIL="High Society <play@example.org>",
    )
    for name, value in extra.items():
        if value is None:
            environ.pop(name, None)
        else:
            environ[name] = value
    return environ


def _check_deploy(environ) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT,
        env=environ,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_check_deploy_names_each_embedded_default_left_in_production(tmp_path):
    """A production start with DEBUG off but DATABASE_URL, REDIS_URL, EMAIL_URL, SITE_URL
    or DEFAULT_FROM_EMAIL left out ran on SQLite, in-process tasks, e-mail printed to
    the console, links to 127.0.0.1 and mail from noreply@localhost, and the check said
    "no issues"."""
    result = _check_deploy(
        _production_environ(
            tmp_path,
            DATABASE_URL=None,
            REDIS_URL=None,
            EMAIL_URL=None,
            SITE_URL=None,
            DEFAULT_FROM_EMAIL=None,
        )
    )
    said = result.stdout + result.stderr
    assert result.returncode != 0
    for code in ("ops.W001", "ops.W002", "ops.W003", "ops.W004", "ops.W005"):
        assert code in said, said
    one_left = _check_deploy(_production_environ(tmp_path, SITE_URL="http://localhost:8000"))
    assert one_left.returncode != 0
    said = one_left.stdout + one_left.stderr
    assert "ops.W004" in said and "ops.W001" not in said and "ops.W003" not in said


@pytest.mark.parametrize(
    ("site_url", "code"),
    [("http://example.org", "ops.W006"), ("https://other.example.net", "ops.W007")],
)
def test_check_deploy_warns_of_a_site_url_at_odds_with_the_settings(tmp_path, site_url, code):
    """An http SITE_URL under https mails reset links over plain http (allauth takes its
    scheme); a host ALLOWED_HOSTS does not name mails links that answer 400.  The check
    said "no issues"."""
    result = _check_deploy(_production_environ(tmp_path, SITE_URL=site_url))
    said = result.stdout + result.stderr
    assert result.returncode != 0 and code in said, said
    other = ({"ops.W006", "ops.W007"} - {code}).pop()
    assert other not in said


@pytest.mark.parametrize(
    ("site_url", "allowed"),
    [
        ("https://[2001:db8::1]:8443", "[2001:db8::1]"),
        ("https://play.example.org.", "play.example.org"),
        ("https://play.example.org:8443", ".example.org"),
        ("https://PLAY.example.org", "*"),
    ],
)
def test_a_site_url_allowed_hosts_names_as_django_reads_it_passes(tmp_path, site_url, allowed):
    result = _check_deploy(_production_environ(tmp_path, SITE_URL=site_url, ALLOWED_HOSTS=allowed))
    said = result.stdout + result.stderr
    assert "ops.W007" not in said, said


def test_check_deploy_is_clean_with_production_settings(tmp_path):
    result = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT,
        env=_production_environ(tmp_path),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_check_deploy_warns_when_https_is_turned_off(tmp_path):
    """The plain-http setup of docker-compose.yml is for one machine only: the check says so."""
    result = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT,
        env=_production_environ(
            tmp_path, SECURE_SSL_REDIRECT="0", SESSION_COOKIE_SECURE="0", CSRF_COOKIE_SECURE="0"
        ),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode != 0
    assert "security.W008" in result.stderr + result.stdout


@pytest.fixture
def load_settings(monkeypatch):
    def load(**environ):
        for name in [*SECURITY_VARIABLES, "DEBUG", "SECRET_KEY"]:
            monkeypatch.delenv(name, raising=False)
        for name, value in environ.items():
            monkeypatch.setenv(name, value)
        return runpy.run_path(highsociety_site.settings.__file__)

    return load


def test_production_defaults_are_secure(load_settings):
    s = load_settings(DEBUG="0", SECRET_KEY="k" * 50)
    assert s["SECURE_SSL_REDIRECT"] is True
    assert s["SESSION_COOKIE_SECURE"] is True and s["CSRF_COOKIE_SECURE"] is True
    assert s["SESSION_COOKIE_HTTPONLY"] is True
    assert s["LANGUAGE_COOKIE_SECURE"] is True  # as the session's, over https only
    assert s["SECURE_HSTS_SECONDS"] == 31536000
    assert s["SECURE_HSTS_INCLUDE_SUBDOMAINS"] is True and s["SECURE_HSTS_PRELOAD"] is True
    assert s["SECURE_CONTENT_TYPE_NOSNIFF"] is True
    assert s["SECURE_REFERRER_POLICY"] == "same-origin"
    assert s["X_FRAME_OPTIONS"] == "DENY"
    assert "SECURE_PROXY_SSL_HEADER" not in s


def test_debug_defaults_stay_on_plain_http(load_settings):
    s = load_settings(DEBUG="1")
    assert s["SECURE_SSL_REDIRECT"] is False and s["SECURE_HSTS_SECONDS"] == 0
    assert s["SESSION_COOKIE_SECURE"] is False and s["CSRF_COOKIE_SECURE"] is False
    assert s["LANGUAGE_COOKIE_SECURE"] is False


def test_security_settings_follow_the_environment(load_settings):
    s = load_settings(
        DEBUG="0",
        SECRET_KEY="k" * 50,
        SECURE_SSL_REDIRECT="0",
        SECURE_HSTS_SECONDS="3600",
        SECURE_HSTS_PRELOAD="0",
        SECURE_PROXY_SSL_HEADER="X-Forwarded-Proto: https",
    )
    assert s["SECURE_SSL_REDIRECT"] is False
    assert s["SECURE_HSTS_SECONDS"] == 3600 and s["SECURE_HSTS_PRELOAD"] is False
    assert s["SECURE_PROXY_SSL_HEADER"] == ("HTTP_X_FORWARDED_PROTO", "https")


def test_a_malformed_proxy_header_stops_the_start(load_settings):
    from django.core.exceptions import ImproperlyConfigured

    with pytest.raises(ImproperlyConfigured, match="SECURE_PROXY_SSL_HEADER"):
        load_settings(DEBUG="0", SECRET_KEY="k" * 50, SECURE_PROXY_SSL_HEADER="https")


def test_docker_compose_serves_plain_http(load_settings):
    """docker-compose.yml serves http on :8000: its environment turns the https-only
    settings off (with a comment on turning them back on behind TLS)."""
    import yaml

    compose = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
    environ = {
        name: str(value)
        for name, value in compose["x-app"]["environment"].items()
        if name in SECURITY_VARIABLES or name == "DEBUG"
    }
    s = load_settings(SECRET_KEY="k" * 50, **environ)
    assert s["DEBUG"] is False
    assert s["SECURE_SSL_REDIRECT"] is False and s["SECURE_HSTS_SECONDS"] == 0
    assert s["SESSION_COOKIE_SECURE"] is False and s["CSRF_COOKIE_SECURE"] is False


def test_https_redirect_spares_the_health_check(client, settings, db):
    settings.SECURE_SSL_REDIRECT = True
    assert client.get("/leaderboard/").status_code == 301
    assert client.get("/health/").status_code != 301
