"""A held-out split from a second, independent renderer: the ``shaded`` check (never trained on).

    .venv/bin/python datasets/make_shaded_split.py [--count 300]

The project's generator (``dominosynth``) paints tiles as flat sprites.  This renderer shares none
of its drawing code and models a tile the way a ray tracer would see it from above: a height field
(a slab with bevelled edges, pips drilled as spherical dimples, the divider as a groove), lit by a
directional light with diffuse and specular shading, casting a soft shadow on a procedural table;
then a pinhole camera tilted up to 25 degrees, defocus, sensor noise and JPEG.  Its tiles lie as
loose tiles apart, in hands side by side, and in straight lines end to end: the ``shaded`` split checks
the detector and the reader.  Seeds 40 000 000 + i; the images and the metadata (the same format as
``make_detector_data.py``'s) go to ``datasets/generated/detector`` (``images/shaded/``,
``shaded.jsonl``), which ``models/evaluate_detector.py`` reads when present.

    .venv/bin/python datasets/make_shaded_split.py --count 0 --layouts 200

makes the ``shaded-layouts`` split (seeds 41 000 000 + i) for the board: a played layout from the
simulator (a random moment of a simulated match), laid out as the project's generator lays one out
(lines, crosswise doubles, spinner branches, corners), drawn by this renderer, wholly in view, with a
few loose tiles of the rest of the set lying apart; its metadata holds the board, as the main
generator's does, so ``benchmarks/evaluate_board.py --split shaded-layouts`` reads it.  With
``--layouts-start 200`` the next 200 (``shaded-layouts-from-200``): a fresh check of what was tuned on
the first 200.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
from concurrent.futures import ProcessPoolExecutor
from functools import partial
from pathlib import Path

import cv2
import numpy as np

HERE = Path(__file__).resolve().parent
OUT = HERE / "generated" / "detector"
SEED0 = 40_000_000
LAYOUT_SEED0 = 41_000_000
PX_PER_MM = 8.0  # the tile sprites' resolution before the camera

# Where the pips of each value lie on a half, in units of the pip spacing (u along the tile, v across).
PIPS = {
    0: [],
    1: [(0, 0)],
    2: [(-1, 1), (1, -1)],
    3: [(-1, 1), (0, 0), (1, -1)],
    4: [(-1, -1), (-1, 1), (1, -1), (1, 1)],
    5: [(-1, -1), (-1, 1), (0, 0), (1, -1), (1, 1)],
    6: [(-1, -1), (-1, 0), (-1, 1), (1, -1), (1, 0), (1, 1)],
}


def tile_sprite(values: tuple[int, int], size_mm: tuple[float, float], look: dict):
    """The lit top face of one tile seen from straight above: BGR float image and alpha, the first
    value's half on the left (x < length / 2)."""
    length, width = size_mm
    k = PX_PER_MM
    w, h = int(round(length * k)), int(round(width * k))
    y, x = np.mgrid[0:h, 0:w].astype(np.float32)
    x_mm, y_mm = (x + 0.5) / k, (y + 0.5) / k
    # Distance inside a rounded rectangle: the slab, its bevel rising over look["bevel"] mm.
    r = look["corner"]
    qx = np.abs(x_mm - length / 2) - (length / 2 - r)
    qy = np.abs(y_mm - width / 2) - (width / 2 - r)
    outside = np.hypot(np.maximum(qx, 0), np.maximum(qy, 0)) + np.minimum(np.maximum(qx, qy), 0) - r
    inside = -outside
    alpha = np.clip(inside * k + 0.5, 0, 1)
    height = np.clip(inside / look["bevel"], 0, 1)
    height = height * height * (3 - 2 * height)  # smooth bevel
    paint = np.zeros((h, w), np.float32)
    step = look["step"] * width
    pip_r = look["pip"] * width
    for half, value in enumerate(values):
        cx = length * (0.25 + 0.5 * half)
        for u, v in PIPS[value]:
            if value == 6 and look["six_across"]:
                u, v = v, u
            px, py = cx + u * step, width / 2 + v * step
            d = np.hypot(x_mm - px, y_mm - py) / pip_r
            dimple = np.sqrt(np.clip(1 - d * d, 0, 1))
            height -= look["depth"] * dimple
            paint = np.maximum(paint, np.clip((1 - d) * pip_r * k, 0, 1))
    groove = (np.abs(x_mm - length / 2) < look["groove"]) & (np.abs(y_mm - width / 2) < look["divider"] * width / 2)
    height -= 0.15 * groove.astype(np.float32)
    # Normals from the height field (scaled to millimetres), Blinn-Phong shading.
    gx = cv2.Sobel(height, cv2.CV_32F, 1, 0, ksize=3) / 8 * k
    gy = cv2.Sobel(height, cv2.CV_32F, 0, 1, ksize=3) / 8 * k
    n = np.dstack([-gx, -gy, np.ones_like(gx)])
    n /= np.linalg.norm(n, axis=2, keepdims=True)
    light = look["light"]
    diffuse = np.clip(n @ light, 0, 1)
    half_vec = (light + np.array([0, 0, 1.0])) / np.linalg.norm(light + np.array([0, 0, 1.0]))
    specular = np.clip(n @ half_vec, 0, 1) ** look["shine"]
    base = np.where(paint[..., None] > 0.5, look["pip_colour"][None, None], look["body"][None, None])
    if look["groove_painted"]:
        base = np.where(groove[..., None], look["pip_colour"][None, None], base)
    shade = look["ambient"] + (1 - look["ambient"]) * diffuse
    colour = base * shade[..., None] + look["specular"] * specular[..., None]
    return np.clip(colour, 0, 1.2), alpha


