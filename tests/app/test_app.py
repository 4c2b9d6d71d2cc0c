"""The app offscreen: a demo replay scored on the board, a confirmation, an undo, and a screenshot."""

from __future__ import annotations

import time
from pathlib import Path

import numpy as np
import pytest
from PySide6.QtWidgets import QPushButton
from dominosynth.truth import TruthDetector
from dominosynth.video import VideoSpec, make_video

from scorer.app import i18n
from scorer.app.corrections import ConfirmDialog, event_text
from scorer.app.speech import Speaker
from scorer.app.window import MainWindow
from scorer.pipeline import NeedsConfirmation, PipelineConfig, StatusChange, TablePipeline, VideoFile
from scorer.pipeline.sources import Frame
from scorer.rules.transcript import scores_text
from scorer.rules import Play, RoundStart, Tile
from scorer.rules.log import MatchHeader
from scorer.sessions import Session, read_session

SCREENSHOTS = Path(__file__).resolve().parents[1] / "output"


class StillCamera:
    """A camera looking at an empty table until stopped."""

    fps = 30.0

    def __init__(self) -> None:
        self._stop = False

    def stop(self) -> None:
        self._stop = True

    def frames(self):
        i = 0
        image = np.full((360, 640, 3), 60, np.uint8)
        while not self._stop:
            yield Frame(i, i / self.fps, image)
            i += 1
            time.sleep(0.005)


class NoDetector:
    def detect(self, image):
        return []


def make_window(tmp_path: Path, header: MatchHeader, source, detector, session: Session | None = None) -> MainWindow:
    session = session or Session.create(header, tmp_path)
    pipeline = TablePipeline(session, detector, PipelineConfig(), fps=source.fps / getattr(source, "step", 1))
    speaker = Speaker("en")
    speaker.muted = True
    return MainWindow(session, pipeline, source, realtime=False, speaker=speaker)


def saved(window: MainWindow):
    """The match as its session file holds it, read back."""
    return read_session(window.session.path).log


def test_a_replay_is_scored_on_the_board_as_by_the_engine(qtbot, tmp_path: Path) -> None:
    spec = VideoSpec("horse-race", 2, False, 3, size=(480, 270), max_rounds=1, move_seconds=1.3)
    video, truth, labels = tmp_path / "v.mp4", tmp_path / "v.truth.jsonl", tmp_path / "v.labels.jsonl"
    sim = make_video(spec, video, truth, labels)
    header = MatchHeader("horse-race", ("Ann", "Ben"), False)
    detector = TruthDetector(labels)
    window = make_window(tmp_path, header, detector.follow(VideoFile(video)), detector)
    qtbot.addWidget(window)
    window.show()
    window.start()
    qtbot.waitUntil(lambda: window.finished, timeout=120_000)
    qtbot.wait(100)
    # The board shows the engine's scores, which are the simulator's after round 1.
    labels_shown = [int(t.label) for t in window.pegboard.tracks]
    assert labels_shown == [window.match.scores()[p] for p in header.players]
    round_one = [s for s in sim.events if s.after.round_no == 1][-1].after
    assert window.match.scores() == round_one.scores()
    assert window.log.count() > 10 and window.banner.text().strip()
    # The session file holds the match: it reads back to the same state.
    assert saved(window).match.scores() == window.match.scores() and len(saved(window).steps) == window.log.count()
    SCREENSHOTS.mkdir(exist_ok=True)
    assert window.grab().save(str(SCREENSHOTS / "main-window.png"))
    window.stop()


def test_a_question_still_open_when_the_match_moves_on_or_another_comes_is_closed(qtbot, tmp_path: Path, monkeypatch) -> None:
    from scorer.pipeline import MoveEvent

    header = MatchHeader("horse-race", ("Ann", "Ben"), False)
    window = make_window(tmp_path, header, StillCamera(), NoDetector())
    qtbot.addWidget(window)
    window.show()
    first = NeedsConfirmation(1.0, "who started the round?", ((RoundStart("Ann"),), (RoundStart("Ben"),)))
    window._on_events([first])
    asked = window.pending_dialog
    assert asked is not None and asked.isVisible()
    window._on_events([NeedsConfirmation(2.0, "another question", ((RoundStart("Ann"),),))])
    assert not asked.isVisible() and window.pending_dialog is not asked  # the newest only
    asked = window.pending_dialog
    # The camera settles it (an event scored): an answer picked now would be about a table gone.
    step = window.session.apply(RoundStart("Ann"), 3.0)
    window._on_events([MoveEvent(3.0, step)])
    assert not asked.isVisible() and window.pending_dialog is None
    assert len(window.session.steps) == 1  # (the closed dialog answered nothing)
    # A question leaves the window free (Pause, Undo, Quit), and a move undone closes it.
    window.start()
    qtbot.waitUntil(lambda: len(window.snapshot.steps) == 1, timeout=10_000)
    window._on_events([NeedsConfirmation(4.0, "a third question", ((RoundStart("Ben"),),))])
    asked = window.pending_dialog
    assert asked is not None and asked.isVisible() and not asked.isModal()
    from PySide6.QtCore import Qt

    assert asked.testAttribute(Qt.WidgetAttribute.WA_ShowWithoutActivating)  # (Space still pauses: the keys stay with the window)
    window.undo()
    qtbot.waitUntil(lambda: not window.session.steps, timeout=10_000)
    from shiboken6 import isValid

    qtbot.waitUntil(lambda: not isValid(asked), timeout=10_000)  # (closed, and let go: each question its own dialog)
    assert window.pending_dialog is None
    # A tile corrected by hand while a question is open: the person's word on it stands, the question goes.
    from scorer.app import window_corrections
    from scorer.vision.detector import HalfReading, TileDetection

    window._on_events([NeedsConfirmation(5.0, "the new tile at (10, 10) is read unsurely", ((RoundStart("Ben"),),))])
    asked = window.pending_dialog
    monkeypatch.setattr(window_corrections, "ask_text", lambda *args, **kwargs: "3 4")
    box = TileDetection(((0, 0), (20, 0), (20, 10), (0, 10)), "up", 0.9, (HalfReading(3, (5, 5), 0.6), HalfReading(0, (15, 5), 0.6)))
    window._correct_tile(box)
    assert not asked.isVisible() and window.pending_dialog is None
    window.stop()


