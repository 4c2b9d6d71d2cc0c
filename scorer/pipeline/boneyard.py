"""The boneyard followed tile by tile: a draw is a face-down tile gone from where it lay.

Counting face-down detections frame by frame is not enough: a tile the detector misses
in one state and finds in the next would look like a draw and then like a tile put
back.  Instead every face-down tile seen this round keeps its place (a *slot*), and a
slot is emptied only when the tile is neither detected there now **and** the picture
at that place changed since the last state (a hand took it).  A tile the detector
misses on an unchanged table is still there; so is a faint one (a white back on a pale,
overexposed table) that fades from sight while every back seen loses contrast.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Sequence

import numpy as np

from scorer.pipeline.places import FAINT, NOISE, change_at, changed, contrast_kept, exposure, shift_picture, shifted
from scorer.vision.geometry import long_side, polygon_iou

# A face-down tile is plain: its place is compared with a margin, so that its edges count.
MARGIN = 1.3
# The backs seen in both pictures kept less than this share of their contrast: the picture is washing
# out (the camera brightening into saturation), and a faint back gone from sight may still lie there.
WASHING_OUT = 0.95


@dataclass
class Boneyard:
    slots: list[np.ndarray] = field(default_factory=list)  # corners (4, 2) of each face-down tile on the table
    taken: list[np.ndarray] = field(default_factory=list)  # the slots emptied by the last update (drawn from)
    _grey: np.ndarray | None = field(default=None, repr=False)  # the picture the slots were last checked in
    _colour: np.ndarray | None = field(default=None, repr=False)  # the same in colour (table_colour), if given

    def __len__(self) -> int:
        return len(self.slots)

    @property
    def seen(self) -> bool:
        """Whether a still table was looked at yet (else the next update only takes the boneyard as it lies)."""
        return self._grey is not None

    def reset(self, tiles: Sequence[np.ndarray], grey: np.ndarray, colour: np.ndarray | None = None) -> None:
        """A new round: the boneyard as dealt (its heap, or heaps: a back lying alone, away from
        them all, is something else -- a glare spot on a glossy table, a reflection)."""
        self.slots = _heaps(one_per_place([np.asarray(c, np.float64) for c in tiles]))
        self.taken = []
        self._grey, self._colour = grey, colour

    def follow(self, shift: tuple[float, float]) -> None:
        """The camera moved by ``shift`` pixels: the slots and the picture they were checked in move with it."""
        self.slots = [slot + np.asarray(shift) for slot in self.slots]
        self._grey = None if self._grey is None else shift_picture(self._grey, shift)
        self._colour = None if self._colour is None else shift_picture(self._colour, shift)

    def update(self, tiles: Sequence[np.ndarray], grey: np.ndarray, colour: np.ndarray | None = None,
               played: Sequence[np.ndarray] = ()) -> int:
        """The face-down tiles seen in a new still state (``grey`` from ``table_grey``, ``colour`` from
        ``table_colour``); returns how many were drawn since the last one.  ``played``: the layout's
        tiles now -- a slot over them was never a back."""
        if self._grey is None or self._grey.shape != grey.shape:
            self.reset(tiles, grey, colour)
            return 0
        before = self._grey
        # The shade inside each place is compared in colour where both pictures have it.
        shade_before, shade_now = (self._colour, colour) if self._colour is not None and colour is not None else (before, grey)
        tiles = [np.asarray(c, np.float64) for c in tiles]
        kept, removed = [], []
        unmatched = list(range(len(tiles)))
        ratio = exposure(shade_before, shade_now)
        unseen = []
        for slot in self.slots:
            match = next((k for k in unmatched if same_place(tiles[k], slot)), None)
            if match is not None:
                unmatched.remove(match)
                kept.append(tiles[match])  # the tile where it is seen now (it may have been nudged)
            elif not any(polygon_iou(p, slot) > 0.2 for p in played):
                unseen.append(slot)
            # (else on the layout's tiles now: a tile there read as loose, or a box straddling two of
            # them taken for a back -- never a back, and gone is no draw.)
        washing_out = self._washing_out(before, grey, kept)
        for slot in unseen:
            beside = [s for s in self.slots if s is not slot]
            # Its place as boxed (where a neighbour's side or shadow just outside that neighbour's box
            # cannot outweigh it), and grown (where its own sides and shadow show, which on a pale table
            # may be all that shows of it).
            change = max(change_at(before, grey, slot, 1.0, beside), change_at(before, grey, slot, MARGIN, beside))
            if change > FAINT or (change > NOISE and not washing_out) or shifted(shade_before, shade_now, slot, ratio):
                removed.append(slot)  # not seen, and its place looks different: taken
            else:
                kept.append(slot)  # not seen, but nothing changed there: the detector missed it
        # A back seen where none lay before is one nudged from its slot or one missed until now, and
        # lies by the others: the boneyard is one heap, and backs are never added to it.  One alone
        # elsewhere on the table is something else (a glare spot on a glossy table, a reflection).
        unmatched = [k for k in unmatched if _beside_any(tiles[k], self.slots)]
        # A tile seen where nothing was before, on a changed spot, is one nudged from its slot.
        moved = sum(1 for k in unmatched if changed(before, grey, tiles[k], MARGIN))
        self.slots = kept + [tiles[k] for k in unmatched]
        self._grey, self._colour = grey, colour
        drawn = max(0, _distinct(removed) - moved)
        self.taken = removed if drawn else []
        return drawn

    @staticmethod
    def _washing_out(before: np.ndarray, now: np.ndarray, seen: list[np.ndarray]) -> bool:
        """Whether the backs seen in both pictures lost contrast (the median of those that had any)."""
        shares = [k for c in seen if (k := contrast_kept(before, now, c, MARGIN)) is not None]
        return bool(shares) and float(np.median(shares)) < WASHING_OUT


# A back this many tile lengths (centre to centre) from every other is not of the boneyard's heap.
HEAP_REACH = 3.0


def _beside_any(box: np.ndarray, slots: Sequence[np.ndarray]) -> bool:
    length = long_side(box)
    return any(float(np.linalg.norm(box.mean(0) - s.mean(0))) < HEAP_REACH * length for s in slots)


def _heaps(backs: list[np.ndarray]) -> list[np.ndarray]:
    """The backs that lie near another (within HEAP_REACH): all of them where none does."""
    together = [b for k, b in enumerate(backs) if _beside_any(b, backs[:k] + backs[k + 1 :])]
    return together or backs


def one_per_place(boxes: Sequence[np.ndarray]) -> list[np.ndarray]:
    """The boxes with only the first of those on one tile kept."""
    out: list[np.ndarray] = []
    for c in boxes:
        if not any(same_place(c, o) for o in out):
            out.append(c)
    return out


def _shortest_side(a: np.ndarray, b: np.ndarray) -> float:
    return min(_short_side(a), _short_side(b))


def same_place(a: np.ndarray, b: np.ndarray) -> bool:
    """Two boxes on one tile: centres closer than half the shorter side."""
    a, b = np.asarray(a, np.float64), np.asarray(b, np.float64)
    short = _shortest_side(a, b)
    return float(np.linalg.norm(a.mean(0) - b.mean(0))) < 0.5 * short


def _distinct(boxes: list[np.ndarray]) -> int:
    """How many tiles the boxes cover: a box that straddled two touching tiles overlaps the box of
    one of them and is not a tile of its own."""
    groups: list[list[np.ndarray]] = []
    for b in boxes:
        joined = [g for g in groups if any(_on_one_tile(b, o) for o in g)]
        merged = [b] + [o for g in joined for o in g]
        groups = [g for g in groups if not any(g is j for j in joined)] + [merged]
    return len(groups)


def _on_one_tile(a: np.ndarray, b: np.ndarray) -> bool:
    """Two boxes that cannot be two tiles: overlapping, or centres closer than tiles lying side by
    side can be (a box straddling two backs is half a tile's width off each).  The tiles' width is
    the two boxes' mean: a straddling box is often squeezed narrower than a tile."""
    width = (_short_side(a) + _short_side(b)) / 2
    return polygon_iou(a, b) > 0.2 or float(np.linalg.norm(a.mean(0) - b.mean(0))) < 0.8 * width


def _short_side(box: np.ndarray) -> float:
    return float(min(np.linalg.norm(box[1] - box[0]), np.linalg.norm(box[2] - box[1])))
