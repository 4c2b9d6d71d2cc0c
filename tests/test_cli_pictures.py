"""What the picture commands (``detect``, ``board``) tell a player, apart from the models: the score in the game's own
points, the tiles left out of the layout, the problems numbered on the picture, and the mistakes a newcomer makes."""

from __future__ import annotations

import io
import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from scorer.cli import main
from scorer.layout import SeenTile, reconstruct
from scorer.layout.annotate import _problem_marks, caption
from scorer.rules import GAMES, Board, Tile
from scorer.words import Words, at


def run(*args: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(args), out=out, err=err)
    return code, out.getvalue(), err.getvalue()


def test_the_picture_says_the_score_in_the_games_own_points() -> None:
    five = Board(True).place(Tile(5, 5))  # (the end sum 10: 10 raw)
    # As the text says it: Horse Race's display points a fifth of the raw; Seven Rocks keeps the raw points.
    assert caption(five, GAMES["horse-race"]) == "sum 10: 10 raw points (2 display points)"
    assert caption(five, GAMES["seven-rocks"]) == "sum 10: 10 raw points"
    assert caption(Board(True).place(Tile(3, 4)), GAMES["horse-race"]) == "sum 7: 0 raw points (0 display points)"
    assert caption(five, GAMES["horse-race"], "fi") == "summa 10: 10 raakapistettä (2 näyttöpistettä)"


@pytest.mark.parametrize("opencv_draws_them", [False, True])
def test_the_pictures_words_are_drawn_with_their_finnish_letters(monkeypatch: pytest.MonkeyPatch, opencv_draws_them: bool) -> None:
    from scorer.vision import annotate
    from scorer.vision.annotate import FONT, put_text, text_size

    if opencv_draws_them and not annotate._draws_marked_letters():
        pytest.skip(f"OpenCV {cv2.__version__} draws ASCII letters only")
    monkeypatch.setattr(annotate, "_draws_marked_letters", lambda: opencv_draws_them)

    def drawn(text: str) -> np.ndarray:
        out = np.zeros((60, 200, 3), np.uint8)
        put_text(out, text, (10, 45), 1.0, (255, 255, 255), 2)
        return out.max(axis=2) > 0

    # ä is a drawn and two dots above it, clear of it: above the letters' top only the marks, two side by side.
    plain, marked = drawn("pa"), drawn("pä")
    top = np.argwhere(plain)[:, 0].min()
    assert not plain[:top].any() and np.argwhere(marked[:top - 1]).size
    columns = sorted(set(np.argwhere(marked[:top - 1])[:, 1]))
    assert any(b - a > 1 for a, b in zip(columns, columns[1:]))  # (two dots, a gap between them)
    assert min(columns) >= 10 + text_size("p", 1.0, 2)[0]  # (over the a, not the p)
    assert drawn("Å").sum() > drawn("A").sum()
    if opencv_draws_them:
        return
    # The letters themselves are drawn as OpenCV draws the plain text, in one go: no letter after an ä shifted.
    words = drawn("näyttöpistettä näyttö")
    plain = np.zeros((60, 400, 3), np.uint8)
    cv2.putText(plain, "nayttopistetta naytto", (10, 45), FONT, 1.0, (255, 255, 255), 2, cv2.LINE_AA)
    top = np.argwhere(plain.max(axis=2) > 0)[:, 0].min()
    assert np.array_equal(words[top:], plain.max(axis=2)[top:, :200] > 0)
    assert text_size("selkäpuoli ylöspäin", 0.5, 1) == cv2.getTextSize("selkapuoli ylospain", FONT, 0.5, 1)[0]


def test_each_problem_is_marked_on_the_picture_by_its_number_at_every_place_it_names() -> None:
    problems = [Words("the tile at {place} is read uncertainly", place=at((10.2, 20.0))),
                "a problem naming no place",
                Words("{a} and {b}", a=at((30, 40)), b=at((900, 40)))]  # (the second place outside a 100 x 100 picture)
    assert _problem_marks(problems, 100, 100) == [(1, (10, 20)), (3, (30, 40))]


def test_the_tiles_left_out_of_the_layout_are_listed_with_where_they_lie(monkeypatch: pytest.MonkeyPatch) -> None:
    from scorer.cli.images import _loose, _write_loose

    def lying(pips: tuple[int, int], x: float, y: float) -> SeenTile:
        return SeenTile(((x, y), (x + 48.0, y), (x + 48.0, y + 24.0), (x, y + 24.0)), pips)

    # [2|3][3|6] joined; [4|4] far from them, at the picture's bottom right.
    layout = reconstruct([lying((2, 3), 10, 10), lying((3, 6), 58.5, 10), lying((4, 4), 250, 170)])
    out = io.StringIO()
    _write_loose(layout, (300, 200), out, "en")
    assert out.getvalue() == "Seen, not joined to the layout: [4|4] at (bottom right, 274, 182)\n"
    assert _loose(layout) == [[4, 4]]
    out = io.StringIO()
    _write_loose(reconstruct([lying((2, 3), 10, 10)]), (300, 200), out, "en")
    assert out.getvalue() == ""  # (nothing left out: no line)


