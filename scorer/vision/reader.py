"""Reading the pips of each tile half with a small ONNX classifier on rectified crops."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Sequence

import cv2
import numpy as np

from scorer.errors import ModelError
from scorer.vision.geometry import HALF, long_first, long_side, rectify

N_PIP_CLASSES = 7  # 0..6 pips
NOT_A_HALF = 7  # background, a box straddling the divider or two tiles
BACK = 8  # the back of a face-down tile (the shipped reader's ninth class; older readers have 8)
N_CLASSES = 9


# Around a whole-tile crop, this share of the tile's width is kept on every side: the tile reader sees
# where the tile really ends (a detector's box may stop short) and what lies beyond it.
TILE_MARGIN = 1 / 16


def tile_crop(image: np.ndarray, corners: np.ndarray) -> np.ndarray:
    """The tile upright with its margin, [32, 64] (grey) or [32, 64, 3] (colour, as ``image``); columns
    0-31 the end at corners c0/c3 of :func:`~scorer.vision.geometry.long_first` (the same end as
    :func:`~scorer.vision.geometry.rectify`'s first half)."""
    quad = long_first(corners)
    (ax, ay), (bx, by), _, (dx, dy) = quad.tolist()  # (plain floats: numpy's overhead on four points is most of the cost)
    width = math.hypot(dx - ax, dy - ay)
    margin = TILE_MARGIN * width
    along = margin / max(math.hypot(bx - ax, by - ay), 1e-9)
    across = margin / max(width, 1e-9)
    ux, uy = (bx - ax) * along, (by - ay) * along
    vx, vy = (dx - ax) * across, (dy - ay) * across
    grown = quad + np.array([[-ux - vx, -uy - vy], [ux - vx, uy - vy], [ux + vx, uy + vy], [-ux + vx, -uy + vy]])
    crop, _ = rectify(image, grown)
    return crop


# A crop's contrast is taken as at least this many grey levels (a plain crop is not blown up into noise).
CONTRAST_FLOOR = 10.0


def standardize(crops: np.ndarray) -> np.ndarray:
    """Per-crop contrast normalisation, the same in training and at run time."""
    crops = crops.astype(np.float32)
    mean = crops.mean(axis=(-2, -1), keepdims=True)
    std = crops.std(axis=(-2, -1), keepdims=True)
    return (crops - mean) / np.maximum(std, CONTRAST_FLOOR)


# The grey a colour crop's channels (B, G, R) make, as OpenCV's BGR -> grey.
GREY_OF_BGR = np.array([0.114, 0.587, 0.299], np.float32)


def standardize_colour(crops: np.ndarray) -> np.ndarray:
    """Colour crops [N, H, W, 3] (BGR) -> [N, 3, H, W], every channel shifted and scaled by its crop's
    grey level and contrast (as :func:`standardize` does the grey): the channels' weighted sum by
    :data:`GREY_OF_BGR` is then exactly the grey crop standardised, and what colour adds -- a pale
    yellow pip on ivory, a few grey levels but far off in blue -- keeps its size beside it."""
    crops = crops.astype(np.float32)
    grey = crops @ GREY_OF_BGR
    mean = grey.mean(axis=(-2, -1), keepdims=True)[..., None]
    std = grey.std(axis=(-2, -1), keepdims=True)[..., None]
    return np.ascontiguousarray(((crops - mean) / np.maximum(std, CONTRAST_FLOOR)).transpose(0, 3, 1, 2))


def softmax(logits: np.ndarray) -> np.ndarray:
    z = logits - logits.max(axis=-1, keepdims=True)
    e = np.exp(z)
    return e / e.sum(axis=-1, keepdims=True)


# A model of many small steps (the detector's hundreds of nodes) runs faster when its pool's threads wait
# for the next step spinning, not asleep -- but only this long: a thread still spinning after the run would
# keep a core from the other session's next run (the detector and the reader take turns;
# docs/experiments.md, sessions 30-31 and 52).
SPIN_US = 100


def onnx_session(path: Path, threads: int, what: str, *, spin: bool = False):
    """An onnxruntime CPU session with ``threads`` threads, or a :class:`ModelError` saying why not.
    ``spin``: its threads wait for the next step of a run spinning, up to :data:`SPIN_US`; else asleep."""
    import onnxruntime as ort

    if not Path(path).is_file():
        raise ModelError(f"{what} model not found: {path} (set SCORER_MODELS to the folder holding it)")
    options = ort.SessionOptions()
    options.intra_op_num_threads = threads
    options.inter_op_num_threads = 1
    options.add_session_config_entry("session.intra_op.allow_spinning", "1" if spin else "0")
    if spin:
        options.add_session_config_entry("session.intra_op.spin_duration_us", str(SPIN_US))
    try:
        return ort.InferenceSession(str(path), options, providers=["CPUExecutionProvider"])
    except Exception as exc:  # onnxruntime raises its own types
        raise ModelError(f"{path} is not a usable ONNX model: {exc}") from None


def output_size(session, axis: int, probe_shape: tuple[int, ...], output: int = 0) -> int:
    """The size of a model's ``output`` (its first by default) along ``axis``: from its declared shape, or,
    where a dynamic export left it unnamed, from one small run on zeros of ``probe_shape``."""
    size = session.get_outputs()[output].shape[axis]
    if not isinstance(size, int):
        size = session.run(None, {session.get_inputs()[0].name: np.zeros(probe_shape, np.float32)})[output].shape[axis]
    return int(size)


# A tile with a half read under this is read again by the second reader, where there is one.
SECOND_LOOK = 0.9

# Tiles whose box is shorter than this (px in the frame) are read by the small-tile reader too, where there is one.
SMALL_TILE = 45.0



class PipReader:
    """Reads both halves of face-up tiles with the shipped classifier, of any kind (told apart by its
    input): a half reader, [N, 1, 32, 32], each half rectified and read alone; a whole-tile reader,
    [N, 1, 32, 64], the tile with its margin (:func:`tile_crop`), both halves read at once; or a colour
    whole-tile reader, [N, 3, 32, 64] (:func:`standardize_colour`)."""

    def __init__(self, path: Path, threads: int = 2, *, turned: bool = False, second: Path | None = None,
                 small: Path | None = None) -> None:
        """``turned``: a whole-tile reader also reads each tile turned half round (its halves swapped)
        and the two readings are combined -- a second look for a still image read with care.
        ``second``: a larger whole-tile reader of the same input that reads again the tiles this one reads
        unsurely (a half under :data:`SECOND_LOOK`), its reading taken for them.
        ``small``: a reader of the same input trained on small tiles, which reads again the tiles whose box is
        shorter than :data:`SMALL_TILE`: their reading is both readers' mean."""
        self.session = onnx_session(path, threads, "pip reader")
        inp = self.session.get_inputs()[0]
        shape = list(inp.shape[1:])
        if shape not in ([1, HALF, HALF], [1, HALF, 2 * HALF], [3, HALF, 2 * HALF]):
            raise ModelError(f"{path}: expected input [N, 1, 32, 32] (halves), [N, 1, 32, 64] (whole tiles) or "
                             f"[N, 3, 32, 64] (whole tiles in colour), found {inp.shape}")
        self.whole_tile = shape[2] == 2 * HALF
        self.colour = shape[0] == 3
        self.input_name = inp.name
        classes = output_size(self.session, -1, (1, *shape))
        if classes not in (N_CLASSES - 1, N_CLASSES):
            raise ModelError(f"{path}: expected {N_CLASSES - 1} or {N_CLASSES} classes per half (0-6 pips, no tile[, back]), found {classes}")
        self.classes = classes
        self.turned = turned and self.whole_tile
        self.second = self._alongside(second, threads, turned, "a second reader", path)
        self.small = self._alongside(small, threads, turned, "a small-tile reader", path)

    def _alongside(self, other: Path | None, threads: int, turned: bool, what: str, path: Path) -> PipReader | None:
        """A reader that reads some tiles beside this one (None where there is none), refused unless it reads as this
        one does: the same input and classes."""
        if other is None:
            return None
        reader = PipReader(other, threads, turned=turned)
        if (reader.whole_tile, reader.colour, reader.classes) != (self.whole_tile, self.colour, self.classes):
            raise ModelError(f"{other}: {what} must read as {path} does (input and classes)")
        return reader

    def picture(self, image: np.ndarray) -> np.ndarray:
        """The image (BGR or grey) as this reader reads it: grey, or colour (a grey one's three channels
        alike, read as its grey: see :func:`standardize_colour`).  Converted once, a frame read several
        times is not converted again by :meth:`read`."""
        if self.colour and image.ndim == 2:
            return cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)
        if not self.colour and image.ndim == 3:
            return cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
        return image

    def read(self, image: np.ndarray, boxes: Sequence[np.ndarray]) -> np.ndarray:
        """Class probabilities [N, 2, C] for the tiles in ``boxes`` (corners) of an image (BGR or grey),
        the halves in the order of :func:`~scorer.vision.geometry.half_centers`: C = 9 (0-6 pips, no
        tile, back) or, for an older reader, 8 (no "back")."""
        if len(boxes) == 0:
            return np.zeros((0, 2, self.classes), np.float32)
        image = self.picture(image)
        crops = self._crops(image, boxes)
        probs = self._read_crops(crops)
        if self.small is not None:
            small = np.array([long_side(c) < SMALL_TILE for c in boxes])
            if small.any():
                # The two readers' mean: where they disagree the reading is less sure (the players are asked); no class
                # comes out surer than either reader had it, so the thresholds keep their meaning, and a face both read
                # as a face stays one however they count it.
                probs[small] = (probs[small] + self.small._read_crops(self._of_tiles(crops, small))) / 2
        return probs

    def _crops(self, image: np.ndarray, boxes: Sequence[np.ndarray]) -> np.ndarray:
        """What this reader reads of the tiles in ``boxes``: one whole-tile crop a tile, or two half crops a tile (in
        turn), ``image`` already as it reads it."""
        if self.whole_tile:
            return np.stack([tile_crop(image, np.asarray(c, np.float64)) for c in boxes])
        upright = [rectify(image, np.asarray(c, np.float64))[0] for c in boxes]
        return np.stack([half for crop in upright for half in (crop[:, :HALF], crop[:, HALF:])])

    def _of_tiles(self, crops: np.ndarray, chosen: np.ndarray) -> np.ndarray:
        """The crops (:meth:`_crops`) of the tiles ``chosen`` (a mask over the tiles)."""
        return crops[chosen] if self.whole_tile else crops[np.repeat(chosen, 2)]

    def _read_crops(self, crops: np.ndarray) -> np.ndarray:
        """:meth:`read` by this reader (and its second) of tiles already cut (:meth:`_crops`)."""
        probs = self._probabilities(crops)
        if self.turned:
            # Turned half round, the tile's halves swap places: read so, then put back in order.
            again = self._probabilities(np.ascontiguousarray(crops[:, ::-1, ::-1]))[:, ::-1]
            # A geometric mean: where the two looks disagree the reading is less sure (so the players
            # are asked), where they agree it stays as sure.
            both = np.sqrt(probs * again)
            probs = both / both.sum(axis=-1, keepdims=True)
        if self.second is not None:
            unsure = (probs.max(axis=-1) < SECOND_LOOK).any(axis=1)
            if unsure.any():
                probs[unsure] = self.second._read_crops(self._of_tiles(crops, unsure))
        return probs

    def _probabilities(self, crops: np.ndarray) -> np.ndarray:
        inputs = standardize_colour(crops) if self.colour else standardize(crops)[:, None]
        (logits,) = self.session.run(None, {self.input_name: inputs})
        n = len(crops) if self.whole_tile else len(crops) // 2
        return softmax(logits.reshape(n, 2, self.classes))


# A face with a line across its middle this much darker than the face (grey levels, and times the
# face's own variation) shows a divider: a tile face up, not a back.
DIVIDER_DEPTH = 25.0
DIVIDER_CONTRAST = 5.0


def shows_divider(image: np.ndarray, corners: np.ndarray) -> bool:
    """Whether a plain-looking tile has a divider across its middle: the double blank, which a
    detector may take for a back (measured on generated tables: a blank double's line 90 grey
    levels deep, backs' middles within 4 of their faces)."""
    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY) if image.ndim == 3 else image
    crop, _ = rectify(grey, np.asarray(corners, np.float64))
    columns = crop[HALF // 4 : 3 * HALF // 4].astype(np.float32).mean(axis=0)  # across the long axis
    middle = columns[HALF - 3 : HALF + 3].min()
    face = np.concatenate([columns[HALF // 5 : 3 * HALF // 4], columns[5 * HALF // 4 : 9 * HALF // 5]])
    depth = float(np.median(face) - middle)
    return depth >= DIVIDER_DEPTH and depth >= DIVIDER_CONTRAST * float(face.std())
