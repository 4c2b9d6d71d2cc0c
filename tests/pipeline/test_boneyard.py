"""The boneyard followed place by place: a draw is a face-down tile gone from where it lay."""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from scorer.pipeline.boneyard import Boneyard
from scorer.pipeline.places import table_grey


def _box(x: float, y: float, w: float = 24.0, h: float = 48.0) -> np.ndarray:
    return np.array([(x, y), (x + w, y), (x + w, y + h), (x, y + h)], np.float64)


def _table(tiles: list[np.ndarray], light: float = 1.0, seed: int = 0) -> np.ndarray:
    """A mottled table (grey about 190) with plain white backs lying on it side by side, each with
    dark shaded sides (which are most of what a picture of a row of backs shows)."""
    rng = np.random.default_rng(seed)
    image = cv2_blur(rng.normal(190, 10, (200, 300)))
    for c in tiles:
        (x0, y0), (x1, y1) = c[0].astype(int), c[2].astype(int)
        image[y0:y1, x0:x1] = 235
        image[y0:y1, x0 : x0 + 3] = 60
        image[y1 - 3 : y1, x0:x1] = 60
    image = np.clip(image * light, 0, 255).astype(np.uint8)
    return table_grey(np.dstack([image] * 3))


def cv2_blur(a: np.ndarray) -> np.ndarray:
    import cv2

    return cv2.GaussianBlur(a.astype(np.float32), (0, 0), 3.0)


def test_a_back_taken_from_a_row_of_backs_is_a_draw_even_as_the_light_changes() -> None:
    row = [_box(40 + 26 * k, 80) for k in range(5)] + [_box(40 + 26 * k, 130) for k in range(5)]
    boneyard = Boneyard()
    boneyard.reset(row, _table(row))
    # The middle-right back of the first row is taken; the light drops 8 % at the same time.  Its place is mostly
    # unchanged neighbours in a grown box, but its inside went from white to table.
    left = row[:3] + row[4:]
    assert boneyard.update(left, _table(left, light=0.92)) == 1
    assert len(boneyard) == 9


def test_a_back_missed_by_the_detector_on_an_unchanged_table_is_no_draw() -> None:
    row = [_box(40 + 26 * k, 80) for k in range(5)]
    boneyard = Boneyard()
    boneyard.reset(row, _table(row))
    # The detector misses one back; the table looks the same, only lighter.
    assert boneyard.update(row[:2] + row[3:], _table(row, light=1.1)) == 0
    assert len(boneyard) == 5


def _cloth(tiles: list[np.ndarray]) -> np.ndarray:
    """A pinkish cloth with pale yellow backs on it: nearly one grey, plainly two colours (BGR)."""
    image = np.zeros((200, 300, 3), np.float32)
    image[:] = (235, 205, 235)
    for c in tiles:
        (x0, y0), (x1, y1) = c[0].astype(int), c[2].astype(int)
        image[y0:y1, x0:x1] = (150, 235, 235)
        image[y0:y1, x0 : x0 + 3] = 60
        image[y1 - 3 : y1, x0:x1] = 60
    return image.astype(np.uint8)


def test_a_back_taken_off_a_cloth_of_its_grey_is_seen_in_colour() -> None:
    from scorer.pipeline.places import table_colour

    row = [_box(40 + 26 * k, 80) for k in range(5)] + [_box(40 + 26 * k, 130) for k in range(5)]
    left = row[:3] + row[4:]
    before, after = _cloth(row), _cloth(left)
    boneyard = Boneyard()
    boneyard.reset(row, table_grey(before), table_colour(before))
    assert boneyard.update(left, table_grey(after), table_colour(after)) == 1
    # In grey too: its own dark sides are gone, and its neighbours' sides, the same in both
    # pictures, are left out of its place.
    grey_only = Boneyard()
    grey_only.reset(row, table_grey(before))
    assert grey_only.update(left, table_grey(after)) == 1


