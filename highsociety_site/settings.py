"""Settings for High Society online, read from the environment.

Every variable is optional for a quick start on one machine (SQLite, in-process tasks,
e-mail printed to the console); docs/operations.md, "Configuration", lists them all with their
defaults.  Bad values stop the process with ImproperlyConfigured (see env.py).
"""

from email.utils import parseaddr
from pathlib import Path
from urllib.parse import urlsplit

from csp.constants import NONE, SELF
from django.core.exceptions import ImproperlyConfigured

from highsociety_site.env import (
    env_bool,
    env_email,
    env_emails,
    env_int,
    env_list,
    env_str,
    env_url,
    parse_database_url,
    parse_email_url,
    parse_vapid_keys,
)

BASE_DIR = Path(__file__).resolve().parent.parent

# --- core --------------------------------------------------------------------

# Off unless the environment turns it on (`make run` does): a forgotten variable must
# never serve tracebacks with a public development key.
DEBUG = env_bool("DEBUG", False)

SECRET_KEY = env_str("SECRET_KEY")
if SECRET_KEY is None:
    if not DEBUG:
        raise ImproperlyConfigured(
            "SECRET_KEY must be set when DEBUG is off (DEBUG=1 for a development machine)."
        )
    # Only ever used with DEBUG on, on a developer's own machine.
    SECRET_KEY = "django-insecure-dev-only-high-society-key-never-use-in-production"
# Earlier keys, still accepted for what they signed or encrypted (sessions, e-mail links,
# second-factor secrets) while SECRET_KEY is rotated.
SECRET_KEY_FALLBACKS = env_list("SECRET_KEY_FALLBACKS", [])

ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", ["localhost", "127.0.0.1", "[::1]"])
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", [])
# The public address of the site, for links in e-mails sent outside a request.
SITE_URL = env_url("SITE_URL", "http://127.0.0.1:8000").rstrip("/")

INSTALLED_APPS = [
    # The admin: staff only, with a second factor (highsociety_site/admin_site.py).
    "highsociety_site.admin_site.StaffAdminConfig",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",  # runserver serves static files as gunicorn does
    "django.contrib.staticfiles",
    "allauth",
    "allauth.account",
    "allauth.mfa",
    "rest_framework",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "django_htmx",
    "template_partials",
    "ops",
    "accounts",
    "accounts.tokens",
    "games",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    # The browser features no page of the site uses are switched off for every page and
    # anything framed in it (PERMISSIONS_POLICY below).
    "django_permissions_policy.PermissionsPolicyMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # /health/ and /health/ready/ answer probes whatever Host they send (ops/health.py).
    "ops.health.HealthCheckMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    # The language: the language cookie (the header's switcher), else the browser's
    # Accept-Language; after the session, before CommonMiddleware (docs/operations.md,
    # "Languages").  A signed-in player's own choice overrides both, just below.
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # The language saved on the account wins for a signed-in player's pages.
    "accounts.middleware.UserLanguageMiddleware",
    # The time zone chosen on the profile, for the times the pages write.
    "accounts.middleware.UserTimeZoneMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "allauth.account.middleware.AccountMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    # A closed table asked for by someone without a seat there: a page that says so.
    "games.middleware.ClosedTableMiddleware",
    # The API's answers are the caller's own: private, and varying with Authorization.
    "games.api.caching.ApiCacheHeadersMiddleware",
    "csp.middleware.CSPMiddleware",
    # Every form post of the site's pages, per user and per address (FORM_POST_RATES).
    "ops.limits.FormPostLimitMiddleware",
    # Database or Redis down during a view: a clear 503 with Retry-After, never a 500.
    "ops.outages.ServiceUnavailableMiddleware",
    # A page's address visited with a method it does not take: words, not a blank 405.
    "ops.not_allowed.MethodNotAllowedPageMiddleware",
]

ROOT_URLCONF = "highsociety_site.urls"
WSGI_APPLICATION = "highsociety_site.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "accounts.context_processors.entrance",
                "accounts.context_processors.account_facts",
                "games.context_processors.turns_waiting",
                "games.context_processors.chat_reports_open",
            ],
        },
    },
]

