"""Synthetic game videos from the simulator: tiles appear one by one as arms reach in from the players' seats.

Each table state is rendered once; frames between states add the moving arm,
camera noise, light flicker and auto-exposure steps.  Draws take face-down tiles
from the boneyard, players nudge the layout now and then, and at a round's end
every hand is laid face up in front of its player.  The ground truth is the
simulator's session log, each event stamped with the time it became visible.
"""

from __future__ import annotations

import json
import math
import random
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator

import cv2
import numpy as np

from dominosynth.evening import Evening, conditions_name
from dominosynth.layout import TILE_LONG, TILE_SHORT, LayoutError, PlacedGeom, lay_out
from dominosynth.render import CameraParams, draw_arm, random_tileset, render_scene
from scorer.rules import FULL_SET, Draw, Pass, Play, Reveal, RoundStart
from scorer.rules.log import dumps, event_to_json, header_to_json
from scorer.rules.simulate import SimulatedMatch, simulate_match
from scorer.vision.calibration import seat_order

FULL_SIZE = (1280, 720)
FULL_PX_PER_MM = 1.3


@dataclass
class VideoSpec:
    game: str
    players: int
    partnership: bool
    seed: int
    fps: float = 30.0
    max_rounds: int | None = None
    max_events: int | None = None
    move_seconds: float = 1.6  # arm in and out, then still
    nudges: bool = True
    flicker: bool = True
    size: tuple[int, int] = FULL_SIZE
    noise: float = 3.0
    # The set's and the table's look: "main", or "cross" (the held-out other style of the detector's
    # splits: more coloured bodies, ring pips, bigger corners, other tables) -- a check of the live path
    # on a look the models were not trained on.
    style: str = "main"
    # The camera's height over the table against the usual one: everything on the table looks this many
    # times smaller (1: a tile about 62 px long in 1280x720; 1.6: about 39 px, a webcam mounted high).
    distance: float = 1.0
    # How long the hands laid out at a round's end stay before the table is cleared, and whether the
    # table is cleared after the last round too (the demo ends on the hands and the totals instead).
    reveal_seconds: float = 1.5
    clear_last: bool = True
    # What a real evening adds (dominosynth.evening.CONDITIONS): the same game, layout and arms, under
    # drifting light, shadows, hovering hands, a bumped camera...
    conditions: frozenset[str] = frozenset()

    @property
    def px_per_mm(self) -> float:
        return FULL_PX_PER_MM * self.size[0] / FULL_SIZE[0] / self.distance


def _edge_point(side: int, rng: random.Random, w: int, h: int) -> tuple[float, float]:
    t = rng.uniform(0.3, 0.7)
    return [(t * w, h + 40), (-40, t * h), (t * w, -40), (w + 40, t * h)][side]


class _Table:
    """The tiles of one round on the table plane (mm), and their image positions."""

    def __init__(self, spec: VideoSpec, rng: random.Random, n_players: int) -> None:
        self.spec = spec
        self.rng = rng
        w, h = spec.size
        self.view_mm = (w / spec.px_per_mm, h / spec.px_per_mm)
        self.center = (self.view_mm[0] / 2, self.view_mm[1] / 2)
        self.cam = CameraParams(w, h, spec.px_per_mm, rng.uniform(0, 8), 0.0, rng.uniform(0, 360))
        self.style_seed = rng.randrange(2**31)
        self.tileset = random_tileset(random.Random(self.style_seed), spec.style)
        self.order = seat_order(n_players)

    def layout_bounds(self) -> tuple[float, float, float, float]:
        vw, vh = self.view_mm
        return (0.2 * vw, 0.24 * vh, 0.8 * vw, 0.76 * vh)

    def boneyard_spots(self, n: int) -> list[PlacedGeom]:
        vw, vh = self.view_mm
        spots = []
        for i in range(n):
            row, col = divmod(i, 4)
            x = 0.02 * vw + TILE_SHORT / 2 + col * (TILE_SHORT + 6) + 10
            y = 0.26 * vh + TILE_LONG / 2 + row * (TILE_LONG + 6)
            spots.append((x, y))
        return spots  # type: ignore[return-value]

    def hand_spots(self, seat_side: int, n: int) -> list[tuple[float, float, float]]:
        """Centres and angles for ``n`` revealed tiles in the strip in front of a seat."""
        vw, vh = self.view_mm
        out = []
        for i in range(n):
            if seat_side == 0:  # bottom
                out.append((0.3 * vw + i * (TILE_SHORT + 4), 0.91 * vh, math.pi / 2))
            elif seat_side == 2:  # top
                out.append((0.3 * vw + i * (TILE_SHORT + 4), 0.09 * vh, math.pi / 2))
            elif seat_side == 1:  # left
                # Four downwards from below the middle, then on upwards (a hand is at most 7 tiles).
                step = i if i < 4 else 3 - i
                out.append((0.075 * vw, 0.62 * vh + step * (TILE_SHORT + 4), 0.0))
            else:  # right
                out.append((0.925 * vw, 0.3 * vh + i * (TILE_SHORT + 4), 0.0))
        return out


