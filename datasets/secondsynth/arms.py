"""A player's arm seen from above: sleeve, forearm and hand (palm, four fingers, thumb), with its shadow."""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from .look import Person


@dataclass(frozen=True)
class ArmPose:
    person: int  # index into the video's people
    sx: float  # the shoulder, off the table's edge (table pixels)
    sy: float
    fx: float  # the fingertips
    fy: float
    spread: float = 0.0  # 0: fingers together, 1: spread to hold a tile
    carry: object | None = None  # an Item held under the fingers (drawn by the caller's painter)


def _pts(origin, u, v, pairs, s):
    return np.array([[origin[0] + (a * u[0] + b * v[0]) * s, origin[1] + (a * u[1] + b * v[1]) * s] for a, b in pairs],
                    np.float32)


class ArmPainter:
    def __init__(self, people: list[Person], px_per_mm: float, light: np.ndarray, shadow: tuple[float, float] | None,
                 seed: int) -> None:
        self.people = people
        self.s = px_per_mm
        self.light = light
        self.shadow = shadow  # (dx, dy) in pixels, or None
        self.shadow_depth = 0.3
        g = np.random.default_rng(seed)
        self.shadow_depth = float(g.uniform(0.2, 0.4))
        self.fold = g.standard_normal(4096).astype(np.float32)
        self.fold = cv2.GaussianBlur(self.fold.reshape(1, -1), (0, 0), 6).ravel()
        self.fold /= self.fold.std() + 1e-6

    def shapes(self, pose: ArmPose):
        """Polygons and strokes of the sleeve and the skin, in table pixels."""
        p = self.people[pose.person]
        s = self.s * p.hand_scale
        F = np.array([pose.fx, pose.fy], np.float32)
        d = F - np.array([pose.sx, pose.sy], np.float32)
        length = float(np.hypot(*d)) + 1e-6
        u = d / length
        v = np.array([-u[1], u[0]], np.float32)
        side = -1.0 if p.right_handed else 1.0  # the thumb's side
        back = length / s + 300  # mm from the fingertips to well behind the shoulder
        wrist = -165.0
        spread = pose.spread
        fingers = []
        for i, (base_b, tip_a, tip_b) in enumerate(((-27, -14, -23 - 6 * spread), (-9, -3, -8 - 2 * spread),
                                                     (9, 0, 8 + 2 * spread), (26, -10, 21 + 6 * spread))):
            fingers.append((_pts(F, u, v, [(-75, base_b * -side), (tip_a, tip_b * -side)], s), 17 * s if i < 3 else 14 * s))
        palm = _pts(F, u, v, [(wrist, -30), (wrist, 30), (-95, 40), (-72, 36), (-68, 0), (-72, -36), (-95, -40)], s)
        thumb = (_pts(F, u, v, [(-150, 24 * side), (-112, 44 * side), (-88 + 10 * spread, 48 * side)], s), 21 * s)
        forearm = _pts(F, u, v, [(wrist + 5, -31), (wrist - 250, -40), (-back, -48), (-back, 48), (wrist - 250, 40),
                                 (wrist + 5, 31)], s)
        cuff = wrist - p.sleeve_back_mm
        sleeve = _pts(F, u, v, [(cuff, -50), (cuff - 200, -62), (-back, -75), (-back, 75), (cuff - 200, 62),
                                (cuff, 50)], s)
        return dict(fingers=fingers, palm=palm, thumb=thumb, forearm=forearm, sleeve=sleeve, u=u, v=v, F=F, s=s)

    def bbox(self, pose: ArmPose, W: int, H: int):
        sh = self.shapes(pose)
        pts = np.vstack([sh["palm"], sh["forearm"], sh["sleeve"], sh["thumb"][0]] + [f[0] for f in sh["fingers"]])
        x0, y0 = pts.min(0) - 20 * self.s
        x1, y1 = pts.max(0) + 20 * self.s
        if self.shadow is not None:
            x0, x1 = x0 + min(0, self.shadow[0]) - 30, x1 + max(0, self.shadow[0]) + 30
            y0, y1 = y0 + min(0, self.shadow[1]) - 30, y1 + max(0, self.shadow[1]) + 30
        x0, y0 = max(0, int(x0)), max(0, int(y0))
        x1, y1 = min(W, int(x1) + 1), min(H, int(y1) + 1)
        return sh, (x0, y0, x1, y1)

    def paint(self, img: np.ndarray, pose: ArmPose) -> None:
        """Draws the arm (and its shadow) into ``img`` (uint8 RGB, table pixels) in place."""
        H, W = img.shape[:2]
        sh, (x0, y0, x1, y1) = self.bbox(pose, W, H)
        if x1 <= x0 or y1 <= y0:
            return
        roi = img[y0:y1, x0:x1].astype(np.float32)
        self._paint(roi, sh, pose, x0, y0, x1, y1)
        img[y0:y1, x0:x1] = np.clip(roi + 0.5, 0, 255).astype(np.uint8)

    def _paint(self, roi, sh, pose, x0, y0, x1, y1) -> None:
        p = self.people[pose.person]
        w, h = x1 - x0, y1 - y0
        off = np.array([x0, y0], np.float32)
        sub = 4  # fixed-point bits: cv2 draws with 1/16 px precision

        def q(a):
            return np.round((a - off) * (1 << sub)).astype(np.int32)

        skin = np.zeros((h, w), np.uint8)
        sleeve = np.zeros((h, w), np.uint8)
        cv2.fillPoly(skin, [q(sh["forearm"])], 255, cv2.LINE_AA, shift=sub)
        cv2.fillPoly(skin, [q(sh["palm"])], 255, cv2.LINE_AA, shift=sub)
        for line, thick in sh["fingers"] + [sh["thumb"]]:
            pts = q(line)
            for a, b in zip(pts[:-1], pts[1:]):
                cv2.line(skin, tuple(int(c) for c in a), tuple(int(c) for c in b), 255, max(1, int(thick)), cv2.LINE_AA,
                         shift=sub)
        cv2.fillPoly(sleeve, [q(sh["sleeve"])], 255, cv2.LINE_AA, shift=sub)
        both = np.maximum(skin, sleeve)
        if self.shadow is not None:
            m = np.zeros_like(both)
            dx, dy = self.shadow
            M = np.float32([[1, 0, dx], [0, 1, dy]])
            m = cv2.warpAffine(both, M, (w, h))
            m = cv2.GaussianBlur(m.astype(np.float32) / 255.0, (0, 0), 9 * self.s)
            roi *= (1 - self.shadow_depth * m)[..., None]
        # volume: darker towards each part's outline
        sk = skin.astype(np.float32) / 255.0
        sl = sleeve.astype(np.float32) / 255.0
        shade_sk = 0.72 + 0.33 * cv2.GaussianBlur(sk, (0, 0), 6 * self.s)
        shade_sl = 0.65 + 0.4 * cv2.GaussianBlur(sl, (0, 0), 10 * self.s)
        # sleeve folds across the arm
        u = sh["u"]
        yy, xx = np.mgrid[y0:y1, x0:x1].astype(np.float32)
        along = ((xx - sh["F"][0]) * u[0] + (yy - sh["F"][1]) * u[1]) / sh["s"]
        idx = np.clip((along * 0.6 + 2048).astype(np.int32), 0, 4095)
        shade_sl = shade_sl * (1 + 0.07 * self.fold[idx])
        # the gaps between fingers
        gaps = np.zeros((h, w), np.uint8)
        fingers = [q(f[0]) for f in sh["fingers"]]
        for fa, fb in zip(fingers[:-1], fingers[1:]):
            a = (fa[0] + fb[0]) // 2
            b = (fa[1] + fb[1]) // 2
            a = a + (b - a) // 5
            cv2.line(gaps, tuple(int(c) for c in a), tuple(int(c) for c in b), 255, max(1, int(2 * self.s)), cv2.LINE_AA,
                     shift=sub)
        shade_sk = shade_sk * (1 - 0.35 * cv2.GaussianBlur(gaps.astype(np.float32) / 255.0, (0, 0), 0.8 * self.s))
        light = self.light[y0:y1, x0:x1][..., None]
        skin_col = np.array(p.skin, np.float32) * shade_sk[..., None] * light
        sleeve_col = np.array(p.sleeve, np.float32) * shade_sl[..., None] * light
        a = sk[..., None]
        roi *= 1 - a
        roi += a * skin_col
        b = sl[..., None]
        roi *= 1 - b
        roi += b * sleeve_col
