"""The live view's key to its outlines: what each colour means, kept off the layout it explains."""

from __future__ import annotations

from PySide6.QtGui import QImage

from scorer.app import i18n
from scorer.app.layout_picture import OTHER_COLOUR, SCORING_COLOUR
from scorer.app.liveview import BACK_COLOUR, LEGEND_ROW, UNSURE_COLOUR, LiveView
from scorer.rules import Board, Tile
from scorer.vision.detector import HalfReading, TileDetection

EVERY_KIND = [(SCORING_COLOUR, "in the end sum"), (OTHER_COLOUR, "the other tiles"), (UNSURE_COLOUR, "read unsurely"),
              (BACK_COLOUR, "face down")]


def tile(x: float, pips: tuple[int, int] | None, sure: float = 0.99) -> TileDetection:
    corners = ((x, 100.0), (x + 40, 100.0), (x + 40, 120.0), (x, 120.0))
    if pips is None:
        return TileDetection(corners, "down", 0.9)
    return TileDetection(corners, "up", 0.9, (HalfReading(pips[0], (x + 10, 110), sure), HalfReading(pips[1], (x + 30, 110), sure)))


def test_a_camera_picture_with_tiles_has_the_whole_key_and_each_outline_its_colour(qtbot) -> None:
    view = LiveView()
    qtbot.addWidget(view)
    assert view.legend() == []  # (nothing drawn, no key)
    view.show_frame(QImage(640, 360, QImage.Format.Format_RGB888))
    assert view.legend() == []  # (a bare table: no outline to explain)
    readings = [tile(10, (3, 5)), tile(60, (1, 2)), tile(110, (4, 4), sure=0.5), tile(160, None)]
    view.show_reading(readings, {Tile.of(3, 5)}, 8)
    assert view.legend() == EVERY_KIND
    assert [view._kind(d) for d in readings] == ["scoring", "other", "unsure", "down"]
    view.show_reading(readings[:1], set(), None)
    assert view.legend() == EVERY_KIND  # (the same key as tiles come and go)
    view.resize(800, 450)
    view.grab()  # (painted with its key: no error)


def test_the_layout_drawn_without_a_camera_keeps_clear_of_its_key(qtbot) -> None:
    view = LiveView()
    qtbot.addWidget(view)
    view.resize(800, 450)
    before = view.layout_area()
    board = Board(every_double_spins=True).place(Tile.of(5, 5))
    board = board.place(Tile.of(5, 6), board.placements(Tile.of(5, 6))[0])
    view.show_layout(board)
    view.show_reading([], {Tile.of(5, 6)}, 11)
    assert view.legend() == EVERY_KIND[:2]
    assert view.layout_area().bottom() <= view.height() - 6 - LEGEND_ROW < before.bottom()  # (the key's row kept free)
    assert i18n.set_language("fi") == "fi"
    try:
        assert view.legend() == [(SCORING_COLOUR, "päiden summassa"), (OTHER_COLOUR, "muut laatat")]
    finally:
        i18n.set_language("en")