def _frames_between(base: np.ndarray, after: np.ndarray, start: tuple[float, float], target: tuple[float, float],
                    n_in: int, n_out: int, rng: random.Random, skin: tuple[float, float, float],
                    distance: float, evening: Evening | None = None, hover: tuple[float, float] | None = None,
                    n_hover: int = 0) -> Iterator[np.ndarray]:
    width = int(0.08 * min(base.shape[:2]) * 1.5 / distance)  # (an arm's width is the arm's, in millimetres)

    def arm(picture: np.ndarray, end: tuple[float, float]) -> np.ndarray:
        img = picture.astype(np.float32)
        if evening is None:
            draw_arm(img, start, end, width, rng, skin)
        else:
            evening.arm(img, start, end, width, rng, skin)
        return img

    def towards(a: tuple[float, float], b: tuple[float, float], f: float) -> tuple[float, float]:
        return (a[0] + (b[0] - a[0]) * f, a[1] + (b[1] - a[1]) * f)

    first = start
    if hover is not None:
        # The hand comes in over the layout and lingers there, moving a little, before it lays the tile.
        for i in range(n_in):
            yield arm(base, towards(start, hover, (i + 1) / n_in))
        for i in range(n_hover):
            wobble = 12 * base.shape[1] / 1280 * math.sin(2 * math.pi * i / max(1, n_hover))
            yield arm(base, (hover[0] + wobble, hover[1] + 0.5 * wobble))
        first, n_in = hover, max(2, n_in // 2)
    for i in range(n_in):
        yield arm(base, towards(first, target, (i + 1) / n_in))
    for i in range(n_out):
        yield arm(after, towards(start, target, 1 - (i + 1) / (n_out + 1)))


def make_video(spec: VideoSpec, out_video: Path, out_log: Path, out_labels: Path | None = None) -> SimulatedMatch:
    """Write the video, its ground-truth log and, if asked, the tiles visible from each frame on."""
    rng = random.Random(spec.seed)
    names = ["Ann", "Ben", "Cid", "Dee"][: spec.players]
    sim = simulate_match(spec.game, spec.players, spec.partnership, seed=spec.seed, names=names)
    table = _Table(spec, rng, spec.players)
    w, h = spec.size
    PX_PER_MM = spec.px_per_mm
    writer = cv2.VideoWriter(str(out_video), cv2.VideoWriter_fourcc(*"mp4v"), spec.fps, spec.size)
    label_lines: list[str] = []
    if not writer.isOpened():
        raise RuntimeError(f"cannot write {out_video}")
    log_lines = [dumps(header_to_json(sim.header))]
    frame_no = 0
    gain = 1.0
    noise_rng = np.random.default_rng(spec.seed)
    skins = [tuple(float(v) for v in rng.choice([(120, 150, 210), (90, 120, 180), (60, 85, 130), (150, 175, 225)])) for _ in names]

    evening: Evening | None = None
    bump_labelled = False
    state_labels: list[dict] = []

    def seen(labels: list[dict], t: float) -> list[dict]:
        """The labels where the camera sees them at ``t`` (moved once a bumped camera has settled)."""
        if evening is None:
            return labels
        return [{**lab, "corners": np.round(evening.moved_points(np.array(lab["corners"]), t), 2).tolist()} for lab in labels]

    def emit(img: np.ndarray) -> None:
        nonlocal frame_no, gain, bump_labelled
        if evening is not None:
            t = frame_no / spec.fps
            img = evening.frame(img, t)
            if "bump" in evening.conditions and not bump_labelled and t >= evening.bump_at + 0.2:
                label_lines.append(json.dumps({"from_frame": frame_no, "tiles": seen(state_labels, t)}))
                bump_labelled = True
        if spec.flicker:
            if rng.random() < 0.004:  # auto-exposure settles somewhere new
                gain = rng.uniform(0.9, 1.1)
            flick = 1.0 + 0.015 * math.sin(frame_no * 2 * math.pi * 100 / spec.fps / 7.3)
        else:
            flick = 1.0
        noisy = img * (gain * flick) + noise_rng.normal(0, spec.noise, img.shape).astype(np.float32)
        writer.write(np.clip(noisy, 0, 255).astype(np.uint8))
        frame_no += 1

    pending_labels: list[list[dict]] = []

    def hold(img: np.ndarray, seconds: float) -> None:
        # The latest rendered state is on the table from here on.
        nonlocal state_labels
        if pending_labels:
            state_labels = pending_labels[-1]
            label_lines.append(json.dumps({"from_frame": frame_no, "tiles": seen(state_labels, frame_no / spec.fps)}))
            pending_labels.clear()
        for _ in range(int(round(seconds * spec.fps))):
            emit(img)

    # Events grouped by round.
    rounds: list[list] = []
    for step in sim.events:
        if isinstance(step.event, RoundStart):
            rounds.append([])
        rounds[-1].append(step)
    if spec.max_rounds:
        rounds = rounds[: spec.max_rounds]
    if spec.conditions:
        expected = sum(len(r) for r in rounds) * spec.move_seconds if not spec.max_events else spec.max_events * spec.move_seconds
        evening = Evening(spec.conditions, spec.seed, spec.size, spec.fps, expected)
    events_done = 0
    for round_steps in rounds:
        final_board = next((s.after.board for s in reversed(round_steps) if s.after.board is not None and isinstance(s.event, Play)), None)
        if final_board is None:
            continue
        geoms: list[PlacedGeom] = []
        for _ in range(20):
            try:
                geoms = lay_out(final_board, rng, table.layout_bounds())
                break
            except LayoutError:
                continue
        if not geoms:
            raise RuntimeError("the round's layout does not fit the table")
        by_tile = {g.tile: i for i, g in enumerate(geoms)}
        # The boneyard as dealt (Horse Race), face down in the top-left corner.
        first = round_steps[0]
        dealt = [t for hand in first.hands for t in hand]
        bone_tiles = [t for t in FULL_SET if t not in dealt]
        spots = table.boneyard_spots(len(bone_tiles))
        bone_index = []
        for t, (x, y) in zip(bone_tiles, spots):
            bone_index.append(len(geoms))
            geoms.append(PlacedGeom(t, (x, y), math.pi / 2, (t.a, t.b), face_up=False, role="boneyard"))
        # Revealed hands, in each seat's strip.
        last = round_steps[-1]
        reveal_index: dict[int, list[int]] = {}
        if isinstance(last.event, Reveal):
            for seat, (name, tiles) in enumerate(last.event.hands):
                spots_h = table.hand_spots(table.order[seat], len(tiles))
                for t, (x, y, a) in zip(tiles, spots_h):
                    reveal_index.setdefault(seat, []).append(len(geoms))
                    geoms.append(PlacedGeom(t, (x, y), a, (t.a, t.b), face_up=True, role="hand"))
        shown = [False] * len(geoms)
        for i in bone_index:
            shown[i] = True
        bone_left = list(bone_index)
        nudge = np.zeros(2)

        def render() -> np.ndarray:
            moved = [
                PlacedGeom(g.tile, (g.center[0] + nudge[0], g.center[1] + nudge[1]), g.angle, g.end_values, g.face_up, g.role)
                if g.role == "layout" else g
                for g in geoms
            ]
            scene = render_scene(moved, table.tileset, table.cam, random.Random(table.style_seed), table.center,
                                 style=table.spec.style, occlude=False, show=shown, effects=False)
            # The scene labels only the tiles shown.
            pending_labels.append([{"corners": np.round(lab.corners, 2).tolist(), "values": None if lab.values is None else list(lab.values)} for lab in scene.tiles])
            return scene.image.astype(np.float32)

        def to_px(x: float, y: float) -> tuple[float, float]:
            return (x - table.center[0]) * PX_PER_MM + w / 2, (y - table.center[1]) * PX_PER_MM + h / 2

        current = render()
        hold(current, 1.0)
        for step in round_steps:
            event = step.event
            t_visible = None
            if isinstance(event, RoundStart):
                log_lines.append(dumps({**event_to_json(event), "t": round(frame_no / spec.fps, 2)}))
                continue
            player_seat = None
            if hasattr(event, "player"):
                player_seat = names.index(event.player)
            if isinstance(event, Play):
                shown[by_tile[event.tile]] = True
                if spec.nudges and rng.random() < 0.08:
                    nudge = nudge + np.array([rng.uniform(-1.5, 1.5), rng.uniform(-1.5, 1.5)])
                brushed = evening.brush() if evening is not None else None
                laid = [i for i, g in enumerate(geoms) if shown[i] and g.role == "layout" and g.tile != event.tile]
                if brushed is not None and laid and evening is not None:
                    i = evening.rng.choice(laid)
                    g = geoms[i]
                    geoms[i] = PlacedGeom(g.tile, (g.center[0] + brushed[0], g.center[1] + brushed[1]), g.angle + brushed[2],
                                          g.end_values, g.face_up, g.role)
                after = render()
                g = geoms[by_tile[event.tile]]
                start = _edge_point(table.order[player_seat], rng, w, h)
                target = to_px(*g.center)
                hover = evening.hover_point(target, (w, h)) if evening is not None else None
                n_hover = int(evening.hover_seconds() * spec.fps) if hover is not None and evening is not None else 0
                for img in _frames_between(current, after, start, target, int(0.4 * spec.fps), int(0.3 * spec.fps), rng,
                                           skins[player_seat], spec.distance, evening, hover, n_hover):
                    emit(img)
                current = after
                t_visible = frame_no / spec.fps
                hold(current, spec.move_seconds - 0.7)
            elif isinstance(event, Draw):
                for _ in range(event.count):
                    if bone_left:
                        shown[bone_left.pop()] = False
                after = render()
                start = _edge_point(table.order[player_seat], rng, w, h)
                target = to_px(*table.boneyard_spots(1)[0])
                for img in _frames_between(current, after, start, target, int(0.35 * spec.fps), int(0.3 * spec.fps), rng, skins[player_seat], spec.distance, evening):
                    emit(img)
                current = after
                t_visible = frame_no / spec.fps
                hold(current, 0.8)
            elif isinstance(event, Pass):
                t_visible = frame_no / spec.fps
                hold(current, 0.3)
            elif isinstance(event, Reveal):
                for seat, indices in sorted(reveal_index.items()):
                    for i in indices:
                        shown[i] = True
                    after = render()
                    start = _edge_point(table.order[seat], rng, w, h)
                    target = to_px(*geoms[indices[0]].center)
                    for img in _frames_between(current, after, start, target, int(0.3 * spec.fps), int(0.25 * spec.fps), rng, skins[seat], spec.distance, evening):
                        emit(img)
                    current = after
                t_visible = frame_no / spec.fps
                hold(current, spec.reveal_seconds)
            log_lines.append(dumps({**event_to_json(event), "t": round(t_visible or 0.0, 2)}))
            events_done += 1
            if spec.max_events and events_done >= spec.max_events:
                break
        if spec.max_events and events_done >= spec.max_events:
            break
        if not spec.clear_last and round_steps is rounds[-1]:
            break
        # The table is cleared for the next deal.
        for i in range(len(shown)):
            shown[i] = False
        cleared = render()
        start = _edge_point(0, rng, w, h)
        for img in _frames_between(current, cleared, start, (w / 2, h / 2), int(0.4 * spec.fps), int(0.4 * spec.fps), rng, skins[0], spec.distance, evening):
            emit(img)
        hold(cleared, 1.0)
    writer.release()
    out_log.write_text("\n".join(log_lines) + "\n")
    if out_labels is not None:
        out_labels.write_text("\n".join(label_lines) + "\n")
    return sim

