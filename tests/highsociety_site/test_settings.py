"""highsociety_site/settings.py read with different environments.

Each test executes the settings file afresh (runpy) with a controlled environment;
the settings Django is running with are not touched.
"""

import runpy

import pytest
from django.core.exceptions import ImproperlyConfigured

import highsociety_site.settings

SETTINGS_VARIABLES = [
    "DEBUG", "SECRET_KEY", "ALLOWED_HOSTS", "CSRF_TRUSTED_ORIGINS", "SITE_URL",
    "DATABASE_URL", "CONN_MAX_AGE", "REDIS_URL", "CACHE_KEY_PREFIX", "CELERY_BROKER_URL",
    "CELERY_TASK_ALWAYS_EAGER", "CELERY_TASK_EAGER_PROPAGATES", "CELERY_TASK_TIME_LIMIT",
    "CELERY_VISIBILITY_TIMEOUT", "EMAIL_URL", "DEFAULT_FROM_EMAIL", "LOG_LEVEL",
    "TRUSTED_PROXY_COUNT",
]  # fmt: skip


@pytest.fixture
def load_settings(monkeypatch):
    """The settings module run afresh with exactly ``environ`` set; DEBUG=1 (a
    developer's machine) unless ``environ`` says otherwise or ``bare=True``."""

    def load(*, bare: bool = False, **environ):
        if not bare:
            environ.setdefault("DEBUG", "1")
        for name in SETTINGS_VARIABLES:
            monkeypatch.delenv(name, raising=False)
        for name, value in environ.items():
            monkeypatch.setenv(name, value)
        return runpy.run_path(highsociety_site.settings.__file__)

    return load


def test_debug_is_off_unless_set_and_then_a_secret_key_is_required(load_settings):
    """A forgotten DEBUG never serves tracebacks with the public development key: it is
    off, and the site refuses to start without a SECRET_KEY."""
    with pytest.raises(ImproperlyConfigured, match="SECRET_KEY must be set"):
        load_settings(bare=True)
    assert load_settings(bare=True, SECRET_KEY="k" * 50)["DEBUG"] is False


def test_embedded_defaults_need_no_server(load_settings):
    s = load_settings()  # DEBUG=1, as `make run` sets it
    assert s["DEBUG"] is True
    assert s["DATABASES"]["default"]["ENGINE"] == "django.db.backends.sqlite3"
    assert str(s["DATABASES"]["default"]["NAME"]).endswith("db.sqlite3")
    assert s["CACHES"]["default"]["BACKEND"].endswith("LocMemCache")
    assert s["CELERY_TASK_ALWAYS_EAGER"] is True
    # Never Celery's default amqp://localhost (this machine may run a RabbitMQ there).
    assert s["CELERY_BROKER_URL"] == "memory://localhost//"
    assert s["EMAIL_BACKEND"].endswith("console.EmailBackend")
    assert s["SITE_URL"] == "http://127.0.0.1:8000"
    assert s["SECRET_KEY"].startswith("django-insecure")


def test_secret_key_is_required_when_debug_is_off(load_settings):
    with pytest.raises(ImproperlyConfigured, match="SECRET_KEY"):
        load_settings(DEBUG="0")
    s = load_settings(DEBUG="0", SECRET_KEY="k" * 50)
    assert s["DEBUG"] is False and s["SECRET_KEY"] == "k" * 50
    # Hashed static file names need collectstatic; only with DEBUG off.
    assert s["STORAGES"]["staticfiles"]["BACKEND"].startswith("whitenoise.")


@pytest.mark.parametrize(
    "environ",
    [
        {"DEBUG": "maybe"},
        {"CONN_MAX_AGE": "a minute"},
        {"CONN_MAX_AGE": "-5"},
        {"DATABASE_URL": "oracle-ish://x"},
        {"REDIS_URL": "localhost:6379"},
        {"CELERY_BROKER_URL": "kafka://broker"},
        {"CELERY_TASK_ALWAYS_EAGER": "sometimes"},
        {"CELERY_VISIBILITY_TIMEOUT": "10"},
        {"EMAIL_URL": "pigeon://coop"},
        {"SITE_URL": "play.example.org"},
        {"LOG_LEVEL": "LOUD"},
    ],
)
def test_bad_values_stop_the_start(load_settings, environ):
    name = next(iter(environ))
    with pytest.raises(ImproperlyConfigured, match=name):
        load_settings(**environ)


@pytest.mark.parametrize(
    "environ",
    [
        {"REDIS_URL": "http://u:secretpw@h/0"},
        {"CELERY_BROKER_URL": "http://u:secretpw@h/0"},
        {"DATABASE_URL": "u:secretpw@h/highsociety"},
        {"REDIS_URL": "redis://:secretpw@127.0.0.1:notaport/0"},
        {"REDIS_URL": "redis://:secretpw@127.0.0.1:6379/notanumber"},
    ],
)
def test_a_bad_url_stops_the_start_without_showing_its_password(load_settings, environ):
    """The message named the URL whole, password and all, in the start-up's output."""
    name = next(iter(environ))
    with pytest.raises(ImproperlyConfigured, match=name) as excinfo:
        load_settings(**environ)
    assert "secretpw" not in str(excinfo.value) and "***" in str(excinfo.value)


