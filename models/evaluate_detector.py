"""Figures for the tile detector on the held-out synthetic splits (a benchmark: prints, asserts nothing).

    .venv/bin/python models/evaluate_detector.py                     # onnxruntime figures
    /path/to/train-venv/bin/python models/evaluate_detector.py       # also ultralytics' own predict

For each split (``test``: the main generator's held-out seeds; ``cross``: the differently
styled configuration; ``dots``: test's scenes with light sets whose pips are coloured by value as
common colour-dot sets are; ``shaded`` and ``shaded-layouts``, when made: an independent renderer,
``datasets/make_shaded_split.py``, loose tiles and lines, or played layouts) it prints, over labelled tiles: found (a detection with IoU >= 0.5),
read exactly (found and both halves right), false tiles (detections on no tile), and the
share of tiles the reader was unsure of (which the app asks about) -- overall and for loose
tiles, touching tiles in layouts, tilted views, occluded frames, face-down tiles, tiles wholly in
view and tiles partly under an arm or cut by the frame's edge, frames blurred by motion or not, and
issue 40's figure (frames without motion blur, tiles 15-500 px long; and of those the tiles wholly in
view); false tiles with how many were read surely (the rest are asked about); and, for the
face-up tiles found, by the tile's length in the image and by how well its box fits (IoU), and with
``--by-look`` by the pip style and body of the tile set (the generator's splits).
Then the median end-to-end time for a 1280x720 frame (JPEG decode to tile list) with 2 threads.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections import defaultdict
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

import cv2  # noqa: E402
import numpy as np  # noqa: E402

from scorer.vision import TileDetector  # noqa: E402
from scorer.vision.detector import INPUT_SIZE  # noqa: E402
from scorer.vision.geometry import half_centers, long_first, long_side, polygon_iou  # noqa: E402
from scorer.vision.plain_backs import backs_maybe_faces  # noqa: E402

DATA = HERE.parent / "datasets" / "generated" / "detector"
SPLITS = ("test", "cross", "dots", "shaded", "shaded-layouts")  # measured unless --split names others
IN_VIEW = 0.9  # of a tile uncovered and inside the frame, for it to count as wholly in view


def evaluate_split(detector: TileDetector, split: str, limit: int | None, by_look: bool = False,
                   wrong: list | None = None) -> dict:
    """The counts; with ``wrong`` a list, each tile of issue 40's figure not found or not read exactly is added to
    it as (kind, caption, the picture around it, its corners there) for :func:`write_sheets` -- kind "missed" or
    "misread" with the tile's true corners; and each false tile of a still frame, "false", with its box's."""
    lines = (DATA / f"{split}.jsonl").read_text().splitlines()[:limit]
    counts: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    for line in lines:
        meta = json.loads(line)
        look = set_look(meta) if by_look else None
        image = cv2.imread(str(DATA / meta["image"]))
        detections = detector.detect(image)
        maybe_faces = set(backs_maybe_faces(image, detections))  # backs the players are told may be faces
        labelled = [t for t in meta["tiles"] if not t["ignore"]]
        # (Splits made since session 25 say how the camera blurred the frame: a streak of 3-9 px.)
        # (The second renderer never streaks a frame.)
        streak = meta.get("motion_blur_px", 0 if meta.get("kind") == "shaded" else None)
        blur = None if streak is None else MOTION_BLURRED if streak else NO_MOTION_BLUR
        ignored = [t for t in meta["tiles"] if t["ignore"]]
        used: set[int] = set()
        for tile in labelled:
            cats = ["all"]
            role = tile.get("role", "layout")
            if tile["values"] is None:
                cats.append("face-down")
            elif role == "layout":
                cats.append("touching, in layouts")
            else:
                cats.append("loose")
            if meta["tilted"]:
                cats.append("tilted views")
            if meta["occluded"]:
                cats.append("occluded frames")
            if blur:
                cats.append(blur)
            in_view = tile["visible"] >= IN_VIEW and tile["inside"] >= IN_VIEW
            corners = np.array(tile["corners"])
            if blur == NO_MOTION_BLUR and ISSUE_LENGTHS[0] <= long_side(corners) <= ISSUE_LENGTHS[1]:
                # Issue 40's figure: still frames, tiles 15-500 px long (and of those, the tiles wholly in view).
                cats += [STILL_IN_RANGE] + [STILL_IN_RANGE_IN_VIEW] * in_view
            # A tile partly under an arm or cut by the frame's edge may have a half out of sight: it
            # should be found, but its pips cannot always be read (the board benchmark's rule too).
            cats.append("wholly in view" if in_view else "partly hidden or cut")
            best, best_iou = None, 0.5
            for k, d in enumerate(detections):
                if k in used:
                    continue
                iou = polygon_iou(corners, np.array(d.corners))
                if iou >= best_iou:
                    best, best_iou = k, iou
            found = best is not None
            read = False
            unsure = False
            if found:
                used.add(best)
                d = detections[best]
                if tile["values"] is None:
                    read = d.face == "down"
                    unsure = not d.certain or best in maybe_faces  # a back turned into a face, or told it may be one
                    counts["all"]["back told it may be a face"] += best in maybe_faces
                    counts["all"]["back as face"] += not read
                    counts["all"]["back asked"] += not read and unsure
                else:
                    counts["all"]["face as back"] += d.face == "down"
                    counts["all"]["face as back, told"] += best in maybe_faces
                    # Where reading fails: by the tile's length in the image and by how well its box fits.
                    cats.append(_band("length", long_side(corners), LENGTH_BANDS, "px"))
                    if look:
                        cats += [f"pips {look[0]}", f"set {look[1]}"]
                    cats.append(_band("box IoU", best_iou, IOU_BANDS, ""))
                    if d.face == "up" and d.halves is not None:
                        # Label corners start at the half holding values[0]; compare half by half.
                        first_truth, _ = half_centers(long_first(corners))
                        a, b = d.halves
                        da = np.linalg.norm(np.array(a.center) - first_truth)
                        db = np.linalg.norm(np.array(b.center) - first_truth)
                        pips = (a.pips, b.pips) if da <= db else (b.pips, a.pips)
                        read = list(pips) == tile["values"]
                        unsure = not d.certain
            if wrong is not None and STILL_IN_RANGE in cats and not read:
                wrong.append(_wrong_tile(image, tile, corners, found, detections[best] if found else None))
            for c in cats:
                counts[c]["tiles"] += 1
                counts[c]["found"] += found
                counts[c]["read"] += read
                counts[c]["unsure"] += unsure
                counts[c]["read_when_sure"] += read and not unsure
                counts[c]["sure"] += found and not unsure
        for k, d in enumerate(detections):
            if k in used:
                continue
            if any(polygon_iou(np.array(t["corners"]), np.array(d.corners)) >= 0.3 for t in ignored):
                continue  # a tile cut by the edge or mostly covered: neither to find nor false
            counts["all"]["false"] += 1
            counts["all"]["false and sure"] += d.certain
            if wrong is not None and blur == NO_MOTION_BLUR:
                wrong.append(_false_tile(image, d))
            if blur:
                counts[blur]["false"] += 1
        counts["all"]["images"] += 1
    return counts


class _Drawn(Exception):
    def __init__(self, tileset) -> None:
        self.tileset = tileset


def set_look(meta: dict) -> tuple[str, str] | None:
    """The pip style and body of the image's tile set (the generator's splits only), drawn again from
    its seed: the scene is made up to the choice of its set, then stopped."""
    if meta.get("style") not in ("main", "cross", "engraved", "glossy"):
        return None
    if str(HERE.parent / "datasets") not in sys.path:
        sys.path.insert(0, str(HERE.parent / "datasets"))
    import dominosynth.scenes as scenes

    def drawn(rng, style="main"):
        raise _Drawn(random_tileset(rng, style))

    random_tileset = scenes.random_tileset
    scenes.random_tileset = drawn
    try:
        scenes.make_scene(meta["seed"], meta["style"])
    except _Drawn as found:
        ts = found.tileset
    else:
        return None
    finally:
        scenes.random_tileset = random_tileset
    lum = sum(ts.body) / 3
    body = "dark" if lum < 80 else ("light" if min(ts.body) > 170 else "coloured")
    coloured_pips = len(set(ts.pip_colors.values())) > 1
    return ts.pip_style, body + (", coloured pips" if coloured_pips else "")


LENGTH_BANDS = (0, 30, 45, 70, 10_000)
IOU_BANDS = (0.5, 0.7, 0.8, 0.9, 1.01)


MOTION_BLURRED, NO_MOTION_BLUR = "motion-blurred frames", "no motion blur"
ISSUE_LENGTHS = (15, 500)
STILL_IN_RANGE, STILL_IN_RANGE_IN_VIEW = "still, 15-500 px", "  of them wholly in view"


def _band(name: str, value: float, bands: tuple, unit: str) -> str:
    """The band ``value`` falls in, named like "length 30-45px" (the last band open-ended: "length 70px+")."""
    for lo, hi in zip(bands, bands[1:]):
        if value < hi:
            break
    return f"{name} {lo}{unit}+" if hi == bands[-1] else f"{name} {lo}-{hi}{unit}"


def print_counts(split: str, counts: dict) -> None:
    print(f"\n{split}: {counts['all']['images']} images")
    print(f"  {'tiles':<22} {'n':>6} {'found':>8} {'read':>8} {'unsure':>8} {'read|sure':>10}")
    for cat in ["all", "touching, in layouts", "loose", "tilted views", "occluded frames", "face-down", "wholly in view",
                "partly hidden or cut", MOTION_BLURRED, NO_MOTION_BLUR, STILL_IN_RANGE, STILL_IN_RANGE_IN_VIEW]:
        c = counts.get(cat)
        if not c or not c["tiles"]:
            continue
        n = c["tiles"]
        sure = max(1, c["sure"])
        print(f"  {cat:<22} {n:>6} {100 * c['found'] / n:>7.2f}% {100 * c['read'] / n:>7.2f}% {100 * c['unsure'] / n:>7.2f}% {100 * c['read_when_sure'] / sure:>9.2f}%")
    print("  face-up tiles found, by their length in the image, their box's IoU and (--by-look) their set (found = 100 %):")
    for cat in sorted(k for k in counts if k.startswith(("length", "box IoU", "pips ", "set "))):
        c = counts[cat]
        n = c["tiles"]
        when_sure = f"{100 * c['read_when_sure'] / c['sure']:>9.2f}%" if c["sure"] else f"{'-':>10}"
        print(f"  {cat:<22} {n:>6} {'':>8} {100 * c['read'] / n:>7.2f}% {100 * c['unsure'] / n:>7.2f}% {when_sure}")
    n_all = counts["all"]["tiles"]
    print(f"  false tiles: {counts['all']['false']} ({100 * counts['all']['false'] / max(1, n_all):.2f}% of labelled tiles, "
          f"{counts['all']['false and sure']} of them read surely); "
          f"found, but a face taken for a back {counts['all']['face as back']} ({counts['all']['face as back, told']} of them "
          f"told it may be a face), a back for a face {counts['all']['back as face']} "
          f"(and {counts['all']['back told it may be a face']} backs told they may be faces) "
          f"({counts['all']['back asked']} of them asked about)")
    if counts.get(MOTION_BLURRED, {}).get("tiles") and counts.get(NO_MOTION_BLUR, {}).get("tiles"):
        print("  false tiles " + ", ".join(
            f"in {cat} {counts[cat]['false']} ({100 * counts[cat]['false'] / counts[cat]['tiles']:.2f}% of their tiles)"
            for cat in (MOTION_BLURRED, NO_MOTION_BLUR)))


def _wrong_tile(image: np.ndarray, tile: dict, corners: np.ndarray, found: bool, d) -> tuple:
    side = long_side(corners)
    if not found:
        said = "not found"
    elif d.face == "down":
        said = "read as a back" + ("" if d.certain else ", asked")
    else:
        said = f"read {list(d.pips)}" + ("" if d.certain else ", asked")
    caption = f"{tile['values'] or 'back'} {side:.0f}px seen {tile['visible']:.2f}: {said}"
    return ("misread" if found else "missed"), caption, *_around(image, corners)


def _false_tile(image: np.ndarray, d) -> tuple:
    corners = np.array(d.corners, float)
    said = "a back" if d.face == "down" else f"{list(d.pips)}" if d.pips else "a face"
    caption = f"no tile, {long_side(corners):.0f}px: read {said}" + ("" if d.certain else ", asked")
    return "false", caption, *_around(image, corners)


def _around(image: np.ndarray, corners: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The picture round a tile's corners, half its length each way, and the corners there."""
    side = long_side(corners)
    low = np.maximum(corners.min(0) - side / 2, 0).astype(int)
    high = (corners.max(0) + side / 2).astype(int)
    return image[low[1]:high[1], low[0]:high[0]].copy(), corners - low


