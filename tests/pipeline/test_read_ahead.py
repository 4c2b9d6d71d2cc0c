"""A video's frames decoded ahead in a thread of their own (issue 40: replay faster than 6x real time):
the same frames in the same order, errors raised where the frames are read, and no thread left behind."""

from __future__ import annotations

import threading
import time
from pathlib import Path
from typing import Iterator

import cv2
import numpy as np
import pytest

from scorer.errors import SourceError
from scorer.pipeline.sources import Frame, VideoFile, read_ahead


def _frames(count: int, fail_at: int | None = None, closed: list[bool] | None = None) -> Iterator[Frame]:
    try:
        for i in range(count):
            if i == fail_at:
                raise SourceError(f"frame {i} is damaged")
            yield Frame(i, i / 10, np.full((4, 4, 3), i, np.uint8))
    finally:
        if closed is not None:
            closed.append(True)


def _readers() -> int:
    return sum(t.name == "read-ahead" and t.is_alive() for t in threading.enumerate())


def test_the_frames_come_in_order_and_whole() -> None:
    got = list(read_ahead(_frames(50), depth=3))
    assert [f.index for f in got] == list(range(50))
    assert all(int(f.image[0, 0, 0]) == f.index for f in got)


def test_an_error_in_the_decoding_thread_is_raised_to_the_reader_after_the_frames_before_it() -> None:
    seen = []
    with pytest.raises(SourceError, match="frame 7 is damaged"):
        for frame in read_ahead(_frames(20, fail_at=7)):
            seen.append(frame.index)
    assert seen == list(range(7))


def test_stopping_early_stops_the_thread_and_closes_the_frames() -> None:
    before = _readers()
    closed: list[bool] = []
    frames = read_ahead(_frames(10_000, closed=closed), depth=2)
    assert [next(frames).index, next(frames).index] == [0, 1]  # (the second from the thread)
    frames.close()  # (as a ``for`` loop left by ``break`` or a seek does)
    deadline = time.monotonic() + 2
    while (_readers() > before or not closed) and time.monotonic() < deadline:
        time.sleep(0.01)
    assert _readers() <= before and closed == [True]  # (<=: an older test's reader may end meanwhile)


def test_a_look_at_one_frame_starts_no_thread_and_closes_the_frames() -> None:
    before = _readers()
    closed: list[bool] = []
    frames = read_ahead(_frames(10_000, closed=closed))
    assert next(frames).index == 0
    assert _readers() <= before
    frames.close()
    assert closed == [True]


def test_a_video_file_read_ahead_gives_every_frame_a_plain_read_gives(tmp_path: Path) -> None:
    path = tmp_path / "v.avi"
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 10.0, (64, 48))
    for i in range(30):
        writer.write(np.full((48, 64, 3), 8 * i, np.uint8))
    writer.release()
    video = VideoFile(path, step=2)
    got = list(video.frames())
    assert [f.index for f in got] == list(range(0, 30, 2))
    assert [round(float(f.image.mean()) / 8) for f in got] == list(range(0, 30, 2))
    assert [f.index for f in video.frames(10)] == list(range(10, 30, 2))
    assert not video.ended_early
