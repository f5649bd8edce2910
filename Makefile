# Two commands matter on a fresh machine: `make build` and `make test`.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
TEST_STAMP := $(VENV)/.installed-test
TORCH_STAMP := $(VENV)/.installed-torch
# `make build BASE_URL=https://user.github.io/repo/` overrides site.yaml's base_url.
BASE_URL ?=
BUILD_FLAGS := $(if $(BASE_URL),--base-url $(BASE_URL))
# `make serve OPEN=1` also opens the site in the desktop's browser; DRAFTS=1 shows drafts.
# `make serve PORT=8001` serves on another port.
SERVE_FLAGS := $(if $(filter-out 0,$(OPEN)),--open) $(if $(filter-out 0,$(DRAFTS)),--drafts) \
	$(if $(PORT),--port $(PORT))

# Setting up the venv is nearly all of a fresh `make build`. uv, when on PATH, does it in
# about a second (no pip bootstrap, parallel installs, a shared cache). Without it, the
# Python's own pip installs uv into a venv made without pip (1.8 s; making the venv with
# pip and using that took 3.6 s), and uv the rest: about 13 s in all from an empty cache,
# where pip alone took 25 s. A Python whose pip is missing or older than 22.3 (no
# `--python`) gets a venv with pip, which installs uv. Like `uv venv`, the venv then has
# no pip of its own. `make USE_UV=0 ...` installs with pip alone. pip is never upgraded
# first: the bundled one installs this project (and uv), and upgrading it cost a
# download on every fresh clone.
UV_ON_PATH := $(if $(filter 0,$(USE_UV)),,$(shell command -v uv 2>/dev/null))
UV := $(if $(filter 0,$(USE_UV)),,$(or $(UV_ON_PATH),$(BIN)/uv))
ifeq ($(UV),)
MAKE_VENV := $(PYTHON) -m venv $(VENV)
INSTALL   := $(BIN)/python -m pip install --quiet
else
ifeq ($(UV_ON_PATH),)
MAKE_VENV := sh -c '$(PYTHON) -m venv --without-pip $(VENV) \
	&& $(PYTHON) -m pip --python $(BIN)/python install --quiet uv \
	|| { rm -rf $(VENV) && $(PYTHON) -m venv $(VENV) && $(BIN)/python -m pip install --quiet uv; }'
else
MAKE_VENV := $(UV) venv --quiet --allow-existing --python $(PYTHON) $(VENV)
endif
# Byte-compiled at install, as pip does, so the first build does not compile the libraries.
INSTALL   := $(UV) pip install --quiet --compile-bytecode --python $(BIN)/python
# uv reads no pip configuration; a machine's local wheels (e.g. a CPU-only torch) still count,
# and so does the certificate bundle pip was told to trust (uv's own is built in).
ifneq ($(PIP_FIND_LINKS),)
export UV_FIND_LINKS ?= $(PIP_FIND_LINKS)
endif
ifneq ($(PIP_CERT),)
export SSL_CERT_FILE ?= $(PIP_CERT)
endif
endif
# The package is installed editable as a plain path in a .pth file (setuptools' "compat"
# mode), not through the import hook setuptools installs by default: that hook ran on every
# start of Python in the venv, about 15 ms of a no-op build's 55 ms.
EDITABLE := --config-settings editable_mode=compat -e
# Runs a set-up command with its output held back, shown only when it fails: pip and
# setuptools print notices (setuptools' "Editable installation" warning, pip's hints)
# that say nothing to someone who just wants the site built.
QUIETLY = quietly() { log=$$(mktemp); if "$$@" >"$$log" 2>&1; then rm -f "$$log"; \
	else status=$$?; cat "$$log" >&2; rm -f "$$log"; return $$status; fi; }; quietly

.PHONY: build test test-fast test-torch test-notebooks lint-workflows serve check docs bench fuzz lint clean

# A site whose posts draw plots (plot="plots.py:f") needs Matplotlib, the `plots` extra.
PLOTS_EXTRA := $(if $(shell grep -rlsI --include='*.md' 'plot=' content 2>/dev/null),[plots])

$(STAMP): pyproject.toml
	@echo "Setting up $(VENV) with $(if $(UV),uv,pip) (quiet unless something fails)"
	@$(QUIETLY) $(MAKE_VENV)
	@$(QUIETLY) $(INSTALL) $(EDITABLE) '.$(PLOTS_EXTRA)'
	@touch $@