def write_sheets(folder: Path, split: str, wrong: list) -> None:
    """Contact sheets of the tiles missed and misread (issue 40's figure), each at 200x200 px with its true outline
    in red, and of the false tiles of still frames with their boxes: ``<split>-missed.png``, ``<split>-misread.png``
    and ``<split>-false.png`` -- whether a person could tell them either."""
    folder.mkdir(parents=True, exist_ok=True)
    for name in ("missed", "misread", "false"):
        cells = []
        for _, caption, crop, corners in (w for w in wrong if w[0] == name):
            scale = 200 / max(crop.shape[:2])
            cell = np.zeros((200, 200, 3), np.uint8)
            small = cv2.resize(crop, (max(1, round(crop.shape[1] * scale)), max(1, round(crop.shape[0] * scale))))
            cell[: small.shape[0], : small.shape[1]] = small
            cv2.polylines(cell, [(corners * scale).astype(np.int32)], True, (0, 0, 255), 1)
            cv2.putText(cell, caption, (2, 196), cv2.FONT_HERSHEY_SIMPLEX, 0.3, (255, 255, 255), 1)
            cells.append(cell)
        if cells:
            cells += [np.zeros_like(cells[0])] * (-len(cells) % 5)
            sheet = np.vstack([np.hstack(cells[k : k + 5]) for k in range(0, len(cells), 5)])
            cv2.imwrite(str(folder / f"{split}-{name}.png"), sheet)
            print(f"  {sum(w[0] == name for w in wrong)} tiles {name}: {folder / f'{split}-{name}.png'}")


