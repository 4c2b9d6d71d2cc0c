"""Table calibration from a printed ArUco target: the table-plane homography, the scale, the zones.

The target (``calibration/target.pdf``, A4, print at 100 %) carries six ArUco
markers (4x4 dictionary, ids 0-5) at known places.  Seen by the camera, their
corners give the homography from image pixels to table millimetres (origin at the
target's centre), the scale at the target, and so the size a tile should have in
the image.  A profile also holds the table's zones in image pixels: the layout
area, an optional boneyard, and each seat's hand-reveal strip, clockwise from the
side nearest the camera (the image's bottom edge).
"""

from __future__ import annotations

import json
import os
import time
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Callable, Iterable, Sequence

import cv2
import numpy as np

from scorer.errors import CalibrationError as CalibrationError  # (defined in the one tree; imported from here too)
from scorer.errors import TargetNotFound as TargetNotFound
from scorer.vision.lens import Lens, fit_lens

PAGE_MM = (210.0, 297.0)  # A4 portrait
MARKER_MM = 50.0
# Marker centres in mm from the page's top-left corner (2 columns x 3 rows).
MARKER_CENTRES_MM = {
    0: (52.5, 55.0), 1: (157.5, 55.0),
    2: (52.5, 148.5), 3: (157.5, 148.5),
    4: (52.5, 242.0), 5: (157.5, 242.0),
}
TILE_MM = (48.0, 24.0)  # a standard double-six tile, long x short


def _dictionary():
    return cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50)


def marker_corners_mm(marker_id: int) -> np.ndarray:
    """The four corners of a marker (ArUco order: top-left, clockwise) in table mm, origin at the page centre."""
    cx, cy = MARKER_CENTRES_MM[marker_id]
    cx, cy = cx - PAGE_MM[0] / 2, cy - PAGE_MM[1] / 2
    h = MARKER_MM / 2
    return np.array([[cx - h, cy - h], [cx + h, cy - h], [cx + h, cy + h], [cx - h, cy + h]], np.float64)


