"""Calibration at the table as a newcomer met it: Enter in the wizard's name saves (it took a picture), a profile of that
name is replaced only when asked, a video's views are all taken, the start screen offers the profile chosen last, and
a match whose profile is lost can be resumed without it."""

from __future__ import annotations

import sys
from pathlib import Path

import cv2
import numpy as np
import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QFileDialog, QMessageBox

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "vision"))
from test_calibration import PLACES, view  # noqa: E402

from scorer.app.calibrate import CalibrationWizard  # noqa: E402
from scorer.app.settings import Settings  # noqa: E402
from scorer.app.start_screen import StartDialog  # noqa: E402
from scorer.errors import CalibrationError  # noqa: E402
from scorer.vision.calibration import config_dir, load_profile  # noqa: E402


def test_enter_in_the_name_saves_and_a_profile_of_that_name_is_replaced_only_when_asked(qtbot, monkeypatch) -> None:
    wizard = CalibrationWizard()
    qtbot.addWidget(wizard)
    wizard.show()
    wizard.use_image(view(1.4, 12, 30)[0])
    wizard.name.setText("kitchen")
    wizard.name.setFocus()
    qtbot.keyClick(wizard.name, Qt.Key.Key_Return)
    assert load_profile("kitchen").markers == 6 and wizard.result.text() != "camera 0: no picture (not connected?)"
    before = (config_dir() / "calibration" / "kitchen.json").read_text()
    again = CalibrationWizard()
    qtbot.addWidget(again)
    again.use_image(view(1.1, 20, 80)[0])
    again.name.setText("kitchen")
    asked: list[str] = []
    monkeypatch.setattr(QMessageBox, "question", lambda _p, _t, text, *a: asked.append(text) or QMessageBox.StandardButton.No)
    again._save()
    assert asked and "A profile named kitchen exists already" in asked[0]
    assert (config_dir() / "calibration" / "kitchen.json").read_text() == before
    again.name.setText("a:b*c?")
    again._save()
    assert again.result.text().startswith("A profile's name is letters, digits")
    assert not (config_dir() / "calibration" / "a:b*c?.json").exists()


def test_a_video_of_the_target_laid_in_turn_at_the_corners_gives_every_view(qtbot, tmp_path: Path, monkeypatch) -> None:
    path = tmp_path / "views.mp4"
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"mp4v"), 4.0, (1280, 720))
    for i, place in enumerate(PLACES):
        image = view(1.4, 0, 0, seed=i, target_at=place, lens_k=-0.15)[0]
        for _ in range(6):  # (each place held a second and a half)
            writer.write(image)
    writer.release()
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *a, **k: (str(path), ""))
    wizard = CalibrationWizard()
    qtbot.addWidget(wizard)
    wizard._from_file()
    assert "views: 5" in wizard.result.text() and wizard.profile is not None and wizard.profile.lens is not None


def test_the_start_screen_offers_the_calibration_chosen_last_and_none_without_a_camera(qtbot) -> None:
    (config_dir() / "calibration").mkdir(parents=True, exist_ok=True)
    for name in ("club", "kitchen"):
        (config_dir() / "calibration" / f"{name}.json").write_text("{}")
    dialog = StartDialog(Settings(players="Ann, Ben", calibration="kitchen"), cameras=[0], sessions=[])
    qtbot.addWidget(dialog)
    assert dialog.calibration.chosen() == "kitchen" and dialog.calibration.box.isEnabled()
    dialog.source.setCurrentIndex(dialog.source.findData("hand"))
    assert not dialog.calibration.box.isEnabled() and dialog.calibration.wizard_button.isEnabled()
    dialog._start_new()
    assert dialog.choice.header.calibration is None and Settings.load().calibration == "kitchen"


def test_a_match_whose_calibration_is_lost_is_resumed_without_it_when_the_players_say_so(qtbot, tmp_path: Path, monkeypatch) -> None:
    from scorer.app.start import open_window
    from scorer.rules.log import MatchHeader, MatchSource
    from scorer.sessions import Session

    header = MatchHeader("horse-race", ("Ann", "Ben"), False, source=MatchSource("hand"), calibration="gone")
    session = Session.create(header)
    answers = iter([QMessageBox.StandardButton.No, QMessageBox.StandardButton.Yes])
    asked: list[str] = []
    monkeypatch.setattr(QMessageBox, "question", lambda _p, _t, text, *a: asked.append(text) or next(answers))
    with pytest.raises(CalibrationError, match="no calibration profile 'gone'"):
        open_window(session, None, "en", Settings())
    window = open_window(session, None, "en", Settings())
    qtbot.addWidget(window)
    assert window.pipeline.config.profile is None and "Go on without it?" in asked[-1]


def test_choosing_no_calibration_is_remembered(qtbot) -> None:
    (config_dir() / "calibration").mkdir(parents=True, exist_ok=True)
    (config_dir() / "calibration" / "kitchen.json").write_text("{}")
    dialog = StartDialog(Settings(players="Ann, Ben", calibration="kitchen"), cameras=[0], sessions=[])
    qtbot.addWidget(dialog)
    dialog.calibration.box.setCurrentIndex(0)
    dialog._start_new()
    assert dialog.choice.header.calibration is None and Settings.load().calibration == ""


def test_a_target_never_lying_still_in_a_video_gives_no_view_and_a_video_without_it_says_so(qtbot, tmp_path: Path, monkeypatch) -> None:
    wizard = CalibrationWizard()
    qtbot.addWidget(wizard)
    wizard.use_image(view(1.4, 12, 30)[0])  # (a view taken before, from the camera)
    moving, empty = tmp_path / "moving.mp4", tmp_path / "empty.mp4"
    for path, pictures in ((moving, [view(1.4, 0, 0, seed=i, target_at=(-300.0 + 60 * i, 0.0))[0] for i in range(4)]),
                           (empty, [np.full((720, 1280, 3), 90, np.uint8)] * 2)):
        writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"mp4v"), 2.0, (1280, 720))
        for picture in pictures:
            writer.write(picture)
        writer.release()
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *a, **k: (str(moving), ""))
    wizard._from_file()
    assert len(wizard.views) == 1 and wizard.result.text().startswith("The target never lay still in this video")
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *a, **k: (str(empty), ""))
    wizard._from_file()
    assert wizard.result.text().startswith("The target was not found (0 of its 6 markers seen)")
