"""Images that cannot be used say why."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from scorer.errors import ImageError
from scorer.vision import check_frame, load_image


@pytest.fixture
def jpeg(tmp_path: Path) -> Path:
    path = tmp_path / "ok.jpg"
    image = np.random.default_rng(0).integers(0, 255, (120, 160, 3), dtype=np.uint8)
    cv2.imwrite(str(path), image)
    return path


def test_a_good_image_loads(jpeg: Path) -> None:
    assert load_image(jpeg).shape == (120, 160, 3)


def test_bad_files(tmp_path: Path, jpeg: Path) -> None:
    empty = tmp_path / "empty.png"
    empty.write_bytes(b"")
    text = tmp_path / "notes.jpg"
    text.write_text("this is not an image")
    truncated = tmp_path / "cut.jpg"
    truncated.write_bytes(jpeg.read_bytes()[: jpeg.stat().st_size // 2])
    png = tmp_path / "ok.png"
    cv2.imwrite(str(png), np.zeros((50, 50, 3), np.uint8))
    cut_png = tmp_path / "cut.png"
    cut_png.write_bytes(png.read_bytes()[:-30])
    cases = {
        tmp_path / "missing.jpg": "no such file",
        tmp_path: "is a folder",
        empty: "empty",
        text: "not an image",
        truncated: "truncated",
        cut_png: "truncated",
    }
    for path, message in cases.items():
        with pytest.raises(ImageError, match=message):
            load_image(path)


def test_a_huge_image_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "huge.png"
    cv2.imwrite(str(path), np.zeros((6000, 9000), np.uint8))
    with pytest.raises(ImageError, match="too large"):
        load_image(path)


def test_frames_are_checked_and_normalised() -> None:
    assert check_frame(np.zeros((4, 4), np.uint8)).shape == (4, 4, 3)
    assert check_frame(np.zeros((4, 4, 4), np.uint8)).shape == (4, 4, 3)
    for bad in [None, np.zeros((0, 0, 3), np.uint8), np.zeros((4, 4, 3), np.float32), np.zeros((4, 4, 2), np.uint8)]:
        with pytest.raises(ImageError):
            check_frame(bad)
