"""The camera's question shows the table as the camera saw it, the tiles it asks about ringed."""

from __future__ import annotations

from pathlib import Path

import numpy as np
from PySide6.QtGui import QColor
from PySide6.QtWidgets import QLabel
from test_app import NoDetector, StillCamera, make_window

from scorer.app.liveview import UNSURE_COLOUR, to_qimage
from scorer.app.question_picture import ASKED_COLOUR, asked_boxes, question_picture
from scorer.pipeline import NeedsConfirmation, PipelineConfig, TablePipeline, pointed_at
from scorer.pipeline.sources import Frame
from scorer.pipeline.questions import HandsLeft, NotPlayable, SeenTwoWays, TableUnfit, WhichReading, needs_confirmation
from scorer.rules import Play, Tile
from scorer.rules.log import MatchHeader
from scorer.vision.tile_detection import HalfReading, TileDetection
from scorer.layout.reading import unsure_problem
from scorer.words import Listed, Words, at


def box(x: float, y: float, pips: tuple[int, int], sure: float = 0.99) -> TileDetection:
    """A face-up tile 40 x 20 px lying along x with its centre at (x, y)."""
    corners = ((x - 20, y - 10), (x + 20, y - 10), (x + 20, y + 10), (x - 20, y + 10))
    return TileDetection(corners, "up", 0.9, (HalfReading(pips[0], (x - 10, y), sure), HalfReading(pips[1], (x + 10, y), sure)))


def frame() -> np.ndarray:
    return np.full((720, 1280, 3), 90, np.uint8)


def near(picture, x: int, y: int, colour: QColor, reach: int = 3) -> bool:
    """Whether ``colour`` is drawn within ``reach`` pixels of (x, y)."""
    return any(picture.pixelColor(x + dx, y + dy) == colour for dx in range(-reach, reach + 1) for dy in range(-reach, reach + 1))


def test_what_each_question_points_at() -> None:
    assert pointed_at(WhichReading((600.0, 300.0), ((Tile(3, 5),), (Tile(3, 6),)))) == (((600.0, 300.0),), frozenset())
    assert pointed_at(NotPlayable((Tile(1, 2), Tile(2, 2)), "Ann")) == ((), frozenset({Tile(1, 2), Tile(2, 2)}))
    seen = SeenTwoWays(((Tile(4, 4), Tile(3, 3)), (Tile(4, 4), Tile(3, 3), Tile(5, 6))))
    assert pointed_at(seen) == ((), frozenset({Tile(5, 6)}))  # what the two readings differ on
    assert pointed_at(HandsLeft()) == ((), frozenset())  # about the hands: the whole table is shown
    assert pointed_at(None) == ((), frozenset())
    # The table unfit: the tiles its problems name (a tile seen twice, a spinner's branch), where it has no boxes.
    spinner = Words("spinner {tile}: a branch is used before both line sides are filled",
                    tile=Words("{tile} at {place}", tile=Tile(4, 4), place=at((599.2, 404.6))))
    twice = Words("{tile} is seen {count} times: {places}", tile=Tile(4, 5), count=2, places=Listed(["a", "b"]))
    assert pointed_at(TableUnfit((spinner, twice))) == (((599.2, 404.6),), frozenset({Tile(4, 4), Tile(4, 5)}))
    # A tile read unsurely, as the layout's reading tells it: its place.
    unsure = unsure_problem(box(600, 300, (3, 5), 0.6))
    assert pointed_at(TableUnfit((unsure,), boxes=((10.0, 20.0),))) == (((10.0, 20.0), (600.0, 300.0)), frozenset())


def test_the_boxes_asked_about_are_those_at_the_place_or_read_as_the_tile() -> None:
    unsure, other, named = box(600, 300, (3, 5), 0.6), box(200, 100, (1, 1)), box(900, 500, (2, 4))
    unread = TileDetection(box(300, 600, (0, 0)).corners, "up", 0.9, (HalfReading.no_count((290, 600)), HalfReading.no_count((310, 600))))
    detections = [unsure, other, named, unread]
    assert asked_boxes(detections, [(603.0, 297.0)], frozenset()) == [unsure.corners]
    assert asked_boxes(detections, [], frozenset({Tile.of(4, 2)})) == [named.corners]
    assert asked_boxes(detections, [], frozenset({Tile(0, 0)})) == []  # (a face with no count is not the double blank)
    # A place where no box lies: a square the tiles' length round it (all 40 px long here).
    assert asked_boxes(detections, [(10.0, 10.0)], frozenset()) == [((-10.0, -10.0), (30.0, -10.0), (30.0, 30.0), (-10.0, 30.0))]


