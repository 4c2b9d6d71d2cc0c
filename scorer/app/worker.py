"""Capture and inference off the GUI thread: a worker that feeds frames to the pipeline.

The match lives in the pipeline's session; the window only asks (undo, redo, a correction, a seek)
and shows the :class:`Snapshot` the worker sends after every change."""

from __future__ import annotations

import inspect
import logging
import queue
import threading
import time
from dataclasses import dataclass, replace
from typing import Any, Callable, Iterable, Sequence

from PySide6.QtCore import QObject, Signal

from scorer.app.liveview import to_qimage
from scorer.errors import ScorerError
from scorer.pipeline import TablePipeline
from scorer.pipeline.events import MoveEvent
from scorer.pipeline.rewrite import OrderToPick
from scorer.pipeline.sources import Frame, FrameSource
from scorer.rules import Event, Match
from scorer.rules.history import MatchHistory
from scorer.rules.transcript import Step

_log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class Snapshot:
    """The session as it stands: the events in force, what a redo brings back, the match."""

    steps: tuple[Step, ...]
    undone: tuple[Step, ...]
    match: Match
    order: OrderToPick | None = None  # new tiles taken in an order unanswered, which the players may change

    @classmethod
    def of(cls, history: MatchHistory, order: OrderToPick | None = None) -> Snapshot:
        return cls(history.steps, history.undone, history.match, order)

    def at(self, seconds: float) -> tuple[int, Match]:
        """How many events were in force at ``seconds`` into the recording, and the match then."""
        count = sum(1 for s in self.steps if s.t is not None and s.t <= seconds + 1e-6)
        return count, self.steps[count - 1].after if count else (self.steps[0].before if self.steps else self.match)


