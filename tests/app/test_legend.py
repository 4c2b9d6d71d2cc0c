"""The live view's key to its outlines: what each colour means, for the outlines in the picture only."""

from __future__ import annotations

from PySide6.QtGui import QImage

from scorer.app import i18n
from scorer.app.layout_picture import OTHER_COLOUR, SCORING_COLOUR
from scorer.app.liveview import BACK_COLOUR, UNSURE_COLOUR, LiveView
from scorer.rules import Board, Tile
from scorer.vision.detector import HalfReading, TileDetection


def tile(x: float, pips: tuple[int, int] | None, sure: float = 0.99) -> TileDetection:
    corners = ((x, 100.0), (x + 40, 100.0), (x + 40, 120.0), (x, 120.0))
    if pips is None:
        return TileDetection(corners, "down", 0.9)
    return TileDetection(corners, "up", 0.9, (HalfReading(pips[0], (x + 10, 110), sure), HalfReading(pips[1], (x + 30, 110), sure)))


def test_the_key_names_the_outlines_the_camera_picture_shows(qtbot) -> None:
    view = LiveView()
    qtbot.addWidget(view)
    assert view.legend() == []  # (nothing drawn, no key)
    view.show_frame(QImage(640, 360, QImage.Format.Format_RGB888))
    view.show_reading([tile(10, (3, 5)), tile(60, (1, 2))], {Tile.of(3, 5)}, 8)
    assert view.legend() == [(SCORING_COLOUR, "in the end sum"), (OTHER_COLOUR, "read surely")]
    view.show_reading([tile(10, (3, 5), sure=0.5), tile(60, None)], set(), None)
    assert view.legend() == [(UNSURE_COLOUR, "read unsurely: asked"), (BACK_COLOUR, "face down")]
    view.resize(800, 450)
    view.grab()  # (painted with its key: no error)


def test_the_layout_drawn_without_a_camera_has_its_key_too(qtbot) -> None:
    view = LiveView()
    qtbot.addWidget(view)
    view.resize(800, 450)
    board = Board(every_double_spins=True).place(Tile.of(5, 5))
    view.show_layout(board)
    view.show_reading([], {Tile.of(5, 5)}, 10)
    assert view.legend() == [(SCORING_COLOUR, "in the end sum")]
    view.show_layout(board.place(Tile.of(5, 6), board.placements(Tile.of(5, 6))[0]))
    view.show_reading([], {Tile.of(5, 6)}, 11)
    assert view.legend() == [(SCORING_COLOUR, "in the end sum"), (OTHER_COLOUR, "the other tiles")]
    assert i18n.set_language("fi") == "fi"
    try:
        assert view.legend() == [(SCORING_COLOUR, "päiden summassa"), (OTHER_COLOUR, "muut laatat")]
    finally:
        i18n.set_language("en")
