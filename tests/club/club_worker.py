"""One club writer in its own process, for the tests of many writers at once (prints JSON on stdout).

    python club_worker.py import URL START_AT SEED LOG...
    python club_worker.py live URL START_AT TABLE GAME PLAYERS PARTNERSHIP SEED FOLDER [UNDO_EVERY]
"""

from __future__ import annotations

import json
import random
import sys
import time
from pathlib import Path


def wait_until(start_at: float) -> None:
    time.sleep(max(0.0, start_at - time.time()))


def main(argv: list[str]) -> None:
    from scorer.club import import_files, open_database

    command, url, start_at = argv[0], argv[1], float(argv[2])
    if command == "import":
        seed, paths = int(argv[3]), [Path(p) for p in argv[4:]]
        random.Random(seed).shuffle(paths)
        wait_until(start_at)
        engine = open_database(url)  # the first start of a new database races here too
        print(json.dumps([[r.match_id, r.state] for r in import_files(engine, paths)]))
        return
    from scorer.club import LiveTable
    from scorer.rules.simulate import simulate_match
    from scorer.sessions import Session

    table, game, n, partnership, seed, folder = argv[3], argv[4], int(argv[5]), argv[6] == "1", int(argv[7]), Path(argv[8])
    undo_every = int(argv[9]) if len(argv) > 9 else 0
    sim = simulate_match(game, n, partnership, seed=seed, names=[f"{table} p{i}" for i in range(n)])
    wait_until(start_at)
    live = LiveTable(url, table, retry_seconds=0.5)
    session = Session.create(sim.header, folder)
    session.listeners.append(live)
    slowest = 0.0
    for i, step in enumerate(sim.events):
        t0 = time.perf_counter()
        session.apply(step.event)
        if undo_every and i % undo_every == undo_every - 1:
            session.undo()
            session.redo()
        slowest = max(slowest, time.perf_counter() - t0)
    caught_up = live.close(timeout=120)
    session.close()
    print(json.dumps({"id": session.header.id, "path": str(session.path), "caught_up": caught_up,
                      "error": live.status.error, "slowest_move_s": slowest}))


if __name__ == "__main__":
    main(sys.argv[1:])
