"""The board drawn as a schematic (scorer.rules.schematic): on boards the rules engine built -- random legal
matches of every table, and long lines made on purpose -- every tile is drawn once, none on another, each
beside the tile it joined, doubles across their line, branches off a spinner square to it, and lines turn
rather than run out of the picture."""

from __future__ import annotations

import itertools
from typing import Iterator

import pytest

from scorer.rules import FULL_SET, Board, Join, Phase, Side, Tile
from scorer.rules.schematic import Box, DrawnTile, Schematic, draw_board, frame_for
from scorer.rules.simulate import TABLES, simulate_match
from scorer.rules.tiles import side_value

ASPECTS = (1.2, 0.7, 2.0)  # the live view beside the moves, a tall window, a wide one


def rounds_played(game: str, players: int, partnership: bool, seed: int) -> list[Board]:
    """The layout of every round of a random legal match, as it stood when the round ended."""
    last: dict[int, Board] = {}
    for event in simulate_match(game, players, partnership, seed=seed).events:
        if event.after.phase is not Phase.BEFORE_ROUND and event.after.board is not None and event.after.board.tiles:
            last[event.after.round_no] = event.after.board
    return list(last.values())


BOARDS = [b for (game, n, partners), seed in itertools.product(TABLES, range(3)) for b in rounds_played(game, n, partners, seed)]


def _separated(a: Box, b: Box) -> str:
    """'across' where the two lie side by side (left and right), 'down' where one is above the other."""
    if a.right <= b.left or b.right <= a.left:
        return "across"
    assert a.bottom <= b.top or b.bottom <= a.top, (a, b)
    return "down"


def _touch(a: Box, b: Box) -> bool:
    """Whether the two share a stretch of an edge (not just a corner)."""
    shared_x = min(a.right, b.right) - max(a.left, b.left)
    shared_y = min(a.bottom, b.bottom) - max(a.top, b.top)
    return (shared_x == 0 and shared_y > 0) or (shared_y == 0 and shared_x > 0)


def _joined_half(drawn: DrawnTile, side: Side) -> Box:
    """The part of a drawn tile a side belongs to: a non-double's end half, a double whole."""
    if drawn.tile.is_double:
        return drawn.box
    value = side_value(drawn.tile, side)
    return next(h.box for h in drawn.halves if h.pips == value)


def test_the_simulated_boards_are_many_and_long() -> None:
    assert len(BOARDS) > 100 and max(len(b) for b in BOARDS) >= 20
    assert any(len(b.spinners) >= 3 for b in BOARDS)  # Horse Race: several spinners, so several branches


@pytest.mark.parametrize("aspect", ASPECTS)
def test_every_tile_is_drawn_once_and_none_lies_on_another(aspect: float) -> None:
    for board in BOARDS:
        drawn = draw_board(board, aspect)
        assert [t.tile for t in drawn.tiles] == list(board.tiles)
        for a, b in itertools.combinations(drawn.tiles, 2):
            assert not a.box.overlaps(b.box), (board, a, b)
        for t in drawn.tiles:  # a tile is two squares side by side
            (h1, h2) = t.halves
            assert abs(h1.x - h2.x) + abs(h1.y - h2.y) == 1 and {h1.pips, h2.pips} == {t.tile.a, t.tile.b}


@pytest.mark.parametrize("aspect", ASPECTS)
def test_each_tile_lies_beside_the_one_it_joined_its_matching_half_first(aspect: float) -> None:
    stepped_over = 0
    for board in BOARDS:
        drawn = draw_board(board, aspect)
        apart = 0
        for join in board.joins:
            parent, child = drawn.of(join.tile), drawn.of(join.new_tile)
            assert child.halves[0].pips == side_value(join.tile, join.side)
            near = _joined_half(child, join.new_side) if child.tile.is_double else child.halves[0].box
            apart += not _touch(_joined_half(parent, join.side), near)
        assert apart == len(drawn.links), board  # laid further out only with a link drawn across the gap
        stepped_over += apart
    assert stepped_over <= len(BOARDS) // 20  # rare: most lines find a clear way


def drawn_joins(aspect: float) -> Iterator[tuple[Join, DrawnTile, DrawnTile]]:
    """Every join of the boards, with the tile joined to and the tile laid, as drawn."""
    for board in BOARDS:
        drawn = draw_board(board, aspect)
        for join in board.joins:
            yield join, drawn.of(join.tile), drawn.of(join.new_tile)


