"""The detector's input size: the usual one, and the size a live camera's frames are read at, fitted to
the tiles it sees (:func:`fitted_input_size`)."""

from __future__ import annotations

from typing import Sequence

import numpy as np

# The long side of the detector's input where the model takes any size (a multiple of STRIDE): small
# tiles (a far camera, a big table) are found far better than at the training size, 416.
INPUT_SIZE = 544
STRIDE = 32
# Live frames (a camera that stays put): the input's long side follows the tiles seen, so that they
# come to about this length (px) in the model's input -- where the model finds them best.  A still image
# read at INPUT_SIZE alone whose tiles read surely (two or more) come out smaller is read again at its
# fitted size (docs/experiments.md).
TILE_INPUT_PX = 26
LARGEST_INPUT_SIZE = 960
# ... changed only when the fitted size is this far from the current one (tiles' lengths wander).
FOLLOW_SLACK = 2 * STRIDE
# A tile this long (px) or longer in the input at INPUT_SIZE is a close camera's: too long to be found well there.
LARGE_IN_INPUT = 60
# A live camera that has come close: the tiles are brought to this length in the input (the middle of
# what the model finds), the input no smaller than this.
CLOSE_TILE_INPUT_PX = 64
SMALLEST_INPUT_SIZE = 160


def fitted_input_size(lengths: Sequence[float], frame_long_side: int, current: int) -> int:
    """The input size at which tiles this long (px in the frame) come to :data:`TILE_INPUT_PX` in the
    model's input: a multiple of STRIDE from INPUT_SIZE to LARGEST_INPUT_SIZE, ``current`` unless that
    is more than FOLLOW_SLACK off (or fewer than two tiles were seen).  Tiles too long for INPUT_SIZE
    (:data:`LARGE_IN_INPUT` px or more there: a camera close over the table) come to
    :data:`CLOSE_TILE_INPUT_PX` instead, down to :data:`SMALLEST_INPUT_SIZE`."""
    if len(lengths) < 2:  # (nothing seen, or one box: maybe a stray one)
        return current
    median = float(np.median(lengths))
    ideal = TILE_INPUT_PX * frame_long_side / median
    floor = INPUT_SIZE
    if median * INPUT_SIZE / frame_long_side >= LARGE_IN_INPUT:
        floor, ideal = SMALLEST_INPUT_SIZE, CLOSE_TILE_INPUT_PX * frame_long_side / median
    if abs(ideal - current) <= FOLLOW_SLACK:
        return current
    return int(min(max(round(ideal / STRIDE) * STRIDE, floor), LARGEST_INPUT_SIZE))
