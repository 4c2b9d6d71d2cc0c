"""The YOLO oriented-box head: letterboxing in, decoding and rotated NMS out (numpy and OpenCV only).

The raw ONNX export of an ultralytics OBB model gives ``[1, 4 + nc + 1, A]``: per
anchor column the box centre x, y, width, height in input pixels, ``nc`` class
scores (already sigmoided) and the angle in radians.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from scorer.vision.geometry import obb_corners_many, polygon_iou


@dataclass(frozen=True)
class Letterbox:
    scale: float
    pad_x: float
    pad_y: float


def letterbox(image: np.ndarray, size: int, stride: int | None = None) -> tuple[np.ndarray, Letterbox]:
    """Resize keeping the aspect ratio so the long side is ``size``, pad with grey to ``size`` x ``size``
    (or, given a ``stride``, only up to the next multiple of it: a wide frame then needs no band of
    padding above and below); NCHW float32 RGB in 0..1."""
    h, w = image.shape[:2]
    scale = min(size / w, size / h)
    nw, nh = int(round(w * scale)), int(round(h * scale))
    # Halved by area averaging while twice the size or more, then linear: no aliased pips, as with one area
    # average, at a tenth of its time (docs/experiments.md, sessions 30-31).
    src = image
    while src.shape[1] >= 2 * nw and src.shape[0] >= 2 * nh:
        src = cv2.resize(src, (src.shape[1] // 2, src.shape[0] // 2), interpolation=cv2.INTER_AREA)
    resized = cv2.resize(src, (nw, nh), interpolation=cv2.INTER_LINEAR)
    out_w, out_h = (size, size) if stride is None else (-(-nw // stride) * stride, -(-nh // stride) * stride)
    pad_x, pad_y = (out_w - nw) / 2, (out_h - nh) / 2
    top, left = int(round(pad_y - 0.1)), int(round(pad_x - 0.1))
    canvas = np.full((out_h, out_w, 3), 114, np.uint8)
    canvas[top : top + nh, left : left + nw] = resized
    blob = cv2.dnn.blobFromImage(canvas, 1 / 255.0, swapRB=True)
    return blob, Letterbox(scale, left, top)


@dataclass(frozen=True)
class Box:
    corners: np.ndarray  # (4, 2) image px
    score: float
    cls: int


def decode(output: np.ndarray, n_classes: int, box: Letterbox, conf: float) -> list[Box]:
    """Candidate boxes above ``conf`` in image pixels, best first (before NMS)."""
    pred = np.asarray(output)
    if pred.ndim == 3:
        pred = pred[0]
    if pred.shape[0] != 4 + n_classes + 1:
        raise ValueError(f"expected {4 + n_classes + 1} rows (x, y, w, h, {n_classes} classes, angle), found {pred.shape[0]}")
    scores_all = pred[4 : 4 + n_classes]
    cls = scores_all.argmax(0)
    scores = scores_all[cls, np.arange(pred.shape[1])]
    keep = np.flatnonzero(scores >= conf)
    keep = keep[np.argsort(-scores[keep])]
    cx = (pred[0, keep] - box.pad_x) / box.scale
    cy = (pred[1, keep] - box.pad_y) / box.scale
    corners = obb_corners_many(cx, cy, pred[2, keep] / box.scale, pred[3, keep] / box.scale, pred[4 + n_classes, keep])
    return [Box(c, float(s), int(k)) for c, s, k in zip(corners, scores[keep], cls[keep])]


def mirrored_back(output: np.ndarray, n_classes: int, input_width: int) -> np.ndarray:
    """The raw output for an input mirrored left to right, as boxes on the input before mirroring
    (the centre's x reflected, the angle negated)."""
    pred = np.array(output, np.float32, copy=True)
    rows = pred[0] if pred.ndim == 3 else pred
    rows[0] = input_width - rows[0]
    rows[4 + n_classes] = -rows[4 + n_classes]
    return pred


def agreed(own: list[Box], other: list[Box], conf: float, match: float = 0.5) -> list[Box]:
    """``own``'s boxes rescored by a second look at the same picture (``other``, e.g. the model run on
    it mirrored): each score becomes the mean of its own and that of the best box of its class in
    ``other`` overlapping it by IoU ``match`` or more (0 where none does); those still at ``conf``
    or more are kept, best first.  A box both looks find keeps its score; one only a single look
    sees needs twice the score."""
    centres, radii = _circles(other)
    own_centres, own_radii = _circles(own)
    kept = []
    for box, centre, radius in zip(own, own_centres, own_radii):
        near = _meeting(centre, radius, centres, radii)
        best = 0.0
        for b, meets in zip(other, near):
            if b.cls != box.cls or b.score <= best or not meets:
                continue
            if polygon_iou(box.corners, b.corners) >= match:
                best = b.score
        score = (box.score + best) / 2
        if score >= conf:
            kept.append(Box(box.corners, score, box.cls))
    return sorted(kept, key=lambda b: -b.score)


def rotated_nms(boxes: list[Box], iou_threshold: float, max_det: int = 300, contained: float = 0.6) -> list[Box]:
    """Greedy class-agnostic NMS with exact polygon IoU (a tile is either face up or face down).

    A box lying mostly inside a better one (a half of a tile seen as a small tile) is removed
    too, though its IoU is low: ``contained`` is the share of its area inside the better box."""
    centres, radii = _circles(boxes)
    quads = [np.asarray(b.corners, np.float32) for b in boxes]
    areas = [abs(cv2.contourArea(q)) for q in quads]
    kept: list[int] = []
    for i in range(len(boxes)):  # already best first
        near = [kept[j] for j in np.flatnonzero(_meeting(centres[i], radii[i], centres[kept], radii[kept]))]
        if not any(_overlaps(quads[i], areas[i], quads[k], areas[k], iou_threshold, contained) for k in near):
            kept.append(i)
            if len(kept) >= max_det:
                break
    return [boxes[k] for k in kept]


def _overlaps(quad: np.ndarray, area: float, better: np.ndarray, better_area: float, iou_threshold: float, contained: float) -> bool:
    """Whether a box (corners as float32, and its area) is suppressed by a better one: IoU above
    ``iou_threshold``, or more than ``contained`` of its area inside the better box."""
    if area <= 0:
        return False
    inter, _ = cv2.intersectConvexConvex(quad, better)
    inter = max(0.0, float(inter))
    return (better_area > 0 and inter / (area + better_area - inter) > iou_threshold) or inter / area > contained


def _circles(boxes: list[Box]) -> tuple[np.ndarray, np.ndarray]:
    """The boxes' circumcircles: centres [N, 2] and radii [N]."""
    if not boxes:
        return np.zeros((0, 2)), np.zeros(0)
    corners = np.stack([b.corners for b in boxes])
    centres = corners.mean(1)
    return centres, np.linalg.norm(corners[:, 0] - centres, axis=1)


def _meeting(centre: np.ndarray, radius: float, centres: np.ndarray, radii: np.ndarray) -> np.ndarray:
    """A cheap test before the exact one: which circles meet the one given (boxes whose circumcircles
    do not meet cannot overlap)."""
    return np.linalg.norm(centres - centre, axis=1) <= radii + radius
