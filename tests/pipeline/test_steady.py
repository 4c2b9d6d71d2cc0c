"""A knocked camera: the whole view moved alike is noticed, and the places kept follow it."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from scorer.pipeline.boneyard import Boneyard
from scorer.pipeline.notices import CameraMoved
from scorer.pipeline.steady import CameraShift


def _table(seed: int = 0, size: tuple[int, int] = (1280, 720)) -> np.ndarray:
    rng = np.random.default_rng(seed)
    grain = cv2.GaussianBlur(rng.random((size[1], size[0])).astype(np.float32), (0, 0), 4) * 255
    for k in range(12):  # tiles: bright boxes with dark pips
        x, y = 300 + 60 * k, 300 + (k % 3) * 40
        cv2.rectangle(grain, (x, y), (x + 56, y + 28), 230, -1)
        cv2.circle(grain, (x + 14, y + 14), 4, 20, -1)
    return grain


def _moved(picture: np.ndarray, dx: float, dy: float) -> np.ndarray:
    m = np.float32([[1, 0, dx], [0, 1, dy]])
    return cv2.warpAffine(picture, m, (picture.shape[1], picture.shape[0]), borderMode=cv2.BORDER_REFLECT)


def test_a_still_camera_is_not_moved_by_noise_light_or_a_tile_laid() -> None:
    view = CameraShift()
    table = _table()
    assert view.look(table) is None  # (the first view)
    noisy = table * 1.1 + np.random.default_rng(1).normal(0, 3, table.shape).astype(np.float32)
    cv2.rectangle(noisy, (900, 500), (956, 528), 230, -1)  # a tile laid
    assert view.look(noisy) is None
    assert np.allclose(view.offset, 0)


def test_a_knock_of_a_few_pixels_is_noticed_and_followed() -> None:
    view = CameraShift()
    table = _table()
    view.look(table)
    moved = view.look(_moved(table, 3.0, -2.5))
    assert moved is not None and not moved.new_view
    assert moved.shift == pytest.approx((3.0, -2.5), abs=0.3)
    assert "the camera moved by 4 px" in CameraMoved(float(np.hypot(*moved.shift))).text()
    # A calibration's mapping is taken from where the camera looked when it was made.
    mapped = view.followed(lambda points: points * 2.0)
    assert mapped is not None
    assert mapped(np.array([[103.0, 97.5]])) == pytest.approx(np.array([[200.0, 200.0]]), abs=0.6)


def test_the_boneyard_follows_the_camera() -> None:
    table = _table().astype(np.uint8)
    slot = np.array([[10.0, 10.0], [66.0, 10.0], [66.0, 38.0], [10.0, 38.0]])
    boneyard = Boneyard()
    boneyard.reset([slot], table)
    boneyard.follow((3.0, 4.0))
    assert np.allclose(boneyard.slots[0], slot + (3.0, 4.0))
