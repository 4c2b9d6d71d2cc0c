"""The cribbage board: holes out and back in groups of five, the game hole, the skunk line, leapfrogging pegs."""

from __future__ import annotations

import pytest
from PySide6.QtGui import QColor

from scorer.app.pegboard import PEG_COLOURS, BoardGeometry, PegBoard, Track, default_skunk_lines


def close(a: float, b: float, tol: float = 0.01) -> bool:
    return abs(a - b) <= tol


@pytest.mark.parametrize("holes,per_row", [(121, 60), (61, 30)])
def test_the_track_runs_out_and_back_in_groups_of_five(holes, per_row) -> None:
    g = BoardGeometry(1200, 400, holes, 2)
    assert g.per_row == per_row
    out = [g.hole(0, k) for k in range(1, per_row + 1)]
    back = [g.hole(0, k) for k in range(per_row + 1, holes)]
    assert len(out) + len(back) == holes - 1
    # Out left to right along one row, back right to left along the other, each hole under its partner.
    assert all(close(p.y(), out[0].y()) for p in out) and all(close(p.y(), back[0].y()) for p in back)
    assert back[0].y() > out[0].y()
    assert all(b.x() > a.x() for a, b in zip(out, out[1:]))
    assert all(b.x() < a.x() for a, b in zip(back, back[1:]))
    assert close(g.hole(0, per_row + 1).x(), g.hole(0, per_row).x())  # the turn
    assert close(g.hole(0, holes - 1).x(), g.hole(0, 1).x())  # home beside the start
    # Groups of five: the step between groups is wider than within one.
    steps = [b.x() - a.x() for a, b in zip(out, out[1:])]
    for i, step in enumerate(steps):  # step i goes from hole i+1 to hole i+2
        if (i + 1) % 5 == 0:
            assert step > steps[0] * 1.5, (i, step)
        else:
            assert close(step, steps[0]), (i, step)
    # The start holes and the game hole lie before the first hole, the game hole in the back row.
    assert g.start_hole(0, 1).x() < g.start_hole(0, 0).x() < g.hole(0, 1).x()
    assert close(g.game_hole(0).y(), back[0].y()) and g.game_hole(0).x() < g.hole(0, holes - 1).x()
    assert g.hole(0, holes) == g.game_hole(0) and g.hole(0, 0) == g.start_hole(0, 0)
    # Tracks one above the other, the same holes at the same x.
    assert close(g.hole(1, 17).x(), g.hole(0, 17).x()) and g.hole(1, 17).y() > g.hole(0, 17).y() + 20
    with pytest.raises(ValueError):
        g.place(holes)


def test_the_skunk_lines() -> None:
    assert default_skunk_lines(121) == (91, 61)
    assert default_skunk_lines(61) == (31,)
    assert default_skunk_lines(50) == ()
    g = BoardGeometry(1200, 400, 121, 2)
    row, x = g.line_x(91)  # between 90 and 91, on the way back
    assert row == 1 and g.hole(0, 91).x() < x < g.hole(0, 90).x()
    row, x = g.line_x(61)  # the turn
    assert row == -1 and x > g.hole(0, 60).x()
    g61 = BoardGeometry(900, 300, 61, 3)
    row, x = g61.line_x(31)
    assert row == -1 and x > g61.hole(0, 30).x()


def test_pegs_leapfrog() -> None:
    t = Track("Ann", 0, 0, "0")
    t = t.moved(5)
    assert (t.front, t.back, t.label) == (5, 0, "5")
    t = t.moved(3)
    assert (t.front, t.back) == (8, 5)
    assert t.moved(0) is t
    t = t.moved(2, label="10 raw")
    assert (t.front, t.back, t.label) == (10, 8, "10 raw")
    g = BoardGeometry(1200, 400, 121, 2)
    front, back = g.peg_points(0, t)
    assert front == g.hole(0, 10) and back == g.hole(0, 8)
    front, back = g.peg_points(1, Track("Ben", 0, 0, "0"))
    assert front == g.start_hole(1, 0) and back == g.start_hole(1, 1)  # both at the start, side by side
    front, back = g.peg_points(1, Track("Ben", 130, 118, "130"))
    assert front == g.game_hole(1) and back == g.hole(1, 118)


def _colour_near(image, point, radius: int = 2) -> list[QColor]:
    return [image.pixelColor(int(point.x()) + dx, int(point.y()) + dy)
            for dx in range(-radius, radius + 1) for dy in range(-radius, radius + 1)]


def test_the_painted_board_shows_the_pegs_where_the_geometry_puts_them(qtbot) -> None:
    board = PegBoard()
    qtbot.addWidget(board)
    board.resize(1200, 420)
    board.set_state("Cribbage: first to 121", 121, [Track("Ann", 95, 88, "95", 1, True), Track("Ben", 30, 12, "30")])
    image = board.grab().toImage()
    g = board.geometry_now()
    red, blue = QColor(PEG_COLOURS[0]), QColor(PEG_COLOURS[1])

    def near(c: QColor, want: QColor, tol: int = 40) -> bool:
        return abs(c.red() - want.red()) < tol and abs(c.green() - want.green()) < tol and abs(c.blue() - want.blue()) < tol

    # Off the highlight and the outline: a point half a radius below each peg's centre.
    def body(p):
        return p.__class__(p.x() + g.peg_r * 0.3, p.y() + g.peg_r * 0.35)

    ann_front, ann_back = g.peg_points(0, board.tracks[0])
    ben_front, ben_back = g.peg_points(1, board.tracks[1])
    assert any(near(c, red) for c in _colour_near(image, body(ann_front)))
    assert any(near(c, blue) for c in _colour_near(image, body(ben_front)))
    # The back pegs are the same colour, lighter.
    assert any(near(c, red.lighter(150), 50) for c in _colour_near(image, body(ann_back)))
    assert any(near(c, blue.lighter(150), 50) for c in _colour_near(image, body(ben_back)))
    # An empty hole is dark, not a peg.
    empty = image.pixelColor(int(g.hole(0, 50).x()), int(g.hole(0, 50).y()))
    assert empty.lightness() < 80
    assert board.minimumHeight() >= 60 + 56 * 2


def test_the_windows_old_call_still_works(qtbot) -> None:
    board = PegBoard()
    qtbot.addWidget(board)
    board.resize(700, 260)
    board.set_state("Seven Rocks: first to 250 (5 a hole)", 50, [Track("Ann & Cid", 12, 9, "60", 0),
                                                                   Track("Ben & Dee", -3, 0, "-15", 0)])
    assert board.skunk_lines == ()
    board.grab()  # paints a 50-hole board with a score below zero without error
    board.set_state("Horse Race", 61, [Track("Ann", 61, 58, "61", 1)], skunk=())
    assert board.skunk_lines == ()
    board.grab()
