# The two commands of the README: `make demo` (set up, then run the main job) and `make test`
# (set up, then run every check CI runs). Everything else here is what they need.
#
# The environment is installed from a lock (LOCK, the exact version of every package): constraints/current.txt
# by default; `make test VENV=.venv-pi LOCK=constraints/pi-bookworm.txt PYTHON=python3.11` tests on the
# versions a Raspberry Pi runs. `make lock` updates both locks to what pip resolves today (see docs/UPGRADING.md).
PYTHON ?= python3
VENV ?= .venv
LOCK ?= constraints/current.txt
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed-$(shell cat pyproject.toml $(LOCK) | cksum | cut -d' ' -f1)

.PHONY: demo test setup system-packages lock club-packages

setup: $(STAMP)

$(STAMP): pyproject.toml $(LOCK)
	@$(PYTHON) -c 'import sys; sys.exit(sys.version_info < (3, 11))' \
	  || { echo "tablescore needs Python 3.11 or newer; this is $$($(PYTHON) --version)"; exit 1; }
	@$(PYTHON) -m venv $(VENV) \
	  || { echo "python3 cannot make a virtual environment: install the system package python3-venv"; exit 1; }
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet --constraint $(LOCK) -e '.[dev]'
	@$(PY) -c 'import cv2' 2>/dev/null || $(MAKE) --no-print-directory system-packages
	@rm -f $(VENV)/.installed-* && touch $@

demo: $(STAMP)
	$(VENV)/bin/tablescore demo --headless --once --out demo-frames

test: $(STAMP)
	@$(CLUB_TOOLS) || $(MAKE) --no-print-directory club-packages
	$(PY) -m pytest
	$(VENV)/bin/ruff check .
	$(VENV)/bin/lint-imports --no-cache --no-logo
	$(VENV)/bin/mypy --strict scoring vision club tools device firmware

lock:
	constraints/lock

# $(call apt_install,WHAT,PACKAGES,ELSE): install the Debian PACKAGES, saying they are WHAT, when we may (root
# with apt-get); else run the shell command ELSE.
apt_install = if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
	  echo "installing $(1): $(2)"; \
	  apt-get update -qq && apt-get install -y -qq $(2) >/dev/null; \
	else $(3); fi

# OpenCV's wheel needs two system libraries: installed when we may (root with apt-get), else named.
CV_PACKAGES := libgl1 libglib2.0-0
system-packages:
	@$(call apt_install,system packages OpenCV needs,$(CV_PACKAGES),:)
	@$(PY) -c 'import cv2' 2>/dev/null || { echo "OpenCV cannot load: install the system packages \
	$(CV_PACKAGES) (sudo apt-get install $(CV_PACKAGES))"; exit 1; }

# The benchmarks measure other projects' scorers beside ours: `make bench-setup` installs them.
.PHONY: bench-setup
bench-setup: $(STAMP)
	$(PY) -m pip install --quiet --constraint $(LOCK) -e '.[dev,bench]'

# Club mode's tests run a real Mosquitto broker (with TLS certificates openssl makes) and the live page in
# headless Chromium: installed when we may (root with apt-get), else named.
CLUB_PACKAGES := mosquitto openssl chromium chromium-driver
CLUB_TOOLS := { [ -x /usr/sbin/mosquitto ] && command -v openssl && command -v chromium && command -v chromedriver; } \
	>/dev/null
club-packages:
	@$(call apt_install,the broker and browser club mode's tests run,$(CLUB_PACKAGES),:)
	@$(CLUB_TOOLS) || { echo "club mode's tests need the system packages $(CLUB_PACKAGES) \
	(sudo apt-get install $(CLUB_PACKAGES))"; exit 1; }