$(TEST_STAMP): $(STAMP) pyproject.toml
	@echo "Installing the test extras into $(VENV)"
	@$(QUIETLY) $(INSTALL) $(EDITABLE) '.[test]'
	@touch $@

# Only `make test-torch` installs torch (hundreds of MB); `make test` checks the NumPy
# attention against torch's recorded outputs (tests/data/sdpa_reference.json) instead.
$(TORCH_STAMP): $(TEST_STAMP) pyproject.toml
	@echo "Installing torch==2.13.0 into $(VENV) for the live comparison"
	@$(QUIETLY) $(INSTALL) $(EDITABLE) '.[torch]'
	@touch $@

# The package's bytecode is written by its first build, as pip writes an installed one's:
# where PYTHONDONTWRITEBYTECODE is set, an editable install was compiled again on every run
# (a compileall before each build cost 0.04 s, a tenth of the seed's).
build: export PYTHONDONTWRITEBYTECODE =
build: $(STAMP)
	$(BIN)/site-builder build $(BUILD_FLAGS)

# Two pytest-xdist workers (CI's machine has two cores); `make test TEST_JOBS=0` runs the
# suite in one process. A test module is one unit of work (its module fixtures are made
# once), handed out in tests/conftest.py's order: the longest (Lighthouse) first.
# pytest keeps the test modules with their asserts rewritten in __pycache__, which
# PYTHONDONTWRITEBYTECODE (set in some shells and CI images) forbids: each worker then
# rewrote all of them at every run, about 2 CPU-seconds each.
TEST_JOBS ?= 2
PYTEST := PYTHONDONTWRITEBYTECODE= $(BIN)/pytest -q \
	$(if $(filter-out 0,$(TEST_JOBS)),-n $(TEST_JOBS) --dist loadfile --no-loadscope-reorder)

# mypy (about 3 s) runs beside pytest's collection and first site builds, which come
# before the Lighthouse audits take the CPU to themselves; either failing fails the target.
test: $(TEST_STAMP) lint-workflows
	$(BIN)/ruff check .
	$(BIN)/mypy & mypy=$$!; $(PYTEST); tests=$$?; wait $$mypy && exit $$tests

# The edit loop: everything but the browser tests (Chromium, Lighthouse, axe).
test-fast: $(TEST_STAMP)
	$(PYTEST) -m "not browser"

# Notebooks run at build time (`execute: true`): the `notebooks` extra (nbclient, ipykernel)
# and the tests that start a kernel, which `make test` skips without it.
NOTEBOOKS_STAMP := $(VENV)/.installed-notebooks
$(NOTEBOOKS_STAMP): $(TEST_STAMP) pyproject.toml
	@echo "Installing the notebooks extra (nbclient, ipykernel) into $(VENV)"
	@$(QUIETLY) $(INSTALL) $(EDITABLE) '.[notebooks]'
	@touch $@

test-notebooks: $(NOTEBOOKS_STAMP)
	$(BIN)/pytest -q tests/test_notebooks_exec.py

# The live torch comparison (and a check that torch still reproduces the recording).
test-torch: $(TORCH_STAMP)
	$(BIN)/pytest -q -m torch tests/test_attention.py

# actionlint, with shellcheck for the `run:` scripts: zero findings on every workflow.
lint-workflows: $(TEST_STAMP)
	$(BIN)/actionlint -shellcheck=$(BIN)/shellcheck .github/workflows/*.yml

serve: $(STAMP)
	$(BIN)/site-builder serve $(SERVE_FLAGS)

check: $(STAMP)
	$(BIN)/site-builder check $(BUILD_FLAGS)

# The project's documentation, a site of pages built by the tool itself: docs/ into docs/public/.
docs: $(STAMP)
	$(BIN)/site-builder -C docs build

# Timings on a generated corpus: BENCH_POSTS (1000), BENCH_NOTEBOOKS (100), BENCH_LARGE (5000),
# BENCH_RUNS (3).
bench: $(STAMP)
	$(BIN)/python -m bench.run

# More hostile input than `make test` runs (300 a property, 100 for the SVG sanitiser):
# FUZZ_EXAMPLES per property.
fuzz: $(TEST_STAMP)
	FUZZ_EXAMPLES=$${FUZZ_EXAMPLES:-20000} $(BIN)/pytest -q tests/test_fuzz.py tests/test_svg.py

lint: $(TEST_STAMP) lint-workflows
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy

clean:
	rm -rf public .cache docs/public docs/.cache $(VENV)
