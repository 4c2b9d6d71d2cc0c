"""The house's contracts as configuration, held by the test command: import-linter's contracts
(layers, Qt only in the app, no OpenCV in the pure parts; pyproject.toml [tool.importlinter]) and
mypy (strict on the rules, the session store, layout and the pipeline; pyproject.toml [tool.mypy])."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _run(args: list[str], timeout: int) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    return subprocess.run(args, cwd=ROOT, env=env, capture_output=True, text=True, timeout=timeout)


def test_the_import_contracts_hold() -> None:
    pytest.importorskip("importlinter", reason="pip install -e '.[dev]' installs import-linter")
    lint = Path(sys.executable).with_name("lint-imports")
    args = [str(lint)] if lint.exists() else [sys.executable, "-c", "import sys; from importlinter.cli import lint_imports_command as c; sys.exit(c())"]
    done = _run(args + ["--no-cache"], timeout=300)
    assert done.returncode == 0, done.stdout[-6000:] + done.stderr[-2000:]
    assert "0 broken" in done.stdout, done.stdout[-6000:]


def test_the_types_check() -> None:
    pytest.importorskip("mypy", reason="pip install -e '.[dev]' installs mypy")
    done = _run([sys.executable, "-m", "mypy"], timeout=600)  # the files and strictness: pyproject.toml [tool.mypy]
    assert done.returncode == 0, done.stdout[-8000:] + done.stderr[-2000:]
