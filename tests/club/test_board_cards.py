"""The board's cards at a club evening (a trial of two tables found these): a table shows the match it played
last -- not one left unfinished before it, nor an abandoned one after a win; two tables given one name are
both shown, marked; a table renamed or a match resumed is shown where it is, as played now."""

from __future__ import annotations

import dataclasses
import datetime as dt

from club_helpers import log_text, played_live
from sqlalchemy import update

from scorer.club import LiveTable, import_log, open_database
from scorer.club.board import BoardData
from scorer.club.schema import matches
from scorer.rules.simulate import simulate_match


def _unfinished(seed: int, names: tuple[str, ...], lines: int) -> str:
    return log_text(simulate_match("horse-race", len(names), seed=seed, names=names), upto=lines - 1)


def _at(engine, ident: str, now: dt.datetime, updated: float, opened: float) -> None:
    """The match last changed ``updated`` minutes ago, opened at its table ``opened`` minutes ago."""
    with engine.begin() as c:
        c.execute(update(matches).where(matches.c.id == ident).values(
            updated_at=now - dt.timedelta(minutes=updated), opened_at=now - dt.timedelta(minutes=opened)))


def _cards(engine, now: dt.datetime) -> list[tuple[str, str, bool, int]]:
    """(table, the current match's first side, marked as a shared name, earlier matches) for each card."""
    return [(t["table"], t["match"]["sides"][0]["name"], t["shared_name"], len(t["earlier"]))
            for t in BoardData(engine).tables(now)["tables"]]


def test_a_table_shows_the_match_it_moved_last(tmp_path) -> None:
    engine = open_database(str(tmp_path / "club.db"))
    now = dt.datetime.now()
    seven = import_log(engine, _unfinished(1, ("Eve", "Fay"), 12), table_name="Table 2").match_id
    horse = import_log(engine, _unfinished(2, ("Kim", "Lee", "Mia"), 4), table_name="Table 2").match_id
    # Eve's match left for Kim's, then resumed and played on: Kim's moved only while it was open.
    _at(engine, horse, now, updated=9, opened=10)
    _at(engine, seven, now, updated=1, opened=8)
    assert _cards(engine, now) == [("Table 2", "Eve", False, 1)]
    # Kim's then played on while Eve's stayed open at that table too: two tables given one name.
    _at(engine, horse, now, updated=2, opened=10)
    assert _cards(engine, now) == [("Table 2", "Eve", True, 0), ("Table 2", "Kim", True, 0)]
    # ... until one of them has not moved for the quiet minutes: an abandoned match is listed as earlier.
    _at(engine, horse, now, updated=20, opened=30)
    assert _cards(engine, now) == [("Table 2", "Eve", False, 1)]


def test_a_match_won_stays_on_its_table_over_one_left_unfinished(tmp_path) -> None:
    engine = open_database(str(tmp_path / "club.db"))
    now = dt.datetime.now()
    left = import_log(engine, _unfinished(3, ("Kim", "Lee"), 6), table_name="Table 2").match_id
    won = import_log(engine, log_text(simulate_match("horse-race", 2, seed=4, names=("Ann", "Ben"))),
                     table_name="Table 2").match_id
    _at(engine, left, now, updated=30, opened=40)
    _at(engine, won, now, updated=1, opened=25)
    tables = BoardData(engine).tables(now)["tables"]
    assert [(t["match"]["id"], t["match"]["status"]) for t in tables] == [(won, "finished")]
    earlier = tables[0]["earlier"]
    assert [(e["id"], e["status"], e["title"].split(":")[0]) for e in earlier] == [(left, "playing", "Horse Race")]
    assert set(earlier[0]["scores"]) == {"Kim", "Lee"}


def test_a_table_renamed_or_a_match_resumed_is_shown_as_played_now(tmp_path) -> None:
    db = str(tmp_path / "club.db")
    engine = open_database(db)
    session, live = played_live(db, simulate_match("horse-race", 2, seed=5), "Table 1", 6, tmp_path / "sessions")
    live.close()
    ident = import_log(engine, session.text()).match_id  # (the same log again: nothing changes)
    hour_ago = dt.datetime.now() - dt.timedelta(hours=1)

    def reopened(table: str):
        with engine.begin() as c:
            c.execute(update(matches).where(matches.c.id == ident).values(updated_at=hour_ago, opened_at=hour_ago))
        again = LiveTable(db, table)  # the app started again and the match resumed, or the settings' new name
        again(session)
        assert again.flush(30)
        again.close()
        with engine.connect() as c:
            return c.execute(matches.select().where(matches.c.id == ident)).first()

    resumed = reopened("Table 1")
    assert resumed.table_name == "Table 1" and resumed.updated_at > hour_ago and resumed.opened_at > hour_ago
    renamed = reopened("Table 2")
    assert renamed.table_name == "Table 2" and renamed.updated_at > hour_ago and renamed.lines == 7


