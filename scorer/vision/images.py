"""Loading images from files with clear errors: missing, empty, truncated, not an image, too big."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from scorer.errors import ImageError

MAX_BYTES = 200 * 1024 * 1024
MAX_PIXELS = 50_000_000  # ~ 8K x 6K; a webcam frame is far below


def _truncation(data: bytes) -> str | None:
    if data[:3] == b"\xff\xd8\xff":
        # A JPEG ends with the EOI marker (some writers pad after it).
        if b"\xff\xd9" not in data[-1024:]:
            return "the JPEG data stops before its end marker (truncated file)"
    elif data[:8] == b"\x89PNG\r\n\x1a\n":
        if b"IEND" not in data[-64:]:
            return "the PNG data stops before its IEND chunk (truncated file)"
    return None


def load_image(path: str | Path) -> np.ndarray:
    """A BGR uint8 image, or :class:`ImageError` saying what is wrong with the file."""
    path = Path(path)
    try:
        size = path.stat().st_size
    except FileNotFoundError:
        raise ImageError(f"{path}: no such file") from None
    except OSError as exc:
        raise ImageError(f"{path}: cannot read: {exc.strerror}") from None
    if path.is_dir():
        raise ImageError(f"{path}: is a folder, not an image")
    if size == 0:
        raise ImageError(f"{path}: the file is empty")
    if size > MAX_BYTES:
        raise ImageError(f"{path}: {size / 2**20:.0f} MiB is too big for an image (at most {MAX_BYTES // 2**20} MiB)")
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise ImageError(f"{path}: cannot read: {exc.strerror}") from None
    problem = _truncation(data)
    if problem:
        raise ImageError(f"{path}: {problem}")
    header = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_REDUCED_GRAYSCALE_8)
    if header is None:
        raise ImageError(f"{path}: not an image OpenCV can read (expected JPEG, PNG, BMP, TIFF or WebP)")
    if header.shape[0] * header.shape[1] * 64 > MAX_PIXELS:
        raise ImageError(f"{path}: about {header.shape[1] * 8} x {header.shape[0] * 8} px is too large (at most {MAX_PIXELS // 10**6} megapixels)")
    image = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
    if image is None:
        raise ImageError(f"{path}: the image data is damaged")
    return image


def check_frame(frame: object) -> np.ndarray:
    """A frame from a camera or video must be a non-empty BGR (or grey) uint8 array."""
    if not isinstance(frame, np.ndarray) or frame.dtype != np.uint8 or frame.ndim not in (2, 3) or frame.size == 0:
        found = f"an array of {frame.dtype}, shape {frame.shape}" if isinstance(frame, np.ndarray) else type(frame).__name__
        raise ImageError(f"expected a non-empty uint8 image array, found {found}")
    if frame.ndim == 2:
        return cv2.cvtColor(frame, cv2.COLOR_GRAY2BGR)
    if frame.shape[2] == 4:
        return cv2.cvtColor(frame, cv2.COLOR_BGRA2BGR)
    if frame.shape[2] != 3:
        raise ImageError(f"expected 1, 3 or 4 colour channels, found {frame.shape[2]}")
    return frame
