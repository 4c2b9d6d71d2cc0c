"""A calibration used on a camera's pictures of another size: fitted to a resolution of the same shape, and not used
(said) for another shape -- a profile made at 640x480 applied to 1280x720 frames read the table wrong without a word."""

from __future__ import annotations

import numpy as np

from scorer.pipeline import Notice, PipelineConfig, TablePipeline
from scorer.pipeline.notices import CalibrationNotUsed
from scorer.pipeline.sources import Frame
from scorer.rules.log import MatchHeader
from scorer.vision.calibration import Profile, default_zones


class _NoTiles:
    def detect(self, image):
        return []


def _profile(size: tuple[int, int]) -> Profile:
    w, h = size
    return Profile(name="kitchen", image_size=size, homography=[[0.5, 0, -w / 4], [0, 0.5, -h / 4], [0, 0, 1]], px_per_mm=2.0,
                   tile_px=(96.0, 48.0), markers=6, error_mm=0.4, zones=default_zones(w, h))


def _first(profile: Profile, size: tuple[int, int]) -> tuple[TablePipeline, list]:
    pipeline = TablePipeline(MatchHeader("horse-race", ("Ann", "Ben"), False).new_match(), _NoTiles(), PipelineConfig(profile=profile))
    events = pipeline.feed(Frame(0, 0.0, np.zeros((size[1], size[0], 3), np.uint8)))
    return pipeline, events


def test_a_calibration_made_at_another_resolution_of_the_same_shape_is_fitted() -> None:
    pipeline, events = _first(_profile((640, 360)), (1280, 720))
    assert not [e for e in events if isinstance(e, Notice)]
    assert pipeline.zones == default_zones(1280, 720)
    assert pipeline.to_table is not None and np.allclose(pipeline.to_table(np.array([[640.0, 360.0]])), [[0.0, 0.0]])


def test_a_calibration_made_on_pictures_of_another_shape_is_not_used_and_said() -> None:
    pipeline, events = _first(_profile((640, 480)), (1280, 720))
    (notice,) = [e for e in events if isinstance(e, Notice)]
    assert notice.message == ("the calibration kitchen was made on 640 × 480 pictures, and the camera's are 1280 × 720, another "
                              "shape: it is not used -- calibrate again with the camera set as it plays")
    assert isinstance(notice.message, str) and pipeline.to_table is None and pipeline.zones == default_zones(1280, 720)
    assert isinstance(CalibrationNotUsed("k", (1, 1), (2, 2)).text(), str)
