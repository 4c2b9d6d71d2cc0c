"""The cribbage app at the table: the running count, whose turn, go and 31; saved after every action; resumed; spoken."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from scorer.app.cribbage import CribbageWindow, open_cribbage
from scorer.app.speech import Speaker
from scorer.cribbage import parse_card
from scorer.cribbage.match import CribbageGame, Cut, Deal, Go, PegCard
from scorer.cribbage.store import data_dir, find_unfinished, read_game
from scorer.errors import CardError


def quiet() -> Speaker:
    return Speaker("en", engines=[], espeak=None)  # text only: what would be said is kept in said_texts


def window(qtbot, players=("Ann", "Ben"), lang="en", folder: Path | None = None, **kw) -> CribbageWindow:
    w = CribbageWindow(list(players), lang=lang, speaker=quiet(), folder=folder, **kw)
    qtbot.addWidget(w)
    return w


def dealt(qtbot, folder=None, players=("Ann", "Ben"), starter="5D", lang="en") -> CribbageWindow:
    w = window(qtbot, players, lang, folder)
    assert w.apply(Deal(players[0]))
    w.starter.setText(starter)
    w._cut()
    return w


def test_the_count_and_the_turn_follow_the_cards(qtbot) -> None:
    w = dealt(qtbot)
    assert w.game.phase == "peg" and w.turn_label.text() == "Ben to play"  # left of the dealer leads
    assert w.peg_box.isEnabled() and not w.deal_box.isEnabled() and not w.show_box.isEnabled()
    assert not w.go_button.isEnabled()  # at 0 anyone can play
    assert w.peg_rank(13)  # Ben: K
    assert w.count_label.text() == "10" and w.turn_label.text() == "Ann to play"
    assert w.pegboard.tracks[0].on_turn and not w.pegboard.tracks[1].on_turn
    assert w.peg_rank(5)  # Ann: 5 -> fifteen, 2
    assert w.game.scores == (2, 0) and w.count_label.text() == "15"
    assert "Fifteen: two points" in w.speaker.said_texts[-1]
    assert w.peg_rank(10)  # Ben: 25
    # Past 31 is not offered: 7 and up are greyed, the rest and go are not.
    assert w.rank_buttons[6].isEnabled() and not w.rank_buttons[7].isEnabled()
    assert not w.rank_buttons[13].isEnabled() and w.go_button.isEnabled()
    assert not w.apply(PegCard("Ann", parse_card("KH")))  # refused whole, said why
    assert "past 31" in w.message.text() and w.game.count == 25
    assert not w.apply(PegCard("Ben", parse_card("2H")))  # not Ben's turn
    assert "Ann's turn" in w.message.text()
    assert w.peg_rank(6)  # Ann: 31 -> 2, the count restarts, Ben leads
    assert w.game.scores == (4, 0) and w.game.count == 0 and w.turn_label.text() == "Ben to play"
    assert "Thirty-one: two points" in w.speaker.said_texts[-1]
    assert "The count starts again. Ben to play." in w.speaker.said_texts[-1]
    assert w.series_label.text() == ""


def test_go_passes_the_turn_and_the_last_card_before_it_scores_one(qtbot) -> None:
    w = dealt(qtbot)
    for rank in (13, 12, 9):  # Ben K 10, Ann Q 20, Ben 9 29
        assert w.peg_rank(rank)
    assert w.turn_label.text() == "Ann to play" and w.series_label.text() == "K  Q  9"
    assert w.say_go()  # Ann cannot play: Ben plays on
    assert w.turn_label.text() == "Ben to play" and w.game.count == 29 and w.game.scores == (0, 0)
    assert w.peg_rank(2)  # Ben makes 31: 2 for the 31, no go point
    assert w.game.scores == (0, 2) and w.game.count == 0 and w.turn_label.text() == "Ann to play"
    assert w.peg_rank(10)  # Ann 10
    assert w.peg_rank(10)  # Ben 20 (pair: 2); Ben's fourth card, he has none left
    assert w.game.scores == (0, 4)
    assert w.peg_rank(9)  # Ann 29, and Ann is on turn again: Ben, out of cards, is passed by
    assert w.turn_label.text() == "Ann to play"
    assert not w.apply(Go("Ben"))
    assert w.say_go()  # Ann's last card would pass 31: the go is Ann's own, 1, and she leads again
    assert w.game.scores == (1, 4) and w.game.count == 0 and w.turn_label.text() == "Ann to play"
    assert "One for the go: Ann, one point" in w.speaker.said_texts[-1]
    assert w.peg_rank(3)  # Ann's last card, the last of all: 1
    assert w.game.scores == (2, 4) and w.game.phase == "show"
    assert w.turn_label.text() == "Count Ben's hand" and w.shower.currentText() == "Ben" and not w.crib.isChecked()
    assert w.show_box.isEnabled() and not w.peg_box.isEnabled()


def test_a_go_when_every_other_player_is_out_of_cards_settles_at_once_for_three(qtbot) -> None:
    g = CribbageGame.start(["Ann", "Ben", "Cid"])
    g, _ = g.apply(Deal("Ann"))
    g, _ = g.apply(Cut(parse_card("2D")))
    assert g.players[g.turn] == "Ben"
    with pytest.raises(CardError, match="count is 0: any card Ben holds"):
        g.apply(Go("Ben"))
    g, _ = g.apply(PegCard("Ben", parse_card("KS")))
    g, _ = g.apply(PegCard("Cid", parse_card("QS")))
    g, _ = g.apply(PegCard("Ann", parse_card("5S")))  # 25
    g, _ = g.apply(Go("Ben"))
    assert g.players[g.turn] == "Cid"  # Ben said go; Cid plays on
    with pytest.raises(CardError, match="said go"):
        g.apply(PegCard("Ben", parse_card("AS")))
    g, _ = g.apply(PegCard("Cid", parse_card("4S")))  # 29
    assert g.players[g.turn] == "Ann"
    g, _ = g.apply(Go("Ann"))
    assert g.players[g.turn] == "Cid"
    g, scored = g.apply(Go("Cid"))  # nobody can: Cid played last, 1; Ann (left of Cid) leads
    assert [(s.player, s.points) for s in scored] == [("Cid", 1)]
    assert g.count == 0 and g.players[g.turn] == "Ann" and g.said_go == ()


def test_every_action_is_saved_at_once_and_the_game_resumes(qtbot) -> None:
    w = dealt(qtbot)
    path = w.file.path
    assert path.parent == data_dir() and path.parent.name == "cribbage"
    for rank in (13, 5, 10):
        w.peg_rank(rank)
    lines = path.read_text().splitlines()
    assert json.loads(lines[0])["players"] == ["Ann", "Ben"]
    assert [json.loads(line)["event"]["type"] for line in lines[1:]] == ["deal", "cut", "peg", "peg", "peg"]
    w.undo()  # Ben's 10 taken back, in the file too
    assert json.loads(path.read_text().splitlines()[-1])["undo"] is True
    assert w.game.count == 15 and w.turn_label.text() == "Ben to play"
    w.peg_rank(6)  # Ben 21
    scores, turn, count = w.game.scores, w.game.turn, w.game.count
    w.close()
    # The next start: the game is found and, resumed, is where it was.
    saved = find_unfinished()
    assert saved is not None and saved.path == path
    asked = []
    again = open_cribbage(["Ann", "Ben"], lang="en", ask_resume=lambda s, g: asked.append(g.scores) or True,
                          speaker=quiet())
    qtbot.addWidget(again)
    assert asked == [scores]
    assert (again.game.scores, again.game.turn, again.game.count) == (scores, turn, count)
    assert again.turn_label.text() == "Ann to play" and again.count_label.text() == "21"
    assert again.file.path == path and again.log.count() > 0
    again.undo()  # the history came back too
    assert again.game.count == 15
    again.peg_rank(3)
    assert read_game(path).replay()[0].count == 18


def test_a_game_not_resumed_stays_saved_and_listed(qtbot) -> None:
    from scorer.cribbage.store import list_unfinished

    w = dealt(qtbot)
    w.peg_rank(13)
    first = w.file.path
    assert find_unfinished() is None  # (open in its window: offered nowhere else)
    w.close()  # (the window closed: the game let go)
    fresh = open_cribbage(["Ann", "Ben"], lang="en", ask_resume=lambda s, g: False, speaker=quiet())
    qtbot.addWidget(fresh)
    assert fresh.game.players == ("Ann", "Ben") and fresh.game.scores == (0, 0)
    assert not read_game(first).abandoned and find_unfinished().path == first  # (the new game has nothing yet)
    fresh.apply(Deal("Ann"))
    assert [saved.path for saved, _ in list_unfinished()] == [first]  # (the new game is open in its window)
    fresh.close()
    assert [saved.path for saved, _ in list_unfinished()] == [fresh.file.path, first]


def _deals_to_a_win() -> list:
    """Events of a short game (61) that Ben wins by the show: 29 a deal, three deals."""
    from scorer.cribbage.cards import Card
    from scorer.cribbage.match import Show

    def cards(text):
        return tuple(parse_card(t) for t in text.split())

    game = CribbageGame.start(["Ann", "Ben"], target=61)
    events = []

    def do(event):
        nonlocal game
        game, _ = game.apply(event)
        events.append(event)

    for dealer in ("Ben", "Ann", "Ben"):
        do(Deal(dealer))
        do(Cut(parse_card("5D")))
        for rank in (1, 1, 2, 2, 3, 3, 4, 4):
            if game.is_over:
                return events
            do(PegCard(game.players[game.turn], Card(rank)))
        while not game.is_over and game.next_to_show():
            who = game.next_to_show()
            if who == "crib":
                do(Show(dealer, cards("5H 10S 10C 9H"), crib=True))
            else:
                do(Show(who, cards("AH 2H 3H 4H") if who == "Ben" else cards("AC 2C 3C 4C")))  # (the cards pegged)
        if game.is_over:
            return events
    raise AssertionError("the game did not end")


def test_a_won_game_is_not_offered_and_a_cut_short_last_line_is_skipped(qtbot, tmp_path) -> None:
    from scorer.cribbage.store import GameFile

    events = _deals_to_a_win()
    won = GameFile.create(["Ann", "Ben"], 61, False, "en", tmp_path)
    for e in events:
        won.add(e)
    won.close()
    game, history, done = read_game(won.path).replay()
    assert game.is_over and game.players[game.winner] == "Ben" and len(history) == len(done) == len(events)
    assert find_unfinished(tmp_path) is None  # won: nothing to resume
    unfinished = GameFile.create(["Ann", "Ben"], 61, False, "en", tmp_path)
    for e in events[:-1]:
        unfinished.add(e)
    unfinished.close()
    with open(unfinished.path, "a") as f:
        f.write('{"t": 1, "event": {"type": "peg", "pla')  # the machine died mid-line
    saved = read_game(unfinished.path)
    assert saved.damaged_lines == 1 and saved.events == events[:-1]  # every kind of event read back as written
    assert find_unfinished(tmp_path).path == unfinished.path
    others = open_cribbage(["X", "Y"], lang="en", ask_resume=lambda s, g: False, folder=tmp_path, speaker=quiet())
    qtbot.addWidget(others)
    assert others.game.players == ("X", "Y") and not others.history  # (another table's game is not theirs to resume)
    assert find_unfinished(tmp_path, ["ben", "ANN"]).path == unfinished.path  # (nor put aside by them)
    resumed = open_cribbage(["Ben", "Ann"], lang="en", ask_resume=lambda s, g: True, folder=tmp_path, speaker=quiet())
    qtbot.addWidget(resumed)
    assert resumed.game.players == ("Ann", "Ben") and resumed.game.target == 61
    assert resumed.turn_label.text() == "Count Ben's hand"  # the hand that won, not yet counted


def test_a_game_to_the_end_in_finnish_spoken_and_shown(qtbot) -> None:
    w = dealt(qtbot, lang="fi", starter="JH")
    assert "Jätkä nostona: Ann, kaksi pistettä" in w.speaker.said_texts[-1]
    assert w.turn_label.text() == "Benin vuoro" and w.game.scores == (2, 0)
    w.peg_rank(5)
    w.peg_rank(10)
    assert w.speaker.said_texts[-1] == "Ann, kymppi. Summa viisitoista. Viisitoista: kaksi pistettä."
    assert w.count_caption.text() == "Summa" and w.go_button.text() == "Go"
    w.set_lang("en")
    assert w.turn_label.text() == "Ben to play" and w.count_caption.text() == "Count"
    from scorer.app.settings import Settings

    assert Settings.load().lang == "en"
    w.set_lang("fi")
    assert Settings.load().lang == "fi"


def test_a_hand_pegged_with_its_suits_is_offered_for_its_count_and_enter_twice_counts_it_once(qtbot) -> None:
    w = dealt(qtbot, starter="JS")
    assert w.starter.text() == ""  # (the starter used: a second cut or the next deal starts from an empty field)
    for player, card in [("Ben", "5H"), ("Ann", "10D"), ("Ben", "5C"), ("Ann", "5D"), ("Ben", "6S"), ("Ann", "2D"),
                         ("Ben", "3S"), ("Ann", "AH")]:
        assert w.apply(PegCard(player, parse_card(card)))
    assert w.game.phase == "show" and w.show_cards.text() == "5H 5C 6S 3S"  # (Ben's hand, as he pegged it)
    scores = w.game.scores
    w._show()
    assert w.game.scores[1] > scores[1]
    assert w.show_cards.text() == "10D 5D 2D AH"  # (Ann's next, as she pegged it -- not Ben's again)
    w.show_cards.setText("5H 5C 6S 3S")  # (Ben's cards typed again for Ann: refused)
    scores = w.game.scores
    w._show()
    assert w.game.scores == scores and w.message.text() == "5H was counted already this deal, in Ben's hand."
    w.undo()  # (Ben's count taken back: his hand offered again, not Ann's left in the field)
    assert w.shower.currentText() == "Ben" and w.show_cards.text() == "5H 5C 6S 3S"


def test_with_muggins_a_player_claims_less_and_the_next_takes_what_was_missed(qtbot) -> None:
    w = window(qtbot, muggins=True)
    assert w.claimed.isVisibleTo(w) and w.claimed.text() == "the full count"
    assert w.apply(Deal("Ann"))
    w.starter.setText("JS")
    w._cut()
    for player, card in [("Ben", "5H"), ("Ann", "10D"), ("Ben", "5C"), ("Ann", "5D"), ("Ben", "6S"), ("Ann", "2D"),
                         ("Ben", "3S"), ("Ann", "AH")]:
        assert w.apply(PegCard(player, parse_card(card)))
    before = w.game.scores
    w.claimed.setValue(4)  # (Ben's 5H 5C 6S 3S with JS count 6: he claims 4)
    w._show()
    assert w.game.scores == (before[0] + 2, before[1] + 4)
    assert "Muggins: Ann" in w.message.text() and w.claimed.text() == "the full count"  # (the next count claims all again)
    plain = window(qtbot)
    assert not plain.claimed.isVisibleTo(plain)


def test_an_undone_move_leaves_what_happened_and_a_new_language_says_it_all_again(qtbot) -> None:
    w = dealt(qtbot)
    lines = w.log.count()
    w.peg_rank(13)
    assert w.log.count() > lines
    w.undo()
    assert [w.log.item(i).text() for i in range(w.log.count())][-1] != "  (undone)" and w.log.count() == lines
    w.peg_rank(5)
    english = [w.log.item(i).text() for i in range(w.log.count())]
    w.set_lang("fi")
    finnish = [w.log.item(i).text() for i in range(w.log.count())]
    assert len(finnish) == len(english) and finnish != english
    assert w.message.text() == w.turn_label.text() == "Annin vuoro"  # (the banner's last words said again)
    w.set_lang("en")
