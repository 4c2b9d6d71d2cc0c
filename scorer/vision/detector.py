"""From a frame to every tile with its corners, face and pips: YOLO oriented boxes, then a pip reader that also checks each box."""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Callable, Protocol, Sequence

import cv2
import numpy as np

from scorer.errors import ModelError
from scorer.vision.geometry import half_centers, long_first, long_side, polygon_iou, rectify
from scorer.vision.grain import grainy, smoothed
from scorer.vision.images import check_frame
from scorer.vision.input_sizes import (  # (re-exported: the tools and tests import the sizes from here)
    CLOSE_TILE_INPUT_PX as CLOSE_TILE_INPUT_PX, FOLLOW_SLACK as FOLLOW_SLACK, INPUT_SIZE as INPUT_SIZE,
    LARGE_IN_INPUT as LARGE_IN_INPUT, LARGEST_INPUT_SIZE as LARGEST_INPUT_SIZE, SMALLEST_INPUT_SIZE as SMALLEST_INPUT_SIZE,
    STRIDE as STRIDE, TILE_INPUT_PX as TILE_INPUT_PX, fitted_input_size as fitted_input_size,
)
from scorer.vision.obb import Box, agreed, decode, full_rows, letterbox, mirrored_back, rotated_nms
from scorer.vision.reader import BACK, NOT_A_HALF, PipReader, onnx_session, output_size
from scorer.vision.plain_backs import blank_or_back, laid_backs_as_faces
from scorer.vision.surface import BLOWN, WEAK_BACK, bare_table
from scorer.vision.tile_detection import (  # (re-exported: the pipeline and the tools import the tile's types from here)
    CERTAIN as CERTAIN, SMALL_FOR_A_BLANK_PX as SMALL_FOR_A_BLANK_PX, SMALL_TILE_PX as SMALL_TILE_PX, SURE_BLANK as SURE_BLANK,
    Face, HalfReading as HalfReading, TileDetection as TileDetection, settled, too_small_to_read as too_small_to_read,
)

CLASS_FACES: tuple[Face, ...] = ("up", "down")
# A candidate box this close to one the reader refused is the same box: not read again.
SAME_BOX = 0.7
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


# Other readings of a half kept when at least this likely (for the rules to choose among).
ALTERNATIVE = 0.02


class Detector(Protocol):
    """Anything that finds tiles in a BGR frame (the ONNX models, or a fake in tests)."""

    def detect(self, frame: np.ndarray) -> list[TileDetection]: ...


def default_models_dir() -> Path:
    env = os.environ.get("SCORER_MODELS")
    return Path(env) if env else Path(__file__).resolve().parents[2] / "models"