def test_what_keeps_the_camera_from_reading_is_said_aloud(qtbot, tmp_path: Path) -> None:
    from scorer.pipeline.events import told
    from scorer.pipeline.notices import CameraMoved, PictureTooDark, PictureTooGrainy

    window = make_window(tmp_path, MatchHeader("horse-race", ("Ann", "Ben"), False), StillCamera(), NoDetector())
    qtbot.addWidget(window)
    said: list[str] = []
    window.speaker.say = said.append  # type: ignore[method-assign]
    window._on_events([told(1.0, CameraMoved(3.0))])
    assert "the camera moved" in window.statusBar().currentMessage() and not said
    window._on_events([told(2.0, PictureTooGrainy())])
    assert len(said) == 1 and "more light on the table" in said[0] and "too grainy" in window.statusBar().currentMessage()
    # Told with another note of the same still table, it stays in the bar all the same.
    window._on_events([told(3.0, PictureTooDark()), told(3.0, CameraMoved(2.0))])
    assert len(said) == 2 and "very dark" in said[1] and "very dark" in window.statusBar().currentMessage()
    window.stop()


def test_a_place_is_told_by_where_in_the_picture_it_lies_and_said_without_the_videos_moments(qtbot, tmp_path: Path) -> None:
    from PySide6.QtGui import QImage

    from scorer.pipeline.events import told
    from scorer.pipeline.notices import DrewBefore, GuessRevised, PlayWentOn

    window = make_window(tmp_path, MatchHeader("horse-race", ("Ann", "Ben"), False), StillCamera(), NoDetector())
    qtbot.addWidget(window)
    said: list[str] = []
    window.speaker.say = said.append  # type: ignore[method-assign]
    window.live.show_frame(QImage(640, 480, QImage.Format.Format_RGB888))
    window._on_events([told(9.0, GuessRevised((600.0, 20.0), Tile(1, 4), Tile(1, 6), (10.0, 470.0), ()))])
    assert window.statusBar().currentMessage().startswith("the tile at (top right) taken as [1|4] is [1|6]: [1|4] is read "
                                                          "surely at (bottom left)")
    assert said == [window.statusBar().currentMessage()] and window.live.marked == [(600.0, 20.0), (10.0, 470.0)]
    window._on_events([told(81.0, PlayWentOn("Ann", (DrewBefore("Ann", 1, Tile(0, 3), 80.6),)))])
    assert "before laying [0|3] (at 80.6 s)" in window.statusBar().currentMessage()
    assert "80.6" not in said[-1] and "before laying [0|3] -- correct it" in said[-1]
    window.stop()


def test_a_way_of_many_moves_offered_is_shown_whole_one_move_a_line(qtbot, tmp_path: Path) -> None:
    from PySide6.QtWidgets import QPushButton

    window = make_window(tmp_path, MatchHeader("horse-race", ("Ann", "Ben", "Cid", "Dee"), False), StillCamera(), NoDetector())
    qtbot.addWidget(window)
    way = (Play("Ann", Tile(4, 4), Tile(3, 4)), Play("Ann", Tile(3, 3), Tile(3, 4)), Play("Ann", Tile(0, 3), Tile(3, 3)),
           Play("Ben", Tile(0, 6), Tile(0, 3)), Play("Cid", Tile(3, 6), Tile(3, 3)), Play("Cid", Tile(5, 6), Tile(3, 6)))
    dialog = ConfirmDialog(window, "one new tile is seen two ways", [way, way[:5]])
    dialog.show()
    (six,) = [b for b in dialog.findChildren(QPushButton) if "[5|6]" in b.text()]
    assert six.text().splitlines() == [event_text(e) for e in way]
    assert six.width() >= six.sizeHint().width() and dialog.width() < 700  # (whole, and no wider than a laptop's half)
    # Nothing to pick from: the dialog says where the moves are entered, not "Pick what was played".
    from PySide6.QtWidgets import QLabel

    said = " ".join(label.text() for label in ConfirmDialog(window, "2 tiles appeared", []).findChildren(QLabel))
    assert "Pick what was played" not in said and "Play…, Draw…, Pass / knock… or Round end…" in said
    # What a place such as (412, 200) is, said only where the question names one.
    assert "is a pixel" not in said
    said = " ".join(label.text() for label in ConfirmDialog(window, "[3|4] at (412, 200) is read unsurely", []).findChildren(QLabel))
    assert "A place such as (412, 200) is a pixel of the camera's picture." in said


