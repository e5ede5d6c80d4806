# Two commands do all the set-up: `make run` plays, `make test` checks everything.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test lint typecheck pytest bench bench-ai bench-ai-strength bench-web bench-load bench-friends \
	test-deep clean browser postgres nginx deploy-local native wheel

$(STAMP): pyproject.toml
	$(PY) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $(STAMP)

run: $(STAMP) native
	$(BIN)/hearts serve

# The search's hottest modules compiled with mypyc (hearts/ai/native.py); a no-op when the
# build matches the sources, and plain Python when there is no compiler.
native: $(STAMP)
	@$(BIN)/python scripts/build_native.py

# A wheel in dist/ to install where there is no compiler: it carries the compiled search
# (tagged for this platform and Python), or is pure Python when nothing could be built.
wheel: $(STAMP) native
	$(BIN)/pip wheel --quiet --no-deps --no-build-isolation --wheel-dir dist .

browser:
	@bash scripts/ensure-chromium.sh

postgres:
	@bash scripts/ensure-postgres.sh

nginx:
	@bash scripts/ensure-nginx.sh

lint: $(STAMP)
	$(BIN)/ruff check src tests benchmarks scripts conftest.py setup.py
	$(BIN)/ruff format --check src tests benchmarks scripts conftest.py setup.py

typecheck: $(STAMP)
	$(BIN)/mypy

pytest: $(STAMP) browser postgres nginx native
	$(BIN)/pytest

test: lint typecheck pytest

# Benchmarks (results and machine notes in docs/benchmarks.md). bench-ai-strength takes
# about 50 minutes on this 2-core machine; the others a few minutes each.
bench: $(STAMP) native
	$(BIN)/python benchmarks/engine_speed.py

bench-ai: $(STAMP) native
	$(BIN)/python benchmarks/ai_speed.py --rounds 30 --repeat 3

bench-ai-strength: $(STAMP) native
	$(BIN)/python benchmarks/ai_strength.py --deals 500

bench-web: $(STAMP) native
	$(BIN)/python benchmarks/web_play.py --players medium:4 --seconds 15 --runs 3

bench-load: $(STAMP) native
	$(BIN)/python benchmarks/web_load.py --games 200 --seconds 60 --runs 3

# 100 tables of four people, each with an open event stream, at a person's pace (issue 12).
bench-friends: $(STAMP) native
	$(BIN)/python benchmarks/friends_load.py --tables 100 --seconds 60 --runs 3

# Two processes over a throwaway PostgreSQL behind nginx on loopback (docs/deploy.md).
deploy-local: $(STAMP) native
	bash scripts/deploy-local.sh

# Deeper runs of the hardening tests than CI makes.
test-deep: $(STAMP)
	HEARTS_FUZZ_EXAMPLES=2000 HEARTS_CRASH_KILLS=100 $(BIN)/pytest tests/hardening

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache build dist
	rm -f src/hearts/ai/*.so src/hearts/ai/native.json