class TileDetector:
    """The shipped models: ``detector.onnx`` (oriented boxes) and ``reader.onnx`` (the pips of each box, or no tile)."""

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
        self.session = onnx_session(path, threads, "tile detector")
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
        self.reader = PipReader(models_dir / "reader.onnx", threads=threads, turned=read_turned,
                                second=second if second.exists() else None)
        self.conf = conf
        self.iou = iou
        self.mirrored = mirrored
        if follow_tiles and (self.stride is None or len(self.sizes) > 1):
            raise ModelError(f"following the tiles' size needs one input size of a dynamic model, found {self.sizes}")
        self.follow_tiles = follow_tiles
        # Close-ups (SEARCH_SIZES): a dynamic model only.
        self.search = search and self.stride is not None
        self.last_timing: dict[str, float] = {}

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

    def candidates(self, frame: np.ndarray) -> list[Box]:
        """Every box above the score threshold, at every input size, best first (before the NMS)."""
        found: list[Box] = []
        for size in self.sizes:
            blob, box = letterbox(frame, size, self.stride)
            output = self.session.run(None, {self.input_name: blob})
            if not self.mirrored:
                found += decode(output, self.n_classes, box, self.conf, blob.shape[2:])
                continue
            output_mirrored = self.session.run(None, {self.input_name: np.ascontiguousarray(blob[..., ::-1])})
            plain = decode(output, self.n_classes, box, MIRROR_LOW, blob.shape[2:])
            mirrored_rows = mirrored_back(full_rows(output_mirrored, self.n_classes, blob.shape[2:]), self.n_classes, blob.shape[3])
            mirrored = decode(mirrored_rows, self.n_classes, box, MIRROR_LOW)
            found += agreed(plain, mirrored, self.conf) + agreed(mirrored, plain, self.conf)
        if len(self.sizes) > 1 or self.mirrored:
            found.sort(key=lambda b: -b.score)  # best first over all sizes and looks, for the NMS
        return found

    def boxes(self, frame: np.ndarray) -> list[Box]:
        return rotated_nms(self.candidates(frame), self.iou)

    def detect(self, frame: np.ndarray) -> list[TileDetection]:
        frame = check_frame(frame)
        t0 = time.perf_counter()
        # (The frame as the reader reads it, made once: it may be read twice.)
        picture = self.reader.picture(frame)
        picture_ms = (time.perf_counter() - t0) * 1000
        detections = self._detect_at_size(frame, picture)
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
                detections = self._detect_at_size(frame, picture)
                timing["again_ms"] = (time.perf_counter() - t2) * 1000
            self.last_timing = timing
        return detections

    def _smoothed_if_surer(self, frame: np.ndarray, picture: np.ndarray, detections: list[TileDetection]
                           ) -> tuple[np.ndarray, np.ndarray, list[TileDetection]]:
        """A grainy frame read again smoothed (:mod:`scorer.vision.grain`): that reading, and the frame and
        picture it came from, where more faces are read surely in it and none read surely before is lost
        or read otherwise; else the first."""
        timing, t0 = self.last_timing, time.perf_counter()
        calm = smoothed(frame)
        calm_picture = self.reader.picture(calm)
        calm_detections = self._detect_at_size(calm, calm_picture)
        timing["grain_ms"] = (time.perf_counter() - t0) * 1000
        self.last_timing = timing
        mine, calm_sure = _sure_faces(detections), _sure_faces(calm_detections)
        # (Only a reading that keeps every tile read surely as it was: a false box gained is no gain.)
        if len(calm_sure) > len(mine) and all(_kept(d, calm_sure) for d in mine):
            return calm, calm_picture, calm_detections
        return frame, picture, detections

    def _detect_at_size(self, frame: np.ndarray, picture: np.ndarray) -> list[TileDetection]:
        """The tiles found at the current input size (and by the close-up search), read."""
        t0 = time.perf_counter()
        candidates = self.candidates(frame)
        t1 = time.perf_counter()
        detections = read_tiles(picture, candidates, self.reader.read, self.iou)
        t2 = time.perf_counter()
        searched = 0.0
        if self.search and self._looks_close(detections, frame):
            close = self.close_candidates(frame)
            searched = (time.perf_counter() - t2) * 1000
            if close:
                both = sorted(candidates + close, key=lambda b: -b.score)
                detections = read_tiles(picture, both, self.reader.read, self.iou)
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
            far = rotated_nms(self._one_look(frame, LARGEST_INPUT_SIZE), self.iou)
            if len(far) >= FAR_LOOK_TILES:
                lengths = [long_side(b.corners) for b in far]
        size = fitted_input_size(lengths, frame_side, self.size)
        if not lengths and self.size < INPUT_SIZE:
            size = INPUT_SIZE  # (the camera has gone up again, or the tiles away: the usual size, and the search)
        return size

    def _looks_close(self, detections: Sequence[TileDetection], frame: np.ndarray) -> bool:
        """Whether the tiles found may be only part of what a close camera shows (:data:`SEARCH_SIZES`)."""
        if len(detections) < FEW_TILES:
            return True
        scale = min(self.sizes) / max(frame.shape[:2])
        return float(np.median([long_side(d.corners) for d in detections])) * scale >= LARGE_IN_INPUT

    def close_candidates(self, frame: np.ndarray) -> list[Box]:
        """Boxes too long for the usual input size to find, from looks at SEARCH_SIZES smaller than it."""
        usual = min(self.sizes)
        floor = SEARCH_FROM_INPUT_PX * max(frame.shape[:2]) / usual  # (px in the frame)
        found: list[Box] = []
        for size in SEARCH_SIZES:
            if size >= usual:
                continue
            found += [b for b in self._one_look(frame, size) if long_side(b.corners) >= floor]
        return found

    def _one_look(self, frame: np.ndarray, size: int) -> list[Box]:
        """The boxes above the score threshold at one more input size, unmirrored (before the NMS)."""
        blob, box = letterbox(frame, size, self.stride)
        output = self.session.run(None, {self.input_name: blob})
        return decode(output, self.n_classes, box, self.conf, blob.shape[2:])


def _sure_faces(detections: Sequence[TileDetection]) -> list[TileDetection]:
    return [d for d in detections if d.face == "up" and d.certain and not d.maybe_back and not d.unread]