def test_many_orders_offered_scroll_and_each_tells_the_scores_it_leaves(qtbot, tmp_path: Path) -> None:
    # A camera blind for a while: the tiles laid meanwhile can have been played in many orders.  Each way
    # ends with the scores it leaves and who plays then -- what the players remember -- and the ways scroll.
    from PySide6.QtWidgets import QPushButton, QScrollArea

    from scorer.rules import RoundStart

    header = MatchHeader("horse-race", ("Ann", "Ben"), False)
    window = make_window(tmp_path, header, StillCamera(), NoDetector())
    qtbot.addWidget(window)
    match = header.new_match()
    for event in (RoundStart("Ann"), Play("Ann", Tile(3, 3))):
        match, _ = match.apply(event)

    def way(*tiles: Tile) -> tuple[Play, ...]:  # (each played by the player then on turn, on the [3|3])
        plays, now = [], match
        for tile in tiles:
            plays.append(Play(now.next_player, tile, Tile(3, 3)))
            now, _ = now.apply(plays[-1])
        return tuple(plays)

    ways = [way(Tile(3, 5), Tile(1, 3)), way(Tile(1, 3), Tile(3, 5)), way(Tile(3, 5)), way(Tile(1, 3)), way(Tile(3, 6))]
    dialog = ConfirmDialog(window, "the new tiles can have been played in orders that score differently", ways, match=match)
    dialog.show()
    buttons = [b for b in dialog.findChildren(QPushButton) if "plays" in b.text()]
    (scroll,) = dialog.findChildren(QScrollArea)
    (later,) = [b for b in dialog.findChildren(QPushButton) if "Not now" in b.text()]
    assert len(buttons) == 5 and scroll.geometry().bottom() < later.geometry().top() and dialog.height() <= 700
    after = [match.apply(way[0])[0] if len(way) == 1 else match.apply(way[0])[0].apply(way[1])[0] for way in ways]
    # (Some ways lay two tiles, some one: the tiles each then holds, which the players can count, differ too.)
    assert [b.text().splitlines()[-2:] for b in buttons] == [
        [f"Scores then: {scores_text(m)}; {m.next_player} to play", f"Tiles in hand then: Ann {m.hand_counts[0]}, Ben {m.hand_counts[1]}"]
        for m in after]
    assert len({b.text() for b in buttons}) == 5
    # Ways that all leave the same scores are told without: the scores are not what is asked.
    same = ConfirmDialog(window, "one new tile is seen two ways", [ways[2], ways[2]], match=match)
    assert not same.findChildren(QScrollArea) and all("Scores then" not in b.text() for b in same.findChildren(QPushButton))


def test_the_players_pick_another_order_for_tiles_the_camera_took_in_one_unanswered(qtbot, tmp_path: Path) -> None:
    # Two tiles laid while the camera saw nothing, the order question unanswered and taken: Play ▸ Another order…
    # offers the ways again, the one taken marked; another picked, the round is written so, and the bar tells it.
    header = MatchHeader("horse-race", ("Ann", "Ben"), False)
    window = make_window(tmp_path, header, StillCamera(), NoDetector())
    qtbot.addWidget(window)
    pipeline = window.pipeline
    pipeline.apply(1.0, [RoundStart("Ann"), Play("Ann", Tile(3, 3))])
    # (A double: Ann plays on.  [3|4] first scores for Ann, who plays on again; [3|6] first scores for no one.)
    ways = ((Play("Ann", Tile(3, 6), Tile(3, 3)), Play("Ben", Tile(3, 4), Tile(3, 3))),
            (Play("Ann", Tile(3, 4), Tile(3, 3)), Play("Ann", Tile(3, 6), Tile(3, 3))))
    pipeline.apply(2.0, ways[0])
    pipeline.turns.orders.take(ways[0], ways)
    assert not window.order_action.isEnabled()
    said: list[str] = []
    window.speaker.say = said.append  # type: ignore[method-assign]
    window.show()
    window.start()
    qtbot.waitUntil(window.order_action.isEnabled, timeout=10_000)
    window.order_action.trigger()
    (dialog,) = [d for d in window.findChildren(ConfirmDialog) if d.isVisible()]
    buttons = [b for b in dialog.findChildren(QPushButton) if "plays" in b.text()]
    assert [b.text().startswith("Taken now:") for b in buttons] == [True, False]
    assert any("Keep it as taken" == b.text() for b in dialog.findChildren(QPushButton))
    buttons[1].click()
    qtbot.waitUntil(lambda: tuple(window.match.history[-2:]) == ways[1], timeout=10_000)
    qtbot.waitUntil(lambda: "in the order picked" in window.statusBar().currentMessage(), timeout=10_000)
    # Said once, with the scores then -- not the moves scored again one by one.
    assert [text for text in said if "order picked" in text] == [window.statusBar().currentMessage()]
    assert "scores: Ann 4, Ben 0" in said[-1] and not any("plays" in text or "[3|" in text for text in said)
    assert window.order_button is not None and window.order_button.isVisible()
    assert window.snapshot.order is not None and window.snapshot.order.guess.taken == ways[1]
    # Offered again, the one taken now first; an undo of the moves taken so leaves nothing to pick: the offer closes.
    window.order_button.click()
    (dialog,) = [d for d in window.findChildren(ConfirmDialog) if d.isVisible()]
    assert [b.text().startswith("Taken now:") for b in dialog.findChildren(QPushButton) if "plays" in b.text()] == [True, False]
    window.undo_action.trigger()
    qtbot.waitUntil(lambda: not window.order_action.isEnabled(), timeout=10_000)
    assert not window.order_button.isVisible() and window.order_dialog is None
    assert not [d for d in window.findChildren(ConfirmDialog) if d.isVisible()]
    window.stop()

