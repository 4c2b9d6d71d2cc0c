"""From one image's detections to a board the players can trust, or the questions to ask them.

:func:`~scorer.layout.reconstruct.reconstruct` rebuilds the graph from tiles taken as read; here the
reader's doubts are weighed: tiles read unsurely are read again where that alone makes the table fit
together (:func:`~scorer.layout.reread.read_again`, shared with :mod:`scorer.layout.moves`), boxes
that overlap as no two tiles can are thinned, a back lying exactly as the double blank would is taken
as one, and what is left unsure -- a tile no join confirms, an open end that may go on unseen, joined tiles cut off from
the layout -- becomes a problem for the players (:class:`BoardReading`).
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field, replace
from typing import Callable, Iterable, Sequence, cast

import numpy as np

from scorer.layout.engine_board import branching_doubles, to_board
from scorer.layout.joins import Layout, SeenTile, _geom, _where, find_joins
from scorer.layout.open_ends import open_end_problems
from scorer.layout.reconstruct import CROSSWISE, _joined_groups, reconstruct
from scorer.layout.reread import read_again, readings_the_joins_imply
from scorer.rules import Board, Side, Tile
from scorer.vision.darkness import too_dark, too_dark_words
from scorer.vision.grain import too_grainy, too_grainy_words
from scorer.vision.plain_backs import backs_maybe_faces
from scorer.vision.tile_detection import CERTAIN, TileDetection, too_small_to_read
from scorer.vision.geometry import long_side, polygon_iou
from scorer.vision.meetings import off_square
from scorer.words import Figure, Listed, Words, at


def seen_from_detections(detections: Iterable[TileDetection], to_table: Callable[[np.ndarray], np.ndarray] | None = None,
                         min_confidence: float = 0.0) -> list[SeenTile]:
    """Face-up detections as :class:`SeenTile`, optionally mapped to table millimetres by ``to_table``
    (a calibration profile's, which undoes the lens and the perspective)."""
    out: list[SeenTile] = []
    for d in _read_faces(detections):
        corners = np.asarray(d.corners, np.float64)
        if to_table is not None:
            corners = np.asarray(to_table(corners), np.float64).reshape(4, 2)
        assert d.halves is not None and d.pips is not None  # (face up, read: _read_faces)
        first, second = (tuple(v for v, _ in h.alternatives) for h in d.halves)
        out.append(SeenTile(tuple((float(x), float(y)) for x, y in corners), d.pips, d.read_confidence, (first, second)))
    return out


@dataclass(frozen=True)
class BoardReading:
    """One image's board, with everything the players should check before trusting it."""

    layout: Layout
    board: Board
    problems: list[str]  # an inconsistent table, an illegal structure, tiles read unsurely
    notes: list[str]  # what was settled by the rules (a half read again at a join, a loose duplicate)
    # Where, in the image, a tile may lie unseen at an open end of the layout or between loose tiles (the
    # centre of the spot it would take, covered or outside the picture): each is among the problems too.
    unseen_ends: list[tuple[float, float]] = field(default_factory=list)
    # The face-up detections the layout's tiles were read from, in the layout's order.
    faces: list[TileDetection] = field(default_factory=list)

    @property
    def sure(self) -> bool:
        return not self.problems


def read_board(detections: Sequence[TileDetection], every_double_spins: bool,
               to_table: Callable[[np.ndarray], np.ndarray] | None = None,
               image: np.ndarray | None = None) -> BoardReading:
    """The board that one image's detections show.  A face-up tile read unsurely is a problem too:
    from a single image nothing else can confirm it, so the players are asked -- unless each half read
    unsurely is joined to one read surely (joined halves match: the rules settle it).  With the ``image``
    itself, so is an open end of the layout that may go on unseen: at the image's edge, or where the
    spot the next tile would take does not look like the table around it (an arm or a hand over it,
    or a tile there the detector missed).  A box taken for a back that lies in the layout exactly as
    the double blank would is taken as [0|0], and asked about (:func:`_back_as_blank_double`)."""
    notes: list[str] = []
    backs = [d for d in detections if d.face == "down"]
    maybe_faces = [detections[k] for k in backs_maybe_faces(image, detections)] if image is not None else []
    settled = _without_overlaps(detections, every_double_spins, to_table)
    if settled is not None:
        kept, left_out = settled
        detections = [*kept, *backs]  # (only faces were thinned: the backs are still seen)
        notes += [Words("the box at {place} read as {read} is left out: it overlaps another, and only without it does the "
                        "layout fit together", place=at(d.center), read=str(Tile.of(*_pips(d))))
                  for d in left_out]
    layout = reconstruct(seen_from_detections(detections, to_table))
    board, problems = to_board(layout, every_double_spins)
    blank = _back_as_blank_double(detections, backs, layout, len(problems), every_double_spins, to_table)
    if blank is not None:
        detections, back = blank
        maybe_faces = [d for d in maybe_faces if d is not back]  # (told as the double blank instead)
        layout = reconstruct(seen_from_detections(detections, to_table))
        board, problems = to_board(layout, every_double_spins)
    up = _read_faces(detections)  # the layout's tiles, in order
    if problems or layout.problems or _joined_beside(layout):
        layout, board, problems, reread = _read_again_to_fit(layout.tiles, up, every_double_spins)
        for i, pips in reread.items():
            notes.append(Words("the tile at {place} read as {read} is taken as {taken}: so the layout fits together",
                               place=at(up[i].center), read=str(Tile.of(*_pips(up[i]))), taken=str(Tile.of(*pips))))
    # (What in the picture keeps it from being read comes first: the questions after it follow from it.)
    read_any = len(backs) > len(maybe_faces) or any(d.certain or _confirmed_by_joins(layout, up, i) for i, d in enumerate(up))
    problems = picture_problems(image, read_any) + layout.problems + problems
    if maybe_faces and read_any:
        problems.append(Words("no face in the picture is read surely, and the tiles taken for backs at {places} look like the "
                              "faces: any of them may be a face whose pips do not show -- please check them",
                              places=Listed([at(d.center) for d in maybe_faces])))
    if blank is not None:
        problems.append(Words("the tile at {place} looks face down, yet lies in the layout as the double blank would: "
                              "taken as [0|0] -- please check it", place=at(back.center)))
    ends, spots = open_end_problems(layout, board, up, detections, image)
    problems += ends
    problems += [unsure_problem(d) for i, d in enumerate(up) if not d.certain and not _confirmed_by_joins(layout, up, i)]
    problems += _beside_problems(layout)
    small = too_small_to_read(detections)
    return BoardReading(layout, board, problems, notes + list(layout.notes) + ([small] if small else []), spots, up)


def spinner_untold(board: Board, layout: Layout) -> str | None:
    """Where only the round's first double spins (Seven Rocks) and no double in the layout has a branch yet (even one
    the rules refused), which of the board's doubles came first, the spinner, is not in the picture: a note naming the
    one taken, else None."""
    doubles = [t for t in board.tiles if t.is_double]
    if board.every_double_spins or len(doubles) < 2 or not board.spinners or branching_doubles(layout):
        return None
    return Words("which double spins (the round's first) cannot be told from the picture: {tiles} -- taken as {spinner}",
                 tiles=Listed([str(t) for t in doubles], ", "), spinner=board.spinners[0])


def picture_problems(image: np.ndarray | None, read_any: bool) -> list[str]:
    """What in the picture itself keeps its tiles from being read reliably: too grainy (a dim room, the
    camera brightening it back); or, where no tile in it was read (``read_any``: a back, a face read
    surely or settled by its joins), too dark (a camera that does not brighten it), or for a reason the
    picture does not tell (blurred, too far) -- a picture of tiles the models could not read is not
    taken for an empty table without a word."""
    if image is None:
        return []
    if too_grainy(image):
        return [too_grainy_words()]
    if read_any:
        return []
    return [too_dark_words() if too_dark(image) else NOTHING_READ]


NOTHING_READ = Words("no tile could be read surely in the picture: if tiles lie there, a sharper, closer or better lit "
                     "picture, please")


def _read_again_to_fit(tiles: Sequence[SeenTile], up: Sequence[TileDetection], every_double_spins: bool
                       ) -> tuple[Layout, Board, list[str], dict[int, tuple[int, int]]]:
    """Where the layout does not fit together (an illegal structure, a tile twice, pips that differ at a
    join), tiles read unsurely read again to make it fit (:func:`read_again`); they stay unsure, so the
    players are still asked -- about the likeliest layout."""

    def fit(trial: list[SeenTile], current: object) -> tuple[int, tuple[Layout, Board, list[str]]]:
        trial_layout = reconstruct(trial)
        trial_board, trial_problems = to_board(trial_layout, every_double_spins)
        badness = len(trial_layout.problems) + len(trial_problems) + len(_joined_beside(trial_layout))
        return badness, (trial_layout, trial_board, trial_problems)

    _, (layout, board, problems), reread = read_again(tiles, [not d.certain for d in up], fit, readings_the_joins_imply,
                                                      tiles_of=lambda result: result[0].tiles)
    return layout, board, problems, reread


def unsure_problem(d: TileDetection) -> str:
    """A face-up tile read unsurely, in words (one with no count read on either half: no reading to name)."""
    if d.unread:
        return Words("the pips of the tile at {place} cannot be read (they do not show): please check it", place=at(d.center))
    return Words("the tile at {place} is read uncertainly as {read} ({confidence}): please check it",
                 place=at(d.center), read=str(Tile.of(*_pips(d))), confidence=Figure(d.read_confidence, 2))


def _beside_problems(layout: Layout) -> list[str]:
    return [Words("tiles joined to one another lie beside the layout but are not joined to it ({tiles}): a tile between them "
                  "may be unseen or misread", tiles=Listed([_where(layout.tiles[i]) for i in group]))
            for group in _joined_beside(layout)]


def _confirmed_by_joins(layout: Layout, up: Sequence[TileDetection], i: int) -> bool:
    """Whether each half of tile ``i`` read unsurely is joined to a half read surely: joined halves show
    the same pips, so the rules settle it.  A double is settled by a tile joined to one of its long
    sides, read surely there: only a double takes a tile at the middle of its long side (laid crosswise
    in a line), and its pips are those of the half that meets it.  Not for a tile read again at a join."""
    seen, d = layout.tiles[i], up[i]
    if seen.pips != d.pips:
        return False
    if seen.tile.is_double:
        g = _geom(seen)
        return any(_partner_sure(layout, up, o, side) for o, side in _partners(layout, i, ("long+", "long-"))
                   if abs(float((_geom(layout.tiles[o]).center - g.center) @ g.axis)) < CROSSWISE * g.width)
    for k, phys in enumerate(("half0", "half1")):
        if d.half_certain(k):
            continue
        if not any(_partner_sure(layout, up, o, side) for o, side in _partners(layout, i, (phys,))):
            return False
    return True


def _partners(layout: Layout, i: int, sides: Sequence[str]) -> list[tuple[int, str]]:
    """The tiles joined to tile ``i`` at any of ``sides``, each with its own side of the join."""
    return [(j.b, j.side_b) if j.a == i else (j.a, j.side_a) for j in layout.joins
            if (j.a == i and j.side_a in sides) or (j.b == i and j.side_b in sides)]


def _partner_sure(layout: Layout, up: Sequence[TileDetection], o: int, side: str) -> bool:
    """Whether tile ``o`` is read surely at its ``side`` of a join (and not read again there)."""
    other = up[o]
    if layout.tiles[o].pips != other.pips:
        return False
    # A reading at CERTAIN confirms the half it meets, even a blank on a small tile (which alone needs
    # SURE_BLANK): two readings agreeing at a join.
    if side in ("half0", "half1"):
        assert other.halves is not None  # (face up, read)
        return other.halves[("half0", "half1").index(side)].confidence >= CERTAIN
    return other.read_confidence >= CERTAIN


# A box taken for a back is tried as the double blank where its centre lies this close (in its lengths)
# to that of a face-up tile showing a blank half: as close as a tile joined to it can lie (a tile joined
# to a double's short end lies one length away), and a little more (docs/experiments.md, "BLANK_BESIDE").
BLANK_BESIDE = 1.15
# ... and taken for it only where it lies as a double laid there would, within this many tile widths:
# the double blanks taken for backs in `shaded-layouts` lay within 0.18, the backs near a blank end in
# `test` and `cross` that fitted the looser tolerance of a join 0.36 and 0.51 off.
BLANK_FIT = 0.25
BLANK_SQUARE = 10.0  # degrees off square to the tiles it joins (those: within 3.2; the backs: 25 and 42)


def _back_as_blank_double(detections: Sequence[TileDetection], backs: Sequence[TileDetection], base: Layout, base_board_problems: int,
                          every_double_spins: bool, to_table: Callable[[np.ndarray], np.ndarray] | None
                          ) -> tuple[list[TileDetection], TileDetection] | None:
    """Where one box taken for a back joins the layout as the double blank would (a blank face whose
    divider hardly shows looks like a back), keeping all of it, and the table fits together no worse
    with it: the detections with it as [0|0] face up, and that box.  None where no box, or more than
    one, does so, or where the double blank is seen face up already (a set holds one).  ``base`` is
    the layout without it, whose board has ``base_board_problems`` problems."""
    up = _read_faces(detections)
    if not backs or any(d.pips == (0, 0) and d.certain for d in up):
        return None
    centres = np.array([d.center for d in up if 0 in _pips(d)]).reshape(-1, 2)
    near = []
    for d in backs:
        corners = np.asarray(d.corners, np.float64)
        if not len(centres) or np.linalg.norm(centres - corners.mean(0), axis=1).min() > BLANK_BESIDE * long_side(corners):
            continue
        if any(polygon_iou(corners, np.asarray(o.corners, np.float64)) >= OVERLAP for o in up):
            continue  # a face-up box on the same tile: read there
        near.append(d)
    if not near:
        return None
    base_problems = len(base.problems) + base_board_problems + len(_joined_beside(base))
    found = []
    for d in near:
        trial = [*up, d.as_blank_double()]
        layout = reconstruct(seen_from_detections(trial, to_table))
        blank = len(trial) - 1
        joins = {(j.b if j.a == blank else j.a): j.error for j in layout.joins if blank in (j.a, j.b)}
        # It must join the layout already seen (not a hand's tiles lying beside it) and keep all of it.
        if blank not in layout.component or not set(base.component) <= set(layout.component):
            continue
        if base.component and not set(joins) & set(base.component):
            continue
        axis = _geom(layout.tiles[blank]).axis
        if any(error > BLANK_FIT or off_square(axis, _geom(layout.tiles[k]).axis) > BLANK_SQUARE for k, error in joins.items()):
            continue  # a back lying near a blank end, not laid there
        problems = len(layout.problems) + len(to_board(layout, every_double_spins)[1]) + len(_joined_beside(layout))
        if problems <= base_problems:
            found.append(([o for o in detections if o is not d] + [trial[-1]], d))
    return found[0] if len(found) == 1 else None


def _pips(d: TileDetection) -> tuple[int, int]:
    """A face-up detection's pips (those :func:`_read_faces` keeps all have them)."""
    return cast(tuple[int, int], d.pips)


def _read_faces(detections: Iterable[TileDetection]) -> list[TileDetection]:
    """The face-up detections with a reading (those :func:`seen_from_detections` takes), in order."""
    return [d for d in detections if d.face == "up" and d.pips is not None]


# Two face-up boxes overlapping this much (IoU) cannot both be tiles: tiles lie flat, side by side.
OVERLAP = 0.2


def overlapping_pairs(detections: Sequence[TileDetection], limit: int = 3) -> list[tuple[int, int]]:
    """Pairs of boxes that overlap like no two tiles can (at most ``limit`` pairs are looked at)."""
    boxes = [np.asarray(d.corners) for d in detections]
    pairs = [(i, j) for i, j in itertools.combinations(range(len(boxes)), 2) if polygon_iou(boxes[i], boxes[j]) >= OVERLAP]
    return pairs[:limit]


def without_overlaps(detections: Sequence[TileDetection], pairs: Sequence[tuple[int, ...]]
                     ) -> Iterable[tuple[list[TileDetection], list[TileDetection]]]:
    """Each way of leaving out one box of every pair (or group of candidates) in ``pairs`` after which
    no two boxes overlap: (the boxes kept, in order; those left out)."""
    for choice in itertools.product(*pairs):
        gone = set(choice)
        trial = [d for k, d in enumerate(detections) if k not in gone]
        if not overlapping_pairs(trial, 1):
            yield trial, [detections[k] for k in sorted(gone)]


def _without_overlaps(detections: Sequence[TileDetection], every_double_spins: bool, to_table: Callable[[np.ndarray], np.ndarray] | None
                      ) -> tuple[list[TileDetection], list[TileDetection]] | None:
    """Where face-up boxes overlap (one of them on no tile, or a second box on part of one), the one
    way of leaving a box of each pair out that makes the layout fit together without a problem; None
    where there is no overlap, or no such way, or more than one (then the problems are reported)."""
    up = _read_faces(detections)  # (all that the layout is rebuilt from)
    pairs = overlapping_pairs(up)
    if not pairs:
        return None
    outcomes: dict[tuple[frozenset[Tile], frozenset[tuple[Tile, Tile, Side]]], tuple[int, list[TileDetection], list[TileDetection]]] = {}
    for trial, left_out in without_overlaps(up, pairs):
        layout = reconstruct(seen_from_detections(trial, to_table))
        if layout.problems or _joined_beside(layout):
            continue
        board, problems = to_board(layout, every_double_spins)
        if problems:
            continue
        key = (frozenset(board.tiles), frozenset((j.tile, j.new_tile, j.side) for j in board.joins))
        outcomes.setdefault(key, (len(layout.loose()), trial, left_out))
    # (A box left out of the layout's place that leaves another tile lying loose is the worse choice.)
    fewest = min((loose for loose, _, _ in outcomes.values()), default=0)
    best = [(trial, left_out) for loose, trial, left_out in outcomes.values() if loose == fewest]
    return best[0] if len(best) == 1 else None


# A group of loose tiles this close to the layout (centre to centre, in tile lengths) may be part of it
# with a tile between them unseen: one tile's gap puts the centres two lengths apart.
GROUP_BESIDE = 2.5


def _joined_beside(layout: Layout) -> list[list[int]]:
    """Groups of two or more loose tiles joined to one another and lying near the layout.  From one
    image a layout has one piece: such a group is most likely its own part, cut off where a tile was
    missed or misread (a hand laid out for the count rarely lies joined beside the layout)."""
    loose = layout.loose()
    if len(loose) < 2 or not layout.component:
        return []
    # (Joins looked for among all the tiles: a tile's width is their median, not that of the loose ones alone.)
    index = {i: k for k, i in enumerate(loose)}
    joins = [replace(j, a=index[j.a], b=index[j.b]) for j in find_joins(layout.tiles)[0] if j.a in index and j.b in index]
    geoms = {i: _geom(t) for i, t in enumerate(layout.tiles)}
    length = float(np.median([g.length for g in geoms.values()]))
    out = []
    for group in _joined_groups(len(loose), joins):
        if len(group) < 2:
            continue
        members = [loose[k] for k in group]
        gap = min(float(np.linalg.norm(geoms[i].center - geoms[k].center)) for i in members for k in layout.component)
        if gap <= GROUP_BESIDE * length:
            out.append(sorted(members))
    return out
