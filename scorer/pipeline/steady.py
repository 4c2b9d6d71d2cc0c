"""A knocked camera: the whole table moved alike between two still views.

Each still view is compared with the one before by phase correlation (the shift that lines the two
pictures up; a tile laid or drawn changes a small part of them, an arm is gone by then).  A shift of a
pixel or more, the same everywhere, is the camera's stand knocked: the places the pipeline keeps in
pixels (the boneyard's tiles, the layout's remembered pictures, a calibration's mapping to the table)
follow it.  A move too large to line up is a new view: the table is then read afresh from its tiles.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import cv2
import numpy as np

from scorer.pipeline.places import shift_picture
from scorer.pipeline.still import ToTable

# Pictures are compared at this width (a knock of 3 px at 1280 is 1.5 px here, found to a tenth).
WIDTH = 640
# A shift of at least this share of the picture's width (1.5 px of 1280) is a move of the camera; a
# still camera measures hundredths of a pixel (noise, light, a tile laid).
MOVED = 1.5 / 1280
# Below this peak the two views do not line up by one shift: not one move of the whole picture.
LINED_UP = 0.15
# A move explains the change between two views when lining them up leaves under this share of it.
EXPLAINED = 0.7
# A move over this share of the picture's width is a new view, not a knock.
NEW_VIEW = 0.08


@dataclass(frozen=True)
class Moved:
    """How the view moved since the last still one: by ``shift`` pixels (x, y), or to a new view."""

    shift: tuple[float, float]
    new_view: bool = False


@dataclass
class CameraShift:
    """The still views of late, and how far the camera moved since the table's geometry was taken."""

    offset: np.ndarray = field(default_factory=lambda: np.zeros(2))  # pixels, now against then
    _last: np.ndarray | None = field(default=None, repr=False)
    _scale: float = 1.0

    def jumped(self) -> None:
        """The frames go on from another moment (a seek): the next still view is compared with none (the
        table then differs from the one left, which is no camera knocked)."""
        self._last = None

    def look(self, grey: np.ndarray) -> Moved | None:
        """A still view: how it moved from the last one (None: it did not, or it is the first)."""
        h, w = grey.shape[:2]
        self._scale = w / WIDTH if w > WIDTH else 1.0
        small = cv2.resize(grey, (round(w / self._scale), round(h / self._scale)), interpolation=cv2.INTER_AREA).astype(np.float32)
        last, self._last = self._last, small
        if last is None or last.shape != small.shape:
            return None
        window = cv2.createHanningWindow((small.shape[1], small.shape[0]), cv2.CV_32F)
        (dx, dy), peak = cv2.phaseCorrelate(last, small, window)
        shift = np.array([dx, dy]) * self._scale
        if peak < LINED_UP:
            # Not one shift of the whole picture: a big change of the light, many hands -- unless the
            # picture is all different, nothing to follow.
            return None
        if float(np.hypot(*shift)) < MOVED * w:
            return None
        # Lined up by the shift, the two views must differ much less than as they are: a tile laid, a
        # pattern repeated on the table, may line up too, but shifting makes the rest differ.
        # (Compared by their detail: the light's drift and flicker change the pictures' levels, not their edges.)
        margin = max(2, int(np.ceil(max(abs(dx), abs(dy)))) + 1)
        if 2 * margin >= min(small.shape[:2]):
            return None
        inner = (slice(margin, -margin), slice(margin, -margin))
        now_detail, last_detail = _detail(small), _detail(last)
        lined_up = shift_picture(last_detail, (dx, dy))
        if np.mean(np.abs(now_detail - lined_up)[inner]) >= EXPLAINED * np.mean(np.abs(now_detail - last_detail)[inner]):
            return None
        self.offset = self.offset + shift
        return Moved((float(shift[0]), float(shift[1])), new_view=float(np.hypot(*shift)) > NEW_VIEW * w)

    def followed(self, to_table: ToTable) -> ToTable:
        """A calibration's mapping to the table, taken from where the camera looked when it was made."""
        if to_table is None:
            return None
        inner = to_table

        def mapped(points: np.ndarray) -> np.ndarray:
            return inner(np.asarray(points, np.float64).reshape(-1, 2) - self.offset)

        return mapped


def _detail(picture: np.ndarray) -> np.ndarray:
    """The picture's edges and texture, its slow changes of level taken away."""
    detail: np.ndarray = picture - cv2.GaussianBlur(picture, (0, 0), 3.0)
    return detail
