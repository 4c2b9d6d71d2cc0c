"""Frame sources behind one small interface: a webcam, a video file, a folder of images."""

from __future__ import annotations

import queue
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator, Protocol

import cv2
import numpy as np

from scorer.errors import SourceError as SourceError  # (defined in the one tree; imported from here too)
from scorer.vision.images import load_image
from scorer.words import Words


@dataclass(frozen=True, slots=True)
class Frame:
    index: int
    t: float  # seconds since the start of the source
    image: np.ndarray


class FrameSource(Protocol):
    fps: float

    def frames(self) -> Iterator[Frame]: ...


# A video's frames are decoded this many ahead of the one looked at, in a thread of their own: OpenCV
# lets go of Python's lock while it decodes, so on two cores the decoding costs a replay almost nothing.
READ_AHEAD = 4
_END = object()


def read_ahead(frames: Iterator[Frame], depth: int = READ_AHEAD) -> Iterator[Frame]:
    """``frames`` as they come: the first read here, the rest decoded in a thread of their own up to
    ``depth`` ahead (a look at one frame -- a seek in review -- starts no thread); an error raised there is
    raised here, and stopping early stops the thread (and closes ``frames`` there)."""
    try:
        first = next(frames, None)
        if first is None:
            return
        yield first
    except GeneratorExit:
        close = getattr(frames, "close", None)
        if close is not None:
            close()
        raise
    ready: queue.Queue[object] = queue.Queue(depth)
    stop = threading.Event()

    def hand_over(item: object) -> bool:
        while not stop.is_set():
            try:
                ready.put(item, timeout=0.05)
                return True
            except queue.Full:
                continue
        return False

    def decode() -> None:
        try:
            for frame in frames:
                if not hand_over(frame):
                    break
            else:
                hand_over(_END)
        except BaseException as exc:  # (handed to the reader, raised there)
            hand_over(exc)
        finally:
            close = getattr(frames, "close", None)
            if close is not None:
                close()

    thread = threading.Thread(target=decode, name="read-ahead", daemon=True)
    thread.start()
    try:
        while True:
            item = ready.get()
            if item is _END:
                return
            if isinstance(item, BaseException):
                raise item
            assert isinstance(item, Frame)
            yield item
    finally:
        stop.set()
        thread.join(timeout=2.0)


class VideoFile:
    """Frames of a video file; a truncated file ends early with a warning, a size change is an error."""

    def __init__(self, path: str | Path, step: int = 1) -> None:
        self.path = Path(path)
        if not self.path.is_file():
            raise SourceError(f"{self.path}: no such video file")
        if self.path.stat().st_size == 0:
            raise SourceError(f"{self.path}: the video file is empty")
        cap = cv2.VideoCapture(str(self.path))
        if not cap.isOpened():
            raise SourceError(f"{self.path}: not a video OpenCV can read")
        self.fps = float(cap.get(cv2.CAP_PROP_FPS)) or 30.0
        self.frame_count = int(cap.get(cv2.CAP_PROP_FRAME_COUNT))
        self.size = (int(cap.get(cv2.CAP_PROP_FRAME_WIDTH)), int(cap.get(cv2.CAP_PROP_FRAME_HEIGHT)))
        cap.release()
        self.step = max(1, step)
        self.ended_early = False

    @property
    def duration(self) -> float:
        return self.frame_count / self.fps if self.fps else 0.0

    def frames(self, start: int = 0) -> Iterator[Frame]:
        """Frames from ``start`` (a frame number) to the end, decoded ahead (:func:`read_ahead`)."""
        return read_ahead(self._decoded(start))

    def _decoded(self, start: int) -> Iterator[Frame]:
        cap = cv2.VideoCapture(str(self.path))
        index = 0
        if start > 0:
            cap.set(cv2.CAP_PROP_POS_FRAMES, start)
            index = int(cap.get(cv2.CAP_PROP_POS_FRAMES)) or start
        try:
            while True:
                if index % self.step:
                    if not cap.grab():
                        break
                    index += 1
                    continue
                ok, image = cap.read()
                if not ok or image is None:
                    break
                if (image.shape[1], image.shape[0]) != self.size:
                    raise SourceError(
                        f"{self.path}: the frame size changed at frame {index} "
                        f"from {self.size[0]}x{self.size[1]} to {image.shape[1]}x{image.shape[0]}"
                    )
                yield Frame(index, index / self.fps, image)
                index += 1
        finally:
            cap.release()
        if self.frame_count and index < self.frame_count - 2:
            self.ended_early = True


# In a recording's video folder: the frames written while the camera gave none (a frame number, and the one
# after the last such, a line each) -- copies of the frame before, skipped when it is read.
GAPS_FILE = "gaps.txt"


