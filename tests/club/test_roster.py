"""The club's players by name: a name mistyped at a table merged into its player, a player renamed -- and a
table typing the old name later, an import again and another laptop's database all keeping the decision."""

from __future__ import annotations

import dataclasses
import datetime as dt
import io
import shutil
import sqlite3
from pathlib import Path

import pytest
from sqlalchemy import text
from club_helpers import expected_standings, log_text, standings_rows

from scorer.cli import main
from scorer.club import (
    ClubError, import_log, merge, merge_players, open_database, other_names, player_names, rename_player, separable, separate_name,
)
from scorer.rules.simulate import simulate_match


def _match(seed: int, *names: str) -> str:
    return log_text(simulate_match("horse-race", len(names), seed=seed, names=names))


def _as_if(texts: list[str], typed: str, meant: str) -> dict[str, tuple[int, int, int]]:
    """The standings straight from the logs, had every table typed ``meant`` for ``typed``."""
    return expected_standings([t.replace(f'"{typed}"', f'"{meant}"') for t in texts])


def test_a_mistyped_name_merged_into_its_player_counts_for_the_player_from_then_on(club_url: str) -> None:
    engine = open_database(club_url)
    texts = [_match(1, "Ann", "Ben"), _match(2, "Ann", "Bem"), _match(3, "Bem", "Cid")]
    for i, text in enumerate(texts):
        import_log(engine, text, source=str(i))
    merged = merge_players(engine, "bem", "Ben")  # (the name as any letter case has it)
    assert (merged.name, merged.into, merged.matches) == ("Bem", "Ben", 2)
    assert standings_rows(engine) == _as_if(texts, "Bem", "Ben")
    assert player_names(engine) == ["Ann", "Ben", "Cid"] and other_names(engine) == {"Ben": ["Bem"]}
    texts.append(_match(4, "BEM", "Cid"))  # a table typing the mistake again
    import_log(engine, texts[-1], source="3")
    assert standings_rows(engine) == _as_if([t.replace('"BEM"', '"Bem"') for t in texts], "Bem", "Ben")
    assert player_names(engine) == ["Ann", "Ben", "Cid"]
    with pytest.raises(ClubError, match="'Bem' is another name of 'Ben' already: nothing to merge"):
        merge_players(engine, "Bem", "Ben")


def test_two_players_of_one_match_are_never_merged_and_an_unknown_name_is_told_with_the_closest(tmp_path: Path) -> None:
    engine = open_database(str(tmp_path / "c.db"))
    import_log(engine, _match(1, "Ann", "Ben"))
    with pytest.raises(ClubError, match=r"'Ann' and 'Ben' played in one match \(1 in all, .*\): they are two people"):
        merge_players(engine, "Ann", "Ben")
    with pytest.raises(ClubError, match=r"no player named 'Anne' in the club \(did you mean 'Ann'\?\)"):
        merge_players(engine, "Anne", "Ben")
    with pytest.raises(ClubError, match="one player already"):
        merge_players(engine, "ann", "Ann")
    assert standings_rows(engine) == expected_standings([_match(1, "Ann", "Ben")])  # (nothing changed)


def test_a_renamed_player_keeps_every_match_and_the_old_name_typed_still_scores_for_them(club_url: str) -> None:
    engine = open_database(club_url)
    texts = [_match(1, "Ann", "Ben"), _match(2, "Ben", "Cid")]
    for i, text in enumerate(texts):
        import_log(engine, text, source=str(i))
    assert rename_player(engine, "ben", "Benjamin  Ek") == "Benjamin Ek"
    texts.append(_match(3, "Ben", "Ann"))
    import_log(engine, texts[-1], source="2")
    assert standings_rows(engine) == _as_if(texts, "Ben", "Benjamin Ek")
    assert other_names(engine) == {"Benjamin Ek": ["Ben"]}
    with pytest.raises(ClubError, match=r"'ann' is another player's name already, and 'Benjamin Ek' and 'Ann' played in one "
                                        r"match \(2 in all, the first .*\): choose another name"):
        rename_player(engine, "Benjamin Ek", "ann")
    import_log(engine, _match(4, "Ann", "Dee"), source="3")
    with pytest.raises(ClubError, match=r"'dee' is another player's name already: if 'Benjamin Ek' and 'Dee' are one person, "
                                        r"`club players merge 'Benjamin Ek' Dee` makes them one"):
        rename_player(engine, "Benjamin Ek", "dee")
    with pytest.raises(ClubError, match="'Benjamin Ek' is the player's name already: nothing to change"):
        rename_player(engine, "benjamin ek", " Benjamin Ek")
    assert rename_player(engine, "Benjamin Ek", "BEN") == "BEN"  # (back to the old name: it is the player's own again)
    assert other_names(engine) == {"BEN": ["Benjamin Ek"]} and "BEN" in player_names(engine)
    with pytest.raises(ClubError, match="cannot go into the club database: an empty name"):
        rename_player(engine, "BEN", "  ")


