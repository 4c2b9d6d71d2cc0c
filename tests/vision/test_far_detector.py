"""The far detector (``detector-far.onnx``, fine-tuned on a far camera's small tiles) reads the looks at an input size
fitted to small tiles -- a still image's second look, a far camera's frames, the live path's look at the largest size
for tiles too small to see -- and the usual detector everything else, the close-up search for large tiles too."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from scorer.errors import ModelError
from scorer.vision.detector import INPUT_SIZE, TileDetector

MODELS = Path(__file__).resolve().parents[2] / "models"
DATA = Path(__file__).resolve().parents[2] / "datasets" / "generated" / "detector"


class Counting:
    """An onnxruntime session that counts the input sizes it ran at, and runs."""

    def __init__(self, session) -> None:
        self.session, self.sizes = session, []

    def run(self, names, feeds):
        self.sizes.append(max(next(iter(feeds.values())).shape[2:]))
        return self.session.run(names, feeds)

    def __getattr__(self, name):
        return getattr(self.session, name)


def _counted(detector: TileDetector) -> tuple[Counting, Counting]:
    detector.session, detector.far = Counting(detector.session), Counting(detector.far)
    return detector.session, detector.far


def _frame(seed: int, style: str) -> np.ndarray:
    """A 1280x720 table drawn by the generator."""
    import sys

    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "datasets"))
    from dominosynth.scenes import make_scene

    return make_scene(seed, style, (1280, 720))[0].image


def _small_tiles_frame() -> np.ndarray:
    """A far camera over a table: 28 tiles about 20-30 px long."""
    return _frame(200_005, "far")


def test_the_shipped_far_detector_is_taken_where_it_lies_beside_the_others(tmp_path: Path) -> None:
    assert TileDetector(MODELS).far is not None and TileDetector.live(MODELS).far is not None
    # (Not loaded where no look is fitted to small tiles: `board`'s two sizes, one size without the search.)
    assert TileDetector.thorough(MODELS).far is None and TileDetector(MODELS, search=False).far is None
    for name in ("detector.onnx", "reader.onnx"):
        (tmp_path / name).symlink_to(MODELS / name)
    assert TileDetector(tmp_path).far is None
    (tmp_path / "detector-far.onnx").symlink_to(MODELS / "reader.onnx")  # (not a detector)
    with pytest.raises(ModelError, match="a far detector must read as detector.onnx does"):
        TileDetector(tmp_path)


def test_a_still_image_of_small_tiles_is_looked_at_again_by_the_far_detector_only() -> None:
    detector = TileDetector(MODELS)
    usual, far = _counted(detector)
    frame = _small_tiles_frame()
    detector.detect(frame)
    assert usual.sizes and max(usual.sizes) <= INPUT_SIZE  # (the first look, the usual one's)
    assert far.sizes and min(far.sizes) > INPUT_SIZE  # (the second look at the fitted size)
    # Large tiles: no second look, the far detector not run.
    detector = TileDetector(MODELS)
    usual, far = _counted(detector)
    detector.detect(cv2.resize(frame, None, fx=4, fy=4)[:720, :1280])
    assert usual.sizes and far.sizes == []


def test_a_far_cameras_frames_are_read_by_the_far_detector_once_the_size_is_fitted_to_them() -> None:
    detector = TileDetector.live(MODELS)
    usual, far = _counted(detector)
    frame = _small_tiles_frame()
    detector.detect(frame)  # (the first frame finds the size)
    assert detector.size > INPUT_SIZE
    usual.sizes.clear(), far.sizes.clear()
    detector.detect(frame)
    assert usual.sizes == [] and far.sizes == [detector.size]
    # A camera at the usual height: its frames read by the usual detector alone.
    near = TileDetector.live(MODELS)
    usual, far = _counted(near)
    table = _frame(4, "main")
    near.detect(table)
    usual.sizes.clear()
    near.detect(table)
    assert near.size == INPUT_SIZE and far.sizes == [] and usual.sizes


def test_a_live_frame_with_too_few_tiles_read_is_looked_at_the_largest_size_by_the_far_detector() -> None:
    from scorer.vision.detector import LARGEST_INPUT_SIZE

    detector = TileDetector.live(MODELS)
    usual, far = _counted(detector)
    detector._size_for(_small_tiles_frame(), [])  # (nothing read at the usual size)
    assert far.sizes == [LARGEST_INPUT_SIZE] and usual.sizes == []


def test_the_close_up_search_is_the_usual_detectors_whatever_read_the_rest() -> None:
    detector = TileDetector(MODELS)
    usual, far = _counted(detector)
    frame = _small_tiles_frame()
    detector._detect_at_size(frame, detector.reader.picture(frame), (800,), detector.far)  # (a look finding few tiles)
    detector._detect_at_size(frame[:200, :200], detector.reader.picture(frame[:200, :200]), (800,), detector.far)
    assert far.sizes == [800, 800] and usual.sizes and all(size < INPUT_SIZE for size in usual.sizes)
