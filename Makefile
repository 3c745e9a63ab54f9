# Clubavond: `make run` serves the demo club, `make test` runs the whole suite.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: run test setup lint bench messages clean

# The compiled matcher is built by `pip install -e .` (the last line of requirements.txt).
MATCHER := pyproject.toml setup.py pairing/engines/matcher.cpp pairing/engines/matcher.h pairing/engines/matcher_build.py

$(STAMP): requirements.txt package.json $(MATCHER)
	test -d $(VENV) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -r requirements.txt
	@if command -v npm >/dev/null 2>&1; then npm install --no-audit --no-fund --silent || echo "npm install failed: pages work without htmx"; fi
	touch $(STAMP)

setup: $(STAMP)
	@$(PY) -c 'import pairing.engines._matcher' 2>/dev/null || $(PY) -m pip install --quiet --no-deps -e .

run: setup
	$(PY) manage.py migrate --noinput
	$(PY) manage.py demo
	$(PY) manage.py runserver 127.0.0.1:8000

test: setup
	$(PY) -m pytest

lint: setup
	$(PY) -m ruff check .

bench: setup
	for script in bench/bench_*.py; do $(PY) $$script; done

# Needs gettext; the compiled .mo files are committed, so a fresh machine does not.
messages: setup
	$(PY) manage.py makemessages -l nl -l da --ignore=.venv --ignore=node_modules --ignore=tests --no-obsolete
	$(PY) manage.py compilemessages --ignore=.venv

clean:
	rm -rf $(VENV) node_modules db.sqlite3 pairing/engines/_matcher*.so *.egg-info
