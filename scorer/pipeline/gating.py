"""Deciding when the table is still, and when it changed since it was last read.

Frames are compared small and grey, after undoing any global brightness change,
so a light flicker or the camera's auto-exposure does not count as motion.  Only a still
table that differs from the last one read is passed on: a still table costs
almost nothing.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import cv2
import numpy as np

SMALL_WIDTH = 160


def small_grey(image: np.ndarray) -> np.ndarray:
    h, w = image.shape[:2]
    scale = SMALL_WIDTH / w
    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY) if image.ndim == 3 else image
    small = cv2.resize(grey, (SMALL_WIDTH, max(1, int(round(h * scale)))), interpolation=cv2.INTER_AREA).astype(np.float32)
    return cv2.GaussianBlur(small, (0, 0), 1.0)


@dataclass
class Gate:
    """Feed every frame; :meth:`update` says when a new still state is ready to be read."""

    fps: float
    still_seconds: float = 0.4
    motion_threshold: float = 8.0  # grey levels (of 255) a pixel must move to count
    motion_fraction: float = 0.004  # share of moving pixels that makes the frame "moving"
    change_fraction: float = 0.0008  # share of changed pixels since the last read state
    _previous: np.ndarray | None = None
    _still_frames: int = 0
    _last_read: np.ndarray | None = None
    _fired: bool = False
    moving: bool = False
    motion_mask: np.ndarray | None = field(default=None, repr=False)  # where the last motion was (small frame)
    _motion_accumulated: np.ndarray | None = field(default=None, repr=False)
    _last_ratio: float = 1.0
    _frame_no: int = 0
    _motion_frame: np.ndarray | None = field(default=None, repr=False)  # per small pixel: the last frame it moved

    def settled_at(self, box: tuple[float, float, float, float]) -> float | None:
        """When the region (x0, y0, x1, y1, as fractions of the frame) last moved, in seconds of
        frames fed: a tile put down stops moving there, so of two tiles the later one settled later."""
        if self._motion_frame is None:
            return None
        h, w = self._motion_frame.shape
        x0, y0, x1, y1 = box
        region = self._motion_frame[max(0, int(y0 * h)) : int(np.ceil(y1 * h)), max(0, int(x0 * w)) : int(np.ceil(x1 * w))]
        return float(np.median(region)) / self.fps if region.size else None

    def _diff(self, a: np.ndarray, b: np.ndarray) -> np.ndarray:
        # Undo a global brightness change (flicker, auto-exposure) before comparing; the median,
        # not the mean, so that an arm over the table does not rescale the whole frame.
        ratio = float(np.clip(np.median(a) / max(float(np.median(b)), 1.0), 0.5, 2.0))
        self._last_ratio = ratio
        scaled = b * ratio
        # Saturated highlights do not scale with the exposure: they are no evidence of motion.
        return (np.abs(a - scaled) > self.motion_threshold) & (a < 235) & (scaled < 235)

    def update(self, image: np.ndarray) -> bool:
        """True when this frame is a still table that differs from the last state read."""
        small = small_grey(image)
        self._frame_no += 1
        if self._previous is None or self._previous.shape != small.shape:
            self._previous = small
            self._still_frames = 0
            self._motion_accumulated = np.zeros(small.shape, bool)
            self._motion_frame = np.zeros(small.shape, np.float32)
            return False
        moved = self._diff(small, self._previous)
        self._previous = small
        if moved.mean() > self.motion_fraction:
            self.moving = True
            self._still_frames = 0
            self._fired = False
            if abs(self._last_ratio - 1.0) < 0.04:
                # An exposure step moves every pixel a little; it says nothing about where an arm was.
                self._motion_accumulated |= moved
                assert self._motion_frame is not None
                self._motion_frame[moved] = self._frame_no
            return False
        self._still_frames += 1
        if self._still_frames < max(1, int(round(self.still_seconds * self.fps))) or self._fired:
            return False
        self._fired = True
        self.moving = False
        self.motion_mask = self._motion_accumulated
        self._motion_accumulated = np.zeros(small.shape, bool)
        if self._last_read is not None and self._diff(small, self._last_read).mean() < self.change_fraction:
            return False  # still, but nothing changed since the last read
        self._last_read = small
        return True

    def force_reread(self) -> None:
        self._last_read = None
