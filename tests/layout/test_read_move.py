"""The move read from one image with the board before known (``read_move``): hand-made tables."""

from __future__ import annotations

from scorer.layout import read_board, read_move
from scorer.rules import Board, Side, Tile
from scorer.vision.detector import HalfReading, TileDetection


def tile(pips, x, y=100.0, first=0.99, second=0.99, others=((), ())):
    """A face-up tile lying along the x axis from (x, y), 48 x 24 px; each half read at ``first`` / ``second``."""
    corners = ((x, y), (x + 48.0, y), (x + 48.0, y + 24.0), (x, y + 24.0))
    halves = (HalfReading(pips[0], (x + 12, y + 12), first, others[0]), HalfReading(pips[1], (x + 36, y + 12), second, others[1]))
    return TileDetection(corners, "up", 0.9, halves)


# [1|4][4|6][6|2] in a line from x = 0, each 48 px long; the move lays [2|3] on the 2 at x = 144.
BEFORE = Board.replayed(True, Tile(1, 4), [(Tile(1, 4), Side.HIGH, Tile(4, 6)), (Tile(4, 6), Side.HIGH, Tile(2, 6))])
NEW = tile((2, 3), 144.0)


def test_the_new_tile_and_the_free_point_it_was_laid_at() -> None:
    move = read_move(BEFORE, [tile((1, 4), 0.0), tile((4, 6), 48.0), tile((6, 2), 96.0), NEW])
    assert move.sure
    (placed,) = move.change.placements
    assert placed.tile == Tile(2, 3) and placed.at == BEFORE.point(Tile(2, 6), Side.LOW)
    assert move.change.board.end_sum() == 1 + 3


def test_a_played_tile_read_unsurely_does_not_hide_the_move() -> None:
    # The [1|4]'s open 1 read at 0.3: one image alone asks about it, yet the board before holds it.
    table = [tile((1, 4), 0.0, first=0.3), tile((4, 6), 48.0), tile((6, 2), 96.0), NEW]
    assert not read_board(table, every_double_spins=True).sure
    move = read_move(BEFORE, table)
    assert move.sure and [p.tile for p in move.change.placements] == [Tile(2, 3)]


def test_a_played_tile_missed_cuts_the_layout_yet_the_move_is_named_and_asked_about() -> None:
    # The [4|6] not found: [1|4] lies alone, [6|2][2|3] is a piece of its own.  The piece holds a
    # played tile, so it is the layout: the move is named -- and the missing tile reported.
    move = read_move(BEFORE, [tile((1, 4), 0.0), tile((6, 2), 96.0), NEW])
    assert [p.tile for p in move.change.placements] == [Tile(2, 3)] and move.change.board.end_sum() == 4
    assert not move.sure and any("[4|6] was on the table and is not seen" in p for p in move.problems)


def test_the_new_tile_read_unsurely_is_asked_about() -> None:
    move = read_move(BEFORE, [tile((1, 4), 0.0), tile((4, 6), 48.0), tile((6, 2), 96.0), tile((2, 3), 144.0, second=0.5)])
    assert [p.tile for p in move.change.placements] == [Tile(2, 3)]
    assert move.problems == ["the tile at (168, 112) is read uncertainly as [2|3] (0.50): please check it"]


def test_a_played_tile_misread_unsurely_is_read_again_as_the_played_tile_seen_nowhere_else() -> None:
    # The [4|6] read unsurely as [4|5]: its 5 meets the [6|2]'s 6, so the line falls in two pieces.
    # Read as the [4|6] the board before holds (and the table shows nowhere else), the table fits.
    table = [tile((1, 4), 0.0), tile((4, 5), 48.0, second=0.4), tile((6, 2), 96.0), NEW]
    move = read_move(BEFORE, table)
    assert move.sure and [p.tile for p in move.change.placements] == [Tile(2, 3)]
    assert any("read as [4|5] is taken as [4|6]" in n for n in move.notes)
    # Read surely as [4|5], it is not explained away: a tile seen where the board holds another is asked about.
    sure = read_move(BEFORE, [tile((1, 4), 0.0), tile((4, 5), 48.0), tile((6, 2), 96.0), NEW])
    assert not sure.sure and any("[4|6] was on the table and is not seen" in p for p in sure.problems)


def test_the_new_tile_read_again_to_fit_is_asked_about() -> None:
    # The new tile read unsurely as [1|3] -- its runner-up for the first half a 2, which fits the free 2.
    new = tile((1, 3), 144.0, first=0.5, others=(((2, 0.3),), ()))
    move = read_move(BEFORE, [tile((1, 4), 0.0), tile((4, 6), 48.0), tile((6, 2), 96.0), new])
    assert [p.tile for p in move.change.placements] == [Tile(2, 3)]
    assert not move.sure


def test_no_new_tile_seen_asks_about_whatever_one_image_would() -> None:
    # Nothing new joined, and a tile read unsurely that may be the new one misread.
    table = [tile((1, 4), 0.0), tile((4, 6), 48.0), tile((6, 2), 96.0), tile((5, 5), 300.0, 300.0, first=0.4)]
    move = read_move(BEFORE, table)
    assert move.change.placements == [] and not move.sure
    assert any("(324, 312) is read uncertainly" in p for p in move.problems)


def test_the_opening_tile_on_an_empty_board() -> None:
    move = read_move(Board(True), [tile((5, 5), 0.0)])
    assert move.sure and [p.tile for p in move.change.placements] == [Tile(5, 5)] and move.change.board.end_sum() == 10


