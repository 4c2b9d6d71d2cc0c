"""A cribbage game from deal to skunk, counted by the game."""

from __future__ import annotations

from dataclasses import replace

import pytest

from scorer.cribbage import parse_card
from scorer.cribbage.match import CribbageGame, Cut, Deal, Go, PegCard, Show
from scorer.errors import CardError, TableError


def c(text: str):
    return parse_card(text)


def cards(text: str):
    return tuple(parse_card(t) for t in text.split())


def test_a_deal_pegging_and_show() -> None:
    g = CribbageGame.start(["Ann", "Ben"])
    g, _ = g.apply(Deal("Ann"))
    g, scored = g.apply(Cut(c("JS")))
    assert scored[0].points == 2 and g.scores == (2, 0)  # his heels for the dealer
    # Ben (left of the dealer) leads.
    plays = [("Ben", "5H"), ("Ann", "10D"), ("Ben", "5C"), ("Ann", "5D"), ("Ben", "6S")]
    for player, card in plays:
        g, scored = g.apply(PegCard(player, c(card)))
    # 5 (5), 10 -> 15 for Ann: 2; 5 -> 20; 5 -> 25 pair for Ann: 2; 6 -> 31 for Ben: 2
    assert g.scores == (2 + 2 + 2, 2)
    g, _ = g.apply(PegCard("Ann", c("2D")))
    g, _ = g.apply(PegCard("Ben", c("3S")))
    g, scored = g.apply(PegCard("Ann", c("AH")))  # the last card: 1
    assert scored[-1].items[0].kind == "last card"
    with pytest.raises(CardError, match="expected Ben's count"):
        g.apply(Show("Ann", cards("10D 5D 2D AH")))
    g, s1 = g.apply(Show("Ben", cards("5H 5C 6S 3S")))
    g, s2 = g.apply(Show("Ann", cards("10D 5D 2D AH")))
    g, s3 = g.apply(Show("Ann", cards("4C 7C 8H 9D"), crib=True))
    assert s1[0].points > 0 and s3[0].note == "crib"


def test_the_first_to_121_wins_and_skunks_count_double() -> None:
    g = CribbageGame.start(["Ann", "Ben"])
    g, _ = g.apply(Deal("Ben"))
    g = replace(g, scores=(119, 80))
    g, _ = g.apply(Cut(c("2H")))
    g, scored = g.apply(PegCard("Ann", c("5S")))
    g, scored = g.apply(PegCard("Ben", c("JD")))  # 15 for Ben: 82
    g, scored = g.apply(PegCard("Ann", c("5H")))  # 20
    g, scored = g.apply(PegCard("Ben", c("6C")))  # 26
    g, scored = g.apply(PegCard("Ann", c("5C")))  # 31: Ann +2 -> 121
    assert g.is_over and g.players[g.winner] == "Ann" and g.skunk == 2 and g.games_won == (2, 0)
    with pytest.raises(CardError, match="game is over"):
        g.apply(Go())
    g2, _ = g.apply(Deal("Ann"))
    assert g2.scores == (0, 0) and g2.games_won == (2, 0)


def test_double_skunk_and_the_short_game() -> None:
    g = CribbageGame.start(["Ann", "Ben"])
    g, _ = g.apply(Deal("Ben"))
    g = replace(g, scores=(120, 40))
    g, _ = g.apply(Cut(c("JH")))  # Ben's heels: 42
    g, _ = g.apply(PegCard("Ann", c("10S")))
    g, _ = g.apply(PegCard("Ben", c("5S")))  # Ben 15: 44
    g, _ = g.apply(PegCard("Ann", c("AD")))
    g, scored = g.apply(Go())  # Ann last card: 121
    assert g.is_over and g.skunk == 3
    short = CribbageGame.start(["A", "B", "C"], target=61)
    assert short.skunk_lines() == (31, 0)


def test_muggins_takes_missed_points() -> None:
    g = CribbageGame.start(["Ann", "Ben"], muggins=True)
    g, _ = g.apply(Deal("Ann"))
    g, _ = g.apply(Cut(c("5D")))
    g, scored = g.apply(Show("Ben", cards("5H 5C 5S JD"), claimed=20))
    assert g.scores == (9, 20)
    assert scored[1].note.startswith("muggins")


def test_bad_games() -> None:
    with pytest.raises(TableError):
        CribbageGame.start(["Ann"])
    with pytest.raises(TableError):
        CribbageGame.start(["Ann", "Ben"], target=100)
    g, _ = CribbageGame.start(["Ann", "Ben"]).apply(Deal("Ann"))
    with pytest.raises(CardError, match="cut the starter"):
        g.apply(PegCard("Ben", c("5H")))
    g, _ = g.apply(Cut(c("5D")))
    with pytest.raises(CardError, match="is the starter"):
        g.apply(PegCard("Ben", c("5D")))
    g, _ = g.apply(PegCard("Ben", c("KH")))
    g, _ = g.apply(PegCard("Ann", c("QH")))
    g, _ = g.apply(PegCard("Ben", c("9H")))
    with pytest.raises(CardError, match="past 31"):
        g.apply(PegCard("Ann", c("3H")))


