# One command per routine job.  `make run` and `make test` are the README's two commands.
SHELL := /bin/bash
VENV ?= .venv
PY := $(VENV)/bin/python
# Pick the interpreter ourselves: the first Python >= 3.11 that actually runs
# (pyenv shims for versions that are not activated exist but fail, hence the probe).
BOOT_PYTHON := $(shell for p in python3.11 python3.12 python3.13 python3; do \
	if $$p -c 'import sys; sys.exit(sys.version_info < (3, 11))' >/dev/null 2>&1; then echo $$p; break; fi; done)

.PHONY: install upgrade browser gettext messages makemessages run test test-fast lint format importlint migrations-check bench bench-cluster clean

# `make run`: the embedded defaults (SQLite file db.sqlite3, tasks in-process, e-mail
# printed to this terminal, DEBUG on) unless the environment says otherwise.  Served by
# uvicorn (ASGI, restarting when a Python file or a template changes: Django keeps
# templates cached), one process: the boards' streams then share an
# in-process channel, no Redis needed; that process also runs beat's sweeps every
# minute (turn e-mails, deadlines: SWEEP_IN_PROCESS_SECONDS).
HOST ?= 127.0.0.1
PORT ?= 8000

# Every package at the version constraints.txt pins (the set the tests last passed with).
# A new virtual environment in $(1), with the first Python 3.11 or newer and a current pip.
define new_venv
	@test -n "$(BOOT_PYTHON)" || { echo "Python 3.11 or newer is required" >&2; exit 1; }
	$(BOOT_PYTHON) -m venv $(1)
	$(1)/bin/python -m pip install --quiet --upgrade pip
endef

$(VENV)/.installed: pyproject.toml constraints.txt
	$(call new_venv,$(VENV))
	$(PY) -m pip install --quiet -c constraints.txt -e '.[dev]'
	touch $@

install: $(VENV)/.installed

# The newest releases that pyproject.toml allows, written to constraints.txt (then
# `make test`, and commit both).  Installed in a scratch environment, so .venv is
# untouched until the next `make install` picks the new file up.
UPGRADE_VENV := .venv-upgrade
upgrade:
	rm -rf $(UPGRADE_VENV)
	$(call new_venv,$(UPGRADE_VENV))
	$(UPGRADE_VENV)/bin/python -m pip install --quiet -e '.[dev]'
	{ sed -n '/^#/p' constraints.txt; $(UPGRADE_VENV)/bin/python -m pip freeze --exclude-editable; } > constraints.txt.new
	mv constraints.txt.new constraints.txt
	rm -rf $(UPGRADE_VENV)
	@git diff --stat -- constraints.txt 2>/dev/null || true

# Browser tests drive Debian's Chromium through Playwright (Playwright's own browser
# download is not used).  Installed here when missing and we may (root with apt-get).
CHROMIUM ?= /usr/bin/chromium
browser:
	@command -v $(CHROMIUM) >/dev/null 2>&1 || { \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; \
	  else echo "Chromium is missing: apt-get install chromium (browser tests need it)" >&2; exit 1; fi; }

# The translations (locale/*/LC_MESSAGES/django.po) are compiled here, never committed
# compiled: GNU gettext's msgfmt does it, installed when missing and we may.
gettext:
	@command -v msgfmt >/dev/null 2>&1 || { \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq gettext >/dev/null; \
	  else echo "gettext is missing: apt-get install gettext (the translations need it)" >&2; exit 1; fi; }

# (The settings refuse to load without a key when DEBUG is off; compiling needs none.)
messages: install gettext
	SECRET_KEY=$${SECRET_KEY:-compilemessages-only} $(PY) manage.py compilemessages \
	  --ignore=.venv --ignore=node_modules -v 0

# After adding or changing a string: refresh locale/*/LC_MESSAGES/django.po, then translate
# the new entries (tests/i18n fails while one is missing or fuzzy).
makemessages: install gettext
	$(PY) manage.py makemessages -l de -l fr --no-wrap --add-location=file \
	  --ignore=.venv --ignore=tests --ignore=bench --ignore=examples --ignore=staticfiles --ignore=node_modules

run: export SITE_URL ?= http://$(HOST):$(PORT)
run: export DEBUG ?= 1
run: export LOG_FORMAT ?= text
run: export SWEEP_IN_PROCESS_SECONDS ?= 60
run: install messages
	$(PY) manage.py migrate --noinput
	$(PY) manage.py demo
	$(PY) -m uvicorn highsociety_site.asgi:application --host $(HOST) --port $(PORT) --lifespan off \
	  --no-proxy-headers \
	  --reload $(addprefix --reload-dir ,games accounts ops highsociety_site templates) \
	  $(addprefix --reload-include ,'*.html' '*.txt')

# `make test`: the whole suite on the real PostgreSQL and Redis of this machine (the
# environment may point elsewhere), then a second pass of the tests marked `embedded`
# (moves, bots, whole games in the API and the browser) on `make run`'s defaults:
# SQLite, tasks in-process, no Redis.  Each run has its own test databases and cache
# key prefix (tests/settings.py), so two runs at once do not disturb each other.
# Celery stays eager unless a test starts a real worker: tests/settings.py.
# Both passes spread the tests over one process per CPU, at most four (pytest-xdist;
# each may start Chromium, servers and a Celery worker, and holds database connections
# of its own); TEST_WORKERS=0 runs them in this one process.
TEST_WORKERS ?= auto
TEST_XDIST = -n $(TEST_WORKERS) --maxprocesses=4
test: export DATABASE_URL ?= postgres://postgres@127.0.0.1:5432/highsociety
test: export REDIS_URL ?= redis://127.0.0.1:6379/15
test: install browser messages
	$(VENV)/bin/ruff check .
	$(VENV)/bin/lint-imports
	$(PY) manage.py makemigrations --check --dry-run --settings=tests.settings
	$(PY) -m pytest $(TEST_XDIST) $(PYTEST_ARGS)
	env -u DATABASE_URL -u REDIS_URL -u CELERY_BROKER_URL -u HIGHSOCIETY_TEST_RUN \
	  $(PY) -m pytest $(TEST_XDIST) -m embedded $(PYTEST_ARGS)

test-fast: install
	$(PY) -m pytest tests/games/engine tests/games/ai -q

lint: install
	$(VENV)/bin/ruff check .
	$(VENV)/bin/lint-imports

migrations-check: install
	$(PY) manage.py makemigrations --check --dry-run --settings=tests.settings

format: install
	$(VENV)/bin/ruff format .

bench: install
	$(PY) bench/engine_speed.py
	$(PY) bench/ai_tournament.py --games 40

# Several nodes on loopback (bench/cluster.py): HAProxy and PgBouncer are Debian
# packages, installed here when missing and we may (root with apt-get).
bench-cluster: install
	@for p in haproxy pgbouncer; do command -v $$p >/dev/null 2>&1 || test -x /usr/sbin/$$p || { \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq haproxy pgbouncer >/dev/null; \
	  else echo "$$p is missing: apt-get install haproxy pgbouncer" >&2; exit 1; fi; }; done
	$(PY) bench/cluster.py $(BENCH_ARGS)

clean:
	rm -rf $(VENV) .pytest_cache