def test_a_new_tile_read_unsurely_as_a_played_one_is_read_again_and_asked_about() -> None:
    # The new tile read unsurely as [2|6] -- a tile the board already holds -- its 3 the runner-up.
    new = tile((2, 6), 144.0, second=0.5, others=((), ((3, 0.4),)))
    move = read_move(BEFORE, [tile((1, 4), 0.0), tile((4, 6), 48.0), tile((6, 2), 96.0), new])
    assert [p.tile for p in move.change.placements] == [Tile(2, 3)] and move.change.board.end_sum() == 4
    assert move.problems == ["the tile at (168, 112) is read uncertainly as [2|6] (0.50): please check it"]
    assert any("read as [2|6] is taken as [2|3]" in n for n in move.notes)


def test_one_image_alone_takes_the_reading_that_fits_yet_still_asks() -> None:
    # read_board: the tile at x = 144 read unsurely as [2|6], which the line already holds; its 6's
    # runner-up, a 3, makes the layout fit -- so the board shows [2|3], and the players are asked.
    table = [tile((1, 4), 0.0), tile((4, 6), 48.0), tile((6, 2), 96.0), tile((2, 6), 144.0, second=0.5, others=((), ((3, 0.4),)))]
    reading = read_board(table, every_double_spins=True)
    assert sorted(reading.board.tiles) == [Tile(1, 4), Tile(2, 3), Tile(2, 6), Tile(4, 6)] and reading.board.end_sum() == 4
    assert any("read as [2|6] is taken as [2|3]: so the layout fits together" in n for n in reading.notes)
    assert reading.problems == ["the tile at (168, 112) is read uncertainly as [2|6] (0.50): please check it"]


# Tiles a few pixels long come with boxes a few pixels off: the [2|6] opened, [4|6] laid on its 6, and
# the first tile's box too long by a quarter, so the two overlap instead of meeting (joined only loosely).
OPENED = Board.replayed(True, Tile(2, 6), [])


def _small_far_table(second_tile_sure: bool) -> list[TileDetection]:
    # The [2|6] misread as [5|6] (its 2 a runner-up, as likely as the 5); the [4|6] read with its 6 first.
    opening = tile((5, 6), 0.0, first=0.17, second=0.33, others=(((2, 0.17),), ()))
    laid = tile((6, 4), 36.0, second=0.99 if second_tile_sure else 0.85)
    return [opening, laid]


def test_on_a_board_of_one_tile_the_tile_read_as_it_is_the_layout_and_the_move_joins_it_loosely() -> None:
    move = read_move(OPENED, _small_far_table(second_tile_sure=True))
    (placed,) = move.change.placements
    assert placed.tile == Tile(4, 6) and placed.at == OPENED.point(Tile(2, 6), Side.HIGH)
    # (The played tile needs no sure reading -- the board holds it; the new one is read surely.)
    assert move.sure and move.notes == ["the tile at (24, 112) read as [5|6] is taken as [2|6]: so the table fits the board before"]


def test_of_two_readings_again_that_fit_as_well_the_far_likelier_one_is_taken() -> None:
    # The [4|6] unsure too: read as the [2|6] (a 2 for its 4, which the reader never gave) it would
    # make the first tile a [5|6] laid on it -- as good a fit, a hundred times less likely.
    move = read_move(OPENED, _small_far_table(second_tile_sure=False))
    assert [p.tile for p in move.change.placements] == [Tile(4, 6)] and not move.sure


def test_a_reading_that_shows_no_move_is_read_again_where_another_shows_one() -> None:
    # The [2|6] read as a [6|2] turned round (the reader torn between the two ways): so read, the table
    # is the board before with nothing laid; turned the other way, the [4|6] beside it is the move.
    torn = tile((6, 2), 0.0, first=0.3, second=0.3, others=(((2, 0.3),), ((6, 0.3),)))
    move = read_move(OPENED, [torn, tile((6, 4), 36.0)])
    assert [p.tile for p in move.change.placements] == [Tile(4, 6)]


def test_a_new_tile_whose_pips_show_on_neither_half_is_asked_about_as_such() -> None:
    # A face taken for a back but lying in the layout (scorer.vision.plain_backs): every count as likely.
    corners = ((144.0, 100.0), (192.0, 100.0), (192.0, 124.0), (144.0, 124.0))
    no_count = TileDetection(corners, "up", 0.9, (HalfReading.no_count((156.0, 112.0)), HalfReading.no_count((180.0, 112.0))))
    move = read_move(BEFORE, [tile((1, 4), 0.0), tile((4, 6), 48.0), tile((6, 2), 96.0), no_count])
    assert not move.sure
    assert "the pips of the tile at (168, 112) cannot be read (they do not show): please check it" in move.problems
    assert not any("read uncertainly" in p for p in move.problems)  # (no made-up reading named)


def test_a_picture_of_another_table_is_asked_about_first() -> None:
    # The board before held [1|4][4|6][6|2]; the picture shows none of them, only [3|5][5|5] elsewhere.
    other = [tile((3, 5), 300.0), tile((5, 5), 348.0)]
    move = read_move(BEFORE, other)
    assert not move.sure
    assert move.problems[0] == "most of the board before is not seen (0 of its 3 tiles): is this the same table, seen whole?"
    # Two of the three seen: a tile taken away or covered is said as before, not as another table.
    moved = read_move(BEFORE, [tile((1, 4), 0.0), tile((4, 6), 48.0), NEW])
    assert not any("same table" in p for p in moved.problems)