# --- HTTPS and browser protections (docs/operations.md, "HTTPS") ------------------------
# On by default whenever DEBUG is off; each can be turned off from the environment, e.g.
# for a local plain-http run (docker-compose.yml does so).  Behind a TLS proxy, set
# SECURE_PROXY_SSL_HEADER so Django knows which requests came in over HTTPS.

SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", not DEBUG)
# Health checks from inside the network (docker-compose, a load balancer) speak plain http.
SECURE_REDIRECT_EXEMPT = [r"^health/$", r"^health/ready/$"]
_proxy_ssl_header = env_str("SECURE_PROXY_SSL_HEADER")  # e.g. "X-Forwarded-Proto: https"
if _proxy_ssl_header:
    _header, _, _value = _proxy_ssl_header.partition(":")
    if not _header.strip() or not _value.strip():
        raise ImproperlyConfigured(
            f"SECURE_PROXY_SSL_HEADER={_proxy_ssl_header!r}: write the header and the value "
            "that means HTTPS, as in X-Forwarded-Proto: https."
        )
    SECURE_PROXY_SSL_HEADER = (
        "HTTP_" + _header.strip().upper().replace("-", "_"),
        _value.strip(),
    )
SESSION_COOKIE_SECURE = env_bool("SESSION_COOKIE_SECURE", not DEBUG)
CSRF_COOKIE_SECURE = env_bool("CSRF_COOKIE_SECURE", not DEBUG)
SESSION_COOKIE_HTTPONLY = True
SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 0 if DEBUG else 31536000, minimum=0)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", not DEBUG)
# Only the "preload" directive: the domain joins browsers' lists when submitted to
# hstspreload.org, which is hard to undo.  Off with SECURE_HSTS_PRELOAD=0.
SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", not DEBUG)
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
SECURE_CROSS_ORIGIN_OPENER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"

# Content-Security-Policy (django-csp): only our own scripts, styles and images, no inline
# code, no plugins, no framing.  Templates use no <script> without src, no <style> and no
# style="" attributes (tests/security/test_csp.py); htmx is told not to inject its own
# <style> (base.html); allauth's and Swagger UI's templates with inline styles are
# overridden in templates/.  Nothing is relaxed, not even for /api/docs/.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF],
        "style-src": [SELF],
        "img-src": [SELF, "data:"],
        "font-src": [SELF],
        "connect-src": [SELF],
        "object-src": [NONE],
        "base-uri": [SELF],
        "frame-ancestors": [NONE],
        "form-action": [SELF],
    },
}

# --- database ----------------------------------------------------------------

DATABASES = {
    "default": parse_database_url(
        env_str("DATABASE_URL", f"sqlite:///{BASE_DIR / 'db.sqlite3'}"),
        conn_max_age=env_int("CONN_MAX_AGE", 60, minimum=0),
        # The web server is ASGI: a pool per process bounds its connections (env.py).
        pool_size=env_int("DATABASE_POOL_SIZE", 0, minimum=0, maximum=500),
        # "transaction": PostgreSQL is behind PgBouncer in transaction pooling mode.
        pooler=env_str("DATABASE_POOLER", "") or "",
    )
}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# --- cache -------------------------------------------------------------------

REDIS_URL = env_url("REDIS_URL", None, schemes=("redis", "rediss"))
if REDIS_URL:
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": REDIS_URL,
            # Cache keys share the Redis database with Celery's queues: the prefix
            # keeps them apart (clearing the cache must never drop queued tasks).
            "KEY_PREFIX": env_str("CACHE_KEY_PREFIX", "hs"),
            # A Redis that stops answering (frozen, or a network that drops packets)
            # costs a request seconds, not the length of the stall: the cache's
            # callers carry on without it (ops.outages).
            "OPTIONS": {"socket_timeout": 2, "socket_connect_timeout": 2},
        }
    }
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}

# --- Celery ------------------------------------------------------------------
# The broker is CELERY_BROKER_URL, else REDIS_URL.  With neither, tasks run eagerly in
# the process that queues them (the quick start needs no worker); CELERY_TASK_ALWAYS_EAGER
# overrides that choice either way.  The test settings (tests/settings.py) force eager.