def test_a_hand_counted_is_the_hand_pegged_and_no_card_is_counted_twice() -> None:
    g = CribbageGame.start(["Ann", "Ben"])
    g, _ = g.apply(Deal("Ann"))
    g, _ = g.apply(Cut(c("JS")))
    # Ben pegs one card by its rank alone (the suit not said), the rest with their suits.
    plays = [("Ben", "5H"), ("Ann", "10D"), ("Ben", "5"), ("Ann", "5D"), ("Ben", "6S"), ("Ann", "2D"), ("Ben", "3S"), ("Ann", "AH")]
    for player, card in plays:
        g, _ = g.apply(PegCard(player, parse_card(card, suit_required=False)))
    with pytest.raises(CardError, match="10D was pegged by Ann: it is not in Ben's hand"):
        g.apply(Show("Ben", cards("5H 5C 6S 10D")))
    with pytest.raises(CardError, match="Ben pegged 3S this deal: the hand counted must hold it"):
        g.apply(Show("Ben", cards("5H 5C 6S 4S")))
    with pytest.raises(CardError, match="Ben pegged 5 this deal"):
        g.apply(Show("Ben", cards("5H 6S 3S 4S")))  # (the 5 pegged by its rank is not there)
    g, _ = g.apply(Show("Ben", cards("5H 5C 6S 3S")))  # (any five matches the one pegged by rank)
    with pytest.raises(CardError, match="5C was counted already this deal, in Ben's hand"):
        g.apply(Show("Ann", cards("10D 5D 2D 5C")))
    g, _ = g.apply(Show("Ann", cards("10D 5D 2D AH")))
    with pytest.raises(CardError, match="AH was counted already this deal, in Ann's hand"):
        g.apply(Show("Ann", cards("4C 7C 8H AH"), crib=True))
    with pytest.raises(CardError, match="5H was counted already this deal, in Ben's hand"):
        g.apply(Show("Ann", cards("4C 7C 8H 5H"), crib=True))
    g, scored = g.apply(Show("Ann", cards("4C 7C 8H 9D"), crib=True))
    assert scored[0].note == "crib"
    g, _ = g.apply(Deal("Ben"))  # (a new deal: every card may be counted again)
    g, _ = g.apply(Cut(c("2C")))
    g, _ = g.apply(Show("Ann", cards("5H 5C 6S 3S")))  # (the show without pegging: nothing pegged to hold)


def test_a_game_saved_before_a_hand_had_to_be_the_hand_pegged_is_read_back_all_the_same(tmp_path) -> None:
    from scorer.cribbage.store import GameFile, read_game

    g = CribbageGame.start(["Ann", "Ben"])
    events = [Deal("Ann"), Cut(c("JS"))]
    events += [PegCard(p, c(card)) for p, card in [("Ben", "5H"), ("Ann", "10D"), ("Ben", "5C"), ("Ann", "5D"), ("Ben", "6S"),
                                                     ("Ann", "2D"), ("Ben", "3S"), ("Ann", "AH")]]
    typo = Show("Ben", cards("5H 5C 6S 4S"))  # (3S pegged, 4S typed: refused now, saved so before)
    for e in events:
        g, _ = g.apply(e)
    with pytest.raises(CardError, match="the hand counted must hold it"):
        g.apply(typo)
    saved = GameFile.create(["Ann", "Ben"], 121, False, "en", tmp_path)
    for e in [*events, typo]:
        saved.add(e)
    game, history, done = read_game(saved.path).replay()
    assert len(done) == len(events) + 1 and game.next_to_show() == "Ann"


def test_go_is_refused_while_any_card_would_keep_the_count_at_31_or_under() -> None:
    g = CribbageGame.start(["Ann", "Ben"])
    g, _ = g.apply(Deal("Ann"))
    g, _ = g.apply(Cut(c("2H")))
    g, _ = g.apply(PegCard("Ben", c("5S")))
    with pytest.raises(CardError, match="count is 5: any card Ann holds keeps it at 31 or under"):
        g.apply(Go("Ann"))  # a slip next to the king: no point for Ben
    g, _ = g.apply(PegCard("Ann", c("6S")))
    g, _ = g.apply(PegCard("Ben", c("KS")))  # 21: even a ten makes 31
    with pytest.raises(CardError, match="count is 21"):
        g.apply(Go("Ann"))
    g, _ = g.apply(PegCard("Ann", c("AS")))  # 22: a ten would pass 31
    g, scored = g.apply(Go("Ben"))
    assert scored == [] and g.players[g.turn] == "Ann"


def test_the_starter_typed_into_a_hand_is_named_as_the_starter() -> None:
    g = CribbageGame.start(["Ann", "Ben"])
    g, _ = g.apply(Deal("Ann"))
    g, _ = g.apply(Cut(c("3D")))
    for player, card in [("Ben", "5H"), ("Ann", "10D"), ("Ben", "5C"), ("Ann", "5D"), ("Ben", "6S"), ("Ann", "2D"),
                         ("Ben", "3S"), ("Ann", "AH")]:
        g, _ = g.apply(PegCard(player, c(card)))
    with pytest.raises(CardError, match="3D is the starter: it counts with every hand"):
        g.apply(Show("Ben", cards("5H 5C 6S 3D")))


def test_a_go_saved_before_the_rule_reads_back(tmp_path) -> None:
    from scorer.cribbage.store import GameFile, find_unfinished

    saved = GameFile.create(["Ann", "Ben"], 121, False, folder=tmp_path)
    for event in (Deal("Ann"), Cut(c("2H")), PegCard("Ben", c("5S")), Go("Ann")):  # (a go at 5, taken before)
        saved.add(event)
    saved.close()  # (held while its window has it: not offered elsewhere)
    game, _, _ = find_unfinished(tmp_path).replay()
    assert game.said_go == (0,) and game.players[game.turn] == "Ben"
