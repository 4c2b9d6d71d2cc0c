"""A second, larger reader reads again only the tiles the first reads unsurely (scorer.vision.reader.PipReader)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from scorer.errors import ModelError
from scorer.vision.reader import SECOND_LOOK, PipReader

MODELS = Path(__file__).resolve().parents[2] / "models"


def test_only_the_tiles_read_unsurely_are_read_again_and_take_the_second_reading(tmp_path: Path) -> None:
    reader = PipReader(MODELS / "reader.onnx", 1, second=MODELS / "reader.onnx")
    image = np.full((200, 300), 180, np.uint8)
    boxes = [np.array([[10, 10], [74, 10], [74, 42], [10, 42]], float), np.array([[100, 100], [164, 100], [164, 132], [100, 132]], float)]
    first = np.zeros((2, 2, reader.classes), np.float32)
    first[0, :, 3] = 0.99  # sure: [3|3]
    first[1, 0, 5], first[1, 1, 2], first[1, 1, 6] = 0.99, 0.6, 0.4  # a half under SECOND_LOOK
    assert first[1].max(axis=-1).min() < SECOND_LOOK
    seen: list[int] = []
    again = np.zeros((1, 2, reader.classes), np.float32)
    again[0, 0, 5], again[0, 1, 6] = 0.98, 0.97
    reader._probabilities = lambda crops: first  # type: ignore[method-assign]
    reader.second._probabilities = lambda crops: (seen.append(len(crops)), again)[1]  # type: ignore[union-attr]
    probs = reader.read(image, boxes)
    assert seen == [1]  # one tile read again
    assert np.array_equal(probs[0], first[0]) and np.array_equal(probs[1], again[0])


def test_a_second_reader_must_read_as_the_first(tmp_path: Path) -> None:
    with pytest.raises(ModelError):  # (a detector: not a reader at all)
        PipReader(MODELS / "reader.onnx", 1, second=MODELS / "detector.onnx")
