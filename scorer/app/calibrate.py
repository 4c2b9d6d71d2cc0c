"""The calibration wizard: show the target to the camera (or open a photo or video), see the table and zones found, name the profile."""

from __future__ import annotations

from typing import Callable

import cv2
import numpy as np
from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QApplication, QComboBox, QDialog, QFileDialog, QHBoxLayout, QLabel, QLineEdit, QMessageBox, QPushButton, QSpinBox, QVBoxLayout, QWidget,
)

from scorer.app.i18n import decimal, translate
from scorer.app.liveview import to_qimage
from scorer.errors import ScorerError, TargetNotFound
from scorer.pipeline.core import LIVE_SMALL_TILE_PX  # (tiles shorter are read poorly: live play says so too)
from scorer.pipeline.sources import Camera
from scorer.vision.calibration import (
    PAGE_MM, Profile, View, calibrate_views, config_dir, find_target, profile_name_problem, profile_path, save_profile,
)


def draw_profile(image: np.ndarray, profile: Profile) -> np.ndarray:
    """The target's outline, a 10 cm grid on the table plane, and the zones."""
    out = image.copy()

    def px(points):
        return np.round(profile.to_image(points)).astype(np.int32)

    # The grid lines are drawn as many short pieces: with a lens they bend as the table's lines do.
    along = np.linspace(0.0, 1.0, 41)[:, None]
    for x in range(-500, 501, 100):
        cv2.polylines(out, [px(np.hstack([np.full_like(along, x), -400 + 800 * along]))], False, (255, 200, 0), 1, cv2.LINE_AA)
    for y in range(-400, 401, 100):
        cv2.polylines(out, [px(np.hstack([-500 + 1000 * along, np.full_like(along, y)]))], False, (255, 200, 0), 1, cv2.LINE_AA)
    w, h = PAGE_MM[0] / 2, PAGE_MM[1] / 2
    cv2.polylines(out, [px([[-w, -h], [w, -h], [w, h], [-w, h]])], True, (0, 0, 255), 2, cv2.LINE_AA)
    cv2.polylines(out, [np.asarray(profile.zones.layout, np.int32)], True, (0, 255, 0), 2, cv2.LINE_AA)
    for i, seat in enumerate(profile.zones.seats):
        cv2.polylines(out, [np.asarray(seat, np.int32)], True, (255, 0, 255), 1, cv2.LINE_AA)
        c = np.asarray(seat).mean(0).astype(int)
        #: Drawn into the picture by OpenCV, whose font has only ASCII letters (write "a" for "ä").
        label = translate("CalibrationWizard", "seat {number}").format(number=i + 1)
        cv2.putText(out, label, tuple(c), cv2.FONT_HERSHEY_SIMPLEX, 0.6, (255, 0, 255), 2, cv2.LINE_AA)
    return out


class CalibrationChooser(QWidget):
    """The saved calibrations (none first; ``chosen`` where it is saved) and the wizard that makes one, on the camera
    ``camera()`` gives (its index, and the width and height play sets it to)."""

    def __init__(self, chosen: str, camera: Callable[[], tuple[int, int, int]]) -> None:
        super().__init__()
        self.camera = camera
        self.box = QComboBox()
        self.box.addItem("")
        for p in sorted((config_dir() / "calibration").glob("*.json")):
            self.box.addItem(p.stem)
        if chosen and self.box.findText(chosen) > 0:
            self.box.setCurrentText(chosen)
        self.wizard_button = QPushButton()
        self.wizard_button.clicked.connect(self._wizard)
        row = QHBoxLayout(self)
        row.setContentsMargins(0, 0, 0, 0)
        row.addWidget(self.box, 1)
        row.addWidget(self.wizard_button)

    def retranslate(self) -> None:
        self.box.setItemText(0, translate("StartDialog", "(none)", "no calibration"))
        self.wizard_button.setText(translate("StartDialog", "Calibrate the table…"))

    def chosen(self) -> str | None:
        return None if self.box.currentIndex() == 0 or not self.box.isEnabled() else self.box.currentText()

    def set_usable(self, usable: bool) -> None:
        """Whether a calibration is chosen for the match (none without a camera); the wizard stays (a photo will do)."""
        self.box.setEnabled(usable)

    def _wizard(self) -> None:
        wizard = CalibrationWizard(*self.camera())
        if wizard.exec() == QDialog.DialogCode.Accepted and wizard.profile is not None:
            if self.box.findText(wizard.profile.name) < 0:
                self.box.addItem(wizard.profile.name)
            self.box.setCurrentText(wizard.profile.name)