def random_look(rng: np.random.Generator) -> dict:
    kind = rng.choice(["ivory", "white", "black", "colour"], p=[0.35, 0.25, 0.2, 0.2])
    if kind == "ivory":
        body = np.array([0.78, 0.9, 0.96]) * rng.uniform(0.9, 1.0)
    elif kind == "white":
        body = np.full(3, rng.uniform(0.88, 0.98))
    elif kind == "black":
        body = np.full(3, rng.uniform(0.05, 0.18))
    else:
        hsv = np.uint8([[[rng.integers(0, 180), rng.integers(90, 220), rng.integers(120, 230)]]])
        body = cv2.cvtColor(hsv, cv2.COLOR_HSV2BGR)[0, 0] / 255.0
    light_body = body.mean() > 0.45
    if rng.random() < 0.2:  # coloured pips
        hsv = np.uint8([[[rng.integers(0, 180), 230, 120 if light_body else 240]]])
        pip = cv2.cvtColor(hsv, cv2.COLOR_HSV2BGR)[0, 0] / 255.0
    else:
        pip = np.full(3, rng.uniform(0.02, 0.15) if light_body else rng.uniform(0.85, 1.0))
    elevation = math.radians(rng.uniform(35, 80))
    azimuth = rng.uniform(0, 2 * math.pi)
    return {
        "kind": str(kind),
        "body": body, "pip_colour": pip, "corner": rng.uniform(1.0, 4.0), "bevel": rng.uniform(0.6, 1.8),
        "step": rng.uniform(0.24, 0.29), "pip": rng.uniform(0.065, 0.1), "depth": rng.uniform(0.1, 0.5),
        "six_across": bool(rng.random() < 0.5), "groove": rng.uniform(0.3, 0.7), "divider": rng.uniform(0.6, 0.9),
        "groove_painted": bool(rng.random() < 0.6), "shine": rng.uniform(10, 60), "specular": rng.uniform(0.05, 0.45),
        "ambient": rng.uniform(0.3, 0.6),
        "light": np.array([math.cos(azimuth) * math.cos(elevation), math.sin(azimuth) * math.cos(elevation), math.sin(elevation)]),
    }


