"""Board reconstruction from tile geometry: hand-laid tables and simulated layouts."""

from __future__ import annotations

import math
from dataclasses import replace
import random

import numpy as np
import pytest
from dominosynth.layout import LayoutError, PlacedGeom, lay_out

from scorer.layout import SeenTile, infer_placements, reconstruct, to_board
from scorer.rules import Board, Play, Side, Tile
from scorer.rules.simulate import TABLES, simulate_match
from scorer.vision.geometry import long_first

W, L = 24.0, 48.0


def tile_at(a: int, b: int, x: float, y: float, angle_deg: float = 0.0) -> SeenTile:
    """A tile centred at (x, y) mm, its long axis at ``angle_deg``: the ``a`` half at the -axis end, ``b`` at the +axis end."""
    g = PlacedGeom(Tile.of(a, b), (x, y), math.radians(angle_deg), (b, a))
    return SeenTile(tuple(map(tuple, long_first(g.corners()))), g.end_values)


def board_of(tiles: list[SeenTile], spins: bool = True) -> tuple[Board, list[str]]:
    layout = reconstruct(tiles)
    board, problems = to_board(layout, spins)
    return board, layout.problems + problems


def _table(width: int = 400, height: int = 300, seed: int = 0) -> np.ndarray:
    """A green felt table, slightly noisy, as a BGR image."""
    rng = np.random.default_rng(seed)
    return np.clip(np.array([60.0, 120.0, 40.0]) + rng.normal(0, 4, (height, width, 3)), 0, 255).astype(np.uint8)


def _detected(pips, x, y=100.0, length=48.0, confidences=(0.99, 0.99)):
    """A face-up tile lying along the x axis from (x, y), ``length`` x ``length / 2`` px, each half read
    at its ``confidences`` (surely, unless told)."""
    from scorer.vision.detector import HalfReading, TileDetection

    corners = ((x, y), (x + length, y), (x + length, y + length / 2), (x, y + length / 2))
    middle = y + length / 4
    return TileDetection(corners, "up", 0.9, (HalfReading(pips[0], (x + length / 4, middle), confidences[0]),
                                              HalfReading(pips[1], (x + 3 * length / 4, middle), confidences[1])))


def test_a_straight_line() -> None:
    # [1|4] then [4|6] on its 4, then [1|3] on its 1 -- ends 3 and 6.
    tiles = [tile_at(1, 4, 0, 0), tile_at(4, 6, L + 0.5, 0), tile_at(3, 1, -L - 0.8, 0)]
    board, problems = board_of(tiles)
    assert not problems
    assert board.end_sum() == 9 and len(board.joins) == 2


def test_a_line_that_turns_a_corner() -> None:
    # [2|5] along x; [5|6] turned 90 degrees at its 5 end, laid downwards (+y).
    first = tile_at(2, 5, 0, 0)
    turned = tile_at(5, 6, L / 2 + W / 2 + 0.5, W / 2, 90)  # its 5 half sits in front of the 5 end
    board, problems = board_of([first, turned])
    assert not problems
    assert {(j.tile, j.new_tile) for j in board.joins} in ({(Tile(2, 5), Tile(5, 6))}, {(Tile(5, 6), Tile(2, 5))})
    assert board.end_sum() == 2 + 6


def test_a_spinner_with_branches_horse_race_and_seven_rocks() -> None:
    # [3|3] crosswise (long axis along y) with [3|5] left, [3|4] right, [3|6] up (branch), [1|3] down (branch).
    spinner = tile_at(3, 3, 0, 0, 90)
    left = tile_at(5, 3, -W / 2 - L / 2 - 0.5, 0)
    right = tile_at(3, 4, W / 2 + L / 2 + 0.5, 0)
    up = tile_at(3, 6, 0, -L / 2 - L / 2 - 0.5, -90)  # the 3 half next to the short end
    down = tile_at(3, 1, 0, L + 0.5, 90)
    for spins in (True, False):
        board, problems = board_of([spinner, left, right, up, down], spins)
        assert not problems
        assert board.spinners == (Tile(3, 3),)
        assert board.end_sum() == 5 + 4 + 6 + 1
        assert sum(1 for j in board.joins if j.side.is_branch) == 2


def test_a_branch_before_both_lines_is_a_problem() -> None:
    spinner = tile_at(2, 2, 0, 0, 90)
    left = tile_at(5, 2, -W / 2 - L / 2 - 0.5, 0)
    up = tile_at(2, 6, 0, -L, -90)
    _, problems = board_of([spinner, left, up])
    assert any("branch is used before both line sides" in p for p in problems)


def test_a_double_laid_lengthwise_in_the_line_is_read_as_crosswise() -> None:
    # [1|2], then [2|2] laid along the line (not crosswise), then [2|5]: the graph is the same.
    line = [tile_at(1, 2, 0, 0), tile_at(2, 2, L + 0.5, 0), tile_at(2, 5, 2 * L + 1.0, 0)]
    for spins in (True, False):
        board, problems = board_of(line, spins)
        assert not problems
        assert board.end_sum() == 1 + 5 and len(board.joins) == 2
    assert any("lies lengthwise" in n for n in reconstruct(line).notes)
    # At the end of the line it counts both halves, as a crosswise double there does.
    board, problems = board_of(line[:2])
    assert not problems and board.end_sum() == 1 + 4


