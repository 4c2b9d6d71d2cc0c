"""From a frame to every tile with its corners, face and pips: YOLO oriented boxes, then a pip reader that also checks each box."""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any, Protocol, Sequence

import numpy as np

from scorer.errors import ModelError
from scorer.vision.box_reading import (  # (re-exported: the tools and tests use them from here)
    CLASS_FACES as CLASS_FACES, ReadOnce, read_tiles as read_tiles, washed_out as washed_out,
)
from scorer.vision.geometry import long_side, polygon_iou
from scorer.vision.grain import grainy, smoothed
from scorer.vision.images import check_frame
from scorer.vision.input_sizes import (  # (re-exported: the tools and tests import the sizes from here)
    CLOSE_TILE_INPUT_PX as CLOSE_TILE_INPUT_PX, FOLLOW_SLACK as FOLLOW_SLACK, INPUT_SIZE as INPUT_SIZE,
    LARGE_IN_INPUT as LARGE_IN_INPUT, LARGEST_INPUT_SIZE as LARGEST_INPUT_SIZE, SMALLEST_INPUT_SIZE as SMALLEST_INPUT_SIZE,
    STRIDE as STRIDE, TILE_INPUT_PX as TILE_INPUT_PX, fitted_input_size as fitted_input_size,
)
from scorer.vision.obb import Box, agreed, decode, full_rows, letterbox, mirrored_back, rotated_nms, shrunk_once
from scorer.vision.reader import PipReader, onnx_session, output_size
from scorer.vision.plain_backs import blank_or_back, laid_backs_as_faces
from scorer.vision.tile_detection import (  # (re-exported: the pipeline and the tools import the tile's types from here)
    CERTAIN as CERTAIN, SMALL_FOR_A_BLANK_PX as SMALL_FOR_A_BLANK_PX, SMALL_TILE_PX as SMALL_TILE_PX, SURE_BLANK as SURE_BLANK,
    HalfReading as HalfReading, TileDetection as TileDetection, settled, too_small_to_read as too_small_to_read,
)

# One still image read with care (the ``board`` command): at two sizes, the boxes merged -- a tile
# missed at one size is often found at the other, at twice the time -- and each tile also read turned
# half round, which asks less (live frames keep one reading: the next frames look again).
THOROUGH_SIZES = (544, 704)
# ... and at each size the model also looks at the picture mirrored, each box's score becoming the
# mean of the two looks' (docs/experiments.md, "THOROUGH_SIZES").  Boxes for that are decoded from
# this lower score, as one look alone must reach twice the threshold.
MIRROR_LOW = 0.1


# Close-ups.  The model finds tiles 12 to about 130 px long in its input (trained at 416 px with tiles up
# to about 85): at INPUT_SIZE a tile longer than about 300 px in a 1280 px frame is missed (a camera close
# over the table, a phone held low).  An image in which the usual size finds fewer than FEW_TILES tiles,
# or tiles LARGE_IN_INPUT px long or more in its input, is looked at again at each of SEARCH_SIZES
# smaller than it, and the boxes found there that are at least SEARCH_FROM_INPUT_PX long in the usual
# input (too long for it to find well) join its own (benchmarks/evaluate_scale.py).
SEARCH_SIZES = (224,)
FEW_TILES = 3
SEARCH_FROM_INPUT_PX = 100
# A live frame with one tile or none at its input size is looked at at LARGEST_INPUT_SIZE too (a far
# camera's first frames); the size follows what is found there only from this many boxes on -- one or two
# may be a glare spot or a box across a seam.
FAR_LOOK_TILES = 3


class Detector(Protocol):
    """Anything that finds tiles in a BGR frame (the ONNX models, or a fake in tests)."""

    def detect(self, frame: np.ndarray) -> list[TileDetection]: ...


def default_models_dir() -> Path:
    env = os.environ.get("SCORER_MODELS")
    return Path(env) if env else Path(__file__).resolve().parents[2] / "models"


