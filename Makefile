# Entry points of the companion. `make book` and `make test` work on a fresh machine with
# Python 3.10+: the first call creates .venv and installs the pinned dependencies.
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
MODE ?= full
JOBS ?= 2
CH ?=
# The dataset mirror beside the repository, when there is one (machines without internet access)
DPNET_DATA_MIRROR ?= $(abspath $(wildcard ../shared/data))
export DPNET_DATA_MIRROR

.PHONY: help env data book html chapter lab lab-env test lint bench clean

help:
	@echo "make book [MODE=full|quick] [JOBS=2]   execute every chapter and build _build/html"
	@echo "make chapter CH=<id> [MODE=full|quick] execute one chapter into results/<id>/"
	@echo "make html                               rebuild the HTML from the last runs (no execution)"
	@echo "make lab [LAB_ARGS=...]                 JupyterLab with the chapters as notebooks (installs the lab extra)"
	@echo "make test                               run the test suite (includes a quick build of the book)"
	@echo "make lint | bench | data | clean"

$(VENV)/.installed: pyproject.toml
	$(PYTHON) -c 'import sys; sys.exit("Python 3.10 or newer is needed (found %s)" % sys.version.split()[0]) if sys.version_info < (3, 10) else None'
	$(PYTHON) -m venv $(VENV) || { echo "python3 -m venv failed: install your system's venv package (Debian/Ubuntu: apt install python3-venv)"; exit 1; }
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e ".[dev,he,cluster]"
	@touch $@

env: $(VENV)/.installed

data: env
	$(PY) -m dpnet.data fetch --all

book: env data
	$(PY) -m dpnet.book build --mode $(MODE) --jobs $(JOBS)

html: env
	$(PY) -m dpnet.book html

# JupyterLab in the project's environment (the optional `lab` extra, installed here on first use; `make
# book` and `make test` do not need it). lab/overrides.json makes jupytext's notebook the default viewer
# of Markdown files, so each chapter's MyST source opens as a notebook, and turns autosave off, so
# running a chapter changes no file of the repository (Ctrl-S saves your edits into the chapter's source).
# A notebook run by hand writes to results/_interactive/<id>/. LAB_ARGS go to `jupyter lab`
# (e.g. LAB_ARGS="--no-browser --port 8899").
LAB_ARGS ?=

$(VENV)/.lab-installed: $(VENV)/.installed pyproject.toml
	$(PY) -m pip install --quiet -e ".[dev,he,cluster,lab]"
	@touch $@

lab-env: $(VENV)/.lab-installed

lab: lab-env
	$(VENV)/bin/jupyter lab --LabApp.app_settings_dir="$(CURDIR)/lab" --LabApp.default_url=/lab/tree/chapters \
	  $(if $(filter 0,$(shell id -u)),--allow-root) $(LAB_ARGS)

# A value as one shell word, taken literally: make expands nothing in it, the shell splits nothing.
# (Make would also expand CH and MODE to put them in the recipes' environment: they are not exported.)
shell_word = '$(subst ','\'',$(1))'
unexport CH MODE

chapter: env
	@test -n $(call shell_word,$(value CH)) || { echo "usage: make chapter CH=<chapter id> (python -m dpnet.book list shows them)"; exit 2; }
	$(PY) -m dpnet.book run $(call shell_word,$(value CH)) --mode $(call shell_word,$(value MODE))

# Two pytest workers: one builds the quick book (its tests are one group, tests/conftest.py) while the
# other runs the unit tests.
TEST_WORKERS ?= 2

test: env
	$(PY) -m pytest -n $(TEST_WORKERS) --dist loadgroup

lint: env
	$(VENV)/bin/ruff check lib tests benchmarks
	@# the chapters' code cells, as jupytext renders them (read-only: the sources are not rewritten)
	@for f in chapters/*.md; do \
	  $(VENV)/bin/jupytext --quiet --to py:percent --output - $$f \
	    | $(VENV)/bin/ruff check --stdin-filename $${f%.md}.py - || exit 1; \
	 done
	$(VENV)/bin/ruff format --check lib tests benchmarks

bench: env
	$(PY) benchmarks/run_all.py
	$(PY) benchmarks/bench_funcpert.py

clean:
	rm -rf _build results