def test_a_tile_between_a_doubles_middle_and_its_end_is_asked_about() -> None:
    # [5|2] at the short end of [2|2] laid along x; [4|2] upright against the double's long side.
    # At the middle it is a branch opened before the line's other side (reported); flush with the
    # end the line turns there (legal); between the two -- a tilted camera's view of CADENA4's
    # illegal chain, read as a turn -- it is asked about, not decided.
    def layout(off_middle: float) -> list[SeenTile]:
        return [tile_at(2, 2, 0, 0), tile_at(5, 2, -L - 0.5, 0), tile_at(4, 2, off_middle * W, -(W / 2 + L / 2 + 0.5), 90)]

    _, problems = board_of(layout(0.1))
    assert any("branch is used before both line sides" in p for p in problems)
    between = reconstruct(layout(0.3))
    assert between.problems == ["[2|4] at (7, -36) meets the long side of [2|2] at (0, 0) between its middle and its end: read as "
                                "the line turning at the double's end, not a branch from its middle -- please check it"]
    assert not between.notes  # (not also told that the double was read as laid crosswise)
    # Once both tiles are played (the move answered or taken), the layout stands as read.
    assert not reconstruct(layout(0.3), known={Tile(2, 2), Tile(2, 4), Tile(2, 5)}).problems
    assert reconstruct(layout(0.3), known={Tile(2, 2), Tile(2, 5)}).problems
    board, problems = board_of(layout(0.45))
    assert not problems and board.end_sum() == 5 + 4


def test_a_tile_a_little_off_its_place_joins_where_its_pips_fit_one_free_side() -> None:
    # [3|1], [1|4], then [4|6] laid 13 mm short of touching (a box a few pixels off): beyond the
    # strict tolerance, but its 4 fits the one free 4 there.
    base = [tile_at(3, 1, -L - 0.5, 0), tile_at(1, 4, 0, 0)]
    layout = reconstruct([*base, tile_at(4, 6, L + 13.0, 0)])
    assert sorted(layout.layout_tiles()) == [Tile(1, 3), Tile(1, 4), Tile(4, 6)] and not layout.problems
    # A tile joined to the straggler comes with it.
    group = [tile_at(4, 6, L + 13.0, 0), tile_at(6, 2, 2 * L + 13.5, 0)]
    assert sorted(reconstruct([*base, *group]).layout_tiles()) == [Tile(1, 3), Tile(1, 4), Tile(2, 6), Tile(4, 6)]
    # The same tile with pips that fit nothing there stays loose.
    assert sorted(reconstruct([*base, tile_at(5, 6, L + 13.0, 0)]).layout_tiles()) == [Tile(1, 3), Tile(1, 4)]
    # 17 mm (0.7 of a width: a far camera's 31 px tile boxed a few pixels short) still joins there.
    layout = reconstruct([*base, tile_at(4, 6, L + 17.0, 0)])
    assert sorted(layout.layout_tiles()) == [Tile(1, 3), Tile(1, 4), Tile(4, 6)] and not layout.problems
    # Far off, it is loose whatever its pips.
    assert sorted(reconstruct([*base, tile_at(4, 6, L + 30.0, 0)]).layout_tiles()) == [Tile(1, 3), Tile(1, 4)]


def test_a_played_tile_whose_box_is_short_at_both_ends_still_joins_the_layout_between_its_neighbours() -> None:
    def box(a: int, b: int, x0: float, x1: float) -> SeenTile:
        return SeenTile(((x0, -W / 2), (x1, -W / 2), (x1, W / 2), (x0, W / 2)), (a, b))

    # [3|1] [1|4] [4|6] [6|2] [2|5] in a line; the boxes come out 7 mm short wherever [4|6] meets a
    # neighbour (dark tiles on a dark cloth), so it joins neither at the strict tolerance.
    line = [box(3, 1, -120, -72), box(1, 4, -72, -31), box(4, 6, -17, 17), box(6, 2, 31, 72), box(2, 5, 72, 120)]
    played = {s.tile for s in line}
    layout = reconstruct(line, known=played)
    assert sorted(layout.layout_tiles()) == sorted(played) and not layout.problems
    assert len(layout.joins) == 4
    # A new tile there (not played before) is another matter: it joins at one free side, not two.
    layout = reconstruct(line, known=played - {Tile(4, 6)})
    assert Tile(4, 6) not in layout.layout_tiles()


def test_seven_rocks_second_double_with_branches_is_a_problem() -> None:
    a = tile_at(3, 3, 0, 0, 90)
    a_left = tile_at(5, 3, -W / 2 - L / 2 - 0.5, 0)
    a_right = tile_at(3, 4, W / 2 + L / 2 + 0.5, 0)
    a_up = tile_at(3, 6, 0, -L, -90)
    b_x = W / 2 + L + 0.5 + W / 2 + 0.5
    b = tile_at(4, 4, b_x, 0, 90)
    b_right = tile_at(4, 1, b_x + W / 2 + L / 2 + 0.5, 0)
    b_down = tile_at(4, 0, b_x, L + 0.5, 90)
    tiles = [a, a_left, a_right, a_up, b, b_right, b_down]
    _, problems = board_of(tiles, spins=False)
    assert any("only the round's first double spins" in p for p in problems)
    board, problems = board_of(tiles, spins=True)
    assert not problems and len(board.spinners) == 2


def test_pips_that_do_not_match_are_a_problem() -> None:
    _, problems = board_of([tile_at(1, 4, 0, 0), tile_at(5, 6, L + 0.5, 0)])
    assert any("pips do not match" in p for p in problems)


def test_a_tile_seen_twice_is_reported() -> None:
    # Both copies in the layout: the table is inconsistent.
    twice = [tile_at(1, 4, 0, 0), tile_at(4, 6, L + 0.5, 0), tile_at(6, 1, 2 * L + 1.0, 0), tile_at(1, 4, 3 * L + 1.5, 0)]
    _, problems = board_of(twice)
    assert any("seen 2 times" in p for p in problems)
    # One copy joined, one loose: the loose one is a misread -- reported as a note, not in the way.
    layout = reconstruct([tile_at(1, 4, 0, 0), tile_at(4, 6, L + 0.5, 0), tile_at(1, 4, 300, 300)])
    assert not layout.problems and any("seen 2 times" in n for n in layout.notes)


