"""A small-tile reader reads again the tiles whose box is shorter than SMALL_TILE px; their reading is both readers'
mean (scorer.vision.reader.PipReader)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from scorer.errors import ModelError
from scorer.vision.geometry import long_side
from scorer.vision.reader import NOT_A_HALF, SMALL_TILE, PipReader

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


def test_a_tiles_length_is_its_long_side_whichever_way_it_lies() -> None:
    assert long_side(_box(10, 10, 40)) == pytest.approx(40)
    assert long_side(_box(10, 10, 40, turned=True)) == pytest.approx(40)


def test_small_tiles_are_read_by_both_and_take_their_mean_in_order() -> None:
    reader, seen = _readers({1: 0.8, 6: 0.2}, {1: 0.2, 6: 0.8})
    image = np.full((300, 400), 180, np.uint8)
    boxes = [_box(10, 10, 80), _box(150, 20, SMALL_TILE - 5), _box(200, 150, 60, turned=True), _box(20, 200, 20)]
    probs = reader.read(image, boxes)
    assert seen == {"main": [4], "small": [2]}  # (the small tiles again, only they)
    assert probs[0, 0, 1] == pytest.approx(0.8) and probs[2, 0, 1] == pytest.approx(0.8)
    for tile in (1, 3):  # (the two readers disagree: neither reading sure)
        assert probs[tile, 0, 1] == pytest.approx(0.5) and probs[tile, 0, 6] == pytest.approx(0.5)


def test_the_small_readers_reading_goes_to_its_own_tile() -> None:
    """Each small tile takes the small reader's reading of its own crop (the tiles' order kept)."""
    reader = PipReader(MODELS / "reader.onnx", 1, small=MODELS / "reader.onnx")
    reader._probabilities = lambda crops: np.full((len(crops), 2, reader.classes), 1 / reader.classes, np.float32)  # type: ignore[method-assign]

    def by_brightness(crops: np.ndarray) -> np.ndarray:  # (a dark crop read as 1 pip, a light one as 5)
        out = np.zeros((len(crops), 2, reader.classes), np.float32)
        out[np.arange(len(crops)), :, np.where(crops.mean(axis=(1, 2)) < 128, 1, 5)] = 1.0
        return out

    reader.small._probabilities = by_brightness  # type: ignore[union-attr]
    image = np.full((300, 400), 220, np.uint8)
    image[0:60, 0:60] = 20  # (the first small tile lies on dark ground, the second on light)
    probs = reader.read(image, [_box(10, 10, 30), _box(200, 10, 90), _box(300, 200, 30)])
    assert [int(p.argmax()) for p in probs[[0, 2], 0]] == [1, 5]


def test_readers_that_agree_stay_as_sure_and_no_class_comes_out_surer_than_either_had_it() -> None:
    image = np.full((300, 400), 180, np.uint8)
    agreeing, _ = _readers({3: 0.97, 4: 0.03}, {3: 0.97, 4: 0.03})
    assert agreeing.read(image, [_box(10, 10, 30)])[0, :, 3] == pytest.approx([0.97, 0.97])
    runner_ups, _ = _readers({0: 0.95, 1: 0.05}, {0: 0.95, 2: 0.05})  # (a blank: no surer for the runner-ups' split)
    assert runner_ups.read(image, [_box(10, 10, 30)])[0, 0, 0] == pytest.approx(0.95)
    # A face both read, counted apart, stays a face (asked about), not "no tile" nor "back".
    counted_apart, _ = _readers({5: 0.7, NOT_A_HALF: 0.3}, {3: 0.7, NOT_A_HALF: 0.3})
    both = counted_apart.read(image, [_box(10, 10, 30)])[0, 0]
    assert both[NOT_A_HALF] == pytest.approx(0.3) and both[5] == pytest.approx(0.35) and both[3] == pytest.approx(0.35)


def test_a_frame_of_large_tiles_is_read_once() -> None:
    reader, seen = _readers({2: 1.0}, {2: 1.0})
    reader.read(np.full((300, 400), 180, np.uint8), [_box(10, 10, 90), _box(100, 100, SMALL_TILE + 1)])
    assert seen == {"main": [2], "small": []}


def test_a_small_tile_reader_must_read_as_the_main_one() -> None:
    with pytest.raises(ModelError, match="detector.onnx"):  # (not a reader at all)
        PipReader(MODELS / "reader.onnx", 1, small=MODELS / "detector.onnx")
    colour = Path(__file__).with_name("fixtures") / "probe_colour_reader.onnx"  # (a reader, of colour crops)
    with pytest.raises(ModelError, match="a small-tile reader must read as"):
        PipReader(MODELS / "reader.onnx", 1, small=colour)


def test_the_detector_takes_the_shipped_small_tile_reader_where_it_lies_beside_the_others(tmp_path) -> None:
    from scorer.vision.detector import TileDetector

    assert TileDetector(MODELS).reader.small is not None
    for name in ("detector.onnx", "reader.onnx"):
        (tmp_path / name).symlink_to(MODELS / name)
    assert TileDetector(tmp_path).reader.small is None
