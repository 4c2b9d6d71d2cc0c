#!/usr/bin/env bash
# The main job, from a fresh clone: make .venv/, install the project, start the scorer.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-$(command -v python3.11 || command -v python3)}
[ -x .venv/bin/python ] || "$PY" -m venv .venv
.venv/bin/python -m pip install -q -e .
exec .venv/bin/python -m scorer "$@"
