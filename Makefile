# Two commands do all the set-up: `make run` plays, `make test` checks everything.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test lint typecheck pytest bench clean browser

$(STAMP): pyproject.toml
	$(PY) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $(STAMP)

run: $(STAMP)
	$(BIN)/hearts serve

browser:
	@bash scripts/ensure-chromium.sh

lint: $(STAMP)
	$(BIN)/ruff check src tests benchmarks
	$(BIN)/ruff format --check src tests benchmarks

typecheck: $(STAMP)
	$(BIN)/mypy

pytest: $(STAMP) browser
	$(BIN)/pytest

test: lint typecheck pytest

bench: $(STAMP)
	$(BIN)/python benchmarks/engine_speed.py

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
