"""The reader's training boxes on no tile are where they are meant to be (models/train_reader.py)."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "models"))

from train_reader import turned_over_a_half  # noqa: E402

from scorer.vision.geometry import long_side, polygon_iou  # noqa: E402


def upright_tile(x: float, y: float, width: float = 20.0) -> np.ndarray:
    """A tile standing upright (its length along y) with its top-left corner at (x, y), in the labels'
    corner order: a short side first."""
    return np.array([[x, y], [x + width, y], [x + width, y + 2 * width], [x, y + 2 * width]])


@pytest.mark.parametrize("rolled", (0, 1))
def test_the_turned_boxes_lie_over_two_tiles_side_by_side_as_the_detector_draws_them(rolled: int) -> None:
    left, middle, right = upright_tile(-20, 0), upright_tile(0, 0), upright_tile(20, 0)
    places = set()
    for end in (-1, 1):
        for side in (-1, 1):
            box = turned_over_a_half(np.roll(middle, -rolled, axis=0), end, side)
            # A tile's size, turned a quarter turn: its length runs across two tiles.
            xs, ys = box[:, 0], box[:, 1]
            assert long_side(box) == pytest.approx(40)
            assert (xs.max() - xs.min(), ys.max() - ys.min()) == pytest.approx((40, 20))
            # Half of it on the tile, half on the one beside it on one side, none on the other side.
            assert polygon_iou(box, middle) == pytest.approx(1 / 3, abs=1e-6)
            assert sorted((polygon_iou(box, left), polygon_iou(box, right))) == pytest.approx([0, 1 / 3], abs=1e-6)
            places.add(("top" if ys.mean() < 20 else "bottom", "left" if xs.mean() < 10 else "right"))
    # The four (end, side) are the four ways two halves beside each other make a turned tile.
    assert len(places) == 4


def test_the_turned_box_turns_and_moves_with_the_tile() -> None:
    angle = np.radians(37)
    turn = np.array([[np.cos(angle), -np.sin(angle)], [np.sin(angle), np.cos(angle)]])
    shift = np.array([300.0, 120.0])
    tile = upright_tile(0, 0)
    for end in (-1, 1):
        for side in (-1, 1):
            moved = turned_over_a_half(tile @ turn.T + shift, end, side)
            assert moved == pytest.approx(turned_over_a_half(tile, end, side) @ turn.T + shift)


def test_a_widened_reader_starts_reading_as_the_narrow_one_did() -> None:
    """``--width 2 --init`` from a width-1 reader: each channel repeated, so the wide reader begins where
    the narrow one was (up to the little noise that lets the copies learn apart)."""
    torch = pytest.importorskip("torch")
    from train_reader import _widened, build_tile_model

    torch.manual_seed(1)
    narrow, wide = build_tile_model(1, 1.0).eval(), build_tile_model(1, 2.0).eval()
    with torch.no_grad():  # BatchNorm statistics other than the identity, so that they are carried too
        for m in narrow.modules():
            if isinstance(m, torch.nn.BatchNorm2d):
                m.running_mean.uniform_(-0.5, 0.5)
                m.running_var.uniform_(0.5, 2.0)
    wide.load_state_dict(_widened(narrow.state_dict(), wide.state_dict()))
    tiles = torch.randn(16, 1, 32, 64)
    with torch.no_grad():
        assert torch.allclose(narrow(tiles).softmax(-1), wide(tiles).softmax(-1), atol=0.03)
    with pytest.raises(ValueError, match="whole multiple"):
        _widened(narrow.state_dict(), build_tile_model(1, 1.5).state_dict())
