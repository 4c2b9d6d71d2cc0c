"""The YOLO oriented-box head: letterboxing in, decoding and rotated NMS out (numpy and OpenCV only).

The raw ONNX export of an ultralytics OBB model gives ``[1, 4 + nc + 1, A]``: per
anchor column the box centre x, y, width, height in input pixels, ``nc`` class
scores (already sigmoided) and the angle in radians.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from scorer.vision.geometry import obb_corners, polygon_iou


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
    # Linear, as the model's training (ultralytics) shrank its images: an area average read no better
    # and took five times as long (docs/experiments.md, session 30).
    resized = cv2.resize(image, (nw, nh), interpolation=cv2.INTER_LINEAR)
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
    out = []
    for i in keep:
        cx, cy, w, h = pred[0:4, i]
        angle = pred[4 + n_classes, i]
        cx = (cx - box.pad_x) / box.scale
        cy = (cy - box.pad_y) / box.scale
        out.append(Box(obb_corners(cx, cy, w / box.scale, h / box.scale, float(angle)), float(scores[i]), int(cls[i])))
    return out


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
    circles = [_circle(b) for b in other]
    kept = []
    for box in own:
        circle = _circle(box)
        best = 0.0
        for b, around in zip(other, circles):
            if b.cls != box.cls or b.score <= best or not _circles_meet(circle, around):
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
    kept: list[Box] = []
    circles: list[tuple[np.ndarray, float]] = []  # the kept boxes'
    for b in boxes:  # already best first
        circle = _circle(b)
        suppressed = False
        for k, around in zip(kept, circles):
            if not _circles_meet(circle, around):
                continue
            if polygon_iou(b.corners, k.corners) > iou_threshold or _inside_share(b.corners, k.corners) > contained:
                suppressed = True
                break
        if not suppressed:
            kept.append(b)
            circles.append(circle)
            if len(kept) >= max_det:
                break
    return kept


def _circle(box: Box) -> tuple[np.ndarray, float]:
    """The box's circumcircle: centre and radius."""
    centre = box.corners.mean(0)
    return centre, float(np.linalg.norm(box.corners[0] - centre))


def _circles_meet(a: tuple[np.ndarray, float], b: tuple[np.ndarray, float]) -> bool:
    """A cheap test before the exact one: boxes whose circumcircles do not meet cannot overlap."""
    return bool(np.linalg.norm(a[0] - b[0]) <= a[1] + b[1])


def _inside_share(small: np.ndarray, big: np.ndarray) -> float:
    """The share of ``small``'s area that lies inside ``big``."""
    a = np.asarray(small, np.float32)
    area = abs(cv2.contourArea(a))
    if area <= 0:
        return 0.0
    inter, _ = cv2.intersectConvexConvex(a, np.asarray(big, np.float32))
    return max(0.0, float(inter)) / area
