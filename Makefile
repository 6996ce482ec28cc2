# One command per routine job.  `make run` and `make test` are the README's two commands.
SHELL := /bin/bash
VENV ?= .venv
PY := $(VENV)/bin/python
# Pick the interpreter ourselves: the first Python >= 3.11 that actually runs
# (pyenv shims for versions that are not activated exist but fail, hence the probe).
BOOT_PYTHON := $(shell for p in python3.11 python3.12 python3.13 python3; do \
	if $$p -c 'import sys; sys.exit(sys.version_info < (3, 11))' >/dev/null 2>&1; then echo $$p; break; fi; done)

.PHONY: install run test test-fast lint format importlint migrations-check bench clean

$(VENV)/.installed: pyproject.toml
	@test -n "$(BOOT_PYTHON)" || { echo "Python 3.11 or newer is required" >&2; exit 1; }
	$(BOOT_PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev]'
	touch $@

install: $(VENV)/.installed

test: install
	$(VENV)/bin/lint-imports
	$(PY) -m pytest

test-fast: install
	$(PY) -m pytest tests/games/engine tests/games/ai -q

lint: install
	$(VENV)/bin/ruff check .
	$(VENV)/bin/lint-imports

format: install
	$(VENV)/bin/ruff format .

bench: install
	$(PY) bench/engine_speed.py
	$(PY) bench/ai_tournament.py --games 40

clean:
	rm -rf $(VENV) .pytest_cache
