"""Small geometry on tile quadrilaterals: oriented boxes, rectification to an upright tile, polygon IoU."""

from __future__ import annotations

import math

import cv2
import numpy as np

HALF = 32  # px of one rectified half (square); a rectified tile is HALF x 2*HALF


def obb_corners(cx: float, cy: float, w: float, h: float, angle: float) -> np.ndarray:
    """The four corners of an oriented box (angle in radians), going round."""
    c, s = math.cos(angle), math.sin(angle)
    dx = np.array([c, s]) * w / 2
    dy = np.array([-s, c]) * h / 2
    center = np.array([cx, cy])
    return np.array([center + dx + dy, center + dx - dy, center - dx - dy, center - dx + dy], np.float64)


def obb_corners_many(cx: np.ndarray, cy: np.ndarray, w: np.ndarray, h: np.ndarray, angle: np.ndarray) -> np.ndarray:
    """:func:`obb_corners` of many boxes at once: [N, 4, 2]."""
    angle = np.asarray(angle, np.float64)
    c, s = np.cos(angle), np.sin(angle)
    dx = np.stack([c, s], -1) * np.asarray(w)[:, None] / 2
    dy = np.stack([-s, c], -1) * np.asarray(h)[:, None] / 2
    center = np.stack([cx, cy], -1).astype(np.float64)
    return np.stack([center + dx + dy, center + dx - dy, center - dx - dy, center - dx + dy], 1)


def long_side(corners) -> float:
    """The longest edge of a box's four corners (a tile's length in the picture).  In plain floats: it is
    asked of every box several times a frame, and numpy's overhead on four points is most of the cost."""
    return math.sqrt(max(_squared_edges(corners)))


def short_side(corners) -> float:
    """The shortest edge of a box's four corners (a tile's width in the picture)."""
    return math.sqrt(min(_squared_edges(corners)))


def _squared_edges(corners) -> tuple[float, float, float, float]:
    if isinstance(corners, np.ndarray) or len(corners) != 4:
        points = np.asarray(corners, np.float64).reshape(4, 2).tolist()
    else:
        points = [(float(x), float(y)) for x, y in corners]
    (ax, ay), (bx, by), (cx, cy), (dx, dy) = points
    edges = ((bx - ax, by - ay), (cx - bx, cy - by), (dx - cx, dy - cy), (ax - dx, ay - dy))
    a, b, c, d = (x * x + y * y for x, y in edges)
    return a, b, c, d


def circles_meeting(centres: np.ndarray, radii: np.ndarray) -> np.ndarray:
    """Which of the circles (centres [N, 2], radii [N]) meet, all pairs at once: [N, N] (squared distances, no
    square roots -- a frame's few hundred candidate boxes make tens of thousands of pairs)."""
    dx = centres[:, None, 0] - centres[None, :, 0]
    dy = centres[:, None, 1] - centres[None, :, 1]
    reach = radii[:, None] + radii[None]
    return dx * dx + dy * dy <= reach * reach


def long_first(corners: np.ndarray) -> np.ndarray:
    """Roll the corners so that the first edge (c0 -> c1) is a long side of the tile."""
    corners = np.asarray(corners, np.float64).reshape(4, 2)
    (ax, ay), (bx, by), (cx, cy) = corners[:3].tolist()  # (plain floats: asked of every box, several times a frame)
    return corners if (bx - ax) ** 2 + (by - ay) ** 2 >= (cx - bx) ** 2 + (cy - by) ** 2 else corners[[1, 2, 3, 0]]


def rectify(image: np.ndarray, corners: np.ndarray, half: int = HALF) -> tuple[np.ndarray, np.ndarray]:
    """The tile upright: ``half`` x ``2*half`` px, long axis horizontal; and the image->crop homography.

    The first half (columns ``0..half``) is the end at corners c0/c3 of :func:`long_first`.
    """
    quad = long_first(corners)
    (ax, ay), (bx, by) = quad[:2].tolist()
    long_px = math.hypot(bx - ax, by - ay)
    # Warp at about the tile's own resolution, then shrink with area averaging (no aliasing).
    work = max(half, int(round(long_px / 2)))
    dst = np.array([[0, 0], [2 * work, 0], [2 * work, work], [0, work]], np.float32)
    H = cv2.getPerspectiveTransform(quad.astype(np.float32), dst)
    crop = cv2.warpPerspective(image, H, (2 * work, work), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    if work != half:
        crop = cv2.resize(crop, (2 * half, half), interpolation=cv2.INTER_AREA)
        scale = np.diag([half / work, half / work, 1.0])
        H = scale @ H
    return crop, H


def half_centers(corners: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Image points at the middle of each half, in the order :func:`rectify` uses."""
    quad = long_first(corners)
    first = (quad[0] + quad[3]) * 0.75 / 2 + (quad[1] + quad[2]) * 0.25 / 2
    second = (quad[0] + quad[3]) * 0.25 / 2 + (quad[1] + quad[2]) * 0.75 / 2
    return first, second


def polygon_iou(a: np.ndarray, b: np.ndarray) -> float:
    """Intersection over union of two convex quadrilaterals."""
    a32 = np.asarray(a, np.float32).reshape(-1, 2)
    b32 = np.asarray(b, np.float32).reshape(-1, 2)
    area_a = abs(cv2.contourArea(a32))
    area_b = abs(cv2.contourArea(b32))
    if area_a <= 0 or area_b <= 0:
        return 0.0
    inter, _ = cv2.intersectConvexConvex(a32, b32)
    inter = max(0.0, float(inter))
    return inter / (area_a + area_b - inter)
