# Entry points of the companion. `make book` and `make test` work on a fresh machine with
# Python 3.10+: the first call creates .venv and installs the pinned dependencies.
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
MODE ?= full
JOBS ?= 2
CH ?=

.PHONY: help env data book chapter test lint bench clean

help:
	@echo "make book [MODE=full|quick] [JOBS=2]   execute every chapter and build _build/html"
	@echo "make chapter CH=<id> [MODE=full|quick] execute one chapter into results/<id>/"
	@echo "make test                               run the test suite (includes a quick build of the book)"
	@echo "make lint | bench | data | clean"

$(VENV)/.installed: pyproject.toml
	$(PYTHON) -c 'import sys; sys.exit("Python 3.10 or newer is needed (found %s)" % sys.version.split()[0]) if sys.version_info < (3, 10) else None'
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e ".[dev]"
	@touch $@

env: $(VENV)/.installed

data: env
	$(PY) -m dpnet.data fetch --all

book: env data
	$(PY) -m dpnet.book build --mode $(MODE) --jobs $(JOBS)

chapter: env
	@test -n "$(CH)" || { echo "usage: make chapter CH=<chapter id> (python -m dpnet.book list shows them)"; exit 2; }
	$(PY) -m dpnet.book run $(CH) --mode $(MODE)

test: env
	$(PY) -m pytest

lint: env
	$(VENV)/bin/ruff check lib tests benchmarks chapters
	$(VENV)/bin/ruff format --check lib tests benchmarks

bench: env
	$(PY) benchmarks/bench_power.py

clean:
	rm -rf _build results