@pytest.fixture
def picture(tmp_path: Path) -> Path:
    path = tmp_path / "table.png"
    cv2.imwrite(str(path), np.full((120, 160, 3), 90, np.uint8))
    return path


def test_a_wrong_board_before_is_refused_saying_what_was_expected(picture: Path, tmp_path: Path) -> None:
    def refused(before: Path, game: str = "horse-race") -> str:
        code, out, err = run("board", str(picture), "--game", game, "--before", str(before))
        assert code == 2 and out == ""
        return err

    assert "no such file (the board before: a file `board --json` wrote)" in refused(tmp_path / "missing.json")
    assert "is a folder, not a board" in refused(tmp_path)
    assert "not a board but a binary file (a picture?)" in refused(picture)
    horse = tmp_path / "horse.json"
    horse.write_text(json.dumps({"tiles": [[5, 5]], "joins": [], "game": "horse-race"}) + "\n")
    assert "the board before was read for horse-race, this picture is read for seven-rocks" in refused(horse, "seven-rocks")


def test_an_argument_a_command_does_not_take_is_refused_with_that_commands_usage(
        picture: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exited:
        main(["board", str(picture), str(picture), "--game", "horse-race"])
    assert exited.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith("usage: scorer board") and f"scorer board: error: unrecognized arguments: {picture}" in err


def test_an_annotated_picture_that_cannot_be_written_is_said_and_fails(picture: Path, tmp_path: Path) -> None:
    from scorer.cli.images import _written

    err = io.StringIO()
    assert _written(tmp_path / "read.png", np.zeros((4, 4, 3), np.uint8), "en", err)
    assert err.getvalue() == f"annotated picture written to {tmp_path / 'read.png'}\n"
    err = io.StringIO()
    assert not _written(tmp_path / "no-such-folder" / "read.png", np.zeros((4, 4, 3), np.uint8), "en", err)
    assert not _written(tmp_path / "read.nothing", np.zeros((4, 4, 3), np.uint8), "en", err)
    assert err.getvalue().count("could not write the annotated picture") == 2
    err = io.StringIO()
    assert _written(tmp_path / "luettu.png", np.zeros((4, 4, 3), np.uint8), "fi", err)
    assert err.getvalue() == f"merkitty kuva kirjoitettu tiedostoon {tmp_path / 'luettu.png'}\n"


def test_a_commands_own_command_is_refused_with_its_own_usage(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["club", "players", "--bogus"])
    assert "scorer club players: error: unrecognized arguments: --bogus" in capsys.readouterr().err


def test_with_a_calibration_profile_places_are_not_told_as_parts_of_the_picture_nor_numbered_on_it() -> None:
    import argparse

    from scorer.cli.images import _numbered, _picture

    # (A profile puts the layout's tiles in table millimetres: a place may be either, so neither words nor marks.)
    image, profile = np.zeros((120, 160, 3), np.uint8), object()
    assert _picture(image, None) == (160, 120) and _picture(image, profile) is None  # type: ignore[arg-type]
    annotating = argparse.Namespace(annotate="out.png")
    assert _numbered(annotating, None) and not _numbered(annotating, profile)  # type: ignore[arg-type]
    assert not _numbered(argparse.Namespace(annotate=None), None)


def test_board_fits_a_calibration_to_the_photo_or_refuses_one_of_another_shape(tmp_path: Path) -> None:
    """A profile made at another resolution of the photo's shape is scaled to it (read alike); one of another shape
    shows another part of the table: refused, as live play does not use it."""
    import sys

    sys.path.insert(0, str(Path(__file__).resolve().parent / "vision"))
    from test_calibration import view

    from scorer.vision.calibration import calibrate, save_profile

    image = view(1.4, 10, 20)[0]
    cv2.imwrite(str(tmp_path / "table.png"), image)
    whole = calibrate(image, "whole")
    save_profile(whole, tmp_path)
    half = whole.fitted(640, 360)
    half.name = "half"
    save_profile(half, tmp_path)
    other = whole.fitted(1280, 720)
    other.name, other.image_size = "other", (640, 480)
    save_profile(other, tmp_path)
    said = [run("board", str(tmp_path / "table.png"), "--game", "horse-race", "--json", "--calibration", str(tmp_path / f"{n}.json"))
            for n in ("whole", "half")]
    assert said[0][0] == said[1][0] == 0 and said[0][1] == said[1][1]
    code, _, err = run("board", str(tmp_path / "table.png"), "--game", "horse-race", "--calibration", str(tmp_path / "other.json"))
    assert code == 2 and "'other' was made on 640x480 pictures; these are 1280x720, another shape" in err
