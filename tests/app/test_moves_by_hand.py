"""A match with no camera, entered move by move: the move buttons offer what the match allows now, the status
bar says what to do next as the match goes on, the next round's starter is the one the rules name, and hands
the rules refuse come back as typed."""

from __future__ import annotations

from pathlib import Path

import pytest

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDialog, QMessageBox

from scorer.app import window_corrections
from scorer.app.corrections import HandsDialog, player_menu
from scorer.app.settings import Settings
from scorer.pipeline.announce import genitive_fi
from scorer.app.start import open_window
from scorer.rules import Phase, Reveal
from scorer.rules.log import MatchHeader, MatchSource
from scorer.rules.simulate import simulate_match
from scorer.sessions import Session
from tests.app.test_layout_picture import enter


def _window(qtbot, tmp_path: Path, events=(), game: str = "horse-race", players=("Ann", "Ben")):
    """A window over a match with no camera whose session already holds ``events``."""
    header = MatchHeader(game, tuple(players), len(players) == 4 and game == "seven-rocks", source=MatchSource("hand"))
    session = Session.create(header, tmp_path)
    for event in events:
        session.apply(event)
    window = open_window(session, None, "en", Settings(voice=False))
    qtbot.addWidget(window)
    window.start()
    qtbot.waitUntil(lambda: window.finished, timeout=10_000)
    window.statusBar().clearMessage()  # (a match resumed is told first, for 15 s: what to do next follows it)
    return window


def _resumed(qtbot, tmp_path: Path, events, lang: str):
    """A Horse Race by hand for Ann and Ben holding ``events``, opened (resumed) in ``lang``; what it says is listed."""
    session = Session.create(MatchHeader("horse-race", ("Ann", "Ben"), False, source=MatchSource("hand")), tmp_path)
    for event in events:
        session.apply(event)
    window = open_window(session, None, lang, Settings(voice=False))
    qtbot.addWidget(window)
    said: list[str] = []
    window.speaker.say = said.append
    window.start()
    return window, said


def _offered(window) -> dict[str, bool]:
    buttons = dict(zip(("pass", "draw", "play", "hands"), (b.isEnabled() for b in window.correction_buttons)))
    return {**buttons, "next round": window.round_action.isEnabled()}


def test_the_move_buttons_and_the_status_follow_the_match(qtbot, tmp_path: Path) -> None:
    sim = simulate_match("horse-race", 2, seed=4)
    window = _window(qtbot, tmp_path)
    assert window.banner.text() == "Waiting for the first round"  # (not an empty box before the first announcement)
    assert not window.pause_action.isVisible()  # (nothing to pause with no recording nor camera)
    assert _offered(window) == {"pass": False, "draw": False, "play": True, "hands": False, "next round": True}
    first_round = [e.event for e in sim.events if e.after.round_no == 1]
    enter(qtbot, window, first_round[0])  # (the round started: the boneyard full, the opening tile to come)
    assert window.banner.text() == f"{window.match.next_player}'s turn"  # (the banner follows, till an announcement)
    assert window.match.boneyard > 0
    # (The hands in a round too: hands holding more tiles than the log gives put in a draw left out.)
    assert _offered(window) == {"pass": False, "draw": False, "play": True, "hands": True, "next round": False}
    window._set_lang("fi")  # (the banner that follows the turn follows the language too)
    assert window.banner.text() == f"{genitive_fi(window.match.next_player)} vuoro"
    window._set_lang("en")
    enter(qtbot, window, first_round[1])
    assert _offered(window) == {"pass": False, "draw": True, "play": True, "hands": True, "next round": False}
    for event in first_round[2:-1]:
        enter(qtbot, window, event)
    assert window.match.phase is Phase.ROUND_OVER
    assert window.statusBar().currentMessage() == "Round 1 is over: give the hands left (Round end…)."
    assert _offered(window) == {"pass": False, "draw": False, "play": False, "hands": True, "next round": False}
    enter(qtbot, window, first_round[-1])
    assert window.statusBar().currentMessage().startswith("No camera: enter each move")
    second = sim.events[len(first_round)].after  # (who played out round 1 starts round 2)
    starter = second.players[second.starter]
    assert [a.data() for a in player_menu(window, window.match, "starts").actions()] == [starter]
    window.close()


