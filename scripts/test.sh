#!/usr/bin/env bash
# The whole test suite, from a fresh clone: make .venv/, install the project with its dev extra, run pytest.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-$(command -v python3.11 || command -v python3)}
[ -x .venv/bin/python ] || "$PY" -m venv .venv
echo "Installing the scorer and its test tools into .venv/..." >&2
.venv/bin/python -m pip install -q -e '.[dev]'
export QT_QPA_PLATFORM=offscreen
set +e
.venv/bin/python -m pytest "$@"
rc=$?
set -e
if [ "$rc" -eq 5 ]; then
  echo "no tests were collected: that is a failure" >&2
  exit 1
fi
exit "$rc"
