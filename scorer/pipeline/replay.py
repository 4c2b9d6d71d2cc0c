"""Running the pipeline over a recording as fast as it goes, and recording a session live."""

from __future__ import annotations

import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, TextIO

import cv2
import numpy as np

from scorer.pipeline.core import TablePipeline
from scorer.pipeline.events import MoveEvent, PipelineEvent
from scorer.pipeline.arms import BLIND_SECONDS
from scorer.pipeline.sources import GAPS_FILE, Frame, FrameSource, SourceError
from scorer.sessions import SessionError, SessionSummary, list_sessions, read_session, summarize


@dataclass
class ReplayStats:
    frames: int = 0
    video_seconds: float = 0.0
    wall_seconds: float = 0.0
    reads: int = 0
    latencies: list[float] = field(default_factory=list)  # still -> event, seconds of processing

    @property
    def speed(self) -> float:
        return self.video_seconds / self.wall_seconds if self.wall_seconds else 0.0


def run(source: FrameSource, pipeline: TablePipeline, on_event: Callable[[PipelineEvent], None],
        progress: Callable[[Frame], None] | None = None) -> ReplayStats:
    stats = ReplayStats()
    start = time.perf_counter()
    for frame in source.frames():
        t0 = time.perf_counter()
        events = pipeline.feed(frame)
        if any(isinstance(e, MoveEvent) for e in events):
            stats.latencies.append(time.perf_counter() - t0)
        for event in events:
            on_event(event)
        stats.frames += 1
        stats.video_seconds = frame.t
        if progress is not None:
            progress(frame)
    # The source ran out (a recording's end): a question still open is settled on its likeliest answer.
    for event in pipeline.finish(stats.video_seconds):
        on_event(event)
    stats.wall_seconds = time.perf_counter() - start
    return stats


def progress_bar(total_seconds: float, stream: TextIO = sys.stderr) -> Callable[[Frame], None]:
    last = [0.0]

    def show(frame: Frame) -> None:
        now = time.monotonic()
        if now - last[0] < 0.25:
            return
        last[0] = now
        if total_seconds > 0:
            f = min(1.0, frame.t / total_seconds)
            bar = "#" * int(f * 30)
            stream.write(f"\r[{bar:<30}] {frame.t:6.1f}/{total_seconds:.1f} s")
        else:
            stream.write(f"\r{frame.t:6.1f} s")
        stream.flush()

    return show


class SegmentedWriter:
    """Video written in segments of a few seconds, each closed when full: a crash loses at most one."""

    def __init__(self, folder: Path, fps: float, segment_seconds: float = 10.0) -> None:
        self.folder = folder
        self.folder.mkdir(parents=True, exist_ok=True)
        self.fps = fps
        self.per_segment = max(1, int(round(segment_seconds * fps)))
        self._writer: cv2.VideoWriter | None = None
        self._count = 0
        self._index = len(list(folder.glob("*.avi")))
        self._size: tuple[int, int] | None = None

    def write(self, image: np.ndarray) -> None:
        h, w = image.shape[:2]
        if self._writer is None or self._count >= self.per_segment:
            self._close()
            path = self.folder / f"{self._index:06d}.avi"
            self._writer = cv2.VideoWriter(str(path), cv2.VideoWriter.fourcc(*"MJPG"), self.fps, (w, h))
            if not self._writer.isOpened():
                raise SourceError(f"{path}: cannot write video")
            self._index += 1
            self._count = 0
        self._writer.write(image)
        self._count += 1

    def _close(self) -> None:
        if self._writer is not None:
            self._writer.release()
            self._writer = None

    def close(self) -> None:
        self._close()


def record(source: FrameSource, pipeline: TablePipeline, folder: Path,
           on_event: Callable[[PipelineEvent], None], segment_seconds: float = 10.0) -> ReplayStats:
    """Record the video into ``folder`` while the pipeline keeps the score live (in its session)."""
    writer = SegmentedWriter(folder / "video", source.fps, segment_seconds)
    written, last = 0, None
    try:
        def keep(frame: Frame) -> None:
            # The video keeps the frames' own clock: a frame shown till the next one's time (written again
            # where the camera gave fewer than fps a second, or the scoring fell behind), one left out where
            # more -- so a move's time in the log is its place in the video, and a replay scores it so.
            nonlocal written, last
            slot = int(round(frame.t * source.fps))
            if last is not None and slot - written > BLIND_SECONDS * source.fps:
                # (No frame for a while: the copies written are no picture of the table -- a replay skips them.)
                with open(writer.folder / GAPS_FILE, "a", encoding="utf-8") as gaps:
                    gaps.write(f"{written} {slot}\n")
            while last is not None and written < slot:
                writer.write(last)
                written += 1
            if written <= slot:
                writer.write(frame.image)
                written += 1
            last = frame.image

        return run(source, pipeline, on_event, keep)
    finally:
        writer.close()


# In a ``record`` folder: the path of its match's session file, which may lie outside the user's sessions
# folder (``record --sessions DIR``).  The log stays the match; this only says where it is.
SESSION_NOTE = "session-file.txt"


def note_session(folder: Path, session_file: Path) -> None:
    """Write into the ``record`` folder where its match's session file is."""
    (Path(folder) / SESSION_NOTE).write_text(f"{Path(session_file).resolve()}\n", encoding="utf-8")


def recorded_match(folder: Path, sessions: Path | None = None) -> SessionSummary | None:
    """The saved match that names ``folder`` (a ``record`` folder, or its ``video`` folder) as its
    recording: the one its note points to, else one in ``sessions`` (the user's sessions folder); None
    where none does."""
    folder = Path(folder).resolve()
    named_so = {folder, folder.parent} if folder.name == "video" else {folder}  # (the folder, or the one of its segments)

    def names_it(summary: SessionSummary) -> bool:
        recording = summary.header.source.recording if summary.header and summary.header.source else None
        return recording is not None and Path(recording).resolve() in named_so

    # (the whole sessions folder read only where no note names the match)
    noted = next((s for s in _noted(named_so) if names_it(s)), None)
    return noted or next((s for s in list_sessions(sessions) if names_it(s)), None)


def _noted(folders: set[Path]) -> list[SessionSummary]:
    """The session files the folders' notes point to, where they still are."""
    noted = []
    for folder in folders:
        try:
            path = Path((folder / SESSION_NOTE).read_text(encoding="utf-8").strip())
        except (OSError, UnicodeDecodeError):  # no note (a recording from before notes, or a bare video's folder)
            continue
        if path.is_file():
            noted.append(summarize(path))
    return noted


def recorded_move_times(source: FrameSource, sessions: Path | None = None) -> list[float]:
    """Seconds at which the match recorded with ``source`` (a ``record`` folder) has an event in force;
    [] where no saved match names that recording.  Only for marking a timeline."""
    folder = getattr(source, "folder", None)
    summary = recorded_match(folder, sessions) if folder is not None else None
    if summary is None:
        return []
    try:
        steps = read_session(summary.path).log.steps
    except SessionError:
        return []
    return [s.t for s in steps if s.t is not None]
