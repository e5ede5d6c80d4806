# Two commands do all the set-up: `make run` plays, `make test` checks everything.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test lint typecheck pytest bench bench-ai bench-ai-strength bench-web bench-load bench-friends \
	test-deep clean browser postgres deploy-local

$(STAMP): pyproject.toml
	$(PY) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $(STAMP)

run: $(STAMP)
	$(BIN)/hearts serve

browser:
	@bash scripts/ensure-chromium.sh

postgres:
	@bash scripts/ensure-postgres.sh

lint: $(STAMP)
	$(BIN)/ruff check src tests benchmarks
	$(BIN)/ruff format --check src tests benchmarks

typecheck: $(STAMP)
	$(BIN)/mypy

pytest: $(STAMP) browser postgres
	$(BIN)/pytest

test: lint typecheck pytest

# Benchmarks (results and machine notes in docs/benchmarks.md). bench-ai-strength takes
# about 50 minutes on this 2-core machine; the others a few minutes each.
bench: $(STAMP)
	$(BIN)/python benchmarks/engine_speed.py

bench-ai: $(STAMP)
	$(BIN)/python benchmarks/ai_speed.py --rounds 30 --repeat 3

bench-ai-strength: $(STAMP)
	$(BIN)/python benchmarks/ai_strength.py --deals 500

bench-web: $(STAMP)
	$(BIN)/python benchmarks/web_play.py --players medium:4 --seconds 15 --runs 3

bench-load: $(STAMP)
	$(BIN)/python benchmarks/web_load.py --games 200 --seconds 60 --runs 3

# 100 tables of four people, each with an open event stream, at a person's pace (issue 12).
bench-friends: $(STAMP)
	$(BIN)/python benchmarks/friends_load.py --tables 100 --seconds 60 --runs 3

# Two processes over a throwaway PostgreSQL behind nginx on loopback (docs/deploy.md).
deploy-local: $(STAMP)
	bash scripts/deploy-local.sh

# Deeper runs of the hardening tests than CI makes.
test-deep: $(STAMP)
	HEARTS_FUZZ_EXAMPLES=2000 HEARTS_CRASH_KILLS=100 $(BIN)/pytest tests/hardening

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