def test_incremental_move_and_a_vanished_tile() -> None:
    before, _ = board_of([tile_at(1, 4, 0, 0), tile_at(4, 6, L + 0.5, 0)])
    after = reconstruct([tile_at(1, 4, 0, 0), tile_at(4, 6, L + 0.5, 0), tile_at(6, 6, L + 0.5 + L / 2 + W / 2 + 0.5, 0, 90)])
    change = infer_placements(before, after)
    assert change.consistent
    (move,) = change.placements
    assert move.tile == Tile(6, 6) and move.at.tile == Tile(4, 6) and move.at.side is Side.HIGH
    assert change.board.end_sum() == 1 + 12
    gone = reconstruct([tile_at(4, 6, L + 0.5, 0), tile_at(6, 6, L + 0.5 + L / 2 + W / 2 + 0.5, 0, 90)])
    change = infer_placements(change.board, gone)
    assert change.vanished == [Tile(1, 4)] and not change.consistent


def _seen(geoms: list[PlacedGeom], rng: random.Random, noise: float) -> list[SeenTile]:
    out = []
    for g in geoms:
        corners = long_first(g.corners()) + np.array([rng.gauss(0, noise), rng.gauss(0, noise)])
        out.append(SeenTile(tuple(map(tuple, corners)), g.end_values))
    return out


@pytest.mark.parametrize("seed", range(6))
def test_simulated_layouts_rebuild_the_same_board(seed: int) -> None:
    rng = random.Random(seed)
    checked = 0
    for k in range(20):
        game, n, partnership = rng.choice(TABLES)
        sim = simulate_match(game, n, partnership, seed=seed * 100 + k)
        truth = rng.choice([s.after.board for s in sim.events if isinstance(s.event, Play)])
        try:
            geoms = lay_out(truth, rng, (0, 0, 1000, 700))
        except LayoutError:
            continue
        board, problems = board_of(_seen(geoms, rng, 0.6), truth.every_double_spins)
        assert not problems
        assert set(board.tiles) == set(truth.tiles)
        assert sorted(sorted((j.tile, j.new_tile)) for j in board.joins) == sorted(sorted((j.tile, j.new_tile)) for j in truth.joins)
        assert board.end_sum() == truth.end_sum()
        if truth.every_double_spins:
            assert set(board.spinners) == set(truth.spinners)
        checked += 1
    assert checked >= 15


def test_layouts_seen_by_a_tilted_camera_rebuild_without_a_calibration() -> None:
    """No profile: the image itself, 35 degrees off overhead (far tiles a third smaller than near ones)."""
    from dominosynth.layout import seen_tilted

    rng = random.Random(7)
    checked = 0
    for k in range(40):
        game, n, partnership = rng.choice(TABLES)
        sim = simulate_match(game, n, partnership, seed=500 + k)
        truth = rng.choice([s.after.board for s in sim.events if isinstance(s.event, Play)])
        try:
            geoms = lay_out(truth, rng, (0, 0, 1000, 700))
        except LayoutError:
            continue
        seen = [SeenTile(tuple(map(tuple, c)), values) for c, values in seen_tilted(geoms, 35, rng)]
        board, problems = board_of(seen, truth.every_double_spins)
        assert not problems
        assert sorted(sorted((j.tile, j.new_tile)) for j in board.joins) == sorted(sorted((j.tile, j.new_tile)) for j in truth.joins)
        assert board.end_sum() == truth.end_sum()
        checked += 1
    assert checked >= 30


def misread(seen: SeenTile, value: int, others: tuple[int, ...]) -> SeenTile:
    """``seen`` with the half showing ``value`` given the reader's likely other readings ``others``."""
    half = seen.pips.index(value)
    alternatives = (others, ()) if half == 0 else ((), others)
    return replace(seen, confidence=0.6, alternatives=alternatives)


def test_a_half_misread_at_a_join_is_read_as_its_likely_other_value() -> None:
    # [1|4] then [4|6], its 4 read as a 5 (the reader's runner-up: 4): the join fixes it, with a note.
    line = [tile_at(1, 4, 0, 0), misread(tile_at(5, 6, L + 0.5, 0), 5, (4, 2)), tile_at(3, 1, -L - 0.8, 0)]
    layout = reconstruct(line)
    board, problems = to_board(layout, True)
    assert not layout.problems and not problems
    assert Tile(4, 6) in board.tiles and board.end_sum() == 9
    assert any("is taken as [4|6]" in n for n in layout.notes)


def test_a_join_does_not_guess_when_either_half_or_no_half_could_be_misread() -> None:
    # Both halves have the other's value as a likely reading: which is wrong is not known.
    both = [misread(tile_at(1, 4, 0, 0), 4, (5,)), misread(tile_at(5, 6, L + 0.5, 0), 5, (4,))]
    # The runner-ups do not include the neighbour's value.
    neither = [tile_at(1, 4, 0, 0), misread(tile_at(5, 6, L + 0.5, 0), 5, (3, 2))]
    # The reading that fits would be a tile already on the table.
    taken = [tile_at(1, 4, 0, 0), misread(tile_at(5, 6, L + 0.5, 0), 5, (4,)), tile_at(4, 6, 300, 300)]
    for tiles in (both, neither, taken):
        _, problems = board_of(tiles)
        assert any("pips do not match" in p for p in problems)


