"""Tiles from ordinary to half the frame: found and read at one input size and with the close-up search
(a benchmark: prints, asserts nothing).

    .venv/bin/python benchmarks/evaluate_scale.py [--source crops|rendered] [--split test] [--lengths 150,250,400,600]
        [--limit N] [--live] [--dim]

``crops``: each held-out image of ``--split`` (``datasets/generated/detector``) cropped around its longest
face-up tile wholly in view and enlarged into a 1280x720 frame so that the tile is L px long (the other
tiles wholly inside the crop are counted too; a tile cut by the crop's edge is neither to find nor false);
an image whose tile would be enlarged more than ``--max-zoom`` times is left out (too blurred to be a
camera's picture).  ``rendered``: 1-3 tiles, sometimes one face down, drawn by the generator directly at
L px long in a 1280x720 frame (seeds 50,000,000 + i, never trained on: a camera close over the table;
``--dim``: in a dim room, the webcam's gain noise and all).

For each length: found (IoU >= 0.5), read exactly, unsure, false tiles, faces taken for backs, and the
median time, for the detector as before (``search=False``: one input size) and as now (the close-up search,
:data:`scorer.vision.detector.SEARCH_SIZES`), each image read by both in turn.  ``--live`` also gives the
live detector (``TileDetector.live``) fed the same frame three times: found at the first frame and the third.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from collections import defaultdict
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path[:0] = [str(ROOT), str(ROOT / "datasets")]

import cv2  # noqa: E402
import numpy as np  # noqa: E402

from scorer.vision import TileDetector  # noqa: E402
from scorer.vision.geometry import half_centers, long_first, long_side, polygon_iou  # noqa: E402

DATA = ROOT / "datasets" / "generated" / "detector"
W, H = 1280, 720
IN_VIEW = 0.9
RENDER_SEED0 = 50_000_000


def _inside(corners: np.ndarray) -> float:
    """The share of a quadrilateral's area inside the output frame."""
    poly = np.asarray(corners, np.float32)
    area = abs(cv2.contourArea(poly))
    if area <= 0:
        return 0.0
    frame = np.float32([[0, 0], [W, 0], [W, H], [0, H]])
    inter, _ = cv2.intersectConvexConvex(poly, frame)
    return max(0.0, float(inter)) / area


def enlarged(image: np.ndarray, center: tuple[float, float], zoom: float) -> tuple[np.ndarray, np.ndarray]:
    """The W x H window of ``image`` around ``center`` enlarged ``zoom`` times (kept inside the image where
    it fits), and the 2x3 map from the image to it."""
    h, w = image.shape[:2]
    cw, ch = W / zoom, H / zoom
    x0 = min(max(center[0] - cw / 2, 0.0), max(w - cw, 0.0)) if cw <= w else (w - cw) / 2
    y0 = min(max(center[1] - ch / 2, 0.0), max(h - ch, 0.0)) if ch <= h else (h - ch) / 2
    m = np.array([[zoom, 0, -x0 * zoom], [0, zoom, -y0 * zoom]])
    out = cv2.warpAffine(image, m, (W, H), flags=cv2.INTER_CUBIC, borderMode=cv2.BORDER_REPLICATE)
    return out, m


def crops(split: str, length: float, limit: int | None, max_zoom: float):
    """(name, frame, tiles to find, tiles to ignore): ``split``'s images enlarged around their longest tile."""
    for line in (DATA / f"{split}.jsonl").read_text().splitlines()[:limit]:
        meta = json.loads(line)
        whole = [t for t in meta["tiles"] if t["values"] is not None and not t["ignore"]
                 and t["visible"] >= IN_VIEW and t["inside"] >= IN_VIEW]
        if not whole:
            continue
        target = max(whole, key=lambda t: long_side(t["corners"]))
        zoom = length / long_side(target["corners"])
        if zoom > max_zoom:
            continue
        image = cv2.imread(str(DATA / meta["image"]))
        center = tuple(np.asarray(target["corners"]).mean(0))
        frame, m = enlarged(image, center, zoom)
        find, ignore = [], []
        for t in meta["tiles"]:
            corners = np.asarray(t["corners"]) @ m[:, :2].T + m[:, 2]
            share = _inside(corners)
            if share <= 0:
                continue
            whole_here = not t["ignore"] and t["visible"] >= IN_VIEW and share >= IN_VIEW
            (find if whole_here else ignore).append({"corners": corners, "values": t["values"]})
        yield f"{meta['seed']}@{zoom:.1f}x", frame, find, ignore


