# Oakwood — two commands for a newcomer: `make run` and `make test`.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
# Two install stamps: playing needs Oakwood, its runtime dependencies and mypyc (the compiled form); the checks need
# the dev tools.
RUN_STAMP := $(VENV)/.installed-run
DEV_STAMP := $(VENV)/.installed-dev

.PHONY: run test lint typecheck bench clean compiled test-compiled fingerprint

# The compiled form (issue 36): mypyc compiles the engines, the games and the search from the same sources into a
# copy beside them, build/compiled, which refuses to be imported once any source differs from what it was
# compiled from (src/oakwood/form.py). scripts/build_compiled.py rebuilds it only when a source changed, and
# exits 2 with one line saying why when this machine cannot compile (no gcc or no Python headers): then the pure
# form runs, with the same behaviour. OAKWOOD_PURE=1 skips the compiled form altogether.
BUILD_COMPILED := $(BIN)/python scripts/build_compiled.py
# Succeeds when build/compiled is fresh after (re)building it; prints why not otherwise.
COMPILED_READY := [ -z "$$OAKWOOD_PURE" ] && $(BUILD_COMPILED)

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(RUN_STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e ".[web,analysis,compile]"
	touch $(RUN_STAMP)

# The checks also need the dask backend, the PostgreSQL driver, the balance workbench (matplotlib, scipy), the RL
# adapters (Gymnasium, PettingZoo, OpenSpiel), the RL training examples (sb3-contrib and torch, pinned to the CPU
# build: see pyproject.toml) and the browser-test tools (optional for playing).
$(DEV_STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e ".[dev,web,distributed,postgres,analysis,rl,openspiel,rl-train]"
	touch $(DEV_STAMP) $(RUN_STAMP)

## Install what playing and analysing need, then start the web app (lobby, tables, replays) on http://127.0.0.1:8000/.
## Terminal play stays: .venv/bin/oakwood play squarrels
## The server runs the compiled form when this machine can build it (a few minutes the first time), else the pure one.
run: $(RUN_STAMP)
	@if $(COMPILED_READY); then PYTHONPATH=build/compiled $(BIN)/oakwood serve; else $(BIN)/oakwood serve; fi

## Install the dev dependencies and run every check: ruff, mypy (strict on engine/ and games/), pytest.
## The browser tests need Debian's Chromium, the store tests PostgreSQL's binaries (a throwaway server of
## their own, or OAKWOOD_TEST_POSTGRES_URL's) and the hosting recipe's test Caddy: scripts/system-packages
## installs them when we are root, else says the one apt-get command to run.
test: $(DEV_STAMP)
	scripts/system-packages
	$(BIN)/ruff check src tests benchmarks examples
	$(BIN)/mypy
	$(BIN)/python -m pytest -n 2
	$(MAKE) --no-print-directory test-compiled

## The other form: the conformance kit on the compiled build, and the behaviour fingerprints of both forms compared
## (they must be equal). Skipped, said once, where nothing can be compiled.
test-compiled: $(DEV_STAMP)
	@if $(COMPILED_READY); then \
		PYTHONPATH=build/compiled $(BIN)/python -m pytest -n 2 -p no:cacheprovider tests/conformance \
			tests/benchmarks/test_strength_times.py && \
		$(BIN)/python scripts/fingerprint.py --both --scale $${FINGERPRINT_SCALE:-0.1}; \
	elif [ -n "$$OAKWOOD_REQUIRE_COMPILED" ]; then echo "the compiled form could not be built (see above)"; exit 1; \
	else echo "the compiled form is not tested here (see above)"; fi

## Build (or refresh) the compiled form in build/compiled.
compiled: $(RUN_STAMP)
	$(BUILD_COMPILED)

## The full fingerprint plan (1,550 games per form, about 6 minutes), pure against compiled.
fingerprint: compiled
	$(BIN)/python scripts/fingerprint.py --both

lint: $(DEV_STAMP)
	$(BIN)/ruff check src tests benchmarks examples
	$(BIN)/ruff format --check src tests benchmarks

typecheck: $(DEV_STAMP)
	$(BIN)/mypy

## Engine throughput benchmark (not a test), then the compiled form against the pure one: see benchmarks/README.md.
bench: $(RUN_STAMP)
	$(BIN)/python benchmarks/engine_speed.py
	@if $(COMPILED_READY); then $(BIN)/python benchmarks/compiled_paired.py; fi

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache build src/*.egg-info