def test_read_board_asks_about_a_half_read_unsurely_unless_a_join_settles_it() -> None:
    from scorer.layout import read_board
    from scorer.vision.detector import HalfReading, TileDetection

    def tile(pips, x, first=0.99, second=0.99):
        corners = ((x, 100.0), (x + 48.0, 100.0), (x + 48.0, 124.0), (x, 124.0))
        return TileDetection(corners, "up", 0.9, (HalfReading(pips[0], (x + 12, 112.0), first), HalfReading(pips[1], (x + 36, 112.0), second)))

    sure = read_board([tile((1, 3), 100.0), tile((3, 6), 148.0)], every_double_spins=True)
    assert sure.sure and sure.board.end_sum() == 7 and sorted(sure.board.tiles) == [Tile(1, 3), Tile(3, 6)]
    # The [3|6]'s open 6 read at 0.5: the board is still built, but the players are asked.
    unsure = read_board([tile((1, 3), 100.0), tile((3, 6), 148.0, second=0.5)], every_double_spins=True)
    assert unsure.board == sure.board and not unsure.sure
    assert any("(172, 112)" in p and "uncertainly as [3|6]" in p for p in unsure.problems)
    # Its 3 read at 0.5 instead, joined to the [1|3]'s 3 read surely: joined halves match, so the
    # rules settle it -- unless the 3 it meets is unsure too.
    joined = read_board([tile((1, 3), 100.0), tile((3, 6), 148.0, first=0.5)], every_double_spins=True)
    assert joined.sure and joined.board == sure.board
    both = read_board([tile((1, 3), 100.0, second=0.6), tile((3, 6), 148.0, first=0.5)], every_double_spins=True)
    assert [p[:40] for p in both.problems] == ["the tile at (124, 112) is read uncertain", "the tile at (172, 112) is read uncertain"]



def test_a_blank_open_end_on_a_small_tile_needs_the_higher_bar_but_a_blank_met_at_a_join_does_not() -> None:
    from scorer.layout import read_board
    from scorer.vision.detector import SMALL_FOR_A_BLANK_PX

    def tile(pips, x, length, first=0.99, second=0.99):
        return _detected(pips, x, length=length, confidences=(first, second))

    small = SMALL_FOR_A_BLANK_PX - 3
    # [0|2][2|4] on small tiles, the open blank read at 0.95: a single pale pip may hide there -- asked.
    open_end = read_board([tile((0, 2), 100.0, small, first=0.95), tile((2, 4), 100.0 + small, small)], every_double_spins=True)
    assert not open_end.sure and sorted(open_end.board.tiles) == [Tile(0, 2), Tile(2, 4)]
    assert any("uncertainly as [0|2] (0.95)" in p for p in open_end.problems)
    # The same on tiles of 48 px: sure.
    large = read_board([tile((0, 2), 100.0, 48.0, first=0.95), tile((2, 4), 148.0, 48.0)], every_double_spins=True)
    assert large.sure
    # [2|0][0|4] on small tiles, the two blanks meeting at the join each read at 0.95: two readings agree.
    met = read_board([tile((2, 0), 100.0, small, second=0.95), tile((0, 4), 100.0 + small, small, first=0.95)], every_double_spins=True)
    assert met.sure and met.board.end_sum() == 6

def test_tiles_too_small_in_the_image_to_read_are_pointed_out() -> None:
    from scorer.layout import read_board
    from scorer.vision.detector import SMALL_TILE_PX, HalfReading, TileDetection

    def tiles(length):
        w = length / 2
        return [TileDetection(((x, 50.0), (x + length, 50.0), (x + length, 50.0 + w), (x, 50.0 + w)), "up", 0.9,
                              (HalfReading(1, (x + w / 2, 50 + w / 2), 0.99), HalfReading(3, (x + 1.5 * w, 50 + w / 2), 0.99)))
                for x in (10.0, 200.0)]

    assert not any("too small" in n for n in read_board(tiles(SMALL_TILE_PX + 10), True).notes)
    small = read_board(tiles(SMALL_TILE_PX - 8), True).notes
    assert any("about 22 px long" in n and "bring the camera closer" in n for n in small)


def test_a_picture_too_grainy_to_read_is_a_problem() -> None:
    # A dim room's picture brightened back by the camera's gain: the players are asked to light the table.
    from scorer.layout import read_board
    from scorer.vision.detector import HalfReading, TileDetection

    tiles = [TileDetection(((x, 50.0), (x + 60.0, 50.0), (x + 60.0, 80.0), (x, 80.0)), "up", 0.9,
                           (HalfReading(1, (x + 15, 65.0), 0.99), HalfReading(3, (x + 45, 65.0), 0.99))) for x in (10.0, 200.0)]
    clean = np.full((200, 400, 3), 120, np.uint8)
    grainy = np.clip(clean + np.random.default_rng(0).normal(0.0, 80.0, clean.shape), 0, 255).astype(np.uint8)
    assert not any("too grainy" in p for p in read_board(tiles, True, image=clean).problems)
    reading = read_board(tiles, True, image=grainy)
    assert any("too grainy" in p and "more light" in p for p in reading.problems) and not reading.sure
    # ... and so is a move read from it.
    from scorer.layout import read_move
    from scorer.rules import Board, Tile

    laid = tiles[:1] + [TileDetection(((70.0, 50.0), (130.0, 50.0), (130.0, 80.0), (70.0, 80.0)), "up", 0.9,
                                      (HalfReading(3, (85.0, 65.0), 0.99), HalfReading(5, (115.0, 65.0), 0.99)))]
    move = read_move(Board(True).place(Tile(1, 3)), laid, image=grainy)
    assert [p.tile for p in move.change.placements] == [Tile(3, 5)] and any("too grainy" in p for p in move.problems)
    assert not any("too grainy" in p for p in read_move(Board(True).place(Tile(1, 3)), laid, image=clean).problems)