class TileDetector:
    """The shipped models: ``detector.onnx`` (oriented boxes), ``detector-far.onnx`` (the same, fine-tuned on small tiles:
    the looks at an input size fitted to them), ``reader.onnx`` (the pips of each box, or no tile) and
    ``reader-small.onnx`` (the pips of tiles under :data:`~scorer.vision.reader.SMALL_TILE` px, read by both readers)."""

    def __init__(
        self,
        models_dir: Path | None = None,
        *,
        threads: int = 2,
        conf: float = 0.35,
        iou: float = 0.45,
        input_size: int | Sequence[int] = INPUT_SIZE,
        read_turned: bool = False,
        mirrored: bool = False,
        follow_tiles: bool = False,
        search: bool = True,
    ) -> None:
        models_dir = models_dir or default_models_dir()
        path = models_dir / "detector.onnx"
        self.session = onnx_session(path, threads, "tile detector", spin=True)
        inp = self.session.get_inputs()[0]
        if len(inp.shape) != 4:
            raise ModelError(f"{path}: expected an image input (N, 3, H, W), found {inp.shape}")
        if isinstance(inp.shape[2], int) and isinstance(inp.shape[3], int):
            if inp.shape[2] != inp.shape[3]:
                raise ModelError(f"{path}: expected a square fixed-size image input or a dynamic one, found {inp.shape}")
            self.size, self.stride = int(inp.shape[2]), None  # fixed: letterboxed to its square
            self.sizes: tuple[int, ...] = (self.size,)
        else:
            self.sizes = (input_size,) if isinstance(input_size, int) else tuple(input_size)
            if not self.sizes or any(size % STRIDE for size in self.sizes):
                raise ModelError(f"input size {input_size}: expected one or more multiples of {STRIDE}")
            self.size, self.stride = self.sizes[0], STRIDE
        self.input_name = inp.name
        side = self.stride or self.size
        # One output (a full export: 4 box rows, the classes, the angle) or three (a head cut before its
        # distance decoding: the class scores second).
        cut = len(self.session.get_outputs()) == 3
        self.n_classes = output_size(self.session, 1, (1, 3, side, side), output=1 if cut else 0) - (0 if cut else 5)
        if self.n_classes != len(CLASS_FACES):
            raise ModelError(f"{path}: expected {len(CLASS_FACES)} classes (tile, tile-down), found {self.n_classes}")
        second = models_dir / "reader-second.onnx"  # (a larger reader for the tiles read unsurely, where shipped)
        small = models_dir / "reader-small.onnx"  # (a reader for tiles under SMALL_TILE px, where shipped)
        self.reader = PipReader(models_dir / "reader.onnx", threads=threads, turned=read_turned,
                                second=second if second.exists() else None, small=small if small.exists() else None)
        self.conf = conf
        self.iou = iou
        self.mirrored = mirrored
        if follow_tiles and (self.stride is None or len(self.sizes) > 1):
            raise ModelError(f"following the tiles' size needs one input size of a dynamic model, found {self.sizes}")
        self.follow_tiles = follow_tiles
        # Close-ups (SEARCH_SIZES) and small tiles of a still image read again at their size: a dynamic model only.
        self.search = search and self.stride is not None
        # (Loaded only where a look at a size fitted to small tiles can happen: not for `board`'s two sizes.)
        fitted_looks = follow_tiles or (self.search and len(self.sizes) == 1)
        self.far = self._far_detector(models_dir / "detector-far.onnx", threads) if fitted_looks else None
        self.last_timing: dict[str, float] = {}

    def _far_detector(self, path: Path, threads: int) -> Any:
        """The detector fine-tuned on a far camera's small tiles, where shipped beside a dynamic ``detector.onnx`` (else
        None): it reads the looks at an input size fitted to small tiles -- a still image's second look, a far camera's
        frames -- and must read as ``detector.onnx`` does (a dynamic image input, the same outputs, the same classes)."""
        if not path.exists() or self.stride is None:  # (a fixed-size model is never read at a fitted size)
            return None
        far = onnx_session(path, threads, "far tile detector", spin=True)
        shape = far.get_inputs()[0].shape
        cut = len(self.session.get_outputs()) == 3
        if ([o.name for o in far.get_outputs()] != [o.name for o in self.session.get_outputs()]
                or len(shape) != 4 or shape[1] != 3 or any(isinstance(side, int) for side in shape[2:])
                or output_size(far, 1, (1, 3, STRIDE, STRIDE), output=1 if cut else 0) - (0 if cut else 5) != self.n_classes):
            raise ModelError(f"{path}: a far detector must read as detector.onnx does (a dynamic image input, the same "
                             f"outputs and classes), found input {shape}")
        return far

    def _fitted(self) -> Any:
        """The session a live camera's frames (and their smoothed re-reading) are read with: the far detector where the
        input size was fitted to small tiles (above INPUT_SIZE), else None (the usual one)."""
        return self.far if self.follow_tiles and self.size > INPUT_SIZE else None

    @classmethod
    def thorough(cls, models_dir: Path | None = None, *, threads: int = 2) -> "TileDetector":
        """The detector as one still image is read with care (the ``board`` command): at
        :data:`THOROUGH_SIZES`, each looked at mirrored too, each tile also read turned half round."""
        return cls(models_dir, threads=threads, input_size=THOROUGH_SIZES, read_turned=True, mirrored=True)

    @classmethod
    def live(cls, models_dir: Path | None = None, *, threads: int = 2) -> "TileDetector":
        """The detector as a camera's frames are read (the app, ``record``, ``replay``): each frame at the
        input size fitted to the tiles of the frames before (:func:`fitted_input_size`)."""
        return cls(models_dir, threads=threads, follow_tiles=True)

    def candidates(self, frame: np.ndarray, sizes: Sequence[int] | None = None, session: Any = None) -> list[Box]:
        """Every box above the score threshold, at every input size (``sizes``, or this detector's), best
        first (before the NMS); by ``session`` (the far detector) where given."""
        sizes = self.sizes if sizes is None else sizes
        model = session or self.session
        found: list[Box] = []
        for size in sizes:
            blob, box = letterbox(frame, size, self.stride)
            output = model.run(None, {self.input_name: blob})
            if not self.mirrored:
                found += decode(output, self.n_classes, box, self.conf, blob.shape[2:])
                continue
            output_mirrored = model.run(None, {self.input_name: np.ascontiguousarray(blob[..., ::-1])})
            plain = decode(output, self.n_classes, box, MIRROR_LOW, blob.shape[2:])
            mirrored_rows = mirrored_back(full_rows(output_mirrored, self.n_classes, blob.shape[2:]), self.n_classes, blob.shape[3])
            mirrored = decode(mirrored_rows, self.n_classes, box, MIRROR_LOW)
            found += agreed(plain, mirrored, self.conf) + agreed(mirrored, plain, self.conf)
        if len(sizes) > 1 or self.mirrored:
            found.sort(key=lambda b: -b.score)  # best first over all sizes and looks, for the NMS
        return found

    def boxes(self, frame: np.ndarray) -> list[Box]:
        return rotated_nms(self.candidates(frame), self.iou)

    def detect(self, frame: np.ndarray) -> list[TileDetection]:
        frame = check_frame(frame)
        with shrunk_once(frame):
            return self._detect(frame)

    def _detect(self, frame: np.ndarray) -> list[TileDetection]:
        t0 = time.perf_counter()
        # (The frame as the reader reads it, made once: it may be read twice.)
        picture = self.reader.picture(frame)
        picture_ms = (time.perf_counter() - t0) * 1000
        detections = self._detect_at_size(frame, picture, session=self._fitted())
        self.last_timing["read_ms"] += picture_ms
        if grainy(frame):
            frame, picture, detections = self._smoothed_if_surer(frame, picture, detections)
        if self.follow_tiles:
            timing = self.last_timing
            t1 = time.perf_counter()
            size = self._size_for(frame, detections)
            timing["far_ms"] = (time.perf_counter() - t1) * 1000
            if size != self.size:
                # The tiles want another size: this frame is read again at it (the first frames of a far
                # camera would otherwise be read at one where most of its tiles are missed).
                self.size, self.sizes = size, (size,)
                t2 = time.perf_counter()
                detections = self._detect_at_size(frame, picture, session=self._fitted())
                timing["again_ms"] = (time.perf_counter() - t2) * 1000
            self.last_timing = timing
        elif self.search and len(self.sizes) == 1:
            detections = self._at_fitted_size(frame, picture, detections)
        return detections

    def _at_fitted_size(self, frame: np.ndarray, picture: np.ndarray, detections: list[TileDetection]) -> list[TileDetection]:
        """A still image whose tiles read surely come out small in the input, read again at the larger size
        a camera's frames would be read at (:func:`fitted_input_size`), where the model finds them better:
        that reading, with the first one's faces kept (:func:`_with_first_faces`; docs/experiments.md)."""
        lengths = [long_side(d.corners) for d in detections if d.certain]
        size = fitted_input_size(lengths, max(frame.shape[:2]), self.size)
        if size <= self.size:
            return detections
        timing, t0 = self.last_timing, time.perf_counter()
        again = self._detect_at_size(frame, picture, (size,), self.far)
        timing["fitted_ms"] = (time.perf_counter() - t0) * 1000
        self.last_timing = timing
        return _with_first_faces(again, detections)

    def _smoothed_if_surer(self, frame: np.ndarray, picture: np.ndarray, detections: list[TileDetection]
                           ) -> tuple[np.ndarray, np.ndarray, list[TileDetection]]:
        """A grainy frame read again smoothed (:mod:`scorer.vision.grain`): that reading, and the frame and
        picture it came from, where more faces are read surely in it and none read surely before is lost
        or read otherwise; else the first."""
        timing, t0 = self.last_timing, time.perf_counter()
        calm = smoothed(frame)
        calm_picture = self.reader.picture(calm)
        calm_detections = self._detect_at_size(calm, calm_picture, session=self._fitted())
        timing["grain_ms"] = (time.perf_counter() - t0) * 1000
        self.last_timing = timing
        mine, calm_sure = _sure_faces(detections), _sure_faces(calm_detections)
        # (Only a reading that keeps every tile read surely as it was: a false box gained is no gain.)
        if len(calm_sure) > len(mine) and all(_kept(d, calm_sure) for d in mine):
            return calm, calm_picture, calm_detections
        return frame, picture, detections

    def _detect_at_size(self, frame: np.ndarray, picture: np.ndarray, sizes: Sequence[int] | None = None,
                        session: Any = None) -> list[TileDetection]:
        """The tiles found at the current input size (or ``sizes``), by ``session`` (the far detector) where given, and
        by the close-up search, read."""
        sizes = self.sizes if sizes is None else sizes
        t0 = time.perf_counter()
        candidates = self.candidates(frame, sizes, session)
        t1 = time.perf_counter()
        read = ReadOnce(self.reader.read)
        detections = read_tiles(picture, candidates, read, self.iou)
        t2 = time.perf_counter()
        searched = 0.0
        if self.search and self._looks_close(detections, frame, sizes):
            close = self.close_candidates(frame, sizes)  # (large tiles: the usual detector's, whatever read the rest)
            searched = (time.perf_counter() - t2) * 1000
            if close:
                both = sorted(candidates + close, key=lambda b: -b.score)
                detections = read_tiles(picture, both, read, self.iou)
        detections = laid_backs_as_faces(blank_or_back(frame, detections))
        self.last_timing = {"detect_ms": (t1 - t0) * 1000, "read_ms": (time.perf_counter() - t1) * 1000 - searched,
                            "search_ms": searched}
        return detections

    def _size_for(self, frame: np.ndarray, detections: Sequence[TileDetection]) -> int:
        """The input size for this frame's tiles (:func:`fitted_input_size`).  Where the current size reads
        too few surely to fit it to (one tile, or none, and not a close-up's) the model also looks at the
        largest size: a far camera's tiles, most of them missed at the usual size, are found there, and the
        size follows them where FAR_LOOK_TILES or more are."""
        lengths = [long_side(d.corners) for d in detections]
        frame_side = max(frame.shape[:2])
        close = bool(lengths) and lengths[0] * INPUT_SIZE / frame_side >= LARGE_IN_INPUT
        # (Boxes read unsurely do not count: a far camera's tiles, 9 px in the usual input, give boxes
        # across two of them at most.)
        sure = sum(d.certain for d in detections)
        if sure < 2 and not close and self.size < LARGEST_INPUT_SIZE:
            far = rotated_nms(self._one_look(frame, LARGEST_INPUT_SIZE, self.far), self.iou)
            if len(far) >= FAR_LOOK_TILES:
                lengths = [long_side(b.corners) for b in far]
        size = fitted_input_size(lengths, frame_side, self.size)
        if not lengths and self.size < INPUT_SIZE:
            size = INPUT_SIZE  # (the camera has gone up again, or the tiles away: the usual size, and the search)
        return size

    def _looks_close(self, detections: Sequence[TileDetection], frame: np.ndarray, sizes: Sequence[int]) -> bool:
        """Whether the tiles found may be only part of what a close camera shows (:data:`SEARCH_SIZES`)."""
        if len(detections) < FEW_TILES:
            return True
        scale = min(sizes) / max(frame.shape[:2])
        return float(np.median([long_side(d.corners) for d in detections])) * scale >= LARGE_IN_INPUT

    def close_candidates(self, frame: np.ndarray, sizes: Sequence[int] | None = None) -> list[Box]:
        """Boxes too long for the usual input size (the smallest of ``sizes``, or of this detector's) to find,
        from looks at SEARCH_SIZES smaller than it."""
        usual = min(self.sizes if sizes is None else sizes)
        floor = SEARCH_FROM_INPUT_PX * max(frame.shape[:2]) / usual  # (px in the frame)
        found: list[Box] = []
        for size in SEARCH_SIZES:
            if size >= usual:
                continue
            found += [b for b in self._one_look(frame, size) if long_side(b.corners) >= floor]
        return found

    def _one_look(self, frame: np.ndarray, size: int, session: Any = None) -> list[Box]:
        """The boxes above the score threshold at one more input size, unmirrored (before the NMS)."""
        blob, box = letterbox(frame, size, self.stride)
        output = (session or self.session).run(None, {self.input_name: blob})
        return decode(output, self.n_classes, box, self.conf, blob.shape[2:])


