"""Radial lens distortion, measured from views of the flat calibration target.

A webcam's wide lens bends straight table lines (barrel distortion), most at the image's
edges.  The model is the one-parameter division model about the image centre::

    undistorted = c + (d - c) / (1 + k * (|d - c| / r) ** 2),   r = half the image diagonal

Points of one flat target are related to the table by a homography once undistorted, so
``k`` is the value that makes every view's marker corners fit a homography best.  It is
measurable only where the views reach away from the image centre (near the centre the
distortion looks like part of the homography), so :func:`fit_lens` keeps a lens only when
it explains the views clearly better than no lens.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

import cv2
import numpy as np

# A lens is kept only if it cuts the views' fit error to this share or less ...
KEEP_BELOW = 0.7
# ... and the error without it is more than marker-corner noise (mm).
NOISE_MM = 0.15
K_RANGE = 0.6


@dataclass(frozen=True)
class Lens:
    k: float
    center: tuple[float, float]
    radius: float

    @classmethod
    def for_image(cls, k: float, width: int, height: int) -> Lens:
        return cls(float(k), ((width - 1) / 2.0, (height - 1) / 2.0), float(np.hypot(width, height) / 2.0))

    def undistort(self, points: np.ndarray | Sequence) -> np.ndarray:
        """Image points as an ideal (distortion-free) camera would have seen them."""
        p = np.asarray(points, np.float64).reshape(-1, 2)
        c = np.asarray(self.center)
        rho2 = (((p - c) / self.radius) ** 2).sum(1, keepdims=True)
        return c + (p - c) / (1.0 + self.k * rho2)

    def distort(self, points: np.ndarray | Sequence) -> np.ndarray:
        """The inverse of :meth:`undistort`: where an ideal image point shows in the camera's image."""
        p = np.asarray(points, np.float64).reshape(-1, 2)
        if self.k == 0:
            return p.copy()
        c = np.asarray(self.center)
        v = (p - c) / self.radius
        rho_u = np.sqrt((v**2).sum(1))
        # rho_u = rho_d / (1 + k rho_d^2)  =>  k rho_u rho_d^2 - rho_d + rho_u = 0; the root nearest rho_u.
        disc = np.clip(1.0 - 4.0 * self.k * rho_u**2, 0.0, None)
        with np.errstate(divide="ignore", invalid="ignore"):
            rho_d = np.where(rho_u > 1e-12, (1.0 - np.sqrt(disc)) / (2.0 * self.k * rho_u), 0.0)
            scale = np.where(rho_u > 1e-12, rho_d / rho_u, 1.0)
        return c + v * scale[:, None] * self.radius

    def to_json(self) -> dict:
        return {"model": "division", "k": self.k, "center": list(self.center), "radius": self.radius}

    @classmethod
    def from_json(cls, data: dict) -> Lens:
        if data.get("model") != "division":
            raise ValueError(f"expected the division lens model, found {data.get('model')!r}")
        cx, cy = (float(v) for v in data["center"])
        return cls(float(data["k"]), (cx, cy), float(data["radius"]))


@dataclass(frozen=True)
class LensFit:
    lens: Lens | None  # None: no distortion measurable from these views
    k: float  # the best value found, kept or not
    error_without_mm: float
    error_with_mm: float
    views: int


def plane_error(views: Sequence[tuple[np.ndarray, np.ndarray]], lens: Lens | None) -> float:
    """RMS distance (mm) between each view's target points and their homography fit, after ``lens``."""
    sq, n = 0.0, 0
    for img, mm in views:
        pts = lens.undistort(img) if lens is not None else np.asarray(img, np.float64)
        H, _ = cv2.findHomography(pts, mm, 0)
        if H is None:
            return float("inf")
        fit = cv2.perspectiveTransform(pts.reshape(-1, 1, 2), H).reshape(-1, 2)
        sq += float(((fit - mm) ** 2).sum())
        n += len(mm)
    return float(np.sqrt(sq / max(1, n)))


def fit_lens(views: Sequence[tuple[np.ndarray, np.ndarray]], width: int, height: int) -> LensFit:
    """The division-model ``k`` that makes the views' target points most nearly planar."""

    def cost(k: float) -> float:
        return plane_error(views, Lens.for_image(k, width, height))

    grid = np.linspace(-K_RANGE, K_RANGE, 61)
    costs = [cost(k) for k in grid]
    i = int(np.argmin(costs))
    lo, hi = grid[max(0, i - 1)], grid[min(len(grid) - 1, i + 1)]
    # Golden-section search inside the best grid cell's neighbours.
    g = (np.sqrt(5) - 1) / 2
    a, b = lo + (1 - g) * (hi - lo), lo + g * (hi - lo)
    fa, fb = cost(a), cost(b)
    for _ in range(30):
        if fa < fb:
            hi, b, fb = b, a, fa
            a = lo + (1 - g) * (hi - lo)
            fa = cost(a)
        else:
            lo, a, fa = a, b, fb
            b = lo + g * (hi - lo)
            fb = cost(b)
    k = float((lo + hi) / 2)
    without, with_lens = plane_error(views, None), cost(k)
    # (One view is never enough: in one picture a lens and the target's tilt look alike -- a newcomer's single view
    # off the centre kept k = -0.50 and put the picture's corner 376 mm off.)
    keep = len(views) >= 2 and without > NOISE_MM and with_lens <= KEEP_BELOW * without
    return LensFit(Lens.for_image(k, width, height) if keep else None, k, without, with_lens, len(views))
