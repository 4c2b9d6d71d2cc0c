"""Cribbage counts: the well-known hands, pegging from the rule text, property tests."""

from __future__ import annotations

import io

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorer.cli import main
from scorer.cribbage import Card, PegSequence, count_show, parse_card
from scorer.errors import CardError


def cards(text: str) -> list[Card]:
    return [parse_card(t) for t in text.split()]


@pytest.mark.parametrize(
    "hand, starter, crib, total",
    [
        ("5H 5C 5S JD", "5D", False, 29),  # the perfect hand: 8 fifteens, 6 pairs, nobs
        ("5H 5C 5S 5D", "JH", False, 28),  # 8 fifteens, 6 pairs
        ("4H 4S 5C 5D", "6H", False, 24),  # 4 fifteens (8) + four runs of three (12) + two pairs (4)
        ("4H 4S 5C 6D", "10H", False, 14),  # the rule text's 4, 4, 5, 6 with a 10 up: 3 fifteens + double run
        ("7H 8S 9C 10D", "10H", False, 12),  # double run of four (8) + pair (2) + 7+8 (2)
        ("2C 3C 4D 4S", "4H", False, 17),  # triple run (9) + pair royal (6) + 3+4+4+4 (2)
        ("2H 4H 6H 8H", "KS", False, 4),  # hand flush without the starter; all even: no fifteen
        ("2H 4H 6H 8H", "KS", True, 0),  # no crib flush without the starter's suit
        ("2H 4H 6H 8H", "KH", True, 5),  # five of a suit
        ("JH 2C 4S 6D", "9H", False, 5),  # 6+9 and 2+4+9 (4) + nobs (1)
        ("AS 3D 7C QH", "9S", False, 0),  # nothing at all
    ],
)
def test_well_known_hands(hand: str, starter: str, crib: bool, total: int) -> None:
    count = count_show(cards(hand), parse_card(starter), crib=crib)
    assert count.total == total, count.explain()


def test_breakdowns_say_what_scored() -> None:
    count = count_show(cards("5H 5C 5S JD"), parse_card("5D"))
    kinds = [i.kind for i in count.items]
    assert kinds.count("fifteen") == 8 and kinds.count("pair") == 6 and kinds.count("nobs") == 1
    run = count_show(cards("4H 4S 5C 5D"), parse_card("6H"))
    assert [i.points for i in run.items if i.kind == "run"] == [3, 3, 3, 3]


def test_crib_flush_needs_all_five() -> None:
    hand, starter = cards("2H 4H 6H 8H"), parse_card("KS")
    assert [i.points for i in count_show(hand, starter).items if i.kind == "flush"] == [4]
    assert [i.points for i in count_show(hand, starter, crib=True).items if i.kind == "flush"] == []
    assert [i.points for i in count_show(hand, parse_card("KH"), crib=True).items if i.kind == "flush"] == [5]


def test_nobs_is_the_jack_of_the_starters_suit() -> None:
    assert [i.kind for i in count_show(cards("JH AC 3S 7D"), parse_card("9H")).items] == ["nobs"]
    assert count_show(cards("JH AC 3S 7D"), parse_card("9S")).total == 0


def test_bad_hands() -> None:
    with pytest.raises(CardError, match="4 cards"):
        count_show(cards("5H 5C 5S JD 2C 3C"), parse_card("5D"))
    with pytest.raises(CardError, match="twice"):
        count_show(cards("5H 5C 5S 5H"), parse_card("5D"))
    for bad in ["5X", "1H", "ZZ", "", "11C"]:
        with pytest.raises(CardError):
            parse_card(bad)


def peg(ranks: str) -> list[int]:
    seq = PegSequence()
    return [seq.add(parse_card(r, suit_required=False)).points for r in ranks.split()]


def test_pegging_runs_in_any_order() -> None:
    assert peg("3 5 4") == [0, 0, 3]
    # 5-6-4 is also fifteen (2) besides the run (3); the 3 completes a run of five.
    assert peg("5 6 4 2 3") == [0, 0, 5, 0, 5]
    seq = PegSequence()
    runs = []
    for r in "5 6 4 2 3".split():
        play = seq.add(parse_card(r, suit_required=False))
        runs.append(sum(i.points for i in play.items if i.kind == "run"))
    assert runs == [0, 0, 3, 0, 5]


def test_pegging_pairs_fifteen_thirty_one_and_go() -> None:
    assert peg("6 6 6 6") == [0, 2, 6, 12]
    assert peg("Q 5") == [0, 2]
    assert peg("10 J Q A") == [0, 0, 3, 2]  # 10-J-Q run 3; 31 for 2
    seq = PegSequence()
    for r in "K Q 9".split():
        seq.add(parse_card(r, suit_required=False))
    go = seq.add(None)
    assert go.kind == "go" and go.points == 1 and seq.state.count == 0
    with pytest.raises(CardError, match="past 31"):
        seq2 = PegSequence()
        for r in "K Q 9 5".split():
            seq2.add(parse_card(r, suit_required=False))


def test_cli_explains_the_29() -> None:
    out, err = io.StringIO(), io.StringIO()
    assert main(["cribbage", "show", "5H", "5C", "5S", "JD", "--starter", "5D"], out=out, err=err) == 0
    assert out.getvalue().rstrip().endswith("total                         29")
    out = io.StringIO()
    assert main(["cribbage", "peg", "5", "6", "4", "2", "3"], out=out, err=err) == 0
    assert "run 5" in out.getvalue() and out.getvalue().rstrip().endswith("total 10 (each line's points go to whoever played that card)")
    err = io.StringIO()
    assert main(["cribbage", "show", "5H", "5C", "5S", "JD", "2C", "3C", "--starter", "5D"], out=io.StringIO(), err=err) == 2
    assert "4 cards" in err.getvalue()


DECK = [Card(r, s) for r in range(1, 14) for s in "SHDC"]


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(DECK), min_size=5, max_size=5, unique=True), st.booleans())
def test_a_hand_never_scores_more_than_29_nor_19_25_26_27(five: list[Card], crib: bool) -> None:
    total = count_show(five[:4], five[4], crib=crib).total
    assert 0 <= total <= 29
    assert total not in (19, 25, 26, 27)


def test_a_card_may_be_written_with_its_suits_symbol() -> None:
    assert [str(parse_card(t)) for t in ("5♥", "10♣", "J♢", "q♠", "AH", "5♥\ufe0f")] == ["5H", "10C", "JD", "QS", "AH", "5H"]