def test_a_back_of_the_cloths_very_grey_and_without_sides_is_seen_only_in_colour() -> None:
    from scorer.pipeline.places import table_colour

    def picture(tiles: list[np.ndarray]) -> np.ndarray:
        image = np.zeros((200, 300, 3), np.uint8)
        image[:] = (235, 205, 235)
        for c in tiles:
            (x0, y0), (x1, y1) = c[0].astype(int), c[2].astype(int)
            image[y0:y1, x0:x1] = (150, 235, 208)  # (BGR) one grey with the cloth
        return image

    row = [_box(40 + 26 * k, 80) for k in range(5)]
    left = row[:2] + row[3:]
    before, after = picture(row), picture(left)
    boneyard = Boneyard()
    boneyard.reset(row, table_grey(before), table_colour(before))
    assert boneyard.update(left, table_grey(after), table_colour(after)) == 1
    grey_only = Boneyard()
    grey_only.reset(row, table_grey(before))
    assert grey_only.update(left, table_grey(after)) == 0


def _pale_table(plain: list[np.ndarray], faint: list[np.ndarray], light: float = 1.0, seed: int = 0) -> np.ndarray:
    """A white table under a bright lamp: backs with shaded sides (``plain``) and backs whose side
    barely shows (``faint``), as an overexposed webcam sees them; ``seed``: the camera's noise."""
    rng = np.random.default_rng(seed)
    image = 236 + rng.normal(0, 0.6, (200, 300))
    for c in faint:
        (x0, y0), (x1, y1) = c[0].astype(int), c[2].astype(int)
        image[y0:y1, x0 : x0 + 3] = 226
    for c in plain:
        (x0, y0), (x1, y1) = c[0].astype(int), c[2].astype(int)
        image[y0:y1, x0 : x0 + 3] = 200
        image[y0 : y0 + 3, x0:x1] = 215
    image = np.clip(image * light, 0, 255).astype(np.uint8)
    return table_grey(np.dstack([image] * 3))


def _faint_row_over_a_plain_one() -> tuple[list[np.ndarray], list[np.ndarray], Boneyard]:
    """Two rows of three backs a few pixels apart, the upper row barely visible, as dealt."""
    faint = [_box(40 + 30 * k, 80) for k in range(3)]
    plain = [_box(40 + 30 * k, 134) for k in range(3)]
    boneyard = Boneyard()
    boneyard.reset(faint + plain, _pale_table(plain, faint))
    return faint, plain, boneyard


def test_a_faint_back_washed_out_as_the_camera_brightens_is_no_draw() -> None:
    faint, plain, boneyard = _faint_row_over_a_plain_one()
    # The exposure rises by 13 %: the table saturates, the faint backs vanish (the detector sees only the
    # plain ones, which lost some of their contrast).
    assert boneyard.update(plain, _pale_table(plain, faint, light=1.13, seed=1)) == 0
    assert len(boneyard) == 6


def test_a_faint_back_taken_under_a_steady_light_is_a_draw() -> None:
    faint, plain, boneyard = _faint_row_over_a_plain_one()
    # The light is as it was, and the plain backs look as they did: the faint one whose side is gone was taken.
    assert boneyard.update(plain, _pale_table(plain, faint[1:], seed=1)) == 1
    assert len(boneyard) == 5


def test_a_back_taken_from_beside_a_faint_one_is_one_draw() -> None:
    # One plain back is taken and the detector sees none of the faint row.  The plain back's edges
    # were inside the faint one's grown place above it -- at one end of it.
    faint, plain, boneyard = _faint_row_over_a_plain_one()
    assert boneyard.update(plain[1:], _pale_table(plain[1:], faint, seed=1)) == 1
    assert len(boneyard) == 5


def test_a_slot_over_the_layouts_tiles_was_never_a_back() -> None:
    # A box straddling two touching layout tiles was once taken for a back; when it is gone, and
    # the layout's tiles lie there, that is no draw -- even though the place's shade changed.
    row = [_box(40 + 26 * k, 80) for k in range(5)]
    straddle = _box(200, 80, 24, 48)
    layout = [_box(187, 80), _box(213, 80)]
    boneyard = Boneyard()
    boneyard.reset(row + [straddle], _table(row))
    assert boneyard.update(row, _table(row + layout), played=layout) == 0
    assert len(boneyard) == 5


