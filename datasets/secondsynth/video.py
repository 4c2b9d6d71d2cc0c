"""A game video and its truth log: the simulator's match acted out on a drawn table."""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field, replace
from pathlib import Path

import cv2
import numpy as np

from scorer.rules.events import Draw, Pass, Play, Reveal, RoundStart
from scorer.rules.log import dumps, event_to_json, header_to_json
from scorer.rules.simulate import simulate_match
from scorer.rules.tiles import Tile

from .arms import ArmPainter, ArmPose
from .camera import Camera, apply_lean
from .draw import Item, Sprites, StillPainter
from .layout import TILE_L, TILE_W, Placed, lay_out
from .look import light_map, person, table_texture, tile_set
from .spec import SecondSpec

NAMES = ["Ann", "Ben", "Cid", "Dee"]
SEATS = {2: ("bottom", "top"), 3: ("bottom", "left", "top"), 4: ("bottom", "left", "top", "right")}
_OUT = {"bottom": (0.0, 1.0), "left": (-1.0, 0.0), "top": (0.0, -1.0), "right": (1.0, 0.0)}
LAYOUT_FRACTION = 0.6  # the layout keeps to the middle 60 % of each side of the table image
STRIP = (0.05, 0.185)  # the hands' and heaps' strip, as fractions of the side from the edge


def _ease(x: float) -> float:
    x = min(1.0, max(0.0, x))
    return x * x * (3 - 2 * x)


# -- the plan: every frame's still table and arms, and the log's times --------------------------------------


@dataclass
class Plan:
    spec: SecondSpec
    log_lines: list[str]
    frames: list[tuple[int, tuple[ArmPose, ...]]]
    states: list[tuple[Item, ...]]
    people: list
    scale: float
    busy: list[tuple[float, float]] = field(default_factory=list)
    marks: list[tuple[float, str]] = field(default_factory=list)  # when a hover or a brush began

    @property
    def duration(self) -> float:
        return len(self.frames) / self.spec.fps


def _rounds(spec: SecondSpec):
    sim = simulate_match(spec.game, spec.players, spec.partnership, seed=spec.seed, names=NAMES[:spec.players])
    rounds: list[list] = []
    for step in sim.events:
        if isinstance(step.event, RoundStart):
            if spec.max_rounds is not None and len(rounds) >= spec.max_rounds:
                break
            rounds.append([])
        rounds[-1].append(step)
    return sim.header, rounds


