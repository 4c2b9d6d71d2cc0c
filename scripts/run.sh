#!/usr/bin/env bash
# The main job, from a fresh clone: make .venv/, install the project (once, and again only when
# pyproject.toml changes, so a table without internet still starts), start the scorer.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-$(command -v python3.11 || command -v python3)}
[ -x .venv/bin/python ] || "$PY" -m venv .venv
stamp=.venv/.installed-from
want=$(sha256sum pyproject.toml | cut -d' ' -f1)
if [ "$(cat "$stamp" 2>/dev/null)" != "$want" ] || ! .venv/bin/python -c "import scorer" 2>/dev/null; then
    echo "Installing the scorer into .venv/ (the first start takes a minute or two; later starts are quick)..." >&2
    .venv/bin/python -m pip install -q -e .
    echo "$want" > "$stamp"
    echo "Installed. Starting the scorer..." >&2
fi
exec .venv/bin/python -m scorer "$@"
