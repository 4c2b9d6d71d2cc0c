"""A camera that stops (unplugged, or not there when a match is resumed) is opened again from the Play menu, and
the match goes on from its log: nothing scored twice, nothing lost."""

from __future__ import annotations

from pathlib import Path

import pytest
from dominosynth.truth import TruthDetector
from dominosynth.video import VideoSpec, make_video

from scorer.app.speech import Speaker
from scorer.app.window import MainWindow
from scorer.errors import SourceError
from scorer.pipeline import PipelineConfig, TablePipeline, VideoFile
from scorer.pipeline.sources import Frame
from scorer.rules.log import MatchHeader
from scorer.sessions import Session, read_session


class UnpluggedCamera:
    """A camera looking at a recorded game, unplugged at the frames ``drops`` for ``gap`` frames each: the game goes
    on meanwhile, unseen.  Like a webcam, it cannot be wound back (no ``start``), and its clock starts again at
    each opening."""

    def __init__(self, video: Path, detector: TruthDetector, drops: list[int], gap: int) -> None:
        self.video, self.detector = video, detector
        self.drops, self.gap = list(drops), gap
        self.fps = VideoFile(video).fps
        self.position = 0  # the game's frame the camera would show now
        self.openings = 0

    def frames(self):
        self.openings += 1
        opened = self.position
        for frame in VideoFile(self.video).frames(opened):
            if self.drops and frame.index >= self.drops[0]:
                self.drops.pop(0)
                self.position = frame.index + self.gap
                raise SourceError("camera 0: no picture for 30 s; it stopped or was unplugged")
            self.detector.frame = frame.index
            self.position = frame.index + 1
            yield Frame(frame.index - opened, (frame.index - opened) / self.fps, frame.image)


@pytest.fixture(scope="module")
def game(tmp_path_factory):
    spec = VideoSpec("horse-race", 2, False, 3, size=(480, 270), max_rounds=1, move_seconds=1.3)
    folder = tmp_path_factory.mktemp("film")
    video, truth, labels = folder / "v.mp4", folder / "v.truth.jsonl", folder / "v.labels.jsonl"
    sim = make_video(spec, video, truth, labels)
    return video, labels, [s for s in sim.events if s.after.round_no == 1][-1].after


def window_on(qtbot, tmp_path: Path, camera: UnpluggedCamera) -> MainWindow:
    session = Session.create(MatchHeader("horse-race", ("Ann", "Ben"), False), tmp_path)
    pipeline = TablePipeline(session, camera.detector, PipelineConfig(), fps=camera.fps)
    speaker = Speaker("en")
    speaker.muted = True
    window = MainWindow(session, pipeline, camera, realtime=False, speaker=speaker)
    window.said = []
    speaker.say = window.said.append  # type: ignore[method-assign]
    qtbot.addWidget(window)
    window.show()
    return window


def stopped(qtbot, window: MainWindow, said: list[str]) -> None:
    qtbot.waitUntil(lambda: window.finished, timeout=60_000)
    assert said[-1] == "The camera has stopped: the moves are not being read."  # (heard at the table)
    assert window.live.status == "stopped"
    assert "The camera stopped" in window.standing and "Try the camera again" in window.standing
    assert window.camera_action.isVisible() and window.camera_action.isEnabled()


def test_a_camera_missing_at_the_start_is_tried_again_and_scores_the_game(qtbot, tmp_path: Path, game) -> None:
    video, labels, round_one = game
    camera = UnpluggedCamera(video, TruthDetector(labels), drops=[0], gap=0)
    window = window_on(qtbot, tmp_path, camera)
    window.start()
    stopped(qtbot, window, window.said)
    window.camera_action.trigger()
    assert not window.camera_action.isEnabled() and not window.finished
    qtbot.waitUntil(lambda: window.finished, timeout=120_000)
    assert camera.openings == 2 and window.broke_off is None
    assert window.match.scores() == round_one.scores()
    assert read_session(window.session.path).log.match.scores() == round_one.scores()
    window.stop()


def test_a_camera_unplugged_mid_round_goes_on_from_the_log(qtbot, tmp_path: Path, game) -> None:
    video, labels, round_one = game
    fps = VideoFile(video).fps
    # Out for 3 s, two moves made unseen: the table seen again tells them (recounted from the tiles).
    camera = UnpluggedCamera(video, TruthDetector(labels), drops=[int(10 * fps)], gap=int(3 * fps))
    window = window_on(qtbot, tmp_path, camera)
    window.start()
    stopped(qtbot, window, window.said)
    before = [s.event for s in window.snapshot.steps]
    assert before, "the camera scored moves before it stopped"
    window.camera_action.trigger()
    qtbot.waitUntil(lambda: window.finished, timeout=120_000)
    assert window.broke_off is None
    events = [s.event for s in window.snapshot.steps]
    assert events[:len(before)] == before  # (nothing withdrawn or scored again)
    assert window.match.scores() == round_one.scores()
    window.stop()