def test_a_match_over_offers_no_more_moves(qtbot, tmp_path: Path) -> None:
    sim = simulate_match("horse-race", 2, seed=4)
    window = _window(qtbot, tmp_path, [e.event for e in sim.events[:-1]])
    assert window.match.phase is Phase.ROUND_OVER
    assert window.statusBar().currentMessage().startswith("Round ")  # (resumed waiting for the hands: said so)
    assert window.banner.text() == f"Round {window.match.round_no} is over: the hands left to count"
    enter(qtbot, window, sim.events[-1].event)
    assert window.match.is_over and window.statusBar().currentMessage() == "The match is over."
    assert not any(_offered(window).values()) and not window.draw_action.isEnabled() and not window.tile_action.isEnabled()
    window.close()


def test_the_hands_asked_for_in_a_round_in_play_say_when_the_round_ends_there(qtbot, tmp_path: Path) -> None:
    from PySide6.QtWidgets import QLabel

    sim = simulate_match("horse-race", 2, seed=4)
    first_round = [e.event for e in sim.events if e.after.round_no == 1]
    window = _window(qtbot, tmp_path, first_round[:3])  # (mid-round: the boneyard holds tiles)
    texts = [label.text() for label in HandsDialog(window, window.match).findChildren(QLabel)]
    assert any(text.startswith(f"The round is still in play: the boneyard holds {window.match.boneyard} tiles") for text in texts)
    ended = _window(qtbot, tmp_path / "ended", first_round[:-1])  # (the round over: nothing to warn of)
    assert not any("still in play" in label.text() for label in HandsDialog(ended, ended.match).findChildren(QLabel))
    window.close()
    ended.close()


def test_hands_the_rules_refuse_come_back_as_typed(qtbot, tmp_path: Path, monkeypatch) -> None:
    sim = simulate_match("horse-race", 2, seed=4)
    first_round = [e.event for e in sim.events if e.after.round_no == 1]
    window = _window(qtbot, tmp_path, first_round[:3])  # (mid-round: the boneyard holds tiles)
    shown: list[tuple[str, str]] = []
    refused: list[str] = []

    def exec_(dialog) -> QDialog.DialogCode:
        shown.append(tuple(field.text() for _, field in dialog.fields))
        if len(shown) == 1:
            for _, field in dialog.fields:
                field.setText("1 2")
        return QDialog.DialogCode.Accepted if len(shown) < 3 else QDialog.DialogCode.Rejected

    monkeypatch.setattr(HandsDialog, "exec", exec_)
    monkeypatch.setattr(window_corrections.QMessageBox, "warning",
                        lambda _parent, _title, text: refused.append(text) or QMessageBox.StandardButton.Ok)
    window._enter_hands()
    assert shown == [("", ""), ("1 2", "1 2"), ("1 2", "1 2")]  # (typed once, shown again as typed)
    assert refused[0].startswith("Round 1 is not over: the boneyard is not empty")  # (the reason first, not the counts)
    assert isinstance(first_round[-1], Reveal) and len(window.snapshot.steps) == 3
    window.close()


def test_what_to_do_next_comes_back_to_the_status_bar_after_a_passing_message(qtbot, tmp_path: Path) -> None:
    sim = simulate_match("horse-race", 2, seed=4)
    first_round = [e.event for e in sim.events if e.after.round_no == 1]
    window = _window(qtbot, tmp_path, first_round[:-1])  # (waiting for the hands)
    waiting = "Round 1 is over: give the hands left (Round end…)."
    assert window.statusBar().currentMessage() == waiting
    window.statusBar().showMessage("a notice", 50)
    qtbot.waitUntil(lambda: window.statusBar().currentMessage() == waiting, timeout=2000)
    assert "boneyard" not in window.correction_buttons[0].toolTip()  # (no pass between rounds: nothing to say)
    window.undo()  # (the round's last tile withdrawn: a round in play, the boneyard empty or not)
    qtbot.waitUntil(lambda: window.match.phase is Phase.IN_ROUND, timeout=10_000)
    assert window.statusBar().currentMessage().startswith("Undone: ")
    qtbot.waitUntil(lambda: window.statusBar().currentMessage().startswith("No camera: "), timeout=10_000)
    window.close()