def render_target(dpi: int = 300) -> np.ndarray:
    """The printable target as a grey image at ``dpi``."""
    px_per_mm = dpi / 25.4
    w, h = int(round(PAGE_MM[0] * px_per_mm)), int(round(PAGE_MM[1] * px_per_mm))
    page = np.full((h, w), 255, np.uint8)
    size = int(round(MARKER_MM * px_per_mm))
    dictionary = _dictionary()
    for marker_id, (cx, cy) in MARKER_CENTRES_MM.items():
        marker = cv2.aruco.generateImageMarker(dictionary, marker_id, size)
        x0, y0 = int(round(cx * px_per_mm - size / 2)), int(round(cy * px_per_mm - size / 2))
        page[y0 : y0 + size, x0 : x0 + size] = marker
    # A tile outline for scale, and what the page is.
    tw, th = TILE_MM[0] * px_per_mm, TILE_MM[1] * px_per_mm
    # Between the first and second rows of markers.
    x0, y0 = int(w / 2 - tw / 2), int(92 * px_per_mm)
    cv2.rectangle(page, (x0, y0), (int(x0 + tw), int(y0 + th)), 0, max(1, dpi // 150))
    cv2.line(page, (w // 2, y0 + int(th * 0.15)), (w // 2, y0 + int(th * 0.85)), 0, max(1, dpi // 150))
    font_scale = dpi / 300 * 1.0
    cv2.putText(page, "Domino table scorer - calibration target. Print at 100 % (A4).", (int(12 * px_per_mm), int(12 * px_per_mm)),
                cv2.FONT_HERSHEY_SIMPLEX, font_scale, 0, max(1, dpi // 150), cv2.LINE_AA)
    cv2.putText(page, "one tile, 48 x 24 mm", (int(w / 2 - 22 * px_per_mm), int(y0 - 3 * px_per_mm)),
                cv2.FONT_HERSHEY_SIMPLEX, font_scale * 0.8, 0, max(1, dpi // 150), cv2.LINE_AA)
    return page


def write_pdf(image: np.ndarray, path: Path, page_mm: tuple[float, float] = PAGE_MM) -> None:
    """A one-page PDF showing a grey image over the whole page (Flate-compressed, no dependencies)."""
    import zlib

    h, w = image.shape
    data = zlib.compress(np.ascontiguousarray(image).tobytes(), 9)
    pw, ph = page_mm[0] / 25.4 * 72, page_mm[1] / 25.4 * 72
    content = f"q {pw:.2f} 0 0 {ph:.2f} 0 0 cm /Im0 Do Q".encode()
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 {pw:.2f} {ph:.2f}] /Resources << /XObject << /Im0 4 0 R >> >> /Contents 5 0 R >>".encode(),
        f"<< /Type /XObject /Subtype /Image /Width {w} /Height {h} /ColorSpace /DeviceGray /BitsPerComponent 8 /Filter /FlateDecode /Length {len(data)} >>\nstream\n".encode()
        + data + b"\nendstream",
        f"<< /Length {len(content)} >>\nstream\n".encode() + content + b"\nendstream",
    ]
    out = bytearray(b"%PDF-1.4\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += f"{number} 0 obj\n".encode() + body + b"\nendobj\n"
    xref = len(out)
    out += f"xref\n0 {len(objects) + 1}\n0000000000 65535 f \n".encode()
    out += b"".join(f"{o:010d} 00000 n \n".encode() for o in offsets)
    out += f"trailer\n<< /Size {len(objects) + 1} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n".encode()
    path.write_bytes(bytes(out))


@dataclass
class Zones:
    """Polygons in image pixels."""

    layout: list[list[float]]
    seats: list[list[list[float]]]  # clockwise from the bottom edge: bottom, left, top, right
    boneyard: list[list[float]] | None = None


def default_zones(width: int, height: int) -> Zones:
    """Without a profile: the layout in the middle, a strip along each edge for the seat there."""
    x0, x1, y0, y1 = 0.15 * width, 0.85 * width, 0.18 * height, 0.82 * height
    w, h = float(width), float(height)
    return Zones(
        layout=[[x0, y0], [x1, y0], [x1, y1], [x0, y1]],
        seats=[
            [[0, y1], [w, y1], [w, h], [0, h]],  # bottom, nearest the camera
            [[0, 0], [x0, 0], [x0, h], [0, h]],  # left
            [[0, 0], [w, 0], [w, y0], [0, y0]],  # top
            [[x1, 0], [w, 0], [w, h], [x1, h]],  # right
        ],
    )


def _check_zones(zones: Zones) -> None:
    """Zones edited by hand as the code reads them: the layout and each of the four seats (bottom, left, top, right) a
    polygon of [x, y] points in image pixels (and the boneyard, where given); else what is wrong."""
    def polygon(points: object, what: str) -> None:
        ok = isinstance(points, list) and len(points) >= 3 and all(
            isinstance(p, (list, tuple)) and len(p) == 2 and all(isinstance(v, (int, float)) for v in p) for p in points)
        if not ok:
            raise CalibrationError(f"the calibration profile's zones are damaged: the {what} should be a polygon of 3 or more "
                                   f"[x, y] points in image pixels, found {str(points)[:60]}")

    polygon(zones.layout, "layout")
    if not isinstance(zones.seats, list) or len(zones.seats) != 4:
        raise CalibrationError("the calibration profile's zones are damaged: the seats should be 4 polygons (bottom, left, "
                               f"top, right; a table of 2 or 3 players uses some of them), found {str(zones.seats)[:60]}")
    for where, seat in zip(("bottom", "left", "top", "right"), zones.seats):
        polygon(seat, f"{where} seat")
    if zones.boneyard is not None:
        polygon(zones.boneyard, "boneyard")


def seat_order(n_players: int) -> list[int]:
    """Which of the four edge seats (bottom, left, top, right) the players sit at, in the order given."""
    return {2: [0, 2], 3: [0, 1, 2], 4: [0, 1, 2, 3]}.get(n_players, list(range(n_players)))


# Pictures whose width over height differs from the calibration's by more than this share show another part of the
# table (a camera's other mode crops its sensor otherwise); within it, a resolution scaled.
ASPECT_TOLERANCE = 0.01


@dataclass
class Profile:
    name: str
    image_size: tuple[int, int]
    homography: list[list[float]]  # undistorted image px -> table mm
    px_per_mm: float
    tile_px: tuple[float, float]
    markers: int
    error_mm: float
    zones: Zones
    created: str = field(default_factory=lambda: time.strftime("%Y-%m-%dT%H:%M:%S"))
    lens: dict | None = None  # Lens.to_json(), or None where no distortion was measured
    lens_fit: dict | None = None  # how the lens was judged: views, k, errors without and with it

    @property
    def H(self) -> np.ndarray:
        return np.array(self.homography, np.float64)

    @property
    def lens_model(self) -> Lens | None:
        return None if self.lens is None else Lens.from_json(self.lens)

    def to_table(self, points: Sequence[Sequence[float]] | np.ndarray) -> np.ndarray:
        """Image pixels -> table millimetres (lens distortion undone first)."""
        lens = self.lens_model
        pts = np.asarray(points, np.float64).reshape(-1, 2)
        return to_table(lens.undistort(pts) if lens is not None else pts, self.H)

    def to_image(self, points: Sequence[Sequence[float]] | np.ndarray) -> np.ndarray:
        """Table millimetres -> image pixels, as the camera shows them."""
        ideal = to_table(points, np.linalg.inv(self.H))
        lens = self.lens_model
        return lens.distort(ideal) if lens is not None else ideal

    def fitted(self, width: int, height: int) -> Profile:
        """This profile for a camera's pictures of ``width`` x ``height`` px: itself at its own size; scaled where the
        pictures are the same view at another resolution (the same shape); else why not (a webcam set to 640x480 for
        the calibration and to 1280x720 for play sees another part of the table)."""
        made_w, made_h = self.image_size
        if (width, height) == (made_w, made_h):
            return self
        if abs(width / height - made_w / made_h) > ASPECT_TOLERANCE * made_w / made_h:
            raise CalibrationError(f"the calibration {self.name!r} was made on {made_w}x{made_h} pictures; these are "
                                   f"{width}x{height}, another shape, and show the table otherwise")
        s = width / made_w

        def polygon(points: list[list[float]]) -> list[list[float]]:
            return [[p[0] * s, p[1] * s] for p in points]

        zones = Zones(polygon(self.zones.layout), [polygon(p) for p in self.zones.seats],
                      polygon(self.zones.boneyard) if self.zones.boneyard else None)
        lens = None if self.lens is None else {**self.lens, "center": [c * s for c in self.lens["center"]], "radius": self.lens["radius"] * s}
        return replace(self, image_size=(width, height), homography=(self.H @ np.diag([1 / s, 1 / s, 1.0])).tolist(),
                       px_per_mm=self.px_per_mm * s, tile_px=(self.tile_px[0] * s, self.tile_px[1] * s), zones=zones, lens=lens)

    def to_json(self) -> dict:
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict) -> Profile:
        try:
            zones = Zones(**data["zones"])
            profile = cls(
                name=str(data["name"]),
                image_size=tuple(data["image_size"]),  # type: ignore[arg-type]
                homography=[[float(v) for v in row] for row in data["homography"]],
                px_per_mm=float(data["px_per_mm"]),
                tile_px=tuple(data["tile_px"]),  # type: ignore[arg-type]
                markers=int(data["markers"]),
                error_mm=float(data["error_mm"]),
                zones=zones,
                created=str(data.get("created", "")),
                lens=data.get("lens"),
                lens_fit=data.get("lens_fit"),
            )
            profile.lens_model  # noqa: B018 -- checks the lens entry
        except (KeyError, TypeError, ValueError) as exc:
            raise CalibrationError(f"the calibration profile is damaged: {exc!r}") from None
        sizes = (profile.image_size, profile.tile_px)
        if any(len(v) != 2 or not all(isinstance(x, (int, float)) and x > 0 for x in v) for v in sizes):
            raise CalibrationError(f"the calibration profile is damaged: image_size and tile_px should be two positive "
                                   f"numbers each, found {list(profile.image_size)} and {list(profile.tile_px)}")
        if profile.H.shape != (3, 3) or not np.isfinite(profile.H).all():
            raise CalibrationError("the calibration profile is damaged: the homography is not a finite 3x3 matrix")
        _check_zones(profile.zones)
        return profile


def find_target(image: np.ndarray) -> tuple[np.ndarray, np.ndarray, int]:
    """Image points and their table mm for every target marker seen; raises if fewer than two are seen."""
    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY) if image.ndim == 3 else image
    params = cv2.aruco.DetectorParameters()
    # Sub-pixel corners: the plane (and the lens) are fitted to them, and far table points magnify their error.
    params.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_SUBPIX
    detector = cv2.aruco.ArucoDetector(_dictionary(), params)
    corners, ids, _ = detector.detectMarkers(grey)
    img_pts, mm_pts, n = [], [], 0
    if ids is not None:
        for quad, marker_id in sorted(zip(corners, ids.ravel()), key=lambda q: int(q[1])):  # same order every frame
            if int(marker_id) in MARKER_CENTRES_MM:
                img_pts.append(quad.reshape(4, 2))
                mm_pts.append(marker_corners_mm(int(marker_id)))
                n += 1
    if n < 2:
        raise TargetNotFound(f"the calibration target was not found: {n} of its 6 markers seen (need at least 2) -- the whole "
                             "page in view, lying flat, in focus and lit?", n)
    return np.concatenate(img_pts), np.concatenate(mm_pts), n


View = tuple[np.ndarray, np.ndarray, int]  # the target's image points, their table mm, markers seen


def calibrate(image: np.ndarray, name: str) -> Profile:
    """A profile from one image of the target (lens distortion only where this one view shows it)."""
    h, w = image.shape[:2]
    return calibrate_views([find_target(image)], (w, h), name)


def calibrate_views(views: Sequence[View], size: tuple[int, int], name: str) -> Profile:
    """A profile from views of the target at rest in one or more places on the table.

    The table's millimetres are those of the first view's target; every view helps measure
    the lens, most those near the image's edges."""
    if not views:
        raise CalibrationError("the calibration target was not found in any frame")
    w, h = size
    fit = fit_lens([(v[0], v[1]) for v in views], w, h)
    lens = fit.lens
    img_pts, mm_pts, n = views[0]
    ideal = lens.undistort(img_pts) if lens is not None else img_pts
    H, _ = cv2.findHomography(ideal, mm_pts, cv2.RANSAC, 3.0)
    if H is None:
        raise CalibrationError("the target's markers do not fit one plane")
    projected = cv2.perspectiveTransform(ideal[None].astype(np.float64), H)[0]
    error = float(np.sqrt(((projected - mm_pts) ** 2).sum(1)).mean())
    profile = Profile(
        name=name,
        image_size=(w, h),
        homography=H.tolist(),
        px_per_mm=0.0,
        tile_px=(0.0, 0.0),
        markers=n,
        error_mm=error,
        zones=default_zones(w, h),
        lens=None if lens is None else lens.to_json(),
        lens_fit={"views": fit.views, "k": round(fit.k, 5), "error_without_mm": round(fit.error_without_mm, 4),
                  "error_with_mm": round(fit.error_with_mm, 4), "kept": lens is not None},
    )
    # The scale at the target's centre: how many image px one table mm spans there.
    c = profile.to_image([[0.0, 0.0], [10.0, 0.0], [0.0, 10.0]])
    profile.px_per_mm = float((np.linalg.norm(c[1] - c[0]) + np.linalg.norm(c[2] - c[0])) / 20.0)
    profile.tile_px = (TILE_MM[0] * profile.px_per_mm, TILE_MM[1] * profile.px_per_mm)
    return profile


# Where the target lies again within this many px, it has not been moved (a sharp view).
STILL_PX = 1.5


def calibrate_frames(frames: Iterable[np.ndarray], name: str, views: int = 1,
                     on_view: Callable[[int], None] | None = None) -> Profile:
    """Up to ``views`` views of the target at rest in different places (from a video or a camera).

    A view counts when the target lies still over two frames and away from the places already
    seen (an eighth of the image diagonal); ``on_view`` is told each view's number as it is taken.
    Frames running out with fewer views calibrate from those."""
    taken: list[View] = []
    size: tuple[int, int] | None = None
    last: CalibrationError | None = None
    previous: View | None = None
    for frame in frames:
        try:
            view = find_target(frame)
        except CalibrationError as exc:
            last, previous = exc, None
            continue
        h, w = frame.shape[:2]
        size = size or (w, h)
        if previous is not None and _same_place(previous, view, STILL_PX):
            far = np.hypot(w, h) / 8
            centre = view[0].mean(0)
            if all(np.linalg.norm(centre - t[0].mean(0)) > far for t in taken):
                taken.append(view)
                if on_view is not None:
                    on_view(len(taken))
                if len(taken) >= views:
                    break
        previous = view
    if not taken and previous is not None:
        taken.append(previous)  # never still twice (a single frame): the one view there is
    if not taken or size is None:
        raise last or CalibrationError("no frames to calibrate from")
    return calibrate_views(taken, size, name)


def _same_place(a: View, b: View, tolerance_px: float) -> bool:
    if a[2] != b[2] or a[0].shape != b[0].shape or not np.array_equal(a[1], b[1]):
        return False
    return float(np.abs(a[0] - b[0]).max()) <= tolerance_px


def config_dir() -> Path:
    base = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(base) / "domino-scorer"


def profile_name_problem(name: str) -> str | None:
    """Why ``name`` cannot name a calibration profile (a file on any system: letters, digits, spaces, - _ and .,
    not first), or None."""
    if not name.strip():
        return "an empty name"
    if name != name.strip() or "  " in name:
        return f"{name!r} has spaces at its ends or doubled"
    if name.startswith(".") or len(name) > 60 or any(not (c.isalnum() or c in " -_.") for c in name):
        return f"{name!r}: a profile's name is letters, digits, spaces, - _ and . (not first), up to 60 characters"
    return None


def profile_path(name: str, directory: Path | None = None, *, new: bool = False) -> Path:
    """Where the profile ``name`` is kept: a ``new`` one's name checked (:func:`profile_name_problem`); one saved before
    that check (any name but a path) found as it is."""
    problem = profile_name_problem(name) if new else ("an empty name" if not name.strip() else None)
    if not new and (any(c in name for c in "/\\") or name.startswith(".")):
        problem = f"{name!r} is a path, not a name"
    if problem:
        raise CalibrationError(f"not a profile name: {problem}")
    return (directory or config_dir() / "calibration") / f"{name}.json"


def save_profile(profile: Profile, directory: Path | None = None) -> Path:
    path = profile_path(profile.name, directory, new=True)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".json.tmp")
    tmp.write_text(json.dumps(profile.to_json(), indent=2))
    os.replace(tmp, path)
    return path


def load_profile(name_or_path: str, directory: Path | None = None) -> Profile:
    path = Path(name_or_path)
    if not (path.suffix == ".json" and path.exists()):
        path = profile_path(name_or_path, directory)
    if not path.exists():
        raise CalibrationError(f"no calibration profile {name_or_path!r} (looked for {path})")
    try:
        data = json.loads(path.read_text())
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise CalibrationError(f"{path}: the calibration profile cannot be read: {exc}") from None
    if not isinstance(data, dict):
        raise CalibrationError(f"{path}: the calibration profile is damaged: expected a JSON object")
    return Profile.from_json(data)


def to_table(points: Sequence[Sequence[float]], H: np.ndarray) -> np.ndarray:
    pts = np.asarray(points, np.float64).reshape(-1, 1, 2)
    return cv2.perspectiveTransform(pts, H).reshape(-1, 2)