class Director:
    """Acts the match out frame by frame."""

    def __init__(self, spec: SecondSpec, rng: random.Random, s: float) -> None:
        self.spec = spec
        self.rng = rng
        self.fps = spec.fps
        self.W, self.H = spec.size
        self.s = s
        self.frames: list[tuple[int, tuple[ArmPose, ...]]] = []
        self.states: list[tuple[Item, ...]] = [()]
        self.state = 0
        self.layout: dict[Tile, Item] = {}
        self.heap: list[Item] = []
        self.rows: list[Item] = []
        self.seats = SEATS[spec.players]
        self.people = [person(rng) for _ in range(spec.players)]
        self.shoulders = []
        for i, seat in enumerate(self.seats):
            nx, ny = _OUT[seat]
            cx = self.W / 2 + nx * self.W / 2 + (rng.uniform(-0.1, 0.1) * self.W if ny else 0)
            cy = self.H / 2 + ny * self.H / 2 + (rng.uniform(-0.1, 0.1) * self.H if nx else 0)
            right = (ny, -nx)  # the player's right, facing the table
            hand = 1 if self.people[i].right_handed else -1
            self.shoulders.append((cx + nx * 260 * s + right[0] * 170 * s * hand,
                                   cy + ny * 260 * s + right[1] * 170 * s * hand))
        self.hover = "hover" in spec.conditions
        self.busy: list[tuple[float, float]] = []
        self.marks: list[tuple[float, str]] = []

    # -- time and the table ------------------------------------------------------------------------

    @property
    def t(self) -> float:
        return len(self.frames) / self.fps

    def n(self, seconds: float) -> int:
        return max(1, int(round(seconds * self.fps)))

    def hold(self, seconds: float) -> None:
        self.frames.extend([(self.state, ())] * self.n(seconds))

    def settle(self) -> None:
        self.hold(self.rng.uniform(1.0, 1.5))

    def commit(self) -> None:
        items = tuple(self.heap) + tuple(self.layout.values()) + tuple(self.rows)
        if items != self.states[self.state]:
            self.states.append(items)
            self.state = len(self.states) - 1

    # -- arms --------------------------------------------------------------------------------------

    def _shoulder(self, seat: int) -> tuple[float, float]:
        sx, sy = self.shoulders[seat]
        j = 25 * self.s
        return sx + self.rng.uniform(-j, j), sy + self.rng.uniform(-j, j)

    def _outside(self, seat: int, S, P) -> tuple[float, float]:
        """The fingertips' point on the line from the shoulder to ``P`` just outside the player's edge."""
        nx, ny = _OUT[self.seats[seat]]
        ex = self.W if nx > 0 else 0.0
        ey = self.H if ny > 0 else 0.0
        margin = 25 * self.s

        def out(pt):
            return (pt[0] - ex) * nx if nx else (pt[1] - ey) * ny

        dS, dP = out(S), out(P)
        g = (dS - margin) / (dS - dP) if dS != dP else 0.0
        g = min(max(g, 0.0), 1.0)
        return S[0] + (P[0] - S[0]) * g, S[1] + (P[1] - S[1]) * g

    def _tip_for(self, S, item: Item) -> tuple[float, float]:
        """Where the fingertips are when the hand holds ``item``: just past its centre, away from the body."""
        dx, dy = item.x - S[0], item.y - S[1]
        d = math.hypot(dx, dy) + 1e-6
        return item.x + dx / d * 20 * self.s, item.y + dy / d * 20 * self.s

    def _carried(self, S, F, item: Item | None) -> Item | None:
        if item is None:
            return None
        dx, dy = F[0] - S[0], F[1] - S[1]
        d = math.hypot(dx, dy) + 1e-6
        return replace(item, x=F[0] - dx / d * 20 * self.s, y=F[1] - dy / d * 20 * self.s)

    def _move(self, seat: int, S, A, B, seconds: float, carry: Item | None = None, spread=(0.0, 0.0),
              wobble: float = 0.0) -> None:
        n = self.n(seconds)
        ph = self.rng.uniform(0, 2 * math.pi)
        dx, dy = B[0] - A[0], B[1] - A[1]
        d = math.hypot(dx, dy) + 1e-6
        px, py = -dy / d, dx / d
        for i in range(n):
            x = _ease((i + 1) / n)
            w = wobble * math.sin(math.pi * x) * math.sin(ph + 3 * x)
            F = (A[0] + dx * x + px * w, A[1] + dy * x + py * w)
            pose = ArmPose(seat, S[0], S[1], F[0], F[1], spread[0] + (spread[1] - spread[0]) * x,
                           self._carried(S, F, carry))
            self.frames.append((self.state, (pose,)))

    def _still_arm(self, seat: int, S, F, seconds: float, carry: Item | None = None, spread: float = 0.0) -> None:
        pose = ArmPose(seat, S[0], S[1], F[0], F[1], spread, self._carried(S, F, carry))
        self.frames.extend([(self.state, (pose,))] * self.n(seconds))

    def reach(self, seat: int, P, carry_in: Item | None = None, carry_out: Item | None = None, on_arrive=None,
              hover: bool = False, hover_near=None) -> None:
        """An arm from ``seat``'s edge to fingertips at ``P``; ``on_arrive`` changes the table while the hand is
        there; then the arm goes back out.  Ends on the first frame with no arm."""
        rng = self.rng
        S = self._shoulder(seat)
        O = self._outside(seat, S, P)
        wob = rng.uniform(2, 8) * self.s
        t0 = self.t
        if hover:
            near = hover_near or P
            Q = (near[0] + rng.uniform(-50, 50) * self.s, near[1] + rng.uniform(-50, 50) * self.s)
            self._move(seat, S, O, Q, rng.uniform(0.5, 0.8), carry_in, (1, 1), wob)
            total = rng.uniform(0.5, 1.5)
            Q2 = (Q[0] + rng.uniform(-30, 30) * self.s, Q[1] + rng.uniform(-30, 30) * self.s)
            if rng.random() < 0.35:
                a = rng.uniform(0.3, 0.6) * total
                self._move(seat, S, Q, Q2, a, carry_in, (1, 1))
                O2 = self._outside(seat, S, Q2)
                self._move(seat, S, Q2, O2, rng.uniform(0.4, 0.6), carry_in, (1, 1))
                self.hold(rng.uniform(0.2, 0.5))
                Q3 = (Q2[0] + rng.uniform(-30, 30) * self.s, Q2[1] + rng.uniform(-30, 30) * self.s)
                self._move(seat, S, self._outside(seat, S, Q3), Q3, rng.uniform(0.5, 0.7), carry_in, (1, 1), wob)
                self._move(seat, S, Q3, Q2, total - a, carry_in, (1, 1))
            else:
                self._move(seat, S, Q, Q2, total, carry_in, (1, 1))
            self._move(seat, S, Q2, P, rng.uniform(0.3, 0.5), carry_in, (1, 1))
        else:
            self._move(seat, S, O, P, rng.uniform(0.45, 0.8), carry_in, (1 if carry_in else 0, 1 if carry_in else 0.6),
                       wob)
        self._still_arm(seat, S, P, rng.uniform(0.1, 0.2), carry_in, 1.0)
        if on_arrive is not None:
            on_arrive()
            self.commit()
        self._still_arm(seat, S, P, rng.uniform(0.1, 0.2), carry_out, 0.3)
        O = self._outside(seat, S, P)
        self._move(seat, S, P, O, rng.uniform(0.4, 0.7), carry_out, (0.3, 0.0), wob)
        self.busy.append((t0, self.t))

    # -- the game's moves --------------------------------------------------------------------------

    def play(self, seat: int, item: Item, layout_centre) -> None:
        S = self.shoulders[seat]
        P = self._tip_for(S, item)
        hover = self.hover and self.rng.random() < 1 / 3
        if hover:
            self.marks.append((round(self.t, 2), "hover"))

        def lay():
            self.layout[self._key(item)] = item

        self.reach(seat, P, carry_in=item, on_arrive=lay, hover=hover, hover_near=layout_centre)

    @staticmethod
    def _key(item: Item) -> Tile:
        return Tile.of(item.v_neg, item.v_pos)

    def draw(self, seat: int) -> None:
        S = self.shoulders[seat]
        take = min(self.heap, key=lambda it: math.hypot(it.x - S[0], it.y - S[1]))
        P = self._tip_for(S, take)

        def remove():
            self.heap.remove(take)

        self.reach(seat, P, carry_out=take, on_arrive=remove)

    def brush(self, seat: int) -> None:
        """A sleeve brushes the layout: one tile slides a few millimetres and turns a little."""
        rng = self.rng
        key = rng.choice(list(self.layout))
        it = self.layout[key]
        S = self.shoulders[seat]
        dx, dy = it.x - S[0], it.y - S[1]
        d = math.hypot(dx, dy) + 1e-6
        P = (it.x + dx / d * 190 * self.s, it.y + dy / d * 190 * self.s)
        a = math.radians(it.angle + 90 * rng.choice((1, -1)) + rng.uniform(-20, 20))
        shift = rng.uniform(2.0, 4.0) * self.s
        moved = replace(it, x=it.x + shift * math.cos(a), y=it.y + shift * math.sin(a),
                        angle=it.angle + rng.choice((1, -1)) * rng.uniform(2.0, 5.0))

        def nudge():
            self.layout[key] = moved

        self.marks.append((round(self.t, 2), "brush"))

        self.reach(seat, P, on_arrive=nudge)