def test_a_pass_refused_by_the_boneyard_says_why_on_its_button(qtbot, tmp_path: Path) -> None:
    sim = simulate_match("horse-race", 2, seed=4)
    window = _window(qtbot, tmp_path, [e.event for e in sim.events[:3]])
    assert window.match.phase is Phase.IN_ROUND and window.match.boneyard > 0
    assert window.banner.text() == f"{window.match.next_player}'s turn"  # (a match resumed: who is to act)
    assert not window.correction_buttons[0].isEnabled()
    assert window.correction_buttons[0].toolTip().startswith(f"No pass while the boneyard is not empty ({window.match.boneyard} left)")
    window.close()


def test_a_draw_and_a_knock_are_said(qtbot, tmp_path: Path) -> None:
    from scorer.rules import Draw, Pass

    for game, players, seed, kind, said_as in (("horse-race", ("Ann", "Ben"), 0, Draw, "{player} draws 1"),
                                                ("seven-rocks", ("Ann", "Ben", "Cid", "Dee"), 1, Pass, "{player} knocks")):
        sim = simulate_match(game, len(players), game == "seven-rocks", seed=seed)
        i = next(i for i, e in enumerate(sim.events) if isinstance(e.event, kind))
        window = _window(qtbot, tmp_path / game, [e.event for e in sim.events[:i]], game, players)
        said: list[str] = []
        window.speaker.say = said.append
        enter(qtbot, window, sim.events[i].event)
        assert said == [said_as.format(player=sim.events[i].event.player)]
        window.close()


def _before_a_play_on_an_empty_boneyard(game: str, players: int):
    """A simulated match, and the index of a play made by a player who could pass for it by mistake: the
    boneyard empty (or none), the player holding a tile that can be placed."""
    from scorer.rules import Play

    for seed in range(40):
        sim = simulate_match(game, players, seed=seed)
        for i, e in enumerate(sim.events):
            if i and isinstance(e.event, Play) and sim.events[i - 1].after.boneyard == 0:
                return sim, i
    raise AssertionError("no such play in 40 matches")


def test_a_pass_that_blocks_the_round_is_asked_about_and_a_wrong_one_is_told_how_to_mend(qtbot, tmp_path: Path,
                                                                                         monkeypatch) -> None:
    from scorer.rules import Pass

    sim, i = _before_a_play_on_an_empty_boneyard("horse-race", 2)
    window = _window(qtbot, tmp_path, [e.event for e in sim.events[:i]])
    match = window.match
    player = match.next_player
    other = next(p for p in match.players if p != player)
    said: list[str] = []
    window.speaker.say = said.append
    asked: list[str] = []
    answers = iter([QMessageBox.StandardButton.No, QMessageBox.StandardButton.Yes])
    monkeypatch.setattr(window_corrections.QMessageBox, "question",
                        lambda _parent, _title, text: asked.append(text) or next(answers))
    # The player on turn passes by mistake (the rules cannot know the hands): a plain pass, not asked about.
    assert window._pass_checked(player) == Pass(player)
    window._correct([Pass(player)])
    qtbot.waitUntil(lambda: len(window.snapshot.steps) == i + 1, timeout=10_000)
    assert not asked
    # The next pass would block the round: asked first -- "No" enters nothing, "Yes" the pass.
    assert window._pass_checked(other) is None and len(asked) == 1
    assert asked[0].startswith(f"With this pass nobody can play: round {match.round_no} is blocked")
    window._correct([window._pass_checked(other)])
    qtbot.waitUntil(lambda: window.match.phase is Phase.ROUND_OVER, timeout=10_000)
    # Each pass is said (players who listen hear it was taken), then that the round is over, as the banner says.
    over = f"Round {match.round_no} is blocked: nobody can play. The hands left to count"
    assert window.banner.text() == over and said == [f"{player} passes", f"{other} passes", over]
    window.toggle_table_mode()  # (table mode says it once, as whose turn it is: not twice in other words)
    assert window.table_mode.turn.text() == over and window.table_mode.announcement.text() == ""
    window.toggle_table_mode()
    # The true hands are refused (someone could play), and the way out is told.
    refused: list[str] = []
    monkeypatch.setattr(window_corrections.QMessageBox, "warning",
                        lambda _parent, _title, text: refused.append(text) or QMessageBox.StandardButton.Ok)
    hands = Reveal(tuple(zip(match.players, sim.events[i - 1].hands)))
    assert not window._hands_entered(hands)
    assert "is not blocked" in refused[0] and refused[0].endswith(
        "A pass was entered for a player who could play: Undo takes the passes back, one at a time; then enter the play.")
    window.close()


