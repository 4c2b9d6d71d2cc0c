"""The club database: an evening imported once, right standings, merges without duplicates, CSV, bad input."""

from __future__ import annotations

import csv
import io
import json
import os
import shutil
import socket
import subprocess
from pathlib import Path

import pytest

from scorer.cli import main
from scorer.club import ClubError, export_csv, import_files, import_log, merge, open_database, standings
from scorer.rules.log import dumps, event_to_json, header_to_json
from scorer.rules.simulate import simulate_match
from scorer.rules.transcript import score_log


def write_evening(folder: Path, seeds: range, game: str = "horse-race", names=("Ann", "Ben", "Cid", "Dee")) -> list[Path]:
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for seed in seeds:
        n = 4 if game == "seven-rocks" else 2 + seed % 3
        sim = simulate_match(game, n, game == "seven-rocks", seed=seed, names=names)
        lines = [dumps(header_to_json(sim.header))] + [dumps({**event_to_json(s.event), "t": i * 1.5}) for i, s in enumerate(sim.events)]
        path = folder / f"{game}-{seed}.jsonl"
        path.write_text("\n".join(lines) + "\n")
        paths.append(path)
    return paths


def expected_standings(paths: list[Path]) -> dict[str, tuple[int, int, int]]:
    """Straight from the logs, with the rules engine: matches, wins, points for."""
    out: dict[str, list[int]] = {}
    for path in paths:
        _, steps = score_log(path.read_text().splitlines())
        final = list(steps)[-1].after
        for p in final.players:
            row = out.setdefault(p, [0, 0, 0])
            row[0] += 1
            row[1] += p in final.winners()
            row[2] += final.scores()[p]
    return {p: tuple(v) for p, v in out.items()}


def test_an_evening_imports_once_and_gives_the_right_standings(tmp_path: Path) -> None:
    logs = write_evening(tmp_path / "logs", range(6))
    engine = open_database(str(tmp_path / "club.db"))
    assert all(r.new for r in import_files(engine, logs, "table 1"))
    assert not any(r.new for r in import_files(engine, logs))  # the same match twice changes nothing
    rows = {s.player: (s.matches, s.wins + s.shared_wins, s.points_for) for s in standings(engine, game="horse-race")}
    assert rows == expected_standings(logs)


def test_merge_from_another_laptop_without_duplicates(tmp_path: Path) -> None:
    here = open_database(str(tmp_path / "here.db"))
    there = open_database(str(tmp_path / "there.db"))
    logs_here = write_evening(tmp_path / "a", range(0, 4))
    logs_there = write_evening(tmp_path / "b", range(2, 7))  # 2 and 3 were played at both (same logs)
    import_files(here, logs_here)
    import_files(there, logs_there)
    added, present = merge(here, str(tmp_path / "there.db"))
    assert (added, present) == (3, 2)
    rows = {s.player: (s.matches, s.wins + s.shared_wins, s.points_for) for s in standings(here, game="horse-race")}
    assert rows == expected_standings(logs_here + logs_there[2:])  # seeds 0-6, each once


def test_a_timestamp_does_not_make_a_new_match(tmp_path: Path) -> None:
    (log,) = write_evening(tmp_path, range(1))
    engine = open_database(str(tmp_path / "c.db"))
    text = log.read_text()
    assert import_log(engine, text).new
    retimed = "\n".join(json.dumps({**json.loads(l), "t": 99.0}) if '"type": "match"' not in l else l for l in text.splitlines())
    assert not import_log(engine, retimed).new


