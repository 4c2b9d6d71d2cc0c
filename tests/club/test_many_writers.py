"""Many writers at once on one SQLite file and one PostgreSQL server: processes importing the same
logs in different orders, first starts racing on a new database, tables writing live together --
no error, no match lost or doubled, standings equal to the logs'."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

from club_helpers import expected_standings, standings_rows, write_evening
from sqlalchemy import func, select, text

from scorer.club import open_database
from scorer.club.connection import HEAD
from scorer.club.schema import matches, moves, seats
from scorer.rules.transcript import read_log

WORKER = Path(__file__).with_name("club_worker.py")


def run_together(commands: list[list[str]], timeout: float = 300) -> list[str]:
    start_at = time.time() + 3.0  # every process starts its work at this instant
    procs = [subprocess.Popen([sys.executable, str(WORKER), c[0], c[1], str(start_at), *c[2:]], stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True) for c in commands]
    outs = []
    for p in procs:
        out, err = p.communicate(timeout=timeout)
        assert p.returncode == 0, err[-3000:]
        outs.append(out)
    return outs


def counts(engine) -> tuple[int, int, int]:
    with engine.connect() as c:
        return tuple(int(c.execute(select(func.count()).select_from(t)).scalar()) for t in (matches, seats, moves))


def test_processes_importing_together_into_a_new_database(club_url: str, tmp_path: Path) -> None:
    logs = write_evening(tmp_path / "logs", range(24))
    writers = 6
    outs = run_together([["import", club_url, str(seed), *map(str, logs)] for seed in range(writers)])
    reports = [json.loads(o) for o in outs]
    by_match: dict[str, list[str]] = {}
    for report in reports:
        assert len(report) == len(logs)
        for ident, state in report:
            by_match.setdefault(ident, []).append(state)
    assert len(by_match) == len(logs)
    for states in by_match.values():  # each match written by exactly one process; the others say it was there
        assert sorted(states) == ["new"] + ["unchanged"] * (writers - 1)
    engine = open_database(club_url)
    readings = [read_log(p.read_text().split("\n")) for p in logs]
    assert counts(engine) == (len(logs), sum(len(r.header.players) for r in readings), sum(len(r.steps) for r in readings))
    with engine.connect() as c:  # the migrations ran once
        assert [r[0] for r in c.execute(text("SELECT version_num FROM alembic_version"))] == [HEAD]
    assert standings_rows(engine) == expected_standings(logs)


def test_tables_writing_live_together(club_url: str, tmp_path: Path) -> None:
    tables = [("Table 1", "horse-race", 2, "0"), ("Table 2", "horse-race", 3, "0"), ("Table 3", "horse-race", 4, "1"),
              ("Table 4", "seven-rocks", 4, "1")]
    outs = run_together([["live", club_url, name, game, str(n), p, str(40 + i), str(tmp_path / "sessions"), "25"]
                         for i, (name, game, n, p) in enumerate(tables)])
    results = [json.loads(o) for o in outs]
    assert all(r["caught_up"] and r["error"] is None for r in results), results
    engine = open_database(club_url)
    texts = [Path(r["path"]).read_text(encoding="utf-8") for r in results]
    with engine.connect() as c:
        stored = {row.id: row for row in c.execute(select(matches.c.id, matches.c.log, matches.c.lines, matches.c.table_name,
                                                          matches.c.finished))}
    assert sorted(stored) == sorted(r["id"] for r in results)  # none lost, none doubled
    for r, text_ in zip(results, texts):
        row = stored[r["id"]]
        assert row.log == text_ and row.finished and row.lines == text_.count("\n")
    assert {row.table_name for row in stored.values()} == {t[0] for t in tables}
    readings = [read_log(t.split("\n")) for t in texts]
    assert counts(engine)[2] == sum(len(r.steps) for r in readings)  # the undone moves are not there
    for game in ("horse-race", "seven-rocks"):
        wanted = expected_standings([t for t, r in zip(texts, readings) if r.header.game == game])
        assert standings_rows(engine, game) == wanted
