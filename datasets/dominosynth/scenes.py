"""Whole table scenes: played layouts from the rules simulator, boneyards, revealed hands, loose tiles."""

from __future__ import annotations

import random
from dataclasses import dataclass


from dominosynth.layout import TILE_LONG, LayoutError, PlacedGeom, lay_out, scatter
from dominosynth.render import Scene, random_camera, random_tileset, render_scene
from scorer.rules import FULL_SET, Board, Play
from scorer.rules.simulate import TABLES, simulate_match

KINDS = ("layout", "loose", "mixed")


@dataclass
class SceneInfo:
    kind: str  # layout | loose | mixed
    tilted: bool
    occluded: bool
    touching: bool
    seed: int
    board: Board | None = None  # the played layout's board (the ground truth of the graph)


def _random_board(rng: random.Random):
    game, n, partnership = rng.choice(TABLES)
    sim = simulate_match(game, n, partnership, seed=rng.randrange(2**31))
    boards = [s.after.board for s in sim.events if isinstance(s.event, Play) and s.after.board is not None]
    # Favour bigger layouts: they are what a camera sees for most of a round.
    return boards[min(len(boards) - 1, int(len(boards) * rng.random() ** 0.5))]


def make_scene(seed: int, style: str = "main", size: tuple[int, int] | None = None) -> tuple[Scene, SceneInfo]:
    rng = random.Random(seed)
    close = style == "closeup"  # a camera close over the table: big tiles, few in view, cut by the edge, dim at times
    far = style == "far"  # a camera far over the table: small tiles, of any of the training's sets
    dim = style == "dim" or (close and rng.random() < 0.3)  # only the camera: a dim room
    moving = style == "motion"  # only the camera: every frame blurred by motion
    table = "stone" if style == "stone" else None  # only the table: busy stone-like tops
    tiles_style = "main" if dim or moving or close or table else style
    if far:
        tiles_style = rng.choice(["main", "main", "engraved", "glossy", "dots"])
    style = "main" if style in ("engraved", "glossy", "dots", "palette", "dim", "motion", "closeup", "stone", "far") else style  # these change only the set, camera or table
    kind = rng.choices(KINDS, [5, 2, 3] if not close else [2, 5, 1])[0]
    cam = random_camera(rng, style, size)
    if close:
        cam.px_per_mm = rng.uniform(180, 800) * max(cam.w, cam.h) / 1280 / TILE_LONG
    if far:
        cam.px_per_mm = rng.uniform(16, 50) / TILE_LONG  # in the frame's own pixels, whatever its size
    view_w, view_h = cam.w / cam.px_per_mm, cam.h / cam.px_per_mm
    center = (view_w / 2, view_h / 2)
    margin = 1.06 if not close else rng.uniform(1.1, 2.5)  # let a few tiles run off the frame (close: many)
    bounds = (center[0] - view_w / 2 * margin, center[1] - view_h / 2 * margin, center[0] + view_w / 2 * margin, center[1] + view_h / 2 * margin)
    geoms: list[PlacedGeom] = []
    touching = False
    board: Board | None = None
    if kind in ("layout", "mixed"):
        for _ in range(5):
            board = _random_board(rng)
            inner = (bounds[0] + 0.1 * view_w, bounds[1] + 0.1 * view_h, bounds[2] - 0.1 * view_w, bounds[3] - 0.1 * view_h)
            try:
                geoms = lay_out(board, rng, inner if kind == "mixed" else bounds)
                touching = len(geoms) > 1
                break
            except LayoutError:
                board = None
                continue
    used = {g.tile for g in geoms}
    rest = [t for t in FULL_SET if t not in used]
    rng.shuffle(rest)
    polys = [g.corners() for g in geoms]
    if kind == "loose":
        count = rng.randint(1, min(14 if not close else 5, len(rest)))
        geoms += scatter(rest[:count], rng, bounds, polys, face_up=True, touching=rng.random() < 0.5)
        touching = touching or count > 1
        rest = rest[count:]
        if rng.random() < 0.4:
            geoms += scatter(rest[: rng.randint(1, 8)], rng, bounds, [g.corners() for g in geoms], face_up=False, role="boneyard")
    elif kind == "mixed":
        # A boneyard of face-down tiles and perhaps a hand laid out for the count.
        n_down = rng.randint(0, min(12, len(rest)))
        geoms += scatter(rest[:n_down], rng, bounds, polys, face_up=False, touching=rng.random() < 0.3, role="boneyard")
        rest = rest[n_down:]
        if rest and rng.random() < 0.6:
            n_up = rng.randint(1, min(7, len(rest)))
            geoms += scatter(rest[:n_up], rng, bounds, [g.corners() for g in geoms], face_up=True, touching=True, role="hand")
    ts = random_tileset(rng, tiles_style)
    occlude = rng.random() < 0.3
    scene = render_scene(geoms, ts, cam, rng, center, table or style, occlude, dim=dim, moving=moving)
    info = SceneInfo(kind, cam.tilt > 10, occlude, touching, seed, board if geoms else None)
    return scene, info
