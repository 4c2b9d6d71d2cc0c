"""An arm resting over a still table, told from the light's change (scorer.pipeline.arms.arm_in_view)."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from scorer.pipeline.arms import ARM_BLOWN, arm_in_view

DATA = Path(__file__).parent / "data"


def _views() -> tuple[np.ndarray, np.ndarray]:
    """Two still views of a generated `cross` film (horse-race-4p-104, 21.1 s and 22.7 s, 320x180): the
    camera's exposure came down between them, and the white table, blown out before, is pink now."""
    return cv2.imread(str(DATA / "exposure-before.png")), cv2.imread(str(DATA / "exposure-now.png"))


def _with_sleeve(view: np.ndarray) -> np.ndarray:
    """A dark sleeve reaching in from the bottom left, resting there."""
    out = view.copy()
    cv2.rectangle(out, (0, 120), (110, 150), (40, 60, 120), -1)
    return out


def test_a_table_blown_out_before_and_lit_less_now_is_no_arm() -> None:
    before, now = _views()
    assert (before.max(axis=2) >= ARM_BLOWN).mean() > 0.3  # (much of the view compared with was blown out)
    assert not arm_in_view(before, now)


def test_an_arm_resting_where_the_light_was_not_blown_out_is_still_seen() -> None:
    before, now = _views()
    assert arm_in_view(before, _with_sleeve(now))
    assert arm_in_view(now, _with_sleeve(now))
