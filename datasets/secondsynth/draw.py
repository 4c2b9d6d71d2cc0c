"""Tiles drawn as sprites, and a still table (its tiles, their walls and shadows) put together."""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from .layout import TILE_L, TILE_W
from .look import TileSet

SUPER = 4  # supersampling of the sprites


@dataclass(frozen=True)
class Item:
    """A tile lying on the table image: face up (``v_neg`` on the sprite's -x half) or down, its centre in
    table pixels and the direction of its long axis in degrees (image coordinates, y down)."""

    up: bool
    v_neg: int
    v_pos: int
    x: float
    y: float
    angle: float


def _pip_offsets(value: int, d: float, diagonal: int) -> list[tuple[float, float]]:
    c = [(0.0, 0.0)]
    diag = [(-d, -d * diagonal), (d, d * diagonal)]
    corners = [(-d, -d), (d, -d), (-d, d), (d, d)]
    return {
        0: [], 1: c, 2: diag, 3: diag + c, 4: corners, 5: corners + c,
        6: [(x, y) for x in (-d, 0.0, d) for y in (-d, d)],
    }[value]


def _rounded_rect_mask(w: int, h: int, r: int, inset: int = 0) -> np.ndarray:
    m = np.zeros((h, w), np.uint8)
    x0, y0, x1, y1 = inset, inset, w - 1 - inset, h - 1 - inset
    r = max(1, r - inset // 2)
    cv2.rectangle(m, (x0 + r, y0), (x1 - r, y1), 255, -1)
    cv2.rectangle(m, (x0, y0 + r), (x1, y1 - r), 255, -1)
    for cx, cy in ((x0 + r, y0 + r), (x1 - r, y0 + r), (x0 + r, y1 - r), (x1 - r, y1 - r)):
        cv2.circle(m, (cx, cy), r, 255, -1, cv2.LINE_AA)
    return m


class Sprites:
    """Upright RGBA sprites of one set's tiles at one scale (long axis along x), made once each."""

    def __init__(self, ts: TileSet, px_per_mm: float, rng_seed: int) -> None:
        self.ts = ts
        self.s = px_per_mm
        self.pad = 3
        self._cache: dict[tuple, np.ndarray] = {}
        self._seed = rng_seed
        w = int(round(TILE_L * px_per_mm)) + 2 * self.pad
        h = int(round(TILE_W * px_per_mm)) + 2 * self.pad
        self.size = (w, h)

    def get(self, up: bool, v_neg: int, v_pos: int) -> np.ndarray:
        key = (up, v_neg, v_pos) if up else (False,)
        if key not in self._cache:
            self._cache[key] = self._draw(up, v_neg, v_pos)
        return self._cache[key]

    def footprint(self) -> np.ndarray:
        return self.get(False, 0, 0)[..., 3]

    def _draw(self, up: bool, v_neg: int, v_pos: int) -> np.ndarray:
        ts, k = self.ts, SUPER
        sk = self.s * k
        w, h = self.size
        W, H = w * k, h * k
        pad = self.pad * k
        tw, th = W - 2 * pad, H - 2 * pad
        rgb = np.zeros((H, W, 3), np.float32)
        alpha = np.zeros((H, W), np.uint8)
        body = np.array(ts.body if up else ts.back, np.float32)
        outer = _rounded_rect_mask(tw, th, int(ts.corner_mm * sk))
        inner = _rounded_rect_mask(tw, th, int(ts.corner_mm * sk), inset=int(0.9 * sk))
        inner = cv2.GaussianBlur(inner, (0, 0), 0.6 * sk)
        lum = float(body.mean())
        edge = 0.82 if lum > 90 else 1.25
        rgb[:] = body * edge
        face = np.empty((th, tw, 3), np.float32)
        t = inner.astype(np.float32)[..., None] / 255.0
        face[:] = body * edge
        face = face * (1 - t) + body * t
        # a faint sheen across the face
        yy = np.linspace(-1, 1, th, dtype=np.float32)[:, None, None]
        face *= 1.0 + 0.03 * yy * (-1)
        if up:
            cx0, cy = tw / 2.0, th / 2.0
            dcol = tuple(float(c) for c in ts.divider)
            half = TILE_W * sk / 2
            cv2.line(face, (int(cx0), int(cy - half + 3.0 * sk)), (int(cx0), int(cy + half - 3.0 * sk)), dcol,
                     max(1, int(0.9 * sk)), cv2.LINE_AA)
            r = ts.pip_mm * sk
            d = 6.3 * sk
            for value, hx in ((v_neg, cx0 - TILE_L * sk / 4), (v_pos, cx0 + TILE_L * sk / 4)):
                col = np.array(ts.pips[value], np.float32)
                for ox, oy in _pip_offsets(value, d, ts.diagonal):
                    px, py = hx + ox, cy + oy
                    cv2.circle(face, (int(px * 4), int(py * 4)), int(r * 4), tuple(float(c) for c in col * 0.8), -1,
                               cv2.LINE_AA, shift=2)
                    cv2.circle(face, (int((px - 0.15 * r) * 4), int((py - 0.15 * r) * 4)), int(r * 0.8 * 4),
                               tuple(float(c) for c in col), -1, cv2.LINE_AA, shift=2)
            if ts.pin:
                cv2.circle(face, (int(cx0), int(cy)), int(1.6 * sk), (185.0, 150.0, 70.0), -1, cv2.LINE_AA)
                cv2.circle(face, (int(cx0 - 0.4 * sk), int(cy - 0.4 * sk)), int(0.6 * sk), (235.0, 215.0, 150.0), -1,
                           cv2.LINE_AA)
        else:
            tone = 1.0 if lum > 90 else 1.6
            if ts.back_pattern == "ring":
                cv2.circle(face, (tw // 2, th // 2), int(7 * sk), tuple(float(c) * (0.93 if tone == 1 else 1.3) for c in body),
                           max(1, int(1.0 * sk)), cv2.LINE_AA)
            elif ts.back_pattern == "grain":
                g = np.random.default_rng(self._seed)
                stripes = cv2.GaussianBlur(g.standard_normal((1, tw)).astype(np.float32), (0, 0), 2 * k)
                face *= (1 + 0.012 * stripes / (stripes.std() + 1e-6))[..., None]
        rgb[pad:pad + th, pad:pad + tw] = face
        alpha[pad:pad + th, pad:pad + tw] = outer
        out = np.dstack([np.clip(rgb, 0, 255), alpha.astype(np.float32)])
        return cv2.resize(out, (w, h), interpolation=cv2.INTER_AREA)


class StillPainter:
    """Puts items on the bare table: shadows first, then each tile's side wall, then its face."""

    def __init__(self, table: np.ndarray, light: np.ndarray, sprites: Sprites, nadir: tuple[float, float],
                 px_per_mm: float, shadow_dir: tuple[float, float]) -> None:
        self.table = table
        self.light = light[..., None]
        self.sprites = sprites
        self.nadir = nadir
        self.lift = sprites.ts.thickness_mm / 800.0  # thickness over the camera's height
        self.s = px_per_mm
        self.shadow_off = (shadow_dir[0] * 2.2 * px_per_mm, shadow_dir[1] * 2.2 * px_per_mm)

    def _warp(self, sprite: np.ndarray, x: float, y: float, angle: float, shape: tuple[int, int]):
        h, w = sprite.shape[:2]
        diag = int(np.hypot(w, h) / 2) + 3
        x0, y0 = int(np.floor(x)) - diag, int(np.floor(y)) - diag
        size = 2 * diag + 1
        H, W = shape
        if x0 >= W or y0 >= H or x0 + size <= 0 or y0 + size <= 0:
            return None
        a = np.deg2rad(angle)
        c, s = np.cos(a), np.sin(a)
        cx, cy = (w - 1) / 2.0, (h - 1) / 2.0
        M = np.array([[c, -s, x - x0 - (c * cx - s * cy)], [s, c, y - y0 - (s * cx + c * cy)]], np.float32)
        out = cv2.warpAffine(sprite, M, (size, size), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT)
        # clip to the image
        ax0, ay0 = max(0, x0), max(0, y0)
        ax1, ay1 = min(W, x0 + size), min(H, y0 + size)
        return out[ay0 - y0:ay1 - y0, ax0 - x0:ax1 - x0], (ay0, ay1, ax0, ax1)

    def paint(self, items: list[Item]) -> np.ndarray:
        img = self.table.copy()
        H, W = img.shape[:2]
        shadow = np.zeros((H, W), np.float32)
        foot = self.sprites.footprint()
        for it in items:
            got = self._warp(foot, it.x + self.shadow_off[0], it.y + self.shadow_off[1], it.angle, (H, W))
            if got is None:
                continue
            a, (y0, y1, x0, x1) = got
            np.maximum(shadow[y0:y1, x0:x1], a / 255.0, out=shadow[y0:y1, x0:x1])
        shadow = cv2.GaussianBlur(shadow, (0, 0), 1.6 * self.s)
        img *= (1.0 - 0.38 * shadow)[..., None]
        for it in items:
            dx = (it.x - self.nadir[0]) * self.lift
            dy = (it.y - self.nadir[1]) * self.lift
            sprite = self.sprites.get(it.up, it.v_neg, it.v_pos)
            wall = np.array(self.sprites.ts.body if it.up else self.sprites.ts.back, np.float32)
            wall = wall * 0.62 if wall.mean() > 90 else wall * 0.8 + 8
            for f in (0.0, 0.35, 0.7):
                got = self._warp(foot, it.x + dx * f, it.y + dy * f, it.angle, (H, W))
                if got is None:
                    continue
                a, (y0, y1, x0, x1) = got
                t = (a / 255.0)[..., None]
                roi = img[y0:y1, x0:x1]
                roi *= 1 - t
                roi += t * wall
            got = self._warp(sprite, it.x + dx, it.y + dy, it.angle, (H, W))
            if got is None:
                continue
            a, (y0, y1, x0, x1) = got
            t = a[..., 3:4] / 255.0
            roi = img[y0:y1, x0:x1]
            roi *= 1 - t
            roi += t * a[..., :3]
        img *= self.light
        return np.clip(img + 0.5, 0, 255).astype(np.uint8)

    def paint_loose(self, img: np.ndarray, it: Item) -> None:
        """A tile held up in a hand, drawn into ``img`` (uint8) in place: its face (or back) and some wall."""
        H, W = img.shape[:2]
        sprite = self.sprites.get(it.up, it.v_neg, it.v_pos)
        got = self._warp(sprite, it.x, it.y, it.angle, (H, W))
        if got is None:
            return
        a, (y0, y1, x0, x1) = got
        t = a[..., 3:4] / 255.0
        roi = img[y0:y1, x0:x1].astype(np.float32)
        lit = a[..., :3] * self.light[y0:y1, x0:x1]
        roi = roi * (1 - t) + t * lit
        img[y0:y1, x0:x1] = np.clip(roi + 0.5, 0, 255).astype(np.uint8)
