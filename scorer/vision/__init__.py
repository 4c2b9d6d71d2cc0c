"""The camera side: images and frames, the ONNX tile detector and pip reader, geometry of tiles."""

from scorer.vision.detector import Detector, HalfReading, TileDetection, TileDetector
from scorer.vision.images import check_frame, load_image

__all__ = ["Detector", "HalfReading", "TileDetection", "TileDetector", "check_frame", "load_image"]
