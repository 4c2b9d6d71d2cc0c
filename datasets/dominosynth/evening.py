"""What a real evening adds to a game video: light that drifts or steps, shadows, hovering hands, a
bumped camera, people leaning in, a sleeve brushing a tile, a focus that breathes -- and, apart, the
lights dimmed mid-game under a camera that does not brighten them back.

Each condition is a name in :data:`CONDITIONS`; :class:`Evening` draws its own random timing from
its own seed, so a video with conditions shows the same game, layout and arms as the one without.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field

import cv2
import numpy as np

from dominosynth.render import draw_arm

CONDITIONS = ("drift", "shadow", "hover", "bump", "lamp", "lean", "brush", "focus", "dim")
# The evening the issue describes: the light drifting, arms' shadows, hands hovering, the camera knocked once.
# ("all" is every condition a table is read through; "dim" is left out: a room too dark to read is there for
# what the app says of it.)
PRESETS = {"evening": ("drift", "shadow", "hover", "bump"), "all": CONDITIONS[:-1]}

DRIFT = 0.12  # the exposure's and each colour's slow wander, at most this share either way
HOVER_SHARE = 1 / 3
BUMP_PX = (3.0, 4.0)
DIMMED = 0.1  # the light's share left once the room is dimmed (the exposure fixed; the sensor's noise as before)


def parse_conditions(text: str) -> frozenset[str]:
    """``drift+shadow``, ``evening`` or ``all`` (``main``/empty: none) as a set of condition names."""
    names: set[str] = set()
    for part in filter(None, text.replace(",", "+").split("+")):
        if part == "main":
            continue
        if part in PRESETS:
            names.update(PRESETS[part])
        elif part in CONDITIONS:
            names.add(part)
        else:
            raise ValueError(f"unknown condition {part!r}: expected one of {', '.join(CONDITIONS + tuple(PRESETS))}")
    return frozenset(names)


def conditions_name(conditions: frozenset[str]) -> str:
    for preset, names in PRESETS.items():
        if conditions == frozenset(names):
            return preset
    return "+".join(sorted(conditions))


def _wander(rng: random.Random, seconds: float) -> tuple[tuple[float, float, float], ...]:
    """A smooth wander in [-1, 1]: three sines of periods between a few and `seconds` seconds."""
    return tuple((rng.uniform(0.5, 1.0), rng.uniform(3.0, seconds), rng.uniform(0, 2 * math.pi)) for _ in range(3))


def _at(wander: tuple[tuple[float, float, float], ...], t: float) -> float:
    total = sum(a for a, _, _ in wander)
    return sum(a * math.sin(2 * math.pi * t / p + ph) for a, p, ph in wander) / total


@dataclass
class Evening:
    """The conditions of one video, applied frame by frame (``frame``) and to arms (``arm``)."""

    conditions: frozenset[str]
    seed: int
    size: tuple[int, int]
    fps: float
    expected_seconds: float  # about how long the video runs: one-off happenings fall in its middle
    rng: random.Random = field(init=False)

    def __post_init__(self) -> None:
        self.rng = random.Random(self.seed * 7919 + 17)
        rng = self.rng
        self.exposure = _wander(rng, 12.0)
        self.balance = [_wander(rng, 10.0) for _ in range(3)]
        mid = self.expected_seconds
        self.lamp_at = rng.uniform(0.3, 0.7) * mid
        self.lamp = (rng.uniform(1.15, 1.3), np.array([0.93, 1.0, 1.08]) if rng.random() < 0.5 else np.array([1.07, 1.0, 0.94]))
        self.bump_at = rng.uniform(0.35, 0.65) * mid
        scale = self.size[0] / 1280  # (lengths in pixels are a 1280-wide frame's)
        angle = rng.uniform(0, 2 * math.pi)
        length = rng.uniform(*BUMP_PX) * scale
        self.bump = (length * math.cos(angle), length * math.sin(angle), rng.uniform(-0.3, 0.3))
        self.bumped = False
        self.leans = self._happenings(rng, every=25.0, lasting=(1.0, 3.0))
        self.blurs = self._happenings(rng, every=20.0, lasting=(0.8, 1.2))
        self.shadow_offset = (rng.uniform(14, 30) * scale * rng.choice((-1, 1)), rng.uniform(10, 24) * scale * rng.choice((-1, 1)))
        self.brushes_left = rng.randint(1, 2)
        # (Its own numbers: the evening's draws for the other conditions stay as they were.)
        self.dim_at = random.Random(self.seed * 7919 + 29).uniform(0.4, 0.6) * mid

    def _happenings(self, rng: random.Random, every: float, lasting: tuple[float, float]) -> list[tuple[float, float, tuple[float, float], float]]:
        out = []
        t = rng.uniform(0.2, 1.0) * every
        while t < self.expected_seconds * 1.5:
            out.append((t, rng.uniform(*lasting), (rng.uniform(0.1, 0.9), rng.uniform(0.1, 0.9)), rng.uniform(0.25, 0.4)))
            t += rng.uniform(0.6, 1.4) * every
        return out

    # -- the whole picture -------------------------------------------------------------------------

    def frame(self, img: np.ndarray, t: float) -> np.ndarray:
        """The picture as the camera gives it at time ``t`` (float32, before the sensor's noise)."""
        if "lean" in self.conditions:
            img = self._lean(img, t)
        gain = np.ones(3, np.float32)
        if "drift" in self.conditions:
            gain *= 1.0 + DRIFT * 0.5 * _at(self.exposure, t)
            gain *= np.array([1.0 + DRIFT * 0.5 * _at(b, t) for b in self.balance], np.float32)
        if "lamp" in self.conditions and t >= self.lamp_at:
            gain *= self.lamp[0] * self.lamp[1].astype(np.float32)
        if "dim" in self.conditions and t >= self.dim_at:
            gain *= DIMMED
        if not np.allclose(gain, 1.0):
            img = img * gain[None, None, :]
        if "focus" in self.conditions:
            for start, length, _, _ in self.blurs:
                if start <= t < start + length:
                    sigma = 2.2 * self.size[0] / 1280 * math.sin(math.pi * (t - start) / length)
                    if sigma > 0.3 * self.size[0] / 1280:
                        img = cv2.GaussianBlur(img, (0, 0), sigma)
        if "bump" in self.conditions and t >= self.bump_at:
            shake = 0.0 if t >= self.bump_at + 0.2 else 6.0 * self.size[0] / 1280 * math.sin((t - self.bump_at) * 2 * math.pi / 0.1)
            dx, dy, degrees = self.bump
            img = self._moved(img, dx + shake, dy - shake * 0.5, degrees)
            self.bumped = True
        return img

    def _moved(self, img: np.ndarray, dx: float, dy: float, degrees: float) -> np.ndarray:
        h, w = img.shape[:2]
        m = cv2.getRotationMatrix2D((w / 2, h / 2), degrees, 1.0)
        m[:, 2] += (dx, dy)
        return cv2.warpAffine(img, m, (w, h), borderMode=cv2.BORDER_REFLECT)

    def moved_points(self, points: np.ndarray, t: float) -> np.ndarray:
        """Label corners where the bumped camera sees them (the settled move, not the shake)."""
        if "bump" not in self.conditions or t < self.bump_at:
            return points
        h, w = self.size[1], self.size[0]
        dx, dy, degrees = self.bump
        m = cv2.getRotationMatrix2D((w / 2, h / 2), degrees, 1.0)
        m[:, 2] += (dx, dy)
        pts = np.asarray(points, np.float64).reshape(-1, 2)
        return (pts @ m[:, :2].T + m[:, 2]).reshape(np.shape(points))

    def _lean(self, img: np.ndarray, t: float) -> np.ndarray:
        h, w = img.shape[:2]
        for start, length, (cx, cy), depth in self.leans:
            if start <= t < start + length:
                f = (t - start) / length
                strength = depth * math.sin(math.pi * f)  # comes and goes softly
                yy, xx = np.ogrid[0 : 1 : h // 8 * 1j, 0 : 1 : w // 8 * 1j]
                d2 = ((xx - cx - 0.1 * f) / 0.35) ** 2 + ((yy - cy) / 0.45) ** 2
                shade = cv2.resize((1.0 - strength * np.exp(-d2 * 1.5)).astype(np.float32), (w, h), interpolation=cv2.INTER_LINEAR)
                img = img * shade[:, :, None]
        return img

    # -- arms --------------------------------------------------------------------------------------

    def arm(self, img: np.ndarray, start: tuple[float, float], end: tuple[float, float], width: int,
            rng: random.Random, skin: tuple[float, float, float]) -> None:
        """An arm drawn in place, with its soft shadow on the table below it where shadows are on."""
        if "shadow" in self.conditions:
            scratch = np.zeros_like(img)
            mask = draw_arm(scratch, start, end, width, rng, skin)
            # (Soft, so it is made at a quarter of the size: the same shadow, a sixteenth of the work.)
            h, w = img.shape[:2]
            dx, dy = self.shadow_offset
            small = cv2.resize(mask, (w // 4, h // 4), interpolation=cv2.INTER_AREA)
            small = cv2.warpAffine(small, np.float32([[1, 0, dx / 4], [0, 1, dy / 4]]), (w // 4, h // 4))
            soft = cv2.resize(cv2.GaussianBlur(small, (0, 0), 9.0 / 4), (w, h), interpolation=cv2.INTER_LINEAR)
            img *= (1.0 - 0.32 * np.clip(soft, 0, 1))[:, :, None]
        draw_arm(img, start, end, width, rng, skin)

    def hover_point(self, target: tuple[float, float], size: tuple[int, int]) -> tuple[float, float] | None:
        """Where a hand hovers before it lays its tile (about one play in three), or None."""
        if "hover" not in self.conditions or self.rng.random() >= HOVER_SHARE:
            return None
        w, h = size
        scale = w / 1280
        return (float(np.clip(target[0] + self.rng.uniform(-90, 90) * scale, 0.25 * w, 0.75 * w)),
                float(np.clip(target[1] + self.rng.uniform(-70, 70) * scale, 0.25 * h, 0.75 * h)))

    def hover_seconds(self) -> float:
        return self.rng.uniform(0.5, 1.5)

    def brush(self) -> tuple[float, float, float] | None:
        """Now and then (while "brush" is on) a sleeve moves a laid tile: (dx mm, dy mm, radians), or None."""
        if "brush" not in self.conditions or self.brushes_left == 0 or self.rng.random() > 0.06:
            return None
        self.brushes_left -= 1
        angle = self.rng.uniform(0, 2 * math.pi)
        length = self.rng.uniform(2.0, 4.0)
        return (length * math.cos(angle), length * math.sin(angle), math.radians(self.rng.uniform(-5, 5)))
