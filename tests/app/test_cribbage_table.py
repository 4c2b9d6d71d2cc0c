"""The cribbage window as players at a table meet it: a go that cannot be is refused (and the button greyed),
what is refused is said aloud, the voice's test speaks cribbage, a show's items are told as counted, the next
game asks who deals, and the status line stays."""

from __future__ import annotations

from scorer.app.cribbage import CribbageWindow
from scorer.app.speech import Speaker
from scorer.cribbage import parse_card
from scorer.cribbage.match import Deal, Go, PegCard


def window(qtbot, muggins: bool = False, lang: str = "en") -> CribbageWindow:
    w = CribbageWindow(["Ann", "Ben"], muggins=muggins, lang=lang, speaker=Speaker(lang, engines=[], espeak=None))
    qtbot.addWidget(w)
    return w


def dealt(qtbot, starter: str = "2H", **kw) -> CribbageWindow:
    w = window(qtbot, **kw)
    assert w.apply(Deal("Ann"))
    w.starter.setText(starter)
    w._cut()
    return w


def test_go_is_greyed_and_refused_aloud_while_every_card_fits(qtbot) -> None:
    w = dealt(qtbot)
    assert w.dealer.currentText() == "Ann" and not w.dealer.isEnabled()  # (mid-deal: who deals, greyed)
    assert w.peg_rank(5)  # Ben 5
    assert not w.go_button.isEnabled()
    assert not w.apply(Go("Ann")) and w.game.scores == (0, 0)
    assert w.message.text() == "The count is 5: any card Ann holds keeps it at 31 or under, so Ann plays and cannot say go."
    assert w.speaker.said_texts[-1] == ("Not taken: The count is five: any card Ann holds keeps it at thirty-one or "
                                        "under, so Ann plays and cannot say go.")
    for rank in (13, 6):  # Ann 15 (2), Ben 21
        assert w.peg_rank(rank)
    assert not w.go_button.isEnabled()
    assert w.peg_rank(1)  # Ann 22: a ten would pass 31
    assert w.go_button.isEnabled() and w.say_go()


def test_a_refusal_names_its_cards_aloud_in_words(qtbot) -> None:
    w = dealt(qtbot, starter="JS", lang="fi")
    w.peg_card.setText("JS")
    w._peg_typed()
    assert w.message.text() == "JS on nostokortti: se ei ole kenenkään kädessä."
    assert w.speaker.said_texts[-1] == "Ei hyväksytty: patajätkä on nostokortti: se ei ole kenenkään kädessä."


def test_the_voice_test_speaks_a_cribbage_line_in_the_window_s_language(qtbot) -> None:
    w = window(qtbot)
    w.test_voice()
    assert w.speaker.said_texts[-1] == "This is the scorer's voice. Ann, five of hearts. Count fifteen. Fifteen: two points."
    w.set_lang("fi")
    w.test_voice()
    assert "herttavitonen" in w.speaker.said_texts[-1]


def peg_out(w: CribbageWindow) -> None:
    """Ben holds 5H 5C 5S JD, Ann 10D JH KD QC."""
    for event in [PegCard("Ben", parse_card("5H")), PegCard("Ann", parse_card("10D")), PegCard("Ben", parse_card("5C")),
                  PegCard("Ann", parse_card("JH")), Go("Ben"), Go("Ann"), PegCard("Ben", parse_card("5S")),
                  PegCard("Ann", parse_card("KD")), PegCard("Ben", parse_card("JD")), Go("Ann"),
                  PegCard("Ann", parse_card("QC"))]:
        assert w.apply(event), (event, w.message.text())


def test_a_29_hand_is_told_as_counted_and_muggins_shows_the_count_and_the_claim(qtbot) -> None:
    w = dealt(qtbot, starter="5D", muggins=True)
    peg_out(w)
    assert w.shower.currentText() == "Ben" and not w.shower.isEnabled() and not w.crib.isEnabled()
    w.claimed.setValue(26)
    w._show()  # Ben's 5H 5C 5S JD with 5D: 29, claims 26
    assert w.message.text().startswith("Ben's hand: 26. (fifteen ×8 16, four of a kind 12, nobs 1: 29, claimed +26) "
                                       "Muggins: Ann +3.")


def test_the_next_game_asks_who_deals_and_the_status_line_outlasts_a_message(qtbot) -> None:
    w = dealt(qtbot, starter="5D")
    line = w.status_line.text()
    assert line.startswith("Voice: ") and "saved to " in line
    w.statusBar().showMessage("a passing message", 100)
    w.mute.setChecked(True)
    assert w.status_line.text() == line and w.status_line.isVisibleTo(w)
    w.game = w.game.__class__(**{**{f: getattr(w.game, f) for f in w.game.__dataclass_fields__}, "scores": (0, 119)})
    peg_out(w)  # Ben's go: 120
    assert not w.game.is_over
    w._show()  # Ben's 29 hand
    assert w.game.is_over
    assert w.message.text().endswith("Who deals the next game? Cut for it: the lowest cut deals.")
    assert w.deal_box.isEnabled()


