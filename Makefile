# Oakwood — two commands for a newcomer: `make run` and `make test`.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
# Two install stamps: playing needs only Oakwood and its runtime dependencies; the checks need the dev tools.
RUN_STAMP := $(VENV)/.installed-run
DEV_STAMP := $(VENV)/.installed-dev

.PHONY: run test lint typecheck bench clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(RUN_STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e ".[web,analysis]"
	touch $(RUN_STAMP)

# The checks also need the dask backend, the PostgreSQL driver, the balance workbench (matplotlib, scipy), the RL
# adapters (Gymnasium, PettingZoo, OpenSpiel), the RL training examples (sb3-contrib and torch, pinned to the CPU
# build: see pyproject.toml) and the browser-test tools (optional for playing).
$(DEV_STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e ".[dev,web,distributed,postgres,analysis,rl,openspiel,rl-train]"
	touch $(DEV_STAMP) $(RUN_STAMP)

## Install what playing and analysing need, then start the web app (lobby, tables, replays) on http://127.0.0.1:8000/.
## Terminal play stays: .venv/bin/oakwood play squarrels
run: $(RUN_STAMP)
	$(BIN)/oakwood serve

## Install the dev dependencies and run every check: ruff, mypy (strict on engine/ and games/), pytest.
## The browser tests need Debian's Chromium, the store tests PostgreSQL's binaries (a throwaway server of
## their own, or OAKWOOD_TEST_POSTGRES_URL's) and the hosting recipe's test Caddy: scripts/system-packages
## installs them when we are root, else says the one apt-get command to run.
test: $(DEV_STAMP)
	scripts/system-packages
	$(BIN)/ruff check src tests benchmarks examples
	$(BIN)/mypy
	$(BIN)/python -m pytest -n 2

lint: $(DEV_STAMP)
	$(BIN)/ruff check src tests benchmarks examples
	$(BIN)/ruff format --check src tests benchmarks

typecheck: $(DEV_STAMP)
	$(BIN)/mypy

## Engine throughput benchmark (not a test): see benchmarks/README.md.
bench: $(RUN_STAMP)
	$(BIN)/python benchmarks/engine_speed.py

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache build src/*.egg-info