def _with_first_faces(again: Sequence[TileDetection], first: Sequence[TileDetection]) -> list[TileDetection]:
    """A second reading of a frame, keeping what the first read as a face: where the second sees a back, or
    only a face it asks about, in the place of a face (of one read surely), that face; and the faces the
    first read surely where the second found nothing.  (A black double blank, plain as a back, can pass for
    one at a larger size; a tile read surely once is not lost to a second look without a word.)"""
    faces = [f for f in first if f.face == "up"]
    taken: set[int] = set()
    out = []
    for d in again:
        unsure = d.face == "down" or d.maybe_back or d.unread
        k = next((k for k, f in enumerate(faces) if k not in taken and _same_place(f, d)), None) if unsure else None
        if k is not None and (d.face == "down" or faces[k].certain):
            taken.add(k)
            d = faces[k]
        out.append(d)
    out += [f for f in _sure_faces(faces) if not any(_same_place(f, d) for d in again)]
    return settled(out)


def _sure_faces(detections: Sequence[TileDetection]) -> list[TileDetection]:
    return [d for d in detections if d.face == "up" and d.certain and not d.maybe_back and not d.unread]


def _kept(tile: TileDetection, others: Sequence[TileDetection]) -> bool:
    """Whether one of ``others`` lies where ``tile`` does, read as it is."""
    return any(o.pips == tile.pips and _same_place(tile, o) for o in others)


def _same_place(one: TileDetection, other: TileDetection) -> bool:
    return polygon_iou(np.asarray(one.corners), np.asarray(other.corners)) >= 0.5
