"""Club database figures: importing 1,000 simulated matches, standings over them, the file size (prints only).

    .venv/bin/python benchmarks/club.py [--matches 1000]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from scorer.club import import_log, open_database, standings  # noqa: E402
from scorer.rules.log import dumps, event_to_json, header_to_json  # noqa: E402
from scorer.rules.simulate import TABLES, simulate_match  # noqa: E402

NAMES = ["Ann", "Ben", "Cid", "Dee", "Eva", "Finn", "Gus", "Hilla", "Iida", "Jere", "Kai", "Lumi"]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--matches", type=int, default=1000)
    args = parser.parse_args()
    logs = []
    t0 = time.perf_counter()
    for i in range(args.matches):
        game, n, partnership = TABLES[i % len(TABLES)]
        names = [NAMES[(i * 5 + k * 7) % len(NAMES)] for k in range(n)]
        if len(set(names)) < n:
            names = NAMES[i % 8 : i % 8 + n]
        sim = simulate_match(game, n, partnership, seed=i, names=names)
        logs.append("\n".join([dumps(header_to_json(sim.header))] + [dumps(event_to_json(s.event)) for s in sim.events]) + "\n")
    print(f"simulated {args.matches} matches in {time.perf_counter() - t0:.1f} s")
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "club.db"
        engine = open_database(str(path))
        t0 = time.perf_counter()
        for text in logs:
            import_log(engine, text)
        imported = time.perf_counter() - t0
        events = sum(text.count("\n") for text in logs)
        print(f"import: {args.matches} matches ({events} log lines) in {imported:.1f} s = {args.matches / imported:.0f} matches/s")
        t0 = time.perf_counter()
        rows = standings(engine, game="horse-race") + standings(engine, game="seven-rocks")
        print(f"standings over them (both games, {len(rows)} rows): {1000 * (time.perf_counter() - t0):.0f} ms")
        t0 = time.perf_counter()
        for text in logs[:100]:
            import_log(engine, text)
        print(f"re-import of 100 known matches (no change): {1000 * (time.perf_counter() - t0) / 100:.1f} ms each")
        size = path.stat().st_size
        print(f"database file: {size / 2**20:.1f} MiB for {args.matches} matches ({size / 2**20 * 1000 / args.matches:.1f} MiB per 1,000)")


if __name__ == "__main__":
    main()
