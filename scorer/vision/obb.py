"""The YOLO oriented-box head: letterboxing in, decoding and rotated NMS out (numpy and OpenCV only).

The raw ONNX export of an ultralytics OBB model gives ``[1, 4 + nc + 1, A]``: per
anchor column the box centre x, y, width, height in input pixels, ``nc`` class
scores (already sigmoided) and the angle in radians.  The shipped model is that export cut
before the head decodes its box distances (``models/cut_head.py``): three outputs, the distances
as distributions ``[1, 4 * DFL_BINS, A]``, the class scores ``[1, nc, A]`` and the angles
``[1, 1, A]``; the distances are decoded here, only for the columns above the score threshold
(decoding all of them took a tenth of the model's time, for the few boxes any frame holds).
"""

from __future__ import annotations

import contextlib
import contextvars
import functools
from dataclasses import dataclass
from typing import Iterator, Sequence

import cv2
import numpy as np

from scorer.vision.geometry import circles_meeting, obb_corners_many, polygon_iou


@dataclass(frozen=True)
class Letterbox:
    scale: float
    pad_x: float
    pad_y: float


def shrunk(image: np.ndarray, width: int, height: int) -> np.ndarray:
    """``image`` resized to ``width`` x ``height`` as the detector's input is: halved by area averaging while
    twice the size or more, then linear -- no aliased pips, as with one area average, at a tenth of its time
    (docs/experiments.md, sessions 30-31).  Inside :func:`shrunk_once` for ``image``, made once a size."""
    held = _held.get()
    known = held[1] if held is not None and held[0] is image else None
    if known is not None and (width, height) in known:
        return known[width, height]
    while image.shape[1] >= 2 * width and image.shape[0] >= 2 * height:
        image = cv2.resize(image, (image.shape[1] // 2, image.shape[0] // 2), interpolation=cv2.INTER_AREA)
    out = cv2.resize(image, (width, height), interpolation=cv2.INTER_LINEAR)
    if known is not None:
        out.flags.writeable = False  # (handed out again)
        known[width, height] = out
    return out


# The frame being read and its shrunk copies, by size (:func:`shrunk_once`): this thread's own.
_held: contextvars.ContextVar[tuple[np.ndarray, dict[tuple[int, int], np.ndarray]] | None] = contextvars.ContextVar(
    "shrunk_frame", default=None)


@contextlib.contextmanager
def shrunk_once(frame: np.ndarray) -> Iterator[None]:
    """While ``frame`` is read (and left as it is), each size of it :func:`shrunk` is made once: the detector's input
    and its grain, measured as the detector sees it, ask for the same."""
    token = _held.set((frame, {}))
    try:
        yield
    finally:
        _held.reset(token)


def letterbox(image: np.ndarray, size: int, stride: int | None = None) -> tuple[np.ndarray, Letterbox]:
    """Resize keeping the aspect ratio so the long side is ``size``, pad with grey to ``size`` x ``size``
    (or, given a ``stride``, only up to the next multiple of it: a wide frame then needs no band of
    padding above and below); NCHW float32 RGB in 0..1."""
    h, w = image.shape[:2]
    scale = min(size / w, size / h)
    nw, nh = int(round(w * scale)), int(round(h * scale))
    resized = shrunk(image, nw, nh)
    out_w, out_h = (size, size) if stride is None else (-(-nw // stride) * stride, -(-nh // stride) * stride)
    pad_x, pad_y = (out_w - nw) / 2, (out_h - nh) / 2
    top, left = int(round(pad_y - 0.1)), int(round(pad_x - 0.1))
    canvas = np.full((out_h, out_w, 3), 114, np.uint8)
    canvas[top : top + nh, left : left + nw] = resized
    # (As OpenCV's blobFromImage with swapRB -- OpenCV 5's to the bit, 4's a float rounding apart -- in a third of its time.)
    blob = np.multiply(np.stack(cv2.split(canvas)[::-1])[None], _BY_255, dtype=np.float32)
    return blob, Letterbox(scale, left, top)


_BY_255 = np.float32(1 / 255.0)


@dataclass(frozen=True)
class Box:
    corners: np.ndarray  # (4, 2) image px
    score: float
    cls: int


# The cut head (module docstring): each side's distance from the anchor as a distribution over this many
# steps of the anchor's stride (ultralytics' DFL), at these strides, the finest first.
DFL_BINS = 16
HEAD_STRIDES = (8, 16, 32)

# The model's outputs: a full export's one [1, 4 + nc + 1, A], or a cut head's three.
HeadOutput = np.ndarray | Sequence[np.ndarray]


def decode(output: HeadOutput, n_classes: int, box: Letterbox, conf: float, input_hw: tuple[int, int] | None = None) -> list[Box]:
    """Candidate boxes above ``conf`` in image pixels, best first (before NMS).  A cut head's output
    needs the input's height and width (``input_hw``) to place its anchors."""
    cut = _is_cut(output)
    if cut:
        dist, scores_all, angles = _cut_parts(output, n_classes)
    else:
        pred = _full_rows(output, n_classes)
        scores_all = pred[4 : 4 + n_classes]
    cls = scores_all.argmax(0)
    scores = scores_all[cls, np.arange(scores_all.shape[1])]
    keep = np.flatnonzero(scores >= conf)
    keep = keep[np.argsort(-scores[keep])]
    if cut:
        if input_hw is None:
            raise ValueError("a head cut before its distance decoding needs the input's height and width")
        cx, cy, w, h, angle = _decoded_distances(dist, angles, input_hw, keep)
    else:
        cx, cy, w, h, angle = pred[0, keep], pred[1, keep], pred[2, keep], pred[3, keep], pred[4 + n_classes, keep]
    corners = obb_corners_many((cx - box.pad_x) / box.scale, (cy - box.pad_y) / box.scale, w / box.scale, h / box.scale, angle)
    return [Box(c, s, k) for c, s, k in zip(corners, scores[keep].tolist(), cls[keep].tolist())]


def full_rows(output: HeadOutput, n_classes: int, input_hw: tuple[int, int]) -> np.ndarray:
    """The full export's ``[1, 4 + nc + 1, A]`` for either kind of output (a cut head's decoded at every column)."""
    if not _is_cut(output):
        return _full_rows(output, n_classes)[None]
    dist, scores, angles = _cut_parts(output, n_classes)
    rows = _decoded_distances(dist, angles, input_hw, np.arange(scores.shape[1]))
    return np.concatenate([np.stack(rows[:4]), scores, rows[4][None]]).astype(np.float32)[None]


def _is_cut(output: HeadOutput) -> bool:
    return isinstance(output, (list, tuple)) and len(output) == 3


def _full_rows(output: HeadOutput, n_classes: int) -> np.ndarray:
    pred = np.asarray(output[0] if isinstance(output, (list, tuple)) and len(output) == 1 else output)
    if pred.ndim == 3:
        pred = pred[0]
    if pred.shape[0] != 4 + n_classes + 1:
        raise ValueError(f"expected {4 + n_classes + 1} rows (x, y, w, h, {n_classes} classes, angle), found {pred.shape[0]}")
    return pred


def _cut_parts(output: HeadOutput, n_classes: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    dist, scores, angles = (np.asarray(o)[0] if np.ndim(o) == 3 else np.asarray(o) for o in output)
    if dist.shape[0] != 4 * DFL_BINS or scores.shape[0] != n_classes or angles.shape[0] != 1:
        raise ValueError(f"expected a cut head's distances [{4 * DFL_BINS}, A], {n_classes} class scores and one angle per"
                         f" column, found {dist.shape}, {scores.shape} and {angles.shape}")
    return dist, scores, angles[0]


def _decoded_distances(dist: np.ndarray, angles: np.ndarray, input_hw: tuple[int, int], columns: np.ndarray
                       ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """cx, cy, w, h (input px) and the angle of the boxes at ``columns``, from their distance
    distributions: each side's distance the distribution's mean, the box turned by its angle about
    the anchor's cell (ultralytics' ``dist2rbox``)."""
    anchors, strides = _anchors(*input_hw)
    if anchors.shape[0] != dist.shape[1]:
        raise ValueError(f"an input of {input_hw[0]}x{input_hw[1]} has {anchors.shape[0]} anchors, the head {dist.shape[1]} columns")
    logits = dist[:, columns].reshape(4, DFL_BINS, -1).astype(np.float64)
    weights = np.exp(logits - logits.max(1, keepdims=True))
    left, top, right, bottom = (weights * np.arange(DFL_BINS)[:, None]).sum(1) / weights.sum(1)
    angle = angles[columns].astype(np.float64)
    cos, sin = np.cos(angle), np.sin(angle)
    off_x, off_y = (right - left) / 2, (bottom - top) / 2
    stride = strides[columns]
    cx = (off_x * cos - off_y * sin + anchors[columns, 0]) * stride
    cy = (off_x * sin + off_y * cos + anchors[columns, 1]) * stride
    return cx, cy, (left + right) * stride, (top + bottom) * stride, angle


@functools.lru_cache(maxsize=16)
def _anchors(height: int, width: int) -> tuple[np.ndarray, np.ndarray]:
    """Each head column's anchor (the centre of its cell, in cells) and stride, for an input this size:
    the finest level first, each row by row."""
    points, strides = [], []
    for stride in HEAD_STRIDES:
        ys, xs = np.meshgrid(np.arange(height // stride) + 0.5, np.arange(width // stride) + 0.5, indexing="ij")
        points.append(np.column_stack([xs.ravel(), ys.ravel()]))
        strides.append(np.full(xs.size, float(stride)))
    anchors, steps = np.concatenate(points), np.concatenate(strides)
    anchors.flags.writeable = steps.flags.writeable = False  # (shared by every call)
    return anchors, steps


def mirrored_back(output: np.ndarray, n_classes: int, input_width: int) -> np.ndarray:
    """The raw output (:func:`full_rows`) for an input mirrored left to right, as boxes on the input before mirroring
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
    # (Which circumcircles meet, all pairs at once: boxes whose circles do not meet cannot overlap.)
    meets = circles_meeting(*_circles(boxes))
    quads = [np.asarray(b.corners, np.float32) for b in boxes]
    areas = [abs(cv2.contourArea(q)) for q in quads]
    kept: list[int] = []
    for i in range(len(boxes)):  # already best first
        row = meets[i]
        if not any(_overlaps(quads[i], areas[i], quads[k], areas[k], iou_threshold, contained) for k in kept if row[k]):
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
