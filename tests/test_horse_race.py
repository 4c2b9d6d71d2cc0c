"""Horse Race turn flow, round credits and match end, hand-computed from the rule texts."""

from __future__ import annotations

from dataclasses import replace

import pytest

from scorer.errors import IllegalMove, TableError
from scorer.rules import FULL_SET, Draw, HorseRace, Match, Pass, Phase, Reveal, RoundStart, Side
from tests.conftest import play, t

HR = HorseRace()
FOUR = ["Ann", "Ben", "Cid", "Dee"]


def reveal(**hands: list[tuple[int, int]]) -> Reveal:
    return Reveal(tuple((name, tuple(t(*x) for x in tiles)) for name, tiles in hands.items()))


def round_over(players: list[str], finisher: str | None, counts: tuple[int, ...], *, partnership: bool = False,
               raw_scores: tuple[int, ...] | None = None, board: tuple[int, int] = (3, 3)) -> Match:
    """A state at the end of round 1 with the given hand sizes, one tile on the board, an empty boneyard."""
    m, _ = Match.start(HR, players, partnership).apply(RoundStart(players[0]))
    m = replace(m, board=m.current_board().place(t(*board)))
    seat = None if finisher is None else players.index(finisher)
    m = replace(m, phase=Phase.ROUND_OVER, turn=None, finisher=seat, hand_counts=counts, boneyard=0)
    return m if raw_scores is None else replace(m, raw_scores=raw_scores)


def test_a_scoring_tile_and_a_double_continue_the_turn(hr2: Match) -> None:
    m, out = play(hr2, "Ann", (1, 4))  # 5: scores, continues
    assert out.raw_points == 5 and out.continues and m.next_player == "Ann"
    m, out = play(m, "Ann", (1, 1), (1, 4))  # a double, no score (6): continues
    assert out.raw_points == 0 and out.continues and m.next_player == "Ann"
    m, out = play(m, "Ann", (2, 4), (1, 4))  # ends 2 + 2 = 4: a plain tile ends the turn
    assert out.sum == 4 and not out.continues and m.next_player == "Ben"
    assert m.scores() == {"Ann": 1, "Ben": 0}


def test_a_drawn_tile_always_ends_the_turn(hr2: Match) -> None:
    m, _ = play(hr2, "Ann", (2, 3))  # 5, Ann continues
    m, _ = play(m, "Ann", (3, 6), (2, 3))  # 3 + 6 = 9, ends
    m, _ = m.apply(Draw("Ben", 2))
    assert m.boneyard == 12 and m.hand_counts == (5, 9) and m.next_player == "Ben"
    m, out = play(m, "Ben", (1, 6), (3, 6))  # 3 + 1 = 4
    assert not out.continues and m.next_player == "Ann"
    m, _ = m.apply(Draw("Ann"))
    m, out = play(m, "Ann", (2, 2), (2, 3))  # a drawn double that scores 4 + 1 = 5 still ends the turn
    assert out.raw_points == 5 and not out.continues and m.next_player == "Ben"
    m, _ = m.apply(Draw("Ben"))
    m, out = play(m, "Ben", (2, 6), (2, 2), source="drawn")  # 6 + 1 = 7
    assert not out.continues and m.next_player == "Ann"


def test_draw_and_pass_obligations(hr2: Match) -> None:
    with pytest.raises(IllegalMove, match="opens with any tile"):
        hr2.apply(Draw("Ann"))
    m, _ = play(hr2, "Ann", (0, 1))
    with pytest.raises(IllegalMove, match=r"may not pass while the boneyard is not empty \(14 left\)"):
        m.apply(Pass("Ben"))
    with pytest.raises(IllegalMove, match="draws 15 but the boneyard holds 14"):
        m.apply(Draw("Ben", 15))
    with pytest.raises(IllegalMove, match="it is Ben's turn, not Ann's"):
        m.apply(Draw("Ann"))
    with pytest.raises(IllegalMove, match="has not drawn"):
        play(m, "Ben", (1, 2), (0, 1), source="drawn")
    m, _ = m.apply(Draw("Ben", 14))
    with pytest.raises(IllegalMove, match="has just drawn"):
        play(m, "Ben", (1, 2), (0, 1), source="hand")
    m, _ = m.apply(Pass("Ben"))  # boneyard empty and nothing to place: pass
    assert m.next_player == "Ann" and m.phase is Phase.IN_ROUND
    m, _ = m.apply(Pass("Ann"))
    assert m.phase is Phase.ROUND_OVER and m.next_player is None


