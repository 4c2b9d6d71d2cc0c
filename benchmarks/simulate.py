"""Simulated full matches per second for each table (a benchmark: prints figures, asserts nothing).

    .venv/bin/python benchmarks/simulate.py [--seconds 5]
"""

from __future__ import annotations

import argparse
import platform
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from scorer.rules.simulate import TABLES, simulate_match  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=5.0, help="time spent on each table")
    args = parser.parse_args()
    print(f"python {platform.python_version()} on {platform.machine()}, {args.seconds:.0f} s per table")
    print(f"{'table':<28} {'matches/s':>10} {'events/match':>13} {'rounds/match':>13}")
    for game, n, partnership in TABLES:
        start = time.perf_counter()
        events, rounds, count, seed = [], [], 0, 0
        while time.perf_counter() - start < args.seconds:
            sim = simulate_match(game, n, partnership, seed=seed)
            events.append(len(sim.events))
            rounds.append(sim.final.round_no)
            count += 1
            seed += 1
        rate = count / (time.perf_counter() - start)
        label = f"{game} {n}{' pairs' if partnership else ' alone'}"
        print(f"{label:<28} {rate:>10.1f} {statistics.mean(events):>13.0f} {statistics.mean(rounds):>13.1f}")


if __name__ == "__main__":
    main()
