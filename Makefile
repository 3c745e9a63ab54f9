# Clubavond: `make run` serves the demo club, `make test` runs the whole suite, `make serve` is production.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python

# The locks (README, "Dependencies"): requirements.txt pins what the server runs, requirements-dev.txt that
# and the test tools, every package with its hashes. `make run` and `make serve` install the first, `make
# test` and the other development targets the second; editing a lock reinstalls.
LOCK := requirements.txt
DEV_LOCK := requirements-dev.txt
STAMP := $(VENV)/.installed
DEV_STAMP := $(VENV)/.installed-dev

.PHONY: run serve test setup install lint bench messages clean conformance lock upgrade

# The compiled matcher is built by `pip install -e .`, after the lock, with the locked setuptools and cffi
# (no build isolation: nothing unlocked is downloaded).
MATCHER := pyproject.toml setup.py pairing/engines/matcher.cpp pairing/engines/matcher.h pairing/engines/matcher_build.py
INSTALL_PROJECT := $(PY) -m pip install --quiet --no-deps --no-build-isolation -e .

$(STAMP): $(LOCK) $(MATCHER)
	test -d $(VENV) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --require-hashes -r $(LOCK)
	$(INSTALL_PROJECT)
	touch $(STAMP)

# pip-sync removes what the lock no longer lists (the project too, installed again after it).
$(DEV_STAMP): $(DEV_LOCK) $(LOCK) $(MATCHER)
	test -d $(VENV) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --require-hashes -r $(DEV_LOCK)
	$(VENV)/bin/pip-sync --quiet $(DEV_LOCK)
	$(INSTALL_PROJECT)
	touch $(DEV_STAMP)

# What the server needs, no test tools.
install: $(STAMP)
	@$(PY) -c 'import pairing.engines._matcher' 2>/dev/null || $(INSTALL_PROJECT)

# The browser tests' accessibility checker (axe-core), pinned in tests/e2e/package-lock.json and loaded by
# the tests into the pages they check; never served by the site. Needs npm; without it those tests skip.
AXE := tests/e2e/node_modules/axe-core/axe.min.js
$(AXE): tests/e2e/package.json tests/e2e/package-lock.json
	cd tests/e2e && npm ci --no-audit --no-fund --ignore-scripts
	touch $(AXE)

# A development checkout: the server's packages, the tests and the tools.
setup: $(DEV_STAMP)
	@$(PY) -c 'import pairing.engines._matcher' 2>/dev/null || $(INSTALL_PROJECT)
	@if command -v npm >/dev/null 2>&1; then $(MAKE) --no-print-directory $(AXE); \
	else echo "npm not found: the browser tests' accessibility checks will be skipped"; fi

# Pins requirements*.in in the locks: a changed range is pinned anew, other pins are kept. `make upgrade`
# moves every pin to the newest release its range allows (one package: `make upgrade UPGRADE="-P django"`);
# run `make test` and the benchmarks after it (README, "Dependencies").
PIP_COMPILE := CUSTOM_COMPILE_COMMAND="make lock" $(VENV)/bin/pip-compile --quiet --generate-hashes \
	--allow-unsafe --strip-extras --no-emit-index-url --no-emit-find-links
UPGRADE := --upgrade
lock: setup
	$(PIP_COMPILE) --output-file $(LOCK) requirements.in
	$(PIP_COMPILE) --output-file $(DEV_LOCK) requirements-dev.in

upgrade: setup
	$(PIP_COMPILE) $(UPGRADE) --output-file $(LOCK) requirements.in
	$(PIP_COMPILE) $(UPGRADE) --output-file $(DEV_LOCK) requirements-dev.in

# The demo runs in development mode (DEBUG=1); `make serve` is the production server.
run: export DEBUG = 1
run: install
	$(PY) manage.py migrate --noinput
	$(PY) manage.py demo
	$(PY) manage.py worker & worker=$$!; trap 'kill $$worker' EXIT; $(PY) manage.py runserver 127.0.0.1:8000

# Production (README, "Deploying"): DEBUG off, so SECRET_KEY and ALLOWED_HOSTS must be set;
# gunicorn.conf.py reads BIND (default 127.0.0.1:8000) and WEB_CONCURRENCY (worker processes).
# `make run` and `make serve` start a job worker beside the web server.
serve: install
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