def test_postgres_keeps_connections_open(load_settings):
    s = load_settings(DATABASE_URL="postgres://hs:pw@db:5432/highsociety")
    db = s["DATABASES"]["default"]
    assert db["ENGINE"] == "django.db.backends.postgresql"
    assert db["CONN_MAX_AGE"] == 60 and db["CONN_HEALTH_CHECKS"] is True
    s = load_settings(DATABASE_URL="postgres://hs:pw@db:5432/highsociety", CONN_MAX_AGE="0")
    assert s["DATABASES"]["default"]["CONN_MAX_AGE"] == 0


def test_redis_url_gives_cache_and_broker_and_turns_eager_off(load_settings):
    s = load_settings(REDIS_URL="redis://redis:6379/0")
    assert s["CACHES"]["default"]["BACKEND"] == "django.core.cache.backends.redis.RedisCache"
    assert s["CACHES"]["default"]["LOCATION"] == "redis://redis:6379/0"
    assert s["CELERY_BROKER_URL"] == "redis://redis:6379/0"
    assert s["CELERY_TASK_ALWAYS_EAGER"] is False


def test_broker_settings_survive_a_lost_worker(load_settings):
    s = load_settings(REDIS_URL="redis://redis:6379/0")
    assert s["CELERY_TASK_ACKS_LATE"] is True
    assert s["CELERY_TASK_REJECT_ON_WORKER_LOST"] is True
    assert s["CELERY_WORKER_PREFETCH_MULTIPLIER"] == 1
    timeout = s["CELERY_BROKER_TRANSPORT_OPTIONS"]["visibility_timeout"]
    assert timeout > s["CELERY_TASK_TIME_LIMIT"]


def test_celery_broker_url_wins_and_eager_can_be_forced(load_settings):
    s = load_settings(REDIS_URL="redis://redis:6379/0", CELERY_BROKER_URL="amqp://guest@mq//")
    assert s["CELERY_BROKER_URL"] == "amqp://guest@mq//"
    s = load_settings(REDIS_URL="redis://redis:6379/0", CELERY_TASK_ALWAYS_EAGER="1")
    assert s["CELERY_TASK_ALWAYS_EAGER"] is True


def test_email_url_becomes_django_settings(load_settings):
    s = load_settings(EMAIL_URL="smtp://mailpit:1025", DEFAULT_FROM_EMAIL="hs@example.org")
    assert s["EMAIL_BACKEND"] == "django.core.mail.backends.smtp.EmailBackend"
    assert (s["EMAIL_HOST"], s["EMAIL_PORT"]) == ("mailpit", 1025)
    assert s["DEFAULT_FROM_EMAIL"] == s["SERVER_EMAIL"] == "hs@example.org"


def test_hosts_and_origins_are_lists(load_settings):
    s = load_settings(
        ALLOWED_HOSTS="play.example.org, localhost",
        CSRF_TRUSTED_ORIGINS="https://play.example.org",
        SITE_URL="https://play.example.org/",
    )
    assert s["ALLOWED_HOSTS"] == ["play.example.org", "localhost"]
    assert s["CSRF_TRUSTED_ORIGINS"] == ["https://play.example.org"]
    assert s["SITE_URL"] == "https://play.example.org"
    assert s["ACCOUNT_DEFAULT_HTTP_PROTOCOL"] == "https"


def test_passwords_are_hashed_with_argon2_first(load_settings):
    s = load_settings()
    assert s["PASSWORD_HASHERS"][0] == "django.contrib.auth.hashers.Argon2PasswordHasher"


def test_accounts_require_a_verified_email_and_rate_limit_log_in(load_settings):
    s = load_settings()
    assert s["AUTH_USER_MODEL"] == "accounts.User"
    assert s["ACCOUNT_EMAIL_VERIFICATION"] == "mandatory"
    assert s["ACCOUNT_LOGIN_METHODS"] == {"username", "email"}
    assert s["ACCOUNT_RATE_LIMITS"]["login_failed"]


def test_logs_go_to_stdout(load_settings):
    s = load_settings(LOG_LEVEL="warning")
    assert s["LOGGING"]["handlers"]["stdout"]["stream"] == "ext://sys.stdout"
    assert s["LOGGING"]["root"]["level"] == "WARNING"


def test_one_setting_says_how_many_proxies_stand_in_front(load_settings):
    """Every limit that counts per address reads the client's address the same way."""
    s = load_settings()
    assert s["ALLAUTH_TRUSTED_PROXY_COUNT"] == 0 and s["REST_FRAMEWORK"]["NUM_PROXIES"] == 0
    s = load_settings(TRUSTED_PROXY_COUNT="1")
    assert s["ALLAUTH_TRUSTED_PROXY_COUNT"] == 1 and s["REST_FRAMEWORK"]["NUM_PROXIES"] == 1


def test_three_queues_by_default(load_settings):
    s = load_settings()
    assert s["TASK_QUEUES"] == {"bots": "bots", "email": "email", "sweeps": "sweeps"}
    # Celery reads every CELERY_* setting: CELERY_QUEUES would be its own queue
    # declarations, and sending any task would fail.
    assert "CELERY_QUEUES" not in s
    assert s["CELERY_TASK_ROUTES"] == ("games.tasks.route_task",)


def test_celery_workers_leave_their_output_as_it_is():
    """Redirected into the log, one traceback of a worker or beat became some 1,600
    JSON lines of one fragment each (``celery.redirected``)."""
    from highsociety_site.celery import app

    assert app.conf.worker_redirect_stdouts is False
    assert app.conf.worker_hijack_root_logger is False