class CalibrationWizard(QDialog):
    def __init__(self, camera: int = 0, width: int = 1280, height: int = 720) -> None:
        super().__init__()
        self.setWindowTitle(self.tr("Calibrate the table"))
        self.profile: Profile | None = None
        self.resolution = (width, height)  # (the camera's pictures as play takes them: the profile is made for those)
        col = QVBoxLayout(self)
        col.addWidget(QLabel(self.tr(
            "1. Print calibration/target.pdf at 100 % (not fitted to the page: the tile outline in its middle measures\n"
            "   48 x 24 mm) and lay it flat in the middle of the table.\n"
            "2. Take a picture with the camera, or open a photo or a video of it.\n"
            "   For a wide-angle camera, lay the target near each corner too and take a picture each time:\n"
            "   the views measure the lens (the grid then bends with the table's lines).\n"
            "3. Check the red outline and the grid lie on the table, then name the profile.")))
        self.views: list[View] = []
        self.size: tuple[int, int] | None = None
        row = QHBoxLayout()
        self.camera = QSpinBox()
        self.camera.setRange(0, 9)
        self.camera.setValue(camera)
        grab = QPushButton(self.tr("Take a picture"))
        grab.clicked.connect(self._from_camera)
        open_file = QPushButton(self.tr("Open a photo or video…"))
        open_file.clicked.connect(self._from_file)
        row.addWidget(QLabel(self.tr("Camera")))
        row.addWidget(self.camera)
        restart = QPushButton(self.tr("Start over"))
        restart.clicked.connect(self._start_over)
        row.addWidget(grab)
        row.addWidget(open_file)
        row.addWidget(restart)
        col.addLayout(row)
        self.view = QLabel(self.tr("no picture yet"))
        self.view.setMinimumSize(640, 360)
        col.addWidget(self.view)
        self.result = QLabel("")
        self.result.setWordWrap(True)  # (a long line wraps, the window stays as wide)
        col.addWidget(self.result)
        row2 = QHBoxLayout()
        self.name = QLineEdit(self.tr("kitchen"))
        save = QPushButton(self.tr("Save profile"))
        save.clicked.connect(self._save)
        row2.addWidget(QLabel(self.tr("Name")))
        row2.addWidget(self.name)
        row2.addWidget(save)
        col.addLayout(row2)
        for button in self.findChildren(QPushButton):  # (Enter in the name saves; it takes no picture)
            button.setAutoDefault(False)
        save.setDefault(True)

    def _fits_play(self) -> bool:
        """Whether the profile made is used at play's resolution (the same shape of picture)."""
        try:
            if self.profile is not None:
                self.profile.fitted(*self.resolution)
        except ScorerError:
            return False
        return True

    def _start_over(self) -> None:
        self.views, self.size, self.profile = [], None, None
        self.view.clear()
        self.view.setText(self.tr("no picture yet"))
        self.result.setText(self.tr("views cleared"))

    def _add_view(self, view: View, size: tuple[int, int]) -> None:
        """A view of the target in a new place is added; one where an earlier view lay replaces it."""
        if size != self.size:
            self.views, self.size = [], size
        near = float(np.hypot(*size)) / 8
        centre = view[0].mean(0)
        self.views = [v for v in self.views if np.linalg.norm(v[0].mean(0) - centre) > near] + [view]

    def use_image(self, image: np.ndarray) -> None:
        h, w = image.shape[:2]
        try:
            view = find_target(image)
            self._add_view(view, (w, h))
            # The table's millimetres are those of the view nearest the picture's centre (the layout's place).
            middle = np.array([w / 2, h / 2])
            views = sorted(self.views, key=lambda v: float(np.linalg.norm(v[0].mean(0) - middle)))
            self.profile = calibrate_views(views, (w, h), self.name.text().strip() or "default")
        except TargetNotFound as exc:
            self.profile = None
            self.result.setText(self.tr("The target was not found ({seen} of its 6 markers seen): is the whole page in view, "
                                        "lying flat, in focus and lit?").format(seen=exc.seen))
            shown = image
        except ScorerError as exc:
            self.profile = None
            self.result.setText(str(exc))
            shown = image
        else:
            p = self.profile
            fit = p.lens_fit or {}
            lens = (self.tr("lens corrected (k = {k})").format(k=decimal(fit["k"], 3, signed=True))
                    if p.lens is not None else self.tr("no lens distortion measured"))
            self.result.setText(self.tr(
                "{markers} of 6 markers, fit error {error} mm, {scale} px/mm: a tile will look {w} x {h} px; "
                "views: {views}, {lens}").format(
                    markers=p.markers, error=decimal(p.error_mm, 2), scale=decimal(p.px_per_mm, 2),
                    w=f"{p.tile_px[0]:.0f}", h=f"{p.tile_px[1]:.0f}", views=len(self.views), lens=lens)
                + ("\n" + self.tr("Tiles this small are read poorly: bring the camera closer, or raise its resolution.")
                   if p.tile_px[0] * self.resolution[0] / p.image_size[0] < LIVE_SMALL_TILE_PX else ""))
            shown = draw_profile(image, p)
            for other in self.views:  # (each view's place, thinner: the page's outline is the middle view's)
                cv2.polylines(shown, [cv2.convexHull(other[0].astype(np.float32)).astype(np.int32)], True, (0, 0, 200), 1, cv2.LINE_AA)
        from PySide6.QtGui import QPixmap

        pixmap = QPixmap.fromImage(to_qimage(shown))
        self.view.setPixmap(pixmap.scaled(self.view.width(), self.view.height(), Qt.AspectRatioMode.KeepAspectRatio))

    def _from_camera(self) -> None:
        camera = Camera(self.camera.value(), *self.resolution, give_up_s=2.0)
        try:
            camera.connect()
            pictures = camera.frames()
            frame = next(pictures).image
            pictures.close()
        except (ScorerError, StopIteration):
            self.result.setText(self.tr("camera {number}: no picture (not connected?)").format(number=self.camera.value()))
            return
        finally:
            camera.release()
        self.use_image(frame)

    def _from_file(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self, self.tr("A photo or video of the target"), "", self.tr(
            "Images and videos (*.jpg *.jpeg *.png *.webp *.bmp *.mp4 *.avi *.mov *.mkv *.JPG *.JPEG *.PNG *.MP4 *.MOV)") + ";;" +
            self.tr("All files (*)"))
        if path:
            QApplication.setOverrideCursor(Qt.CursorShape.WaitCursor)
            try:
                self._read_file(path)
            finally:
                QApplication.restoreOverrideCursor()

    def _read_file(self, path: str) -> None:
        """A photo, or a video: a picture every half second, the target taken where it lay still for two of them
        (laid in the middle, then near each corner in turn: a view each), up to VIDEO_VIEWS."""
        cap = cv2.VideoCapture(path)
        step = max(1, int(round((cap.get(cv2.CAP_PROP_FPS) or 2.0) / 2)))
        photo = cap.get(cv2.CAP_PROP_FRAME_COUNT) <= 1
        pictures, index, last, before, taken = 0, 0, None, None, 0
        while pictures < VIDEO_PICTURES and len(self.views) < VIDEO_VIEWS:
            ok, frame = cap.read()
            if not ok:
                break
            index += 1
            if (index - 1) % step:
                continue
            pictures, last, seen = pictures + 1, frame, _target_at(frame)
            still = seen is not None and (photo or (before is not None and float(np.linalg.norm(seen - before)) < STILL_PX))
            near = float(np.hypot(*frame.shape[:2])) / 8  # (as a view replaces one that near: another place of the target)
            if still and (photo or not any(float(np.linalg.norm(v[0].mean(0) - seen)) < near for v in self.views)):
                self.use_image(frame)
                taken += 1
            before = seen
        cap.release()
        if last is None:
            self.result.setText(self.tr("{path}: cannot be read").format(path=path))
        elif not taken and before is not None:
            self.result.setText(self.tr("The target never lay still in this video: lay it still for a second at each place."))
        elif not taken:
            self.use_image(last)  # (what was not found, said on the last picture)

    def _save(self) -> None:
        if self.profile is None:
            self.result.setText(self.tr("find the target first"))
            return
        name = self.name.text().strip().removesuffix(".json")
        if profile_name_problem(name):
            self.result.setText(self.tr("A profile's name is letters, digits, spaces, - _ and . (not first), up to 60 characters."))
            return
        if not self._fits_play() and QMessageBox.question(self, self.tr("Calibrate the table"), self.tr(
                "These pictures are {made}; the camera plays at {play} (Settings: Resolution), another shape, where this "
                "profile is not used. Save it all the same?").format(
                made="{} × {}".format(*self.profile.image_size), play="{} × {}".format(*self.resolution))) != QMessageBox.StandardButton.Yes:
            return
        if profile_path(name, new=True).exists() and QMessageBox.question(self, self.tr("Calibrate the table"), self.tr(
                "A profile named {name} exists already. Replace it? (A saved match that names it is read through the new one.)"
                ).format(name=name)) != QMessageBox.StandardButton.Yes:
            return
        self.profile.name = name
        try:
            save_profile(self.profile)
        except ScorerError as exc:
            self.result.setText(str(exc))
            return
        self.accept()



# A video's target is taken where it moved less than this (px) between two pictures half a second apart: lying still.
STILL_PX = 4.0
VIDEO_PICTURES = 240  # pictures of a video looked at (two minutes, at two a second)
VIDEO_VIEWS = 8


def _target_at(frame: np.ndarray) -> np.ndarray | None:
    """Where the target's markers lie in ``frame`` (their corners' mean), or None where it is not seen."""
    try:
        return find_target(frame)[0].mean(0)
    except ScorerError:
        return None