def test_hands_refused_mid_round_with_no_pass_entered_tell_no_passes_to_undo(qtbot, tmp_path: Path, monkeypatch) -> None:
    """Seven Rocks by hand, the hands typed mid-round with nobody knocked: refused (someone can play), and no
    knock is named to undo -- following such a hint would undo real plays."""
    sim = simulate_match("seven-rocks", 4, partnership=True, seed=2)
    header = MatchHeader("seven-rocks", ("Ann", "Ben", "Cid", "Dee"), True, source=MatchSource("hand"))
    session = Session.create(header, tmp_path)
    i = next(i for i, e in enumerate(sim.events) if i > 3 and e.after.passes_in_a_row == 0 and e.after.phase is Phase.IN_ROUND)
    for e in sim.events[:i + 1]:
        session.apply(e.event)
    window = open_window(session, None, "en", Settings(voice=False))
    qtbot.addWidget(window)
    window.start()
    qtbot.waitUntil(lambda: window.finished, timeout=10_000)
    refused: list[str] = []
    monkeypatch.setattr(window_corrections.QMessageBox, "warning",
                        lambda _parent, _title, text: refused.append(text) or QMessageBox.StandardButton.Ok)
    assert not window._hands_entered(Reveal(tuple(zip(window.match.players, sim.events[i].hands))))
    assert "is not blocked" in refused[0] and "Undo" not in refused[0]
    window.close()


def test_table_mode_says_what_the_banner_says_after_an_undo(qtbot, tmp_path: Path) -> None:
    from scorer.pipeline.announce import announced

    sim = simulate_match("horse-race", 2, seed=1)
    first = [e.event for e in sim.events if e.after.round_no == 1]
    window = _window(qtbot, tmp_path, first[:3])
    said = announced(window.snapshot.steps[-1])
    assert said is not None
    window._announce(said)
    window.toggle_table_mode()
    assert window.table_mode.announcement.text() == window.banner.text()
    window.undo()
    qtbot.waitUntil(lambda: len(window.snapshot.steps) == 2, timeout=10_000)
    assert window.banner.text().startswith("Undone: ")
    assert window.table_mode.announcement.text() == window.banner.text()  # (not the withdrawn move's announcement)
    window.toggle_table_mode()
    window.close()


def test_the_starter_named_at_the_start_is_offered_for_the_first_play_and_a_full_disk_is_told(qtbot, tmp_path: Path,
                                                                                              monkeypatch) -> None:
    import errno

    import scorer.logfile as sessions
    from scorer.app.corrections import TilePicker

    header = MatchHeader("horse-race", ("Ivy", "Jon"), False, source=MatchSource("hand"))
    window = open_window(Session.create(header, tmp_path), "Jon", "en", Settings(voice=False))
    qtbot.addWidget(window)
    window.start()
    qtbot.waitUntil(lambda: window.finished, timeout=10_000)
    assert TilePicker(window, window.match, starter=window.pipeline.config.starter).player.currentText() == "Jon"
    assert TilePicker(window, window.match).player.currentText() == "Ivy"  # (none named: the first seat)
    blocked = simulate_match("horse-race", 2, seed=2, names=("Ivy", "Jon")).events[79].after  # (before round 3)
    assert blocked.next_starter is None and TilePicker(window, blocked, starter="Jon").player.currentText() == "Ivy"
    sim = simulate_match("horse-race", 2, seed=4, names=("Ivy", "Jon"))

    def full(fd, data):
        raise OSError(errno.ENOSPC, "No space left on device")

    said: list[str] = []
    window.speaker.say = said.append
    monkeypatch.setattr(sessions, "_write_out", full)
    window._correct([sim.events[0].event])
    qtbot.waitUntil(lambda: window.not_saved is not None and not window.not_saved.isHidden(), timeout=5_000)
    assert window.not_saved.text() == "NOT SAVED" and window.match.round_no == 0
    told = "The move was not saved and is not in the match: the disk is full. Enter it again once it can be saved."
    assert window.banner.text() == told and said == [told]
    assert window.not_saved.toolTip().endswith(".jsonl: cannot save the move: the disk is full.")
    monkeypatch.undo()
    real_write = sessions._write_out
    writes = []

    def the_second_refused(fd, data):
        writes.append(data)
        if len(writes) == 2:
            raise OSError(errno.ENOSPC, "No space left on device")
        return real_write(fd, data)

    monkeypatch.setattr(sessions, "_write_out", the_second_refused)
    window._correct([e.event for e in sim.events[:2]])  # the round's start saved, its first play not
    qtbot.waitUntil(lambda: len(window.snapshot.steps) == 1, timeout=5_000)
    qtbot.wait(200)
    assert not window.not_saved.isHidden()  # (what was saved of it did not take the mark away)
    monkeypatch.undo()
    window._correct([sim.events[1].event])  # space freed: entered again
    qtbot.waitUntil(lambda: window.not_saved.isHidden(), timeout=5_000)
    assert len(window.snapshot.steps) == 2
    window.close()