CELERY_BROKER_URL = env_url(
    "CELERY_BROKER_URL", REDIS_URL, schemes=("redis", "rediss", "amqp", "amqps")
)
CELERY_TASK_ALWAYS_EAGER = env_bool("CELERY_TASK_ALWAYS_EAGER", CELERY_BROKER_URL is None)
if CELERY_BROKER_URL is None:
    # Never fall back to Celery's default amqp://localhost: an eager-mode slip would
    # then queue tasks on whatever broker happens to listen there.
    CELERY_BROKER_URL = "memory://localhost//"
# In-process tasks run after the commit of a request that already succeeded: by
# default a failing task is logged, not turned into an error page for that request.
CELERY_TASK_EAGER_PROPAGATES = env_bool("CELERY_TASK_EAGER_PROPAGATES", False)
CELERY_TASK_ACKS_LATE = True  # a task is acknowledged when it finishes, not when taken
CELERY_TASK_REJECT_ON_WORKER_LOST = True  # ...and requeued if its worker dies meanwhile
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_IGNORE_RESULT = True  # no result store: tasks write to the database
CELERY_TASK_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_TASK_TIME_LIMIT = env_int("CELERY_TASK_TIME_LIMIT", 120, minimum=1)
CELERY_TASK_SOFT_TIME_LIMIT = max(1, CELERY_TASK_TIME_LIMIT - 10)
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# Redis redelivers a task not acknowledged within this many seconds.  It must exceed the
# longest task plus any countdown; long delays are done by beat sweeps, never countdowns.
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "visibility_timeout": env_int("CELERY_VISIBILITY_TIMEOUT", 900, minimum=60),
    # A broker that stops answering fails a task's publication within seconds (the
    # request goes on; a sweep queues what was not), not after the whole stall.
    "socket_timeout": 2,
    "socket_connect_timeout": 2,
}
CELERY_BROKER_CONNECTION_TIMEOUT = 2
# One retry of a publication that failed, not Celery's three: a move's request waits
# for it, and what could not be queued is found by a sweep.
CELERY_TASK_PUBLISH_RETRY_POLICY = {
    "max_retries": 1,
    "interval_start": 0,
    "interval_step": 0.2,
    "interval_max": 0.2,
}
CELERY_TIMEZONE = "UTC"
# Three kinds of work on queues of their own, so that bots thinking never hold up an
# e-mail or a sweep (docker-compose runs a worker for the bots and one for the rest):
# games.tasks.route_task sends each task to the queue named here for its kind; a kind
# without a name goes to the default queue ("celery").
# (Not CELERY_QUEUES: that name is Celery's own setting for declaring queues.)
TASK_QUEUES = {
    "bots": env_str("CELERY_QUEUE_BOTS", "bots"),
    "email": env_str("CELERY_QUEUE_EMAIL", "email"),
    "sweeps": env_str("CELERY_QUEUE_SWEEPS", "sweeps"),
}
CELERY_TASK_ROUTES = ("games.tasks.route_task",)
# Beat's periodic sweeps (games/tasks.py).  Each finds what is due in the database and
# claims it once, so a late or repeated run does no harm; still, run exactly ONE beat.
# A sweep not started within 55 seconds is dropped: the next one does its work.
CELERY_BEAT_SCHEDULE = {
    name: {"task": f"games.tasks.{name}", "schedule": 60.0, "options": {"expires": 55}}
    for name in (
        "deadlines_sweep",
        "reminders_sweep",
        "stalled_sweep",
        "outbox_sweep",
        "digests_sweep",
    )
}
# Proof of life for /health/ready/: beat sends one to each queue, and a worker serving
# that queue stamps the cache (so a missing bots worker shows, not only a missing one).
for _queue in dict.fromkeys(TASK_QUEUES.values()):
    CELERY_BEAT_SCHEDULE[f"worker_heartbeat_{_queue}"] = {
        "task": "games.tasks.worker_heartbeat",
        "schedule": 30.0,
        "args": (_queue,),
        "options": {"expires": 25, "queue": _queue},
    }
# A heartbeat older than this many seconds means no worker (or no beat) is running.
HEALTH_WORKER_MAX_AGE = env_int("HEALTH_WORKER_MAX_AGE", 120, minimum=30)

# --- async play: e-mails, deadlines, vacations (docs/architecture.md, "Async play") ---------

