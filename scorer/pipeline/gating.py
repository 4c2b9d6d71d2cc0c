"""Deciding when the table is still, and when it changed since it was last read.

Frames are compared small and in colour, after undoing any global brightness change,
so a light flicker or the camera's auto-exposure does not count as motion -- nor does a shade drifting
smoothly over part of the table (someone leaning in) or the focus breathing.  Only a still
table that differs from the last one read is passed on: a still table costs
almost nothing.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field

import cv2
import numpy as np

from scorer.pipeline.places import light_change, relit
from scorer.vision.grain import grainy

SMALL_WIDTH = 160
# A frame differing from the last over this share of its pixels changed as a whole (light, a
# camera glitch): no arm moves so much between two frames.
GLOBAL_CHANGE = 0.25
# A table changed since the last read counts pixels that moved by this share of the picture's contrast
# (its 1st to 99th percentile), up to the motion threshold: in a dim room, a black tile put down on a
# dark cloth differs from it by a few grey levels only (its pips by more, but they are specks at the
# gate's scale); two still frames of it differ by under two.
CHANGE_CONTRAST = 0.08
MIN_CHANGE_THRESHOLD = 3.0
# A pixel at this level or above in any channel is taken as clipped: its true brightness may be
# anything above, so it does not follow a change of the light.
CLIPPED = 250
# The light's change is measured on the pixels clipped in neither frame where at least this share is.
UNCLIPPED_FOR_RATIO = 0.05
# A change of the light beyond this (an exposure step, not a lamp's flicker) since the last read, where
# it leaves glare in which a change could hide, is a reason to read the table again.
EXPOSURE_STEP = 0.06
# Between two frames, a change of the light (beyond a flicker's 4 %) that moves the picture's median by
# less than this many grey levels is no exposure step: on a near-black table (median 6) a bright arm
# coming in lifts the median by half a level -- 8 % -- and its motion must still be seen.
LIGHT_STEP_LEVELS = 1.5
# A change that softening one frame by this much (small pixels) explains is the focus breathing, not motion.
FOCUS_SIGMA = 0.6
# The light's change over the table is smoothed over this many small pixels (a tenth of the picture's
# width): a shade drifting over the table follows it, an arm (narrower, sharp-edged) does not.
SHADE_SIGMA = 12.0
# A webcam's gain in a dim room puts fresh noise on every pixel of every frame, and every frame would be
# moving.  The noise of two frames' difference is its median absolute deviation over the picture, as a
# sigma (under half the pixels move between two frames: GLOBAL_CHANGE), taken as its median over the last
# NOISE_FRAMES frames.  Where that is over NOISY_CAMERA grey levels -- which an ordinary camera's frames,
# this small, stay well under -- and the frame itself is grainy (a camera panning changes every pixel too,
# but leaves each frame clean), a pixel counts as moved or changed only beyond NOISE_MULTIPLE times it
# (docs/experiments.md).
NOISE_FRAMES = 15
NOISY_CAMERA = 2.0
NOISE_MULTIPLE = 5.0
_MEDIAN_TO_SIGMA = 1.4826


@dataclass(frozen=True)
class SmallFrame:
    """A frame small and lightly blurred, in colour (a dark tile on a dark blue cloth barely differs in
    grey, but plainly in its blue), with the share of each small pixel that was clipped at full size."""

    picture: np.ndarray  # float32, h x w x channels
    clipped: np.ndarray  # float32, h x w, 0..1


def small_picture(image: np.ndarray) -> SmallFrame:
    h, w = image.shape[:2]
    size = (SMALL_WIDTH, max(1, int(round(h * SMALL_WIDTH / w))))
    small = cv2.resize(image, size, interpolation=cv2.INTER_AREA).astype(np.float32)
    channels = 1 if image.ndim == 2 else image.shape[2]
    # A pixel is clipped where any of its channels is: one mask, a third of the data to shrink.
    unclipped = cv2.inRange(image, (0,) * channels, (CLIPPED - 1,) * channels)
    clipped = 1.0 - cv2.resize(unclipped, size, interpolation=cv2.INTER_AREA).astype(np.float32) / 255.0
    return SmallFrame(cv2.GaussianBlur(small, (0, 0), 1.0), cv2.GaussianBlur(clipped, (0, 0), 1.0))


def _light(now: SmallFrame, before: SmallFrame) -> tuple[float, float]:
    """The light's change between two frames: as a ratio, and in grey levels at the median."""
    a, b = now.picture, before.picture
    # The median, not the mean, so that an arm over the table does not rescale the whole frame -- and of
    # the pixels clipped in neither frame, which follow the light (in an overexposed picture the median
    # pixel may be clipped, and would say the light never changes).
    unclipped = (now.clipped == 0) & (before.clipped == 0)
    if unclipped.mean() >= UNCLIPPED_FOR_RATIO:
        a_median, b_median = float(np.median(a[unclipped])), float(np.median(b[unclipped]))
    else:
        a_median, b_median = float(np.median(a)), float(np.median(b))
    return float(np.clip(a_median / max(b_median, 1.0), 0.5, 2.0)), abs(a_median - b_median)


