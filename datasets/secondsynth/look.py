"""What one video's table, tile set, people and camera look like, drawn from its seed."""

from __future__ import annotations

import colorsys
import random
from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class TileSet:
    body: tuple[int, int, int]  # RGB of the face
    back: tuple[int, int, int]
    pips: tuple[tuple[int, int, int], ...]  # colour of each value 0..6 (0 unused)
    divider: tuple[int, int, int]
    pin: bool  # a brass pin in the divider's middle
    pip_mm: float  # pip radius
    corner_mm: float
    thickness_mm: float
    back_pattern: str  # "plain" | "ring" | "grain"
    diagonal: int  # +1 or -1: which diagonal the 2 and 3 run along


@dataclass(frozen=True)
class Person:
    skin: tuple[int, int, int]
    sleeve: tuple[int, int, int]
    sleeve_back_mm: float  # how far behind the wrist the sleeve's cuff is
    right_handed: bool
    hand_scale: float


_COLOUR_DOTS = [(40, 120, 210), (40, 150, 70), (205, 40, 40), (125, 75, 35), (30, 45, 140),
                (225, 160, 20), (165, 55, 160), (235, 110, 30), (20, 20, 20)]


def tile_set(rng: random.Random) -> TileSet:
    kind = rng.choices(["ivory", "white", "dots", "black", "colour", "ivory-colour"], [3, 2, 2, 2, 1.5, 1])[0]
    dark = (rng.randint(10, 35),) * 3
    if kind in ("ivory", "ivory-colour"):
        body = (rng.randint(228, 242), rng.randint(220, 234), rng.randint(190, 212))
    elif kind in ("white", "dots"):
        v = rng.randint(236, 250)
        body = (v, v, v - rng.randint(0, 6))
    elif kind == "black":
        v = rng.randint(14, 34)
        body = (v, v, v + rng.randint(0, 6))
    else:
        h = rng.choice([0.0, 0.6, 0.35, 0.08, 0.75])
        r, g, b = colorsys.hsv_to_rgb(h, rng.uniform(0.6, 0.85), rng.uniform(0.35, 0.6))
        body = (int(r * 255), int(g * 255), int(b * 255))
    if kind in ("ivory", "white"):
        pips = (dark,) * 7
        divider = dark
    elif kind == "dots":
        colours = rng.sample(_COLOUR_DOTS, 6)
        pips = (dark, *colours)
        divider = dark
    elif kind == "ivory-colour":
        c = rng.choice([(25, 45, 120), (150, 25, 30), (20, 90, 50)])
        pips = (c,) * 7
        divider = c
    else:
        w = (rng.randint(225, 245),) * 3
        pips = (w,) * 7
        divider = w
    back = body
    return TileSet(
        body, back, pips, divider, rng.random() < 0.4, rng.uniform(2.0, 2.5), rng.uniform(2.5, 4.0),
        rng.uniform(7.0, 10.0), rng.choice(["plain", "plain", "ring", "grain"]), rng.choice((1, -1)),
    )


_SKINS = [(245, 215, 190), (235, 195, 160), (215, 170, 130), (190, 140, 100), (150, 105, 70), (110, 75, 50),
          (85, 58, 40)]


def person(rng: random.Random) -> Person:
    base = rng.choice(_SKINS)
    skin = tuple(int(np.clip(c * rng.uniform(0.93, 1.05), 0, 255)) for c in base)
    h = rng.random()
    s = rng.choice([0.05, 0.2, 0.5, 0.7])
    v = rng.uniform(0.15, 0.9)
    r, g, b = colorsys.hsv_to_rgb(h, s, v)
    sleeve = (int(r * 255), int(g * 255), int(b * 255))
    return Person(skin, sleeve, rng.choice([rng.uniform(0.0, 20.0), rng.uniform(60.0, 200.0)]),
                  rng.random() < 0.85, rng.uniform(0.9, 1.1))


def _smooth_noise(rng: np.random.Generator, h: int, w: int, scale: float) -> np.ndarray:
    small = rng.standard_normal((max(2, int(h / scale)) + 2, max(2, int(w / scale)) + 2)).astype(np.float32)
    import cv2
    big = cv2.resize(small, (w, h), interpolation=cv2.INTER_CUBIC)
    return big / (big.std() + 1e-6)