def test_read_board_asks_about_joined_tiles_cut_off_from_the_layout_by_an_unseen_tile() -> None:
    from scorer.layout import read_board

    # [1|4][4|6] [6|2 unseen] [2|3][3|5][5|5 ...]: the three on the right are the layout read, the
    # two on the left a piece of it cut off where the [6|2] was missed.
    line = [_detected((1, 4), 0.0), _detected((4, 6), 48.0), _detected((2, 3), 144.0), _detected((3, 5), 192.0), _detected((5, 0), 240.0)]
    cut = read_board(line, every_double_spins=True)
    assert sorted(cut.board.tiles) == [Tile(0, 5), Tile(2, 3), Tile(3, 5)]
    assert any("not joined to it ([1|4] at (24, 112), [4|6] at (72, 112))" in p for p in cut.problems)
    # The same two tiles lying well away (a hand laid out for the count): nothing to ask.
    apart = read_board([_detected((1, 4), 0.0, 400.0), _detected((4, 6), 48.0, 400.0)] + line[2:], every_double_spins=True)
    assert apart.sure and sorted(apart.board.tiles) == [Tile(0, 5), Tile(2, 3), Tile(3, 5)]


def test_joined_tiles_cut_off_from_the_layout_are_found_whatever_the_size_of_the_other_loose_tiles() -> None:
    from scorer.layout import read_board

    # As above, and a hand of three tiles lying far off that look half as long (a camera at a slant sees
    # the far side of the table smaller): the cut-off piece is still joined by the tiles' usual width.
    line = [_detected((1, 4), 0.0), _detected((4, 6), 48.0), _detected((2, 3), 144.0), _detected((3, 5), 192.0), _detected((5, 0), 240.0)]
    hand = [_detected(pips, x, 260.0, length=24.0) for pips, x in (((1, 1), 0.0), ((2, 2), 40.0), ((4, 4), 80.0))]
    cut = read_board(line + hand, every_double_spins=True)
    assert sorted(cut.board.tiles) == [Tile(0, 5), Tile(2, 3), Tile(3, 5)]
    assert any("not joined to it ([1|4] at (24, 112), [4|6] at (72, 112))" in p for p in cut.problems)


def test_read_board_asks_about_an_open_end_of_the_layout_at_the_image_edge() -> None:
    from scorer.layout import read_board
    from scorer.vision.detector import HalfReading, TileDetection

    line = [_detected((1, 4), 2.0), _detected((4, 6), 50.0), _detected((6, 2), 98.0)]
    # The [1|4]'s open 1 lies 2 px from the left edge: a [1|x] beyond it would be out of the picture.
    cut = read_board(line, every_double_spins=True, image=_table())
    assert sorted(cut.board.tiles) == [Tile(1, 4), Tile(2, 6), Tile(4, 6)] and not cut.sure
    assert cut.problems == [
        "the layout reaches the edge of the picture ([1|4] at (26, 112)): it may go on beyond it, unseen -- frame the whole layout"]
    # Well inside the picture, or without the picture: nothing to ask.
    inside = read_board([_detected(t.pips, t.corners[0][0] + 40.0) for t in line], every_double_spins=True, image=_table())
    assert inside.sure and read_board(line, every_double_spins=True).sure
    # The [1|4] inside, the [6|2]'s open 2 near the right edge: where enough of the spot beyond it is in
    # the picture and bare (a joined tile would fill it), nothing is asked; where too little is, it is.
    def ending_at(x):
        return [_detected(t.pips, t.corners[0][0] + x - 146.0) for t in line]

    assert read_board(ending_at(384.0), every_double_spins=True, image=_table()).sure  # 10 of the spot's 24 px in it
    assert any("edge of the picture ([2|6] at (368, 112))" in p for p in read_board(ending_at(392.0), every_double_spins=True, image=_table()).problems)
    # A line running down the left edge, its ends on bare table in the picture: a next tile, laid
    # straight on or turned a corner, would show there, so nothing is asked -- until the line runs
    # down to the bottom edge.
    def upright(pips, y):
        corners = ((25.0, y), (25.0, y + 48.0), (1.0, y + 48.0), (1.0, y))  # long side first, the first half on top
        return TileDetection(corners, "up", 0.9, (HalfReading(pips[0], (13, y + 12), 0.99), HalfReading(pips[1], (13, y + 36), 0.99)))

    down = read_board([upright((1, 4), 100.0), upright((4, 6), 148.0), upright((6, 2), 196.0)], every_double_spins=True, image=_table())
    assert sorted(down.board.tiles) == [Tile(1, 4), Tile(2, 6), Tile(4, 6)] and down.sure
    lower = read_board([upright((1, 4), 156.0), upright((4, 6), 204.0), upright((6, 2), 252.0)], every_double_spins=True, image=_table())
    assert lower.problems == ["the layout reaches the edge of the picture ([2|6] at (13, 276)): it may go on beyond it, unseen"
                              " -- frame the whole layout"]