def test_a_file_imported_or_merged_leaves_a_live_tables_card_and_names_alone(tmp_path) -> None:
    """The organiser imports a match from a USB stick for a table that is playing, or merges a laptop's own file
    into the club's: the live match keeps its card, and nothing is renamed or re-timed (a review found both)."""
    from scorer.club import merge

    db = str(tmp_path / "club.db")
    engine = open_database(db)
    session, live = played_live(db, simulate_match("horse-race", 2, seed=5, names=("Ann", "Ben")), "Table 1", 8,
                                tmp_path / "sessions")
    kim = simulate_match("horse-race", 2, seed=6, names=("Kim", "Lee"))
    earlier = (dt.datetime.now().astimezone() - dt.timedelta(minutes=40)).isoformat(timespec="seconds")
    header = dataclasses.replace(kim.header, started=earlier)
    import_log(engine, log_text(kim, upto=10, header=header), table_name="Table 1")  # (unfinished, brought on a stick)
    now = dt.datetime.now()
    assert _cards(engine, now) == [("Table 1", "Ann", False, 1)]
    won = simulate_match("horse-race", 2, seed=7, names=("Ivy", "Jon"))  # (no start time: dated by its file, now)
    import_log(engine, log_text(won), table_name="Table 1", played_at=dt.datetime.now())
    assert _cards(engine, dt.datetime.now()) == [("Table 1", "Ann", False, 2)]
    for step in simulate_match("horse-race", 2, seed=5, names=("Ann", "Ben")).events[8:10]:
        session.apply(step.event)
    assert live.flush(30)
    live.close()
    assert _cards(engine, dt.datetime.now()) == [("Table 1", "Ann", False, 2)]  # (no "two tables" either)
    laptop = str(tmp_path / "laptop.db")
    import_log(open_database(laptop), session.text(), table_name="Table 9")
    with engine.connect() as c:
        before = c.execute(matches.select().where(matches.c.table_name == "Table 1")).all()
    merge(engine, laptop)
    with engine.connect() as c:
        after = c.execute(matches.select().where(matches.c.table_name == "Table 1")).all()
    assert [(r.id, r.updated_at, r.opened_at) for r in after] == [(r.id, r.updated_at, r.opened_at) for r in before]


def test_matches_of_an_older_scorer_are_not_told_as_two_tables(tmp_path) -> None:
    """Rows written before schema 0003 (or by a laptop not yet updated) have no opening time: a table that left one
    such match for another is not told as two tables of one name."""
    engine = open_database(str(tmp_path / "club.db"))
    now = dt.datetime.now()
    first = import_log(engine, _unfinished(1, ("Ann", "Ben"), 12), table_name="Table 1").match_id
    second = import_log(engine, _unfinished(2, ("Kim", "Lee"), 6), table_name="Table 1").match_id
    with engine.begin() as c:
        c.execute(update(matches).where(matches.c.id == first).values(updated_at=now - dt.timedelta(minutes=5)))
        c.execute(update(matches).where(matches.c.id == second).values(updated_at=now - dt.timedelta(minutes=1)))
    assert [(table, shared) for table, _, shared, _ in _cards(engine, now)] == [("Table 1", False)]


def test_an_imported_unfinished_match_is_told_left_as_the_standings_count_it_and_a_live_one_played(tmp_path) -> None:
    db = str(tmp_path / "club.db")
    engine = open_database(db)
    import_log(engine, _unfinished(3, ("Ann", "Ben"), 6), table_name="Table 1")
    session, live = played_live(db, simulate_match("horse-race", 2, seed=4, names=("Cid", "Dee")), "Table 2", 6, tmp_path / "s")
    try:
        cards = {t["table"]: t["match"] for t in BoardData(engine).tables()["tables"]}
        assert cards["Table 1"]["live"] is False and cards["Table 2"]["live"] is True
        # (the board's page tells the first "left unfinished (imported)": the standings' note counts it left, not playing)
        assert BoardData(engine).standings()["tonight"]["playing"] == 1
    finally:
        live.close(timeout=10)
        session.close()
