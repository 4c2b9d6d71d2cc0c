"""Whether a spot of the image looks like the bare table around it."""

from __future__ import annotations

import cv2
import numpy as np

from scorer.vision.surface import SpotLook, look_at_spots


def _wood(width: int = 320, height: int = 240) -> np.ndarray:
    """A brown table with a grain: stripes of slightly different brown, and noise."""
    rng = np.random.default_rng(1)
    grain = 12 * np.sin(np.arange(height) / 3.0)[:, None, None]
    base = np.array([40.0, 80.0, 130.0]) + grain + rng.normal(0, 5, (height, width, 3))
    return np.clip(base, 0, 255).astype(np.uint8)


def _square(x: float, y: float, side: float = 24.0) -> np.ndarray:
    return np.array([[x, y], [x + side, y], [x + side, y + side], [x, y + side]])


def test_bare_table_looks_bare_and_a_hand_or_a_tile_does_not() -> None:
    table = _wood()
    tile = _square(100, 100, 24.0) + [[0, 0], [24, 0], [24, 0], [0, 0]]  # a 48 x 24 tile seen (a box)
    cv2.fillConvexPoly(table, np.round(tile).astype(np.int32), (210, 230, 240))
    hand = table.copy()
    cv2.circle(hand, (170, 112), 16, (100, 140, 200), -1)  # skin over the spot beyond the tile's end
    unseen = table.copy()
    cv2.fillConvexPoly(unseen, np.round(_square(152, 100)).astype(np.int32), (210, 230, 240))  # a tile not in the boxes
    spot = _square(152, 100)
    (bare,) = look_at_spots(table, [tile], [spot], reach=48.0)
    assert bare.in_picture == 1.0 and bare.bare > 0.9
    assert look_at_spots(hand, [tile], [spot], reach=48.0)[0].bare < 0.2
    assert look_at_spots(unseen, [tile], [spot], reach=48.0)[0].bare < 0.2


def test_a_spot_beyond_the_picture_or_on_a_tile_seen() -> None:
    table = _wood()
    (half_out,) = look_at_spots(table, [], [_square(308, 100)], reach=48.0)  # half of it beyond the right edge
    assert 0.4 < half_out.in_picture < 0.6 and half_out.bare > 0.9
    assert look_at_spots(table, [], [_square(330, 100)], reach=48.0) == [SpotLook(0.0, 0.0)]  # wholly beyond it
    # A spot mostly on a tile the detector saw: that tile is known, the spot counts as bare.
    seen = _square(60, 60)
    cv2.fillConvexPoly(table, np.round(seen).astype(np.int32), (210, 230, 240))
    assert look_at_spots(table, [seen], [_square(62, 60)], reach=48.0)[0].bare == 1.0


def test_a_spot_under_an_arm_that_fills_the_window_round_it_is_not_bare() -> None:
    # The arm covers the spot and most of the table within reach of it: the window's own look is the
    # arm's, so the table round the tiles is taken instead.
    table = _wood()
    tile = _square(100, 100, 24.0) + [[0, 0], [24, 0], [24, 0], [0, 0]]
    cv2.fillConvexPoly(table, np.round(tile).astype(np.int32), (210, 230, 240))
    cv2.rectangle(table, (150, 0), (319, 239), (170, 60, 40), -1)  # a blue sleeve from x = 150 rightwards
    (look,) = look_at_spots(table, [tile], [_square(152, 100)], reach=48.0)
    assert look.in_picture == 1.0 and look.bare < 0.2


def test_a_spot_under_a_hand_over_half_the_window_round_it_is_not_bare() -> None:
    # A hand over the spot and about half the table within reach of it: the window's look, its median
    # still near the table's, is spread wide enough to take the hand in -- unless held to the spread of
    # the table round all the tiles (a hidden end tile at the hand once read as a layout one tile short).
    rng = np.random.default_rng(1)
    table = np.clip(np.array([40.0, 40.0, 150.0]) + rng.normal(0, 6, (240, 320, 3)), 0, 255).astype(np.uint8)  # red felt
    tiles = [_square(x, y) + [[0, 0], [24, 0], [24, 0], [0, 0]] for x, y in ((100, 100), (100, 40), (40, 180))]
    for tile in tiles:
        cv2.fillConvexPoly(table, np.round(tile).astype(np.int32), (210, 230, 240))
    cv2.rectangle(table, (150, 0), (240, 140), (50, 80, 110), -1)  # a brown hand from above
    (look,) = look_at_spots(table, tiles, [_square(152, 100)], reach=48.0)
    assert look.in_picture == 1.0 and look.bare < 0.2
    (beside,) = look_at_spots(table, tiles, [_square(152, 150)], reach=48.0)  # bare felt below the hand
    assert beside.bare > 0.8