# Rated games a player needs to appear on the leaderboard.
LEADERBOARD_MIN_GAMES = env_int("LEADERBOARD_MIN_GAMES", 5, minimum=1)
# Days of vacation (deadlines paused) each player may take per calendar year.
VACATION_DAYS_PER_YEAR = env_int("VACATION_DAYS_PER_YEAR", 14, minimum=0, maximum=366)
# The hour from which the daily digest of games waiting is sent, in each player's own
# time zone (their profile's; UTC without one).  DIGEST_HOUR_UTC is its former name.
DIGEST_HOUR = env_int(
    "DIGEST_HOUR", env_int("DIGEST_HOUR_UTC", 7, minimum=0, maximum=23), minimum=0, maximum=23
)
# Missed deadlines after which a table's creator may hand the seat to a bot for good.
SEAT_TO_BOT_AFTER_TIMEOUTS = env_int("SEAT_TO_BOT_AFTER_TIMEOUTS", 2, minimum=1, maximum=50)
# At a table without a move deadline: days a person to act may go without moving (the
# count starting again when a vacation ends) before the table's creator may hand the
# seat to a bot for good.
SEAT_TO_BOT_AFTER_IDLE_DAYS = env_int("SEAT_TO_BOT_AFTER_IDLE_DAYS", 7, minimum=1, maximum=60)
# What one account may hold at once (games.services): open tables it created, games it
# plays, running games of only itself and bots, invitations it sent that wait for an
# answer.  Past a limit the player is told which one and what to do.
# A table that has waited for players this many days with no seat taken, left or
# changed is closed (games.deadlines.stalled_sweep), as if its host had left it.
WAITING_TABLE_DAYS = env_int("WAITING_TABLE_DAYS", 30, minimum=1, maximum=3650)

TABLE_LIMITS = {
    "open": env_int("LIMIT_OPEN_TABLES", 10, minimum=1),
    "running": env_int("LIMIT_RUNNING_GAMES", 50, minimum=1),
    "joined": env_int("LIMIT_JOINED_TABLES", 10, minimum=1),
    "bot_only": env_int("LIMIT_BOT_ONLY_GAMES", 3, minimum=1),
    "invitations": env_int("LIMIT_PENDING_INVITATIONS", 30, minimum=1),
    "invitations_per_day": env_int("LIMIT_INVITATIONS_PER_DAY", 60, minimum=1),
    "invitations_per_person": env_int("LIMIT_INVITATIONS_PER_PERSON", 5, minimum=1),
}

# --- the board's stream (games/live.py, docs/operations.md "The board's stream") -------
# Open boards hear of a change through server-sent events, over Redis pub/sub when
# REDIS_URL is set (one channel per game), else through this process alone.  Off: every
# board polls every 3 seconds, as before.
LIVE_STREAM = env_bool("LIVE_STREAM", True)
# A comment line this often keeps proxies from closing an idle stream; the player's
# "at the table" mark is refreshed on these beats (games.live.PRESENCE_EVERY).
LIVE_HEARTBEAT_SECONDS = env_int("LIVE_HEARTBEAT_SECONDS", 20, minimum=1, maximum=60)
# A stream ends after this long and the browser opens a new one (3 s later): no
# connection lives for ever behind a proxy, and a redeployed server is picked up.
LIVE_STREAM_SECONDS = env_int("LIVE_STREAM_SECONDS", 600, minimum=10, maximum=86400)
# Streams one player may hold open in one web process; their next boards poll.
LIVE_STREAMS_PER_USER = env_int("LIVE_STREAMS_PER_USER", 4, minimum=1, maximum=1000)

# --- e-mail ------------------------------------------------------------------

# A turn e-mail waits this many seconds after the turn began, to see whether the player
# is at the board (a bot may answer within a second, before the page has loaded); then
# the outbox sweep (every minute) sends it if they are away: one to two minutes in all.
TURN_EMAIL_GRACE_SECONDS = env_int("TURN_EMAIL_GRACE_SECONDS", 60, minimum=0, maximum=3600)

# Without beat: the ASGI web process runs every sweep each this many seconds in a thread
# of its own (games/sweeps.py).  `make run` sets 60, so that the embedded quick start
# sends turn e-mails and plays deadline moves; 0 (the default) leaves it to beat or cron.
SWEEP_IN_PROCESS_SECONDS = env_int("SWEEP_IN_PROCESS_SECONDS", 0, minimum=0, maximum=3600)

