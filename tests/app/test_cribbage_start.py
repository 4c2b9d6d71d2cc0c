"""Cribbage from the start screen: its own players, a game to 121 or 61, muggins; an unfinished game shown on
the start screen's button and resumed from the list, newest first."""

from __future__ import annotations

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication

from scorer.app.cribbage_start import CribbageStartDialog
from scorer.app.settings import Settings
from scorer.app.start import CribbageChoice, StartDialog, _open_cribbage
from scorer.cribbage import parse_card
from scorer.cribbage.match import Cut, Deal, PegCard
from scorer.cribbage.store import GameFile


def start_screen(qtbot, players: str) -> StartDialog:
    dialog = StartDialog(Settings(players=players), cameras=[], sessions=[])
    qtbot.addWidget(dialog)
    return dialog


def answered(qtbot, dialog: StartDialog, answer) -> None:
    """Clicks Cribbage… and, in the modal dialog it opens, does ``answer`` (the dialog closed whatever happens)."""
    seen = []

    def in_dialog() -> None:
        crib = QApplication.activeModalWidget()
        try:
            assert isinstance(crib, CribbageStartDialog)
            seen.append(crib)
            answer(crib)
        finally:
            if crib is not None and crib.isVisible():
                crib.reject()

    QTimer.singleShot(0, in_dialog)
    dialog.cribbage_button.click()
    assert seen, "no cribbage dialog opened"


def test_cribbage_asks_its_players_the_game_s_length_and_muggins(qtbot) -> None:
    dialog = start_screen(qtbot, "Ann, Ben, Cid, Dee, Eve")  # (five: the domino form's names are not taken)
    assert dialog.cribbage_button.text() == "Cribbage…"

    def answer(crib: CribbageStartDialog) -> None:
        assert crib.players.text() == "" and not crib.resume_group.isVisibleTo(crib)
        crib.players.setText("Ann")
        crib.start_button.click()
        assert crib.isVisible() and crib.problem.text() == "Cribbage is played here by 2, 3 or 4 players, found 1."
        crib.players.setText("Ann, Ben, Cid")
        crib.length.setCurrentIndex(crib.length.findData(61))
        crib.muggins.setChecked(True)
        crib.start_button.click()

    answered(qtbot, dialog, answer)
    assert dialog.choice == CribbageChoice(("Ann", "Ben", "Cid"), 61, True) and dialog.result() == 1


def test_an_unfinished_game_is_counted_on_the_button_and_resumed_from_the_list(qtbot) -> None:
    older = GameFile.create(["Ann", "Ben"], 121, False)
    for event in (Deal("Ann"), Cut(parse_card("5D")), PegCard("Ben", parse_card("10H")), PegCard("Ann", parse_card("5C"))):
        older.add(event)  # Ann 15 for 2
    newer = GameFile.create(["Cid", "Dee"], 61, True)
    newer.add(Deal("Dee"))
    older.close(), newer.close()  # (their windows closed: a game open in one is offered nowhere else)
    dialog = start_screen(qtbot, "Ann, Ben")
    assert dialog.cribbage_button.text() == "Cribbage… (2 unfinished)"

    def answer(crib: CribbageStartDialog) -> None:
        assert crib.players.text() == "Cid, Dee" and crib.resume_group.isVisibleTo(crib)  # (the last table's game)
        assert crib.length.currentData() == 61 and crib.muggins.isChecked()
        listed = [crib.saved_games.itemText(i) for i in range(crib.saved_games.count())]
        assert listed[0].startswith("Cid, Dee, to 61: Cid 0, Dee 0 (last saved ")
        assert listed[1].startswith("Ann, Ben, to 121: Ann 2, Ben 0 (last saved ")
        crib.saved_games.setCurrentIndex(1)
        crib.resume_button.click()

    answered(qtbot, dialog, answer)
    assert dialog.choice == CribbageChoice(("Ann", "Ben"), 121, False, saved=older.path)
    window = _open_cribbage(dialog.choice, "en")
    qtbot.addWidget(window)
    assert window.game.scores == (2, 0) and window.file.path == older.path
    # Said as it stands: the table may have got up since.
    qtbot.waitUntil(lambda: bool(window.speaker.said_texts), timeout=5000)
    assert window.speaker.said_texts == ["Resumed: Ann two, Ben zero. Count fifteen. Ben to play."]
    assert window.dealer.currentText() == "Ann"  # (mid-deal the box shows who deals, not who deals next)
    assert window.turn_label.text() == "Ben to play"


def test_the_start_screen_action_closes_the_game_saved_and_listed_for_the_start_screen(qtbot) -> None:
    window = _open_cribbage(CribbageChoice(("Ann", "Ben"), 121, False), "fi")
    qtbot.addWidget(window)
    window.show()
    assert window.apply(Deal("Ann"))
    assert window.start_screen_action.text() == "Aloitusnäyttö"
    window.start_screen_action.trigger()
    # The app's loop (scorer.app.start.run_app) opens the start screen again for "start"; closing quits.
    assert window.next_action == "start" and not window.isVisible()
    assert start_screen(qtbot, "Ann, Ben").cribbage_button.text() == "Cribbage… (1 unfinished)"


def test_the_app_goes_back_to_the_start_screen_from_cribbage_and_quits_from_it(qtbot, monkeypatch) -> None:
    from scorer.app import start

    opened: list = []

    def start_screen(lang, settings):  # the first time Cribbage… is chosen; the second time, Quit
        if opened:
            opened.append(None)
            return None
        window = _open_cribbage(CribbageChoice(("Ann", "Ben"), 121, False), lang)
        QTimer.singleShot(200, window.start_screen_action.trigger)
        opened.append(window)
        return window

    monkeypatch.setattr(start, "_start_screen", start_screen)
    assert start.run_app(lang="en") == 0
    assert len(opened) == 2 and opened[0].next_action == "start"
