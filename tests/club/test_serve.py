"""`club serve`: the evening's board over HTTP -- the page, the JSON API, server-sent events that bring a
move written at a table; read-only, on localhost unless told otherwise."""

from __future__ import annotations

import datetime as dt
import http.client
import json
import os
import subprocess
import sys
import time
import urllib.error
import urllib.request
from contextlib import contextmanager
from pathlib import Path

import pytest
from club_helpers import free_port, log_text, played_live, standings_rows

from scorer.cli import build_parser
from scorer.club import import_log, open_database
from scorer.club.board import board_scale, evening_start
from scorer.rules.log import GAMES
from scorer.rules.simulate import simulate_match


@contextmanager
def serving(db: str, *extra: str):
    port = free_port()
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    proc = subprocess.Popen([sys.executable, "-m", "scorer", "club", "serve", "--db", db, "--port", str(port), *extra],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                urllib.request.urlopen(base + "/api/tables.json", timeout=2).read()
                break
            except OSError:
                if proc.poll() is not None or time.monotonic() > deadline:
                    raise AssertionError(f"the server did not start: {proc.communicate()[1][-2000:]}") from None
                time.sleep(0.1)
        yield base
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()


def get_json(url: str):
    with urllib.request.urlopen(url, timeout=5) as r:
        assert r.headers["Content-Type"].startswith("application/json")
        return json.loads(r.read())


def sse_events(base: str, wanted, timeout: float = 10.0):
    """Read /events until ``wanted(event, data)`` is true; return (event, data) and the time it came."""
    host, port = base.removeprefix("http://").split(":")
    conn = http.client.HTTPConnection(host, int(port), timeout=timeout)
    conn.request("GET", "/events")
    response = conn.getresponse()
    assert response.status == 200 and response.getheader("Content-Type").startswith("text/event-stream")
    event, data = None, []
    deadline = time.monotonic() + timeout
    try:
        while time.monotonic() < deadline:
            line = response.fp.readline().decode("utf-8").rstrip("\n")
            if line.startswith("event: "):
                event = line[7:]
            elif line.startswith("data: "):
                data.append(line[6:])
            elif line == "" and event:
                payload = json.loads("\n".join(data))
                if wanted(event, payload):
                    return event, payload, time.monotonic()
                event, data = None, []
    finally:
        conn.close()
    raise AssertionError("the awaited event did not come")


def test_the_board_serves_the_evening_and_brings_each_move(tmp_path: Path) -> None:
    db = str(tmp_path / "club.db")
    engine = open_database(db)
    for seed in range(3):  # finished tonight, at two tables
        import_log(engine, log_text(simulate_match("horse-race", 2 + seed % 3, seed=seed)), table_name=f"Table {1 + seed % 2}")
    old = simulate_match("horse-race", 2, seed=9)  # last week's: in the season's standings, not tonight's
    import_log(engine, log_text(old), played_at=evening_start(dt.datetime.now()) - dt.timedelta(days=7))
    sim = simulate_match("seven-rocks", 4, True, seed=5, names=("Eva", "Finn", "Gus", "Hilla"))
    session, live = played_live(db, sim, "Table 10", 20, tmp_path / "sessions")
    with serving(db) as base:
        with urllib.request.urlopen(base + "/", timeout=5) as r:
            page = r.read().decode()
            assert "<title>Club evening</title>" in page and "Content-Security-Policy" in r.headers
        tables = get_json(base + "/api/tables.json")
        assert [t["table"] for t in tables["tables"]] == ["Table 1", "Table 2", "Table 10"]  # in natural order
        ten = tables["tables"][2]["match"]
        assert ten["status"] == "playing" and ten["lines"] == 21 and ten["game"] == "seven-rocks"
        holes, per_hole, _ = board_scale(GAMES["seven-rocks"])
        assert (ten["holes"], ten["per_hole"]) == (holes, per_hole) == (50, 5)
        scores = session.match.scores()
        assert {s["name"]: s["score"] for s in ten["sides"]} == {"Eva & Gus": scores["Eva"], "Finn & Hilla": scores["Finn"]}
        assert all(s["hole"] == s["score"] // 5 for s in ten["sides"])
        assert len(tables["tables"][0]["earlier"]) == 1 and tables["tables"][0]["match"]["status"] == "finished"
        st = get_json(base + "/api/standings.json")
        tonight = {r["player"]: (r["matches"], r["wins"] + r["shared_wins"], r["points_for"])
                   for r in st["tonight"]["games"]["horse-race"]["rows"]}
        season = {r["player"]: (r["matches"], r["wins"] + r["shared_wins"], r["points_for"])
                  for r in st["season"]["games"]["horse-race"]["rows"]}
        assert season == standings_rows(engine, "horse-race")
        assert tonight == standings_rows(engine, "horse-race", evening_start(dt.datetime.now()))
        assert tonight != season and st["tonight"]["playing"] == 1 and "seven-rocks" not in st["tonight"]["games"]
        # Read-only: nothing but GET.
        for method in ("POST", "PUT", "DELETE"):
            with pytest.raises(urllib.error.HTTPError) as info:
                urllib.request.urlopen(urllib.request.Request(base + "/api/tables.json", method=method, data=b"{}"), timeout=5)
            assert info.value.code == 405
        # A move written at the table comes by server-sent events.
        sse_events(base, lambda e, d: e == "tables")  # the stream opens with the board as it is
        written = time.monotonic()
        session.apply(sim.events[20].event)
        _, data, came = sse_events(base, lambda e, d: e == "tables" and any(t["match"]["lines"] == 22 for t in d["tables"]))
        assert came - written < 5
        assert get_json(base + "/api/tables.json")["tables"][2]["match"]["lines"] == 22  # the same data
        # Nothing changes for a while: the data stays as generated, but each message says when it was sent (the
        # page counts how long a match has been quiet from it, even where it connects long after the last change).
        time.sleep(2.2)
        _, sent, _ = sse_events(base, lambda e, d: e == "tables")
        quiet = dt.datetime.fromisoformat(sent["sent"]) - dt.datetime.fromisoformat(sent["generated"])
        assert quiet >= dt.timedelta(seconds=2)
    live.close()
    session.close()


def test_it_listens_on_localhost_unless_told_otherwise() -> None:
    args = build_parser().parse_args(["club", "serve"])
    assert (args.host, args.port) == ("127.0.0.1", 8000)
    args = build_parser().parse_args(["club", "serve", "--host", "0.0.0.0", "--port", "9000", "--db", "x.db"])
    assert (args.host, args.port, args.db) == ("0.0.0.0", 9000, "x.db")


def test_a_database_that_cannot_be_read_is_refused_before_serving(tmp_path: Path) -> None:
    junk = tmp_path / "junk.db"
    junk.write_bytes(b"not a database" * 100)
    proc = subprocess.run([sys.executable, "-m", "scorer", "club", "serve", "--db", str(junk), "--port", str(free_port())],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2 and "not a club database" in proc.stderr


def test_the_board_opens_before_any_table_has_played_with_new_and_never_makes_a_mistyped_one(tmp_path: Path) -> None:
    missing = tmp_path / "tonight.db"
    proc = subprocess.run([sys.executable, "-m", "scorer", "club", "serve", "--db", str(missing), "--port", str(free_port())],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2 and "no such database file" in proc.stderr and "`club serve --new`" in proc.stderr
    assert not missing.exists()
    with serving(str(missing), "--new") as base:
        assert missing.is_file() and get_json(base + "/api/tables.json")["tables"] == []
    with serving(str(missing), "--new") as base:  # (there already: served as it is)
        assert get_json(base + "/api/tables.json")["tables"] == []


def test_matches_of_no_table_show_the_one_being_played_first_then_the_latest(tmp_path: Path) -> None:
    from scorer.club.board import BoardData

    engine = open_database(str(tmp_path / "club.db"))
    now = dt.datetime.now()
    start = evening_start(now)
    played = {}
    for k, seed in enumerate((1, 2, 3)):  # finished, one after another
        sim = simulate_match("horse-race", 2, seed=seed)
        played[seed] = import_log(engine, log_text(sim), played_at=start + dt.timedelta(minutes=10 * k)).match_id
    playing = simulate_match("horse-race", 3, seed=4)
    played[4] = import_log(engine, log_text(playing, upto=20), played_at=start).match_id  # (begun first, still on)
    import_log(engine, log_text(simulate_match("horse-race", 2, seed=5)), table_name="Table 1", played_at=start)
    tables = BoardData(engine).tables(now)["tables"]
    shown = [t["match"]["id"] if not t["named"] else t["table"] for t in tables]
    assert shown == ["Table 1", played[4], played[3], played[2], played[1]]
    assert tables[1]["table"] == ", ".join(playing.header.players)  # (titled by its players, not by an id)