def test_a_match_resumed_is_said_as_it_stands(qtbot, tmp_path: Path) -> None:
    sim = simulate_match("horse-race", 2, seed=4)
    window, said = _resumed(qtbot, tmp_path, [step.event for step in sim.events[:5]], "fi")
    after = sim.events[4].after
    scores = f"Ann {after.rules.game_points(after.raw_scores[0])}, Ben {after.rules.game_points(after.raw_scores[1])}"
    assert said == [f"Jatketaan: kierros 1. {scores}. {genitive_fi(after.next_player)} vuoro."]
    qtbot.waitUntil(lambda: window.finished, timeout=10_000)  # (no camera: the worker is done at once)
    qtbot.wait(200)
    assert window.statusBar().currentMessage() == said[0]  # (not put out by what to do next, which follows it)
    window.close()


def test_a_pass_the_hands_prove_wrong_is_shown_and_said(qtbot, tmp_path: Path) -> None:
    from tests.test_irregular_passes import _round_with_a_wrong_pass

    made = _round_with_a_wrong_pass("horse-race", 4, seed=8)
    assert made is not None and made[2]
    steps, passer, still_held = made
    players = steps[0].before.table.players
    window = _window(qtbot, tmp_path, [s.event for s in steps[:-1]], players=players)
    said: list[str] = []
    window.speaker.say = said.append
    assert window._hands_entered(steps[-1].event)
    qtbot.waitUntil(lambda: window.match.phase is not Phase.ROUND_OVER, timeout=10_000)
    qtbot.waitUntil(lambda: any("could be placed" in s for s in said), timeout=10_000)
    told = next(s for s in said if "could be placed" in s)
    assert told.startswith(f"{passer} passed holding ") and told[len(passer) + 16:len(passer) + 21] in map(str, still_held)
    assert told.endswith("a player who can place a tile must -- the scores stand as the moves were played")
    assert said.index(told) > next(i for i, s in enumerate(said) if s.startswith("End of the round"))
    # Shown too, and not put out at once by what to do next (the round's end changes it as the notice comes).
    qtbot.wait(300)
    assert window.statusBar().currentMessage() == told
    window.statusBar().clearMessage()  # (as when its 8 s are over: what to do next comes back)
    assert window.statusBar().currentMessage().startswith("No camera: enter each move")
    window.close()


def test_a_new_match_is_said_as_it_starts(qtbot, tmp_path: Path) -> None:
    header = MatchHeader("seven-rocks", ("Ann", "Ben", "Cid", "Dee"), True, source=MatchSource("hand"))
    window = open_window(Session.create(header, tmp_path), None, "en", Settings(voice=False))
    qtbot.addWidget(window)
    said: list[str] = []
    window.speaker.say = said.append
    window.start()
    assert said == ["New match: Seven Rocks, Ann & Cid, Ben & Dee. Waiting for the first round."]
    window.close()


