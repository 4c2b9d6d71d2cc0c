"""A live table: the match written into the club database move by move, never holding the game up;
a table that loses the server keeps scoring and catches up when it comes back."""

from __future__ import annotations

import shutil
import time
from pathlib import Path

import pytest
from club_helpers import PostgresServer, expected_standings, log_text, standings_rows

from scorer.club import ClubError, LiveTable, import_log, open_database, standings
from scorer.club.logs import match_id
from scorer.club.schema import matches, moves
from scorer.rules.simulate import simulate_match
from scorer.sessions import Session
from sqlalchemy import func, select


def stored(engine) -> dict[str, tuple[str, int, bool, str | None]]:
    with engine.connect() as c:
        return {r[0]: (r[1], r[2], bool(r[3]), r[4]) for r in c.execute(select(matches.c.id, matches.c.log, matches.c.lines,
                                                                                 matches.c.finished, matches.c.table_name))}


def test_a_match_reaches_the_club_move_by_move_with_undo(tmp_path: Path) -> None:
    db = str(tmp_path / "club.db")
    engine = open_database(db)
    sim = simulate_match("horse-race", 3, seed=21)
    live = LiveTable(db, "Table 7")
    session = Session.create(sim.header, tmp_path / "sessions")
    session.listeners.append(live)
    for step in sim.events[:40]:
        session.apply(step.event)
    assert live.flush(30)
    row = stored(engine)[session.header.id]
    assert row == (session.text(), 41, False, "Table 7")
    assert standings(engine) == []  # playing: shown on the board, not counted
    session.undo()
    session.undo()
    assert live.flush(30)
    with engine.connect() as c:
        in_force = {s.line for s in session.steps}
        assert {r[0] for r in c.execute(select(moves.c.line).where(moves.c.match_id == session.header.id))} == in_force
    session.redo()
    session.redo()
    for step in sim.events[40:]:
        session.apply(step.event)
    assert live.close(30)
    text = session.text()
    session.close()
    assert stored(engine)[session.header.id] == (text, text.count("\n"), True, "Table 7")
    assert standings_rows(engine) == expected_standings([text])
    assert import_log(engine, text).state == "unchanged"  # `club import` of the same file afterwards: nothing new


def test_the_listener_never_waits_for_the_database(tmp_path: Path) -> None:
    """A server that does not answer (a black-hole port) costs the game nothing."""
    import socket

    with socket.socket() as listener:  # accepts nothing: connects hang until their timeout
        listener.bind(("127.0.0.1", 0))
        listener.listen(0)
        port = listener.getsockname()[1]
        live = LiveTable(f"postgresql+psycopg://x@127.0.0.1:{port}/club?connect_timeout=3", "Table 1", retry_seconds=60)
        sim = simulate_match("horse-race", 2, seed=22)
        session = Session.create(sim.header, tmp_path / "sessions")
        session.listeners.append(live)
        worst = 0.0
        for step in sim.events[:60]:
            t0 = time.perf_counter()
            session.apply(step.event)
            worst = max(worst, time.perf_counter() - t0)
        assert worst < 0.5
        assert live.behind
        assert not live.close(timeout=0.5)
        session.close()


def test_a_table_that_loses_the_server_catches_up_when_it_returns(tmp_path: Path) -> None:
    try:
        server = PostgresServer()  # its own server: this test stops it
    except (RuntimeError, OSError) as exc:
        pytest.skip(f"no PostgreSQL server for the test: {exc}")
    try:
        url = server.new_database()
        engine = open_database(url)
        statuses = []
        live = LiveTable(url, "Table 2", retry_seconds=0.3, on_status=statuses.append)
        sim = simulate_match("horse-race", 4, True, seed=23)
        session = Session.create(sim.header, tmp_path / "sessions")
        session.listeners.append(live)
        for step in sim.events[:30]:
            session.apply(step.event)
        assert live.flush(30)
        engine.dispose()
        server.stop()
        worst = 0.0
        for step in sim.events[30:120]:
            t0 = time.perf_counter()
            session.apply(step.event)  # the game goes on, on its session log
            worst = max(worst, time.perf_counter() - t0)
        assert worst < 0.5
        deadline = time.monotonic() + 20
        while not live.status.error and time.monotonic() < deadline:
            time.sleep(0.05)
        assert live.behind and "cannot reach the database" in live.status.error
        assert any(s.behind for s in statuses)
        server.start()
        time.sleep(1.0)  # no move now: the retry timer alone catches up
        deadline = time.monotonic() + 30
        while live.behind and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not live.behind and live.status.error is None
        assert not statuses[-1].behind
        assert stored(engine)[session.header.id][:2] == (session.text(), 121)
        for step in sim.events[120:]:
            session.apply(step.event)
        assert live.close(30)
        assert stored(engine)[session.header.id][0] == session.text()
        session.close()
    finally:
        server.close()


def test_a_sqlite_club_that_is_not_there_yet(tmp_path: Path) -> None:
    folder = tmp_path / "usb-stick"
    db = folder / "club.db"
    live = LiveTable(str(db), "Table 3", retry_seconds=0.2)
    sim = simulate_match("horse-race", 2, seed=24)
    session = Session.create(sim.header, tmp_path / "sessions")
    session.listeners.append(live)
    for step in sim.events[:10]:
        session.apply(step.event)
    time.sleep(0.5)
    assert live.behind and "does not exist" in live.status.error
    assert not db.exists()
    folder.mkdir()
    deadline = time.monotonic() + 20
    while live.behind and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not live.behind
    assert stored(open_database(str(db)))[session.header.id][0] == session.text()
    live.close()
    session.close()


def test_a_log_the_club_cannot_keep_is_said_and_the_game_goes_on(tmp_path: Path) -> None:
    db = str(tmp_path / "club.db")
    sim = simulate_match("horse-race", 2, seed=25, names=("X" * 150, "Bo"))
    live = LiveTable(db, "Table 4")
    session = Session.create(sim.header, tmp_path / "sessions")
    session.listeners.append(live)
    for step in sim.events[:5]:
        session.apply(step.event)
    assert not live.flush(10)
    assert "150 characters long" in live.status.error
    assert len(session.steps) == 5
    live.close()
    session.close()
    with pytest.raises(ClubError, match="table's name"):
        LiveTable(db, "T" * 101)


def test_a_log_without_an_id_keeps_one_row_while_it_grows(tmp_path: Path) -> None:
    db = str(tmp_path / "club.db")
    engine = open_database(db)
    sim = simulate_match("horse-race", 2, seed=26)
    live = LiveTable(engine, "Table 5")
    for upto in (5, 50, 120, None):  # an old-style log without an id, pushed as it grows
        live.push(log_text(sim, upto=upto), key="old-style.jsonl")
        assert live.flush(30)
    full = log_text(sim)
    rows = stored(engine)
    assert list(rows) == [match_id(full)] and rows[match_id(full)][0] == full
    assert import_log(engine, full).state == "unchanged"
    live.close()
    with engine.connect() as c:
        assert c.execute(select(func.count()).select_from(moves)).scalar() == len(sim.events)
    shutil.rmtree(tmp_path / "sessions", ignore_errors=True)