def _kept(tile: TileDetection, others: Sequence[TileDetection]) -> bool:
    """Whether one of ``others`` lies where ``tile`` does, read as it is."""
    return any(o.pips == tile.pips and polygon_iou(np.asarray(tile.corners), np.asarray(o.corners)) >= 0.5 for o in others)


def read_tiles(
    frame: np.ndarray,
    boxes: Sequence[Box],
    read_pips: Callable[[np.ndarray, list[np.ndarray]], np.ndarray],
    nms_iou: float | None = None,
) -> list[TileDetection]:
    """Pair each box with the readings of its two halves (``read_pips``: the frame, colour or grey, and
    the boxes' corners -> [N, 2, C] probabilities, as :meth:`PipReader.read`).

    With ``nms_iou``, ``boxes`` are all the candidates, best first: they are thinned by the rotated NMS,
    read, and where the reader finds no tile under a kept box (most often a box lying across two tiles
    side by side), the candidates that box suppressed get a second look -- thinned again and read,
    beside the boxes already taken -- so the tiles under it are not lost with it."""
    if nms_iou is None:
        return settled([d for d in _read_boxes(frame, boxes, read_pips) if d is not None])
    kept = rotated_nms(list(boxes), nms_iou)
    read = _read_boxes(frame, kept, read_pips)
    # (Only a face-up box can be refused: a back is taken as it is, or as the face the reader sees on it.)
    taken = [b for b, d in zip(kept, read) if d is not None]
    refused = [b for b, d in zip(kept, read) if d is None]
    out = [d for d in read if d is not None]
    if refused:
        chosen = {id(b) for b in kept}
        # Not the refused box again (a near copy of it is read the same), nor one a taken box suppressed.
        again = [
            b for b in boxes
            if id(b) not in chosen
            and not any(polygon_iou(b.corners, r.corners) > SAME_BOX for r in refused)
            and not any(polygon_iou(b.corners, k.corners) > nms_iou for k in taken)
        ]
        second = rotated_nms(again, nms_iou)
        out += [d for d in _read_boxes(frame, second, read_pips) if d is not None]
    return settled(out)


def _read_boxes(
    frame: np.ndarray, boxes: Sequence[Box], read_pips: Callable[[np.ndarray, list[np.ndarray]], np.ndarray]
) -> list[TileDetection | None]:
    """Each box's tile, None where the reader finds both halves "not a half" (a box on no tile).

    The reader checks the detector's call of face or back.  The detector tells faces from backs mostly
    by the pips and a painted divider, so a face showing little (a blank or a one on a half, a divider
    only engraved) can pass for a back: where the reader sees a face on such a box, it is one
    (:func:`_face_on_a_back`).  A reader with a "back" class (the shipped one) also turns a face-up box
    it reads as a back into one; an older reader, which has never seen a back, is trusted with a back's
    pips only where it sees one or more surely (a blank double then still reads as a back: the pipeline
    looks for its divider where the game allows one)."""
    if not boxes:
        return []
    probs = read_pips(frame, [b.corners for b in boxes]).reshape(len(boxes), 2, -1)
    knows_backs = probs.shape[-1] > BACK
    out: list[TileDetection | None] = []
    for b, (p_first, p_second) in zip(boxes, probs):
        corners = long_first(b.corners)
        as_tuple = tuple((float(x), float(y)) for x, y in corners)
        back = knows_backs and p_first[BACK] > 0.5 and p_second[BACK] > 0.5
        if back or (CLASS_FACES[b.cls] == "down" and not _face_on_a_back(p_first, p_second, knows_backs)):
            if b.score < WEAK_BACK and bare_table(frame, corners, [o.corners for o in boxes if o is not b]):
                out.append(None)  # a weak back where nothing stands out from the table: no tile
                continue
            if not (knows_backs and _some_pips_left(p_first, p_second) and (not back or washed_out(frame, corners))):
                out.append(TileDetection(as_tuple, "down", b.score))
                continue
            # A face whose pips a highlight has washed out looks like a back, and a back the detector sees
            # where the reader sees one on neither half surely and on one not even likely, with pips
            # likelier than no tile, may be a face showing little: a face read with no count on either
            # half (the players are asked), not a back.
            halves = []
            for p, c in zip((p_first, p_second), half_centers(corners)):
                ranked = np.argsort(-p[:NOT_A_HALF])
                pips = int(ranked[0])
                halves.append(HalfReading(pips, (float(c[0]), float(c[1])), min(float(p[pips]), WASHED_CONFIDENCE),
                                          tuple((int(k), float(p[k])) for k in ranked[1:3] if p[k] >= ALTERNATIVE)))
            out.append(TileDetection(as_tuple, "up", b.score, (halves[0], halves[1])))
            continue
        if p_first[NOT_A_HALF] > 0.5 and p_second[NOT_A_HALF] > 0.5:
            out.append(None)  # the box is on the table, not on a tile
            continue
        halves = []
        for p, c in zip((p_first, p_second), half_centers(corners)):
            ranked = np.argsort(-p[:NOT_A_HALF])
            pips = int(ranked[0])
            others = tuple((int(k), float(p[k])) for k in ranked[1:3] if p[k] >= ALTERNATIVE)
            halves.append(HalfReading(pips, (float(c[0]), float(c[1])), float(p[pips]), others))
        out.append(TileDetection(as_tuple, "up", b.score, (halves[0], halves[1])))
    return out