def test_boxes_closer_than_two_backs_can_lie_are_one_tile() -> None:
    from scorer.pipeline.boneyard import _distinct

    # A box straddling a back and its neighbour, 0.7 of a width off the back (too little overlap
    # to call them one box by area), goes with the back; two backs side by side are two.
    assert _distinct([_box(100, 80), _box(117, 80)]) == 1
    assert _distinct([_box(100, 80), _box(126, 80)]) == 2
    # A straddling box squeezed to 0.8 of a back's width, 0.66 of a width off it (a far camera's
    # 31 px backs): one tile, not two -- counted as two, a draw of three was taken for four.
    assert _distinct([_box(100, 80), _box(100 + 12 + 15.8 - 9.6, 80, w=19.2)]) == 1
    assert _distinct([_box(100, 80), _box(124.5, 80, w=19.2)]) == 2


def test_a_back_missed_beside_a_taken_one_is_still_there() -> None:
    # The 4th back is taken and the 5th, beside it, is missed by the detector this time: the 5th's
    # surroundings changed (its neighbour is gone), not the 5th itself -- one draw, not two.
    row = [_box(40 + 26 * k, 80) for k in range(5)] + [_box(40 + 26 * k, 130) for k in range(5)]
    boneyard = Boneyard()
    boneyard.reset(row, _table(row))
    left = row[:3] + row[4:]
    seen = row[:3] + row[5:]
    assert boneyard.update(seen, _table(left)) == 1
    assert len(boneyard) == 9


def test_a_back_seen_far_from_the_heap_mid_round_is_not_of_the_boneyard() -> None:
    row = [_box(20 + 26 * k, 80) for k in range(3)]
    boneyard = Boneyard()
    boneyard.reset(row, _table(row))
    # A glare spot on the far side of the table is taken for a back (it comes and goes with the
    # light): it never joins the boneyard, so its going is no draw.
    glare = _box(250, 20)
    assert boneyard.update([*row, glare], _table(row, seed=1)) == 0 and len(boneyard) == 3
    assert boneyard.update(row, _table(row, seed=2)) == 0 and len(boneyard) == 3
    # A back nudged a little way off the heap is still one of it.
    nudged = _box(20 + 26 * 3 + 10, 84)
    moved = row[:2] + [nudged]
    assert boneyard.update(moved, _table(moved)) == 0 and len(boneyard) == 3


def test_a_back_lying_alone_away_from_the_dealt_heap_is_not_of_the_boneyard() -> None:
    row = [_box(20 + 26 * k, 80) for k in range(3)]
    glare = _box(250, 20)
    boneyard = Boneyard()
    boneyard.reset([*row, glare], _table(row))
    assert len(boneyard) == 3
    # Gone with the light, it is no draw; the heap's backs are followed as ever.
    assert boneyard.update(row[1:], _table(row[1:], seed=1)) == 1
    # A boneyard of one back is that back.
    alone = Boneyard()
    alone.reset([glare], _table([]))
    assert len(alone) == 1


def test_the_last_back_of_a_boneyard_beside_a_seat_read_as_the_double_blank_is_still_a_back() -> None:
    from scorer.pipeline.still import boneyard_tiles
    from scorer.vision.calibration import default_zones
    from scorer.vision.detector import HalfReading, TileDetection

    # (main set 1's horse-race-4-203: the boneyard at the left edge, in Dee's strip; its last back,
    # alone, read as a [0|0] that may as well be a back -- counted drawn, Ben's draw given to Ann.)
    def plain(x: float, maybe_back: bool) -> TileDetection:
        corners = tuple(map(tuple, _box(x, 193.0)))
        halves = (HalfReading(0, (x + 12, 205), 0.5), HalfReading(0, (x + 12, 229), 0.5))
        return TileDetection(corners, "up", 0.8, halves, maybe_back)

    zones = default_zones(1280, 720)
    lone, hand_tile = plain(38.0, True), plain(80.0, False)
    found = boneyard_tiles([lone, hand_tile], [lone, hand_tile], zones, 4, None, ())
    assert [c.tolist() for c in found] == [_box(38.0, 193.0).tolist()]


