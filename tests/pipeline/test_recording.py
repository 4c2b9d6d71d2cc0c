"""A recording survives being killed mid-game: the log up to the kill is whole, the video segments read back."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

from dominosynth.video import VideoSpec, make_video

from scorer.pipeline.replay import recorded_move_times
from scorer.pipeline.sources import open_video
from scorer.rules.transcript import score_log

ROOT = Path(__file__).resolve().parents[2]

RECORDER = """
import sys, time
sys.path[:0] = [{datasets!r}, {root!r}]
from pathlib import Path

import numpy as np
from dominosynth.truth import TruthDetector
from scorer.pipeline import PipelineConfig, TablePipeline, VideoFile
from scorer.pipeline.replay import record
from scorer.rules.log import MatchHeader
from scorer.sessions import Session

class Slow:
    # A camera's pace: one frame at a time, in real time (so the recording is killed mid-game).
    def __init__(self, source):
        self.source, self.fps = source, source.fps
    def frames(self):
        for f in self.source.frames():
            time.sleep(1 / self.fps / 4)
            yield f

header = MatchHeader("horse-race", ("Ann", "Ben"), False)
detector = TruthDetector(Path({labels!r}))
out = Path({out!r})
session = Session.create(header, out)
pipeline = TablePipeline(session, detector, PipelineConfig(), fps=30)
print(session.path, flush=True)
record(detector.follow(Slow(VideoFile({video!r}))), pipeline, out, lambda e: None, segment_seconds=2.0)
"""


def test_a_recording_killed_mid_game_keeps_its_log_and_video(tmp_path: Path) -> None:
    spec = VideoSpec("horse-race", 2, False, 3, size=(480, 270), max_rounds=1, move_seconds=1.3)
    video, truth, labels = tmp_path / "g.mp4", tmp_path / "g.truth.jsonl", tmp_path / "g.labels.jsonl"
    make_video(spec, video, truth, labels)
    out = tmp_path / "session"
    out.mkdir()
    script = RECORDER.format(datasets=str(ROOT / "datasets"), root=str(ROOT), labels=str(labels), out=str(out), video=str(video))
    proc = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True)
    log_path = Path(proc.stdout.readline().strip())
    assert log_path.parent == out
    # Let it record a few moves, then kill it without warning.
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if log_path.exists() and len(log_path.read_text().splitlines()) >= 5:
            break
        time.sleep(0.2)
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    lines = log_path.read_text().splitlines()
    assert len(lines) >= 5 and all(json.loads(line) for line in lines)  # every line whole
    _, steps = score_log(lines)
    recorded = list(steps)
    assert recorded, "the log scores"
    # The closed video segments read back as one video.
    source = open_video(out)
    frames = sum(1 for _ in source.frames())
    assert frames >= 30


def test_replay_of_a_recording_reproduces_its_scores(tmp_path: Path) -> None:
    from dominosynth.truth import TruthDetector

    from scorer.pipeline import PipelineConfig, TablePipeline, VideoFile
    from scorer.pipeline.replay import record, run
    from scorer.rules.log import MatchHeader, MatchSource
    from scorer.sessions import Session, read_session

    # Read at every frame of a flickering light (the replay reads every frame too).
    spec = VideoSpec("horse-race", 2, False, 4, size=(480, 270), max_rounds=1, move_seconds=1.3)
    video, truth, labels = tmp_path / "g.mp4", tmp_path / "g.truth.jsonl", tmp_path / "g.labels.jsonl"
    make_video(spec, video, truth, labels)
    out = tmp_path / "recording"
    header = MatchHeader("horse-race", ("Ann", "Ben"), False, source=MatchSource("camera", "0", 1, str(out)))
    detector = TruthDetector(labels)
    session = Session.create(header)  # the user's sessions folder
    live = TablePipeline(session, detector, PipelineConfig(), fps=30)
    record(detector.follow(VideoFile(video)), live, out, lambda e: None, segment_seconds=3.0)
    session.close()
    logged = read_session(session.path).log.match.scores()
    replayed = TablePipeline(header.new_match(), detector, PipelineConfig(), fps=30)
    run(detector.follow(open_video(out)), replayed, lambda e: None)
    assert replayed.match.scores() == logged == live.match.scores()
    assert replayed.match.round_no == 1 and replayed.match.history == live.match.history
    # The segments read as one seekable video: frame numbers run on across segments, a seek lands on its frame.
    recording = open_video(out)
    assert len(recording.segments) >= 2
    frames = {f.index: f.image for f in recording.frames()}
    assert sorted(frames) == list(range(len(frames)))
    for start in (5, recording.counts[0], recording.counts[0] + 17):
        first = next(recording.frames(start))
        assert first.index == start and np.array_equal(first.image, frames[start])
    logged_times = [json.loads(line)["t"] for line in session.path.read_text().split("\n")[1:] if line]
    assert logged_times and recorded_move_times(recording) == logged_times
    assert recorded_move_times(open_video(video)) == []  # a bare video has no log beside it
    stepped = [f.index for f in open_video(out, step=2).frames()]
    assert stepped == sorted(stepped) and all(i in frames for i in stepped)


def test_a_recording_keeps_the_frames_own_clock(tmp_path: Path) -> None:
    """A camera that gives fewer frames a second than asked (or a scoring that falls behind): the video keeps
    the frames' times -- each written again till the next one is due -- so a move logged at t lies at t in it."""
    from scorer.pipeline import PipelineConfig, TablePipeline
    from scorer.pipeline.replay import record
    from scorer.pipeline.sources import Frame
    from scorer.rules.history import MatchHistory
    from scorer.rules.log import MatchHeader

    class SlowCamera:  # asked for 30 fps, it gives 10: each frame's picture tells its time
        fps = 30.0

        def frames(self):
            for i in range(20):
                yield Frame(i, i / 10, np.full((90, 160, 3), 10 * i, np.uint8))

    class NoTiles:
        def detect(self, image):
            return []

    history = MatchHistory.new(MatchHeader("horse-race", ("Ann", "Ben"), False))
    record(SlowCamera(), TablePipeline(history, NoTiles(), PipelineConfig(), fps=30), tmp_path, lambda e: None, 0.5)
    frames = list(open_video(tmp_path).frames())
    assert len(frames) == 58  # (19 / 10 s at 30 fps, and the first)
    # The frame shown at video time t is the camera's latest by then (MJPG: a grey level or two off).
    for shown in frames[::7]:
        assert abs(int(shown.image.mean()) - 10 * min(19, int(shown.t * 10 + 1e-6))) <= 3, shown.t


