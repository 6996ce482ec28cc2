"""The typed environment readers of highsociety_site/env.py."""

import pytest
from django.core.exceptions import ImproperlyConfigured

from highsociety_site.env import (
    env_bool,
    env_emails,
    env_int,
    env_list,
    env_str,
    env_url,
    parse_database_url,
    parse_email_url,
    redact_url,
)


@pytest.mark.parametrize("raw", ["1", "true", "TRUE", "yes", "on", " On "])
def test_env_bool_true(raw):
    assert env_bool("FLAG", False, environ={"FLAG": raw}) is True


@pytest.mark.parametrize("raw", ["0", "false", "False", "no", "off"])
def test_env_bool_false(raw):
    assert env_bool("FLAG", True, environ={"FLAG": raw}) is False


@pytest.mark.parametrize("environ", [{}, {"FLAG": ""}, {"FLAG": "   "}])
def test_env_bool_unset_or_blank_gives_default(environ):
    assert env_bool("FLAG", True, environ=environ) is True


@pytest.mark.parametrize("raw", ["maybe", "2", "y", "enabled"])
def test_env_bool_rejects_other_words_and_names_the_variable(raw):
    with pytest.raises(ImproperlyConfigured, match="FLAG"):
        env_bool("FLAG", False, environ={"FLAG": raw})


def test_env_int_reads_and_defaults():
    assert env_int("N", 7, environ={}) == 7
    assert env_int("N", 7, environ={"N": " 42 "}) == 42


@pytest.mark.parametrize("raw", ["forty", "4.5", "1e3", "0x10"])
def test_env_int_rejects_non_integers(raw):
    with pytest.raises(ImproperlyConfigured, match="N="):
        env_int("N", 0, environ={"N": raw})


def test_env_int_bounds():
    with pytest.raises(ImproperlyConfigured, match="minimum"):
        env_int("N", 0, minimum=0, environ={"N": "-1"})
    with pytest.raises(ImproperlyConfigured, match="maximum"):
        env_int("N", 0, maximum=10, environ={"N": "11"})
    assert env_int("N", 0, minimum=0, maximum=10, environ={"N": "10"}) == 10


def test_env_list_splits_on_commas_and_drops_blanks():
    assert env_list("L", ["d"], environ={}) == ["d"]
    assert env_list("L", ["d"], environ={"L": "a.example, b.example,, "}) == [
        "a.example",
        "b.example",
    ]


def test_env_emails_reads_plain_addresses_and_refuses_anything_else():
    assert env_emails("M", environ={}) == []
    assert env_emails("M", environ={"M": " a@example.org, b@example.org,"}) == [
        "a@example.org",
        "b@example.org",
    ]
    with pytest.raises(ImproperlyConfigured, match="M holds 'Mods <m@example.org>', which is not"):
        env_emails("M", environ={"M": "a@example.org, Mods <m@example.org>"})


def test_env_list_default_is_copied():
    default = ["x"]
    env_list("L", default, environ={}).append("y")
    assert default == ["x"]


def test_env_str():
    assert env_str("S", "dflt", environ={}) == "dflt"
    assert env_str("S", "dflt", environ={"S": "  value "}) == "value"
    assert env_str("S", environ={}) is None


def test_env_url_accepts_absolute_urls():
    assert env_url("U", environ={"U": "https://play.example.org/"}) == "https://play.example.org/"
    assert env_url("U", "http://x", environ={}) == "http://x"


@pytest.mark.parametrize("raw", ["play.example.org", "ftp://x.org", "http://", "/relative"])
def test_env_url_rejects_what_is_not_an_absolute_url(raw):
    with pytest.raises(ImproperlyConfigured, match="U="):
        env_url("U", environ={"U": raw})


def test_env_url_schemes():
    assert env_url("R", schemes=("redis",), environ={"R": "redis://h:6379/0"}) == "redis://h:6379/0"
    with pytest.raises(ImproperlyConfigured):
        env_url("R", schemes=("redis",), environ={"R": "http://h:6379/0"})


# --- e-mail URLs -------------------------------------------------------------


