# Clubavond: `make run` serves the demo club, `make test` runs the whole suite, `make serve` is production.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: run serve test setup lint bench messages clean conformance

# The compiled matcher is built by `pip install -e .` (the last line of requirements.txt).
MATCHER := pyproject.toml setup.py pairing/engines/matcher.cpp pairing/engines/matcher.h pairing/engines/matcher_build.py

$(STAMP): requirements.txt $(MATCHER)
	test -d $(VENV) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -r requirements.txt
	touch $(STAMP)

setup: $(STAMP)
	@$(PY) -c 'import pairing.engines._matcher' 2>/dev/null || $(PY) -m pip install --quiet --no-deps -e .

# The demo runs in development mode (DEBUG=1); `make serve` is the production server.
run: export DEBUG = 1
run: setup
	$(PY) manage.py migrate --noinput
	$(PY) manage.py demo
	$(PY) manage.py worker & worker=$$!; trap 'kill $$worker' EXIT; $(PY) manage.py runserver 127.0.0.1:8000

# Production (README, "Deploying"): DEBUG off, so SECRET_KEY and ALLOWED_HOSTS must be set;
# gunicorn.conf.py reads BIND (default 127.0.0.1:8000) and WEB_CONCURRENCY (worker processes).
# `make run` and `make serve` start a job worker beside the web server.
serve: setup
	$(PY) manage.py migrate --noinput
	$(PY) manage.py collectstatic --noinput --verbosity 0
	$(PY) manage.py worker & worker=$$!; trap 'kill $$worker' EXIT; $(VENV)/bin/gunicorn

test: setup
	$(PY) -m pytest

# docs/conformance.md: every article of the seeds, C.04.3 and C.07 with the tests that check it; raises
# the ratchet (conformance/covered.txt) to every article now covered.
conformance: setup
	$(PY) -m conformance.trace --raise-ratchet

lint: setup
	$(PY) -m ruff check .

bench: setup
	for script in bench/bench_*.py; do $(PY) $$script; done

# Needs gettext; the compiled .mo files are committed, so a fresh machine does not.
messages: export DEBUG = 1
messages: setup
	$(PY) manage.py makemessages -l nl -l da --ignore=.venv --ignore=staticfiles --ignore=tests --no-obsolete --no-location
	$(PY) manage.py compilemessages --ignore=.venv

clean:
	rm -rf $(VENV) staticfiles db.sqlite3 pairing/engines/_matcher*.so *.egg-info build
