"""What keeps the camera from reading a still table well, told once: tiles too small, a picture too grainy or too dark;
a calibration made on pictures of another shape."""

from __future__ import annotations

from typing import Collection, Sequence

import numpy as np

from scorer.pipeline.events import PipelineEvent, told
from scorer.pipeline.notices import CalibrationNotUsed, CameraUnfit, PictureTooDark, PictureTooGrainy, TilesTooSmall
from scorer.rules import Match, Phase
from scorer.vision.calibration import CalibrationError, Profile
from scorer.vision.darkness import too_dark
from scorer.vision.grain import too_grainy
from scorer.vision.tile_detection import TileDetection, small_tiles


def camera_unfit(image: np.ndarray, up: Sequence[TileDetection], minimum: float, told: Collection[type], *,
                 tiles_laid: bool) -> list[CameraUnfit]:
    """What keeps the camera from reading a still table well, of what was not ``told`` yet (not measured
    again): its face-up tiles ``up`` shorter than ``minimum`` px in the image; a picture too grainy; or,
    where tiles lie on the table (``tiles_laid``: :func:`tiles_laid`), a picture whose brightest spot is
    under :data:`~scorer.vision.darkness.TOO_DARK` (a bare dark cloth is no matter)."""
    unfit: list[CameraUnfit] = []
    if TilesTooSmall not in told and (length := small_tiles(list(up), minimum)) is not None:
        unfit.append(TilesTooSmall(length, minimum))
    if PictureTooGrainy not in told and too_grainy(image):
        unfit.append(PictureTooGrainy())
    if PictureTooDark not in told and tiles_laid and too_dark(image):
        unfit.append(PictureTooDark())
    return unfit


def tiles_laid(match: Match, seen_any: bool) -> bool:
    """Whether tiles lie on the table for the players to be told that the picture is too dark: mid-round,
    once some are played (read or not, the lights out); while the round's hands are counted, where
    anything is seen (``seen_any``: the table may already be cleared).  Not between rounds: a cleared
    table, the last layout still lying there or not."""
    if match.phase is Phase.IN_ROUND:
        return bool(match.current_board().tiles)
    return match.phase is Phase.ROUND_OVER and seen_any


def calibration_fitted(profile: Profile | None, size: tuple[int, int], t: float) -> tuple[Profile | None, list[PipelineEvent]]:
    """``profile`` fitted to the camera's pictures of ``size`` (:meth:`Profile.fitted`); where it was made on pictures of
    another shape, none, and that said."""
    if profile is None:
        return None, []
    try:
        return profile.fitted(*size), []
    except CalibrationError:
        return None, [told(t, CalibrationNotUsed(profile.name, profile.image_size, size))]