def test_an_undo_says_what_stands_after_it(qtbot) -> None:
    w = dealt(qtbot)
    assert w.peg_rank(5) and w.peg_rank(10)  # Ben 5, Ann 15: Ann 2
    w.undo()
    assert w.message.text() == "Undone. Ann to play, count 5." and w.game.scores == (0, 0)
    assert w.speaker.said_texts[-1] == "Undone. Ann to play, count five."
    w.set_lang("fi")
    w.undo()
    assert w.message.text() == "Kumottu. Benin vuoro, summa 0."


def test_an_action_the_disk_refuses_is_not_done_and_the_game_resumes_whole(qtbot, tmp_path, monkeypatch) -> None:
    import errno

    from scorer.cribbage.store import GameFile, find_unfinished

    w = CribbageWindow(["Ann", "Ben"], lang="en", speaker=Speaker("en", engines=[], espeak=None), folder=tmp_path)
    qtbot.addWidget(w)
    w.show()
    qtbot.waitExposed(w)
    line = w.status_line.text()
    w.statusBar().showMessage("a passing message", 5000)
    assert w.status_line.isVisible() and w.status_line.text() == line  # (not hidden by a passing message)

    def full(self, entry) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(GameFile, "_append", full)
    assert not w.apply(Deal("Ann"))
    assert w.game.dealer is None and w.message.text() == (
        "Not saved, so not done: No space left on device. Do it again once it can be saved.")
    assert w.speaker.said_texts[-1] == "Not saved, so not done: No space left on device. Do it again once it can be saved."
    assert w.status_line.text().endswith("NOT SAVED: No space left on device")
    monkeypatch.undo()
    assert w.apply(Deal("Ann"))  # room again: done, and the status says saved once more
    w.starter.setText("5D")
    w._cut()
    assert w.peg_rank(5) and "saved to " in w.status_line.text()
    w.close()
    game, _, _ = find_unfinished(tmp_path).replay()
    assert game.dealer == 0 and game.count == 5  # (the file is the game: nothing missing before a line)


def test_a_torn_line_is_cut_before_the_next_and_a_game_the_full_disk_could_not_make_is_made_later(
        qtbot, tmp_path, monkeypatch) -> None:
    import errno
    import os

    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QApplication, QMessageBox

    from scorer.cribbage import store
    from scorer.cribbage.store import find_unfinished, read_game

    w = CribbageWindow(["Ann", "Ben"], lang="en", speaker=Speaker("en", engines=[], espeak=None), folder=tmp_path)
    qtbot.addWidget(w)
    assert w.apply(Deal("Ann"))
    with w.file.path.open("ab") as f:
        f.write(b'{"t": 1796597348.024, "event": {"type": "cu')  # (a crash in the middle of a line)
    w.starter.setText("5D")
    w._cut()
    real_write = os.write
    calls = []

    def half_then_full(fd, data):
        calls.append(1)
        if len(calls) == 1:
            return real_write(fd, bytes(data[: len(data) // 2]))
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(store.os, "write", half_then_full)
    assert not w.peg_rank(5) and w.game.count == 0  # (refused: half a line was written, and cut off again)
    monkeypatch.undo()
    assert w.peg_rank(5) and w.peg_rank(10)
    saved = read_game(w.file.path)
    assert saved.damaged_lines == 0 and [type(e).__name__ for e in saved.events] == ["Deal", "Cut", "PegCard", "PegCard"]
    assert w.file.path.with_name(w.file.path.name + ".damaged").read_bytes().startswith(b'{"t": 1796597348.024')
    w.close()
    assert find_unfinished(tmp_path).replay()[0].scores == (2, 0)

    def no_room(*args, **kw):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(store.os, "open", no_room)
    full = CribbageWindow(["Cy", "Di"], lang="en", speaker=Speaker("en", engines=[], espeak=None), folder=tmp_path / "x")
    qtbot.addWidget(full)
    assert full.file is None and not full.apply(Deal("Cy")) and full.game.dealer is None  # (nothing done unsaved)
    monkeypatch.undo()
    assert full.apply(Deal("Cy")) and read_game(full.file.path).events == [Deal("Cy")]  # (made once there is room)

    asked = []

    def answer() -> None:
        box = QApplication.activeModalWidget()
        asked.append(box.text())
        box.button(QMessageBox.StandardButton.No).click()

    QTimer.singleShot(0, answer)
    w.new_action.trigger()  # (the tool bar's New match asks first)
    assert asked and asked[0].startswith("Put this match aside") and w.game.scores == (2, 0)
