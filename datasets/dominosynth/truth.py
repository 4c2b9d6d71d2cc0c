"""A detector that knows the truth: the tiles a generated video shows, frame by frame.

It lets the pipeline be tested and measured without a model, and separates the
pipeline's own mistakes from the detector's.
"""

from __future__ import annotations

import bisect
import json
from pathlib import Path
from typing import Iterator

import numpy as np

from scorer.pipeline.sources import Frame, FrameSource
from scorer.vision.detector import HalfReading, TileDetection
from scorer.vision.geometry import half_centers, long_first


class TruthDetector:
    def __init__(self, labels: Path) -> None:
        self.starts: list[int] = []
        self.tiles: list[list[TileDetection]] = []
        for line in labels.read_text().splitlines():
            if not line.strip():
                continue
            data = json.loads(line)
            self.starts.append(data["from_frame"])
            self.tiles.append([_detection(t) for t in data["tiles"]])
        self.frame = 0

    def detect(self, image: np.ndarray) -> list[TileDetection]:
        k = bisect.bisect_right(self.starts, self.frame) - 1
        return list(self.tiles[k]) if k >= 0 else []

    def follow(self, source: FrameSource) -> FollowingSource:
        return FollowingSource(source, self)


class FollowingSource:
    """A frame source that tells the truth detector which frame is being read."""

    def __init__(self, source: FrameSource, detector: TruthDetector) -> None:
        self.source = source
        self.detector = detector
        self.fps = source.fps

    def frames(self) -> Iterator[Frame]:
        for frame in self.source.frames():
            self.detector.frame = frame.index
            yield frame


def _detection(label: dict) -> TileDetection:
    corners = long_first(np.array(label["corners"], np.float64))
    as_tuple = tuple((float(x), float(y)) for x, y in corners)
    if label["values"] is None:
        return TileDetection(as_tuple, "down", 1.0)
    first, second = half_centers(corners)
    a, b = label["values"]
    return TileDetection(as_tuple, "up", 1.0, (HalfReading(a, tuple(first), 1.0), HalfReading(b, tuple(second), 1.0)))