# A reader that knows backs and gives each half of a box taken for a back at least this probability of
# being a face (some count of pips, not "back" nor "no tile") makes it a face; its pips may still be
# unsure, and then the players are asked.  Lower, a real back becomes a face (docs/experiments.md,
# "FACE_ON_A_BACK and SHOWS_PIPS").
FACE_ON_A_BACK = 0.7
# A back shows no pips: a half read as one to six pips at least this likely is on a face, whatever the
# other half looks like (a [1|0] with an engraved divider: the blank half passes for a back).  No back
# in the held-out splits or the real photos reaches it (docs/experiments.md, same section).
SHOWS_PIPS = 0.7


# A highlight (a lamp on glossy tiles) can wash a face's pips out until the tile looks like a back.  A box
# about to be taken for a back whose crop is blown out (grey BLOWN or more) over WASHED_OUT of its area
# or more, whose reader reads neither half as a back at SURE_BACK, and a half rather as pips than no tile, is a face read with no
# count instead (both halves at WASHED_CONFIDENCE at most, below UNREAD): the players are asked.  Measured
# on held-out images with a synthetic highlight laid over one tile (benchmarks/evaluate_highlight.py):
# the faces taken silently for backs were mostly detector-class backs the reader was unsure of; the held-out
# backs the reader is unsure of are seldom blown out.  A tile blown out wholly, read as a back by both models,
# shows nothing to tell the two apart, and stays a back.
WASHED_OUT = 0.5
SURE_BACK = 0.7
WASHED_CONFIDENCE = 0.1


def _some_pips_left(p_first: np.ndarray, p_second: np.ndarray) -> bool:
    """Whether the reader reads neither half as a back surely (both under :data:`SURE_BACK`), and a half
    rather as some count of pips than as no tile."""
    return (all(p[BACK] < SURE_BACK for p in (p_first, p_second))
            and any(float(p[:NOT_A_HALF].sum()) > p[NOT_A_HALF] for p in (p_first, p_second)))


def washed_out(picture: np.ndarray, corners: np.ndarray) -> bool:
    """Whether the tile at ``corners`` is blown out (:data:`BLOWN`) over :data:`WASHED_OUT` of its area or more."""
    grey = cv2.cvtColor(picture, cv2.COLOR_BGR2GRAY) if picture.ndim == 3 else picture
    crop, _ = rectify(grey, np.asarray(corners, np.float64))
    return float((crop >= BLOWN).mean()) >= WASHED_OUT


def _face_on_a_back(p_first: np.ndarray, p_second: np.ndarray, knows_backs: bool) -> bool:
    """Whether a box the detector took for a back shows a face.  A reader that knows backs says so by
    the probability of pips on both halves (:data:`FACE_ON_A_BACK`), or of one to six pips on one
    (:data:`SHOWS_PIPS`); an older one, which has never seen a back, only by reading one or more pips
    surely (none of the held-out splits' 828 backs read so)."""
    if knows_backs:
        on_both = all(float(p[:NOT_A_HALF].sum()) >= FACE_ON_A_BACK for p in (p_first, p_second))
        return on_both or any(float(p[1:NOT_A_HALF].max()) >= SHOWS_PIPS for p in (p_first, p_second))
    pips = [int(np.argmax(p[:NOT_A_HALF])) for p in (p_first, p_second)]
    certain = all(p[k] >= CERTAIN and p[NOT_A_HALF] < 0.5 for p, k in zip((p_first, p_second), pips))
    return certain and sum(pips) >= 1
