"""The end sum and the spinner graph: every worked sequence of RULES.md and the seed texts."""

from __future__ import annotations

import pytest

from scorer.errors import IllegalMove
from scorer.rules import Board, Side, describe_board, describe_placement, HorseRace, SevenRocks
from tests.conftest import t


def build(every_double_spins: bool, steps: list[tuple[tuple[int, int], tuple[int, int] | None, Side | None]]) -> list[Board]:
    boards = [Board(every_double_spins)]
    for tile, at, side in steps:
        board = boards[-1]
        tl = t(*tile)
        if at is None:
            point = None
        elif side is None:
            (point,) = {p.tile: p for p in board.placements(tl) if p.tile == t(*at)}.values()
        else:
            point = board.point(t(*at), side)
        boards.append(board.place(tl, point))
    return boards[1:]


SEQUENCE = [
    ((1, 4), None, None),
    ((1, 1), (1, 4), None),
    ((4, 4), (1, 4), None),
    ((3, 4), (4, 4), Side.LINE_B),
    ((1, 2), (1, 1), Side.LINE_B),
    ((1, 5), (1, 1), Side.BRANCH_A),
    ((5, 5), (1, 5), None),
    ((0, 5), (5, 5), Side.LINE_B),
    ((1, 3), (1, 1), Side.BRANCH_B),
]


@pytest.mark.parametrize("spins", [True, False], ids=["horse-race", "seven-rocks"])
def test_the_long_worked_sequence_gives_the_same_sums_in_both_games(spins: bool) -> None:
    sums = [b.end_sum() for b in build(spins, SEQUENCE)]
    points = [b.points() for b in build(spins, SEQUENCE)]
    assert sums == [5, 6, 10, 5, 5, 10, 15, 5, 8]
    assert points == [5, 0, 10, 5, 5, 10, 15, 5, 0]


def test_scoring_ends_of_the_sequence() -> None:
    boards = build(True, SEQUENCE)
    assert [e.value for e in boards[1].scoring_ends()] == [2, 4]
    assert [e.value for e in boards[5].scoring_ends()] == [2, 5, 3]
    assert [e.value for e in boards[7].scoring_ends()] == [0, 2, 3]
    assert [e.value for e in boards[8].scoring_ends()] == [0, 2, 3, 3]


def test_spinners_differ_between_the_games() -> None:
    assert build(True, SEQUENCE)[-1].spinners == (t(1, 1), t(4, 4), t(5, 5))
    assert build(False, SEQUENCE)[-1].spinners == (t(1, 1),)


@pytest.mark.parametrize(
    "steps, sum_",
    [
        ([((3, 6), None, None), ((6, 6), (3, 6), None)], 15),
        ([((0, 0), None, None)], 0),
        ([((2, 2), None, None)], 4),
    ],
)
def test_small_cases(steps, sum_) -> None:
    board = build(True, steps)[-1]
    assert board.end_sum() == sum_
    assert board.points() == (sum_ if sum_ and sum_ % 5 == 0 else 0)


def test_horse_race_opening_double_spinner_sequence() -> None:
    steps = [((5, 5), None, None), ((2, 5), (5, 5), None), ((3, 5), (5, 5), None), ((4, 5), (5, 5), Side.BRANCH_A)]
    boards = build(True, steps)
    assert [b.end_sum() for b in boards] == [10, 12, 5, 9]
    assert [b.points() for b in boards] == [10, 0, 5, 0]


def test_seven_rocks_opening_double_spinner_sequence() -> None:
    steps = [((5, 5), None, None), ((0, 5), (5, 5), None), ((2, 5), (5, 5), None), ((3, 5), (5, 5), Side.BRANCH_B)]
    boards = build(False, steps)
    assert [b.end_sum() for b in boards] == [10, 10, 2, 5]
    assert [b.points() for b in boards] == [10, 10, 0, 5]


def test_a_branch_waits_for_both_line_sides() -> None:
    board = build(True, [((1, 1), None, None), ((1, 2), (1, 1), None)])[-1]
    with pytest.raises(IllegalMove, match="both line sides must be filled"):
        board.point(t(1, 1), Side.BRANCH_A)
    # One line side of [1|1] is free, and no branch yet.
    free = [p.side for p in board.free_points() if p.tile == t(1, 1)]
    assert len(free) == 1 and not free[0].is_branch


def test_a_later_double_does_not_spin_in_seven_rocks() -> None:
    board = build(False, [((1, 1), None, None), ((1, 3), (1, 1), None), ((3, 3), (1, 3), None), ((2, 3), (3, 3), None)])[-1]
    assert board.spinners == (t(1, 1),)
    with pytest.raises(IllegalMove, match="not a spinner"):
        board.point(t(3, 3), Side.BRANCH_A)
    assert not [p for p in board.free_points() if p.tile == t(3, 3)]
    # [3|3] is internal now: ends are [1|1] (2) and [2|3] (2).
    assert board.end_sum() == 4


@pytest.mark.parametrize("spins", [True, False], ids=["horse-race", "seven-rocks"])
def test_a_board_replayed_from_its_joins_is_the_same_board(spins: bool) -> None:
    board = build(spins, SEQUENCE)[-1]
    again = Board.replayed(spins, board.tiles[0], [(j.tile, j.side, j.new_tile) for j in board.joins])
    assert again == board and again.end_sum() == board.end_sum() and again.spinners == board.spinners
    # A join the rules do not allow (a branch before both line sides) is an error, not a board.
    with pytest.raises(IllegalMove):
        Board.replayed(spins, t(1, 1), [(t(1, 1), Side.BRANCH_A, t(1, 2))])