def speed(detector: TileDetector, frames: int) -> None:
    lines = [json.loads(l) for l in (DATA / "test.jsonl").read_text().splitlines()]
    hd = [m for m in lines if (m["width"], m["height"]) == (1280, 720)][:frames]
    blobs = [(DATA / m["image"]).read_bytes() for m in hd]
    times = []
    for data in blobs * 2:
        t0 = time.perf_counter()
        image = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
        detector.detect(image)
        times.append((time.perf_counter() - t0) * 1000)
    times = times[len(blobs) // 2 :]  # warm
    print(f"\nspeed, 1280x720 frames, input {detector.size} px wide, JPEG decode to tile list, 2 threads (onnxruntime): "
          f"median {statistics.median(times):.1f} ms, p90 {sorted(times)[int(0.9 * len(times))]:.1f} ms over {len(times)} frames")
    try:
        import torch
        from ultralytics import YOLO
    except ImportError:
        print("ultralytics is not installed in this environment: its own predict is not measured")
        return
    torch.set_num_threads(2)
    weights = HERE / "detector-last.pt"
    model = YOLO(str(weights))
    ut = []
    for data in blobs * 2:
        t0 = time.perf_counter()
        image = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
        model.predict(image, imgsz=detector.size, device="cpu", verbose=False, conf=detector.conf)
        ut.append((time.perf_counter() - t0) * 1000)
    ut = ut[len(blobs) // 2 :]
    print(f"speed, same frames, ultralytics predict on {weights.name} at {detector.size} (boxes only, no pip reading), 2 threads: "
          f"median {statistics.median(ut):.1f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--limit", type=int, default=None, help="images per split")
    parser.add_argument("--split", action="append", help="only this split (again for more)")
    parser.add_argument("--speed-frames", type=int, default=30, help="frames timed (0: no speed figures)")
    parser.add_argument("--input-size", type=int, default=INPUT_SIZE, help="the detector input's long side (a dynamic model)")
    parser.add_argument("--conf", type=float, default=None, help="the detector's score threshold (default: the shipped one)")
    parser.add_argument("--no-search", action="store_true",
                        help="one input size only: no second look for close-up tiles nor small ones (the detector before issue 40)")
    parser.add_argument("--by-look", action="store_true",
                        help="also by the tile set's pip style and body (the generator's splits; draws each scene's set again)")
    parser.add_argument("--thorough", action="store_true",
                        help="the detector as the `board` command reads one still image with care (TileDetector.thorough: "
                             "two input sizes, mirrored looks, each tile also read turned), not as a camera's frames are read")
    parser.add_argument("--sheets", type=Path, metavar="DIR",
                        help="also write contact sheets of the tiles of issue 40's figure missed and misread to DIR")
    args = parser.parse_args()
    options = {} if args.conf is None else {"conf": args.conf}
    if args.thorough:
        detector = TileDetector.thorough(threads=2)
    else:
        detector = TileDetector(threads=2, input_size=args.input_size, search=not args.no_search, **options)
    missing = []
    for split in args.split or SPLITS:
        if not (DATA / f"{split}.jsonl").exists():
            missing.append(split)
            continue
        wrong: list | None = [] if args.sheets else None
        print_counts(split, evaluate_split(detector, split, args.limit, args.by_look, wrong))
        if args.sheets and wrong is not None:
            write_sheets(args.sheets, split, wrong)
    if missing:
        # (A split not made yet printed nothing at all: the command seemed to have measured nothing wrong.)
        print(f"not made yet, so not measured: {', '.join(missing)} -- expected in {DATA}; the commands that make them "
              "are in benchmarks/RESULTS.md (datasets/make_detector_data.py, datasets/make_shaded_split.py)", file=sys.stderr)
        if len(missing) == len(args.split or SPLITS) and not args.speed_frames:
            sys.exit(2)  # (nothing measured)
    if args.speed_frames > 0:
        speed(detector, args.speed_frames)


if __name__ == "__main__":
    main()
