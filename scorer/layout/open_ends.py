"""Where a layout read from one picture may go on unseen: an open end at the picture's edge, or one whose
spot -- where a next tile would lie -- does not look like the bare table (an arm over it, or a tile there
the detector missed); and a loose tile's end facing another tile across such a spot (a tile of a line
missed between two others leaves them loose, and nothing else is left to tell it).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Sequence, cast

import numpy as np

from scorer.layout.engine_board import _phys_value_side
from scorer.layout.joins import Layout, Phys, SeenTile, _geom, _ports, _where
from scorer.rules import Board, Side, Tile
from scorer.vision.meetings import TileAxes
from scorer.vision.surface import look_at_spots
from scorer.vision.tile_detection import TileDetection
from scorer.words import Listed, Words, at


def open_end_problems(layout: Layout, board: Board, up: Sequence[TileDetection], detections: Sequence[TileDetection],
                       image: np.ndarray | None) -> tuple[list[str], list[tuple[float, float]]]:
    """With the image: the open ends of the layout that may go on unseen (at the picture's edge, or
    where the spot the next tile would take is not bare table), and the ends of loose tiles that face
    another across such a spot, in words and as the spots' centres."""
    if image is None:
        return [], []
    unseen = _open_ends_not_bare(layout, board, [np.asarray(d.corners, np.float64) for d in up],
                                 [np.asarray(d.corners, np.float64) for d in detections], image)
    problems: list[str] = []
    at_edge = sorted({i for i, _, outside, _ in unseen if outside})
    if at_edge:
        problems.append(Words("the layout reaches the edge of the picture ({tiles}): it may go on beyond it, unseen -- frame "
                              "the whole layout", tiles=Listed([_where(layout.tiles[i]) for i in at_edge])))
    for i, (x, y), outside, _ in unseen:
        if not outside:
            problems.append(Words("the open end of {tile} at {place} is not bare table (something covers it): a tile may lie "
                                  "there unseen -- please check it", tile=layout.tiles[i].tile, place=at((x, y))))
    return problems, [spot for *_, spot in unseen]


# An open end of the layout where less than this share of the spot a next tile would take looks like the
# table around it may hide one: far fewer partly hidden layouts go wrong without a word than with a
# check of tiles at the image's edge alone (docs/experiments.md, "BARE").
BARE = 0.5
# The spot starts this far (in tile widths) beyond the end, clear of the tile's own edge and shadow.
NEAR = 0.25
# A spot partly out of the picture is judged by its part in it where that is at least this share: any
# tile joined at the end would show there (its near half fills the whole spot).
SEEN_ENOUGH = 0.3


def _open_ends_not_bare(layout: Layout, board: Board, image_corners: Sequence[np.ndarray], boxes: Sequence[np.ndarray],
                        image: np.ndarray) -> list[tuple[int, tuple[float, float], bool, tuple[float, float]]]:
    """The layout's free ends (by the rules), and the ends of loose tiles that face another tile seen a
    tile's length or so away, where the spot the next tile would take -- a tile's width square just beyond
    the end, where its near half lies whether laid straight on or turned a corner -- does not look like
    the bare table around it, or (the layout's) lies mostly out of the picture: a tile may lie there
    unseen.  (A tile of a line missed between two others leaves them loose, and nothing else is left to
    tell it.)  Each as (the tile's index, the end's point in the image, whether the spot reaches out of
    the picture, the spot's centre)."""
    free: dict[Tile, list[Side]] = {}
    for p in board.free_points():
        free.setdefault(p.tile, []).append(p.side)
    joined = {(j.a, j.side_a) for j in layout.joins} | {(j.b, j.side_b) for j in layout.joins}
    loose = layout.loose()
    in_image = {i: replace(layout.tiles[i], corners=tuple(map(tuple, image_corners[i]))) for i in [*layout.component, *loose]}
    geoms = {i: _geom(t) for i, t in in_image.items()}
    spots: list[tuple[int, np.ndarray, np.ndarray]] = []
    for i in layout.component:
        seen, g = layout.tiles[i], geoms[i]
        if seen.tile not in free:
            continue
        for phys, point, direction in _ports(in_image[i], g):
            if (i, phys) not in joined and _is_free(seen, phys, free[seen.tile]):
                spots.append((i, point, _spot(point, direction, g.width)))
    for i in loose:
        g = geoms[i]
        for phys, point, direction in _ports(in_image[i], g):
            if (i, phys) not in joined and _faces_a_tile(point, direction, g, image_corners[i], boxes):
                spots.append((i, point, _spot(point, direction, g.width)))
    if not spots:
        return []
    tile_width = float(np.median([geoms[i].width for i in (layout.component or loose)]))
    looks = look_at_spots(image, boxes, [sq for _, _, sq in spots], reach=2.0 * tile_width)
    unseen = []
    for (i, end, square), look in zip(spots, looks):
        # (A loose tile's end is judged only where its spot lies wholly in the picture.)
        hidden = look.bare < BARE if i in loose else look.in_picture < SEEN_ENOUGH or look.bare < BARE
        if hidden and (i not in loose or look.in_picture >= 1.0):
            centre = cast(tuple[float, float], tuple(map(float, square.mean(0))))
            unseen.append((i, (float(end[0]), float(end[1])), look.in_picture < 1.0, centre))
    return unseen


def _spot(point: np.ndarray, direction: np.ndarray, width: float) -> np.ndarray:
    """The square a next tile's near half would take beyond the end at ``point`` (four corners)."""
    across = np.array([-direction[1], direction[0]]) * width / 2
    near, far = point + direction * width * NEAR, point + direction * width * (NEAR + 1)
    return np.array([near - across, far - across, far + across, near + across])


def _faces_a_tile(point: np.ndarray, direction: np.ndarray, g: TileAxes, own: np.ndarray, boxes: Sequence[np.ndarray]) -> bool:
    """Whether another box seen lies straight beyond the end at ``point``, from a tile's width to a tile's
    length and a half away: the room of one tile laid there, straight on or crosswise."""
    centre = np.asarray(own, np.float64).mean(0)
    probes = point + np.outer(np.arange(g.width, 1.5 * g.length + 1e-9, g.width / 4), direction)
    return any(_inside(np.asarray(b, np.float64), probes).any() for b in boxes
               if np.linalg.norm(np.asarray(b, np.float64).mean(0) - centre) > g.width / 2)


def _inside(quad: np.ndarray, points: np.ndarray) -> np.ndarray:
    """Which of ``points`` [N, 2] lie inside the convex quadrilateral ``quad`` (either way round)."""
    edges = np.roll(quad, -1, axis=0) - quad
    rel = points[:, None, :] - quad[None]
    cross = edges[None, :, 0] * rel[..., 1] - edges[None, :, 1] * rel[..., 0]
    inside: np.ndarray = np.all(cross >= 0, axis=1) | np.all(cross <= 0, axis=1)
    return inside


def _is_free(seen: SeenTile, phys: Phys, sides: Sequence[Side]) -> bool:
    """Whether the engine's free sides of the tile include physical side ``phys`` (an unjoined one)."""
    if not seen.tile.is_double:
        return _phys_value_side(seen.tile, seen, phys) in sides
    return any(s.is_branch == phys.startswith("short") for s in sides)