@pytest.mark.parametrize("aspect", ASPECTS)
def test_doubles_lie_across_their_line_and_branches_go_off_square_to_it(aspect: float) -> None:
    branches = 0
    for join, parent, child in drawn_joins(aspect):
        if child.tile.is_double:  # joined by its long side: its line runs across its length
            assert _separated(parent.box, child.box) == ("across" if child.upright else "down"), join
        if not parent.tile.is_double:
            continue
        # A double's line sides are its long sides, its branch sides its short ends.
        off_its_length = _separated(parent.box, child.box) == ("across" if parent.upright else "down")
        assert off_its_length != join.side.is_branch, join
        joined = child.halves[0]
        cx, cy = parent.centre
        assert (joined.x == cx) if parent.upright == join.side.is_branch else (joined.y == cy), join
        branches += join.side.is_branch
    assert branches > 50


@pytest.mark.parametrize("aspect", ASPECTS)
def test_the_counted_halves_are_the_end_sum(aspect: float) -> None:
    for board in BOARDS:
        drawn = draw_board(board, aspect)
        counted = [h for t in drawn.tiles for h in t.halves if h.counts]
        assert sum(h.pips for h in counted) == board.end_sum()
        assert {t.tile for t in drawn.tiles if any(h.counts for h in t.halves)} == {e.tile for e in board.scoring_ends()}
        assert {t.tile for t in drawn.tiles if t.spinner} == set(board.spinners)


def test_a_move_never_shifts_a_tile_laid_before_it() -> None:
    sim = simulate_match("horse-race", 2, seed=4)
    before: Schematic | None = None
    for event in sim.events:
        board = event.after.board
        drawn = draw_board(board, 1.2) if board is not None else Schematic()
        if before is not None and len(drawn.tiles) > len(before.tiles):
            for old, new in zip(before.tiles, drawn.tiles):
                assert (old.tile, old.box) == (new.tile, new.box)
        before = drawn


def test_an_empty_board_draws_nothing() -> None:
    drawn = draw_board(Board(True))
    assert drawn.tiles == () and drawn.bounds() is None


def _long_line() -> list[Tile]:
    """All 21 non-doubles in one line, each end matching the next (every number is on six of them: a circuit)."""
    edges = {Tile(a, b) for a in range(7) for b in range(a + 1, 7)}
    path, stack = [], [0]
    while stack:  # Hierholzer's walk
        v = stack[-1]
        step = next((t for t in sorted(edges) if t.has(v)), None)
        if step is None:
            path.append(stack.pop())
            continue
        edges.discard(step)
        stack.append(step.b if step.a == v else step.a)
    return [Tile.of(a, b) for a, b in zip(path, path[1:])]


def _laid_from_the_middle(spins: bool, line: list[Tile], doubles: bool) -> Board:
    """``line`` laid from its middle tile outwards both ways; with ``doubles``, each double whose number
    comes up is laid into the line there (a spinner in Horse Race, with two branches off it where it can)."""
    middle = len(line) // 2
    board = Board(spins).place(line[middle])
    ends = {"left": line[middle], "right": line[middle]}
    for step in range(1, middle + 1):
        for way, index in (("left", middle - step), ("right", middle + step)):
            if not 0 <= index < len(line):
                continue
            tile = line[index]
            point = next(p for p in board.free_points() if p.tile == ends[way] and tile.has(p.value))
            double = Tile(point.value, point.value)
            if doubles and double not in board:
                board = board.place(double, point)
                point = next(p for p in board.free_points() if p.tile == double and tile.has(p.value))
            board = board.place(tile, point)
            ends[way] = tile
    return board


@pytest.mark.parametrize("aspect", ASPECTS)
@pytest.mark.parametrize("doubles", [False, True], ids=["a plain line", "spinners with branches"])
def test_lines_of_ten_tiles_and_more_each_way_turn_to_stay_in_the_picture(aspect: float, doubles: bool) -> None:
    if doubles:  # 15 of the line with the doubles in it, then every tile left on a spinner's branches
        board = _laid_from_the_middle(True, _long_line()[:15], doubles=True)
        for tile in (t for t in FULL_SET if t not in board):
            point = next((p for p in board.placements(tile) if p.side.is_branch), None)
            if point is not None:
                board = board.place(tile, point)
        assert len(board) >= 24 and sum(j.side.is_branch for j in board.joins) >= 4
    else:
        board = _laid_from_the_middle(True, _long_line(), doubles=False)
        assert len(board) == 21
    drawn = draw_board(board, aspect)
    bounds, frame = drawn.bounds(), frame_for(aspect)
    assert bounds is not None
    # Laid straight, ten tiles each way reach 21 halves out: turned, they stay within four halves of the frame
    # (the tile that turns, and a double across the line, may stand out of it).
    assert frame.left - 4 <= bounds.left and bounds.right <= frame.right + 4, (bounds, frame)
    assert frame.top - 4 <= bounds.top and bounds.bottom <= frame.bottom + 4, (bounds, frame)
    for a, b in itertools.combinations(drawn.tiles, 2):
        assert not a.box.overlaps(b.box)