def test_email_url_console_file_locmem_dummy():
    assert parse_email_url("console:") == {
        "EMAIL_BACKEND": "django.core.mail.backends.console.EmailBackend"
    }
    assert parse_email_url("file:///var/mail/hs") == {
        "EMAIL_BACKEND": "django.core.mail.backends.filebased.EmailBackend",
        "EMAIL_FILE_PATH": "/var/mail/hs",
    }
    assert parse_email_url("locmem:")["EMAIL_BACKEND"].endswith("locmem.EmailBackend")
    assert parse_email_url("dummy:")["EMAIL_BACKEND"].endswith("dummy.EmailBackend")


def test_email_url_plain_smtp_as_docker_compose_uses_it():
    assert parse_email_url("smtp://mailpit:1025") == {
        "EMAIL_BACKEND": "django.core.mail.backends.smtp.EmailBackend",
        "EMAIL_HOST": "mailpit",
        "EMAIL_PORT": 1025,
        "EMAIL_HOST_USER": "",
        "EMAIL_HOST_PASSWORD": "",
        "EMAIL_USE_TLS": False,
        "EMAIL_USE_SSL": False,
    }


def test_email_url_credentials_are_percent_decoded_and_tls_variants():
    config = parse_email_url("smtp+tls://me%40example.org:p%3Ass@smtp.example.org?timeout=10")
    assert config["EMAIL_HOST_USER"] == "me@example.org"
    assert config["EMAIL_HOST_PASSWORD"] == "p:ss"
    assert (config["EMAIL_PORT"], config["EMAIL_USE_TLS"], config["EMAIL_USE_SSL"]) == (
        587,
        True,
        False,
    )
    assert config["EMAIL_TIMEOUT"] == 10
    ssl = parse_email_url("smtps://u:p@smtp.example.org")
    assert (ssl["EMAIL_PORT"], ssl["EMAIL_USE_TLS"], ssl["EMAIL_USE_SSL"]) == (465, False, True)
    assert parse_email_url("smtp://h")["EMAIL_PORT"] == 25


@pytest.mark.parametrize(
    "url",
    [
        "mailto:someone@example.org",
        "smtp://",
        "smtp://host:port",
        "file://relative/dir",
        "smtp://h?timeout=soon",
        "smpt://h:25",
    ],
)
def test_email_url_rejects_bad_urls(url):
    with pytest.raises(ImproperlyConfigured, match="EMAIL_URL"):
        parse_email_url(url)


def test_email_url_errors_never_show_the_password():
    with pytest.raises(ImproperlyConfigured) as excinfo:
        parse_email_url("smtp://user:s3cret@host:notaport")
    assert "s3cret" not in str(excinfo.value)
    assert "***" in str(excinfo.value)


def test_redact_url():
    assert redact_url("redis://:pw@h:6379/0") == "redis://:***@h:6379/0"
    assert redact_url("smtp://h:25") == "smtp://h:25"


@pytest.mark.parametrize(
    ("url", "shown"),
    [
        ("http://u:secretpw@h/0", "http://u:***@h/0"),
        # No scheme: urlsplit takes "u" for one, and saw no password.
        ("u:secretpw@h/db", "u:***@h/db"),
        ("//u:secretpw@h/db", "//u:***@h/db"),
        # What should have been percent-encoded ends the host part for urlsplit.
        ("postgres://u:secret/pw@h/db", "postgres://u:***@h/db"),
        ("postgres://u:secret#pw@h/db", "postgres://u:***@h/db"),
        ("postgres://u:se@cretpw@h/db", "postgres://u:***@h/db"),
        ("redis://u:secretpw@[::1/0", "redis://u:***@[::1/0"),
        # Nothing to hide.
        ("redis://u@h:6379/0", "redis://u@h:6379/0"),
        ("redis://[::1]:6379/0", "redis://[::1]:6379/0"),
        ("amqp://guest@mq//", "amqp://guest@mq//"),
    ],
)
def test_redact_url_hides_any_password_and_never_fails(url, shown):
    assert redact_url(url) == shown


