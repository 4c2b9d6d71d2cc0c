"""Regenerate the golden transcripts in tests/golden/: simulated logs and their `score --json` output.

    python scripts/make_golden.py

Each golden case is a session log (``NAME.jsonl``) and the expected output of
``python -m scorer score NAME.jsonl --json`` (``NAME.expected.jsonl``).  The
simulated logs are regenerated from fixed seeds; hand-written logs (those not
named ``sim-*``) are kept and only their expected output is rewritten.  Review
the diff before committing: a changed expectation is a changed score.
"""

from __future__ import annotations

import io
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from scorer.cli import main  # noqa: E402
from scorer.rules.log import dumps, event_to_json, header_to_json  # noqa: E402
from scorer.rules.simulate import simulate_match  # noqa: E402

GOLDEN = ROOT / "tests" / "golden"

SIMULATED = [
    ("sim-horse-race-2", "horse-race", 2, False, 11),
    ("sim-horse-race-3", "horse-race", 3, False, 12),
    ("sim-horse-race-4", "horse-race", 4, False, 13),
    ("sim-horse-race-4-pairs", "horse-race", 4, True, 14),
    ("sim-seven-rocks", "seven-rocks", 4, True, 15),
]


def write_simulated() -> None:
    for name, game, n, partnership, seed in SIMULATED:
        sim = simulate_match(game, n, partnership, seed=seed)
        lines = [dumps(header_to_json(sim.header))] + [dumps(event_to_json(s.event)) for s in sim.events]
        (GOLDEN / f"{name}.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")


def expected_output(log: Path) -> str:
    out, err = io.StringIO(), io.StringIO()
    code = main(["score", str(log), "--json"], out=out, err=err)
    if code != 0:
        raise SystemExit(f"{log.name}: score failed: {err.getvalue()}")
    return out.getvalue()


def main_() -> None:
    GOLDEN.mkdir(parents=True, exist_ok=True)
    write_simulated()
    for log in sorted(GOLDEN.glob("*.jsonl")):
        if log.name.endswith(".expected.jsonl"):
            continue
        log.with_name(log.name.replace(".jsonl", ".expected.jsonl")).write_text(expected_output(log), encoding="utf-8")
        print(f"wrote {log.stem}.expected.jsonl")


if __name__ == "__main__":
    main_()