def test_blocked_round_must_be_proved_by_the_hands(hr2: Match) -> None:
    m, _ = play(hr2, "Ann", (0, 0))  # a double: Ann continues
    m, _ = play(m, "Ann", (0, 1), (0, 0))  # 0 + 1 = 1: ends
    m, _ = m.apply(Draw("Ben", 14))
    m, _ = m.apply(Pass("Ben"))
    m, _ = m.apply(Pass("Ann"))
    # Ann holds [0|2], which fits the free 0: the passes were wrong.
    rest = [(x.a, x.b) for x in FULL_SET if x not in (t(0, 0), t(0, 1), t(0, 2))]
    with pytest.raises(IllegalMove, match="not blocked: Ann holds \\[0\\|2\\]"):
        m.apply(reveal(Ann=[(0, 2)] + rest[:4], Ben=rest[4:]))


def test_play_errors_leave_the_state_unchanged(hr2: Match) -> None:
    m, _ = play(hr2, "Ann", (1, 4))
    before = m
    bad_moves = [
        ("Ann", (1, 4), (1, 4), "already on the board"),
        ("Ann", (2, 3), (1, 4), "does not match"),
        ("Ann", (2, 3), None, "fits no free point"),
        ("Ann", (1, 2), (5, 5), "not on the board"),
        ("Ben", (1, 2), (1, 4), "Ann's turn"),
    ]
    for player, tile, at, message in bad_moves:
        with pytest.raises(IllegalMove, match=message):
            play(m, player, tile, at)
        assert m == before


def test_ambiguous_play_needs_at(hr2: Match) -> None:
    m, _ = play(hr2, "Ann", (1, 3))  # 4: ends the turn
    m, _ = play(m, "Ben", (3, 4), (1, 3))  # 1 + 4 = 5: Ben continues
    m, _ = play(m, "Ben", (1, 4), (1, 3))  # free: [1|4] high 4 and [3|4] high 4
    with pytest.raises(IllegalMove, match="fits more than one tile"):
        play(m, "Ann", (4, 6))
    m2, out = play(m, "Ann", (4, 6), (3, 4))
    assert out.at is not None and out.at.tile == t(3, 4) and out.sum == 4 + 6


def test_branch_side_rules_in_the_log(hr2: Match) -> None:
    m, _ = play(hr2, "Ann", (3, 3))
    with pytest.raises(IllegalMove, match="both line sides must be filled"):
        play(m, "Ann", (3, 5), (3, 3), side=Side.BRANCH_A)
    m, _ = play(m, "Ann", (3, 5), (3, 3))  # 6 + 5 = 11: ends the turn
    m, _ = play(m, "Ben", (3, 6), (3, 3))  # 5 + 6 = 11
    assert {p.side for p in m.board.free_points() if p.tile == t(3, 3)} == {Side.BRANCH_A, Side.BRANCH_B}
    m, out = play(m, "Ann", (3, 4), (3, 3), side=Side.BRANCH_B)
    assert out.sum == 5 + 6 + 4


def test_round_credit_alone_17_gives_3() -> None:
    m = round_over(["Ann", "Ben", "Cid"], "Ann", (0, 1, 1))
    m, out = m.apply(reveal(Ann=[], Ben=[(6, 6)], Cid=[(2, 3)]))  # 12 + 5 = 17 -> 15 -> 3
    assert out.raw_changes == (15, 0, 0) and out.hand_totals == (0, 10, 5)
    assert m.scores() == {"Ann": 3, "Ben": 0, "Cid": 0}
    assert m.next_starter == 0 and m.phase is Phase.BEFORE_ROUND


def test_partnership_credit_leaves_out_the_partner() -> None:
    m = round_over(FOUR, "Ann", (0, 1, 1, 1), partnership=True)
    # own pair (Cid) 7, opponents 9 + 8 = 17 -> 15 -> 3
    m, out = m.apply(reveal(Ann=[], Ben=[(3, 6)], Cid=[(1, 6)], Dee=[(2, 6)]))
    assert out.hand_pips == (0, 9, 7, 8)
    assert m.scores() == {"Ann": 3, "Ben": 0, "Cid": 3, "Dee": 0}


def test_blocked_partnership_compares_pair_totals() -> None:
    m = round_over(FOUR, None, (1, 1, 2, 1), partnership=True, board=(3, 3))
    # pairs 1 + 17 = 18 and 5 + 6 = 11: the second pair wins 18 -> 20 -> 4
    m, out = m.apply(reveal(Ann=[(0, 1)], Ben=[(1, 4)], Cid=[(5, 6), (2, 4)], Dee=[(0, 6)]))
    assert out.blocked and out.winning_sides == (1,)
    assert m.scores() == {"Ann": 0, "Ben": 4, "Cid": 0, "Dee": 4}
    assert m.next_starter is None  # drawn by lot again


def test_blocked_tie_alone_each_gets_full_credit() -> None:
    m = round_over(FOUR, None, (1, 1, 1, 2), board=(5, 5))
    m, out = m.apply(reveal(Ann=[(0, 4)], Ben=[(1, 3)], Cid=[(2, 2)], Dee=[(6, 6), (0, 2)]))
    assert out.hand_pips == (4, 4, 4, 14)
    assert m.scores() == {"Ann": 4, "Ben": 4, "Cid": 4, "Dee": 0}