# -- where things lie -----------------------------------------------------------------------------------------


def _rect_poly(x, y, angle, L, Wd):
    return ((x, y), (L, Wd), angle)


def _free(cands, placed, clear):
    r = cands
    big = ((r[0][0], r[0][1]), (r[1][0] + clear, r[1][1] + clear), r[2])
    for o in placed:
        ob = ((o[0][0], o[0][1]), (o[1][0] + clear, o[1][1] + clear), o[2])
        kind, _ = cv2.rotatedRectangleIntersection(big, ob)
        if kind != cv2.INTERSECT_NONE:
            return False
    return True


def heap_items(rng: random.Random, n: int, seats: tuple[str, ...], W: int, H: int, s: float) -> list[Item]:
    """``n`` face-down tiles in one or two loose heaps in the table's corners, clear of the seats' strips."""
    if n == 0:
        return []
    L, Wd = TILE_L * s, TILE_W * s
    corners = []
    for cx in ("left", "right"):
        for cy in ("top", "bottom"):
            side_taken = cx in seats
            x0, x1 = (STRIP[0] * W, STRIP[1] * W) if cx == "left" else ((1 - STRIP[1]) * W, (1 - STRIP[0]) * W)
            reach = 0.19 if side_taken else 0.47
            y0, y1 = (STRIP[0] * H, reach * H) if cy == "top" else ((1 - reach) * H, (1 - STRIP[0]) * H)
            corners.append((x0, y0, x1, y1))
    for attempt in range(60):
        k = 1 if (n <= 5 and rng.random() < 0.7) or (attempt < 10 and n <= 9 and rng.random() < 0.5) else 2
        if attempt >= 30:
            k = min(4, 2 + (attempt - 30) // 10)
        chosen = rng.sample(corners, k)
        counts = [n // k + (1 if i < n % k else 0) for i in range(k)]
        rects = []
        ok = True
        for (x0, y0, x1, y1), c in zip(chosen, counts):
            hx, hy = (x0 + x1) / 2, (y0 + y1) / 2
            spread = 0.25
            for _ in range(c):
                for _ in range(400):
                    x = hx + rng.gauss(0, spread) * (x1 - x0)
                    y = hy + rng.gauss(0, spread) * (y1 - y0)
                    ang = rng.choice((0, 90)) + rng.uniform(-35, 35)
                    r = ((x, y), (L, Wd), ang)
                    pts = cv2.boxPoints(r)
                    if pts[:, 0].min() < x0 or pts[:, 0].max() > x1 or pts[:, 1].min() < y0 or pts[:, 1].max() > y1:
                        spread = min(0.6, spread * 1.01)
                        continue
                    if _free(r, rects, 2.0 * s):
                        rects.append(r)
                        break
                    spread = min(0.6, spread * 1.01)
                else:
                    ok = False
                    break
            if not ok:
                break
        if ok:
            return [Item(False, 0, 0, r[0][0], r[0][1], r[2]) for r in rects]
    raise RuntimeError("does not fit")


def row_items(rng: random.Random, seat: str, tiles: tuple[Tile, ...], W: int, H: int, s: float,
              layout: list[Item]) -> list[Item]:
    """A revealed hand: the tiles face up in a row (or a few) in front of ``seat``, clear of the layout."""
    if not tiles:
        return []
    L, Wd = TILE_L * s, TILE_W * s
    nx, ny = _OUT[seat]
    depth_len = (H if ny else W)
    if ny:
        a0, a1 = STRIP[1] * W + 8 * s, (1 - STRIP[1]) * W - 8 * s
    else:
        a0, a1 = 0.2 * H, 0.8 * H
    # near the edge: within the outer 17 % of the height, or 14 % of the width at a side seat
    d0, d1 = 0.04 * depth_len, (0.17 if ny else 0.14) * depth_len
    n = len(tiles)
    boxes = [((it.x, it.y), (L, Wd), it.angle) for it in layout]
    for perpendicular, rows in ((True, 1), (False, 2), (False, 3), (True, 2), (False, 4)):
        size_along, size_depth = (Wd, L) if perpendicular else (L, Wd)
        gap_d = 3 * s
        if rows * size_depth + (rows - 1) * gap_d > d1 - d0:
            continue
        per_row = math.ceil(n / rows)
        gap = rng.uniform(3, 7) * s
        if per_row * size_along + (per_row - 1) * gap > a1 - a0:
            gap = 2 * s
            if per_row * size_along + (per_row - 1) * gap > a1 - a0:
                continue
        start_d = d0 + rng.uniform(0, max(0.0, (d1 - d0) - rows * size_depth - (rows - 1) * gap_d))
        order = list(tiles)
        rng.shuffle(order)
        items = []
        for r in range(rows):
            chunk = order[r * per_row:(r + 1) * per_row]
            span = len(chunk) * size_along + (len(chunk) - 1) * gap
            mid = (a0 + a1) / 2 + rng.uniform(-1, 1) * max(0.0, (a1 - a0 - span) / 2) * 0.5
            depth = start_d + r * (size_depth + gap_d) + size_depth / 2
            for i, t in enumerate(chunk):
                along = mid - span / 2 + i * (size_along + gap) + size_along / 2 + rng.uniform(-0.6, 0.6) * s
                dd = depth + rng.uniform(-1, 1) * s
                if ny:
                    x, y = along, (H - dd if ny > 0 else dd)
                else:
                    x, y = (W - dd if nx > 0 else dd), along
                ang = (90.0 if ny else 0.0) if perpendicular else (0.0 if ny else 90.0)
                ang += rng.uniform(-3, 3) + rng.choice((0, 180))
                v1, v2 = (t.a, t.b) if rng.random() < 0.5 else (t.b, t.a)
                items.append(Item(True, v1, v2, x, y, ang))
        if all(_free(((it.x, it.y), (L, Wd), it.angle), boxes, 6 * s) for it in items):
            return items
    raise RuntimeError("does not fit")


def layout_items(rng: random.Random, placed: list[Placed], W: int, H: int, s: float) -> list[Item]:
    cx, cy = W / 2, H / 2
    out = []
    for p in placed:
        out.append(Item(True, p.v_neg, p.v_pos, cx + p.x * s + rng.uniform(-0.5, 0.5) * s,
                        cy + p.y * s + rng.uniform(-0.5, 0.5) * s, p.quarter * 90.0 + rng.uniform(-2.0, 2.0)))
    return out


# -- the plan ------------------------------------------------------------------------------------------------


def plan_video(spec: SecondSpec) -> Plan:
    rng = random.Random(f"secondsynth:{spec.seed}:{spec.game}:{spec.players}:{spec.partnership}")
    W, H = spec.size
    s = 1.3 * W / 1280.0 * rng.uniform(0.98, 1.03)
    header, rounds = _rounds(spec)
    d = Director(spec, rng, s)
    players = list(header.players)
    lines = [dumps(header_to_json(header))]
    width_mm = LAYOUT_FRACTION * W / s - 6
    height_mm = LAYOUT_FRACTION * H / s - 6
    brush_budget = (rng.randint(1, 2) if "brush" in spec.conditions else 0)
    plays_total = sum(1 for r in rounds for st in r if isinstance(st.event, Play))
    brush_at = set(rng.sample(range(3, max(4, plays_total)), min(brush_budget, max(0, plays_total - 3))))
    play_no = 0

    def log(event, t: float) -> None:
        lines.append(dumps({**event_to_json(event), "t": round(t, 2)}))

    for r_i, steps in enumerate(rounds):
        boards = [st.after.current_board() for st in steps if isinstance(st.event, Play)]
        placed = lay_out(boards, width_mm, height_mm, rng)
        items = layout_items(rng, placed, W, H, s)
        first = steps[0]
        dealt = {t for hand in first.hands for t in hand}
        n_bone = 28 - len(dealt) if header.rules.has_boneyard else 0
        heap = heap_items(rng, n_bone, d.seats, W, H, s)
        if r_i == 0:
            d.heap = heap
            d.commit()
            log(first.event, 0.0)
            d.hold(rng.uniform(1.2, 1.8))
        else:
            # the last round's tiles swept away, the table empty a second, the new boneyard put down
            seat = rng.randrange(len(players))
            d.reach(seat, (W / 2 + rng.uniform(-0.1, 0.1) * W, H / 2 + rng.uniform(-0.1, 0.1) * H),
                    on_arrive=lambda: (d.layout.clear(), d.heap.clear(), d.rows.clear()))
            d.hold(rng.uniform(1.0, 1.3))
            if heap:
                hx = sum(it.x for it in heap) / len(heap)
                hy = sum(it.y for it in heap) / len(heap)
                nearest = min(range(len(players)), key=lambda i: math.hypot(d.shoulders[i][0] - hx, d.shoulders[i][1] - hy))

                def put():
                    d.heap = list(heap)

                d.reach(nearest, (hx, hy), on_arrive=put)
            log(first.event, d.t)
            d.settle()
        k = 0
        centre = (W / 2, H / 2)
        for st in steps[1:]:
            ev = st.event
            if isinstance(ev, Play):
                seat = players.index(ev.player)
                d.play(seat, items[k], centre)
                k += 1
                log(ev, d.t)
                d.settle()
                play_no += 1
                if play_no in brush_at and len(d.layout) >= 3:
                    d.brush(rng.randrange(len(players)))
                    d.settle()
            elif isinstance(ev, Draw):
                seat = players.index(ev.player)
                for i in range(ev.count):
                    d.draw(seat)
                    if i < ev.count - 1:
                        d.settle()
                log(ev, d.t)
                d.settle()
            elif isinstance(ev, Pass):
                log(ev, d.t)
                d.hold(0.3)
            elif isinstance(ev, Reveal):
                layout_now = list(d.layout.values())
                for name, tiles in ev.hands:
                    if not tiles:
                        continue
                    seat = players.index(name)
                    row = row_items(rng, d.seats[seat], tiles, W, H, s, layout_now)
                    mx = sum(it.x for it in row) / len(row)
                    my = sum(it.y for it in row) / len(row)
                    d.reach(seat, (mx, my), on_arrive=lambda row=row: d.rows.extend(row))
                    d.hold(rng.uniform(0.3, 0.6))
                log(ev, d.t)
                d.settle()
                d.hold(0.5)
    return Plan(spec, lines, d.frames, d.states, d.people, s, d.busy, d.marks)


# -- the pictures --------------------------------------------------------------------------------------------


class Renderer:
    def __init__(self, plan: Plan) -> None:
        spec = plan.spec
        rng = random.Random(f"secondsynth-look:{spec.seed}")
        W, H = spec.size
        self.plan = plan
        self.W, self.H = W, H
        s = 1.3 * W / 1280.0
        self.table = table_texture(rng, W, H, s)
        self.light = light_map(rng, W, H)
        ts = tile_set(rng)
        self.sprites = Sprites(ts, self._scale(plan), rng.getrandbits(32))
        sa = rng.uniform(0, 2 * math.pi)
        shadow_dir = (math.cos(sa), math.sin(sa))
        nadir = (W / 2 + rng.uniform(-0.08, 0.08) * W, H / 2 + rng.uniform(-0.08, 0.08) * H)
        self.painter = StillPainter(self.table, self.light, self.sprites, nadir, self._scale(plan), shadow_dir)
        off = rng.uniform(28, 48) * W / 1280.0
        arm_shadow = (shadow_dir[0] * off, shadow_dir[1] * off) if "shadow" in spec.conditions else None
        self.arms = ArmPainter(plan.people, self._scale(plan), self.light, arm_shadow, rng.getrandbits(32))
        self.camera = Camera(rng, (W, H), spec.conditions, plan.duration, plan.busy)
        self._stills: dict[int, np.ndarray] = {}

    @staticmethod
    def _scale(plan: Plan) -> float:
        return plan.scale

    def still(self, state: int) -> np.ndarray:
        if state not in self._stills:
            if len(self._stills) > 3:
                self._stills.pop(next(iter(self._stills)))
            self._stills[state] = self.painter.paint(list(self.plan.states[state]))
        return self._stills[state]

    def frame(self, i: int) -> np.ndarray:
        """Frame ``i`` (BGR), drawn on its own."""
        self._last = (None, None)
        return self._frame(i)

    def _frame(self, i: int) -> np.ndarray:
        state, arms = self.plan.frames[i]
        t = i / self.plan.spec.fps
        leans = self.camera.leans_at(t)
        pose = self.camera.pose(t)
        focus = self.camera.focus_at(t)
        key = (state, arms, pose) if not leans and focus is None and not arms else None
        last_key, clean = self._last
        if key is None or key != last_key:
            img = self.still(state)
            if arms or leans:
                img = img.copy()
            for arm in arms:
                if arm.carry is not None:
                    self.painter.paint_loose(img, arm.carry)
                self.arms.paint(img, arm)
            for ln, cx, cy, env in leans:
                apply_lean(img, ln, cx, cy, env)
            clean = self.camera.optics(img, pose, focus[0] if focus else 0.0)
            self._last = (key, clean)
        return cv2.cvtColor(self.camera.sensor(clean, t, i), cv2.COLOR_RGB2BGR)

    def frames(self):
        self._last = (None, None)
        for i in range(len(self.plan.frames)):
            yield self._frame(i)


def make_video(spec: SecondSpec, out_video: Path, out_log: Path) -> None:
    plan = plan_video(spec)
    render = Renderer(plan)
    out_video, out_log = Path(out_video), Path(out_log)
    out_video.parent.mkdir(parents=True, exist_ok=True)
    out_log.parent.mkdir(parents=True, exist_ok=True)
    writer = cv2.VideoWriter(str(out_video), cv2.VideoWriter_fourcc(*"mp4v"), spec.fps, spec.size)
    if not writer.isOpened():
        raise RuntimeError(f"cannot write {out_video}")
    try:
        for frame in render.frames():
            writer.write(frame)
    finally:
        writer.release()
    out_log.write_text("\n".join(plan.log_lines) + "\n", encoding="utf-8")
