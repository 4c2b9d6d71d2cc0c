"""A match's or a cribbage game's file held while it is played: another program replacing, removing or appending
to it loses nothing; one window per game."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from scorer.cribbage.cards import parse_card
from scorer.cribbage.match import Cut, Deal, PegCard
from scorer.cribbage.store import GameFile, list_unfinished, read_game
from scorer.rules.simulate import simulate_match
from scorer.sessions import Session, SessionError, read_session


def match_of(tmp_path: Path, events: int) -> tuple[Session, list]:
    sim = simulate_match("horse-race", 2, seed=3)
    session = Session.create(sim.header, tmp_path)
    for k, step in enumerate(sim.events[:events]):
        session.apply(step.event, 1.0 + k)
    return session, [s.event for s in sim.events]


def test_a_file_another_program_replaced_is_written_again_and_the_other_kept(tmp_path: Path) -> None:
    session, events = match_of(tmp_path, 6)
    ours = session.path.read_bytes()
    theirs = b"".join(ours.splitlines(keepends=True)[:3])  # (a sync tool's older copy, moved over it)
    copy = session.path.with_name("copy.tmp")
    copy.write_bytes(theirs)
    os.replace(copy, session.path)
    session.apply(events[6], 7.0)
    assert [s.event for s in read_session(session.path).log.steps] == events[:7]  # nothing lost
    kept = session.path.with_name(session.path.name + ".replaced")
    assert kept.read_bytes() == theirs
    notes = session.take_notes()
    assert len(notes) == 1 and "another program replaced the file" in notes[0] and kept.name in notes[0]
    assert session.take_notes() == []  # (told once)
    with pytest.raises(SessionError, match="open in another window or process"):
        Session.open(session.path)  # (the file written again is held as the one before)
    session.apply(events[7], 8.0)
    session.close()
    again, damage = Session.open(session.path)
    assert damage is None and [s.event for s in again.steps] == events[:8]
    again.close()


def test_a_file_another_program_removed_is_written_again(tmp_path: Path) -> None:
    session, events = match_of(tmp_path, 5)
    session.path.unlink()
    session.apply(events[5], 6.0)
    session.apply(events[6], 7.0)
    assert [s.event for s in read_session(session.path).log.steps] == events[:7]
    assert ["another program removed the file" in note for note in session.take_notes()] == [True]
    assert not list(tmp_path.glob("*.replaced")) and not list(tmp_path.glob("*.writing"))
    session.close()


def test_lines_another_program_appended_are_kept_beside_not_cut_away_unseen(tmp_path: Path) -> None:
    session, events = match_of(tmp_path, 4)
    added = b'{"type": "draw", "player": "Ann", "count": 1, "comment": "added by hand"}\n'
    with open(session.path, "ab") as f:
        f.write(added)
    session.apply(events[4], 5.0)
    assert [s.event for s in read_session(session.path).log.steps] == events[:5]
    assert session.path.with_name(session.path.name + ".damaged").read_bytes() == added
    assert ["lines another program added to the file were moved to" in n for n in session.take_notes()] == [True]
    session.close()


def test_a_cribbage_game_is_held_by_one_window_and_offered_only_when_let_go(tmp_path: Path) -> None:
    game = GameFile.create(["Eve", "Fay"], 121, False, folder=tmp_path)
    for event in (Deal("Eve"), Cut(parse_card("JD")), PegCard("Fay", parse_card("5", suit_required=False))):
        game.add(event)
    assert list_unfinished(tmp_path) == []  # (open in its window: offered nowhere else)
    game.close()
    [(saved, _)] = list_unfinished(tmp_path)
    first = GameFile(saved.path)
    with pytest.raises(SessionError, match="this game is open in another window or process"):
        GameFile(saved.path)  # a second window on the same game: refused, as for a domino match
    first.add(PegCard("Eve", parse_card("K", suit_required=False)))
    first.close()
    assert len(read_game(saved.path).events) == 4


def test_a_cribbage_name_holding_a_line_separator_reads_back(tmp_path: Path) -> None:
    names = ["Eve\u2028Z", "Fay\u0085\u2029"]
    game = GameFile.create(names, 61, True, folder=tmp_path)
    game.add(Deal(names[0]))
    game.close()
    assert b"\xe2\x80\xa8" not in game.path.read_bytes()  # (escaped: no reader takes it for a line end)
    saved = read_game(game.path)
    assert saved.players == names and saved.events == [Deal(names[0])]
    [(listed, now)] = list_unfinished(tmp_path)
    assert listed.path == game.path and now.players == tuple(names)