def test_a_camera_paused_keeps_its_picture_coming_and_reads_no_move_till_played_on(qtbot, tmp_path: Path) -> None:
    # (A phone's stream left unread while paused stalled for good: the picture never came back after the pause.)
    class CountingCamera(StillCamera):
        taken = 0

        def frames(self):
            for frame in super().frames():
                CountingCamera.taken += 1
                yield frame

    window = make_window(tmp_path, MatchHeader("horse-race", ("Ann", "Ben"), False), CountingCamera(), NoDetector())
    qtbot.addWidget(window)
    fed: list[float] = []
    feed = window.pipeline.feed
    window.pipeline.feed = lambda frame: fed.append(frame.t) or feed(frame)  # type: ignore[method-assign]
    window.show()
    window.start()
    qtbot.waitUntil(lambda: len(fed) > 5, timeout=10_000)
    window.pause_action.trigger()
    assert window.live.status == "paused" and "no move is read" in window.statusBar().currentMessage()
    qtbot.wait(200)
    fed_when_paused, taken_when_paused = len(fed), CountingCamera.taken
    qtbot.wait(300)
    assert len(fed) <= fed_when_paused + 1 and CountingCamera.taken > taken_when_paused + 10
    # A move entered by hand while paused (the camera's "waiting" after the answer to its question): still paused.
    window._send([RoundStart("Ann"), Play("Ann", Tile(3, 3))])
    qtbot.waitUntil(lambda: len(window.snapshot.steps) == 2, timeout=5_000)
    window._on_events([StatusChange(9.0, "waiting")])
    assert window.live.status == "paused" and window.pause_action.isChecked()
    window.pause_action.trigger()
    qtbot.waitUntil(lambda: len(fed) > fed_when_paused + 10, timeout=10_000)
    assert window.live.status != "paused"
    window.stop()


def test_a_confirmation_then_an_undo(qtbot, tmp_path: Path) -> None:
    header = MatchHeader("horse-race", ("Ann", "Ben"), False)
    camera = StillCamera()
    window = make_window(tmp_path, header, camera, NoDetector())
    qtbot.addWidget(window)
    window.show()
    window.start()
    ask = NeedsConfirmation(1.0, "who started the round?", ((RoundStart("Ann"),), (RoundStart("Ben"),)))
    window._on_events([ask])
    dialog = window.pending_dialog
    assert isinstance(dialog, ConfirmDialog)
    from PySide6.QtWidgets import QPushButton

    buttons = [b for b in dialog.findChildren(QPushButton) if "Ben" in b.text()]
    assert len(buttons) == 1
    buttons[0].click()
    qtbot.waitUntil(lambda: window.match.round_no == 1, timeout=10_000)
    assert window.match.next_player == "Ben"
    window._correct([Play("Ben", Tile(1, 4))])
    qtbot.waitUntil(lambda: window.match.scores()["Ben"] == 1, timeout=10_000)
    assert len(saved(window).steps) == 2 and window.log.count() == 2
    assert window.undo_action.isEnabled() and not window.redo_action.isEnabled()
    window.undo()
    qtbot.waitUntil(lambda: window.match.scores()["Ben"] == 0, timeout=10_000)
    assert len(saved(window).steps) == 1 and window.log.count() == 1 and window.redo_action.isEnabled()
    resumed = saved(window).match
    assert resumed.round_no == 1 and resumed.current_board().tiles == ()
    window.redo()
    qtbot.waitUntil(lambda: window.match.scores()["Ben"] == 1, timeout=10_000)
    assert len(saved(window).steps) == 2 and not window.redo_action.isEnabled()
    window.stop()


def test_an_illegal_correction_is_refused(qtbot, tmp_path: Path, monkeypatch) -> None:
    header = MatchHeader("seven-rocks", ("Ann", "Ben", "Cid", "Dee"), True)
    window = make_window(tmp_path, header, StillCamera(), NoDetector())
    qtbot.addWidget(window)
    shown = []
    monkeypatch.setattr("scorer.app.window_corrections.QMessageBox.warning", lambda *a: shown.append(a[2]))
    window._correct([Play("Ann", Tile(1, 4))])  # no round started
    assert shown and "round" in shown[0]
    window.stop()


def test_settings_are_kept_and_a_damaged_file_gives_the_defaults(tmp_path: Path) -> None:
    from scorer.app.settings import Settings

    s = Settings(camera=1, lang="fi", voice=False, still_seconds=0.8)
    s.save()
    assert Settings.load() == s
    Settings.path().write_text("{not json")
    assert Settings.load() == Settings()