@dataclass
class Gate:
    """Feed every frame; :meth:`update` says when a new still state is ready to be read."""

    fps: float
    still_seconds: float = 0.4
    motion_threshold: float = 8.0  # grey levels (of 255) a pixel must move to count
    motion_fraction: float = 0.004  # share of moving pixels that makes the frame "moving"
    change_fraction: float = 0.0008  # share of changed pixels since the last read state
    quiet_fraction: float = 0.0005  # at most this share of moving pixels: a truly quiet frame
    _previous: SmallFrame | None = None
    _still_frames: int = 0
    _quiet_frames: int = 0
    _last_read: SmallFrame | None = None
    _fired: bool = False
    _looked_unchanged: bool = False  # the last still look found nothing changed since the last read
    moving: bool = False
    motion_mask: np.ndarray | None = field(default=None, repr=False)  # where the last motion was (small frame)
    _motion_accumulated: np.ndarray | None = field(default=None, repr=False)
    _frame_no: int = 0
    _motion_frame: np.ndarray | None = field(default=None, repr=False)  # per small pixel: the last frame it moved
    _noises: deque[float] = field(default_factory=lambda: deque(maxlen=NOISE_FRAMES), repr=False)
    _noise_floor: float = 0.0  # the sensor noise's share of the thresholds (NOISY_CAMERA)

    @property
    def now(self) -> float:
        """The time of the last frame fed, in seconds of frames fed (the clock of :meth:`settled_at`)."""
        return self._frame_no / self.fps

    def settled_at(self, box: tuple[float, float, float, float]) -> float | None:
        """When the region (x0, y0, x1, y1, as fractions of the frame) last moved, in seconds of
        frames fed: a tile put down stops moving there, so of two tiles the later one settled later."""
        if self._motion_frame is None:
            return None
        h, w = self._motion_frame.shape
        x0, y0, x1, y1 = box
        region = self._motion_frame[max(0, int(y0 * h)) : int(np.ceil(y1 * h)), max(0, int(x0 * w)) : int(np.ceil(x1 * w))]
        return float(np.median(region)) / self.fps if region.size else None

    def _changed(self, small: SmallFrame) -> bool:
        """Whether the still table differs from the last state read (none read yet: it does)."""
        if self._last_read is None:
            return True
        picture = small.picture
        low, high = np.percentile(picture.max(axis=2) if picture.ndim == 3 else picture, (1, 99))
        threshold = float(np.clip(CHANGE_CONTRAST * (high - low), MIN_CHANGE_THRESHOLD, self.motion_threshold))
        moved, ratio, _ = self._diff(small, self._last_read, threshold)
        if float(moved.mean()) >= self.change_fraction:
            return True
        # The camera's exposure stepped since the last read: what lay in the glare then (a white tile put
        # down on a blown-out table) cannot be told from what lies there now -- read it again.
        if abs(ratio - 1.0) <= EXPOSURE_STEP:
            return False
        glare = (small.clipped > 0.5) | (self._last_read.clipped > 0.5)
        return float(glare.mean()) >= self.change_fraction

    def _diff(self, now: SmallFrame, before: SmallFrame, threshold: float | None = None) -> tuple[np.ndarray, float, float]:
        """Where the picture moved between two frames (small pixels), and the light's change between
        them: as a ratio, and in grey levels at the median."""
        a, b = now.picture, before.picture
        ratio, step = _light(now, before)  # (a global brightness change -- flicker, auto-exposure -- undone)
        # A pixel that did not move reads anywhere from as it was to as it was scaled by the light: a
        # clipped pixel does not follow the light (its true value may be anything above 255; a pixel
        # partly clipped follows it partly), nor does one the recording's encoder copied unchanged from
        # the frame before.  Only a pixel outside that range, by more than the threshold, moved.
        scaled = b * ratio
        threshold = max(self.motion_threshold if threshold is None else threshold, self._noise_floor)
        moved = (a < np.minimum(b, scaled) - threshold) | (a > np.maximum(b, scaled) + threshold)
        return (moved.any(axis=2) if moved.ndim == 3 else moved), ratio, step

    def _not_focus(self, now: SmallFrame, before: SmallFrame) -> np.ndarray:
        """Where the picture changed otherwise than by going softer or sharper (a camera's focus
        breathing changes every edge a little at once; an arm changes what is there)."""
        softer = SmallFrame(cv2.GaussianBlur(before.picture, (0, 0), FOCUS_SIGMA), before.clipped)
        sharper = SmallFrame(cv2.GaussianBlur(now.picture, (0, 0), FOCUS_SIGMA), now.clipped)
        went_softer, _, _ = self._diff(now, softer)
        went_sharper, _, _ = self._diff(sharper, before)
        changed: np.ndarray = went_softer & went_sharper
        return changed

    def _not_shade(self, now: SmallFrame, before: SmallFrame) -> np.ndarray:
        """Where the picture changed otherwise than by the light changing smoothly over the table (someone
        leaning in and shading part of it, a lamp to one side): an arm's change is sharp, a shade's is not."""
        light = np.clip(light_change(before.picture, now.picture, SHADE_SIGMA), 0.5, 2.0)
        changed, _, _ = self._diff(now, SmallFrame(relit(before.picture, light).astype(np.float32), before.clipped))
        return changed

    def _follow_noise(self, image: np.ndarray, now: SmallFrame, before: SmallFrame) -> None:
        """The camera's noise with this frame's (:data:`NOISY_CAMERA`), and the thresholds' floor it sets from
        the next frame on.  The spread of the two frames' difference about its median: a lamp's flicker
        shifts the whole difference (nearly alike), an arm moves a few pixels, and neither spreads it much."""
        difference = now.picture[::2, ::2] - before.picture[::2, ::2]
        if difference.any():  # (a frame repeated as it was -- a recording's, a slow webcam's -- tells nothing)
            self._noises.append(_MEDIAN_TO_SIGMA * float(np.median(np.abs(difference - np.median(difference)))))
        noise = float(np.median(self._noises)) if self._noises else 0.0
        self._noise_floor = NOISE_MULTIPLE * noise if noise > NOISY_CAMERA and grainy(image) else 0.0

    def _restart(self, small: SmallFrame) -> None:
        """The first frame, or one of a new size (another camera): nothing before it counts."""
        self._previous = small
        self._still_frames = 0
        self._motion_accumulated = np.zeros(small.clipped.shape, bool)
        self._motion_frame = np.zeros(small.clipped.shape, np.float32)
        self._noises.clear()

    def update(self, image: np.ndarray) -> bool:
        """True when this frame is a still table that differs from the last state read."""
        small = small_picture(image)
        self._frame_no += 1
        shape = small.clipped.shape
        if self._previous is None or self._previous.clipped.shape != shape:
            self._restart(small)
            return False
        moved, ratio, step = self._diff(small, self._previous)
        self._follow_noise(image, small, self._previous)
        whole = float(moved.mean()) >= GLOBAL_CHANGE  # (before the shade and focus are taken out)
        if moved.mean() > self.quiet_fraction:
            moved &= self._not_focus(small, self._previous)
            if moved.any():  # (what the focus explains away needs no test of the shade)
                moved &= self._not_shade(small, self._previous)
        self._previous = small
        share = float(moved.mean())
        if self._looked_unchanged and share > self.motion_fraction:
            # A new motion after a still look that found nothing changed: the motion before it touched nothing.
            assert self._motion_accumulated is not None
            self._motion_accumulated[:] = False
            self._looked_unchanged = False
        if (abs(ratio - 1.0) < 0.04 or step < LIGHT_STEP_LEVELS) and self.quiet_fraction < share and not whole:
            # An exposure step or a glitch of the whole picture moves every pixel; it says nothing about
            # where an arm was.  Faint motion counts (an arm the colour of the table moves few pixels),
            # a speck of noise not.
            assert self._motion_accumulated is not None and self._motion_frame is not None
            self._motion_accumulated |= moved
            self._motion_frame[moved] = self._frame_no
        self._quiet_frames = self._quiet_frames + 1 if share <= self.quiet_fraction else 0
        if share > self.motion_fraction:
            self.moving = True
            self._still_frames = 0
            self._fired = False
            return False
        self._still_frames += 1
        needed = max(1, int(round(self.still_seconds * self.fps)))
        if self._still_frames < needed:
            return False
        if self._fired and self._last_read is not None:
            # Still all along, yet the table changed under motion too faint to count as moving (a
            # tile put down by an arm the colour of the table): once quiet, that is a new state too.
            # (Still all along and asked to read again -- an answer came -- it reads at once.)
            if self._quiet_frames < needed or not self._changed(small):
                return False
        self._fired = True
        self.moving = False
        if not self._changed(small):
            # Still, but nothing changed since the last read: the motion is kept for a change that shows
            # later in this stillness (a small tile put down can show only a few frames on, once quiet).
            self._looked_unchanged = True
            return False
        self._looked_unchanged = False
        self.motion_mask = self._motion_accumulated
        self._motion_accumulated = np.zeros(small.clipped.shape, bool)
        self._last_read = small
        return True

    def force_reread(self) -> None:
        self._last_read = None

    def jumped(self) -> None:
        """The frames go on from another moment (a seek): the next is compared with none before it (the
        jump to it is no arm moving), and the still table then is read."""
        self._previous = self._last_read = None
        self._fired = self._looked_unchanged = self.moving = False