# EMAIL_BACKEND, EMAIL_HOST, EMAIL_PORT, EMAIL_HOST_USER, EMAIL_HOST_PASSWORD,
# EMAIL_USE_TLS, EMAIL_USE_SSL, EMAIL_TIMEOUT or EMAIL_FILE_PATH, as the URL says.
globals().update(parse_email_url(env_str("EMAIL_URL", "console:")))
DEFAULT_FROM_EMAIL = env_str("DEFAULT_FROM_EMAIL", "High Society <noreply@localhost>")
SERVER_EMAIL = DEFAULT_FROM_EMAIL
# Where players write to the site's staff (a suspended account, abuse, their data): every
# page's footer, the suspended page and the e-mails about an account the staff changed
# name it.  Unset: nothing names it (there is nobody to write to).
CONTACT_EMAIL = env_email("CONTACT_EMAIL")

# Who is told by e-mail when a player reports a chat line (once per line: the reports
# queue in the admin holds them all).  Unset: the contact address above; neither set:
# nobody is mailed, and the queue and the header's count for staff are all there is.
MANAGERS = [("Moderators", address) for address in env_emails("MODERATION_EMAILS")] or (
    [("Moderators", CONTACT_EMAIL)] if CONTACT_EMAIL else []
)
EMAIL_SUBJECT_PREFIX = "[High Society] "  # mails to the moderators (and admins) start so

# --- Web Push (docs/operations.md, "Web Push") ---------------------------------
# The VAPID key pair (python manage.py vapid_keys prints one) and the contact the push
# services may write to.  Without the keys push is not offered, and nothing says broken.
_from_address = parseaddr(DEFAULT_FROM_EMAIL)[1]  # "High Society <a@b>" -> "a@b"
WEBPUSH = parse_vapid_keys(
    env_str("VAPID_PUBLIC_KEY"),
    env_str("VAPID_PRIVATE_KEY"),
    env_str("VAPID_SUBJECT"),
    default_subject=f"mailto:{_from_address or 'noreply@localhost'}",
)
# Where subscriptions may point: the push services of the browsers (a host or its
# parent domain), on port 443 unless an entry says "host:port" or "host:*".  The server
# POSTs to these addresses, so no other host or port is accepted.
PUSH_SERVICE_HOSTS = env_list(
    "PUSH_SERVICE_HOSTS",
    [
        "fcm.googleapis.com",  # Chrome, Edge, Opera, Samsung Internet
        "push.services.mozilla.com",  # Firefox
        "push.apple.com",  # Safari (web.push.apple.com)
        "notify.windows.com",  # older Edge
    ],
)

# --- accounts (django-allauth) ----------------------------------------------