class SegmentedVideo:
    """A recording written as consecutive segment files (``video/000000.avi``, ...), read as one video."""

    def __init__(self, folder: str | Path, step: int = 1) -> None:
        self.folder = Path(folder)
        self.segments = sorted(p for p in self.folder.glob("*.avi") if p.stat().st_size > 0)
        if not self.segments:
            raise SourceError(f"{self.folder}: no video segments (*.avi) in the folder")
        first = VideoFile(self.segments[0], step)
        self.fps, self.size, self.step = first.fps, first.size, step
        self.counts = [max(0, int(cv2.VideoCapture(str(p)).get(cv2.CAP_PROP_FRAME_COUNT))) for p in self.segments]
        self.frame_count = sum(self.counts)
        self.ended_early = False
        gaps = self.folder / GAPS_FILE
        lines = [line.split() for line in gaps.read_text(encoding="utf-8").splitlines()] if gaps.exists() else []
        self.gaps = [(int(a), int(b)) for a, b in (p for p in lines if len(p) == 2 and all(n.isdigit() for n in p))]  # (a torn line: none)

    @property
    def duration(self) -> float:
        return self.frame_count / self.fps if self.fps else 0.0

    def frames(self, start: int = 0) -> Iterator[Frame]:
        """Frames from ``start`` (a frame number of the whole recording) to the end."""
        offset = 0
        for path, count in zip(self.segments, self.counts):
            if start >= offset + count > offset:
                offset += count  # the seek lands in a later segment
                continue
            try:
                video = VideoFile(path, self.step)
            except SourceError:
                self.ended_early = True  # a segment cut short by a crash
                break
            if video.size != self.size:
                raise SourceError(f"{path}: the frame size changed from {self.size[0]}x{self.size[1]} to {video.size[0]}x{video.size[1]}")
            last = -1
            for frame in video.frames(max(0, start - offset)):
                last = frame.index
                index = offset + frame.index
                if not any(a <= index < b for a, b in self.gaps):
                    yield Frame(index, index / self.fps, frame.image)
            # The header's count, not the last frame yielded: with a step the last frames are skipped.
            offset += count or last + 1


def open_video(path: str | Path, step: int = 1) -> VideoFile | SegmentedVideo:
    """A video file, or a recording's folder of segments."""
    path = Path(path)
    if path.is_dir():
        inner = path / "video"
        return SegmentedVideo(inner if inner.is_dir() else path, step)
    return VideoFile(path, step)


class ImageFolder:
    """Images of a folder in name order, as frames at ``fps``."""

    def __init__(self, folder: str | Path, fps: float = 2.0) -> None:
        self.folder = Path(folder)
        if not self.folder.is_dir():
            raise SourceError(f"{self.folder}: no such folder")
        self.paths = sorted(p for p in self.folder.iterdir() if p.suffix.lower() in {".jpg", ".jpeg", ".png", ".bmp", ".webp"})
        if not self.paths:
            raise SourceError(f"{self.folder}: no images in the folder")
        self.fps = fps

    def frames(self) -> Iterator[Frame]:
        for i, path in enumerate(self.paths):
            yield Frame(i, i / self.fps, load_image(path))


class NoCamera:
    """No frames at all: a match whose every move is entered by hand."""

    fps = 1.0

    def frames(self) -> Iterator[Frame]:
        return iter(())


class Camera:
    """A webcam by index, or a network camera by URL (a phone streaming RTSP or HTTP); if it drops
    out, it is reopened (the match goes on) until ``give_up_s``."""

    def __init__(self, index: int | str, width: int = 1280, height: int = 720, fps: float = 30.0, give_up_s: float = 30.0) -> None:
        self.index = index
        self.width, self.height, self.fps = width, height, fps
        self.give_up_s = give_up_s
        self.reconnects = 0
        self._stop = False
        self._cap: cv2.VideoCapture | None = None  # opened by connect(), for the frames to come
        if isinstance(index, str) and (Path(index).is_file() or Path(index).is_dir()):
            # (A video file is no camera: reopened at its end as a camera dropping out, it would play again;
            # a device node such as /dev/video0 is a camera.)
            raise SourceError(f"{index} is a file or folder, not a camera: `replay` scores a recorded game; "
                              "a camera is given by its number or a network camera's URL")

    def _open(self) -> cv2.VideoCapture | None:
        # OpenCV's own warnings on a missing device are not shown: the SourceError says what is wrong.
        level = cv2.utils.logging.getLogLevel()
        cv2.utils.logging.setLogLevel(cv2.utils.logging.LOG_LEVEL_SILENT)
        try:
            cap = cv2.VideoCapture(self.index)
        finally:
            cv2.utils.logging.setLogLevel(level)
        if not cap.isOpened():
            cap.release()
            return None
        cap.set(cv2.CAP_PROP_FRAME_WIDTH, self.width)
        cap.set(cv2.CAP_PROP_FRAME_HEIGHT, self.height)
        cap.set(cv2.CAP_PROP_FPS, self.fps)
        return cap

    def stop(self) -> None:
        self._stop = True

    def connect(self) -> None:
        """Open the camera now, for the frames to come (a :class:`SourceError` where it cannot be): a command
        checks its camera before it makes anything."""
        if self._cap is None:
            self._cap = self._open()
            if self._cap is None:
                raise SourceError(Words("camera {camera}: not found or cannot be opened", camera=self.index))

    def release(self) -> None:
        """Let the camera opened by :meth:`connect` go (its frames not wanted after all)."""
        if self._cap is not None:
            self._cap.release()
            self._cap = None

    def frames(self) -> Iterator[Frame]:
        # (A camera that will not open at first -- a phone not streaming yet as a match is resumed -- is waited for as
        # one that drops out is; a command that must not wait checks it with connect() first.)
        cap, self._cap = self._cap or self._open(), None
        start = time.monotonic()
        index = 0
        lost_since: float | None = None
        try:
            while not self._stop:
                ok, image = cap.read() if cap is not None else (False, None)
                if ok and image is not None:
                    lost_since = None
                    yield Frame(index, time.monotonic() - start, image)
                    index += 1
                    continue
                # The camera dropped out: keep the match, try to reopen it.
                now = time.monotonic()
                lost_since = lost_since or now
                if now - lost_since > self.give_up_s and index == 0:
                    raise SourceError(Words("camera {camera}: not found or cannot be opened", camera=self.index))
                if now - lost_since > self.give_up_s:
                    raise SourceError(Words("camera {camera}: no picture for {seconds} s; it stopped or was unplugged",
                                            camera=self.index, seconds=f"{self.give_up_s:.0f}"))
                if cap is not None:
                    cap.release()
                time.sleep(0.5)
                cap = self._open()
                self.reconnects += 1
        finally:
            if cap is not None:
                cap.release()
