"""Site-wide pages that belong to no app."""

import logging
import time

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.core.cache import cache
from django.core.exceptions import PermissionDenied
from django.db import connection
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.templatetags.static import static
from django.urls import reverse
from django.utils import translation
from django.views.decorators.cache import never_cache
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_safe

from accounts.second_factor import staff_admin_refusal
from highsociety_site.celery import app as celery_app
from ops.outages import database_unreachable

logger = logging.getLogger(__name__)


RULES_FILE = settings.BASE_DIR / "docs" / "rules.md"
SERVICE_WORKER_FILE = settings.BASE_DIR / "static" / "js" / "sw.js"


@require_safe
def rules(request: HttpRequest) -> HttpResponse:
    """The rules page: docs/rules.md, the one text of the rules, rendered as a page
    (Markdown with tables; raw HTML in the file is not passed through).  A word in
    another language than the page's is written ``[Title]{lang=en}`` and becomes
    ``<span lang="en">``, so a screen reader says it in its own language; ``lang`` is
    the one attribute such a span may carry."""
    from markdown_it import MarkdownIt
    from mdit_py_plugins.attrs import attrs_plugin

    # The rules in the reader's language (docs/rules.de.md, docs/rules.fr.md) when there
    # is such a file, else the English original.
    translated = RULES_FILE.with_suffix(f".{translation.get_language()}.md")
    source = (
        translated if translated.name != RULES_FILE.name and translated.exists() else RULES_FILE
    )
    text = source.read_text(encoding="utf-8")
    md = (
        MarkdownIt("commonmark", {"html": False})
        .enable("table")
        .use(attrs_plugin, spans=True, allowed=["lang"])
    )
    tokens = _cells_labelled(md.parse(text))
    html = md.renderer.render(tokens, md.options, {})
    return render(request, "rules.html", {"rules_html": html})


def _cells_labelled(tokens: list) -> list:
    """Each cell of the rules' tables gets its column's heading as ``data-label``: on a
    phone the rows stack (site.css), each cell under its heading, instead of a table
    wider than the screen whose last column (the card's effect) is out of sight."""
    headings: list[str] = []
    column = 0
    in_head = False
    for token in tokens:
        if token.type == "thead_open":
            headings, in_head = [], True
        elif token.type == "thead_close":
            in_head = False
        elif token.type == "tr_open":
            column = 0
        elif token.type == "inline" and in_head:
            headings.append(token.content)
        elif token.type == "td_open":
            if column < len(headings):
                token.attrSet("data-label", headings[column])
            column += 1
    return tokens


@require_safe
def service_worker(request: HttpRequest) -> HttpResponse:
    """The service worker of Web Push (``static/js/sw.js``), served from the site's root
    so that its scope is the whole site.  Browsers look for a new version at least once a
    day; ``no-cache`` makes them ask every time a page registers it."""
    response = HttpResponse(
        SERVICE_WORKER_FILE.read_bytes(), content_type="text/javascript; charset=utf-8"
    )
    response["Service-Worker-Allowed"] = "/"
    response["Cache-Control"] = "no-cache"
    return response


@require_safe
def favicon(request: HttpRequest) -> HttpResponse:
    """``/favicon.ico``: browsers ask for it wherever a response names no icon (the API's
    JSON, the service worker), and would otherwise log a 404 each time.  The site's one
    icon is the SVG in static/img; a temporary redirect, since its URL carries a hash
    that changes with the file."""
    response = redirect(static("img/favicon.svg"))
    response["Cache-Control"] = "max-age=86400"
    return response


@csrf_exempt  # GET and HEAD only: any other method is told so (405), not refused a token
@never_cache
@require_safe
def health(request: HttpRequest) -> JsonResponse:
    """Liveness for container health checks: the process answers and the database does.

    Deliberately nothing more: docker-compose starts the worker only once the web is
    healthy, so this check must not wait for the worker (``/health/ready/`` does)."""
    if _database_status() != "ok":
        return JsonResponse({"status": "error", "database": "unavailable"}, status=503)
    return JsonResponse({"status": "ok"})


