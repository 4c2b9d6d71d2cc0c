"""Cribbage kept in the app, from the deal to a skunk."""

from __future__ import annotations

from dataclasses import replace

from scorer.app.cribbage import CribbageWindow
from scorer.app.speech import Speaker
from scorer.cribbage import parse_card
from scorer.cribbage.match import Cut, Deal, PegCard


def test_a_game_from_deal_to_skunk(qtbot) -> None:
    window = CribbageWindow(["Ann", "Ben"], speaker=Speaker("en", engines=[], espeak=None))
    qtbot.addWidget(window)
    window.dealer.setCurrentText("Ann")
    assert window.apply(Deal("Ann"))
    window.starter.setText("5D")
    window._with_cards(lambda: Cut(parse_card(window.starter.text())))
    window.shower.setCurrentText("Ben")
    window.show_cards.setText("5H 5C 5S JD")
    window._show()  # 29 for Ben
    assert window.game.scores == (0, 29)
    assert [t.label for t in window.pegboard.tracks] == ["0", "29"]
    window.show_cards.setText("X1 2C")
    window._show()
    assert "rank" in window.message.text() or "suit" in window.message.text()
    # Near the end: Ben pegs out while Ann is below 91.
    window.game = replace(window.game, scores=(80, 119))
    assert window.apply(Deal("Ben")) is False  # the deal is not finished: Ann and the crib are not shown
    window.game = replace(window.game, shown=("Ben", "Ann", "crib"))
    assert window.apply(Deal("Ben"))
    assert window.apply(Cut(parse_card("2H")))
    assert window.apply(PegCard("Ann", parse_card("5S")))
    assert window.apply(PegCard("Ben", parse_card("10H")))  # fifteen: 121
    assert window.game.is_over and "skunk" in window.message.text()
    assert window.pegboard.tracks[1].games_won == 2
    window.undo()
    assert not window.game.is_over
    assert window.file is not None and window.file.path.exists()  # saved as it went
    assert any("fifteen" in said.lower() for said in window.speaker.said_texts)  # and said aloud
