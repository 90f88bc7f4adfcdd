# The two commands: `make run` (serve the site on the embedded defaults) and `make test`.
# Needs only Python >= 3.12 on the machine; everything else goes into .venv.

PYTHON ?= $(shell command -v python3.12 >/dev/null 2>&1 && echo python3.12 || echo python3)
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
# `make run PORT=8100` serves on another port.
PORT ?= 8000

.PHONY: run test install messages migrate lint typecheck check clean

$(BIN)/python:
	@$(PYTHON) -c 'import sys; sys.exit(sys.version_info < (3, 12))' || \
		{ echo "Python 3.12 or newer is needed (found: $$($(PYTHON) --version))"; exit 1; }
	$(PYTHON) -m venv $(VENV)

$(STAMP): $(BIN)/python pyproject.toml
	$(BIN)/python -m pip install --upgrade pip
	$(BIN)/python -m pip install -e ".[dev]"
	touch $(STAMP)

install: $(STAMP)

# Compiled catalogues are committed, so a machine without gettext skips this step.
messages: install
	@if command -v msgfmt >/dev/null 2>&1; then \
		$(BIN)/python manage.py compilemessages --ignore=.venv --ignore=staticfiles; \
	else echo "msgfmt not found: using the committed .mo files"; fi

migrate: install
	$(BIN)/python manage.py migrate --noinput

run: messages migrate
	$(BIN)/python manage.py ensure_bots
	$(BIN)/python manage.py ensure_demo
	@if [ "$$DJANGO_ENV" = "production" ]; then $(BIN)/python manage.py collectstatic --noinput; fi
	$(BIN)/python manage.py serve --bind 127.0.0.1 --port $(PORT)

test: install
	$(BIN)/python -m pytest -n auto

lint: install
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

typecheck: install
	$(BIN)/mypy .

check: install
	$(BIN)/python manage.py makemigrations --check --dry-run

clean:
	rm -rf $(VENV) staticfiles .pytest_cache .mypy_cache .ruff_cache