AUTH_USER_MODEL = "accounts.User"
AUTHENTICATION_BACKENDS = [
    "django.contrib.auth.backends.ModelBackend",
    "allauth.account.auth_backends.AuthenticationBackend",
]
PASSWORD_HASHERS = [
    "django.contrib.auth.hashers.Argon2PasswordHasher",
    "django.contrib.auth.hashers.PBKDF2PasswordHasher",
    "django.contrib.auth.hashers.PBKDF2SHA1PasswordHasher",
    "django.contrib.auth.hashers.ScryptPasswordHasher",
]
AUTH_PASSWORD_VALIDATORS = [
    {
        # Stricter than Django's 0.7: "newbie1newbie1" passed for the user "newbie1" (0.67;
        # the check compares letters only, so lower would refuse unlike passwords too).
        "NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator",
        "OPTIONS": {"max_similarity": 0.6},
    },
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
LOGIN_URL = "account_login"
LOGIN_REDIRECT_URL = "/"
LOGOUT_REDIRECT_URL = "/"

ACCOUNT_LOGIN_METHODS = {"username", "email"}
ACCOUNT_SIGNUP_FIELDS = ["email*", "username*", "password1*", "password2*"]
ACCOUNT_EMAIL_VERIFICATION = "mandatory"
ACCOUNT_UNIQUE_EMAIL = True
ACCOUNT_CHANGE_EMAIL = True  # one address per account; a new one replaces it once verified
ACCOUNT_LOGIN_ON_EMAIL_CONFIRMATION = True
ACCOUNT_EMAIL_NOTIFICATIONS = True  # tell people when their password or e-mail changes
ACCOUNT_USERNAME_MIN_LENGTH = 3
ACCOUNT_ADAPTER = "accounts.adapter.AccountAdapter"  # no look-alike usernames
ACCOUNT_USER_DISPLAY = "accounts.adapter.user_display"  # the display name, as the header
# "Username or e-mail", not "Login"; the name boxes typed for a username (no capital).
ACCOUNT_FORMS = {"login": "accounts.forms.LoginForm", "signup": "accounts.forms.SignupForm"}
ACCOUNT_EMAIL_SUBJECT_PREFIX = "[High Society] "
ACCOUNT_DEFAULT_HTTP_PROTOCOL = urlsplit(SITE_URL).scheme
# Before a second factor is set up or removed, allauth asks again for the password (or
# the factor). Not for a code by e-mail, which allauth offers by default since 65.22:
# every account here has a password, and one more way in is one more to guard. Its two
# routes then refuse with 403.
ACCOUNT_REAUTHENTICATION_METHODS = ("password", "mfa")
# Adding, removing or making primary an e-mail address asks for the password again
# (once per five minutes), as the data download and the deletion do: a session left
# open must not be enough to move the account's address, and with it its password
# resets, elsewhere.
ACCOUNT_REAUTHENTICATION_REQUIRED = True
# allauth's rate limits (stored in the cache) are on with its defaults; these are the
# ones that guard log-in and sign-up, spelled out so a change is deliberate.
ACCOUNT_RATE_LIMITS = {
    "login": "30/m/ip",
    "login_failed": "10/m/ip,5/300s/key",  # key: the username or e-mail tried
    "signup": "20/m/ip",
    # key: the address the reset is sent to: three e-mails an hour, no mail bombing.
    "reset_password": "20/m/ip,3/h/key",
}

# A second factor (an authenticator app, with recovery codes), optional for players
# and required of staff before the admin opens (highsociety_site/admin_site.py).
MFA_SUPPORTED_TYPES = ["totp", "recovery_codes"]
# Authenticator keys and recovery-code seeds stored encrypted (accounts/second_factor.py).
MFA_ADAPTER = "accounts.second_factor.MFAAdapter"
MFA_TOTP_ISSUER = "High Society"

# The client's address, one setting for every limit that counts per address (the
# site's log-in, sign-up and password reset through allauth; the API's throttles):
# REMOTE_ADDR, unless TRUSTED_PROXY_COUNT proxies of ours (a TLS terminator, a load
# balancer) stand in front of the app and each appends to X-Forwarded-For; then the
# address that many entries from the right.  0 (the default) trusts no such header, so
# a client cannot dodge a limit by sending one.  Behind one proxy and with 0, every
# visitor would share the proxy's address (and its limits): set it to 1 there.
TRUSTED_PROXY_COUNT = env_int("TRUSTED_PROXY_COUNT", 0, minimum=0, maximum=5)
ALLAUTH_TRUSTED_PROXY_COUNT = TRUSTED_PROXY_COUNT

# Browser features the site never uses, off (Permissions-Policy): a page of the site, or
# a script that found its way into one, cannot ask for the camera, the microphone, the
# location or a payment.  Notifications and push are asked for through their own
# permission prompts, which this header does not govern.
PERMISSIONS_POLICY: dict[str, list[str]] = {
    "accelerometer": [],
    "autoplay": [],
    "camera": [],
    "display-capture": [],
    "geolocation": [],
    "gyroscope": [],
    "magnetometer": [],
    "microphone": [],
    "midi": [],
    "payment": [],
    "usb": [],
}

# --- API ---------------------------------------------------------------------


def _throttle_rate(name: str, default: str) -> str:
    """A DRF rate such as ``120/min`` (per s, min, hour or day) from the environment."""
    import re

    rate = env_str(name, default)
    if not re.fullmatch(r"[1-9][0-9]{0,8}/(s|sec|second|m|min|minute|h|hour|d|day)", rate):
        raise ImproperlyConfigured(
            f"{name}={rate!r} is not a rate: write a number of requests per s, min, hour "
            "or day, as in 120/min."
        )
    return rate


REST_FRAMEWORK = {
    # Tokens first: an unauthenticated request then gets 401 with a Token challenge.
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "accounts.tokens.auth.TokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",  # browsers, with CSRF
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"],
    # JSON always: ``?format=`` is ignored like any unknown query parameter.
    "DEFAULT_CONTENT_NEGOTIATION_CLASS": "games.api.negotiation.JsonNegotiation",
    "DEFAULT_PARSER_CLASSES": ["games.api.parsers.JSONParser"],  # deep nesting: 400
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "EXCEPTION_HANDLER": "games.api.errors.api_exception_handler",
    "DEFAULT_PAGINATION_CLASS": "games.api.pagination.PagePagination",
    "PAGE_SIZE": 20,
    # Counted in the default cache: Redis when REDIS_URL is set, so every gunicorn worker
    # shares the counts.  "user" counts per account (per address for anonymous calls),
    # "ip" per address whoever calls, "auth" the token log-ins per address.
    "DEFAULT_THROTTLE_CLASSES": ["games.api.throttling.RequestLimit"],
    "DEFAULT_THROTTLE_RATES": {
        "user": _throttle_rate("API_THROTTLE_USER", "240/min"),
        "ip": _throttle_rate("API_THROTTLE_IP", "600/min"),
        "auth": _throttle_rate("API_THROTTLE_AUTH", "10/min"),
    },
    # The client's address, for every request limit: see TRUSTED_PROXY_COUNT.
    "NUM_PROXIES": TRUSTED_PROXY_COUNT,
}
# The site's form posts (joining, bidding, resigning, profile changes …; the API has
# its own limits below), per signed-in user and per client address.
FORM_POST_RATES = {
    "user": _throttle_rate("FORM_POST_RATE_USER", "60/min"),
    "ip": _throttle_rate("FORM_POST_RATE_IP", "120/min"),
}

# Token lifetime for POST /api/v1/auth/token/ (tokens made on the profile page choose).
API_TOKEN_DAYS = env_int("API_TOKEN_DAYS", 30, minimum=1, maximum=365)
# bench/http_bench.py only: serve the "floor" view (one read, one write) for comparison.
BENCH_FLOOR_VIEW = env_bool("BENCH_FLOOR_VIEW", False)

SPECTACULAR_SETTINGS = {
    "TITLE": "High Society online API",
    "DESCRIPTION": (
        "Play Reiner Knizia's High Society from your own program: sign in for a token, "
        "find or create a table, read your view of the game and send moves.\n\n"
        "**Authentication**: `POST /api/v1/auth/token/` with your username and password "
        "returns a token; send it as `Authorization: Token <token>`. Browser sessions work "
        "too (send the CSRF token with unsafe methods).\n\n"
        "**Moves**: every move carries `version`, the game version you saw (the number of "
        "moves so far). A move for an older version is refused with 409, so repeating a "
        "request never makes a second move.\n\n"
        '**Errors** always have the form `{"detail": "...", "code": "..."}`; '
        "invalid input adds `errors`, the messages per field.\n\n"
        "**Limits**: requests are counted per user and per address; past the limit the "
        "answer is 429 with a `Retry-After` header (seconds)."
    ),
    "VERSION": "1.0.0",
    # The enums as drf-spectacular's default hook writes them; then the headers a
    # client reads (Location, Retry-After), which it does not write.
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "games.api.schema.response_headers",
    ],
    # OpenAPI 3.1: a nullable reference is `oneOf: [{$ref}, {type: null}]`; 3.0 could only
    # say `allOf` + `nullable`, which strict 3.0 validators read as "never null".
    "OAS_VERSION": "3.1.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "SCHEMA_PATH_PREFIX": r"/api/v1",
    "COMPONENT_SPLIT_REQUEST": True,
    "ENUM_NAME_OVERRIDES": {
        "GameStatusEnum": "games.models.Game.Status",
        "ActionTypeEnum": "games.api.serializers.ACTION_TYPES",
        "EventTypeEnum": "games.api.serializers.EVENT_TYPES",
        "OrderTypeEnum": "games.api.serializers.ORDER_TYPES",
        "ErrorCodeEnum": "games.api.errors.ERROR_CODES",
        "AiEnum": "games.models.AI_LEVELS",
    },
    "TAGS": [
        {"name": "auth", "description": "Tokens for programs."},
        {"name": "games", "description": "Tables, views of a game and moves."},
        {"name": "users", "description": "Public profiles."},
    ],
    # Swagger UI's files come from the drf-spectacular-sidecar package: no CDN.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
}