def test_placing_errors() -> None:
    board = build(True, [((1, 4), None, None)])[-1]
    with pytest.raises(IllegalMove, match="already on the board"):
        board.place(t(1, 4), None)
    with pytest.raises(IllegalMove, match="does not match"):
        board.place(t(2, 3), board.point(t(1, 4), Side.LOW))
    with pytest.raises(IllegalMove, match="needs a free point"):
        board.place(t(2, 4), None)


SEED_FI_HORSE_RACE_0_5 = (
    "Pelattu [0|5]\n"
    "Pisteytykseen lasketut arvot: 0 + 2 + 3 = 5. Siirtopisteet: 5 raakapistettä (1 näyttöpiste). "
    "Laatat: [1|4], [1|1], [4|4], [3|4], [1|2], [1|5], [5|5], [0|5]. Spinnerit: [1|1], [4|4], [5|5]. "
    "Liitokset: [1|4] (pienempi pää) – [1|1] (linja A); [1|4] (suurempi pää) – [4|4] (linja A); "
    "[4|4] (linja B) – [3|4] (suurempi pää); [1|1] (linja B) – [1|2] (pienempi pää); "
    "[1|1] (haara A) – [1|5] (pienempi pää); [1|5] (suurempi pää) – [5|5] (linja A); "
    "[5|5] (linja B) – [0|5] (suurempi pää). "
    "Vapaat liitospisteet: [0|5] (pienempi pää, 0); [1|1] (haara B, 1); [1|2] (suurempi pää, 2); "
    "[3|4] (pienempi pää, 3); [4|4] (haara A, 4); [4|4] (haara B, 4); [5|5] (haara A, 5); [5|5] (haara B, 5). "
    "Pisteytykseen lasketut arvot: [0|5]: 0; [1|2]: 2; [3|4]: 3."
)

SEED_FI_SEVEN_ROCKS_1_3 = (
    "Asetettu [1|3]\n"
    "Pisteytykseen lasketut arvot: 0 + 2 + 3 + 3 = 8. Asetuspisteet: 0 raakapistettä. "
    "Laatat: [1|4], [1|1], [4|4], [3|4], [1|2], [1|5], [5|5], [0|5], [1|3]. Spinnerit: [1|1]. "
    "Liitokset: [1|4] (pienempi pää) – [1|1] (linja A); [1|4] (suurempi pää) – [4|4] (linja A); "
    "[4|4] (linja B) – [3|4] (suurempi pää); [1|1] (linja B) – [1|2] (pienempi pää); "
    "[1|1] (haara A) – [1|5] (pienempi pää); [1|5] (suurempi pää) – [5|5] (linja A); "
    "[5|5] (linja B) – [0|5] (suurempi pää); [1|1] (haara B) – [1|3] (pienempi pää). "
    "Lailliset jatkokohdat: [0|5] (pienempi pää, 0); [1|2] (suurempi pää, 2); [1|3] (suurempi pää, 3); "
    "[3|4] (pienempi pää, 3). Pisteytykseen lasketut arvot: [0|5]: 0; [1|2]: 2; [1|3]: 3; [3|4]: 3."
)


def test_description_matches_the_horse_race_seed_text() -> None:
    board = build(True, SEQUENCE)[7]
    assert describe_placement(t(0, 5), board, HorseRace(), "fi") == SEED_FI_HORSE_RACE_0_5


def test_description_matches_the_seven_rocks_seed_text() -> None:
    board = build(False, SEQUENCE)[8]
    assert describe_placement(t(1, 3), board, SevenRocks(), "fi") == SEED_FI_SEVEN_ROCKS_1_3


def test_opening_descriptions_in_both_languages() -> None:
    (board,) = build(True, [((1, 4), None, None)])
    assert describe_board(board, "fi") == (
        "Laatat: [1|4]. Spinnerit: ei yhtään. Liitokset: ei yhtään. "
        "Vapaat liitospisteet: [1|4] (suurempi pää, 4); [1|4] (pienempi pää, 1). "
        "Pisteytykseen lasketut arvot: [1|4]: 4; [1|4]: 1."
    )
    assert describe_board(board, "en") == (
        "Tiles: [1|4]. Spinners: none. Joins: none. "
        "Free connection points: [1|4] (larger end, 4); [1|4] (smaller end, 1). "
        "Scoring values: [1|4]: 4; [1|4]: 1."
    )
    (double,) = build(True, [((0, 0), None, None)])
    assert describe_placement(t(0, 0), double, HorseRace(), "en").splitlines()[1].startswith(
        "Scoring values: 0 = 0. Move points: 0 raw points (0 display points)."
    )


def test_the_board_json_record_reads_back_as_the_same_board() -> None:
    import json

    from scorer.rules import GAMES, Board, Tile
    from scorer.rules.board_json import board_from_parts, board_parts, board_record

    board = Board(True).place(Tile(6, 6))
    for tile in (Tile(3, 6), Tile(5, 6), Tile(3, 3)):
        board = board.place(tile, board.placements(tile)[0])
    record = json.loads(json.dumps(board_record(board, GAMES["horse-race"])))
    again = board_from_parts(*board_parts(record), True)
    assert again.tiles == board.tiles and again.joins == board.joins and again.end_sum() == board.end_sum() == record["sum"]
    # The raw points and the game's own: Horse Race's a fifth of the raw (the [5|5] alone: 10 raw, 2 points).
    opened = Board(True).place(Tile(5, 5))
    assert [board_record(opened, GAMES[g])[k] for g in ("horse-race", "seven-rocks") for k in ("points", "game_points", "game")] \
        == [10, 2, "horse-race", 10, 10, "seven-rocks"]
    assert board_from_parts(*board_parts({"tiles": [], "joins": []}), False).tiles == ()