def test_draws_counted_by_a_look_that_asked_are_counted_again_till_the_log_takes_them() -> None:
    # (A phone's stream down 25 s: the first look after it counted 5 draws and asked the order of 14 tiles; the next
    # look, the boneyard followed from the first, counted none -- and with the hands short of 5 tiles no order of
    # the 14 was playable: "cannot be played here by Ben", a question nobody could answer.)
    from scorer.pipeline.draws import Draws
    from scorer.rules import Draw, Play, RoundStart, Tile
    from scorer.rules.log import MatchHeader

    match = MatchHeader("horse-race", ("Ann", "Ben"), False).new_match()
    for event in (RoundStart("Ann"), Play("Ann", Tile(2, 6)), Play("Ben", Tile(4, 6), Tile(2, 6))):
        match, _ = match.apply(event)
    draws = Draws()
    draws.counted_blind.add(45.7)
    draws.asked_with(5, match, 45.7)
    assert draws.still_unwritten(match, 47.1) == 5 and 47.1 in draws.counted_blind  # (blind, as counted)
    assert draws.still_unwritten(match, 48.0) == 0  # (once: a look that asks again says so again)
    draws.asked_with(5, match, 45.7)
    answered, _ = match.apply(Draw("Ann", 2))  # (two of them entered by hand meanwhile)
    assert draws.still_unwritten(answered, 47.1) == 3
    draws.asked_with(5, match, 45.7)
    later = answered.apply(Play("Ann", Tile(4, 4), Tile(4, 6)))[0]
    over = replace(later, round_no=later.round_no + 1)
    assert draws.still_unwritten(over, 60.0) == 0  # (a new round: its boneyard is dealt anew)
    draws.asked_with(2, answered, 45.7)
    assert draws.still_unwritten(match, 47.1) == 0  # (the log's boneyard grew: draws withdrawn, an undo or score again)
    draws.asked_with(2, answered, 45.7)
    draws.forget()
    assert draws.still_unwritten(answered, 47.1) == 0


def test_the_first_look_at_a_round_in_play_counts_the_backs_the_log_gives_and_the_heap_lacks() -> None:
    # (A match resumed, or a camera opened again, after tiles were drawn unseen: the boneyard had no picture before,
    # and the draws were taken as none -- the hands then ran out before the tiles laid meanwhile did.)
    from types import SimpleNamespace

    from scorer.pipeline.draws import Draws
    from scorer.pipeline.still import StillTable
    from scorer.rules import Draw, Play, RoundStart, Tile
    from scorer.rules.log import MatchHeader

    match = MatchHeader("horse-race", ("Ann", "Ben"), False).new_match()
    for event in (RoundStart("Ann"), Play("Ann", Tile(2, 6))):
        match, _ = match.apply(event)
    backs = [_box(20.0 + 26 * k, 20.0) for k in range(match.boneyard - 5)]
    image = np.dstack([_table(backs)] * 3)
    still = StillTable(1.0, 1.0, image, table_grey(image), None, (), (), tuple(backs))
    draws, layout = Draws(), SimpleNamespace(component=[])
    # Not taken as drawn at once (a back missed in one look would be a draw that never was): kept for the tiles laid
    # meanwhile that no order plays without them -- once, and only while the log is as it was.
    assert draws.since(match, still, [], layout) == 0 and draws.lacking(match) == 5 and draws.lacking(match) == 0
    assert draws.since(match, still, [], layout) == 0  # (followed from there on)
    fresh = Draws()
    fresh.since(match, still, [], layout)
    assert fresh.lacking(match.apply(Draw("Ben", 1))[0]) == 0
    whole = [_box(20.0 + 26 * k, 20.0) for k in range(match.boneyard)]
    image = np.dstack([_table(whole)] * 3)
    fresh = Draws()
    assert fresh.since(match, StillTable(1.0, 1.0, image, table_grey(image), None, (), (), tuple(whole)), [], layout) == 0
    assert fresh.lacking(match) == 0
