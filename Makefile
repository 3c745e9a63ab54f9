# Clubavond: `make run` serves the demo club, `make test` runs the whole suite.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: run test setup lint bench messages clean

$(STAMP): requirements.txt package.json
	test -d $(VENV) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -r requirements.txt
	@if command -v npm >/dev/null 2>&1; then npm install --no-audit --no-fund --silent || echo "npm install failed: pages work without htmx"; fi
	touch $(STAMP)

setup: $(STAMP)

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
	rm -rf $(VENV) node_modules db.sqlite3
