"""Calibration from rendered views of the printed target at several poses."""

from __future__ import annotations

import io
import json
import math
import re
from pathlib import Path

import cv2
import numpy as np
import pytest

from scorer.cli import main
from scorer.vision.calibration import (
    PAGE_MM,
    CalibrationError,
    Profile,
    calibrate,
    calibrate_frames,
    default_zones,
    load_profile,
    render_target,
    save_profile,
    to_table,
)
from scorer.vision.lens import Lens

DPI = 150
PX_PER_MM_TARGET = DPI / 25.4


def view(px_per_mm: float, tilt_deg: float, yaw_deg: float, size=(1280, 720), seed=0,
         target_at=(0.0, 0.0), lens_k: float = 0.0) -> tuple[np.ndarray, np.ndarray]:
    """The target on a wooden-ish table, seen by a camera tilted by ``tilt_deg``; returns (image, true H mm->px).

    ``target_at``: where the target's centre lies on the table (mm); ``lens_k``: the camera's
    radial distortion (the division model of :mod:`scorer.vision.lens`; negative is barrel)."""
    rng = np.random.default_rng(seed)
    w, h = size
    page = render_target(DPI)
    # Target pixel -> table mm (origin at the page centre when the target lies at the table's origin).
    page_to_mm = np.array([[1 / PX_PER_MM_TARGET, 0, target_at[0] - PAGE_MM[0] / 2],
                           [0, 1 / PX_PER_MM_TARGET, target_at[1] - PAGE_MM[1] / 2], [0, 0, 1]])
    # Table mm -> image px: a pinhole camera 800 mm up, tilted about the x axis, turned about the vertical.
    height, f = 800.0, px_per_mm * 800.0
    yaw, tilt = math.radians(yaw_deg), math.radians(tilt_deg)
    src = np.array([[-200, -200], [200, -200], [200, 200], [-200, 200]], np.float64)
    dst = []
    for x, y in src:
        x, y = x * math.cos(yaw) - y * math.sin(yaw), x * math.sin(yaw) + y * math.cos(yaw)
        z = height + y * math.sin(tilt)
        y = y * math.cos(tilt)
        dst.append([f * x / z + w / 2, f * y / z + h / 2])
    mm_to_px = cv2.getPerspectiveTransform(src.astype(np.float32), np.array(dst, np.float32))
    table = np.clip(rng.normal(90, 20, (h, w, 3)), 0, 255).astype(np.uint8)
    table = cv2.GaussianBlur(table, (0, 0), 3)
    page_bgr = cv2.cvtColor(page, cv2.COLOR_GRAY2BGR)
    M = mm_to_px @ page_to_mm
    warped = cv2.warpPerspective(page_bgr, M, size, flags=cv2.INTER_AREA)
    mask = cv2.warpPerspective(np.full(page.shape, 255, np.uint8), M, size) > 0
    image = table.copy()
    image[mask] = warped[mask]
    if lens_k:
        # Each camera pixel shows the ideal image at its undistorted place.
        ys, xs = np.mgrid[0:h, 0:w]
        src = Lens.for_image(lens_k, w, h).undistort(np.stack([xs.ravel(), ys.ravel()], 1)).astype(np.float32)
        image = cv2.remap(image, src[:, 0].reshape(h, w), src[:, 1].reshape(h, w), cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT)
    image = np.clip(image.astype(np.float32) + rng.normal(0, 4, image.shape), 0, 255).astype(np.uint8)
    return cv2.GaussianBlur(image, (0, 0), 0.7), mm_to_px


