"""The club database: an evening imported once, right standings, merges without duplicates, CSV, bad input."""

from __future__ import annotations

import csv
import datetime as dt
import io
import json
import re
import sqlite3
from pathlib import Path

import pytest
from club_helpers import expected_standings, log_text, played_live, standings_rows, write_evening

from scorer.cli import main
from scorer.club import ClubError, export_csv, import_files, import_log, merge, open_database, parse_since, standings
from scorer.club.names import MAX_NAME
from scorer.club.queries import QUIET_MINUTES, Unfinished, csv_cell, unfinished
from scorer.rules.log import MatchHeader
from scorer.rules.simulate import simulate_match


def club(db: str, *args: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(["club", "--db", db, *args], out=out, err=err)
    return code, out.getvalue(), err.getvalue()


def test_an_evening_imports_once_and_gives_the_right_standings(club_url: str, tmp_path: Path) -> None:
    logs = write_evening(tmp_path / "logs", range(6))
    engine = open_database(club_url)
    assert all(r.new for r in import_files(engine, logs, "table 1"))
    assert not any(r.written for r in import_files(engine, logs))  # the same match twice changes nothing
    assert standings_rows(engine) == expected_standings(logs)
    export_csv(engine, tmp_path / "x.csv")


def test_merge_from_another_laptop_without_duplicates(tmp_path: Path) -> None:
    here = open_database(str(tmp_path / "here.db"))
    there = open_database(str(tmp_path / "there.db"))
    logs_here = write_evening(tmp_path / "a", range(0, 4))
    logs_there = write_evening(tmp_path / "b", range(2, 7))  # 2 and 3 were played at both (same logs)
    import_files(here, logs_here)
    import_files(there, logs_there)
    merged = merge(here, str(tmp_path / "there.db"))
    assert (merged.added, merged.updated, merged.present, merged.bad) == (3, 0, 2, [])
    assert standings_rows(here) == expected_standings(logs_here + logs_there[2:])  # seeds 0-6, each once


def test_a_timestamp_does_not_make_a_new_match(tmp_path: Path) -> None:
    (log,) = write_evening(tmp_path, range(1))
    engine = open_database(str(tmp_path / "c.db"))
    text = log.read_text()
    assert import_log(engine, text).new
    retimed = "\n".join(json.dumps({**json.loads(l), "t": 99.0}) if '"type": "match"' not in l else l for l in text.split("\n") if l)
    assert import_log(engine, retimed).state == "unchanged"


def test_a_log_with_an_id_grows_in_place_and_never_goes_back(club_url: str) -> None:
    sim = simulate_match("horse-race", 2, seed=11)
    header = MatchHeader(sim.header.game, sim.header.players, False, id="a" * 32, started="2026-03-14T19:30:00+02:00")
    engine = open_database(club_url)
    assert import_log(engine, log_text(sim, upto=20, header=header)).state == "new"
    assert standings(engine) == []  # playing: not counted
    grown = import_log(engine, log_text(sim, upto=60, header=header))
    assert (grown.state, grown.finished) == ("updated", False)
    assert import_log(engine, log_text(sim, upto=40, header=header)).state == "unchanged"  # older than what is there
    full = log_text(sim, header=header)
    assert import_log(engine, full).state == "updated"
    assert standings_rows(engine) == expected_standings([full])
    other = simulate_match("horse-race", 2, seed=12)
    with pytest.raises(ClubError, match="different log under this match's id"):
        import_log(engine, log_text(other, header=header))
    from sqlalchemy import func, select

    from scorer.club.schema import matches, moves

    with engine.connect() as c:
        assert c.execute(select(func.count()).select_from(matches)).scalar() == 1
        assert c.execute(select(func.count()).select_from(moves)).scalar() == len(sim.events)


def test_a_log_without_an_id_grows_in_place_too_but_a_match_that_only_opens_alike_is_another(club_url: str) -> None:
    sim = simulate_match("horse-race", 3, seed=5)
    engine = open_database(club_url)
    first = import_log(engine, log_text(sim, upto=30), table_name="Table 3")
    assert first.state == "new"
    grown = import_log(engine, log_text(sim, upto=60))  # (the same match played on: no id, a new hash; no table named)
    assert (grown.state, grown.finished) == ("updated", False)
    assert import_log(engine, log_text(sim, upto=45)).state == "unchanged"  # (older than what is there)
    full = log_text(sim)
    assert import_log(engine, full).state == "updated"
    assert standings_rows(engine) == expected_standings([full])
    from sqlalchemy import func, select

    from scorer.club.schema import matches

    with engine.connect() as c:
        assert c.execute(select(matches.c.table_name)).scalars().all() == ["Table 3"]  # (its table kept as it grew)
    # Simulated matches of seeds 1 and 22 open with the same three lines: each is a match of its own, whatever the order.
    one, other = simulate_match("horse-race", 2, seed=1), simulate_match("horse-race", 2, seed=22)
    assert log_text(one, upto=2, t=False) == log_text(other, upto=2, t=False)
    assert import_log(engine, log_text(one, upto=2, t=False)).state == "new"
    assert import_log(engine, log_text(other, t=False)).state == "new"
    assert import_log(engine, log_text(other, upto=2, t=False)).state == "unchanged"  # (the very text of the first: its hash)
    with engine.connect() as c:
        assert c.execute(select(func.count()).select_from(matches)).scalar() == 3


def test_an_empty_club_says_so_a_mistyped_database_is_not_made_and_a_cribbage_game_is_named(tmp_path: Path) -> None:
    db = str(tmp_path / "club.db")
    open_database(db).dispose()  # (a club database made, nothing imported yet)
    assert club(db, "players")[1:] == ("", "no players yet: `club import LOG...` brings in the matches played\n")  # (stdout: names only)
    assert club(db, "standings")[1:] == ("", "no matches yet\n")
    assert club(db, "standings", "--since", "today", "--game", "seven-rocks")[2] == "no seven-rocks matches since today yet\n"
    code, out, err = club(str(tmp_path / "clbu.db"), "standings")  # (a name mistyped: no new empty database)
    assert code == 2 and "clbu.db: no such database file" in err and not (tmp_path / "clbu.db").exists()
    from scorer.cribbage.store import GameFile

    game = GameFile.create(["Ann", "Ben"], 121, False, "en", tmp_path)
    code, out, err = club(db, "import", str(game.path))
    assert code == 2 and "a cribbage game: the club keeps the domino matches (Horse Race, Seven Rocks) only" in err


def test_club_commands(tmp_path: Path) -> None:
    logs = write_evening(tmp_path / "logs", range(3))
    db = str(tmp_path / "c.db")

    code, out, _ = club(db, "import", *map(str, logs))
    assert code == 0 and out.count(": imported") == 3 and "3 imported, 0 updated, 0 already there, 0 refused" in out
    assert "already in the database" in club(db, "import", str(logs[0]))[1]
    assert club(db, "players")[1].split() == ["Ann", "Ben", "Cid", "Dee"][: max(2 + s % 3 for s in range(3))]
    assert "horse-race" in club(db, "standings")[1]
    club(db, "export", "--csv", str(tmp_path / "x.csv"))
    rows = list(csv.DictReader(open(tmp_path / "x.csv")))
    assert len(rows) == sum(2 + s % 3 for s in range(3))
    assert all(re.fullmatch(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d", r["played_at"]) for r in rows)  # (to the second)
    assert club(str(tmp_path / "junk.txt"), "players")[0] in (0, 2)


def test_an_import_reports_each_file_and_goes_on_past_a_bad_one(tmp_path: Path) -> None:
    logs = write_evening(tmp_path / "logs", range(4))
    bad = tmp_path / "logs" / "bad.jsonl"
    bad.write_text(logs[0].read_text().replace('"Ann"', '"Ann", "Ann"', 1))  # the same player twice
    db = str(tmp_path / "c.db")
    code, out, err = club(db, "import", str(logs[0]), str(bad), *map(str, logs[1:]))
    assert code == 2
    assert "4 imported, 0 updated, 0 already there, 1 refused" in out
    assert f"not imported: {bad}:1:" in err
    assert standings_rows(open_database(db)) == expected_standings(logs)
    # The bundled demo's match, saved by the app as any match, is no club match: left out, said so.
    first, rest = logs[0].read_text().split("\n", 1)
    header = json.loads(first)
    header["id"], header["source"] = "demo-match-1", {"kind": "demo", "location": "", "step": 1}
    demo = tmp_path / "logs" / "demo.jsonl"
    demo.write_text(json.dumps(header) + "\n" + rest)
    code, out, _ = club(db, "import", str(demo))
    assert code == 0 and f"{demo}: the bundled demo, not a club match: left out" in out and "1 demo left out" in out
    assert standings_rows(open_database(db)) == expected_standings(logs)


def test_since_takes_words_and_dates_and_says_what_it_takes(tmp_path: Path) -> None:
    now = dt.datetime(2026, 3, 14, 21, 30)
    assert parse_since("today", now) == dt.datetime(2026, 3, 14, 6, 0)  # (the evening: from 06:00)
    assert parse_since("Yesterday", now) == dt.datetime(2026, 3, 13, 6, 0)
    assert parse_since("2026-01-02", now) == dt.datetime(2026, 1, 2, 6, 0)
    # Past midnight "today" is still the evening begun the day before, as the club's board counts it.
    assert parse_since("today", dt.datetime(2026, 3, 15, 0, 30)) == dt.datetime(2026, 3, 14, 6, 0)
    for bad in ("last week", "2026-13-01", "14.3.2026", ""):
        with pytest.raises(ClubError, match="today, yesterday or a date like|not a date"):
            parse_since(bad, now)
    db = str(tmp_path / "c.db")
    engine = open_database(db)
    sim = simulate_match("horse-race", 2, seed=4)
    import_log(engine, log_text(sim), played_at=dt.datetime.now() - dt.timedelta(days=1, hours=1), source="old")
    sim2 = simulate_match("horse-race", 2, seed=5)
    import_log(engine, log_text(sim2), played_at=dt.datetime.now(), source="new")
    assert sum(r.matches for r in standings(engine, parse_since("today"))) == 2  # two players, one match
    assert sum(r.matches for r in standings(engine, parse_since("yesterday"))) in (2, 4)  # the old one was 25 h ago
    assert sum(r.matches for r in standings(engine)) == 4
    code, _, err = club(db, "standings", "--since", "last week")
    assert code == 2 and "--since takes today, yesterday or a date like" in err and "Traceback" not in err
    assert club(db, "standings", "--since", "yesterday")[0] == 0


def test_unfinished_matches_are_told_as_playing_or_left_and_not_counted(tmp_path: Path) -> None:
    db = str(tmp_path / "c.db")
    engine = open_database(db)
    done = simulate_match("horse-race", 2, seed=7)
    import_log(engine, log_text(done))
    # A match only imported unfinished (a stick's file) is no table's game now: left unfinished.
    result = import_log(engine, log_text(simulate_match("horse-race", 2, seed=8), upto=30))
    assert not result.finished
    assert standings_rows(engine) == expected_standings([log_text(done)])
    code, out, _ = club(db, "standings")
    assert code == 0 and "(1 match left unfinished: not counted until finished)" in out
    # One a table writes is being played -- until it has not moved for the quiet minutes.
    session, live = played_live(db, simulate_match("horse-race", 3, seed=9), "Table 2", 20, tmp_path / "sessions")
    live.close()
    code, out, _ = club(db, "standings")
    assert "(1 match still playing, 1 match left unfinished: not counted until finished)" in out
    now = dt.datetime.now()
    assert unfinished(engine, now=now) == Unfinished(1, 1)
    assert unfinished(engine, now=now + dt.timedelta(minutes=QUIET_MINUTES + 1)) == Unfinished(0, 2)
    assert unfinished(engine, game="seven-rocks", now=now) == Unfinished(0, 0)
    assert standings_rows(engine) == expected_standings([log_text(done)])


def test_csv_cells_that_a_spreadsheet_would_run_are_escaped(tmp_path: Path) -> None:
    names = ("=cmd|' /C calc'!A0", "+SUM(1)", "-2+3", "@A1")
    sim = simulate_match("horse-race", 4, seed=3, names=names)
    engine = open_database(str(tmp_path / "c.db"))
    import_log(engine, log_text(sim), table_name="=HYPERLINK(\"x\")")
    export_csv(engine, tmp_path / "x.csv")
    rows = list(csv.DictReader(open(tmp_path / "x.csv", encoding="utf-8")))
    assert sorted(r["player"] for r in rows) == sorted("'" + n for n in names)
    assert {r["table"] for r in rows} == {"'=HYPERLINK(\"x\")"}
    assert all(not r["score"].startswith("'") for r in rows)  # numbers stay numbers
    assert [csv_cell(v) for v in ("\tx", "\rx", "a=b", 5, -5)] == ["'\tx", "'\rx", "a=b", 5, -5]


def test_names_are_limited_alike_on_every_backend(club_url: str) -> None:
    engine = open_database(club_url)
    longest = "N" * MAX_NAME
    ok = simulate_match("horse-race", 2, seed=1, names=(longest, "Bo"))
    assert import_log(engine, log_text(ok)).new
    for bad, why in (("N" * (MAX_NAME + 1), f"101 characters long \\(the club keeps names of up to {MAX_NAME}\\)"),
                     ("A\x00B", "control character U\\+0000"), ("A\ud800", "lone surrogate")):
        sim = simulate_match("horse-race", 2, seed=2, names=(bad, "Bo"))
        with pytest.raises(ClubError, match=why):
            import_log(engine, log_text(sim), source="long.jsonl")
    with pytest.raises(ClubError, match="table's name"):
        import_log(engine, log_text(simulate_match("horse-race", 2, seed=3)), table_name="T" * (MAX_NAME + 1))
    assert {s.player for s in standings(engine)} == {longest, "Bo"}


def test_a_merge_only_reads_its_source(tmp_path: Path) -> None:
    db = str(tmp_path / "c.db")
    typo = tmp_path / "nowhere" / "typo.db"
    code, _, err = club(db, "merge", str(typo))
    assert code == 2 and "no such database file" in err
    assert not typo.exists() and not typo.parent.exists()
    typo2 = tmp_path / "typo.db"
    assert club(db, "merge", str(typo2))[0] == 2 and not typo2.exists()
    source = tmp_path / "there.db"
    writer = open_database(str(source))
    import_files(writer, write_evening(tmp_path / "b", range(3)))
    writer.dispose()  # its last connection closed: the WAL checkpointed into the file, which no one writes now
    before = source.read_bytes()
    assert not source.with_name("there.db-wal").exists()
    source.chmod(0o444)
    try:
        code, out, err = club(db, "merge", str(source))
    finally:
        source.chmod(0o644)
    assert code == 0, err
    assert "3 new matches, 0 updated, 0 already here" in out
    assert source.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith("there")) == ["there.db"]  # no -wal, -shm


def _tamper(db: Path, count: int) -> None:
    con = sqlite3.connect(db)
    ids = [r[0] for r in con.execute("select id from matches order by id")][:count]
    for ident in ids:
        con.execute("""update matches set log = log || '{"type": "play", "player": "Zed", "tile": [1, 1]}' || char(10) where id = ?""",
                    (ident,))
    con.commit()
    con.close()


def test_a_merge_is_one_transaction_and_a_bad_stored_log_stops_it_whole(tmp_path: Path) -> None:
    here_db = str(tmp_path / "here.db")
    here = open_database(here_db)
    import_files(here, write_evening(tmp_path / "a", range(0, 2)))
    source = tmp_path / "there.db"
    logs = write_evening(tmp_path / "b", range(10, 16))
    import_files(open_database(str(source)), logs)
    _tamper(source, 1)
    code, out, err = club(here_db, "merge", str(source))
    assert code == 2 and "1 of its 6 stored logs cannot be read; nothing was merged" in err
    assert re.search(r"there\.db: match [0-9a-f]{12}:\d+: the match is over", err)  # which match, which line, why
    assert sum(r.matches for r in standings(here)) == sum(2 + s % 3 for s in range(0, 2))  # unchanged
    code, out, err = club(here_db, "merge", str(source), "--skip-bad")
    assert code == 0 and "5 new matches" in out and "left out:" in err
    # One transaction: a match the target refuses (the same id, another log) rolls back the whole merge.
    third = tmp_path / "third.db"
    sim = simulate_match("horse-race", 2, seed=30)
    header = MatchHeader("horse-race", sim.header.players, False, id="b" * 32)
    third_engine = open_database(str(third))
    import_files(third_engine, write_evening(tmp_path / "c", range(20, 23)))
    import_log(third_engine, log_text(sim, header=header))
    import_log(here, log_text(simulate_match("horse-race", 2, seed=31), header=header))
    count = sum(r.matches for r in standings(here))
    with pytest.raises(ClubError, match="different log under this match's id"):
        merge(here, str(third))
    assert sum(r.matches for r in standings(here)) == count


def test_a_damaged_database_is_refused_with_what_to_do(tmp_path: Path) -> None:
    db = tmp_path / "c.db"
    engine = open_database(str(db))
    import_files(engine, write_evening(tmp_path / "logs", range(12)))
    engine.dispose()
    con = sqlite3.connect(db)
    con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    page = con.execute("PRAGMA page_size").fetchone()[0]
    pages = con.execute("PRAGMA page_count").fetchone()[0]
    con.close()
    data = bytearray(db.read_bytes())
    for n in range(2, pages, 3):  # bytes flipped in the header and cell pointers of every third page
        for i in range(8, 24):
            data[n * page + i] ^= 0x5A
    db.write_bytes(bytes(data))
    code, out, err = club(str(db), "standings")
    assert code == 2 and out == ""
    assert "the club database is damaged" in err and "import the logs again" in err and "mv " in err



def test_a_database_server_s_password_is_never_told_in_a_message() -> None:
    import pytest

    from scorer.club import ClubError, open_database

    with pytest.raises(ClubError) as refused:
        open_database("postgresql+psycopg://club:s3cret-pw@127.0.0.1:1/club")
    assert "s3cret-pw" not in str(refused.value) and "club:***@127.0.0.1:1/club" in str(refused.value)


def test_a_name_typed_in_another_letter_case_or_with_spaces_is_the_same_player(tmp_path: Path) -> None:
    engine = open_database(str(tmp_path / "c.db"))
    import_log(engine, log_text(simulate_match("horse-race", 2, seed=4, names=("Åsa", "Ben"))), source="first")
    import_log(engine, log_text(simulate_match("horse-race", 2, seed=5, names=("åsa", "Ben "))), source="second")
    import_log(engine, log_text(simulate_match("horse-race", 2, seed=6, names=("ÅSA", "Ben  Jr"))), source="third")
    rows = {r.player: r.matches for r in standings(engine)}
    assert rows == {"Åsa": 3, "Ben": 2, "Ben Jr": 1}  # (the spelling first kept; "Ben Jr" another player)


def test_players_level_in_the_standings_share_a_place(tmp_path: Path) -> None:
    engine = open_database(str(tmp_path / "c.db"))
    for names in (("Ann", "Ben"), ("Cid", "Dee")):  # (one seed, one match: the same results under other names)
        import_log(engine, log_text(simulate_match("horse-race", 2, seed=4, names=names)), source=names[0])
    assert [r.place for r in standings(engine)] == [1, 1, 3, 3]


def test_two_players_of_one_match_named_alike_stay_two(tmp_path: Path) -> None:
    engine = open_database(str(tmp_path / "c.db"))
    import_log(engine, log_text(simulate_match("horse-race", 2, seed=4, names=("Ann", "Ben"))), source="first")
    import_log(engine, log_text(simulate_match("horse-race", 2, seed=5, names=("ann", "Ann"))), source="second")
    rows = {r.player: r.matches for r in standings(engine)}
    assert rows == {"Ann": 2, "ann": 1, "Ben": 1}  # (the match counted once a seat: names kept as typed)