@csrf_exempt  # GET and HEAD only: any other method is told so (405), not refused a token
@never_cache
@require_safe
def health_ready(request: HttpRequest) -> JsonResponse:
    """Readiness of the whole service: database, moves storable, broker, and a worker
    heartbeat.

    With tasks in-process (no broker configured) broker and worker read "in-process".
    503 when any part is down, with each part's status in the body (no error details)."""
    database = _database_status()
    parts = {"database": database, "moves": _moves_status() if database == "ok" else database}
    if celery_app.conf.task_always_eager:
        parts["broker"] = parts["worker"] = "in-process"
    else:
        parts["broker"] = _broker_status()
        queues = {queue: _worker_status(queue) for queue in heartbeat_queues()}
        parts["worker"] = next((v for v in WORKER_WORST if v in queues.values()), "ok")
    healthy = all(value in ("ok", "in-process") for value in parts.values())
    if not celery_app.conf.task_always_eager:
        parts["queues"] = queues  # each queue's worker, by the queue's name
    return JsonResponse(
        {"status": "ok" if healthy else "error", **parts}, status=200 if healthy else 503
    )


def _database_status() -> str:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
    except Exception:  # any database failure means "not healthy", never a 500 page
        return "unavailable"
    return "ok"


def _moves_status() -> str:
    """Can a move be stored now?  The move path's statements, rolled back."""
    from games.services import game_store_check

    try:
        game_store_check()
    except Exception as error:  # any failure means "not ready", never a 500 page
        if not database_unreachable(error):  # a bug or a misconfiguration: say which
            logger.exception("readiness: a move could not be stored")
        return "unavailable"
    return "ok"


def _broker_status() -> str:
    try:
        with celery_app.connection_for_write() as conn:
            conn.ensure_connection(max_retries=1, interval_start=0, interval_step=0, timeout=2)
    except Exception:
        return "unavailable"
    return "ok"


# The worst first: what ``worker`` says when the queues' workers disagree.
WORKER_WORST = ("unknown", "no heartbeat", "stale")


def heartbeat_queues() -> list[str]:
    """The queues whose workers must be alive: each kind's (bots, e-mail, sweeps), or
    Celery's default queue where no kind has one of its own."""
    return list(dict.fromkeys(settings.TASK_QUEUES.values())) or [
        celery_app.conf.task_default_queue
    ]


def _worker_status(queue: str) -> str:
    from games.tasks import worker_heartbeat_key

    try:
        beat = cache.get(worker_heartbeat_key(queue))
    except Exception:  # the cache (Redis) itself is down
        return "unknown"
    if beat is None:
        return "no heartbeat"
    return "ok" if time.time() - float(beat) <= settings.HEALTH_WORKER_MAX_AGE else "stale"


# allauth's limits (log-in, sign-up) count per minute or per five minutes; the password
# reset e-mails to one address, three an hour (settings.ACCOUNT_RATE_LIMITS).
RATE_LIMIT_RETRY_SECONDS = 60
RESET_RETRY_SECONDS = 3600


def too_many_requests(request: HttpRequest) -> HttpResponse:
    """allauth's refusal of a rate-limited attempt (``handler429`` in the URLconf): the
    site's own page, with ``Retry-After``, saying how long for the limit it met."""
    match = getattr(request, "resolver_match", None)
    reset = match is not None and match.url_name == "account_reset_password"
    if reset:
        # Which of the two limits: the address's own (three an hour), unless a request
        # for an address never asked for is refused too (then it is this place's,
        # twenty a minute).  A dry run, with allauth's public call: nothing is counted.
        from allauth.core import ratelimit

        fresh = f"never-asked-{time.time_ns()}@example.invalid"
        reset = ratelimit.consume(request, action="reset_password", key=fresh, dry_run=True)
    response = render(request, "429.html", {"reset": reset}, status=429)
    response["Retry-After"] = str(RESET_RETRY_SECONDS if reset else RATE_LIMIT_RETRY_SECONDS)
    return response


@never_cache
def admin_login(request: HttpRequest) -> HttpResponse:
    """The admin's log-in page sends people to the site's log-in, with its rate limits
    and its per-account lockout, and back to the admin afterwards.  It never checks a
    password itself.  Signed in already: staff without a second factor in this session
    are sent to set one up or to confirm a code; anybody else is refused."""
    next_url = request.GET.get("next") or "/admin/"
    if not next_url.startswith("/admin/"):
        next_url = "/admin/"
    if not request.user.is_authenticated:
        return redirect_to_login(next_url, login_url=reverse("account_login"))
    if not (request.user.is_active and request.user.is_staff):
        raise PermissionDenied(translation.gettext("The admin is for the site's staff."))
    refusal = staff_admin_refusal(request, next_url)
    if refusal is None:
        return redirect(next_url)
    where, why = refusal
    messages.info(request, why)
    return redirect(where)