def test_the_calibration_wizard_finds_the_target_and_saves_a_profile(qtbot) -> None:
    import sys as _sys

    _sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "vision"))
    from test_calibration import view

    from scorer.app.calibrate import CalibrationWizard
    from scorer.vision.calibration import load_profile

    wizard = CalibrationWizard()
    qtbot.addWidget(wizard)
    image, _ = view(1.4, 12, 30)
    wizard.name.setText("club-table-1")
    wizard.use_image(image)
    assert "6 of 6 markers" in wizard.result.text()
    wizard._save()
    assert load_profile("club-table-1").markers == 6
    wizard.use_image(np.zeros((200, 300, 3), np.uint8))
    assert "not found" in wizard.result.text()
    # A wide-angle camera: the target in the middle and toward the corners; the lens is measured.
    from test_calibration import PLACES

    wizard._start_over()
    for i, place in enumerate(PLACES):
        image, _ = view(1.4, 0, 0, seed=i, target_at=place, lens_k=-0.15)
        wizard.use_image(image)
    assert "views: 5, lens corrected (k = -0.1" in wizard.result.text()
    assert wizard.profile.lens_model.k == pytest.approx(-0.15, abs=0.03)


def one_round_film(folder: Path):
    """A one-round game video in ``folder``, its truth and labels: the simulated match."""
    spec = VideoSpec("horse-race", 2, False, 3, size=(480, 270), max_rounds=1, move_seconds=1.3)
    return make_video(spec, folder / "v.mp4", folder / "v.truth.jsonl", folder / "v.labels.jsonl")


def seekable_recording(tmp_path: Path, film: Path | None = None):
    """A one-round game video (made in ``tmp_path``, or the one in ``film``) as a seekable recording that tells
    the truth detector which frame is shown: the simulated match (None for a film made before), the source and
    the detector."""
    sim = one_round_film(tmp_path) if film is None else None
    folder = tmp_path if film is None else film
    video, labels = folder / "v.mp4", folder / "v.labels.jsonl"
    detector = TruthDetector(labels)

    class Seekable:
        def __init__(self) -> None:
            self.inner = VideoFile(video, step=2)
            self.fps, self.duration, self.step = self.inner.fps, self.inner.duration, 2

        def frames(self, start: int = 0):
            for f in self.inner.frames(start):
                detector.frame = f.index
                yield f

    return sim, Seekable(), detector


def test_replay_mode_pauses_and_seeks_with_the_scores_following(qtbot, tmp_path: Path) -> None:
    sim, source, detector = seekable_recording(tmp_path)
    header = MatchHeader("horse-race", ("Ann", "Ben"), False)
    truth = tmp_path / "v.truth.jsonl"

    window = make_window(tmp_path, header, source, detector)
    qtbot.addWidget(window)
    assert window.worker.seekable and window.timeline.maximum() > 100
    window.show()
    window.start()
    qtbot.waitUntil(lambda: len(window.snapshot.steps) >= 8, timeout=60_000)
    # The timeline is marked where each move was scored.
    move_times = {round(s.t, 1) for s in window.snapshot.steps}
    assert move_times <= set(window.timeline.marks) and len(window.timeline.marks) >= 4
    window.play_button.setChecked(True)  # pause
    qtbot.wait(300)
    paused_at = window.worker.position
    qtbot.wait(300)
    assert window.worker.position == paused_at
    first = window.snapshot.steps[:4]
    at = first[-1].t
    # A move picked in the list offers its moment for review (the timeline is not the only way to it).
    window._show_board_at(window.log.item(3))
    review = next(b for b in window.board_dialog.findChildren(QPushButton) if b.text() == "Review this moment")
    review.click()
    assert window.review_at == at and not window.board_dialog.isVisible()
    assert window.statusBar().currentMessage().startswith(f"Reviewing {i18n.decimal(at)} s: Ann ")
    # No move is entered, undone or redone while a past moment is shown: it would change the match as it is now.
    assert not any(b.isEnabled() for b in window.correction_buttons) and not window.undo_action.isEnabled()
    window.score_again_from(at)  # one undo line withdraws the later moves; play goes on from there
    assert window.undo_action.isEnabled()
    assert not window.statusBar().currentMessage().startswith("Reviewing")  # (that moment is no longer shown)
    qtbot.waitUntil(lambda: '"type": "undo"' in window.session.path.read_text(), timeout=10_000)
    assert not window.play_button.isChecked()
    qtbot.waitUntil(lambda: window.finished, timeout=120_000)
    assert window.snapshot.steps[:4] == first and saved(window).undone == ()
    # The timeline marks the moves in force.
    assert set(window.timeline.marks) == {round(s.t, 1) for s in window.snapshot.steps}
    # Played on from the seek, the match ends the round exactly as without it.
    truth_events = [l for l in truth.read_text().splitlines()[1:]]
    assert len(window.snapshot.steps) == len(saved(window).steps) == len(truth_events)
    # Ended, there is nothing to pause; scored again from a moment, the recording plays on.
    assert not window.play_button.isEnabled() and not window.pause_action.isEnabled()
    window.score_again_from(at)
    assert window.play_button.isEnabled() and not window.finished
    qtbot.waitUntil(lambda: window.finished, timeout=120_000)
    assert not window.play_button.isEnabled()
    window.stop()


