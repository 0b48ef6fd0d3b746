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
	@# The suite starts the CLI as hundreds of processes, as an installed package runs them: with the bytecode
	@# cache (a shell that sets PYTHONDONTWRITEBYTECODE would make each one compile every module again).
	@# worksteal: the default `load` mode hands each worker a fixed first quarter of the suite, so the worker that got
	@# tests/agent and tests/cli (most of the end-to-end tests) ran alone for minutes after the other had finished.
	env -u PYTHONDONTWRITEBYTECODE $(BIN)/python -m pytest -q -n auto --maxprocesses 4 --dist worksteal $(PYTEST_ARGS)

bench: setup
	$(BIN)/python -m bench

# The longer seeded fault campaign (CI runs a smaller one): SIGKILL/SIGSTOP, phone restarts, cancels;
# and a phone restart after every step of the errand (CI restarts after the four steps the rewind treats most differently).
fault-campaign: setup
	STAREBRAIN_CAMPAIGN_RUNS=$${RUNS:-40} STAREBRAIN_RESTART_STEPS=all $(BIN)/python -m pytest -q -s \
		-p no:randomly tests/cli/test_fault_campaign_e2e.py \
		tests/cli/test_exactly_once_e2e.py::test_a_phone_restart_after_each_kind_of_step_never_repeats_the_send

lint: setup
	$(BIN)/ruff check starebrain cli migrations tests bench
	$(BIN)/mypy starebrain  # starebrain/cli and starebrain/migrations included

clean:
	rm -rf $(VENV) .demo build dist *.egg-info