def table(w: int, h: int, rng: np.random.Generator) -> np.ndarray:
    """A procedural table: multi-octave noise, marbled or plain, tinted; float BGR 0-1."""
    tint = cv2.cvtColor(np.uint8([[[rng.integers(0, 180), rng.integers(20, 200), rng.integers(40, 200)]]]), cv2.COLOR_HSV2BGR)[0, 0] / 255.0
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    noise = np.zeros((h, w), np.float32)
    for octave in range(5):
        cells = 2 ** (octave + 2)
        layer = rng.standard_normal((cells, cells * w // h + 1)).astype(np.float32)
        noise += cv2.resize(layer, (w, h), interpolation=cv2.INTER_CUBIC) / (octave + 1)
    style = rng.choice(["plain", "marble", "cloth"])
    if style == "marble":
        noise = np.sin(xx / rng.uniform(20, 80) + noise * rng.uniform(2, 5))
    elif style == "cloth":
        noise += rng.standard_normal((h, w)).astype(np.float32) * 1.5
    noise = (noise - noise.mean()) / (noise.std() + 1e-6)
    surface = tint[None, None] * (1 + rng.uniform(0.05, 0.25) * noise[..., None])
    vignette = 1 - rng.uniform(0, 0.4) * (((xx - w / 2) / w) ** 2 + ((yy - h / 2) / h) ** 2) * 2
    return np.clip(surface * vignette[..., None], 0, 1)


def camera(w: int, h: int, px_per_mm: float, tilt_deg: float, yaw_deg: float) -> np.ndarray:
    """Table millimetres (origin at the view's centre) -> image pixels, for a pinhole camera tilted off overhead."""
    f = max(w, h) * 1.1
    distance = f / px_per_mm  # mm: the table's centre appears at px_per_mm
    t, a = math.radians(tilt_deg), math.radians(yaw_deg)
    rz = np.array([[math.cos(a), -math.sin(a), 0], [math.sin(a), math.cos(a), 0], [0, 0, 1]])
    rx = np.array([[1, 0, 0], [0, math.cos(t), -math.sin(t)], [0, math.sin(t), math.cos(t)]])
    r = rx @ rz
    k = np.array([[f, 0, w / 2], [0, f, h / 2], [0, 0, 1]])
    return k @ np.column_stack([r[:, 0], r[:, 1], np.array([0, 0, distance])])


def tile_polygon(center: tuple[float, float], angle: float, size_mm: tuple[float, float]) -> np.ndarray:
    """A tile's corners on the table (mm), its long axis at ``angle``: the first value's end first (the
    -axis side), going round: (-u,-v) (+u,-v) (+u,+v) (-u,+v)."""
    length, width = size_mm
    u = np.array([math.cos(angle), math.sin(angle)])
    v = np.array([-u[1], u[0]])
    c = np.asarray(center, np.float64)
    return np.array([c - u * length / 2 - v * width / 2, c + u * length / 2 - v * width / 2,
                     c + u * length / 2 + v * width / 2, c - u * length / 2 + v * width / 2])


def place_tiles(rng: np.random.Generator, size_mm: tuple[float, float], half_view: tuple[float, float]) -> list[tuple]:
    """Tiles as (centre x, centre y, angle, values, role): lines end to end, hands side by side, loose ones apart."""
    length, width = size_mm
    placed: list[tuple] = []
    polys: list[np.ndarray] = []
    values = [(a, b) for a in range(7) for b in range(a, 7)]
    rng.shuffle(values)
    values = [tuple(v) if rng.random() < 0.5 else (v[1], v[0]) for v in values]

    def fits(poly: np.ndarray) -> bool:
        if np.any(np.abs(poly[:, 0]) > half_view[0]) or np.any(np.abs(poly[:, 1]) > half_view[1]):
            return False
        return all(cv2.intersectConvexConvex(poly.astype(np.float32), p.astype(np.float32))[0] < 0.5 for p in polys)

    for _ in range(rng.integers(2, 7)):
        kind = rng.choice(["line", "hand", "loose"])
        count = int(rng.integers(2, 7))
        angle = rng.uniform(0, math.pi)
        start = (rng.uniform(-half_view[0], half_view[0]), rng.uniform(-half_view[1], half_view[1]))
        for i in range(count):
            for _try in range(20 if kind == "loose" else 1):
                if kind == "line":  # end to end, touching or a hair apart
                    gap = rng.uniform(0, 1.0)
                    cx = start[0] + math.cos(angle) * i * (length + gap)
                    cy = start[1] + math.sin(angle) * i * (length + gap)
                    a = angle
                elif kind == "hand":  # side by side, long sides touching
                    gap = rng.uniform(0, 1.5)
                    cx = start[0] - math.sin(angle) * i * (width + gap)
                    cy = start[1] + math.cos(angle) * i * (width + gap)
                    a = angle + rng.uniform(-0.03, 0.03)
                else:
                    cx, cy = rng.uniform(-half_view[0], half_view[0]), rng.uniform(-half_view[1], half_view[1])
                    a = rng.uniform(0, 2 * math.pi)
                poly = tile_polygon((cx, cy), a, size_mm)
                if values and fits(poly):
                    polys.append(poly)
                    placed.append((poly, values.pop(), "layout" if kind == "line" else ("hand" if kind == "hand" else "loose")))
                    break
    return placed


def place_layout(rng: np.random.Generator, seed: int, size_mm: tuple[float, float], half_view: tuple[float, float]):
    """A played layout from the simulator, laid out by ``dominosynth.layout`` (in its millimetres, scaled to
    this tile's length), and a few loose tiles of the rest of the set lying apart; ``None`` where the
    layout does not fit the view.  Tiles as :func:`place_tiles` gives them, and the board."""
    for path in (str(HERE.parent), str(HERE)):
        if path not in sys.path:
            sys.path.insert(0, path)
    from dominosynth.layout import TILE_LONG, LayoutError, lay_out
    from scorer.rules import Play, Tile
    from scorer.rules.simulate import TABLES, simulate_match

    py_rng = random.Random(seed)
    game, players, partnership = py_rng.choice(TABLES)
    plays = [e.after.board for e in simulate_match(game, players, partnership, seed=seed).events if isinstance(e.event, Play)]
    board = py_rng.choice([b for b in plays if len(b.tiles) >= 2])
    scale = size_mm[0] / TILE_LONG  # this tile's millimetres per layout millimetre
    try:
        geoms = lay_out(board, py_rng, (-half_view[0] / scale, -half_view[1] / scale, half_view[0] / scale, half_view[1] / scale))
    except LayoutError:
        return None
    placed, polys = [], []
    for g in geoms:
        # The geometry's first corner is at its +axis end, which holds end_values[0]: turned half round,
        # that end is where this renderer draws a tile's first value.
        poly = tile_polygon((g.center[0] * scale, g.center[1] * scale), g.angle + math.pi, size_mm)
        placed.append((poly, g.end_values, "layout"))
        polys.append(poly)
    # Loose tiles (a hand counted, the boneyard turned up) at least half a tile's length from any other.
    rest = [t for t in (Tile.of(a, b) for a in range(7) for b in range(a, 7)) if t not in board.tiles]
    for tile in py_rng.sample(rest, min(len(rest), py_rng.randint(0, 4))):
        for _try in range(30):
            angle = py_rng.uniform(0, 2 * math.pi)
            centre = (py_rng.uniform(-half_view[0], half_view[0]), py_rng.uniform(-half_view[1], half_view[1]))
            poly = tile_polygon(centre, angle, size_mm)
            if np.any(np.abs(poly) > half_view):
                continue
            if all(np.linalg.norm(poly[:, None] - p[None], axis=2).min() > size_mm[0] / 2 for p in polys):
                placed.append((poly, (tile.a, tile.b), "loose"))
                polys.append(poly)
                break
    return placed, board


def render(index: int, kind: str = "shaded") -> dict | None:
    layouts = kind == "shaded-layouts"
    seed = (LAYOUT_SEED0 if layouts else SEED0) + index
    rng = np.random.default_rng(seed)
    w, h = [(1280, 720), (960, 720), (1024, 576), (800, 600)][int(rng.integers(0, 4))]
    size_mm = (rng.uniform(44, 54), 0.0)
    # A played layout has the proportions of the project's layouts (2:1), so that its joins touch.
    size_mm = (size_mm[0], size_mm[0] * (0.5 if layouts else rng.uniform(0.48, 0.52)))
    tile_px = rng.uniform(45, 130) * max(w, h) / 1280  # a tile's length in the image
    board = None
    for _attempt in range(12 if layouts else 1):
        px_per_mm = tile_px / size_mm[0]
        tilt = rng.uniform(0, 25) if rng.random() < 0.6 else 0.0
        H = camera(w, h, px_per_mm, tilt, rng.uniform(0, 360))
        half_view = (0.42 * w / px_per_mm, 0.42 * h / px_per_mm)
        if not layouts:
            break
        scene = place_layout(rng, seed, size_mm, half_view)
        if scene is not None and all(_in_frame(poly, H, w, h) for poly, _, role in scene[0] if role == "layout"):
            placed, board = scene
            break
        tile_px *= 0.85  # the layout did not fit the view: the camera further away
    else:
        return None
    look = random_look(rng)
    image = table(w, h, rng)
    shadow = np.zeros((h, w), np.float32)
    tiles = []
    if not layouts:
        placed = place_tiles(rng, size_mm, half_view)
    layers = []
    for poly, values, role in placed:
        img_poly = cv2.perspectiveTransform(poly[None].astype(np.float64), H)[0]
        if img_poly.min() < 0 or np.any(img_poly.max(axis=0) > [w - 1, h - 1]):
            continue  # (the tilt brings the far side in and pushes the near side out of the frame)
        colour, alpha = tile_sprite(values, size_mm, look)
        # Shrunk by area averaging close to the size it takes in the image (a warp would alias).
        scale = min(1.0, 1.5 * tile_px / alpha.shape[1])
        colour = cv2.resize(colour.astype(np.float32), None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
        alpha = cv2.resize(alpha, (colour.shape[1], colour.shape[0]), interpolation=cv2.INTER_AREA)
        sh, sw = alpha.shape
        # Sprite pixels -> table mm (the sprite's corners are the tile's corners) -> image.
        src = np.float32([[0, 0], [sw, 0], [sw, sh], [0, sh]])
        to_mm = cv2.getPerspectiveTransform(src, poly.astype(np.float32))
        M = H @ to_mm
        warped = cv2.warpPerspective(colour, M, (w, h), flags=cv2.INTER_LINEAR)
        a = cv2.warpPerspective(alpha, M, (w, h), flags=cv2.INTER_LINEAR)
        layers.append((warped, a))
        tiles.append({"corners": np.round(img_poly, 2).tolist(), "values": list(values), "visible": 1.0, "inside": 1.0,
                      "ignore": False, "role": role})
        shadow = np.maximum(shadow, a)
    # A soft shadow away from the light, then the tiles over it.
    light = look["light"]
    offset = np.array([-light[0], -light[1]]) / max(light[2], 0.3) * px_per_mm * rng.uniform(1.5, 4)
    shadow = cv2.warpAffine(shadow, np.float32([[1, 0, offset[0]], [0, 1, offset[1]]]), (w, h))
    shadow = cv2.GaussianBlur(shadow, (0, 0), max(1.0, px_per_mm * 1.5))
    image = image * (1 - rng.uniform(0.3, 0.6) * shadow[..., None])
    for warped, a in layers:
        image = image * (1 - a[..., None]) + warped * a[..., None]
    sigma = rng.choice([0, 0.5, 0.8, 1.2])
    if sigma:
        image = cv2.GaussianBlur(image, (0, 0), sigma)
    image = image + rng.normal(0, rng.uniform(0.005, 0.025), image.shape)
    out = np.clip(image * 255, 0, 255).astype(np.uint8)
    name = f"images/{kind}/{seed:08d}.jpg"
    cv2.imwrite(str(OUT / name), out, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(60, 96))])
    meta = {"image": name, "width": w, "height": h, "seed": seed, "kind": "shaded", "tilted": tilt > 0, "occluded": False,
            "touching": any(t["role"] != "loose" for t in tiles), "px_per_mm": round(px_per_mm, 4),
            "set": look["kind"], "divider_painted": look["groove_painted"], "tiles": tiles}
    if board is not None:
        meta["board"] = {
            "every_double_spins": board.every_double_spins,
            "tiles": [t.as_list() for t in board.tiles],
            "spinners": [t.as_list() for t in board.spinners],
            "joins": [[j.tile.as_list(), j.side.value, j.new_tile.as_list(), j.new_side.value] for j in board.joins],
            "sum": board.end_sum(),
        }
    return meta


def _in_frame(poly: np.ndarray, H: np.ndarray, w: int, h: int) -> bool:
    img_poly = cv2.perspectiveTransform(poly[None].astype(np.float64), H)[0]
    return bool(img_poly.min() >= 0 and np.all(img_poly.max(axis=0) <= [w - 1, h - 1]))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--count", type=int, default=300, help="images in the shaded split")
    parser.add_argument("--layouts", type=int, default=0, help="images in the shaded-layouts split (played layouts, for the board)")
    parser.add_argument("--layouts-start", type=int, default=0,
                        help="the first layout image's index; from N > 0 the split is written as shaded-layouts-from-N")
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    splits = (("shaded", "shaded", 0, args.count),
              ("shaded-layouts", f"shaded-layouts-from-{args.layouts_start}" if args.layouts_start else "shaded-layouts",
               args.layouts_start, args.layouts))
    for kind, name, start, count in splits:
        if not count:
            continue
        (OUT / "images" / kind).mkdir(parents=True, exist_ok=True)
        with ProcessPoolExecutor(args.workers) as pool:
            metas = [m for m in pool.map(partial(render, kind=kind), range(start, start + count), chunksize=8) if m is not None]
        (OUT / f"{name}.jsonl").write_text("".join(json.dumps(m) + "\n" for m in metas))
        print(f"{name}: {len(metas)} images, {sum(len(m['tiles']) for m in metas)} tiles -> {OUT / f'{name}.jsonl'}")


if __name__ == "__main__":
    main()