def test_a_recording_waits_at_a_question_until_it_is_answered(qtbot, tmp_path: Path) -> None:
    sim, source, detector = seekable_recording(tmp_path)
    window = make_window(tmp_path, MatchHeader("horse-race", ("Ann", "Ben"), False), source, detector)
    qtbot.addWidget(window)
    window.show()
    window.start()
    qtbot.waitUntil(lambda: window.worker.position > 0.5, timeout=30_000)
    window._on_events([NeedsConfirmation(1.0, "who started the round?", ((RoundStart("Ann"),), (RoundStart("Ben"),)))])
    assert window.play_button.isChecked() and window.statusBar().currentMessage().startswith("Paused for the question")
    qtbot.wait(300)
    held_at = window.worker.position
    qtbot.wait(300)
    assert window.worker.position == held_at  # (no frame settles it by a guess meanwhile)
    window._on_events([NeedsConfirmation(1.5, "another question", ((RoundStart("Ben"),),))])
    assert window.play_button.isChecked()  # (the newer question holds it on)
    window.pending_dialog.reject()  # "Not now": put off -- the players fix it by hand, the recording waits for them
    assert window.play_button.isChecked() and window.pending_dialog is None and window.held_for_players
    assert window.statusBar().currentMessage().startswith("The question is put off and the recording waits")
    qtbot.wait(300)
    assert window.worker.position == held_at  # (no frame settles it by a guess meanwhile)
    window.play_button.setChecked(False)  # Play: the camera reads on
    assert not window.held_for_players
    window.play_button.setChecked(True)  # paused by the players: a question answered does not play it again
    window._on_events([NeedsConfirmation(2.0, "a third question", ((RoundStart("Ann"),),))])
    window.pending_dialog.reject()
    assert window.play_button.isChecked()
    window.play_button.setChecked(False)
    window._on_events([NeedsConfirmation(2.5, "a fourth question", ((RoundStart("Ann"),),))])
    window.play_button.setChecked(False)  # played on by the players while it is open (they are told what that means),
    assert window.statusBar().currentMessage().startswith("Playing on with the question open")
    window.play_button.setChecked(True)  # then paused by them: their pause stays when it is put off
    window.pending_dialog.reject()
    assert window.play_button.isChecked()
    window.play_button.setChecked(False)
    window._on_events([NeedsConfirmation(3.0, "the camera cannot tell what happened", ())])
    assert not window.play_button.isChecked()  # (nothing to pick: the camera reading on is what settles it)
    window.stop()


def test_the_app_uses_pyside6s_qt_plugins_not_opencvs() -> None:
    import os

    import cv2  # noqa: F401
    import scorer.app  # noqa: F401

    assert "cv2" not in os.environ.get("QT_QPA_PLATFORM_PLUGIN_PATH", "")


def test_painting_for_hours_does_not_wear_down_pythons_none(qtbot, tmp_path: Path) -> None:
    """PySide6 6.12.0 drops a reference to None on every void call; on Python 3.11 that aborts the app
    after a few hundred thousand paints (an evening of live view).  Each repaint here is hundreds of calls."""
    import sys

    header = MatchHeader("horse-race", ("Ann", "Ben"), False)
    window = make_window(tmp_path, header, StillCamera(), NoDetector())
    qtbot.addWidget(window)
    window.grab()
    before = sys.getrefcount(None)
    for _ in range(100):
        window.grab()
    # A healthy binding leaves None's count about where it was; the broken one takes thousands off it.
    assert sys.getrefcount(None) > before - 500


def test_the_hands_at_a_rounds_end_can_be_entered_by_hand(qtbot, tmp_path: Path) -> None:
    from scorer.app.corrections import HandsDialog
    from scorer.rules import Reveal
    from scorer.rules.simulate import simulate_match

    sim = simulate_match("horse-race", 2, seed=5)
    k = next(k for k, s in enumerate(sim.events) if isinstance(s.event, Reveal))
    before, reveal = sim.events[k - 1].after, sim.events[k].event
    pipeline = TablePipeline(before, NoDetector(), PipelineConfig(), fps=30)
    speaker = Speaker("en")
    speaker.muted = True
    window = MainWindow(pipeline.history, pipeline, StillCamera(), realtime=False, speaker=speaker)
    qtbot.addWidget(window)
    dialog = HandsDialog(window, before)
    hands = dict(reveal.hands)
    for player, field in dialog.fields:
        field.setText(", ".join(f"{t.a} {t.b}" for t in hands[player]))
    assert dialog.event_() == reveal
    window.start()
    window._correct([dialog.event_()])
    qtbot.waitUntil(lambda: len(window.snapshot.steps) == 1, timeout=10_000)
    assert window.match.scores() == sim.events[k].after.scores()
    dialog.fields[0][1].setText("1 2 3")
    with pytest.raises(ValueError, match="pairs of numbers"):
        dialog.event_()
    window.stop()


