"""Capture and inference off the GUI thread: a worker that feeds frames to the pipeline."""

from __future__ import annotations

import queue
import threading
import time
from typing import Sequence

from PySide6.QtCore import QObject, Signal

from scorer.errors import ScorerError
from scorer.pipeline import TablePipeline
from scorer.pipeline.sources import FrameSource
from scorer.rules import Event, Match
from scorer.app.liveview import to_qimage


class PipelineWorker(QObject):
    """Runs in its own QThread; the GUI talks to it through a queue, it answers with signals."""

    frame = Signal(object)  # QImage
    view = Signal(object)  # TableView
    events = Signal(list)  # list of PipelineEvent
    failed = Signal(str)
    finished = Signal()

    def __init__(self, source: FrameSource, pipeline: TablePipeline, realtime: bool = True, display_fps: float = 15.0) -> None:
        super().__init__()
        self.source = source
        self.pipeline = pipeline
        self.realtime = realtime
        self.display_interval = 1.0 / display_fps
        self._requests: queue.Queue = queue.Queue()
        self._stop = False
        self._running = threading.Event()
        self._running.set()
        self._seek_to: float | None = None
        self.position = 0.0  # seconds into the recording

    @property
    def seekable(self) -> bool:
        import inspect

        return "start" in inspect.signature(self.source.frames).parameters

    def pause(self, paused: bool) -> None:
        if paused:
            self._running.clear()
        else:
            self._running.set()

    def seek(self, seconds: float, match: Match) -> None:
        """Go to ``seconds`` into the recording with the match as it stood then."""
        self._requests.put(("match", match))
        self._seek_to = seconds
        self._running.set()

    # Requests from the GUI thread (thread-safe).
    def stop(self) -> None:
        self._stop = True
        stop = getattr(self.source, "stop", None)
        if stop is not None:
            stop()

    def correct(self, events: Sequence[Event]) -> None:
        self._requests.put(("events", tuple(events)))

    def correct_tile(self, center: tuple[float, float], tile) -> None:
        self._requests.put(("tile", (center, tile)))

    def replace_match(self, match: Match) -> None:
        self._requests.put(("match", match))

    def _drain(self, t: float) -> None:
        while True:
            try:
                kind, payload = self._requests.get_nowait()
            except queue.Empty:
                return
            try:
                if kind == "events":
                    self.events.emit(self.pipeline.confirm(payload, t))
                elif kind == "tile":
                    self.events.emit(self.pipeline.correct_reading(payload[0], payload[1], t))
                elif kind == "match":
                    self.pipeline.match = payload
                    self.pipeline.gate.force_reread()
            except ScorerError as exc:
                self.failed.emit(str(exc))

    def run(self) -> None:
        start_frame = 0
        try:
            while True:
                if not self._play(start_frame):
                    break
                # A seek: start again from there.
                start_frame = int(round((self._seek_to or 0.0) * self.source.fps))
                self._seek_to = None
            # Corrections made after the last frame still count.
            self._drain(0.0)
        except ScorerError as exc:
            self.failed.emit(str(exc))
        finally:
            self.finished.emit()

    def _play(self, start_frame: int) -> bool:
        """Play frames from ``start_frame``; True if it stopped for a seek."""
        start = time.monotonic() - start_frame / self.source.fps
        last_display = 0.0
        frames = self.source.frames(start_frame) if start_frame else self.source.frames()
        for frame in frames:
            if self._stop:
                return False
            if self._seek_to is not None:
                return True
            if not self._running.is_set():
                paused_at = time.monotonic()
                while not self._running.wait(0.1):
                    if self._stop:
                        return False
                start += time.monotonic() - paused_at
                if self._seek_to is not None:
                    return True
            self.position = frame.t
            self._drain(frame.t)
            events = self.pipeline.feed(frame)
            if events:
                self.events.emit(events)
                self.view.emit(self.pipeline.view)
            now = time.monotonic()
            if now - last_display >= self.display_interval:
                last_display = now
                self.frame.emit(to_qimage(frame.image))
            if self.realtime:
                # A recording plays at its own pace (a camera gives frames at its pace anyway).
                ahead = frame.t - (time.monotonic() - start)
                if ahead > 0:
                    time.sleep(ahead)
        return self._seek_to is not None