class PipelineWorker(QObject):
    """Runs in its own QThread; the GUI talks to it through a queue, it answers with signals."""

    frame = Signal(object)  # QImage
    view = Signal(object)  # TableView
    events = Signal(list)  # list of PipelineEvent
    changed = Signal(object)  # Snapshot, after every change to the session
    reviewed = Signal(float)  # a frame of the recording shown for review, at these seconds
    failed = Signal(object)  # a ScorerError (its Words said again in the window) or a message
    finished = Signal(object)  # the play ended: None at the recording's end, else why it broke off (an exception)

    def __init__(self, source: FrameSource, pipeline: TablePipeline, realtime: bool = True, display_fps: float = 15.0,
                 start_seconds: float = 0.0) -> None:
        super().__init__()
        self.source = source
        self.pipeline = pipeline
        self.realtime = realtime
        self.display_interval = 1.0 / display_fps
        self._requests: queue.Queue[tuple[str, Any]] = queue.Queue()
        self._stop = False
        self._running = threading.Event()
        self._running.set()
        self._seek_to: float | None = start_seconds or None
        self.reviewing = False
        self._live_image = None  # the last frame shown live, shown again after a review
        self._playing = False
        self.position = start_seconds  # seconds into the recording

    @property
    def seekable(self) -> bool:
        return "start" in inspect.signature(self.source.frames).parameters

    # Requests from the GUI thread (thread-safe).
    def pause(self, paused: bool) -> None:
        if paused:
            self._running.clear()
        else:
            self._running.set()

    def stop(self) -> None:
        self._stop = True
        self._running.set()
        stop = getattr(self.source, "stop", None)
        if stop is not None:
            stop()

    def correct(self, events: Sequence[Event]) -> None:
        self._requests.put(("events", tuple(events)))

    def pick_order(self, way: Sequence[Event]) -> None:
        """Another of the ways offered for new tiles taken in an order unanswered (:attr:`Snapshot.order`)."""
        self._requests.put(("order", tuple(way)))

    def correct_tile(self, center: tuple[float, float], tile) -> None:
        self._requests.put(("tile", (center, tile)))

    def undo(self) -> None:
        self._requests.put(("undo", None))

    def redo(self) -> None:
        self._requests.put(("redo", None))

    def review(self, seconds: float) -> None:
        """Show the recording at ``seconds`` without changing the match (live play waits)."""
        self._requests.put(("review", seconds))

    def back_to_live(self) -> None:
        self._requests.put(("live", None))

    def call(self, fn: Callable[[], None]) -> None:
        """Run ``fn`` on the worker's thread, between frames (what touches the session as it is written)."""
        self._requests.put(("call", fn))

    def score_again_from(self, seconds: float) -> None:
        """Withdraw the events after ``seconds`` (redo brings them back) and play on from there."""
        self._requests.put(("again", seconds))

    def connect_again(self) -> None:
        """A camera that stopped: open it again and play on; the table is read afresh, as for a match resumed."""
        self._requests.put(("camera", None))

    # The worker's own thread.
    def _drain(self, t: float) -> bool:
        """Serve the requests waiting; True if a seek was asked for."""
        served = False
        failures: list[object] = []
        while True:
            try:
                kind, payload = self._requests.get_nowait()
            except queue.Empty:
                break
            served = True
            try:
                self._serve(kind, payload, t)
            except ScorerError as exc:
                failures.append(exc)
            except Exception as exc:  # a fault in the program: told, and the worker goes on
                if self._playing:
                    raise  # a session half rewritten is not to be scored on: the play stops (see run)
                _log.exception("serving %s failed", kind)
                if kind == "again":  # the window waits for the play it asked for: it stopped (the session follows)
                    self.finished.emit(exc.with_traceback(None))
                else:
                    failures.append(self.tr("A fault in the program: this was not done. ({error})").format(
                        error=fault_text(exc)))
        if served:
            self.changed.emit(self._snapshot())
        for failure in failures:  # (after the change: what was done of a request is shown, then what was not)
            self.failed.emit(failure)
        return self._seek_to is not None

    def _serve(self, kind: str, payload: Any, t: float) -> None:
        history = self.pipeline.history
        if kind == "events":
            self._tell(self.pipeline.confirm(payload, t))
        elif kind == "order":
            self._tell(self.pipeline.pick_order(payload, t))
        elif kind == "tile":
            self._tell(self.pipeline.correct_reading(payload[0], payload[1], t))
        elif kind == "undo":
            if history.steps:
                self.pipeline.rewind(len(history.steps) - 1, t)
        elif kind == "redo":
            if history.undone:
                back = self.pipeline.confirm([history.undone[0].event], t)
                self._tell([replace(e, redone=True) if isinstance(e, MoveEvent) else e for e in back])
        elif kind == "review":
            self.reviewing = True
            self._show_at(payload)
        elif kind == "live":
            self.reviewing = False
            if self._live_image is not None:
                self.frame.emit(self._live_image)  # the table as it is now, not the moment reviewed
                self.view.emit(self.pipeline.view)
        elif kind == "call":
            payload()
        elif kind == "again":
            count, _ = Snapshot.of(history).at(payload)
            # Played again from the table the last move kept was read from (the still frames before it), not
            # from the moment picked: what happened between them -- a draw, seen only as a back gone -- is
            # scored again, against that table; with no move kept, from the start (the opening tile seen laid).
            kept_at = next((s.t for s in reversed(history.steps[:count]) if s.t is not None), None)
            paused_round = history.match.round_no
            self.pipeline.rewind(count, t)
            self.pipeline.forget_the_table(same_round=self.pipeline.match.round_no == paused_round)
            self.reviewing = False
            self._seek_to = 0.0 if kept_at is None else max(0.0, min(payload, kept_at - self.pipeline.config.still_seconds))
        elif kind == "camera" and not self._playing:
            # (moves entered by hand meanwhile, the camera put back elsewhere: what was seen is of before)
            self.pipeline.forget_the_table()
            self._seek_to = 0.0

    def _snapshot(self) -> Snapshot:
        return Snapshot.of(self.pipeline.history, self.pipeline.order_to_pick())

    def _tell(self, events: list) -> None:
        """Events of a request, after the reading they are about (a question shows the table it asks about)."""
        if events and not self.reviewing:
            self.view.emit(self.pipeline.view)
        self.events.emit(events)

    def _show_at(self, seconds: float) -> None:
        if not self.seekable:
            return
        index = int(round(seconds * self.source.fps))
        frame = next(iter(self.source.frames(index)), None)  # type: ignore[call-arg]
        if frame is not None:
            self.frame.emit(to_qimage(frame.image))
            self.reviewed.emit(frame.t)

    def _hold(self) -> bool:
        """Wait while paused or reviewing, serving requests; False once stopped."""
        while not self._stop and (self.reviewing or not self._running.is_set()):
            self._running.wait(0.05)
            if self._drain(self.position):
                return True
        return not self._stop

    def run(self) -> None:
        self.changed.emit(self._snapshot())
        while not self._stop:
            start_frame = int(round((self._seek_to or 0.0) * self.source.fps))
            self._seek_to = None
            # Why the recording, the camera or the scoring stopped before the end: a ScorerError, or any other
            # exception -- a fault in the program, logged with its traceback, which must not leave every button dead.
            broke_off: Exception | None = None
            try:
                if self._play(start_frame):
                    continue
            except ScorerError as exc:  # (a recording or camera that failed ends as one played out)
                broke_off = exc
            except Exception as exc:  # a fault in the program ends the play as well, but not the thread
                _log.exception("scoring stopped at %.2f s", self.position)
                broke_off = exc.with_traceback(None)  # (logged; the window keeps the error, not the frames)
            if self._stop:
                break
            self.changed.emit(self._snapshot())  # a move written before a fault is shown too
            self.finished.emit(broke_off)
            # The recording ended: corrections, undo, review and scoring again still count.
            while not self._stop and not self._drain(self.position):
                time.sleep(0.05)

    def _play(self, start_frame: int) -> bool:
        """Play frames from ``start_frame``; True if it stopped for a seek."""
        start = time.monotonic() - start_frame / self.source.fps
        frames = self.source.frames(start_frame) if start_frame else self.source.frames()  # type: ignore[call-arg]
        self._playing = True
        try:
            return self._play_frames(frames, start)
        finally:
            self._playing = False
            close = getattr(frames, "close", None)
            if close is not None:
                close()  # the camera or the file released now, not when the garbage is collected

    def _play_frames(self, frames: Iterable[Frame], start: float) -> bool:
        last_display = 0.0
        for frame in frames:
            if self._stop:
                return False
            if self._drain(self.position):
                return True
            if (self.reviewing or not self._running.is_set()) and not self.seekable:
                # A camera cannot wait: its frames are taken and shown, none scored (a stream left unread stalled
                # for good, and what it kept would be stale); what is laid meanwhile is read as laid unseen.
                if not self.reviewing and time.monotonic() - last_display >= self.display_interval:
                    last_display = time.monotonic()
                    self.frame.emit(to_qimage(frame.image))
                continue
            if self.reviewing or not self._running.is_set():
                held_at = time.monotonic()
                if not self._hold():
                    return False
                if self._seek_to is not None:
                    return True
                start += time.monotonic() - held_at
            self.position = frame.t
            events = self.pipeline.feed(frame)
            now = time.monotonic()
            # The frame and its reading go before the events: a question shows the table it asks about.
            if events or now - last_display >= self.display_interval:
                last_display = now
                self._live_image = to_qimage(frame.image)
                self.frame.emit(self._live_image)
            if events:
                self.view.emit(self.pipeline.view)
                self.changed.emit(self._snapshot())
                self.events.emit(events)
            if self.realtime:
                # A recording plays at its own pace (a camera gives frames at its pace anyway).
                ahead = frame.t - (time.monotonic() - start)
                if ahead > 0:
                    time.sleep(ahead)
        return self._seek_to is not None


FAULT_TEXT_LENGTH = 160  # characters of a fault's words in the status bar, where the rest of the line must fit too


def fault_text(error: Exception) -> str:
    """A fault in the program told in a line: its kind and the start of what it says (the traceback is in the log)."""
    kind = type(error).__qualname__
    if type(error).__module__ != "builtins":
        kind = f"{type(error).__module__}.{kind}"  # (OpenCV's is just "error")
    said = " ".join(str(error).split())
    if len(said) > FAULT_TEXT_LENGTH:
        said = said[:FAULT_TEXT_LENGTH - 1] + "…"
    return f"{kind}: {said}" if said else kind