@pytest.mark.parametrize("seen", [2, 4])
def test_hands_entered_with_more_or_fewer_tiles_than_the_camera_saw_drawn_write_the_draw_as_it_was(
        qtbot, tmp_path: Path, seen: int, monkeypatch) -> None:
    # (Fewer: a draw counted too many -- a back the camera saw go while it saw nothing else, put to the wrong player.
    # A tile forgotten in the typing looks the same: the players are asked first.)
    from PySide6.QtWidgets import QMessageBox

    from scorer.app import window_corrections
    from scorer.rules import Draw, Reveal
    from scorer.rules.simulate import simulate_match

    sim = simulate_match("horse-race", 4, seed=7)  # Dee draws three in the first round
    events = [s.event for s in sim.events]
    k = next(k for k, e in enumerate(events) if isinstance(e, Reveal))
    d = next(d for d, e in enumerate(events) if isinstance(e, Draw) and e.count == 3)
    session = Session.create(MatchHeader("horse-race", sim.events[0].after.players, False), tmp_path)
    for n, e in enumerate(events[:d] + [Draw(events[d].player, seen)] + events[d + 1 : k]):  # a draw of three seen so
        session.apply(e, float(n))
    pipeline = TablePipeline(session, NoDetector(), PipelineConfig(), fps=30)
    speaker = Speaker("en")
    speaker.muted = True
    window = MainWindow(session, pipeline, StillCamera(), realtime=False, speaker=speaker)
    qtbot.addWidget(window)
    window.start()
    asked: list[str] = []
    answer = [QMessageBox.StandardButton.No]
    monkeypatch.setattr(window_corrections.QMessageBox, "question", lambda _parent, _title, text: asked.append(text) or answer[0])
    if seen > 3:
        assert not window._hands_entered(events[k]) and asked[0].startswith("These hands hold fewer tiles than the camera counted")
        assert f"{events[d].player} drew 3, not 4" in asked[0]
        answer[0] = QMessageBox.StandardButton.Yes
    assert window._hands_entered(events[k]) and len(asked) == (2 if seen > 3 else 0)
    qtbot.waitUntil(lambda: bool(window.snapshot.steps) and isinstance(window.snapshot.steps[-1].event, Reveal), timeout=10_000)
    assert [s.event for s in window.snapshot.steps] == events[: k + 1]
    assert window.match.scores() == sim.events[k].after.scores()
    window.stop()
    session.close()


class FailingRecording(StillCamera):
    """A recording whose file breaks off after a few frames, every time it is played."""

    def frames(self, start: int = 0):
        image = np.full((360, 640, 3), 60, np.uint8)
        for i in range(start, start + 5):
            yield Frame(i, i / self.fps, image)
        from scorer.errors import SourceError

        raise SourceError("evening.mp4: the file breaks off")


def test_a_recording_that_fails_ends_as_played_out_and_corrections_still_count(qtbot, tmp_path: Path) -> None:
    window = make_window(tmp_path, MatchHeader("horse-race", ("Ann", "Ben"), False), FailingRecording(), NoDetector())
    qtbot.addWidget(window)
    window.show()
    window.start()
    qtbot.waitUntil(lambda: window.finished, timeout=10_000)
    assert "stopped: evening.mp4: the file breaks off" in window.statusBar().currentMessage()
    assert not window.play_button.isEnabled()
    assert window.live.image is not None  # (the recording's last picture, until the match moves on by hand)
    window._correct([RoundStart("Ann"), Play("Ann", Tile(1, 4))])  # the moves are still taken, and saved
    qtbot.waitUntil(lambda: window.match.scores()["Ann"] == 1, timeout=10_000)
    # The picture no longer shows the match: its layout is drawn instead, as with no camera.
    assert window.live.image is None and Tile(1, 4) in window.live.layout_board.tiles
    window.undo()
    qtbot.waitUntil(lambda: len(saved(window).steps) == 1, timeout=10_000)
    window.score_again_from(0.0)  # played again, it fails again: told again, and nothing is left waiting
    qtbot.waitUntil(lambda: window.finished, timeout=10_000)
    assert not window.play_button.isEnabled()
    window.stop()


def test_moves_entered_after_a_recording_ended_are_drawn_and_undone_so(qtbot, tmp_path: Path) -> None:
    session = Session.create(MatchHeader("horse-race", ("Ann", "Ben"), False), tmp_path)
    session.apply(RoundStart("Ann"), 0.01)  # (the recording ends mid-round)
    window = make_window(tmp_path, session.header, FailingRecording(), NoDetector(), session)
    qtbot.addWidget(window)
    window.show()
    window.start()
    qtbot.waitUntil(lambda: window.finished, timeout=10_000)
    assert window.live.image is not None
    window._correct([Play("Ann", Tile(1, 4))])
    qtbot.waitUntil(lambda: len(window.snapshot.steps) == 2, timeout=10_000)
    assert window.live.image is None and Tile(1, 4) in window.live.layout_board.tiles
    window.undo()  # back to the moves the recording ended with: its last picture shows the match again
    qtbot.waitUntil(lambda: len(window.snapshot.steps) == 1, timeout=10_000)
    assert window.live.image is not None and window.live.image is window.ended_view[0] and window.live.detections == window.ended_view[1]
    window.redo()  # (and the tile entered is drawn again)
    qtbot.waitUntil(lambda: len(window.snapshot.steps) == 2, timeout=10_000)
    assert window.live.image is None and Tile(1, 4) in window.live.layout_board.tiles
    window.stop()


class FailingCamera(StillCamera):
    """A camera unplugged after a few frames."""

    def frames(self):
        image = np.full((360, 640, 3), 60, np.uint8)
        for i in range(5):
            yield Frame(i, i / self.fps, image)
        from scorer.errors import SourceError

        raise SourceError("camera 0: no picture")


class BrokenPipeline(TablePipeline):
    """A pipeline that fails on its fourth frame (a model or a session that cannot be written, say)."""

    def feed(self, frame):
        if frame.index == 3:
            from scorer.errors import ModelError

            raise ModelError("the reader's model is damaged")
        return super().feed(frame)


