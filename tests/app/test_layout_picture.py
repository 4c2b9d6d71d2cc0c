"""A match with no camera: the picture draws the round's layout as the moves are entered -- every tile where
the schematic lays it, the scoring tiles outlined red, the end sum shown -- follows an undo, shows the layout
again for a move clicked in the list, and is empty (the hint) between rounds."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtGui import QColor, QImage
from PySide6.QtWidgets import QLabel

from scorer.app.layout_picture import OTHER_COLOUR, SCORING_COLOUR, fit
from scorer.app.settings import Settings
from scorer.app.start import open_window
from scorer.rules import Phase, Play
from scorer.rules.log import MatchHeader, MatchSource
from scorer.rules.simulate import simulate_match
from scorer.sessions import Session

SCREENSHOTS = Path(__file__).resolve().parents[1] / "output"


def hand_window(qtbot, tmp_path: Path):
    header = MatchHeader("horse-race", ("Ann", "Ben"), False, source=MatchSource("hand"))
    window = open_window(Session.create(header, tmp_path), None, "en", Settings(voice=False))
    qtbot.addWidget(window)
    window.resize(1280, 760)
    window.show()
    window.start()
    qtbot.waitUntil(lambda: window.finished, timeout=10_000)
    return window


def enter(qtbot, window, event) -> None:
    """One move entered by hand, as the Play… and Round end… dialogs enter it."""
    count = len(window.snapshot.steps)
    window._correct([event])
    qtbot.waitUntil(lambda: len(window.snapshot.steps) == count + 1, timeout=10_000)


def tile_pixels(window) -> tuple[QImage, list[QColor]]:
    """The picture, and the colour a little off the middle of every half drawn (clear of its pips)."""
    image = window.live.grab().toImage()
    at, unit = fit(window.live.layout_area(), window.live.schematic())
    seen = []
    for drawn in window.live.schematic().tiles:
        for half in drawn.halves:
            point = at(half.x + 0.13, half.y + 0.13)
            seen.append(image.pixelColor(int(point.x()), int(point.y())))
    return image, seen


def has_colour(image: QImage, colour: QColor) -> bool:
    return any(image.pixelColor(x, y) == colour for y in range(0, image.height(), 2) for x in range(image.width()))


def test_with_no_camera_the_picture_draws_the_layout_move_by_move(qtbot, tmp_path: Path) -> None:
    window = hand_window(qtbot, tmp_path)
    assert window.live.schematic().tiles == () and window.live.status == "hand"  # the hint, before any tile
    sim = simulate_match("horse-race", 2, seed=4)  # its first round: 16 tiles, 4 of them on branches
    first_round = [e for e in sim.events if e.after.round_no == 1]
    plays = 0
    for event in first_round[:-1]:  # (all but the reveal)
        enter(qtbot, window, event.event)
        board = window.match.board
        if isinstance(event.event, Play):
            plays += 1
            assert [t.tile for t in window.live.schematic().tiles] == list(board.tiles)
            assert window.live.end_sum == board.end_sum()
    assert plays == 16 and sum(j.side.is_branch for j in window.match.board.joins) == 4
    image, halves = tile_pixels(window)
    assert len(halves) == 32 and all(c.lightness() > 150 for c in halves), [c.name() for c in halves]
    assert has_colour(image, SCORING_COLOUR) and has_colour(image, OTHER_COLOUR)
    SCREENSHOTS.mkdir(exist_ok=True)
    assert image.save(str(SCREENSHOTS / "hand-layout.png"))

    # Undo: the last tile leaves the picture, its place the table again (the rest is drawn where it was).
    last = window.live.schematic().tiles[-1]
    window.undo()
    qtbot.waitUntil(lambda: len(window.live.schematic().tiles) == 15, timeout=10_000)
    assert [t.tile for t in window.live.schematic().tiles] == list(window.match.board.tiles)
    at, _ = fit(window.live.layout_area(), window.live.schematic())
    point = at(*last.centre)
    image = window.live.grab().toImage()
    if image.rect().contains(int(point.x()), int(point.y())):
        assert image.pixelColor(int(point.x()), int(point.y())).lightness() < 60
    window.redo()
    qtbot.waitUntil(lambda: len(window.live.schematic().tiles) == 16, timeout=10_000)

    # A move clicked in the list: the layout then, drawn.
    window._show_board_at(window.log.item(3))
    pictures = [label.pixmap() for label in window.board_dialog.findChildren(QLabel) if not label.pixmap().isNull()]
    assert len(pictures) == 1 and pictures[0].width() == 560
    window.board_dialog.close()

    # The round's end: the layout stays for the reveal; once the hands are counted, the table is empty.
    assert window.match.phase is Phase.ROUND_OVER and len(window.live.schematic().tiles) == 16
    enter(qtbot, window, first_round[-1].event)
    assert window.match.phase is Phase.BEFORE_ROUND
    assert window.live.schematic().tiles == ()
    _, halves = tile_pixels(window)
    assert halves == [] and not has_colour(window.live.grab().toImage(), OTHER_COLOUR)
    window.close()


def test_a_camera_match_draws_no_layout_over_its_picture(qtbot, tmp_path: Path) -> None:
    from tests.app.test_app import NoDetector, StillCamera, make_window

    window = make_window(tmp_path, MatchHeader("horse-race", ("Ann", "Ben"), False), StillCamera(), NoDetector())
    qtbot.addWidget(window)
    sim = simulate_match("horse-race", 2, seed=4)
    for event in sim.events[:4]:
        window.session.apply(event.event, 0.0)
    window._on_changed(window.snapshot.__class__.of(window.session))
    assert window.match.board is not None and window.match.board.tiles
    assert window.live.layout_board is None and window.live.schematic().tiles == ()
