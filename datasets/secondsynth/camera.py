"""The webcam: a slightly tilted view of the table (a homography), lens blur, the room's light as the camera's
exposure and white balance see it, sensor noise -- and the conditions that change them over time."""

from __future__ import annotations

import math
import random
from dataclasses import dataclass

import cv2
import numpy as np


def _smooth(t: float, a: float, b: float) -> float:
    x = min(1.0, max(0.0, (t - a) / (b - a)))
    return x * x * (3 - 2 * x)


class Wander:
    """A smooth random curve in [-1, 1]: a sum of slow sines."""

    def __init__(self, rng: random.Random, lo: float = 4.0, hi: float = 14.0, n: int = 3) -> None:
        self.parts = [(rng.uniform(lo, hi), rng.uniform(0, 2 * math.pi), rng.uniform(0.5, 1.0)) for _ in range(n)]
        self.norm = sum(a for _, _, a in self.parts)

    def __call__(self, t: float) -> float:
        return sum(a * math.sin(2 * math.pi * t / p + ph) for p, ph, a in self.parts) / self.norm


@dataclass
class Lean:
    t0: float
    dur: float
    cx: float
    cy: float
    vx: float  # px per second
    vy: float
    depth: float
    blob: np.ndarray  # float32 soft mask, centred


@dataclass
class Focus:
    t0: float
    dur: float
    peak: float


