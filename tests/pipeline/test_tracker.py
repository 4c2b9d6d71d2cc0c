"""Tiles followed from one still table to the next."""

from __future__ import annotations

from dataclasses import replace

from scorer.pipeline.tracker import Tracker
from scorer.rules import Tile
from scorer.vision.detector import HalfReading, TileDetection


def _box(x: float, first: tuple[int, float], second: tuple[int, float], y: float = 100.0) -> TileDetection:
    corners = ((x, y), (x + 48, y), (x + 48, y + 24), (x, y + 24))
    return TileDetection(corners, "up", 0.9, (HalfReading(first[0], (x + 12, y + 12), first[1]), HalfReading(second[0], (x + 36, y + 12), second[1])))


def test_a_reading_repeated_grows_sure_but_a_half_read_as_no_count_does_not() -> None:
    tracker = Tracker()
    for _ in range(3):
        (glared,), _ = tracker.update([_box(100, (3, 0.6), (4, 0.97))])
    assert glared.certain  # read alike three times: the vote makes it sure
    tracker = Tracker()
    for _ in range(3):
        (half_off,), _ = tracker.update([_box(100, (2, 0.05), (3, 0.8))])
    # The box's first end lies off the tile: the reader sees no count there, however often it looks.
    assert not half_off.certain and half_off.halves is not None and half_off.halves[0].unread
    assert half_off.halves[1].confidence == 1.0


def test_a_face_with_no_count_read_casts_no_vote() -> None:
    # Pips washed out: its reading (a placeholder 0 on each half) is no evidence of any tile.
    no_count = TileDetection(_box(100, (0, 0.1), (0, 0.1)).corners, "up", 0.9,
                             (HalfReading.no_count((112, 112)), HalfReading.no_count((136, 112))))
    tracker = Tracker()
    for _ in range(4):
        (seen,), _ = tracker.update([no_count])
        assert seen == no_count  # (nothing read in any look: passed on as it is, asked about)
    tracker = Tracker()
    tracker.update([_box(100, (2, 0.99), (3, 0.99))])
    for _ in range(4):
        (followed,), _ = tracker.update([no_count])
    # The tile read surely as [2|3] before the glare came stays [2|3], its halves still unread.
    assert Tile.of(*followed.pips) == Tile(2, 3) and not followed.certain


def test_a_plain_box_that_may_be_a_back_grows_no_surer_however_often_it_is_read() -> None:
    tracker = Tracker()
    plain = replace(_box(100, (0, 0.5), (0, 0.5)), maybe_back=True)
    for _ in range(4):
        (voted,), _ = tracker.update([plain])
    assert voted.pips == (0, 0) and voted.maybe_back and not voted.certain


def test_a_tile_read_surely_and_missed_when_a_still_table_is_read_again_is_kept_until_the_table_moves() -> None:
    tracker = Tracker()
    a, b, stray = _box(100, (1, 0.99), (3, 0.99)), _box(148, (3, 0.99), (5, 0.95)), _box(300, (2, 0.5), (6, 0.6))
    tracker.update([a, b, stray])
    kept, _ = tracker.update([a], same_table=True)
    # (A box never read surely and gone in the next look was most likely on no tile.)
    assert sorted(Tile.of(*d.pips) for d in kept) == [Tile(1, 3), Tile(3, 5)]
    moved, _ = tracker.update([a])
    assert [Tile.of(*d.pips) for d in moved] == [Tile(1, 3)]



def test_a_tile_a_person_names_is_turned_so_that_the_value_it_shares_meets_the_tile_it_was_laid_against() -> None:
    # [3|6] lies with its 6 at x = 148; the new tile beside it is a [5|6] misread as [5|4] -- its 6 (at the
    # join) read 5 and its 5 read 4 -- so by agreement alone the 5 would go on the half at the join.
    tracker = Tracker()
    laid, misread = _box(100, (3, 0.99), (6, 0.99)), _box(148, (5, 0.5), (4, 0.5))
    tracker.update([laid, misread])
    assert tracker.correct(misread.center, Tile(5, 6), against=Tile(3, 6))
    (_, turned), _ = tracker.update([laid, misread], same_table=True)
    assert turned.pips == (6, 5) and turned.certain
    # Named without the tile it was laid against (the first tile), the halves keep the agreement.
    tracker = Tracker()
    tracker.update([misread])
    tracker.correct(misread.center, Tile(5, 6))
    (kept,), _ = tracker.update([misread], same_table=True)
    assert kept.pips == (5, 6)