def test_the_picture_is_cut_round_the_tile_asked_about_and_rings_it(qapp) -> None:
    unsure, elsewhere = box(600, 300, (3, 5), 0.6), box(1200, 650, (0, 1), 0.5)
    picture = question_picture(to_qimage(frame()), [unsure, elsewhere], [unsure.corners], size=(560, 340))
    assert picture.width() <= 560 and picture.height() <= 340
    # 0.3 of the frame each way round the tile: 384 x 216 px, scaled to 560 px wide.
    scale = 560 / 384
    assert picture.width() == 560 and abs(picture.height() - round(216 * scale)) <= 1
    left, top = 600 - 192, 300 - 108
    x, y = round((580 - left) * scale), round((300 - top) * scale)  # the middle of the tile's left end
    assert near(picture, x, y, ASKED_COLOUR)
    # The other unsure tile lies outside the cut; with no tile asked about, the whole frame, it framed in orange.
    whole = question_picture(to_qimage(frame()), [unsure, elsewhere], [], size=(640, 360))
    assert (whole.width(), whole.height()) == (640, 360)
    assert near(whole, 590, 325, UNSURE_COLOUR) and near(whole, 290, 150, UNSURE_COLOUR)
    # A tile in the frame's corner: the cut slides inside the frame, as large as anywhere else.
    corner = box(20, 10, (3, 5), 0.6)
    picture = question_picture(to_qimage(frame()), [corner], [corner.corners], size=(560, 340))
    assert (picture.width(), picture.height()) == (560, 315)
    # Boxes wholly outside the frame (another frame's): the whole frame.
    outside = box(2000, 2000, (3, 5), 0.6)
    assert question_picture(to_qimage(frame()), [], [outside.corners], size=(640, 360)).width() == 640


def shown_picture(window):
    """The picture in the question dialog open now (None: none shown)."""
    shown = [label.pixmap().toImage() for label in window.pending_dialog.findChildren(QLabel) if not label.pixmap().isNull()]
    return shown[0] if shown else None


def test_the_question_dialog_shows_the_picture_with_the_tile_ringed(qtbot, tmp_path: Path) -> None:
    window = make_window(tmp_path, MatchHeader("horse-race", ("Ann", "Ben"), False), StillCamera(), NoDetector())
    qtbot.addWidget(window)
    question = WhichReading((600.0, 300.0), ((Tile(3, 5),), (Tile(3, 6),)), alternatives=((Play("Ann", Tile(3, 5)),),))
    window._on_events([needs_confirmation(1.0, question)])  # no frame seen yet: no picture
    assert shown_picture(window) is None
    window.live.show_frame(to_qimage(frame()))
    window.live.show_reading([box(600, 300, (3, 5), 0.6)], set(), None)
    window._on_events([NeedsConfirmation(2.0, "again", question.alternatives, (), question)])
    picture = shown_picture(window)
    scale = 560 / 384  # as in the test above: the tile's left end in the picture
    assert near(picture, round((580 - 408) * scale), round((300 - 192) * scale), ASKED_COLOUR)
    said = " ".join(label.text() for label in window.pending_dialog.findChildren(QLabel))
    assert "ringed in magenta" in said
    # Many ways offered, one move a line: a smaller picture, and the dialog fits a laptop's 768 px.
    way = tuple(Play("Ann", Tile(3, 5)) for _ in range(6))
    many = WhichReading((600.0, 300.0), ((Tile(3, 5),), (Tile(3, 6),)), alternatives=(way, way, way))
    window._on_events([needs_confirmation(2.5, many)])
    assert shown_picture(window).height() <= 220 and window.pending_dialog.sizeHint().height() < 740
    # A question about the hands names no tile: the whole table, and nothing said to be ringed.
    window._on_events([needs_confirmation(3.0, HandsLeft())])
    assert shown_picture(window).width() == 560
    assert "ringed" not in " ".join(label.text() for label in window.pending_dialog.findChildren(QLabel))
    # A moment of the recording reviewed is not the table asked about: no picture.
    window.review_at = 1.0
    window._on_events([NeedsConfirmation(4.0, "again", question.alternatives, (), question)])
    assert shown_picture(window) is None
    window.stop()


class AskingPipeline(TablePipeline):
    """A pipeline that asks about the tile at (600, 300) on its eighth frame."""

    def feed(self, frame):
        events = super().feed(frame)
        if frame.index == 7:
            return [*events, needs_confirmation(frame.t, WhichReading((600.0, 300.0), ((Tile(3, 5),), (Tile(3, 6),))))]
        return events


class GreyRecording(StillCamera):
    """Frames one grey level apart (frame i is grey 20 + 10 i), as fast as they are read."""

    def frames(self, start: int = 0):
        for i in range(start, 12):
            yield Frame(i, i / self.fps, np.full((720, 1280, 3), 20 + 10 * i, np.uint8))


def test_the_picture_is_the_frame_the_question_was_asked_on(qtbot, tmp_path: Path) -> None:
    from scorer.app.speech import Speaker
    from scorer.app.window import MainWindow
    from scorer.sessions import Session

    session = Session.create(MatchHeader("horse-race", ("Ann", "Ben"), False), tmp_path)
    recording = GreyRecording()
    speaker = Speaker("en")
    speaker.muted = True
    window = MainWindow(session, AskingPipeline(session, NoDetector(), PipelineConfig(), fps=30.0), recording,
                        realtime=False, speaker=speaker)
    qtbot.addWidget(window)
    window.start()
    qtbot.waitUntil(lambda: window.pending_dialog is not None, timeout=10_000)
    picture = shown_picture(window)
    assert picture.pixelColor(5, 5).red() == 90  # the eighth frame's grey, not one shown before it
    window.stop()
