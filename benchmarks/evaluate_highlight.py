"""Faces washed out by a highlight, and backs: taken for what (a benchmark: prints, asserts nothing).

    .venv/bin/python benchmarks/evaluate_highlight.py [--split test] [--limit N] [--amplitude 150,300]

Each held-out image of ``--split`` (``datasets/generated/detector``) is read three times: with a lamp's
highlight laid over one of its face-up tiles wholly in view (40 px or longer), with one over one of its
backs, and as it is (its backs).  The highlight is a round soft spot (a Gaussian, sigma 0.3-0.6 of the
tile's length) centred near the tile's middle, its light added to the picture and clipped at white,
``--amplitude`` grey levels at its centre (drawn from the range; 150-300: the body blown out, dark pips
faded or gone).  For each, what the tile came out as: a face read surely (right or wrong), a face asked
about, a back, or not found -- with the washed-out check (``scorer.vision.box_reading.washed_out``) and
without it (as before issue 40), each image read both ways.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT))

import cv2  # noqa: E402
import numpy as np  # noqa: E402

import scorer.vision.box_reading as box_reading  # noqa: E402
from scorer.vision import TileDetector  # noqa: E402
from scorer.vision.geometry import long_side, polygon_iou  # noqa: E402

DATA = ROOT / "datasets" / "generated" / "detector"
IN_VIEW = 0.9


def highlight(image: np.ndarray, corners: np.ndarray, rng: random.Random, amplitude: float) -> np.ndarray:
    """``image`` with a lamp's soft highlight over the tile at ``corners``."""
    c = np.asarray(corners, np.float64)
    length = long_side(c)
    h, w = image.shape[:2]
    centre = c.mean(0) + (c[1] - c[0]) * rng.uniform(-0.15, 0.15)
    sigma = rng.uniform(0.3, 0.6) * length
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    spot = np.exp(-((xx - centre[0]) ** 2 + (yy - centre[1]) ** 2) / (2 * sigma**2))[..., None]
    return np.clip(image.astype(np.float32) + spot * amplitude, 0, 255).astype(np.uint8)


def outcome(detections, tile: dict) -> str:
    corners = np.asarray(tile["corners"])
    best = max(detections, key=lambda d: polygon_iou(corners, np.array(d.corners)), default=None)
    if best is None or polygon_iou(corners, np.array(best.corners)) < 0.5:
        return "not found"
    if best.face == "down":
        return "back"
    if not best.certain:
        return "face, asked"
    if tile["values"] is not None and sorted(best.pips) == sorted(tile["values"]):
        return "face, read right"
    return "face, read wrong"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--split", default="test")
    parser.add_argument("--limit", type=int, default=None)
    parser.add_argument("--amplitude", default="150,300", help="the highlight's grey levels at its centre: a range LO,HI")
    args = parser.parse_args()
    lo, hi = (float(x) for x in args.amplitude.split(","))
    detector = TileDetector(threads=2)
    washed_out = box_reading.WASHED_OUT
    counts: dict[str, Counter] = {}
    for line in (DATA / f"{args.split}.jsonl").read_text().splitlines()[: args.limit]:
        meta = json.loads(line)
        rng = random.Random(meta["seed"])
        whole = [t for t in meta["tiles"] if not t["ignore"] and t["visible"] >= IN_VIEW and t["inside"] >= IN_VIEW
                 and long_side(t["corners"]) >= 40]
        if not whole:
            continue
        image = cv2.imread(str(DATA / meta["image"]))
        cases = []
        for face_up in (True, False):
            chosen = [t for t in whole if (t["values"] is not None) == face_up]
            if chosen:
                tile = rng.choice(chosen)
                lit = highlight(image, np.asarray(tile["corners"]), rng, rng.uniform(lo, hi))
                cases.append(("face under a highlight" if face_up else "back under a highlight", lit, [tile]))
        backs = [t for t in whole if t["values"] is None]
        if backs:
            cases.append(("back as it is", image, backs))
        for name, picture, tiles in cases:
            for label, share in (("before", 2.0), ("now", washed_out)):
                box_reading.WASHED_OUT = share  # (2.0: never washed out, the check off)
                detections = detector.detect(picture)
                counts.setdefault(f"{name}, {label}", Counter()).update(outcome(detections, t) for t in tiles)
        box_reading.WASHED_OUT = washed_out
    kinds = ("face, read right", "face, read wrong", "face, asked", "back", "not found")
    print(f"split {args.split}, highlight {lo:.0f}-{hi:.0f} grey levels; columns: tiles, " + ", ".join(kinds))
    for name, c in counts.items():
        print(f"  {name:<34} {sum(c.values()):>5} " + " ".join(f"{c[k]:>6}" for k in kinds))


if __name__ == "__main__":
    main()
