"""docker-compose.yml, read against the settings: Docker does not run in the tests, so
what can be checked without it is checked here.  Every variable the app's containers
get is one the settings read; the web service can be scaled (no fixed name or host
port) behind HAProxy, which finds the replicas by name; the app reaches PostgreSQL
through PgBouncer in transaction mode and says so, while the migrations go straight to
PostgreSQL, once."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

from tests.faults.stack import ASGI_WORKER

ROOT = Path(__file__).resolve().parents[2]
APP_SERVICES = ("migrate", "web", "worker", "worker-bots", "beat")


@pytest.fixture(scope="module")
def compose() -> dict:
    return yaml.safe_load((ROOT / "docker-compose.yml").read_text())


def settings_variables() -> set[str]:
    """The environment variables highsociety_site/settings.py reads (env_* readers)."""
    source = (ROOT / "highsociety_site" / "settings.py").read_text()
    return set(re.findall(r'env_(?:str|bool|int|list|url|emails?)\(\s*"([A-Z0-9_]+)"', source))


def test_every_variable_of_the_app_containers_is_read_by_the_settings(compose):
    known = settings_variables()
    assert {"DATABASE_URL", "DATABASE_POOLER", "REDIS_URL", "TRUSTED_PROXY_COUNT"} <= known
    for name in APP_SERVICES:
        environment = compose["services"][name]["environment"]
        unknown = set(environment) - known
        assert not unknown, f"{name}: {sorted(unknown)} are read by no setting"


def test_the_web_service_can_be_scaled_behind_haproxy(compose):
    web = compose["services"]["web"]
    assert "container_name" not in web and "ports" not in web  # `--scale web=2` needs both
    assert "8000" in [str(port) for port in web.get("expose", [])]
    haproxy = compose["services"]["haproxy"]
    assert "8000:8000" in haproxy["ports"]
    mounted = [volume.split(":")[0] for volume in haproxy["volumes"]]
    config = (ROOT / mounted[0]).read_text()
    assert re.search(r"^\s*server-template \S+ \d+ web:8000 .*resolvers docker", config, re.M)
    assert re.search(r"^\s*nameserver \S+ 127\.0\.0\.11:53", config, re.M)  # Docker's DNS
    assert "uri /health/" in config and "balance roundrobin" in config
    host = re.search(r"hdr Host (\S+)", config).group(1)  # a host the app accepts
    assert host in _default(compose["x-app"]["environment"]["ALLOWED_HOSTS"]).split(",")


def test_the_app_goes_through_pgbouncer_in_transaction_mode(compose):
    services = compose["services"]
    for name in ("web", "worker", "worker-bots", "beat"):
        environment = services[name]["environment"]
        assert "@pgbouncer:6432/" in environment["DATABASE_URL"]
        assert environment["DATABASE_POOLER"] == "transaction"
        assert "pgbouncer" in services[name]["depends_on"]
    ini = (ROOT / "deploy" / "pgbouncer" / "pgbouncer.ini").read_text()
    assert re.search(r"^pool_mode = transaction$", ini, re.M)
    assert re.search(r"^listen_port = 6432$", ini, re.M)
    assert services["pgbouncer"]["build"] == "deploy/pgbouncer"


def test_the_migrations_run_once_straight_to_postgresql(compose):
    services = compose["services"]
    migrate = services["migrate"]
    assert "@postgres:5432/" in migrate["environment"]["DATABASE_URL"]
    assert not migrate["environment"]["DATABASE_POOLER"]
    assert "migrate" in migrate["command"] and migrate["restart"] == "no"
    assert "migrate" not in services["web"]["command"]  # N replicas would race
    for name in ("web", "worker", "worker-bots", "beat"):
        assert services[name]["depends_on"]["migrate"] == {
            "condition": "service_completed_successfully"
        }


def test_one_worker_per_kind_of_queue(compose):
    def queues(name: str) -> set[str]:
        command = compose["services"][name]["command"]
        found = next(arg for arg in command if arg.startswith("--queues="))
        return set(found.split("=", 1)[1].split(","))

    assert queues("worker-bots") == {"bots"}
    assert queues("worker") == {"celery", "email", "sweeps"}


def test_haproxy_lets_each_asgi_node_hold_the_boards_streams(compose):
    """The web nodes are ASGI: each open board holds a stream (one connection) for
    minutes while pages are served beside it, so a node's connection cap is far above
    its worker count, and HAProxy's timeouts outlast the stream's heartbeat."""
    from django.conf import settings

    command = compose["services"]["web"]["command"]
    assert "asgi:application" in command
    # The worker that ends the streams on shutdown (tests/faults/test_shutdown.py).
    assert f"--worker-class {ASGI_WORKER} " in command
    assert f'"--worker-class", "{ASGI_WORKER}"' in (ROOT / "Dockerfile").read_text()
    config = (ROOT / "deploy" / "haproxy.cfg").read_text()
    template = re.search(r"^\s*server-template .*$", config, re.M).group(0)
    assert int(re.search(r" maxconn (\d+) ", template).group(1)) >= 500
    for side in ("client", "server"):
        seconds = int(re.search(rf"^\s*timeout {side} (\d+)s$", config, re.M).group(1))
        assert seconds > 2 * settings.LIVE_HEARTBEAT_SECONDS
    assert re.search(r"^\s*timeout queue \d+s$", config, re.M)


def test_the_web_service_writes_nothing_of_the_image_at_its_start(compose):
    """The image collects the static files as root; the containers run as ``app``.  The
    web service ran collectstatic again at each start, which rewrote files in folders
    only root could write (the chown was not recursive): gunicorn never started, and
    HAProxy waited for a healthy web for ever."""
    command = compose["services"]["web"]["command"]
    assert "collectstatic" not in command and "gunicorn" in command
    dockerfile = (ROOT / "Dockerfile").read_text()
    assert "collectstatic" in dockerfile
    chown = re.search(r"chown (-R )?app:app (.+)", dockerfile)
    assert chown and chown.group(1) == "-R " and "/app/staticfiles" in chown.group(2)
    assert dockerfile.index("collectstatic") < dockerfile.index("chown -R")


def _default(value: str) -> str:
    """The value compose gives a ``${NAME:-default}`` without an .env."""
    found = re.fullmatch(r"\$\{[A-Z_]+:-(.*)\}", value)
    return found.group(1) if found else value


def test_serving_under_a_real_name_is_set_in_the_env_file(compose):
    """The e-mail server and sender were fixed to Mailpit in the compose file: a site
    served under its real name sent every confirmation and password reset to Mailpit,
    whose page, published on every interface, showed them to anyone (an account's
    takeover).  The name, the e-mail server and sender come from .env (Mailpit and
    localhost by default), and Mailpit's page listens on the machine's loopback only."""
    environment = compose["x-app"]["environment"]
    for name in (
        "EMAIL_URL",
        "DEFAULT_FROM_EMAIL",
        "ALLOWED_HOSTS",
        "CSRF_TRUSTED_ORIGINS",
        "SITE_URL",
    ):
        assert environment[name].startswith("${" + name + ":-"), name
    assert _default(environment["EMAIL_URL"]).startswith("smtp://mailpit:1025")
    assert _default(environment["SITE_URL"]) == "http://localhost:8000"
    assert compose["services"]["mailpit"]["ports"] == ["127.0.0.1:8025:8025"]