# --- static files, i18n ------------------------------------------------------

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "django.contrib.staticfiles.storage.StaticFilesStorage"
            if DEBUG
            # Hashed, compressed names that browsers may cache for ever; needs collectstatic.
            else "whitenoise.storage.CompressedManifestStaticFilesStorage"
        )
    },
}

# The languages players may read the site in (docs/operations.md, "Languages"): the
# catalogues are locale/<code>/LC_MESSAGES/django.po, compiled by `make run`, `make test`
# and the Docker build.  English is the default and the language of the source.
LANGUAGE_CODE = "en"
LANGUAGES = [("en", "English"), ("de", "Deutsch"), ("fr", "Français")]
LOCALE_PATHS = [BASE_DIR / "locale"]
# Dates as each language writes them (highsociety_site/formats/<code>/formats.py): pages
# and e-mails use the named formats (DATE_FORMAT, DATETIME_FORMAT, …), never a pattern.
FORMAT_MODULE_PATH = ["highsociety_site.formats"]
LANGUAGE_COOKIE_NAME = "hs_language"
LANGUAGE_COOKIE_AGE = 365 * 24 * 3600
LANGUAGE_COOKIE_SAMESITE = "Lax"
LANGUAGE_COOKIE_SECURE = SESSION_COOKIE_SECURE  # over https only, as the session's
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True
# No USE_THOUSAND_SEPARATOR: ids in links and numbers in attributes must stay plain.
# Money is grouped as each language writes it (25,000 / 25.000 / 25 000) by
# games.presenter.money_text alone.