@pytest.mark.parametrize("px_per_mm, tilt, yaw", [(1.4, 0, 0), (1.4, 20, 35), (1.1, 30, 170), (2.0, 12, -80)])
def test_calibration_recovers_the_table_plane(px_per_mm: float, tilt: float, yaw: float) -> None:
    image, truth = view(px_per_mm, tilt, yaw)
    profile = calibrate(image, "test")
    assert profile.markers == 6 and profile.error_mm < 1.0
    # Points across the target map back to within 2 mm.
    probe_mm = np.array([[x, y] for x in (-100, 0, 100) for y in (-140, 0, 140)], np.float64)
    probe_px = cv2.perspectiveTransform(probe_mm[None], truth)[0]
    back = to_table(probe_px, profile.H)
    assert np.abs(back - probe_mm).max() < 2.0
    # The scale at the target's centre, averaged over both table directions (a tilt shortens one).
    c = cv2.perspectiveTransform(np.array([[[0.0, 0.0], [10.0, 0.0], [0.0, 10.0]]]), truth)[0]
    true_scale = (np.linalg.norm(c[1] - c[0]) + np.linalg.norm(c[2] - c[0])) / 20
    assert profile.px_per_mm == pytest.approx(true_scale, rel=0.03)
    assert profile.tile_px[0] == pytest.approx(48 * profile.px_per_mm)


def test_no_target_is_a_clear_error() -> None:
    with pytest.raises(CalibrationError, match="not found"):
        calibrate(np.full((480, 640, 3), 128, np.uint8), "none")


def test_profiles_round_trip_and_damaged_ones_are_refused(tmp_path: Path) -> None:
    image, _ = view(1.4, 10, 20)
    profile = calibrate(image, "kitchen")
    path = save_profile(profile, tmp_path)
    loaded = load_profile("kitchen", tmp_path)
    assert np.allclose(loaded.H, profile.H) and loaded.zones.seats == profile.zones.seats
    path.write_text("{broken")
    with pytest.raises(CalibrationError, match="cannot be read"):
        load_profile("kitchen", tmp_path)
    path.write_text(json.dumps({"name": "kitchen"}))
    with pytest.raises(CalibrationError, match="damaged"):
        load_profile("kitchen", tmp_path)
    with pytest.raises(CalibrationError, match="no calibration profile"):
        load_profile("garage", tmp_path)


def test_calibrate_command(tmp_path: Path) -> None:
    image, _ = view(1.4, 15, 60)
    path = tmp_path / "view.png"
    cv2.imwrite(str(path), image)
    out, err = io.StringIO(), io.StringIO()
    code = main(["calibrate", "--image", str(path), "--name", "club", "--dir", str(tmp_path)], out=out, err=err)
    assert code == 0, err.getvalue()
    assert "6 of 6" in out.getvalue() and (tmp_path / "club.json").exists()
    assert "warning" not in out.getvalue()
    # A camera high above (tiles about 36 px long): too small for live reading, said at once.
    cv2.imwrite(str(path), view(0.75, 15, 60)[0])
    out = io.StringIO()
    assert main(["calibrate", "--image", str(path), "--name", "high", "--dir", str(tmp_path)], out=out, err=err) == 0
    assert "warning: tiles will be small in the image (under 40 px)" in out.getvalue()
    empty = tmp_path / "blank.png"
    cv2.imwrite(str(empty), np.zeros((100, 100, 3), np.uint8))
    err = io.StringIO()
    assert main(["calibrate", "--image", str(empty), "--dir", str(tmp_path)], out=io.StringIO(), err=err) == 2
    assert "not found" in err.getvalue()


# The target laid at the middle and toward each corner of a 1280x720 view at 1.4 px/mm.
PLACES = [(0.0, 0.0), (-300.0, -80.0), (300.0, -80.0), (-300.0, 80.0), (300.0, 80.0)]
# Table points out to the image's edges, where a lens bends most.
PROBES = np.array([[x, y] for x in (-420, -250, 0, 250, 420) for y in (-230, 0, 230)], np.float64)


def _probe_error(profile, truth: np.ndarray, k: float) -> float:
    ideal = cv2.perspectiveTransform(PROBES[None], truth)[0]
    seen = Lens.for_image(k, 1280, 720).distort(ideal)
    return float(np.abs(profile.to_table(seen) - PROBES).max())