@pytest.mark.parametrize(
    ("name", "url", "schemes"),
    [
        ("REDIS_URL", "http://u:secretpw@h/0", ("redis", "rediss")),
        ("CELERY_BROKER_URL", "kafka://u:secretpw@h/0", ("redis", "amqp")),
        ("REDIS_URL", "redis://:secretpw@127.0.0.1:notaport/0", ("redis",)),
        ("REDIS_URL", "redis://:secretpw@127.0.0.1:6379/notanumber", ("redis",)),
        ("SITE_URL", "https://u:secret/pw@h", ("http", "https")),
    ],
)
def test_env_url_errors_never_show_the_password(name, url, schemes):
    with pytest.raises(ImproperlyConfigured, match=name) as excinfo:
        env_url(name, schemes=schemes, environ={name: url})
    assert "secret" not in str(excinfo.value)
    assert "***" in str(excinfo.value)


@pytest.mark.parametrize(
    ("url", "says"),
    [
        ("redis://127.0.0.1:notaport/0", "port that is not a number"),
        ("redis://127.0.0.1:70000/0", "port that is not a number"),
        ("redis://127.0.0.1:0/0", "port that is not a number"),
        ("redis://127.0.0.1:6379/notanumber", "database must be a number"),
        ("redis://127.0.0.1:6379/0/1", "database must be a number"),
        ("rediss://127.0.0.1:6379/0?db=one", "database must be a number"),
        ("redis://:pw@/0", "not an absolute URL"),
    ],
)
def test_env_url_refuses_a_redis_url_that_would_fail_later(url, says):
    """redis-py reads a path that is not a number as database 0 (the cache then shares
    another site's keys) and a port that is not one fails at the first connection:
    both stop the start instead."""
    with pytest.raises(ImproperlyConfigured, match=says):
        env_url("REDIS_URL", schemes=("redis", "rediss"), environ={"REDIS_URL": url})


@pytest.mark.parametrize(
    "url",
    [
        "redis://h",
        "redis://h:6379",
        "redis://h:6379/",
        "rediss://:pw@h:6380/15",
        "redis://h/2?db=2",
    ],
)
def test_env_url_takes_a_redis_url_with_a_database_number_or_none(url):
    assert env_url("REDIS_URL", schemes=("redis", "rediss"), environ={"REDIS_URL": url}) == url


def test_an_email_url_with_a_slash_in_its_password_says_how_to_write_it():
    """ "has a port that is not a number" alone sent an operator looking at the port."""
    with pytest.raises(ImproperlyConfigured, match="percent-encoded: / as %2F") as refused:
        parse_email_url("smtp://u:s3cret/pw@mail:587")
    assert "s3cret" not in str(refused.value)
    config = parse_email_url("smtp://u:s3cret%2Fpw@mail:587")
    assert config["EMAIL_HOST_PASSWORD"] == "s3cret/pw"


def test_env_url_refuses_a_port_that_is_not_a_number_whatever_the_scheme():
    with pytest.raises(ImproperlyConfigured, match="SITE_URL=.*port"):
        env_url("SITE_URL", environ={"SITE_URL": "https://play.example.org:https"})
    assert env_url("SITE_URL", environ={"SITE_URL": "http://[::1]:8000"}) == "http://[::1]:8000"


# --- database URLs -----------------------------------------------------------


def test_database_url_postgres_keeps_connections():
    config = parse_database_url("postgres://hs:pw@db:5432/highsociety", conn_max_age=60)
    assert config["ENGINE"] == "django.db.backends.postgresql"
    assert (config["HOST"], config["PORT"], config["NAME"]) == ("db", 5432, "highsociety")
    assert config["CONN_MAX_AGE"] == 60
    assert config["CONN_HEALTH_CHECKS"] is True


def test_database_url_sqlite_never_keeps_connections():
    config = parse_database_url("sqlite:////tmp/hs.sqlite3", conn_max_age=60)
    assert config["ENGINE"] == "django.db.backends.sqlite3"
    assert config["NAME"] == "/tmp/hs.sqlite3"
    assert config["CONN_MAX_AGE"] == 0