def test_a_recording_skips_the_frames_written_while_the_camera_gave_none(tmp_path: Path) -> None:
    """A phone's stream down for 3 s: the recording keeps its clock with copies of the last frame, and says
    where; read back, the copies are skipped, so that the replay sees the camera blind as the live scoring did."""
    from scorer.pipeline import PipelineConfig, TablePipeline
    from scorer.pipeline.replay import record
    from scorer.pipeline.sources import GAPS_FILE, Frame
    from scorer.rules.history import MatchHistory
    from scorer.rules.log import MatchHeader

    class DroppingCamera:
        fps = 10.0

        def frames(self):
            for i in [*range(10), *range(40, 50)]:  # (nothing from 1 s to 4 s)
                yield Frame(i, i / 10, np.full((90, 160, 3), 5 * i, np.uint8))

    class NoTiles:
        def detect(self, image):
            return []

    history = MatchHistory.new(MatchHeader("horse-race", ("Ann", "Ben"), False))
    record(DroppingCamera(), TablePipeline(history, NoTiles(), PipelineConfig(), fps=10), tmp_path, lambda e: None, 1.0)
    assert (tmp_path / "video" / GAPS_FILE).read_text() == "10 40\n"
    recording = open_video(tmp_path)
    assert recording.frame_count == 50  # (the video keeps the clock)
    frames = list(recording.frames())
    assert [f.index for f in frames] == [*range(10), *range(40, 50)] and frames[10].t == 4.0
    replayed = TablePipeline(MatchHistory.new(history.header), NoTiles(), PipelineConfig(), fps=10)
    assert [f.index for f in frames if replayed.arms.frame_came(f.t, 10.0)] == [40]
