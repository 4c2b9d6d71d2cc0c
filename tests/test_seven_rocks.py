"""Seven Rocks: knocks, per-hand deductions, the 250 win, and its table."""

from __future__ import annotations

from dataclasses import replace

import pytest

from scorer.errors import IllegalMove, TableError
from scorer.rules import Draw, Match, Pass, Phase, Reveal, RoundStart, SevenRocks
from tests.conftest import play, t

FOUR = ["Ann", "Ben", "Cid", "Dee"]


def test_every_placement_ends_the_turn(sr4: Match) -> None:
    m, out = play(sr4, "Ann", (5, 5))  # 10 raw
    assert out.raw_points == 10 and not out.continues and m.next_player == "Ben"
    m, out = play(m, "Ben", (0, 5), (5, 5))  # 10 + 0 = 10
    assert out.raw_points == 10 and m.next_player == "Cid"
    m, out = play(m, "Cid", (2, 5), (5, 5))  # 0 + 2
    assert out.raw_points == 0
    m, out = play(m, "Dee", (3, 5), (5, 5))  # branch opens: 0 + 2 + 3
    assert out.raw_points == 5
    assert m.scores() == {"Ann": 10, "Ben": 15, "Cid": 10, "Dee": 15}


def test_no_drawing_and_knocks(sr4: Match) -> None:
    m, _ = play(sr4, "Ann", (0, 1))
    with pytest.raises(IllegalMove, match="no boneyard"):
        m.apply(Draw("Ben"))
    m, _ = m.apply(Pass("Ben"))
    assert m.next_player == "Cid"


def test_two_hands_of_3_subtract_10() -> None:
    m, _ = Match.start(SevenRocks(), FOUR, True).apply(RoundStart("Ann"))
    hands = {"Ann": [], "Ben": [t(0, 3)], "Cid": [], "Dee": [t(1, 2)]}
    m = replace(m, phase=Phase.ROUND_OVER, turn=None, finisher=0, hand_counts=(0, 1, 0, 1), raw_scores=(40, 40))
    m, out = m.apply(Reveal(tuple((p, tuple(h)) for p, h in hands.items())))
    assert out.hand_totals == (0, 5, 0, 5)
    assert out.raw_changes == (0, -10)
    assert m.scores() == {"Ann": 40, "Ben": 30, "Cid": 40, "Dee": 30}
    assert m.next_starter == 0


def test_scores_may_go_below_zero() -> None:
    m, _ = Match.start(SevenRocks(), FOUR, True).apply(RoundStart("Ann"))
    m = replace(m, phase=Phase.ROUND_OVER, turn=None, finisher=0, hand_counts=(0, 2, 2, 1))
    m, out = m.apply(Reveal((("Ann", ()), ("Ben", (t(6, 6), t(5, 6))), ("Cid", (t(4, 6), t(3, 6))), ("Dee", (t(0, 2),)))))
    # Ben 23 -> 25, Dee 2 -> 0; Cid 19 -> 20
    assert out.hand_totals == (0, 25, 20, 0)
    assert m.scores() == {"Ann": -20, "Ben": -25, "Cid": -20, "Dee": -25}


def test_reaching_250_on_a_placement_wins_at_once(sr4: Match) -> None:
    m = replace(sr4, raw_scores=(240, 245))
    m, out = play(m, "Ann", (4, 6))  # 10: 250
    assert m.is_over and m.winners() == ("Ann", "Cid")
    assert m.scores() == {"Ann": 250, "Ben": 245, "Cid": 250, "Dee": 245}


def test_four_knocks_block_the_round(sr4: Match) -> None:
    m, _ = play(sr4, "Ann", (0, 0))
    for p in ["Ben", "Cid", "Dee"]:
        m, _ = m.apply(Pass(p))
    assert m.phase is Phase.IN_ROUND
    m, _ = m.apply(Pass("Ann"))
    assert m.phase is Phase.ROUND_OVER


def test_reveal_must_hold_every_unplayed_tile(sr4: Match) -> None:
    m, _ = play(sr4, "Ann", (0, 0))
    with pytest.raises(IllegalMove, match="is on the board"):
        m.apply(Reveal((("Ann", (t(0, 0),) * 6), ("Ben", ()), ("Cid", ()), ("Dee", ()))))
    with pytest.raises(IllegalMove, match="no hand for Dee"):
        m.apply(Reveal((("Ann", ()), ("Ben", ()), ("Cid", ()))))


@pytest.mark.parametrize("players, partnership, why", [
    (FOUR, False, "in two partnerships, not each player on their own"),
    (FOUR[:3], True, "exactly 4 players in two partnerships, found 3"),
    (FOUR[:2], False, "exactly 4 players in two partnerships, found 2"),
])
def test_wrong_tables(players: list[str], partnership: bool, why: str) -> None:
    with pytest.raises(TableError, match=why):
        Match.start(SevenRocks(), players, partnership)