def test_a_wide_lens_is_measured_from_views_of_the_target_across_the_table() -> None:
    k = -0.15
    frames, truth = [], None
    for i, place in enumerate(PLACES):
        image, truth_i = view(1.4, 10, 0, seed=i, target_at=place, lens_k=k)
        truth = truth if truth is not None else truth_i
        frames += [image, image]  # the target lies still a moment in each place
    taken = []
    profile = calibrate_frames(frames, "wide", views=5, on_view=taken.append)
    assert taken == [1, 2, 3, 4, 5] and profile.lens is not None
    assert profile.lens_model.k == pytest.approx(k, abs=0.03)
    assert profile.lens_fit["error_with_mm"] < 0.5 * profile.lens_fit["error_without_mm"]
    # Table points out to the image's edges map to within 4 mm (a twelfth of a tile); ignoring the lens
    # is off by far more.
    assert _probe_error(profile, truth, k) < 4.0
    flat = calibrate(frames[0], "flat")
    flat.lens = None
    assert _probe_error(flat, truth, k) > 8.0
    # The profile keeps its lens through saving and loading.
    assert Profile.from_json(json.loads(json.dumps(profile.to_json()))).lens_model == profile.lens_model


def test_no_lens_is_invented_for_a_distortion_free_camera() -> None:
    frames, truth = [], None
    for i, place in enumerate(PLACES):
        image, truth_i = view(1.4, 10, 0, seed=i, target_at=place)
        truth = truth if truth is not None else truth_i
        frames += [image, image]
    profile = calibrate_frames(frames, "plain", views=5)
    assert profile.lens is None or abs(profile.lens_model.k) < 0.02
    assert _probe_error(profile, truth, 0.0) < 2.0


def test_one_view_in_the_middle_keeps_the_table_right_near_the_target() -> None:
    image, truth = view(1.4, 10, 0, lens_k=-0.15)
    profile = calibrate(image, "one")
    near = np.array([[x, y] for x in (-100, 0, 100) for y in (-140, 0, 140)], np.float64)
    seen = Lens.for_image(-0.15, 1280, 720).distort(cv2.perspectiveTransform(near[None], truth)[0])
    assert np.abs(profile.to_table(seen) - near).max() < 2.0
    assert profile.lens_fit["views"] == 1


def test_calibrate_command_measures_the_lens_from_a_video(tmp_path: Path) -> None:
    path = tmp_path / "target.avi"
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 10, (1280, 720))
    for i, place in enumerate(PLACES):
        image, _ = view(1.4, 0, 0, seed=i, target_at=place, lens_k=-0.2)
        for _ in range(3):
            writer.write(image)
    writer.release()
    out, err = io.StringIO(), io.StringIO()
    code = main(["calibrate", "--video", str(path), "--views", "5", "--name", "wide", "--dir", str(tmp_path)], out=out, err=err)
    assert code == 0, err.getvalue()
    assert "view 5 taken" in err.getvalue() and "lens distortion corrected: k = -0.2" in out.getvalue()
    assert load_profile("wide", tmp_path).lens_model.k == pytest.approx(-0.2, abs=0.03)


def test_a_profile_is_fitted_to_pictures_of_another_resolution_and_refused_for_another_shape() -> None:
    image, truth = view(1.4, 10, 20)
    profile = calibrate(image, "kitchen")
    doubled = profile.fitted(2560, 1440)
    probe_mm = np.array([[x, y] for x in (-100, 0, 100) for y in (-140, 0, 140)], np.float64)
    probe_px = cv2.perspectiveTransform(probe_mm[None], truth)[0]
    assert np.abs(doubled.to_table(probe_px * 2) - profile.to_table(probe_px)).max() < 1e-6
    assert doubled.px_per_mm == pytest.approx(2 * profile.px_per_mm) and doubled.image_size == (2560, 1440)
    assert doubled.zones.seats[0][2] == [2 * v for v in profile.zones.seats[0][2]]
    assert profile.fitted(1280, 720) is profile
    with pytest.raises(CalibrationError, match=r"'kitchen' was made on 1280x720 pictures; these are 640x480, another shape"):
        profile.fitted(640, 480)