class BlinkingCamera:
    """A network camera whose picture stops for ``gap`` seconds after a few frames, then comes back by itself (the
    Wi-Fi dropped for a moment); then it stops for good."""

    fps = 30.0

    def __init__(self, gap: float) -> None:
        self.gap = gap

    def frames(self):
        import time

        import numpy as np

        image = np.full((360, 640, 3), 60, np.uint8)
        for i in range(10):
            yield Frame(i, i / self.fps, image)
            time.sleep(0.02)
        time.sleep(self.gap)  # (no picture: the camera being opened again)
        for i in range(10, 20):
            yield Frame(i, i / self.fps, image)
            time.sleep(0.02)
        raise SourceError("camera 0: no picture for 30 s; it stopped or was unplugged")


def test_a_picture_missing_for_a_moment_is_told_and_a_click_on_the_stopped_camera_tries_again(qtbot, tmp_path: Path) -> None:
    from scorer.pipeline import PipelineConfig

    camera = BlinkingCamera(gap=4.5)
    session = Session.create(MatchHeader("horse-race", ("Ann", "Ben"), False), tmp_path)
    speaker = Speaker("en")
    speaker.muted = True
    window = MainWindow(session, TablePipeline(session, NoDetector(), PipelineConfig(), fps=30.0), camera, realtime=False,
                        speaker=speaker)
    said: list[str] = []
    speaker.say = said.append  # type: ignore[method-assign]
    qtbot.addWidget(window)
    window.show()
    window.start()
    qtbot.waitUntil(lambda: window.live.status == "no picture", timeout=10_000)
    assert said[-1] == "No picture from the camera: wait, it is being opened again."
    shown = window.table_mode.camera  # (across the room too, in table mode)
    assert shown.isVisibleTo(window.table_mode) and shown.text() == "no picture: opening the camera again…"
    qtbot.waitUntil(lambda: window.live.status != "no picture", timeout=10_000)  # (the picture back by itself)
    assert not shown.isVisibleTo(window.table_mode) and said[-1] == "The camera's picture is back."
    assert said.count("No picture from the camera: wait, it is being opened again.") == 1
    qtbot.waitUntil(lambda: window.finished, timeout=10_000)
    assert window.live.status == "stopped" and shown.text() == "the camera stopped"
    window.live.status_clicked.emit()  # (a click on "the camera stopped")
    assert not window.finished and window.live.status in ("waiting", "no picture", "reading")
    qtbot.waitUntil(lambda: window.finished, timeout=20_000)  # (it stopped again: told again)
    window.stop()


class NoDetector:
    def detect(self, image):
        return []


class SlowCamera(BlinkingCamera):
    """A phone over Wi-Fi: its first picture comes after 4 s; then a few, then it stops (the saving refused)."""

    def frames(self):
        import time

        import numpy as np

        from scorer.sessions import SessionError

        time.sleep(4.0)
        image = np.full((360, 640, 3), 60, np.uint8)
        for i in range(5):
            yield Frame(i, i / self.fps, image)
        raise SessionError("the disk is full")


def test_a_slow_first_opening_is_no_lost_picture_and_a_stop_not_the_cameras_is_not_tried_again(qtbot, tmp_path: Path) -> None:
    from scorer.pipeline import PipelineConfig

    session = Session.create(MatchHeader("horse-race", ("Ann", "Ben"), False), tmp_path)
    speaker = Speaker("en")
    speaker.muted = True
    window = MainWindow(session, TablePipeline(session, NoDetector(), PipelineConfig(), fps=30.0), SlowCamera(0.0),
                        realtime=False, speaker=speaker)
    said: list[str] = []
    speaker.say = said.append  # type: ignore[method-assign]
    qtbot.addWidget(window)
    window.show()
    window.start()
    qtbot.waitUntil(lambda: window.finished, timeout=20_000)
    assert "No picture from the camera: wait, it is being opened again." not in said
    assert not window.camera_action.isEnabled()
    window.live.status_clicked.emit()  # (the saving stopped it, not the camera: nothing to try again)
    assert window.finished
    window.stop()


class LateCamera(BlinkingCamera):
    """A phone not streaming yet as the match opens: its first picture comes after ``gap`` seconds."""

    def frames(self):
        import time

        import numpy as np

        time.sleep(self.gap)
        image = np.full((360, 640, 3), 60, np.uint8)
        for i in range(10):
            yield Frame(i, i / self.fps, image)
            time.sleep(0.02)


def test_a_first_picture_long_in_coming_is_told_and_play_goes_on_once_it_comes(qtbot, tmp_path: Path, monkeypatch) -> None:
    import scorer.app.window_recording as recording
    from scorer.pipeline import PipelineConfig

    monkeypatch.setattr(recording, "FIRST_PICTURE_S", 1.0)
    session = Session.create(MatchHeader("horse-race", ("Ann", "Ben"), False), tmp_path)
    speaker = Speaker("en")
    said: list[str] = []
    speaker.say = said.append  # type: ignore[method-assign]
    window = MainWindow(session, TablePipeline(session, NoDetector(), PipelineConfig(), fps=30.0), LateCamera(gap=3.5),
                        realtime=False, speaker=speaker)
    qtbot.addWidget(window)
    window.show()
    window.start()
    qtbot.waitUntil(lambda: window.live.status == "no picture", timeout=5_000)
    assert said[-1] == "No picture from the camera: wait, it is being opened again."
    qtbot.waitUntil(lambda: window.live.status != "no picture", timeout=10_000)
    assert said[-1] == "The camera's picture is back." and window.live.image is not None
    window.stop()
