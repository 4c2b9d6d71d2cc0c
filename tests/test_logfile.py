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


def test_a_file_shortened_in_place_is_written_again_not_padded(tmp_path: Path) -> None:
    session, events = match_of(tmp_path, 6)
    ours = session.path.read_bytes()
    with open(session.path, "r+b") as f:  # (an editor writing its own shorter version into the same file)
        f.truncate(0)
        f.write(ours[:len(ours) // 2])
    session.apply(events[6], 7.0)
    data = session.path.read_bytes()
    assert b"\0" not in data and [s.event for s in read_session(session.path).log.steps] == events[:7]
    assert session.path.with_name(session.path.name + ".replaced").read_bytes() == ours[:len(ours) // 2]
    assert ["another program replaced the file" in n for n in session.take_notes()] == [True]
    session.close()


def test_a_file_another_window_holds_now_is_not_overwritten(tmp_path: Path) -> None:
    first, events = match_of(tmp_path, 5)
    copy = first.path.with_name("copy.tmp")
    copy.write_bytes(first.path.read_bytes())
    os.replace(copy, first.path)  # (a sync tool's copy) -- and another window opens the match from it
    second, _ = Session.open(first.path)
    second.apply(events[5], 6.0)
    with pytest.raises(SessionError, match="another window or process writes this file now"):
        first.apply(events[5], 6.0)
    assert [s.event for s in read_session(first.path).log.steps] == events[:6]  # (the other window's, untouched)
    conflict = first.path.with_name(first.path.name + ".conflict")
    assert [s.event for s in read_session(conflict).log.steps] == events[:5]  # (this window's copy, kept)
    with pytest.raises(SessionError, match="another window or process writes this file now"):
        first.apply(events[5], 6.0)  # (and it writes no more)
    second.apply(events[6], 7.0)
    first.close(), second.close()
    assert len(list(tmp_path.iterdir())) == 2


def test_a_copy_moved_over_it_is_taken_as_it_is(tmp_path: Path) -> None:
    session, events = match_of(tmp_path, 4)
    copy = session.path.with_name("copy.tmp")
    copy.write_bytes(session.path.read_bytes())
    os.replace(copy, session.path)
    session.apply(events[4], 5.0)
    assert [s.event for s in read_session(session.path).log.steps] == events[:5]
    assert session.take_notes() == [] and len(list(tmp_path.iterdir())) == 1
    with pytest.raises(SessionError, match="open in another window or process"):
        Session.open(session.path)  # (the copy is held now)
    session.close()


def test_a_cribbage_game_resumed_is_read_as_held_not_as_offered(tmp_path: Path) -> None:
    game = GameFile.create(["Eve", "Fay"], 121, False, folder=tmp_path)
    for event in (Deal("Eve"), Cut(parse_card("JD"))):
        game.add(event)
    game.close()
    [(offered, _)] = list_unfinished(tmp_path)  # (offered in one window; meanwhile another plays on and closes)
    other = GameFile(offered.path)
    other.add(PegCard("Fay", parse_card("5", suit_required=False)))
    other.close()
    again = GameFile(offered.path)
    assert len(again.saved().events) == 3 and len(offered.events) == 2
    again.close()


def test_a_cribbage_line_cut_inside_a_letter_is_a_torn_line(tmp_path: Path) -> None:
    game = GameFile.create(["Äijä", "Öljy"], 61, False, folder=tmp_path)
    game.add(Deal("Äijä"))
    game.close()
    whole = game.path.read_bytes()
    torn = '{"t": 1, "event": {"type": "go", "player": "Öljy"}}\n'.encode()
    game.path.write_bytes(whole + torn[:torn.index("Ö".encode()) + 1])  # (the crash cut the Ö in two)
    [(saved, _)] = list_unfinished(tmp_path)
    assert saved.damaged_lines == 1 and saved.events == [Deal("Äijä")]
    held = GameFile(game.path)  # (cut off and kept beside it, before the next line)
    held.add(Cut(parse_card("5D")))
    held.close()
    assert read_game(game.path).events == [Deal("Äijä"), Cut(parse_card("5D"))]
    assert game.path.with_name(game.path.name + ".damaged").exists()


def test_a_read_only_copy_moved_over_it_is_kept_aside_and_the_match_written_again(tmp_path: Path) -> None:
    session, events = match_of(tmp_path, 5)
    theirs = b"".join(session.path.read_bytes().splitlines(keepends=True)[:2])
    copy = session.path.with_name("copy.tmp")
    copy.write_bytes(theirs)
    copy.chmod(0o444)  # (a sync tool's copy, kept read-only)
    os.replace(copy, session.path)
    session.apply(events[5], 6.0)
    assert [s.event for s in read_session(session.path).log.steps] == events[:6]
    assert session.path.with_name(session.path.name + ".replaced").read_bytes() == theirs
    session.close()


def test_a_rewrite_in_place_of_the_same_size_is_seen(tmp_path: Path) -> None:
    import time

    session, events = match_of(tmp_path, 5)
    ours = session.path.read_bytes()
    theirs = ours.replace(b'"Ann"', b'"Abe"', 1)
    assert len(theirs) == len(ours) and theirs != ours
    time.sleep(0.01)
    with open(session.path, "r+b") as f:  # (an editor saving into the same file, same length)
        f.write(theirs)
    session.apply(events[5], 6.0)
    assert session.path.read_bytes().startswith(ours) and [s.event for s in read_session(session.path).log.steps] == events[:6]
    assert session.path.with_name(session.path.name + ".replaced").read_bytes() == theirs
    session.close()


def test_the_text_given_to_the_club_is_the_match_this_window_holds(tmp_path: Path) -> None:
    session, _ = match_of(tmp_path, 5)
    held = session.path.read_text(encoding="utf-8")
    session.path.write_text(held.splitlines(keepends=True)[0], encoding="utf-8")  # (an older copy written over it)
    assert session.text() == held
    session.close()
