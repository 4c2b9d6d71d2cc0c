"""A small-tile reader reads again the tiles whose box is shorter than SMALL_TILE px; their reading is both readers'
geometric mean (scorer.vision.reader.PipReader)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from scorer.errors import ModelError
from scorer.vision.reader import SMALL_TILE, PipReader, box_length

MODELS = Path(__file__).resolve().parents[2] / "models"


def _box(x: float, y: float, length: float, turned: bool = False) -> np.ndarray:
    if turned:  # (standing: the long side along y)
        return np.array([[x, y], [x + length / 2, y], [x + length / 2, y + length], [x, y + length]], float)
    return np.array([[x, y], [x + length, y], [x + length, y + length / 2], [x, y + length / 2]], float)


def _readers(main: dict[int, float], small: dict[int, float]) -> tuple[PipReader, dict[str, list[int]]]:
    """The shipped reader with itself as the small-tile reader, each giving every half the probabilities ``main`` or
    ``small`` name (pips: probability) and noting how many tiles it was given."""
    reader = PipReader(MODELS / "reader.onnx", 1, small=MODELS / "reader.onnx")
    seen: dict[str, list[int]] = {"main": [], "small": []}

    def answering(name: str, probabilities: dict[int, float]):
        def read(crops: np.ndarray) -> np.ndarray:
            seen[name].append(len(crops))
            out = np.zeros((len(crops), 2, reader.classes), np.float32)
            for pips, p in probabilities.items():
                out[:, :, pips] = p
            return out
        return read

    reader._probabilities = answering("main", main)  # type: ignore[method-assign]
    reader.small._probabilities = answering("small", small)  # type: ignore[union-attr]
    return reader, seen


def test_box_length_is_the_long_side_whichever_way_the_tile_lies() -> None:
    assert box_length(_box(10, 10, 40)) == pytest.approx(40)
    assert box_length(_box(10, 10, 40, turned=True)) == pytest.approx(40)


def test_small_tiles_are_read_by_both_and_take_their_geometric_mean() -> None:
    reader, seen = _readers({1: 0.8, 6: 0.2}, {1: 0.2, 6: 0.8})
    image = np.full((300, 400), 180, np.uint8)
    boxes = [_box(10, 10, 80), _box(150, 20, SMALL_TILE - 5), _box(200, 150, 60, turned=True), _box(20, 200, 20)]
    probs = reader.read(image, boxes)
    assert seen == {"main": [4], "small": [2]}  # (the small tiles again, only they)
    assert probs[0, 0, 1] == pytest.approx(0.8) and probs[2, 0, 1] == pytest.approx(0.8)
    for tile in (1, 3):  # (the two readers disagree: neither reading sure)
        assert probs[tile, 0, 1] == pytest.approx(0.5) and probs[tile, 0, 6] == pytest.approx(0.5)


def test_readers_that_agree_stay_sure_and_readers_with_nothing_in_common_leave_nothing_sure() -> None:
    image = np.full((300, 400), 180, np.uint8)
    agreeing, _ = _readers({3: 0.97, 4: 0.03}, {3: 0.97, 4: 0.03})
    assert agreeing.read(image, [_box(10, 10, 30)])[0, :, 3] == pytest.approx([0.97, 0.97])
    apart, _ = _readers({1: 1.0}, {6: 1.0})
    assert np.isfinite(both := apart.read(image, [_box(10, 10, 30)])).all() and both.max() < 0.9


def test_a_frame_of_large_tiles_is_read_once() -> None:
    reader, seen = _readers({2: 1.0}, {2: 1.0})
    reader.read(np.full((300, 400), 180, np.uint8), [_box(10, 10, 90), _box(100, 100, SMALL_TILE + 1)])
    assert seen == {"main": [2], "small": []}


def test_a_small_tile_reader_must_read_as_the_main_one() -> None:
    with pytest.raises(ModelError, match="detector.onnx"):  # (not a reader at all)
        PipReader(MODELS / "reader.onnx", 1, small=MODELS / "detector.onnx")