def test_another_laptop_s_merged_names_come_with_its_database(tmp_path: Path) -> None:
    here, there = open_database(str(tmp_path / "here.db")), open_database(str(tmp_path / "there.db"))
    texts_here = [_match(1, "Ann", "Bem"), _match(2, "Cid", "Dee")]
    texts_there = [_match(3, "Ann", "Bem"), _match(4, "Cid", "Dee"), _match(5, "Ben", "Cid")]
    for i, text in enumerate(texts_here):
        import_log(here, text, source=str(i))
    for i, text in enumerate(texts_there):
        import_log(there, text, source=str(i))
    merge_players(there, "Bem", "Ben")  # (there, Ben came; Ben is the one they typed Bem for)
    rename_player(there, "Dee", "Dee Ek")
    merged = merge(here, str(tmp_path / "there.db"))
    assert (merged.added, merged.names_left) == (3, [])
    renamed = [t.replace('"Dee"', '"Dee Ek"') for t in texts_here + texts_there]
    assert standings_rows(here) == _as_if(renamed, "Bem", "Ben")
    assert other_names(here) == {"Ben": ["Bem"], "Dee Ek": ["Dee"]}


def test_a_merged_name_another_laptop_gives_another_player_is_left_and_said(tmp_path: Path) -> None:
    here, there = open_database(str(tmp_path / "here.db")), open_database(str(tmp_path / "there.db"))
    import_log(here, _match(1, "Ann", "Bem"))
    import_log(here, _match(2, "Ann", "Cid"))
    merge_players(here, "Bem", "Cid")  # here Bem was Cid mistyped ...
    import_log(there, _match(3, "Bem", "Dee"))
    import_log(there, _match(4, "Ben", "Dee"))
    merge_players(there, "Bem", "Ben")  # ... there Ben
    merged = merge(here, str(tmp_path / "there.db"))
    assert merged.names_left == ["'Bem' is 'Ben' there but 'Cid' here: left as it is"]
    assert other_names(here) == {"Cid": ["Bem"]}


def test_a_database_made_before_other_names_is_upgraded_and_merged_from(tmp_path: Path) -> None:
    old = tmp_path / "old.db"
    engine = open_database(str(old))
    import_log(engine, _match(1, "Ann", "Ben"))
    engine.dispose()
    with sqlite3.connect(old) as c:  # (as schema 0003 left it)
        c.execute("DROP TABLE aliases")
        c.execute("UPDATE alembic_version SET version_num = '0003'")
    here = open_database(str(tmp_path / "here.db"))
    assert merge(here, str(old)).added == 1  # (read only: its schema as it is)
    upgraded = open_database(str(old))
    rename_player(upgraded, "Ben", "Benjamin")
    assert other_names(upgraded) == {"Benjamin": ["Ben"]}


