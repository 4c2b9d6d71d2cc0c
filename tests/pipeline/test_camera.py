"""The webcam source without a webcam: OpenCV's capture replaced by a scripted one."""

from __future__ import annotations

import numpy as np
import pytest

import scorer.pipeline.sources as sources
from scorer.pipeline.sources import Camera, SourceError


class ScriptedCapture:
    """Opens (or not) as scripted; gives ``frames`` pictures, then nothing (unplugged)."""

    script: list[tuple[bool, int]] = []  # per opening: does it open, how many frames it then gives
    opened = 0

    def __init__(self, index: int) -> None:
        is_open, self.left = ScriptedCapture.script[min(ScriptedCapture.opened, len(ScriptedCapture.script) - 1)]
        ScriptedCapture.opened += 1
        self._open = is_open
        self.settings: dict[int, float] = {}

    def isOpened(self) -> bool:  # noqa: N802
        return self._open

    def set(self, prop: int, value: float) -> bool:
        self.settings[prop] = value
        return True

    def read(self):
        if not self._open or self.left <= 0:
            return False, None
        self.left -= 1
        return True, np.zeros((72, 128, 3), np.uint8)

    def release(self) -> None:
        self._open = False


@pytest.fixture
def capture(monkeypatch):
    ScriptedCapture.opened = 0
    monkeypatch.setattr(sources.cv2, "VideoCapture", ScriptedCapture)
    monkeypatch.setattr(sources.time, "sleep", lambda s: None)
    return ScriptedCapture


def test_a_camera_that_drops_out_is_reopened_and_the_frames_go_on(capture) -> None:
    capture.script = [(True, 5), (False, 0), (True, 4)]
    camera = Camera(0, give_up_s=30)
    frames = []
    for frame in camera.frames():
        frames.append(frame)
        if len(frames) == 9:
            camera.stop()
    assert [f.index for f in frames] == list(range(9)) and camera.reconnects == 2
    assert all(b.t >= a.t for a, b in zip(frames, frames[1:]))


def test_a_missing_camera_and_one_gone_for_good_are_clear_errors(capture) -> None:
    capture.script = [(False, 0)]
    with pytest.raises(SourceError, match="camera 3: not found"):
        Camera(3).connect()  # (a command checks its camera before it makes anything)
    with pytest.raises(SourceError, match="camera 3: not found or cannot be opened"):
        next(Camera(3, give_up_s=0.0).frames())  # (never opened: tried as long as a camera dropping out)
    capture.opened = 0
    capture.script = [(True, 2), (False, 0)]
    camera = Camera(1, give_up_s=0.0)
    seen = []
    with pytest.raises(SourceError, match="no picture for 0 s"):
        for frame in camera.frames():
            seen.append(frame)
    assert len(seen) == 2


def test_a_camera_not_streaming_yet_is_waited_for_as_one_that_dropped_out(capture) -> None:
    # (A phone's stream down as a match is resumed: the match goes on once it streams, not stopped at once.)
    capture.script = [(False, 0), (False, 0), (True, 3)]
    camera = Camera("http://phone/video", give_up_s=30)
    frames = []
    for frame in camera.frames():
        frames.append(frame)
        if len(frames) == 3:
            camera.stop()
    assert [f.index for f in frames] == [0, 1, 2] and capture.opened == 3