def test_read_board_asks_about_an_open_end_under_an_arm_and_not_about_one_on_bare_table() -> None:
    import cv2

    from scorer.layout import read_board

    line = [_detected((1, 4), 100.0), _detected((4, 6), 148.0), _detected((6, 2), 196.0)]
    table = _table()
    for d in line:  # ivory tiles on the felt
        cv2.fillConvexPoly(table, np.round(np.array(d.corners)).astype(np.int32), (200, 225, 235))
    bare = read_board(line, every_double_spins=True, image=table)
    assert bare.sure and bare.board.end_sum() == 3
    # An arm reaching over the table across the spot beyond the [6|2]'s open 2: the line may go on
    # under it, so the players are asked; the [1|4]'s open 1, on bare felt, is not named.
    arm = table.copy()
    cv2.line(arm, (280, 0), (260, 300), (90, 130, 190), 30)
    covered = read_board(line, every_double_spins=True, image=arm)
    assert covered.board == bare.board and not covered.sure
    assert covered.problems == ["the open end of [2|6] at (244, 112) is not bare table (something covers it): a tile may"
                                " lie there unseen -- please check it"]
    # Where the next tile would lie: its width (24 px) square from a quarter width past the end.
    assert bare.unseen_ends == [] and np.allclose(covered.unseen_ends, [(244 + 18, 112)], atol=0.5)
    # The annotated image marks the spot for the players, and only that spot.
    from scorer.layout.annotate import UNSEEN_END, annotate_board
    from scorer.rules import GAMES

    def marked(reading) -> np.ndarray:
        drawn = annotate_board(arm, line, reading.layout, reading.board, GAMES["horse-race"], unseen_ends=reading.unseen_ends)
        # Drawn smoothed: near its colour; above the picture's key (at its bottom), which shows the colour too where it is drawn.
        return np.all(np.abs(drawn.astype(int) - UNSEEN_END) < 60, axis=2)[: arm.shape[0] // 2]

    assert not marked(bare).any()
    ys, xs = np.nonzero(marked(covered))
    assert len(xs) and abs(xs.mean() - 262) < 8 and abs(ys.mean() - 112) < 8


def test_read_board_asks_about_a_tile_unread_between_loose_tiles_and_not_about_a_hand_laid_out() -> None:
    import cv2

    from scorer.layout import read_board

    # [5|2] [3|5] [3|3] in a line, the [3|5] between them not read (a blurred picture): the two read lie
    # loose, and nothing else says a tile is missing -- the spot beyond the [5|2]'s end does.
    ends = [_detected((5, 2), 100.0), _detected((3, 3), 196.0)]
    table = _table()
    for x in (100.0, 148.0, 196.0):
        cv2.rectangle(table, (int(x), 100), (int(x) + 47, 123), (200, 225, 235), -1)
    gap = read_board(ends, every_double_spins=True, image=table)
    assert gap.layout.component == [] and not gap.sure
    assert any("the open end of [2|5] at (148, 112) is not bare table" in p for p in gap.problems)
    # A hand laid out side by side, on bare felt but for the tiles themselves: nothing to ask.
    hand = [_detected(pips, 100.0, y) for pips, y in (((1, 2), 60.0), ((3, 4), 90.0), ((5, 6), 120.0))]
    felt = _table()
    for d in hand:
        cv2.fillConvexPoly(felt, np.round(np.array(d.corners)).astype(np.int32), (200, 225, 235))
    laid_out = read_board(hand, every_double_spins=True, image=felt)
    assert laid_out.sure, laid_out.problems
    # A loose tile's end against something that is not a tile (a score pad), no tile seen beyond it: nothing.
    pad = _table()
    two = [_detected((5, 2), 100.0), _detected((1, 3), 100.0, 130.0)]
    for d in two:
        cv2.fillConvexPoly(pad, np.round(np.array(d.corners)).astype(np.int32), (200, 225, 235))
    cv2.rectangle(pad, (152, 60), (230, 120), (245, 245, 245), -1)
    assert read_board(two, every_double_spins=True, image=pad).sure
    # The gap at the picture's edge, partly out of it: not judged (a hand laid out along the edge).
    edge = _table()
    for x in (100.0, 148.0, 196.0):
        cv2.rectangle(edge, (int(x), 0), (int(x) + 47, 19), (200, 225, 235), -1)
    assert read_board([_detected((5, 2), 100.0, -4.0), _detected((3, 3), 196.0, -4.0)], every_double_spins=True, image=edge).sure


def test_a_loose_tile_against_a_back_is_not_asked_about_when_other_boxes_overlap() -> None:
    import cv2

    from scorer.layout import read_board
    from scorer.vision.detector import TileDetection

    # A loose [1|2] and [5|6] with a back between them, end to end, and elsewhere two face-up boxes on one
    # tile (one is left out so the rest fits): the back is still a tile seen, so the gap holds no tile unread.
    back = TileDetection(((148.0, 100.0), (196.0, 100.0), (196.0, 124.0), (148.0, 124.0)), "down", 0.9)
    table = _table()
    for x in (100, 148, 196):
        cv2.rectangle(table, (x, 100), (x + 47, 123), (200, 225, 235), -1)
    loose = [_detected((1, 2), 100.0), _detected((5, 6), 196.0)]
    assert read_board([*loose, back], every_double_spins=True, image=table).sure
    pair = [_detected((3, 4), 100.0, 220.0), _detected((3, 4), 104.0, 220.0)]
    for d in pair[:1]:
        cv2.fillConvexPoly(table, np.round(np.array(d.corners)).astype(np.int32), (200, 225, 235))
    both = read_board([*loose, back, *pair], every_double_spins=True, image=table)
    assert not any("not bare table" in p for p in both.problems), both.problems


def test_a_picture_in_which_no_tile_is_read_surely_is_not_an_empty_table() -> None:
    import cv2

    from scorer.layout import read_board
    from scorer.layout.reading import NOTHING_READ

    # A lit table on which nothing was found (a blurred or far picture of tiles): the players are asked.
    empty = read_board([], every_double_spins=True, image=_table())
    assert empty.problems == [NOTHING_READ] and not empty.sure
    unsure = read_board([_detected((5, 2), 100.0, confidences=(0.5, 0.5))], every_double_spins=True, image=_table())
    assert NOTHING_READ in unsure.problems
    # One tile read surely: the picture shows its tiles.
    assert NOTHING_READ not in read_board([_detected((5, 2), 100.0)], every_double_spins=True, image=_table()).problems
    # Without the picture, nothing is known of it.
    assert read_board([], every_double_spins=True).sure
    # A move whose tiles are read unsurely but settled by the board before: nothing to ask.
    from scorer.layout import read_move

    laid = [_detected((1, 4), 100.0, confidences=(0.5, 0.99)), _detected((4, 6), 148.0, confidences=(0.5, 0.99))]
    table = _table()
    for d in laid:
        cv2.fillConvexPoly(table, np.round(np.array(d.corners)).astype(np.int32), (200, 225, 235))
    move = read_move(Board(True).place(Tile(1, 4)), laid, image=table)
    assert [p.tile for p in move.change.placements] == [Tile(4, 6)] and move.sure, move.problems


def test_read_board_leaves_out_the_one_overlapping_box_without_which_the_layout_fits() -> None:
    from scorer.layout import read_board

    # A second box on the [4|6], 10 px off across it (the two overlap like no two tiles can): with it
    # the layout has the [4|6] twice; without it, it fits together.
    line = [_detected((1, 4), 0.0), _detected((4, 6), 48.0), _detected((6, 2), 96.0)]
    reading = read_board([*line, _detected((4, 6), 48.0, 110.0)], every_double_spins=True)
    assert reading.sure and sorted(reading.board.tiles) == [Tile(1, 4), Tile(2, 6), Tile(4, 6)]
    assert any("the box at (72, 122) read as [4|6] is left out" in n for n in reading.notes)
    # At the end of the line, a box 4 px off read [4|3] fits as well as the [4|6] does: which one
    # lies there the image cannot tell, so the players are asked.
    either = read_board([_detected((1, 4), 0.0), _detected((4, 6), 48.0), _detected((4, 3), 52.0)], every_double_spins=True)
    assert not either.sure and not any("left out" in n for n in either.notes)


def _back(corners):
    from scorer.vision.detector import TileDetection

    return TileDetection(tuple(corners), "down", 0.9)


def test_read_board_takes_a_back_lying_in_the_layout_as_the_double_blank_and_asks() -> None:
    from scorer.layout import read_board

    # [3|0] [0|0 crosswise] [0|5]: a blank face whose divider hardly shows, taken by the detector for a back.
    line = [_detected((3, 0), 0.0), _detected((0, 5), 72.0)]
    crosswise = _back(((48.0, 88.0), (48.0, 136.0), (72.0, 136.0), (72.0, 88.0)))
    reading = read_board([*line, crosswise], every_double_spins=True)
    assert sorted(reading.board.tiles) == [Tile(0, 0), Tile(0, 3), Tile(0, 5)] and reading.board.end_sum() == 8
    assert any("(60, 112) looks face down" in p and "taken as [0|0]" in p for p in reading.problems)
    # Without it the two tiles lie apart: no layout.
    assert not read_board(line, every_double_spins=True).board.tiles


def test_read_board_leaves_a_back_near_a_blank_end_alone() -> None:
    from scorer.layout import read_board

    line = [_detected((3, 6), 0.0), _detected((6, 0), 48.0)]
    # Turned 30 degrees and 8 px off where a crosswise double would lie: a back pushed near the end.
    c, s = math.cos(math.radians(30)), math.sin(math.radians(30))
    corners = [(108.0 + c * dx - s * dy, 120.0 + s * dx + c * dy) for dx, dy in ((-12, -24), (-12, 24), (12, 24), (12, -24))]
    near = read_board([*line, _back(corners)], every_double_spins=True)
    assert sorted(near.board.tiles) == [Tile(0, 6), Tile(3, 6)] and not any("face down" in p for p in near.problems)
    # Lying exactly as a double would, but the double blank is seen face up elsewhere: a set holds one.
    exact = _back(((96.0, 88.0), (96.0, 136.0), (120.0, 136.0), (120.0, 88.0)))
    assert len(read_board([*line, exact], every_double_spins=True).board.tiles) == 3
    elsewhere = read_board([*line, exact, _detected((0, 0), 300.0, 250.0)], every_double_spins=True)
    assert sorted(elsewhere.board.tiles) == [Tile(0, 6), Tile(3, 6)]


def test_read_board_settles_a_crosswise_double_read_unsurely_by_the_tile_joined_to_its_long_side() -> None:
    from scorer.layout import read_board
    from scorer.vision.detector import HalfReading, TileDetection

    def double(v, corners, confidence):
        (x0, y0), (x1, y1) = corners[0], corners[2]
        cx = (x0 + x1) / 2
        halves = (HalfReading(v, (cx, min(y0, y1) + 12), confidence), HalfReading(v, (cx, max(y0, y1) - 12), confidence))
        return TileDetection(tuple(corners), "up", 0.9, halves)

    # [3|5] [5|5 crosswise, read at 0.6] [5|1]: only a double takes a tile at the middle of its long
    # side, and the 5s read surely there give its pips.
    line = [_detected((3, 5), 0.0), _detected((5, 1), 72.0)]
    crosswise = double(5, ((48.0, 88.0), (48.0, 136.0), (72.0, 136.0), (72.0, 88.0)), 0.6)
    settled = read_board([*line, crosswise], every_double_spins=True)
    assert settled.sure and sorted(settled.board.tiles) == [Tile(1, 5), Tile(3, 5), Tile(5, 5)]
    # The same double laid lengthwise in the line ([3|5][5|5][5|1] end to end): taken as crosswise for
    # the graph, but that it is a double rests on its reading alone -- asked.
    lengthwise = TileDetection(((48.0, 100.0), (96.0, 100.0), (96.0, 124.0), (48.0, 124.0)), "up", 0.9,
                               (HalfReading(5, (60.0, 112.0), 0.6), HalfReading(5, (84.0, 112.0), 0.6)))
    asked = read_board([_detected((3, 5), 0.0), lengthwise, _detected((5, 1), 96.0)], every_double_spins=True)
    assert sorted(asked.board.tiles) == [Tile(1, 5), Tile(3, 5), Tile(5, 5)]
    assert any("read uncertainly as [5|5]" in p for p in asked.problems)


def test_read_board_reads_a_washed_out_tile_in_a_line_as_its_neighbours_show_it_and_asks() -> None:
    from scorer.layout import read_board
    from scorer.vision.detector import HalfReading, TileDetection

    # [1|4][4|6][6|2][2|3][3|5] with the [6|2] washed out by glare: read [5|5] at 0.1, neither true
    # count among the reader's runner-ups.  Its neighbours show a 6 and a 2 where it meets them.
    washed = TileDetection(((96.0, 100.0), (144.0, 100.0), (144.0, 124.0), (96.0, 124.0)), "up", 0.9,
                           (HalfReading(5, (108.0, 112.0), 0.1, ((0, 0.09),)), HalfReading(5, (132.0, 112.0), 0.1, ((3, 0.09),))))
    line = [_detected((1, 4), 0.0), _detected((4, 6), 48.0), washed, _detected((2, 3), 144.0), _detected((3, 5), 192.0)]
    reading = read_board(line, every_double_spins=True)
    assert sorted(reading.board.tiles) == [Tile(1, 4), Tile(2, 3), Tile(2, 6), Tile(3, 5), Tile(4, 6)]
    assert any("read as [5|5] is taken as [2|6]" in n for n in reading.notes)
    # Still the players' to confirm (no count read on either half: no reading to name).
    assert "the pips of the tile at (120, 112) cannot be read (they do not show): please check it" in reading.problems
    # With a 6 and a 2 its halves' runner-ups, [6|5] and [5|2] come to the same table (the other half
    # then read again at its join): one reading, not three that do as well.
    runner_up = replace(washed, halves=(replace(washed.halves[0], alternatives=((6, 0.09),)), replace(washed.halves[1], alternatives=((2, 0.09),))))
    again = read_board([*line[:2], runner_up, *line[3:]], every_double_spins=True)
    assert sorted(again.board.tiles) == sorted(reading.board.tiles)


def test_the_readings_the_joins_imply() -> None:
    from scorer.layout.reread import readings_the_joins_imply

    # Between two tiles: both halves.
    def implied(tiles, i):  # (as tiles: which half is the tile's first depends on its corners)
        return {Tile.of(*pips) for pips in readings_the_joins_imply(tiles, i)}

    line = [tile_at(1, 4, 0, 0), tile_at(5, 5, L, 0), tile_at(2, 3, 2 * L, 0)]
    assert implied(line, 1) == {Tile(2, 4)}
    # At the end of a line, one half met: nothing (a box on bare table beside an open end would join so).
    assert implied(line, 2) == set() and implied(line[:2], 1) == set()
    # Laid crosswise, with tiles meeting both long sides showing one value: the double of that value.
    cross = [tile_at(1, 3, 0, 0), tile_at(2, 4, L / 2 + W / 2, 0, 90), tile_at(3, 6, L + W, 0)]
    assert implied(cross, 1) == {Tile(3, 3)}


def test_read_board_reads_a_crosswise_double_read_as_no_double_as_the_tiles_at_its_long_sides_show_it() -> None:
    from scorer.layout import read_board
    from scorer.vision.detector import HalfReading, TileDetection

    # [4|1][1|3] [3|3 crosswise] [3|6][6|2], the double read [5|2] at 0.1 (no 3 among its runner-ups): as
    # no double it takes no tile at its long sides, and the line falls in two; the tiles there both show a 3.
    washed = TileDetection(((96.0, 88.0), (96.0, 136.0), (120.0, 136.0), (120.0, 88.0)), "up", 0.9,
                           (HalfReading(5, (108.0, 100.0), 0.1), HalfReading(2, (108.0, 124.0), 0.1)))
    line = [_detected((4, 1), 0.0), _detected((1, 3), 48.0), washed, _detected((3, 6), 120.0), _detected((6, 2), 168.0)]
    reading = read_board(line, every_double_spins=True)
    assert sorted(reading.board.tiles) == [Tile(1, 3), Tile(1, 4), Tile(2, 6), Tile(3, 3), Tile(3, 6)]
    assert reading.board.spinners == (Tile(3, 3),)
    assert not reading.sure  # (the players still confirm it)


def test_tiles_beyond_one_the_rules_keep_off_the_board_are_said_to_follow_from_it() -> None:
    # A branch off [2|2] before its line's other side ([2|6]), and [6|1] beyond it: the [6|1] is not "not on the board"
    # but joined to a tile the rules kept off.
    spinner = tile_at(2, 2, 0, 0, 90)
    left = tile_at(5, 2, -W / 2 - L / 2 - 0.5, 0)
    up = tile_at(2, 6, 0, -L, -90)
    beyond = tile_at(6, 1, 0, -2 * L - 0.5, -90)
    _, problems = board_of([spinner, left, up, beyond])
    assert any("branch is used before both line sides" in p for p in problems)
    assert any(p.startswith("[1|6] at") and p.endswith("joined to [2|6], which the rules kept off the board (above)") for p in problems)
    assert not any("is not on the board" in p for p in problems)


def test_which_double_spins_in_seven_rocks_is_a_note_where_the_picture_cannot_tell() -> None:
    from scorer.layout.reading import spinner_untold

    def untold(tiles: list[SeenTile]) -> str | None:
        layout = reconstruct(tiles)
        return spinner_untold(to_board(layout, False)[0], layout)

    # [2|2] [2|5] [5|5] in a line: either double may have come first (Seven Rocks: only the first spins).
    line = [tile_at(2, 2, 0, 0, 90), tile_at(2, 5, W / 2 + L / 2 + 0.5, 0), tile_at(5, 5, W + L + 1.0, 0, 90)]
    assert untold(line) == "which double spins (the round's first) cannot be told from the picture: [2|2], [5|5] -- taken as [2|2]"
    # Horse Race (every double spins), or one double: nothing to tell.
    layout = reconstruct(line)
    assert spinner_untold(to_board(layout, True)[0], layout) is None
    assert untold(line[:2]) is None
    # A double with a branch is the spinner -- also where the rules refused the branch (its line's other side empty).
    branched = [*line, tile_at(2, 6, 0, -L, -90)]
    assert any("both line sides" in p for p in board_of(branched, False)[1]) and untold(branched) is None