def rendered(count: int, length: float, dim: bool = False):
    """(name, frame, tiles to find, tiles to ignore): 1-3 tiles drawn ``length`` px long by the generator
    (``dim``: in a dim room, as a webcam's sensor sees it there)."""
    from dominosynth.layout import TILE_LONG, scatter
    from dominosynth.render import CameraParams, random_tileset, render_scene

    from scorer.rules import Tile

    full = [Tile(a, b) for a in range(7) for b in range(a, 7)]
    for i in range(count):
        seed = RENDER_SEED0 + i
        rng = random.Random(seed * 1000 + int(length))
        ppm = length / TILE_LONG
        vw, vh = W / ppm, H / ppm
        tiles = rng.sample(full, rng.randint(1, 3))
        bounds = (0.02 * vw, 0.02 * vh, 0.98 * vw, 0.98 * vh)
        up = scatter(tiles[:-1], rng, bounds, [], face_up=True) if len(tiles) > 1 else []
        last_up = len(tiles) == 1 or rng.random() < 0.7
        geoms = up + scatter(tiles[-1:], rng, bounds, [g.corners() for g in up], face_up=last_up, role="boneyard")
        ts = random_tileset(rng, "main")
        cam = CameraParams(W, H, ppm, abs(rng.gauss(0, 8)), rng.uniform(0, 360), rng.uniform(0, 360))
        scene = render_scene(geoms, ts, cam, rng, (vw / 2, vh / 2), occlude=False, dim=dim)
        find, ignore = [], []
        for t in scene.tiles:
            label = {"corners": np.asarray(t.corners), "values": None if t.values is None else list(t.values)}
            (find if t.inside >= IN_VIEW else ignore).append(label)
        yield f"r{seed}", scene.image, find, ignore


def score(counts: dict, detections, find, ignore) -> None:
    used: set[int] = set()
    for tile in find:
        best, best_iou = None, 0.5
        for k, d in enumerate(detections):
            if k in used:
                continue
            iou = polygon_iou(tile["corners"], np.array(d.corners))
            if iou >= best_iou:
                best, best_iou = k, iou
        counts["tiles"] += 1
        if best is None:
            continue
        used.add(best)
        d = detections[best]
        counts["found"] += 1
        if tile["values"] is None:
            counts["read"] += d.face == "down"
            continue
        counts["face as back"] += d.face == "down"
        if d.halves is None:
            continue
        first_truth, _ = half_centers(long_first(tile["corners"]))
        a, b = d.halves
        straight = np.linalg.norm(np.array(a.center) - first_truth) <= np.linalg.norm(np.array(b.center) - first_truth)
        pips = (a.pips, b.pips) if straight else (b.pips, a.pips)
        counts["read"] += list(pips) == tile["values"]
        counts["unsure"] += not d.certain
    for k, d in enumerate(detections):
        if k in used or any(polygon_iou(t["corners"], np.array(d.corners)) >= 0.3 for t in ignore):
            continue
        counts["false"] += 1


def line(name: str, c: dict, times: list[float]) -> str:
    n = max(1, c["tiles"])
    return (f"  {name:<26} {c['tiles']:>5} {100 * c['found'] / n:>7.2f}% {100 * c['read'] / n:>7.2f}% {100 * c['unsure'] / n:>7.2f}%"
            f" {c['false']:>6} {c['face as back']:>6} {statistics.median(times) if times else 0:>8.1f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--source", choices=["crops", "rendered"], default="crops")
    parser.add_argument("--split", default="test", help="crops: the held-out split to crop")
    parser.add_argument("--lengths", default="150,250,400,600", help="tile lengths (px in the 1280x720 frame)")
    parser.add_argument("--limit", type=int, default=None, help="crops: images of the split; rendered: frames per length (default 100)")
    parser.add_argument("--max-zoom", type=float, default=5.0, help="crops: enlarge at most this many times")
    parser.add_argument("--live", action="store_true", help="also the live detector, the same frame three times")
    parser.add_argument("--dim", action="store_true", help="rendered: in a dim room (less light, the sensor's noise)")
    args = parser.parse_args()
    before = TileDetector(threads=2, search=False)
    after = TileDetector(threads=2)
    print(f"source {args.source}{' ' + args.split if args.source == 'crops' else ''}{', dim' if args.dim else ''}; columns: tiles, found, read exactly, "
          "unsure, false tiles, faces taken for backs, median ms per frame")
    for length in (float(x) for x in args.lengths.split(",")):
        frames = crops(args.split, length, args.limit, args.max_zoom) if args.source == "crops" else rendered(args.limit or 100, length, args.dim)
        counts: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
        times: dict[str, list[float]] = defaultdict(list)
        images = 0
        for name, frame, find, ignore in frames:
            images += 1
            for label, detector in (("one input size (before)", before), ("close-up search (now)", after)):
                t0 = time.perf_counter()
                detections = detector.detect(frame)
                times[label].append((time.perf_counter() - t0) * 1000)
                score(counts[label], detections, find, ignore)
            if args.live:
                live = TileDetector.live(threads=2)
                for k in range(3):
                    detections = live.detect(frame)
                    if k in (0, 2):
                        score(counts[f"live, frame {k + 1}"], detections, find, ignore)
                counts["live, frame 3"]["input"] += live.size
        print(f"\ntiles {length:.0f} px long: {images} frames")
        for label, c in counts.items():
            print(line(label, c, times.get(label, [])))
        if args.live and images:
            print(f"  live input size after three frames: mean {counts['live, frame 3']['input'] / images:.0f} px")


if __name__ == "__main__":
    main()
