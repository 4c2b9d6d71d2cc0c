"""Render an overhead view of a domino table, with every tile's corners and pips as labels.

Everything is drawn with OpenCV and numpy, randomised per image: tile sets (body
and pip colours, pip style, divider, brass spinner pin, corner radius, thickness),
tables (wood, felt, cloth, patterns, dark and glossy surfaces), light, shadows,
glare, camera tilt and yaw, blur, noise, JPEG artefacts and arms reaching in.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field, replace

import cv2
import numpy as np

from dominosynth.layout import TILE_LONG, TILE_SHORT, PlacedGeom

# Pip positions on a 3x3 grid, in units of the grid step, for a half centred at 0.
PIP_GRID = {
    0: [],
    1: [(0, 0)],
    2: [(-1, -1), (1, 1)],
    3: [(-1, -1), (0, 0), (1, 1)],
    4: [(-1, -1), (1, -1), (-1, 1), (1, 1)],
    5: [(-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)],
    6: [(-1, -1), (0, -1), (1, -1), (-1, 1), (0, 1), (1, 1)],
}


@dataclass
class TileSet:
    """The look of one domino set (all tiles in a scene share it)."""

    body: tuple[int, int, int]  # BGR
    pip_colors: dict[int, tuple[int, int, int]]
    back: tuple[int, int, int]
    divider: tuple[int, int, int]
    divider_len: float  # fraction of the short side
    pin: bool
    pip_radius: float  # mm
    pip_step: float  # mm between grid points
    pip_style: str  # "filled", "embossed", "ring"
    six_across: bool  # whether the 6 runs across the tile (columns) or along it
    corner_radius: float  # mm
    thickness: float  # mm
    back_pattern: str
    engraved: bool = False  # the divider only cut into the face, not painted (a groove: a shadow and a lit edge)
    # Glossy drilled pips: a dark pip shows a light spot where it reflects the lamp, a light pip a
    # shadowed floor -- a spot this share of the pip's radius (0: none), set off from the pip's centre by
    # ``spot_offset`` (in pip radii, the same way on every pip: one lamp).
    spot: float = 0.0
    spot_offset: tuple[float, float] = (0.0, 0.0)
    spot_strength: float = 0.0  # how far the spot goes from the pip's colour towards white (or black)


@dataclass
class TileLabel:
    corners: np.ndarray  # (4, 2) image px, from the +axis end round
    values: tuple[int, int] | None  # pips of the +axis half, the -axis half; None when face down
    visible: float  # fraction not covered by an occluder
    inside: float  # fraction inside the frame
    role: str = "layout"


@dataclass
class Scene:
    image: np.ndarray
    tiles: list[TileLabel] = field(default_factory=list)
    px_per_mm: float = 1.0
    homography: np.ndarray | None = None
    # The camera's blur: the Gaussian's sigma and the motion streak's length, in image px (0: none).
    blur_px: float = 0.0
    motion_blur_px: int = 0


def _clip_color(c) -> tuple[int, int, int]:
    return tuple(int(max(0, min(255, v))) for v in c)  # type: ignore[return-value]


def random_tileset(rng: random.Random, style: str = "main") -> TileSet:
    """A set's look.  ``style``: "main", "cross" (the held-out other style), "engraved" (the main
    style's sets with the divider only engraved, for added training seeds: a face showing few pips then
    looks much like a back) or "glossy" (the main style's sets with glossy drilled pips: a dark pip with a
    light spot where it reflects the lamp, a light pip with a shadowed floor; small and off-centre, or
    broad and central, the pip then a rim round a spot) or "dots" (the main style's scenes with a light set
    whose pips are coloured by value as many real sets are -- pale colours too: yellow, pink, light blue,
    which show little contrast in grey), or "palette" (the held-out `dots` split: the same, the pips in
    the colours of common colour-dot sets, which the training's drawn hues do not follow)."""
    engraved, glossy, dots = style == "engraved", style == "glossy", style in ("dots", "palette")
    palette = style == "palette"
    if engraved or glossy or dots:
        style = "main"
    kind = rng.random()
    if style == "cross":
        # A differently styled set: more coloured bodies, ring pips, bigger corners.
        kind = rng.choice([0.1, 0.5, 0.8, 0.95])
    if kind < 0.6:  # ivory / white with dark pips
        base = rng.choice([(220, 235, 240), (205, 225, 235), (235, 240, 242), (190, 215, 230), (225, 225, 225)])
        body = _clip_color([v + rng.uniform(-15, 12) for v in base])
        dark = _clip_color([rng.uniform(5, 45)] * 3)
        pip_colors = {v: dark for v in range(7)}
        if rng.random() < 0.25:  # coloured pips per value
            palette = [(40, 40, 200), (200, 80, 30), (30, 150, 30), (20, 120, 200), (150, 40, 120), (60, 60, 60), (0, 0, 0)]
            rng.shuffle(palette)
            pip_colors = {v: palette[v] for v in range(7)}
    elif kind < 0.85:  # black tiles, white pips
        body = _clip_color([rng.uniform(10, 45)] * 3)
        light = _clip_color([rng.uniform(200, 250)] * 3)
        pip_colors = {v: light for v in range(7)}
    else:  # coloured tiles
        body = _clip_color([rng.uniform(40, 230) for _ in range(3)])
        lum = sum(body) / 3
        pip = (240, 240, 240) if lum < 120 else (15, 15, 15)
        pip_colors = {v: pip for v in range(7)}
    divider = pip_colors[0] if rng.random() < 0.7 else _clip_color([v * 0.5 for v in body])
    tileset = TileSet(
        body=body,
        pip_colors=pip_colors,
        back=_clip_color([v + rng.uniform(-20, 20) for v in body]),
        divider=divider,
        divider_len=rng.uniform(0.55, 0.9),
        pin=rng.random() < 0.45,
        pip_radius=rng.uniform(1.7, 2.6) if style == "main" else rng.uniform(1.5, 2.8),
        pip_step=rng.uniform(6.2, 7.4),
        pip_style=rng.choice(["filled", "filled", "embossed"] if style == "main" else ["ring", "embossed", "filled"]),
        six_across=rng.random() < 0.5,
        corner_radius=rng.uniform(1.5, 4.0) if style == "main" else rng.uniform(3.0, 6.0),
        thickness=rng.uniform(6.0, 10.0),
        back_pattern=rng.choice(["plain", "plain", "lines", "dot", "dimple"]),
        engraved=engraved,
    )
    if dots:
        return _with_colour_dots(tileset, rng, COLOUR_DOT_SETS if palette else None)
    if not glossy:
        return tileset
    # Drawn after all of the main style's draws: a glossy set is a main set with glossy pips.
    return replace(
        tileset,
        spot=rng.uniform(0.25, 0.65),
        spot_offset=(rng.uniform(-0.35, 0.35), rng.uniform(-0.35, 0.35)),
        spot_strength=rng.uniform(0.45, 0.9),
    )


# BGR colours of common colour-dot sets: light blue, green, red, brown, dark blue, yellow, pink, orange,
# purple, black (the held-out `palette` style; training draws its own hues).
COLOUR_DOT_SETS = [(225, 185, 80), (60, 150, 40), (40, 40, 200), (40, 75, 130), (140, 40, 20), (30, 200, 230),
                   (170, 110, 235), (30, 140, 245), (140, 50, 110), (20, 20, 20)]


def _with_colour_dots(tileset: TileSet, rng: random.Random, palette: list | None = None) -> TileSet:
    """The set made light, its pips coloured by value (drawn after all of the main style's draws): each
    value its own hue, saturated or pale, dark or light (a yellow pip on ivory is a few grey levels);
    with ``palette``, seven of its colours instead."""
    body = _clip_color([v + rng.uniform(-12, 10) for v in rng.choice([(220, 235, 240), (205, 225, 235), (235, 240, 242), (225, 225, 225)])])
    hues = rng.sample(range(0, 180, 12), 7)  # OpenCV's hue scale, each value a hue apart
    pip_colors = {}
    for value, hue in enumerate(hues):
        saturation = rng.uniform(90, 255)
        brightness = rng.uniform(20, 120) if rng.random() < 0.3 else rng.uniform(120, 245)
        hsv = np.uint8([[[hue, saturation, brightness]]])
        pip_colors[value] = _clip_color(cv2.cvtColor(hsv, cv2.COLOR_HSV2BGR)[0, 0])
    if palette is not None:
        pip_colors = dict(enumerate(rng.sample(palette, 7)))
    divider = pip_colors[rng.randrange(7)] if rng.random() < 0.5 else _clip_color([rng.uniform(5, 60)] * 3)
    return replace(tileset, body=body, pip_colors=pip_colors, divider=divider, back=_clip_color([v + rng.uniform(-20, 20) for v in body]))


def _rounded_mask(w: int, h: int, r: int) -> np.ndarray:
    mask = np.zeros((h, w), np.uint8)
    r = max(1, min(r, h // 2 - 1))
    cv2.rectangle(mask, (r, 0), (w - 1 - r, h - 1), 255, -1)
    cv2.rectangle(mask, (0, r), (w - 1, h - 1 - r), 255, -1)
    for cx, cy in [(r, r), (w - 1 - r, r), (r, h - 1 - r), (w - 1 - r, h - 1 - r)]:
        cv2.circle(mask, (cx, cy), r, 255, -1, cv2.LINE_AA)
    return mask


def render_tile_sprite(ts: TileSet, values: tuple[int, int] | None, k: float, rng: random.Random) -> tuple[np.ndarray, np.ndarray]:
    """The top face of a tile at ``k`` px/mm, long axis horizontal, +axis half on the right.

    Returns (BGR float32 image, alpha float32 0..1).
    """
    w, h = int(round(TILE_LONG * k)), int(round(TILE_SHORT * k))
    alpha = _rounded_mask(w, h, int(ts.corner_radius * k)).astype(np.float32) / 255.0
    face_up = values is not None
    color = np.array(ts.body if face_up else ts.back, np.float32)
    img = np.empty((h, w, 3), np.float32)
    img[:] = color
    # Gentle shading across the face and a darker rim, so the tile reads as a solid block.
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    grad = 1.0 + rng.uniform(-0.06, 0.06) * (xx / w - 0.5) + rng.uniform(-0.06, 0.06) * (yy / h - 0.5)
    img *= grad[..., None]
    img += np.random.default_rng(rng.randrange(2**31)).normal(0, 3.0, img.shape).astype(np.float32)
    rim = cv2.erode(alpha, np.ones((max(2, int(k * 0.9)),) * 2, np.uint8))
    img *= (0.82 + 0.18 * rim)[..., None]
    if face_up:
        a, b = values
        cx = w / 2
        dl = ts.divider_len * h / 2
        thick = max(1, int(round(k * rng.uniform(0.6, 1.2))))
        if ts.engraved:
            _draw_groove(img, color, cx, h / 2, dl, thick, rng)
        else:
            cv2.line(img, (int(cx), int(h / 2 - dl)), (int(cx), int(h / 2 + dl)), ts.divider, thick, cv2.LINE_AA)
        if ts.pin:
            r = max(1, int(k * rng.uniform(1.3, 2.0)))
            cv2.circle(img, (int(cx), h // 2), r, (40, 140, 190), -1, cv2.LINE_AA)
            cv2.circle(img, (int(cx - r / 3), int(h / 2 - r / 3)), max(1, r // 3), (150, 220, 245), -1, cv2.LINE_AA)
        for value, hx in ((a, w * 0.75), (b, w * 0.25)):
            _draw_pips(img, ts, value, hx, h / 2, k, rng)
    else:
        if ts.back_pattern == "lines":
            for i in range(3):
                y = int(h * (0.3 + 0.2 * i))
                cv2.line(img, (int(w * 0.15), y), (int(w * 0.85), y), _clip_color(color * 0.8), max(1, int(k * 0.5)), cv2.LINE_AA)
        elif ts.back_pattern == "dot":
            cv2.circle(img, (w // 2, h // 2), int(h * 0.25), _clip_color(color * 0.75), max(1, int(k * 0.6)), cv2.LINE_AA)
        elif ts.back_pattern == "dimple":
            cv2.circle(img, (w // 2, h // 2), int(k * 1.5), _clip_color(color * 0.7), -1, cv2.LINE_AA)
    return img, alpha


def _draw_groove(img: np.ndarray, body: np.ndarray, cx: float, cy: float, half_len: float, thick: int,
                 rng: random.Random) -> None:
    """An unpainted divider cut across the face: its wall away from the light in shadow, the other
    catching the light, both only a little off the face's own colour."""
    lum = float(body.mean())
    shade = body * rng.uniform(0.55, 0.85)
    lit = np.minimum(body * rng.uniform(1.05, 1.25) + (rng.uniform(15, 45) if lum < 90 else 0), 255)
    side = rng.choice([-1, 1])
    y0, y1 = int(cy - half_len), int(cy + half_len)
    cv2.line(img, (int(cx), y0), (int(cx), y1), shade.tolist(), thick, cv2.LINE_AA)
    edge = int(round(cx + side * max(1, thick)))
    cv2.line(img, (edge, y0), (edge, y1), lit.tolist(), max(1, thick // 2), cv2.LINE_AA)


def _draw_pips(img: np.ndarray, ts: TileSet, value: int, hx: float, hy: float, k: float, rng: random.Random) -> None:
    color = np.array(ts.pip_colors[value], np.float32)
    r = ts.pip_radius * k * rng.uniform(0.95, 1.05)
    step = ts.pip_step * k
    for gx, gy in PIP_GRID[value]:
        if value == 6 and not ts.six_across:
            gx, gy = gy, gx
        # (gx along the long axis, gy across it)
        px, py = hx + gx * step, hy + gy * step
        center = (int(round(px * 4)), int(round(py * 4)))
        rr = int(round(r * 4))
        if ts.pip_style == "ring":
            cv2.circle(img, center, rr, color.tolist(), max(1, int(r * 0.45)), cv2.LINE_AA, 2)
        else:
            cv2.circle(img, center, rr, color.tolist(), -1, cv2.LINE_AA, 2)
            if ts.pip_style == "embossed":
                # A lit lower rim: the pip is a dimple in the surface.
                off = (int(round(px * 4 + r)), int(round(py * 4 + r)))
                cv2.ellipse(img, off, (rr // 2, rr // 3), 45, 0, 360, _clip_color(color + 60), -1, cv2.LINE_AA, 2)
        if ts.spot > 0:
            towards = 255.0 if color.mean() < 128 else 0.0
            spot = color + (towards - color) * ts.spot_strength * (1.0 if towards else 0.7)
            at = (int(round((px + ts.spot_offset[0] * r) * 4)), int(round((py + ts.spot_offset[1] * r) * 4)))
            cv2.circle(img, at, max(1, int(round(rr * ts.spot))), spot.tolist(), -1, cv2.LINE_AA, 2)


# -- tables ---------------------------------------------------------------------------


def _noise(shape: tuple[int, int], scale: float, rng: np.random.Generator) -> np.ndarray:
    h, w = shape
    sh, sw = max(2, int(h / scale)), max(2, int(w / scale))
    small = rng.normal(0, 1, (sh, sw)).astype(np.float32)
    return cv2.resize(small, (w, h), interpolation=cv2.INTER_CUBIC)


def _stone(h: int, w: int, rng: random.Random, g: np.random.Generator) -> np.ndarray:
    """A busy top: marble's veins, stone's or an oilcloth's blotches, granite's speckles -- two tones mixed
    at every scale, with edges and spots the size of tiles and pips."""
    light = np.array([rng.uniform(110, 240)] * 3, np.float32) * np.array([rng.uniform(0.75, 1.0) for _ in range(3)], np.float32)
    dark = light * np.array([rng.uniform(0.25, 0.7) for _ in range(3)], np.float32)
    if rng.random() < 0.3:
        light, dark = dark, light  # a dark stone with light markings
    scale = rng.uniform(12, 70)
    field = _noise((h, w), scale, g) + 0.5 * _noise((h, w), scale / 2, g) + 0.25 * _noise((h, w), scale / 4, g)
    field /= float(field.std()) + 1e-6
    variant = rng.choice(["blotches", "blotches", "veins", "speckles"])
    if variant == "blotches":
        soft = rng.uniform(0.05, 0.4)
        mix = 0.5 + 0.5 * np.tanh((field - rng.uniform(-0.5, 0.5)) / (2 * soft))  # (the logistic, without overflow)
    elif variant == "veins":
        mix = np.exp(-(field / rng.uniform(0.08, 0.3)) ** 2)
    else:
        grains = _noise((h, w), rng.uniform(1.5, 4), g)
        mix = (grains > rng.uniform(0.8, 1.6)).astype(np.float32) + 0.3 * (field > 0)
        mix = cv2.GaussianBlur(np.clip(mix, 0, 1), (0, 0), 0.7)
    img = light * (1 - mix[..., None]) + dark * mix[..., None]
    return img + (_noise((h, w), 1.5, g) * rng.uniform(2, 8))[..., None]


def render_table(w: int, h: int, rng: random.Random, style: str = "main") -> np.ndarray:
    g = np.random.default_rng(rng.randrange(2**31))
    kinds = ["wood", "felt", "cloth", "dark", "pattern", "glossy", "paper"]
    weights = [4, 2, 2, 4, 1, 1, 1] if style == "main" else [2, 1, 3, 4, 1, 2, 2]
    kind = "stone" if style == "stone" else rng.choices(kinds, weights)[0]
    base = np.array([rng.uniform(0, 255) for _ in range(3)], np.float32)
    img = np.empty((h, w, 3), np.float32)
    if kind == "stone":
        img[:] = _stone(h, w, rng, g)
    elif kind == "wood":
        base = np.array(rng.choice([(40, 80, 140), (30, 60, 100), (70, 120, 170), (20, 40, 70), (90, 140, 190)]), np.float32)
        angle = rng.uniform(0, math.pi)
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        u = xx * math.cos(angle) + yy * math.sin(angle)
        v = -xx * math.sin(angle) + yy * math.cos(angle)
        warp = _noise((h, w), rng.uniform(40, 120), g) * rng.uniform(5, 25)
        grain = np.sin((v + warp) / rng.uniform(2, 8)) * 0.5 + 0.5
        streak = _noise((h, w), 6, g) * 0.08
        f = 0.8 + 0.25 * grain[..., None] + streak[..., None] + 0.02 * np.sin(u / 200.0)[..., None]
        img[:] = base * f
    elif kind == "felt":
        base = np.array(rng.choice([(40, 110, 30), (30, 90, 20), (110, 60, 20), (40, 40, 130), (60, 60, 60)]), np.float32)
        img[:] = base
        img += (_noise((h, w), 1.5, g) * 8 + _noise((h, w), 30, g) * 6)[..., None]
    elif kind == "cloth":
        img[:] = base * rng.uniform(0.4, 1.0)
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        period = rng.uniform(3, 8)
        weave = (np.sin(xx / period * math.pi) * np.sin(yy / period * math.pi))[..., None] * 10
        img += weave + (_noise((h, w), 50, g) * 10)[..., None]
    elif kind == "dark":
        base = np.array([rng.uniform(0, 40), rng.uniform(5, 40), rng.uniform(10, 50)], np.float32)
        img[:] = base
        img += (_noise((h, w), 80, g) * 4 + _noise((h, w), 2, g) * 2)[..., None]
    elif kind == "pattern":
        img[:] = base * 0.6
        other = np.array([rng.uniform(0, 255) for _ in range(3)], np.float32)
        cell = rng.randint(20, 90)
        yy, xx = np.mgrid[0:h, 0:w]
        if rng.random() < 0.5:
            m = ((xx // cell + yy // cell) % 2).astype(bool)
        else:
            m = ((xx + yy) // cell % 2).astype(bool)
        img[m] = other * 0.6
        img = cv2.GaussianBlur(img, (0, 0), 1.0)
    elif kind == "glossy":
        img[:] = base * rng.uniform(0.2, 0.8)
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        cx, cy = rng.uniform(0, w), rng.uniform(0, h)
        d = np.sqrt((xx - cx) ** 2 + (yy - cy) ** 2) / max(w, h)
        img += (np.exp(-(d / rng.uniform(0.1, 0.3)) ** 2) * rng.uniform(40, 120))[..., None]
    else:  # paper / light surface
        img[:] = np.array([rng.uniform(170, 240)] * 3, np.float32) * np.array([rng.uniform(0.9, 1.0) for _ in range(3)], np.float32)
        img += (_noise((h, w), 20, g) * 5)[..., None]
    return img


# -- camera -----------------------------------------------------------------------------


def camera_homography(w: int, h: int, px_per_mm: float, center_mm: tuple[float, float], tilt_deg: float, yaw_deg: float,
                      tilt_dir_deg: float) -> np.ndarray:
    """Plane (mm) to image (px) for a pinhole camera above the plane, tilted by ``tilt_deg``."""
    height = 800.0  # mm; only the ratio to the scene matters
    f = px_per_mm * height
    yaw, tilt, tdir = map(math.radians, (yaw_deg, tilt_deg, tilt_dir_deg))

    def project(X: float, Y: float) -> tuple[float, float]:
        x, y = X - center_mm[0], Y - center_mm[1]
        x, y = x * math.cos(yaw) - y * math.sin(yaw), x * math.sin(yaw) + y * math.cos(yaw)
        # Tilt about an axis in the plane at angle tdir: rotate into that frame, tilt, rotate back.
        u, v = x * math.cos(tdir) + y * math.sin(tdir), -x * math.sin(tdir) + y * math.cos(tdir)
        z = height + v * math.sin(tilt)
        v = v * math.cos(tilt)
        x, y = u * math.cos(tdir) - v * math.sin(tdir), u * math.sin(tdir) + v * math.cos(tdir)
        return f * x / z + w / 2, f * y / z + h / 2

    src = np.array([[center_mm[0] + dx, center_mm[1] + dy] for dx, dy in [(-200, -200), (200, -200), (200, 200), (-200, 200)]], np.float32)
    dst = np.array([project(*p) for p in src], np.float32)
    return cv2.getPerspectiveTransform(src, dst)


def _apply_h(H: np.ndarray, pts: np.ndarray) -> np.ndarray:
    p = np.hstack([pts, np.ones((len(pts), 1))]) @ H.T
    return p[:, :2] / p[:, 2:3]


def _paste(canvas: np.ndarray, sprite: np.ndarray, alpha: np.ndarray, H_sprite_to_img: np.ndarray) -> None:
    """Warp a sprite into the canvas, working only in its bounding box."""
    h, w = canvas.shape[:2]
    sh, sw = alpha.shape
    corners = _apply_h(H_sprite_to_img, np.array([[0, 0], [sw, 0], [sw, sh], [0, sh]], np.float64))
    x0, y0 = np.floor(corners.min(0)).astype(int) - 2
    x1, y1 = np.ceil(corners.max(0)).astype(int) + 2
    x0, y0, x1, y1 = max(0, x0), max(0, y0), min(w, x1), min(h, y1)
    if x1 <= x0 or y1 <= y0:
        return
    T = np.array([[1, 0, -x0], [0, 1, -y0], [0, 0, 1]], np.float64) @ H_sprite_to_img
    size = (x1 - x0, y1 - y0)
    warped = cv2.warpPerspective(sprite, T, size, flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT)
    a = cv2.warpPerspective(alpha, T, size, flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT)[..., None]
    region = canvas[y0:y1, x0:x1]
    region[:] = region * (1 - a) + warped * a


def _polygon_mask(shape: tuple[int, int], poly: np.ndarray) -> np.ndarray:
    m = np.zeros(shape, np.uint8)
    cv2.fillPoly(m, [np.round(poly * 4).astype(np.int32)], 1, cv2.LINE_8, 2)
    return m


@dataclass
class CameraParams:
    w: int
    h: int
    px_per_mm: float
    tilt: float
    yaw: float
    tilt_dir: float


def random_camera(rng: random.Random, style: str = "main", size: tuple[int, int] | None = None) -> CameraParams:
    if size is None:
        size = rng.choice([(640, 480), (800, 600), (960, 540), (1280, 720), (720, 720), (1024, 576)])
    w, h = size
    # Tiles from 40 px to 260 px long, scaled to a 1280-wide frame (a webcam close over a
    # small table shows big tiles; the first model, trained up to 135, missed those).
    long_px = (rng.uniform(40, 135) if rng.random() < 0.75 else rng.uniform(135, 260)) * max(w, h) / 1280 * (1.0 if style == "main" else rng.uniform(0.8, 1.2))
    max_tilt = 30 if style == "main" else 35
    tilt = abs(rng.gauss(0, max_tilt / 2.2))
    return CameraParams(w, h, long_px / TILE_LONG, min(tilt, max_tilt), rng.uniform(0, 360), rng.uniform(0, 360))


def render_scene(geoms: list[PlacedGeom], ts: TileSet, cam: CameraParams, rng: random.Random, center_mm: tuple[float, float],
                 style: str = "main", occlude: bool | None = None, show: list[bool] | None = None,
                 effects: bool = True, dim: bool = False, moving: bool = False) -> Scene:
    """Render the tiles on a table.  ``show`` hides tiles while keeping the random stream the same, so
    several states of one table (a game filmed) share the table, the light and every tile's look.
    ``dim``: a dim room seen by a webcam's sensor (:func:`_dim_sensor`); ``moving``: every frame
    blurred by motion (:func:`_camera_effects`), a training style.  ``style`` draws the table (:func:`render_table`)."""
    w, h = cam.w, cam.h
    H = camera_homography(w, h, cam.px_per_mm, center_mm, cam.tilt, cam.yaw, cam.tilt_dir)
    img = render_table(w, h, rng, style)
    light_dir = np.array([rng.uniform(-1, 1), rng.uniform(-1, 1)])
    light_dir /= np.linalg.norm(light_dir) + 1e-6
    shadow_len = rng.uniform(0.5, 4.0)  # mm
    k = max(2.0, cam.px_per_mm * 2.0)  # sprite px/mm: about twice the view's scale
    labels: list[TileLabel] = []
    # Shadows first, for every tile, so a neighbour's shadow never lands on top of a tile.
    shadow = np.zeros((h, w), np.float32)
    shown = show if show is not None else [True] * len(geoms)
    for geom, visible in zip(geoms, shown):
        if not visible:
            continue
        poly = _apply_h(H, geom.corners() + light_dir * shadow_len)
        cv2.fillPoly(shadow, [np.round(poly * 4).astype(np.int32)], 1.0, cv2.LINE_AA, 2)
    blur = max(1.0, cam.px_per_mm * rng.uniform(0.8, 2.5))
    shadow = cv2.GaussianBlur(shadow, (0, 0), blur)
    img *= (1 - rng.uniform(0.25, 0.6) * shadow)[..., None]
    for geom, visible in zip(geoms, shown):
        values = geom.end_values if geom.face_up else None
        sprite, alpha = render_tile_sprite(ts, values, k, rng)
        side_shade = rng.uniform(0.45, 0.75)  # drawn for hidden tiles too: the stream must not depend on ``show``
        if not visible:
            continue
        # Sprite px -> plane mm (the tile's frame) -> image px.
        c, s = math.cos(geom.angle), math.sin(geom.angle)
        sw, sh = alpha.shape[1], alpha.shape[0]
        to_plane = np.array([[c / k, -s / k, 0], [s / k, c / k, 0], [0, 0, 1]], np.float64)
        to_plane = np.array([[1, 0, geom.center[0]], [0, 1, geom.center[1]], [0, 0, 1]]) @ to_plane @ np.array(
            [[1, 0, -sw / 2], [0, 1, -sh / 2], [0, 0, 1]]
        )
        # The tile's side walls: a darker copy a little below the face, shifted away from the camera's centre.
        side = sprite * side_shade
        centre_px = _apply_h(H, np.array([geom.center]))[0]
        away = (centre_px - np.array([w / 2, h / 2])) * (ts.thickness * cam.px_per_mm / 800.0 * 0.9)
        away += np.sign(away + 1e-6) * 0.0
        shift = np.array([[1, 0, away[0]], [0, 1, away[1]], [0, 0, 1]], np.float64)
        if abs(cam.tilt) > 3 or np.hypot(*away) > 0.5:
            _paste(img, side, alpha, shift @ H @ to_plane)
        _paste(img, sprite, alpha, H @ to_plane)
        corners = _apply_h(H, geom.corners())
        labels.append(TileLabel(corners, values, 1.0, 1.0, geom.role))
    img = _lighting(img, rng)
    occluder = np.zeros((h, w), np.float32)
    if occlude is None:
        occlude = rng.random() < 0.3
    if occlude:
        occluder = _draw_arm(img, rng)
    for label in labels:
        m = _polygon_mask((h, w), label.corners)
        full = _polygon_area(label.corners)
        inside = m.sum() / max(full, 1.0)
        visible = 1.0 - float((occluder * m).sum()) / max(float(m.sum()), 1.0)
        label.inside = float(min(1.0, inside))
        label.visible = visible
    sigma, streak = 0.0, 0
    if effects:
        img, (sigma, streak) = _camera_effects(img, rng, cam.px_per_mm, dim, moving)
    return Scene(img, labels, cam.px_per_mm, H, blur_px=sigma, motion_blur_px=streak)


def _polygon_area(poly: np.ndarray) -> float:
    x, y = poly[:, 0], poly[:, 1]
    return 0.5 * abs(float(np.dot(x, np.roll(y, 1)) - np.dot(y, np.roll(x, 1))))


def _lighting(img: np.ndarray, rng: random.Random) -> np.ndarray:
    h, w = img.shape[:2]
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    gx, gy = rng.uniform(-0.5, 0.5), rng.uniform(-0.5, 0.5)
    field = 1.0 + gx * (xx / w - 0.5) + gy * (yy / h - 0.5)
    cx, cy, rad = rng.uniform(0, w), rng.uniform(0, h), rng.uniform(0.3, 1.2) * max(w, h)
    field *= 0.75 + 0.45 * np.exp(-((xx - cx) ** 2 + (yy - cy) ** 2) / (2 * rad**2))
    gain = rng.uniform(0.55, 1.35)
    cast = np.array([rng.uniform(0.85, 1.15) for _ in range(3)], np.float32)
    img = img * (field[..., None] * gain) * cast
    # Glare: a few bright soft spots (a lamp reflected in glossy tiles and tables).
    for _ in range(rng.choice([0, 0, 1, 1, 2, 3])):
        gxp, gyp = rng.uniform(0, w), rng.uniform(0, h)
        sx, sy = rng.uniform(3, 40), rng.uniform(3, 40)
        spot = np.exp(-(((xx - gxp) / sx) ** 2 + ((yy - gyp) / sy) ** 2))
        img += (spot * rng.uniform(60, 200))[..., None]
    return img


def _draw_arm(img: np.ndarray, rng: random.Random) -> np.ndarray:
    """An arm reaching in from a random edge, ending in a hand; returns its coverage mask."""
    h, w = img.shape[:2]
    edge = rng.randrange(4)
    t = rng.uniform(0.1, 0.9)
    start = [(t * w, -20), (w + 20, t * h), (t * w, h + 20), (-20, t * h)][edge]
    reach = rng.uniform(0.15, 0.6)
    target = (rng.uniform(0.2, 0.8) * w, rng.uniform(0.2, 0.8) * h)
    end = (start[0] + (target[0] - start[0]) * reach * 2, start[1] + (target[1] - start[1]) * reach * 2)
    width = int(rng.uniform(0.05, 0.09) * min(w, h) * 1.6)
    return draw_arm(img, start, end, width, rng)


def draw_arm(img: np.ndarray, start: tuple[float, float], end: tuple[float, float], width: int, rng: random.Random,
             skin: tuple[float, float, float] | None = None) -> np.ndarray:
    """An arm from ``start`` (off the frame) to a hand at ``end``; drawn in place, returns its mask."""
    h, w = img.shape[:2]
    mask = np.zeros((h, w), np.uint8)
    cv2.line(mask, (int(start[0]), int(start[1])), (int(end[0]), int(end[1])), 255, width)
    ang = math.degrees(math.atan2(end[1] - start[1], end[0] - start[0]))
    cv2.ellipse(mask, (int(end[0]), int(end[1])), (int(width * 0.9), int(width * 0.6)), ang, 0, 360, 255, -1)
    for i in range(4):  # fingers
        fa = math.radians(ang + (i - 1.5) * 14)
        fx, fy = end[0] + math.cos(fa) * width * 1.4, end[1] + math.sin(fa) * width * 1.4
        cv2.line(mask, (int(end[0]), int(end[1])), (int(fx), int(fy)), 255, max(3, width // 5))
    m = cv2.GaussianBlur(mask.astype(np.float32) / 255.0, (0, 0), 1.5)
    if skin is None:
        tone = np.array(rng.choice([(120, 150, 210), (100, 135, 195), (70, 100, 150), (45, 65, 100), (150, 175, 225)]), np.float32)
        tone = tone * rng.uniform(0.8, 1.15)
        if rng.random() < 0.3:  # a sleeve
            tone = np.array([rng.uniform(20, 230) for _ in range(3)], np.float32)
    else:
        tone = np.array(skin, np.float32)
    ys, xs = np.nonzero(mask)
    if len(xs):
        y0, y1, x0, x1 = ys.min(), ys.max() + 1, xs.min(), xs.max() + 1
        region = img[y0:y1, x0:x1]
        mm = m[y0:y1, x0:x1, None]
        grad = np.linspace(0.85, 1.05, x1 - x0, dtype=np.float32)[None, :, None]
        region[:] = region * (1 - mm) + (tone * grad) * mm
    return m


def _dim_sensor(img: np.ndarray, rng: random.Random) -> np.ndarray:
    """A dim room: a tenth to a half of the light, brightened again by the camera's exposure wholly,
    partly or not at all -- its gain raised, so the sensor's noise (each colour channel its own) grows
    with the brightening; some webcams then smooth the noise away."""
    light = rng.uniform(0.15, 0.5)
    gain = (1 / light) ** rng.uniform(0.0, 1.0)
    noise = np.random.default_rng(rng.randrange(2**31)).normal(0, rng.uniform(2, 6) * gain**0.6, img.shape)
    img = img * (light * gain) + noise.astype(np.float32)
    if rng.random() < 0.4:
        img = cv2.GaussianBlur(img, (0, 0), rng.uniform(0.5, 1.2))
    return img


def _camera_effects(img: np.ndarray, rng: random.Random, px_per_mm: float, dim: bool = False,
                    moving: bool = False) -> tuple[np.ndarray, tuple[float, int]]:
    """The camera's own marks on the picture, and its blur (the Gaussian's sigma and the motion streak's
    length, in px) for the labels: the evaluation tells blurred frames apart.  ``moving``: a streak in
    every frame, up to 12 px (15 % of frames, 3-9 px, otherwise; the same draws either way)."""
    if dim:
        img = _dim_sensor(img, rng)
    sigma = rng.choice([0, 0, 0.4, 0.7, 1.0, 1.4])
    if sigma:
        img = cv2.GaussianBlur(img, (0, 0), sigma)
    length = 0
    if rng.random() < (1.0 if moving else 0.15):
        length = rng.randint(3, 12 if moving else 9)
        kernel = np.zeros((length, length), np.float32)
        kernel[length // 2, :] = 1.0 / length
        rot = cv2.getRotationMatrix2D((length / 2 - 0.5, length / 2 - 0.5), rng.uniform(0, 180), 1.0)
        kernel = cv2.warpAffine(kernel, rot, (length, length))
        kernel /= max(kernel.sum(), 1e-6)
        img = cv2.filter2D(img, -1, kernel)
    img = img + np.random.default_rng(rng.randrange(2**31)).normal(0, rng.uniform(1, 8), img.shape).astype(np.float32)
    img = np.clip(img, 0, 255).astype(np.uint8)
    if rng.random() < 0.7:
        q = rng.randint(35, 95)
        ok, buf = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, q])
        img = cv2.imdecode(buf, cv2.IMREAD_COLOR)
    return img, (float(sigma), length)
