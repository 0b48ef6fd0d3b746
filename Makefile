# StareBrain — the project's commands. `make demo` and `make test` are the README's two commands.
PY ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-stamp
PYTEST_ARGS ?=

.PHONY: setup demo test bench lint clean fault-campaign

setup: $(STAMP)

$(STAMP): pyproject.toml
	$(PY) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -e '.[dev]'
	touch $(STAMP)

demo: setup
	$(BIN)/python -m starebrain.demo

test: setup
	@if [ -n "$${CI:-}" ]; then sh scripts/ci-deps.sh; fi
	$(BIN)/python -m pytest -q $(PYTEST_ARGS)

bench: setup
	$(BIN)/python -m bench

# The longer seeded fault campaign (CI runs a smaller one): SIGKILL/SIGSTOP, phone restarts, cancels.
fault-campaign: setup
	STAREBRAIN_CAMPAIGN_RUNS=$${RUNS:-40} $(BIN)/python -m pytest -q -s -p no:randomly \
		tests/cli/test_fault_campaign_e2e.py

lint: setup
	$(BIN)/ruff check starebrain cli migrations tests bench
	$(BIN)/mypy starebrain  # starebrain/cli and starebrain/migrations included

clean:
	rm -rf $(VENV) .demo build dist *.egg-info