class Camera:
    def __init__(self, rng: random.Random, size: tuple[int, int], conditions: frozenset[str], duration: float,
                 busy: list[tuple[float, float]]) -> None:
        W, H = size
        self.W, self.H = W, H
        self.k = W / 1280.0
        m = rng.uniform(0.018, 0.03)
        tilt = rng.uniform(0.008, 0.02)
        src = np.float32([[m * W, m * H], [(1 - m) * W, m * H], [(1 - m) * W, (1 - m) * H], [m * W, (1 - m) * H]])
        edge = rng.randrange(4)  # the far edge, seen smaller: its corners are pulled outward
        pairs = [(0, 1), (1, 2), (2, 3), (3, 0)][edge]
        c = src.mean(0)
        for i in pairs:
            other = [j for j in pairs if j != i][0]
            along = (src[i] - src[other]) / np.linalg.norm(src[i] - src[other])
            src[i] += along * tilt * W
        rot = math.radians(rng.uniform(-0.6, 0.6))
        R = np.float32([[math.cos(rot), -math.sin(rot)], [math.sin(rot), math.cos(rot)]])
        self.src = ((src - c) @ R.T + c).astype(np.float32)
        self.dst = np.float32([[0, 0], [W, 0], [W, H], [0, H]])
        self.blur = rng.uniform(0.55, 0.9) * self.k
        self.noise_sigma = rng.uniform(1.5, 3.5)
        g = np.random.default_rng(rng.getrandbits(32))
        self.noise = []
        for _ in range(6):
            n = g.standard_normal((H, W, 1)) * self.noise_sigma * 0.7 + g.standard_normal((H, W, 3)) * self.noise_sigma * 0.5
            self.noise.append((np.clip(n, 0, 255).astype(np.uint8), np.clip(-n, 0, 255).astype(np.uint8)))
        self.base_gain = np.array([rng.uniform(0.97, 1.03), 1.0, rng.uniform(0.95, 1.05)], np.float32)
        self.cond = conditions
        self.duration = duration
        self.drift = [Wander(rng) for _ in range(4)] if "drift" in conditions else None
        self.lamp = None
        if "lamp" in conditions:
            warmer = rng.random() < 0.5
            tint = np.array([1.06, 1.0, 0.9] if warmer else [0.93, 1.0, 1.08], np.float32)
            self.lamp = (rng.uniform(0.25, 0.75) * duration, rng.uniform(0.72, 0.84), tint)
        self.bump = None
        if "bump" in conditions:
            a = rng.uniform(0, 2 * math.pi)
            r = rng.uniform(3.0, 4.0) * self.k
            self.bump = (rng.uniform(0.35, 0.65) * duration, r * math.cos(a), r * math.sin(a),
                         math.radians(rng.uniform(-0.3, 0.3)), rng.uniform(0, 2 * math.pi))
        self.leans: list[Lean] = []
        if "lean" in conditions:
            n = max(1, int(duration / 35)) + rng.randint(0, 1)
            for i in range(n):
                t0 = rng.uniform(0.05, 0.95) * duration if n == 1 else (i + rng.uniform(0.1, 0.9)) * duration / n
                side = rng.randrange(4)
                rx, ry = rng.uniform(0.22, 0.35) * W, rng.uniform(0.22, 0.4) * H
                cx, cy = [(rng.uniform(0.25, 0.75) * W, H + ry * 0.3), (-rx * 0.3, rng.uniform(0.3, 0.7) * H),
                          (rng.uniform(0.25, 0.75) * W, -ry * 0.3), (W + rx * 0.3, rng.uniform(0.3, 0.7) * H)][side]
                inward = [(0, -1), (1, 0), (0, 1), (-1, 0)][side]
                speed = rng.uniform(20, 45) * self.k
                sw = rng.uniform(-1, 1) * speed * 0.5
                vx = inward[0] * speed + (sw if inward[0] == 0 else 0)
                vy = inward[1] * speed + (sw if inward[1] == 0 else 0)
                blob = np.zeros((int(2.6 * ry), int(2.6 * rx)), np.float32)
                cv2.ellipse(blob, (blob.shape[1] // 2, blob.shape[0] // 2), (int(rx * 0.8), int(ry * 0.8)),
                            rng.uniform(0, 180), 0, 360, 1.0, -1)
                blob = cv2.GaussianBlur(blob, (0, 0), 0.22 * min(rx, ry))
                self.leans.append(Lean(t0, rng.uniform(1.0, 3.0), cx, cy, vx, vy, rng.uniform(0.3, 0.5), blob))
        self.focus: list[Focus] = []
        if "focus" in conditions:
            t = rng.uniform(3, 12)
            while t < duration - 1.5:
                self.focus.append(Focus(t, rng.uniform(0.8, 1.3), rng.uniform(1.6, 2.6) * self.k))
                t += rng.uniform(8, 20)

    # -- over time ---------------------------------------------------------------------------------

    def pose(self, t: float) -> tuple[float, float, float, float]:
        """(dx, dy, rotation, zoom) of the view at ``t``."""
        dx = dy = rot = 0.0
        zoom = 1.0
        if self.bump is not None:
            tb, bx, by, br, ph = self.bump
            if t >= tb:
                e = t - tb
                settle = 1 - math.exp(-e / 0.04)
                shake = math.exp(-e / 0.06) * math.sin(2 * math.pi * 14 * e + ph) if e < 0.25 else 0.0
                dx = bx * settle + 5 * self.k * shake
                dy = by * settle + 4 * self.k * shake * math.cos(ph)
                rot = br * settle
        f = self.focus_at(t)
        if f:
            zoom += 0.004 * f[1]
        return dx, dy, rot, zoom

    def focus_at(self, t: float) -> tuple[float, float] | None:
        for f in self.focus:
            if f.t0 <= t <= f.t0 + f.dur:
                x = math.sin(math.pi * (t - f.t0) / f.dur) ** 2
                return f.peak * x, x
        return None

    def gain(self, t: float) -> np.ndarray:
        g = self.base_gain.copy()
        if self.drift is not None:
            g *= 1 + 0.075 * self.drift[0](t)
            g *= 1 + 0.055 * np.array([self.drift[1](t), self.drift[2](t), self.drift[3](t)], np.float32)
        if self.lamp is not None:
            tl, before, tint = self.lamp
            x = _smooth(t, tl, tl + 1.6 / 30.0)
            g *= (before + (1 - before) * x) * (1 + (tint - 1) * x)
        return g

    def leans_at(self, t: float) -> list[tuple[Lean, float, float, float]]:
        out = []
        for ln in self.leans:
            e = t - ln.t0
            if 0 <= e <= ln.dur:
                env = _smooth(e, 0, 0.35) * (1 - _smooth(e, ln.dur - 0.35, ln.dur))
                out.append((ln, ln.cx + ln.vx * e, ln.cy + ln.vy * e, env))
        return out

    # -- a frame -----------------------------------------------------------------------------------

    def homography(self, pose) -> np.ndarray:
        dx, dy, rot, zoom = pose
        c = np.float32([self.W / 2, self.H / 2])
        R = np.float32([[math.cos(rot), -math.sin(rot)], [math.sin(rot), math.cos(rot)]]) * zoom
        dst = (self.dst - c) @ R.T + c + np.float32([dx, dy])
        return cv2.getPerspectiveTransform(self.src, dst.astype(np.float32))

    def optics(self, table_img: np.ndarray, pose, extra_blur: float) -> np.ndarray:
        out = cv2.warpPerspective(table_img, self.homography(pose), (self.W, self.H), flags=cv2.INTER_LINEAR,
                                  borderMode=cv2.BORDER_REFLECT)
        sigma = math.hypot(self.blur, extra_blur)
        return cv2.GaussianBlur(out, (0, 0), sigma)

    def sensor(self, img: np.ndarray, t: float, index: int) -> np.ndarray:
        g = self.gain(t)
        lut = np.clip(np.arange(256, dtype=np.float32)[:, None] * g[None, :], 0, 255).astype(np.uint8)
        out = cv2.LUT(img, lut.reshape(256, 1, 3))
        pos, neg = self.noise[index % len(self.noise)]
        out = cv2.add(out, pos)
        return cv2.subtract(out, neg)


def apply_lean(img: np.ndarray, lean: Lean, cx: float, cy: float, env: float) -> None:
    """Darkens ``img`` (uint8, table pixels) under a leaning person, in place."""
    H, W = img.shape[:2]
    bh, bw = lean.blob.shape
    x0, y0 = int(cx - bw / 2), int(cy - bh / 2)
    ax0, ay0, ax1, ay1 = max(0, x0), max(0, y0), min(W, x0 + bw), min(H, y0 + bh)
    if ax1 <= ax0 or ay1 <= ay0:
        return
    m = lean.blob[ay0 - y0:ay1 - y0, ax0 - x0:ax1 - x0]
    roi = img[ay0:ay1, ax0:ax1].astype(np.float32)
    roi *= (1 - lean.depth * env * m)[..., None]
    img[ay0:ay1, ax0:ax1] = (roi + 0.5).astype(np.uint8)