def table_texture(rng: random.Random, w: int, h: int, px_per_mm: float) -> np.ndarray:
    """The bare table (float32 RGB, 0..255), without the room's light."""
    import cv2
    g = np.random.default_rng(rng.getrandbits(32))
    kind = rng.choice(["felt", "wood", "cloth", "plain"])
    if kind == "felt":
        base = rng.choice([(35, 95, 55), (30, 70, 110), (110, 35, 40), (70, 75, 80), (25, 60, 45)])
        img = np.empty((h, w, 3), np.float32)
        img[:] = base
        fine = cv2.GaussianBlur(g.standard_normal((h, w)).astype(np.float32), (0, 0), 0.8)
        img += (fine * 10.0)[..., None]
        img += (_smooth_noise(g, h, w, 40 * px_per_mm) * 5.0)[..., None]
    elif kind == "wood":
        base = np.array(rng.choice([(150, 100, 60), (120, 80, 50), (185, 140, 95), (95, 60, 38), (170, 120, 75)]),
                        np.float32)
        horizontal = rng.random() < 0.6
        hh, ww = (h, w) if horizontal else (w, h)
        y = np.arange(hh, dtype=np.float32)[:, None]
        x = np.arange(ww, dtype=np.float32)[None, :]
        warp = _smooth_noise(g, hh, ww, 60 * px_per_mm) * 8 * px_per_mm
        freq = 2 * np.pi / (rng.uniform(2.5, 5.0) * px_per_mm)
        grain = np.sin((y + warp) * freq + 0.002 * x) * 0.5 + np.sin((y + 0.7 * warp) * freq * 0.37) * 0.5
        plank = rng.uniform(90, 160) * px_per_mm
        seams = (np.abs(((y + 3) % plank)) < 1.5 * px_per_mm / 1.3).astype(np.float32)
        shade = (0.9 + 0.1 * np.sin(np.floor(y / plank) * 2.3 + rng.random() * 6))
        pattern = shade * (1 + 0.07 * grain) * (1 - 0.35 * seams)
        img = base[None, None, :] * pattern[..., None]
        img += g.standard_normal((hh, ww, 1)).astype(np.float32) * 2.0
        if not horizontal:
            img = np.ascontiguousarray(img.transpose(1, 0, 2))
    elif kind == "cloth":
        base = rng.choice([(215, 205, 185), (200, 200, 205), (180, 190, 170), (225, 215, 200), (160, 150, 140)])
        y = np.arange(h, dtype=np.float32)[:, None]
        x = np.arange(w, dtype=np.float32)[None, :]
        period = rng.uniform(1.5, 2.5) * px_per_mm
        weave = np.sin(x * 2 * np.pi / period) * np.sin(y * 2 * np.pi / period)
        folds = _smooth_noise(g, h, w, 80 * px_per_mm)
        img = np.empty((h, w, 3), np.float32)
        img[:] = base
        img *= (1 + 0.03 * weave + 0.04 * folds)[..., None]
        img += g.standard_normal((h, w, 1)).astype(np.float32) * 3.0
    else:
        base = rng.choice([(200, 200, 195), (90, 90, 95), (140, 120, 100), (60, 70, 60)])
        img = np.empty((h, w, 3), np.float32)
        img[:] = base
        img += (_smooth_noise(g, h, w, 25 * px_per_mm) * 3.0)[..., None]
        img += g.standard_normal((h, w, 1)).astype(np.float32) * 2.0
    return np.clip(img, 0, 255)


def light_map(rng: random.Random, w: int, h: int) -> np.ndarray:
    """The room's uneven light over the table and the lens's vignetting: a float32 (h, w) gain."""
    y = (np.arange(h, dtype=np.float32)[:, None] - h / 2) / (w / 2)
    x = (np.arange(w, dtype=np.float32)[None, :] - w / 2) / (w / 2)
    r2 = x * x + y * y
    vignette = 1.0 - rng.uniform(0.15, 0.3) * r2
    ang = rng.uniform(0, 2 * np.pi)
    grad = 1.0 + rng.uniform(0.03, 0.12) * (np.cos(ang) * x + np.sin(ang) * y)
    lx, ly = rng.uniform(-0.6, 0.6), rng.uniform(-0.3, 0.3)
    spot = 1.0 + rng.uniform(0.0, 0.12) * np.exp(-((x - lx) ** 2 + (y - ly) ** 2) / rng.uniform(0.1, 0.4))
    return (vignette * grad * spot).astype(np.float32)