def test_bad_input_changes_nothing(tmp_path: Path) -> None:
    engine = open_database(str(tmp_path / "c.db"))
    (log,) = write_evening(tmp_path, range(1))
    lines = log.read_text().splitlines()
    broken = "\n".join(lines[:10] + ['{"type": "play", "player": "Zed", "tile": [1, 1]}'] + lines[10:])
    with pytest.raises(ClubError, match=r":11: unknown player 'Zed'"):
        import_log(engine, broken, source="broken.jsonl")
    assert standings(engine) == []
    foreign = tmp_path / "foreign.db"
    import sqlite3

    con = sqlite3.connect(foreign)
    con.execute("create table recipes (id integer)")
    con.commit()
    con.close()
    with pytest.raises(ClubError, match="belongs to something else"):
        open_database(str(foreign))
    junk = tmp_path / "junk.db"
    junk.write_bytes(b"not a database at all" * 100)
    with pytest.raises(ClubError, match="not a club database"):
        open_database(str(junk))
    with pytest.raises(ClubError, match="cannot reach"):
        open_database("postgresql+psycopg://nobody@127.0.0.1:1/none?connect_timeout=2")


def test_club_commands(tmp_path: Path) -> None:
    logs = write_evening(tmp_path / "logs", range(3))
    db = str(tmp_path / "c.db")

    def run(*args: str) -> str:
        out, err = io.StringIO(), io.StringIO()
        assert main(["club", "--db", db, *args], out=out, err=err) == 0, err.getvalue()
        return out.getvalue()

    assert run("import", *map(str, logs)).count("imported") == 3
    assert "already in the database" in run("import", str(logs[0]))
    assert run("players").split() == ["Ann", "Ben", "Cid", "Dee"][: max(2 + s % 3 for s in range(3))]
    assert "horse-race" in run("standings")
    run("export", "--csv", str(tmp_path / "x.csv"))
    rows = list(csv.DictReader(open(tmp_path / "x.csv")))
    assert len(rows) == sum(2 + s % 3 for s in range(3))
    err = io.StringIO()
    assert main(["club", "--db", str(tmp_path / "junk.txt"), "players"], out=io.StringIO(), err=err) in (0, 2)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def postgres(tmp_path: Path):
    """A real PostgreSQL server in a temporary folder, where the binaries exist; skipped cleanly elsewhere."""
    initdb, pg_ctl = shutil.which("initdb"), shutil.which("pg_ctl")
    if not initdb or not pg_ctl:
        pytest.skip("PostgreSQL server binaries are not installed")
    as_user: list[str] = []
    if os.geteuid() == 0:
        if not shutil.which("runuser"):
            pytest.skip("running as root without runuser: cannot start PostgreSQL")
        try:
            import pwd

            pwd.getpwnam("postgres")
        except KeyError:
            pytest.skip("no postgres user to run the server as")
        as_user = ["runuser", "-u", "postgres", "--"]
    import tempfile

    # Outside pytest's private temp folder, which the postgres user cannot enter.
    base = Path(tempfile.mkdtemp(prefix="scorer-pg-"))
    data = base / "pg"
    data.mkdir()
    if as_user:
        shutil.chown(base, "postgres")
        shutil.chown(data, "postgres")
    port = _free_port()
    subprocess.run(as_user + [initdb, "-D", str(data), "-A", "trust", "-U", "postgres"], check=True, capture_output=True)
    # The server's output goes to a file: a pipe held open by the server would never close.
    subprocess.run(as_user + [pg_ctl, "-D", str(data), "-l", str(base / "server.log"), "-w", "-t", "30",
                              "-o", f"-p {port} -k {data} -c listen_addresses=127.0.0.1", "start"],
                   check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=60)
    try:
        yield f"postgresql+psycopg://postgres@127.0.0.1:{port}/postgres"
    finally:
        subprocess.run(as_user + [pg_ctl, "-D", str(data), "-m", "immediate", "stop"], stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL, timeout=60)
        shutil.rmtree(base, ignore_errors=True)


def test_the_same_club_on_a_shared_postgresql_server(postgres: str, tmp_path: Path) -> None:
    logs = write_evening(tmp_path / "logs", range(4))
    engine = open_database(postgres)
    assert all(r.new for r in import_files(engine, logs))
    assert not any(r.new for r in import_files(engine, logs[:2]))
    rows = {s.player: (s.matches, s.wins + s.shared_wins, s.points_for) for s in standings(engine, game="horse-race")}
    assert rows == expected_standings(logs)
    export_csv(engine, tmp_path / "pg.csv")