def test_blocked_tie_in_partnership_each_pair_gets_the_other_once() -> None:
    m = round_over(FOUR, None, (1, 1, 1, 2), partnership=True, board=(3, 3))
    m, out = m.apply(reveal(Ann=[(2, 4)], Ben=[(1, 5)], Cid=[(0, 6)], Dee=[(0, 2), (0, 4)]))
    assert m.scores() == {"Ann": 2, "Ben": 2, "Cid": 2, "Dee": 2}


def test_two_59s_share_the_win_at_61() -> None:
    m = round_over(FOUR, None, (1, 1, 1, 2), partnership=True, raw_scores=(295, 295), board=(3, 3))
    m, _ = m.apply(reveal(Ann=[(2, 4)], Ben=[(1, 5)], Cid=[(0, 6)], Dee=[(0, 2), (0, 4)]))
    assert m.is_over and set(m.winners()) == set(FOUR)
    assert m.scores() == {p: 61 for p in FOUR}


def test_round_credit_winner_at_61_alone_ends_the_match() -> None:
    m = round_over(["Ann", "Ben"], "Ben", (3, 0), raw_scores=(300, 290))
    m, _ = m.apply(reveal(Ann=[(6, 6), (5, 6), (4, 6)], Ben=[]))  # 33 -> 35 -> 7: Ben 58 + 7 = 65
    assert m.is_over and m.winners() == ("Ben",) and m.scores() == {"Ann": 60, "Ben": 65}


def test_60_plus_2_wins_at_once_before_anything_else(hr2: Match) -> None:
    m = replace(hr2, raw_scores=(300, 0))
    m, out = play(m, "Ann", (4, 6))  # 10 raw = 2 points: 62
    assert out.raw_points == 10 and m.is_over and m.winners() == ("Ann",)
    assert m.scores() == {"Ann": 62, "Ben": 0}
    with pytest.raises(IllegalMove, match="the match is over"):
        play(m, "Ann", (6, 6), (4, 6))


def test_the_last_tile_ends_the_round_before_continuing(hr2: Match) -> None:
    m = replace(hr2, hand_counts=(1, 7))
    m, out = play(m, "Ann", (5, 5))
    assert not out.continues and m.phase is Phase.ROUND_OVER and m.next_player is None
    with pytest.raises(IllegalMove, match="expected a reveal"):
        m.apply(RoundStart())
    with pytest.raises(IllegalMove, match="reveal shows 1"):
        m.apply(reveal(Ann=[], Ben=[(0, 0)]))


def test_the_round_winner_starts_the_next_round() -> None:
    m = round_over(["Ann", "Ben", "Cid"], "Ben", (1, 0, 1))
    m, _ = m.apply(reveal(Ann=[(0, 1)], Ben=[], Cid=[(0, 2)]))
    with pytest.raises(IllegalMove, match="Ben played the last tile of round 1 and starts round 2, not Cid"):
        m.apply(RoundStart("Cid"))
    m2, _ = m.apply(RoundStart())
    assert m2.next_player == "Ben" and m2.round_no == 2 and m2.hand_counts == (6, 6, 6) and m2.boneyard == 10
    m3, _ = play(m, "Ben", (1, 4))  # the round may begin implicitly with the fixed starter's play
    assert m3.round_no == 2 and m3.scores()["Ben"] == 1 + 1 and m3.next_player == "Ben"


@pytest.mark.parametrize("players, partnership", [(["Ann"], False), (["A", "B", "C"], True), (list("ABCDE"), False)])
def test_wrong_tables(players: list[str], partnership: bool) -> None:
    with pytest.raises(TableError):
        Match.start(HR, players, partnership)


def test_starter_is_required_when_drawn_by_lot() -> None:
    with pytest.raises(IllegalMove, match="drawn by lot"):
        Match.start(HR, ["Ann", "Ben"]).apply(RoundStart())


def test_between_rounds_the_next_to_act_is_the_starter_the_rules_name() -> None:
    """Shown marked on the board between rounds: the one who starts the next round, where the rules name one."""
    from scorer.rules.game import Phase
    from scorer.rules.simulate import simulate_match

    sim = simulate_match("horse-race", 3, seed=5)
    seen = 0
    for step in sim.events:
        match = step.after
        if match.phase is Phase.BEFORE_ROUND and not match.is_over:
            expected = None if match.next_starter is None else match.players[match.next_starter]
            assert match.next_to_act == expected
            seen += expected is not None
        elif match.phase is Phase.IN_ROUND:
            assert match.next_to_act == match.next_player
    assert seen >= 1
    assert sim.events[-1].after.is_over and sim.events[-1].after.next_to_act is None