def failing_window(qtbot, tmp_path: Path, pipeline_type: type[TablePipeline], camera) -> MainWindow:
    """A window whose pipeline is of ``pipeline_type`` (one made to fail), on ``camera``."""
    session = Session.create(MatchHeader("horse-race", ("Ann", "Ben"), False), tmp_path)
    speaker = Speaker("en")
    speaker.muted = True
    window = MainWindow(session, pipeline_type(session, NoDetector(), PipelineConfig(), fps=30.0), camera,
                        realtime=False, speaker=speaker)
    qtbot.addWidget(window)
    return window


def test_a_camera_or_the_scoring_failing_is_told_as_what_it_is(qtbot, tmp_path: Path) -> None:
    window = make_window(tmp_path / "a", MatchHeader("horse-race", ("Ann", "Ben"), False), FailingCamera(), NoDetector())
    qtbot.addWidget(window)
    window.start()
    qtbot.waitUntil(lambda: window.finished, timeout=10_000)
    assert window.statusBar().currentMessage().startswith("The camera stopped: once it is back, Play ▸ Try the camera again")
    assert window.statusBar().currentMessage().endswith("what was scored is kept (camera 0: no picture).")
    window.stop()
    broken = failing_window(qtbot, tmp_path / "b", BrokenPipeline, StillCamera())
    broken.start()
    qtbot.waitUntil(lambda: broken.finished, timeout=10_000)
    assert broken.statusBar().currentMessage().startswith("Scoring stopped: the reader's model is damaged.")
    broken._correct([RoundStart("Ann")])  # corrections still taken
    qtbot.waitUntil(lambda: broken.match.round_no == 1, timeout=10_000)
    broken.stop()


class FaultyPipeline(TablePipeline):
    """A pipeline with a fault in the program (not one of the product's own errors) on its fourth frame."""

    def feed(self, frame):
        if frame.index == 3:
            return {}["no such key"]
        return super().feed(frame)


def test_a_fault_in_the_program_stops_the_scoring_not_the_buttons(qtbot, tmp_path: Path, caplog) -> None:
    window = failing_window(qtbot, tmp_path, FaultyPipeline, StillCamera())
    window.start()
    qtbot.waitUntil(lambda: window.finished, timeout=10_000)
    assert window.statusBar().currentMessage() == ("Scoring stopped by a fault in the program. What was scored is kept; "
                                                   "corrections and undo still work. (KeyError: 'no such key')")
    assert "Traceback" in caplog.text and "scoring stopped at" in caplog.text  # the fault's traceback is logged
    window.worker.call(lambda: 1 / 0)  # a request that fails: told, and the next one still served
    qtbot.waitUntil(lambda: "ZeroDivisionError" in window.statusBar().currentMessage(), timeout=10_000)
    assert window.statusBar().currentMessage() == "A fault in the program: this was not done. (ZeroDivisionError: division by zero)"
    window._correct([RoundStart("Ann")])
    qtbot.waitUntil(lambda: window.match.round_no == 1, timeout=10_000)
    window.stop()


class WatchedRecording(StillCamera):
    """A recording of a still table that knows whether its frames were let go (a file or a webcam released)."""

    released = False

    def frames(self, start: int = 0):
        image = np.full((360, 640, 3), 60, np.uint8)
        try:
            for i in range(start, 300):
                yield Frame(i, i / self.fps, image)
        finally:
            self.released = True


class FaultAfterWritePipeline(TablePipeline):
    """A fault in the program on the fourth frame, after a move was written; and in a correction asked for later."""

    def feed(self, frame):
        if frame.index == 3:
            self.confirm([RoundStart("Ann")], frame.t)
            raise RuntimeError("after the write")
        return super().feed(frame)

    def rewind(self, keep, t):
        raise RuntimeError("in the rewind")


def test_after_a_fault_the_recording_is_let_go_and_the_move_written_is_shown(qtbot, tmp_path: Path) -> None:
    camera = WatchedRecording()
    window = failing_window(qtbot, tmp_path, FaultAfterWritePipeline, camera)
    window.start()
    qtbot.waitUntil(lambda: window.finished, timeout=10_000)
    assert camera.released  # not held until the garbage is collected (a webcam: the start screen opens it again)
    assert window.match.round_no == 1 and window.log.count() == 1  # the move written before the fault
    assert "(RuntimeError: after the write)" in window.statusBar().currentMessage()
    window.score_again_from(0.0)  # the rewind fails: the window is told the play it asked for stopped
    qtbot.waitUntil(lambda: window.finished, timeout=10_000)
    assert not window.play_button.isEnabled()
    assert "(RuntimeError: in the rewind)" in window.statusBar().currentMessage()
    window.stop()


class FaultyCorrectionPipeline(TablePipeline):
    """A fault in the program while a correction is written, the camera playing on."""

    def confirm(self, events, t):
        raise RuntimeError("half a rewrite")


def test_a_fault_in_a_correction_during_play_stops_the_scoring(qtbot, tmp_path: Path) -> None:
    window = failing_window(qtbot, tmp_path, FaultyCorrectionPipeline, StillCamera())
    window.start()
    qtbot.wait(200)
    assert not window.finished
    window._correct([RoundStart("Ann")])  # no more scoring on a session the fault may have left half rewritten
    qtbot.waitUntil(lambda: window.finished, timeout=10_000)
    assert "(RuntimeError: half a rewrite)" in window.statusBar().currentMessage()
    window.stop()