@pytest.mark.parametrize("url", ["mongodb://h/db", "postgres://h:5432/", "nonsense"])
def test_database_url_rejects_unusable_urls(url):
    with pytest.raises(ImproperlyConfigured, match="DATABASE_URL"):
        parse_database_url(url, conn_max_age=0)


@pytest.mark.parametrize(
    "url",
    [
        "postgres://hs:s3cret@db:5432/",
        "hs:s3cret@db:5432/highsociety",  # no scheme
        "postgres://hs:s3cret/x@db:5432/highsociety",  # a "/" not percent-encoded
        "postgres://hs:s3cret@db:port/highsociety",
    ],
)
def test_database_url_errors_never_show_the_password(url):
    with pytest.raises(ImproperlyConfigured, match="DATABASE_URL") as excinfo:
        parse_database_url(url, conn_max_age=0)
    assert "s3cret" not in str(excinfo.value)
    assert "***" in str(excinfo.value)


def test_a_pool_bounds_the_connections_of_a_process():
    config = parse_database_url(
        "postgres://hs:pw@db:5432/highsociety", conn_max_age=60, pool_size=8
    )
    assert config["OPTIONS"]["pool"] == {"min_size": 1, "max_size": 8, "timeout": 10}
    assert config["CONN_MAX_AGE"] == 0 and config["CONN_HEALTH_CHECKS"] is True
    sqlite = parse_database_url("sqlite:////tmp/hs.sqlite3", conn_max_age=60, pool_size=8)
    assert "pool" not in sqlite["OPTIONS"]


def test_database_behind_a_transaction_pooler_uses_no_server_side_cursors():
    config = parse_database_url(
        "postgres://hs:pw@pgbouncer:6432/highsociety", conn_max_age=60, pooler="transaction"
    )
    assert config["DISABLE_SERVER_SIDE_CURSORS"] is True
    assert config["CONN_MAX_AGE"] == 60  # the connection to the pooler stays open
    direct = parse_database_url("postgres://hs:pw@db:5432/highsociety", conn_max_age=60)
    assert not direct.get("DISABLE_SERVER_SIDE_CURSORS")


def test_database_pooler_rejects_unknown_modes():
    with pytest.raises(ImproperlyConfigured, match="DATABASE_POOLER"):
        parse_database_url("postgres://h:5432/db", conn_max_age=0, pooler="session")


@pytest.mark.django_db(transaction=True)
def test_a_pooled_connection_the_server_dropped_is_not_handed_to_a_request():
    """With DATABASE_POOL_SIZE (the web containers' default) the pool handed out its
    connections unchecked: after PostgreSQL or PgBouncer restarted, each kept
    connection failed one request with the outage page before the pool learnt."""
    from django.db import connection
    from django.db.backends.postgresql.base import DatabaseWrapper

    if connection.vendor != "postgresql":
        pytest.skip("a connection pool is PostgreSQL's")
    pooled = parse_database_url("postgres://u:p@h:5432/db", conn_max_age=60, pool_size=1)
    settings = {
        **connection.settings_dict,
        "CONN_MAX_AGE": pooled["CONN_MAX_AGE"],
        "CONN_HEALTH_CHECKS": pooled["CONN_HEALTH_CHECKS"],
        "OPTIONS": {**connection.settings_dict["OPTIONS"], **pooled["OPTIONS"]},
    }
    wrapper = DatabaseWrapper(settings, alias="pool_check")
    try:
        with wrapper.cursor() as cursor:
            cursor.execute("SELECT pg_backend_pid()")
            pid = cursor.fetchone()[0]
        wrapper.close()  # back into the pool, kept open
        with connection.cursor() as cursor:  # the server drops it (a restart, say)
            cursor.execute("SELECT pg_terminate_backend(%s)", [pid])
        with wrapper.cursor() as cursor:
            cursor.execute("SELECT pg_backend_pid()")
            assert cursor.fetchone()[0] != pid
    finally:
        wrapper.close()
        wrapper.close_pool()