def test_a_lens_is_fitted_with_its_pictures() -> None:
    profile = Profile(name="wide", image_size=(1280, 720), homography=np.eye(3).tolist(), px_per_mm=1.4, tile_px=(67.0, 34.0),
                      markers=6, error_mm=0.3, zones=default_zones(1280, 720), lens=Lens.for_image(-0.2, 1280, 720).to_json())
    half = profile.fitted(640, 360)
    points = np.array([[100.0, 80.0], [1200.0, 650.0], [640.0, 360.0], [5.0, 715.0]])
    assert np.abs(half.to_table(points / 2) - profile.to_table(points)).max() < 0.5


@pytest.mark.parametrize("seats, found", [
    ("[[[0, 0], [1, 0], [1, 1]], [[0, 0], [1, 0], [1, 1]]]", "the seats should be 4 polygons"),
    ('[[{"x": 0, "y": 0}, {"x": 1, "y": 0}, {"x": 1, "y": 1}]] * 4', "the bottom seat should be a polygon of 3 or more [x, y] points"),
])
def test_zones_edited_by_hand_wrongly_are_refused_with_what_is_wrong(tmp_path: Path, seats: str, found: str) -> None:
    image, _ = view(1.4, 10, 20)
    data = calibrate(image, "kitchen").to_json()
    data["zones"]["seats"] = eval(seats)  # noqa: S307 -- the test's own literals
    (tmp_path / "kitchen.json").write_text(json.dumps(data))
    with pytest.raises(CalibrationError, match=re.escape(found)):
        load_profile("kitchen", tmp_path)


def test_calibrate_command_keeps_a_profile_unless_replaced_and_refuses_odd_names_and_views(tmp_path: Path) -> None:
    image, _ = view(1.4, 15, 60)
    path = tmp_path / "view.png"
    cv2.imwrite(str(path), image)

    def calibrate_with(*args: str) -> tuple[int, str, str]:
        out, err = io.StringIO(), io.StringIO()
        code = main(["calibrate", "--image", str(path), "--dir", str(tmp_path), *args], out=out, err=err)
        return code, out.getvalue(), err.getvalue()

    code, out, _ = calibrate_with("--name", "club.json")  # (the file's name typed: the profile's name meant)
    assert code == 0 and (tmp_path / "club.json").exists() and "48 x 24 mm" in out
    before = (tmp_path / "club.json").read_text()
    code, _, err = calibrate_with("--name", "club")
    assert code == 2 and "a profile 'club' exists already" in err and (tmp_path / "club.json").read_text() == before
    assert calibrate_with("--name", "club", "--replace")[0] == 0
    for name in ("a:b*c?", "  spaced  ", ".hidden", "../up"):
        code, _, err = calibrate_with("--name", name)
        assert code == 2 and "not a profile name" in err, name
    code, _, err = calibrate_with("--name", "Kitchen table 2")
    assert code == 0 and (tmp_path / "Kitchen table 2.json").exists()
    with pytest.raises(SystemExit):
        main(["calibrate", "--image", str(path), "--views", "-3"], out=io.StringIO(), err=io.StringIO())
    code, _, err = calibrate_with("--name", "five", "--views", "5")
    assert code == 0 and "one picture is one view" in err


def test_one_view_off_the_centre_keeps_no_lens() -> None:
    """In one picture a lens and the target's tilt look alike: a lens is measured from two views or more."""
    image, _ = view(1.4, 25, 30, target_at=(-250.0, 60.0), lens_k=-0.15)
    assert calibrate(image, "off").lens is None


def test_a_profile_saved_under_a_name_allowed_before_still_loads(tmp_path: Path) -> None:
    data = calibrate(view(1.4, 10, 20)[0], "x").to_json()
    for name in ("Mika's table", "kitchen (2)", "club #1"):
        (tmp_path / f"{name}.json").write_text(json.dumps({**data, "name": name}))
        assert load_profile(name, tmp_path).name == name
    with pytest.raises(CalibrationError, match="not a profile name"):
        save_profile(load_profile("club #1", tmp_path), tmp_path)  # (a new one's name is checked)
