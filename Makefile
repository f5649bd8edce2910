# Two commands matter on a fresh machine: `make build` and `make test`.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
TEST_STAMP := $(VENV)/.installed-test
# `make build BASE_URL=https://user.github.io/repo/` overrides site.yaml's base_url.
BASE_URL ?=
BUILD_FLAGS := $(if $(BASE_URL),--base-url $(BASE_URL))

.PHONY: build test serve check bench fuzz lint clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e .
	touch $@

$(TEST_STAMP): $(STAMP) pyproject.toml
	$(BIN)/pip install --quiet -e '.[test]'
	$(BIN)/pip install --quiet torch==2.13.0 || echo "torch unavailable: reference test will be skipped"
	touch $@

# Byte-compile the package as pip does for an installed one: an editable install
# otherwise compiles it on every run where PYTHONDONTWRITEBYTECODE is set.
build: $(STAMP)
	@$(BIN)/python -m compileall -q site_builder
	$(BIN)/site-builder build $(BUILD_FLAGS)

test: $(TEST_STAMP)
	$(BIN)/ruff check .
	$(BIN)/mypy
	$(BIN)/pytest -q

serve: $(STAMP)
	$(BIN)/site-builder serve

check: $(STAMP)
	$(BIN)/site-builder check $(BUILD_FLAGS)

# Timings on a generated corpus: BENCH_POSTS (1000), BENCH_LARGE (5000), BENCH_RUNS (3).
bench: $(STAMP)
	$(BIN)/python -m bench.run

# More hostile input than `make test` runs: FUZZ_EXAMPLES per property.
fuzz: $(TEST_STAMP)
	FUZZ_EXAMPLES=$${FUZZ_EXAMPLES:-20000} $(BIN)/pytest -q tests/test_fuzz.py

lint: $(TEST_STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy

clean:
	rm -rf public .cache $(VENV)