def _club(db: str, *args: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    return main(["club", "--db", db, *args], out=out, err=err), out.getvalue(), err.getvalue()


def test_club_players_rename_and_merge_on_the_command_line(tmp_path: Path) -> None:
    db = str(tmp_path / "c.db")
    for i, names in enumerate([("Ann", "Ben"), ("Ann", "Bem")]):
        (tmp_path / f"{i}.jsonl").write_text(_match(i, *names))
        _club(db, "import", str(tmp_path / f"{i}.jsonl"))
    assert _club(db, "players", "merge", "Bem", "Ben") == (
        0, "'Bem' is 'Ben' now: 1 match moved to 'Ben'; a table typing 'Bem' scores for 'Ben'\n", "")
    code, out, _ = _club(db, "players", "rename", "Ann", "Ann Ek")
    assert code == 0 and out == "'Ann' is 'Ann Ek' now, in every match; a table typing 'Ann' scores for 'Ann Ek'\n"
    assert _club(db, "players")[1] == "Ann Ek  (also Ann)\nBen  (also Bem)\n"
    code, _, err = _club(db, "players", "merge", "Ann Ek", "Ben")
    assert code != 0 and "played in one match" in err
    assert _club(db, "players", "separate", "bem") == (
        0, "'Bem' is not 'Ben' any more: 1 match typed 'Bem' moved to a player 'Bem' of their own; a table typing 'Bem' "
           "plays as 'Bem'\n", "")
    for action in (["rename", "A", "B"], ["merge", "A", "B"], ["separate", "A"]):  # (a database mistyped is never made)
        code, _, err = _club(str(tmp_path / "missing.db"), "players", *action)
        assert code != 0 and "no such database file" in err and not (tmp_path / "missing.db").exists()


def test_a_merge_undone_gives_the_name_its_matches_back_as_the_logs_typed_them(club_url: str) -> None:
    engine = open_database(club_url)
    texts = [_match(1, "Ann", "Ben"), _match(2, "Ann", "Bem"), _match(3, "bem", "Cid")]
    for i, text in enumerate(texts):
        import_log(engine, text, source=str(i))
    before = standings_rows(engine)
    merge_players(engine, "Bem", "Ben")
    assert standings_rows(engine) != before
    separated = separate_name(engine, "BEM")
    assert (separated.name, separated.into, separated.matches) == ("Bem", "Ben", 2)
    assert standings_rows(engine) == before and other_names(engine) == {}
    with pytest.raises(ClubError, match="'Ann' is a player's own name, not another name of a player: to change it, rename"):
        separate_name(engine, "Ann")
    with pytest.raises(ClubError, match="no player named 'Bob'"):
        separate_name(engine, "Bob")


def test_a_rename_s_old_name_separated_takes_only_the_matches_typed_with_it_since(tmp_path: Path) -> None:
    """Ben renamed Benjamin; a newcomer called Ben came, and a table typing "Ben" scored for Benjamin: separated, the
    newcomer's match is Ben's, and the matches Benjamin played as Ben before the rename stay his."""
    engine = open_database(str(tmp_path / "c.db"))
    now = dt.datetime.now()
    for seed, names in ((1, ("Ben", "Dan")), (2, ("Ben", "Ann"))):
        import_log(engine, _match(seed, *names), source=str(seed), played_at=now - dt.timedelta(days=7))
    rename_player(engine, "Ben", "Benjamin")
    import_log(engine, _match(3, "Ben", "Ann"), source="3", played_at=now + dt.timedelta(hours=1))
    assert standings_rows(engine)["Benjamin"][0] == 3 and separable(engine, "ben") == (1, True)
    separated = separate_name(engine, "ben")
    assert (separated.name, separated.into, separated.matches) == ("Ben", "Benjamin", 1)
    assert {p: r[0] for p, r in standings_rows(engine).items()} == {"Ann": 2, "Ben": 1, "Benjamin": 2, "Dan": 1}
    import_log(engine, _match(4, "Ben", "Dan"), source="4")  # (the newcomer again)
    assert standings_rows(engine)["Ben"][0] == 2 and other_names(engine) == {}


def test_a_name_exactly_as_kept_is_that_player_before_one_in_another_letter_case(tmp_path: Path) -> None:
    engine = open_database(str(tmp_path / "c.db"))
    import_log(engine, _match(1, "Ann", "ann"), source="1")  # (two people: kept as typed)
    import_log(engine, _match(2, "ann", "Cat"), source="2")
    assert rename_player(engine, "ann", "Annikki") == "Annikki"
    assert {p: r[0] for p, r in standings_rows(engine).items()} == {"Ann": 1, "Annikki": 2, "Cat": 1}
    import_log(engine, _match(3, "ann", "Cat"), source="3")  # (the old name, as typed: Annikki's)
    assert standings_rows(engine)["Annikki"][0] == 3 and standings_rows(engine)["Ann"][0] == 1


def test_two_names_of_one_match_for_one_player_leave_the_match_s_other_names_alone(tmp_path: Path) -> None:
    engine = open_database(str(tmp_path / "c.db"))
    for seed, names in ((1, ("Ann", "Ben")), (2, ("Ann", "Bem")), (3, ("Kat", "Dan"))):
        import_log(engine, _match(seed, *names), source=str(seed))
    merge_players(engine, "Bem", "Ben")
    rename_player(engine, "Kat", "Cat")
    import_log(engine, _match(4, "Bem", "Ben", "Kat"), source="4")  # (Bem beside Ben: someone else, this once)
    rows = {p: r[0] for p, r in standings_rows(engine).items()}
    assert rows == {"Ann": 2, "Ben": 3, "Bem": 1, "Cat": 2, "Dan": 1}
    import_log(engine, _match(5, "Bem", "Kat"), source="5")  # (Bem alone again: Ben, as the organiser said)
    assert standings_rows(engine)["Ben"][0] == 4 and standings_rows(engine)["Cat"][0] == 3
    assert other_names(engine) == {"Ben": ["Bem"], "Cat": ["Kat"]}


def test_a_database_merge_takes_the_other_laptop_s_decisions_but_not_one_undone_here(tmp_path: Path) -> None:
    a, b = str(tmp_path / "a.db"), str(tmp_path / "b.db")
    here = open_database(a)
    for seed, names in ((1, ("Ann", "Ben")), (2, ("Ann", "Bem"))):
        import_log(here, _match(seed, *names), source=str(seed))
    merge_players(here, "Bem", "Ben")
    here.dispose()
    shutil.copy(a, b)
    separate_name(open_database(a), "Bem")
    merged = merge(open_database(a), b)
    assert (merged.names_taken, merged.names_left) == ([], [])  # (undone here since: this database's decision stands)
    assert {p: r[0] for p, r in standings_rows(open_database(a)).items()} == {"Ann": 2, "Ben": 1, "Bem": 1}


def test_a_database_merge_says_what_it_took_and_makes_no_player_for_a_name_it_leaves(tmp_path: Path) -> None:
    l1, l2 = open_database(str(tmp_path / "l1.db")), open_database(str(tmp_path / "l2.db"))
    for engine in (l1, l2):
        import_log(engine, _match(1, "Ben", "Dan"), source="1")
        import_log(engine, _match(2, "Bem", "Dan"), source="2")
    rename_player(l1, "Ben", "Benjamin")
    rename_player(l2, "Ben", "Benny")
    merge_players(l2, "Bem", "Benny")
    merged = merge(l1, str(tmp_path / "l2.db"))
    assert merged.names_left == ["'Ben' is 'Benny' there but 'Benjamin' here: left as it is"]
    assert merged.names_taken == ["'Bem' is 'Benny', as there: 1 match moved"]
    assert player_names(l1) == ["Benjamin", "Benny", "Dan"]  # (Benny: Bem's match; no player made for 'Ben' left)


def test_a_merge_cannot_be_undone_from_an_unreadable_stored_log_and_says_which(tmp_path: Path) -> None:
    engine = open_database(str(tmp_path / "c.db"))
    import_log(engine, _match(1, "Bem", "Dan"), source="1")
    import_log(engine, _match(2, "Ben", "Dan"), source="2")
    merge_players(engine, "Bem", "Ben")
    with engine.begin() as c:
        c.execute(text("UPDATE matches SET log = '{not json'"))
    with pytest.raises(ClubError, match=r"match [0-9a-f]{12}: its stored log cannot be read .*; nothing was separated"):
        separate_name(engine, "Bem")
    assert other_names(engine) == {"Ben": ["Bem"]}



def _grown(seed: int, names: tuple[str, ...], ident: str, lines: int | None = None) -> str:
    """A simulated match's log with an id (a live table's), its first ``lines`` lines (all: None)."""
    sim = simulate_match("horse-race", len(names), seed=seed, names=names)
    header = dataclasses.replace(sim.header, id=ident * 32)
    text = log_text(sim, header=header)
    return "".join(text.splitlines(keepends=True)[:lines]) if lines else text


def test_a_match_growing_keeps_its_seats_through_a_rename_separated_and_a_name_split(tmp_path: Path) -> None:
    engine = open_database(str(tmp_path / "c.db"))
    import_log(engine, _grown(1, ("Ann", "Ben"), "a", 8), source="m1")  # (a live table: Ann and Ben playing)
    rename_player(engine, "Ann", "Anna")
    import_log(engine, _match(2, "Ann", "Cid"), source="m2", played_at=dt.datetime.now() + dt.timedelta(hours=1))  # (a newcomer)
    assert separate_name(engine, "Ann").matches == 1
    import_log(engine, _grown(1, ("Ann", "Ben"), "a"), source="m1")  # (m1 goes on: still Anna's)
    import_log(engine, _grown(3, ("ann", "Dee"), "b", 8), source="m3")
    import_log(engine, _match(4, "Ann", "ann"), source="m4")  # (two people typed alike, beside each other)
    import_log(engine, _grown(3, ("ann", "Dee"), "b"), source="m3")  # (m3 goes on: still the player it was stored with)
    counts = {p: r[0] for p, r in standings_rows(engine).items()}
    assert counts["Anna"] == 1 and counts["Ann"] == 3 and counts["ann"] == 1


def test_a_player_s_own_name_in_another_case_beside_another_name_of_the_player_is_the_player(tmp_path: Path) -> None:
    engine = open_database(str(tmp_path / "c.db"))
    for seed, names in ((1, ("Ann", "Ben")), (2, ("Ann", "Bem"))):
        import_log(engine, _match(seed, *names), source=str(seed))
    merge_players(engine, "Bem", "Ben")
    import_log(engine, _match(3, "ben", "Bem"), source="3")  # ("ben" is Ben; "Bem" beside him someone else, this once)
    import_log(engine, _match(4, "ben", "Ann"), source="4")
    counts = {p: r[0] for p, r in standings_rows(engine).items()}
    assert counts == {"Ann": 3, "Ben": 4, "Bem": 1}
    with pytest.raises(ClubError, match=r"'Bem' is another player's name already, and 'Ben' and 'Bem' played in one match"):
        rename_player(engine, "Ben", "Bem")  # (a player of that very name: said, not a database error)


def test_a_merge_of_a_player_named_as_another_s_other_name_says_whom_a_table_typing_it_scores_for(tmp_path: Path) -> None:
    db = str(tmp_path / "c.db")
    engine = open_database(db)
    for seed, names in ((1, ("Ann", "Ben")), (2, ("Cid", "Bem")), (3, ("Ben", "Dee"))):
        import_log(engine, _match(seed, *names), source=str(seed))
    merge_players(engine, "Bem", "Ben")
    import_log(engine, _match(4, "Ben", "Bem"), source="4")  # (a Bem beside Ben: a player "Bem" of this match's own)
    code, out, _ = _club(db, "players", "merge", "Bem", "Cid")
    assert code == 0 and out.endswith("a table typing 'Bem' scores for 'Ben'\n")


def test_a_rename_and_its_undoing_travel_with_a_database_merge_as_renames(tmp_path: Path) -> None:
    main_db, laptop_db = str(tmp_path / "main.db"), str(tmp_path / "laptop.db")
    main, laptop = open_database(main_db), open_database(laptop_db)
    before = dt.datetime.now() - dt.timedelta(days=7)
    for engine in (main, laptop):
        import_log(engine, _match(1, "Ann", "Ben"), source="1", played_at=before)
        import_log(engine, _match(2, "Ann", "Cid"), source="2", played_at=before)
    rename_player(main, "Ann", "Anna")
    import_log(main, _match(3, "Ann", "Dee"), source="3", played_at=dt.datetime.now() + dt.timedelta(hours=1))
    merged = merge(laptop, main_db)
    assert merged.names_taken == ["'Ann' is 'Anna', as there: 2 matches moved"] and merged.added == 1
    assert standings_rows(laptop) == standings_rows(main)
    separate_name(main, "Ann")  # (the newcomer Ann of match 3: the two before the rename stay Anna's)
    assert merge(laptop, main_db).names_taken == ["'Ann' is not 'Anna' any more, as there: 1 match moved"]
    assert standings_rows(laptop) == standings_rows(main)
    assert {p: r[0] for p, r in standings_rows(main).items()} == {"Anna": 2, "Ann": 1, "Ben": 1, "Cid": 1, "Dee": 1}
    fresh = open_database(str(tmp_path / "fresh.db"))
    merge(fresh, main_db)  # (a copy made from the club's file keeps the decisions: "merge in a copy that has them")
    assert standings_rows(fresh) == standings_rows(main)