def test_a_draw_put_in_later_and_a_pass_proved_on_guessed_hands_are_not_said(qtbot, tmp_path: Path) -> None:
    from scorer.pipeline.events import MoveEvent, told
    from scorer.pipeline.notices import HandsTaken
    from scorer.rules import Draw, Tile
    from scorer.rules.irregular import ActedWhileAble

    sim = simulate_match("horse-race", 2, seed=0)
    i = next(i for i, e in enumerate(sim.events) if isinstance(e.event, Draw))
    window = _window(qtbot, tmp_path, [e.event for e in sim.events[:i + 1]])
    said: list[str] = []
    window.speaker.say = said.append
    draw = window.snapshot.steps[-1]
    window._on_events([MoveEvent(1.0, draw, None, rewritten=True)])  # (a round written again: told by its notice)
    assert said == []
    window._on_events([MoveEvent(1.0, draw, None)])
    assert said == [f"{draw.event.player} draws 1"]
    wrong = ActedWhileAble("Ann", 5, Tile(0, 2))
    hands = Reveal((("Ann", ()), ("Ben", ())))
    window._on_events([told(2.0, HandsTaken(hands)), told(2.0, wrong)])  # (the hands a guess: shown, not said)
    assert said == [f"{draw.event.player} draws 1"] and window.statusBar().currentMessage().startswith("Ann passed holding")
    window._on_events([told(3.0, wrong)])
    assert said[-1].startswith("Ann passed holding")
    window.close()


def test_a_move_redone_is_said_as_redone_not_as_a_move_just_made(qtbot, tmp_path: Path) -> None:
    """The players listening hear "Redone: ..." -- a draw or a score brought back is not counted twice."""
    from scorer.rules import Draw, Play

    sim = simulate_match("horse-race", 2, seed=0)
    i = next(i for i, e in enumerate(sim.events) if isinstance(e.event, Draw))
    j = next(j for j, e in enumerate(sim.events) if j > i and isinstance(e.event, Play) and e.after.round_no == 1)
    window = _window(qtbot, tmp_path, [e.event for e in sim.events[:j + 1]])
    said: list[str] = []
    window.speaker.say = said.append
    for _ in range(j - i + 1):  # back to before the draw, the play after it first
        count = len(window.snapshot.steps)
        window.undo()
        qtbot.waitUntil(lambda: len(window.snapshot.steps) == count - 1, timeout=10_000)
    said.clear()
    window.redo()
    qtbot.waitUntil(lambda: len(window.snapshot.steps) == i + 1, timeout=10_000)
    draw = sim.events[i].event
    assert said == [f"Redone: {draw.player} draws {draw.count}" if draw.count > 1 else f"Redone: {draw.player} draws 1"]
    window.redo()
    qtbot.waitUntil(lambda: len(window.snapshot.steps) == i + 2, timeout=10_000)
    assert len(said) == 2 and said[1].startswith("Redone: ")
    # Two redos pressed at once (the window's snapshot behind the worker): both said as redone.
    for _ in range(2):
        count = len(window.snapshot.steps)
        window.undo()
        qtbot.waitUntil(lambda: len(window.snapshot.steps) == count - 1, timeout=10_000)
    said.clear()
    window.redo()
    window.redo()
    qtbot.waitUntil(lambda: len(window.snapshot.steps) == i + 2, timeout=10_000)
    assert len(said) == 2 and all(text.startswith("Redone: ") for text in said), said
    window.close()


@pytest.mark.parametrize("where", ["before the first round", "in a round", "round over", "between rounds"])
def test_a_match_resumed_is_said_as_its_round_stands(qtbot, tmp_path: Path, where: str) -> None:
    """Mid-round the round is named; its end waiting for the hands, so; between rounds the one last counted ("after
    round 1"), not as if under way."""
    from scorer.rules import Reveal

    sim = simulate_match("horse-race", 2, seed=0)
    end = next(i for i, e in enumerate(sim.events) if isinstance(e.event, Reveal))
    upto = {"before the first round": 0, "in a round": 3, "round over": end, "between rounds": end + 1}[where]
    window, said = _resumed(qtbot, tmp_path, [e.event for e in sim.events[:upto]], "en")
    expected = {"before the first round": "New match: ", "in a round": "Resumed: round 1. ",
                "round over": "Resumed: round 1 is over. ", "between rounds": "Resumed after round 1. "}[where]
    assert len(said) == 1 and said[0].startswith(expected), said
    window.close()