# --- logging: everything to stdout, one line per record ----------------------
# LOG_FORMAT=json (the default): one JSON object per line with time, level, logger,
# message and, while a game, request or task is handled, game_id, move_number,
# request_id, task (ops/logcontext.py).  LOG_FORMAT=text: a plain line with
# the same fields as key=value, for reading a terminal (make run).

LOG_LEVEL = env_str("LOG_LEVEL", "INFO").upper()
if LOG_LEVEL not in {"DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"}:
    raise ImproperlyConfigured(f"LOG_LEVEL={LOG_LEVEL!r} is not a logging level.")
LOG_FORMAT = env_str("LOG_FORMAT", "json").lower()
if LOG_FORMAT not in {"json", "text"}:
    raise ImproperlyConfigured(f"LOG_FORMAT={LOG_FORMAT!r} is not a log format: use json or text.")
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {
        "context": {"()": "ops.logcontext.ContextFilter"},
        "probes": {"()": "ops.health.ProbeLogFilter"},  # a failing health check: a warning
        "hosts": {"()": "ops.unknown_host.UnknownHostLogFilter"},  # a scanner's Host: a warning
        "routine": {"()": "ops.routine_task_log.RoutineTaskLogFilter"},  # beat's, when idle
    },
    "formatters": {
        "json": {"()": "ops.logcontext.JsonFormatter"},
        "text": {"()": "ops.logcontext.TextFormatter"},
    },
    "handlers": {
        "stdout": {
            "class": "logging.StreamHandler",
            "stream": "ext://sys.stdout",
            "formatter": LOG_FORMAT,
            "filters": ["context", "probes", "hosts", "routine"],
        },
    },
    "root": {"handlers": ["stdout"], "level": LOG_LEVEL},
    "loggers": {
        "django.db.backends": {"level": "INFO"},  # SQL stays quiet even at LOG_LEVEL=DEBUG
    },
}
# Celery workers keep this configuration (and its level: highsociety_site/celery.py)
# instead of installing their own root handler, and leave their output as it is:
# redirected into the log, a traceback or a console e-mail became hundreds of
# one-fragment `celery.redirected` lines.
CELERY_WORKER_HIJACK_ROOT_LOGGER = False
CELERY_WORKER_REDIRECT_STDOUTS = False