def test_the_move_list_keeps_to_the_latest_move_after_a_language_switch_and_table_mode(qtbot, tmp_path: Path) -> None:
    """Texts in another language wrap to other heights, and moves added while table mode hides the list are laid
    out late: the list sat above the latest moves (a newcomer)."""
    from PySide6.QtWidgets import QApplication

    sim = simulate_match("seven-rocks", 4, True, seed=2)
    window = _window(qtbot, tmp_path, [e.event for e in sim.events[:40]], game="seven-rocks",
                     players=sim.header.players)
    window.show()
    window.follow_latest_move()  # (as start() does, the window shown first)
    bar = window.log.verticalScrollBar()

    def at_the_latest() -> bool:
        QApplication.processEvents()
        return bar.maximum() > 0 and bar.value() == bar.maximum()

    qtbot.waitUntil(at_the_latest, timeout=5_000)
    window.lang_box.setCurrentIndex(window.lang_box.findData("fi"))
    qtbot.waitUntil(at_the_latest, timeout=5_000)
    window.toggle_table_mode()
    bar.setValue(0)  # (as moves laid out while hidden leave it)
    window.toggle_table_mode()
    qtbot.waitUntil(at_the_latest, timeout=5_000)
    window.lang_box.setCurrentIndex(window.lang_box.findData("en"))
    window.close()


def test_a_place_a_message_names_in_pixels_is_ringed_on_the_picture(qtbot, tmp_path: Path) -> None:
    """"The tile at (602, 399) is [3|4], as corrected": nobody finds a pixel by eye (a Finnish trial) -- the places
    a message names are ringed on the picture for a while."""
    from scorer.pipeline import Notice
    from scorer.words import Listed, Words, at, places

    told = Words("the tile at {place} is {tile}, as corrected; {more}", place=at((602.4, 399)), tile="[3|4]",
                 more=Listed([Words("one at {place}", place=at((10, 20))), "no place"]))
    assert places(told) == [(602.4, 399.0), (10.0, 20.0)] and places("plain text") == []
    window = _window(qtbot, tmp_path)
    window._on_events([Notice(1.0, told)])
    assert window.live.marked == [(602.4, 399.0), (10.0, 20.0)] and window.live._unmark.isActive()
    window.live._unmark.timeout.emit()
    assert window.live.marked == []
    window.close()


def test_an_evening_of_moves_by_hand_leaves_no_dialog_behind(qtbot, tmp_path: Path, monkeypatch) -> None:
    # Each move's picker, player menu and hands dialog was kept as a child of the window: hundreds by the end of an
    # evening, every one of them retranslated at a language switch.
    from PySide6.QtCore import QCoreApplication, QEvent
    from PySide6.QtWidgets import QMenu

    from scorer.app.corrections import TilePicker

    sim = simulate_match("horse-race", 2, seed=4)
    window = _window(qtbot, tmp_path)
    moves = iter(e.event for e in sim.events if not isinstance(e.event, Reveal))

    def picked(picker) -> QDialog.DialogCode:
        picker.events = [next(moves)]
        return QDialog.DialogCode.Accepted

    monkeypatch.setattr(TilePicker, "exec", picked)
    def unchosen(*args) -> QMenu:  # (a pass or a draw not chosen after all)
        menu = player_menu(*args)
        menu.exec = lambda _at: None
        return menu

    monkeypatch.setattr(window_corrections, "player_menu", unchosen)
    for _ in range(12):
        count = len(window.snapshot.steps)
        window._enter_move()
        qtbot.waitUntil(lambda: len(window.snapshot.steps) == count + 1, timeout=10_000)
        window._for_player("draws", lambda p: None)
    QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
    assert window.findChildren(TilePicker) == [] and window.findChildren(QMenu, options=Qt.FindChildOption.FindDirectChildrenOnly) == []
    window.close()


def test_the_status_bar_message_is_its_tooltip_too(qtbot, tmp_path: Path) -> None:
    """A long message, cut at the window's edge, is read whole under the pointer."""
    window = _window(qtbot, tmp_path)
    long = "the order taken for the new tiles does not let [2|4] be played as seen: another order is taken " * 3
    window.statusBar().showMessage(long, 8000)
    assert window.statusBar().toolTip() == long
    window.close()


def test_table_mode_gives_a_maximised_window_back_maximised(qtbot, tmp_path: Path) -> None:
    """Full screen forgets that the window was maximised: on a laptop it came back taller than the screen."""
    window = _window(qtbot, tmp_path)
    window.showMaximized()
    window.toggle_table_mode()
    assert window.isFullScreen()
    window.toggle_table_mode()
    assert window.isMaximized() and not window.isFullScreen()
    window.close()
