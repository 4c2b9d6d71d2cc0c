"""Write the synthetic detector dataset (YOLO OBB labels) and its held-out test splits.

    .venv/bin/python datasets/make_detector_data.py --train 3000 --val 200 --test 300

Splits and their seeds are fixed, so every split is regenerated identically:

| split | seeds | style |
|---|---|---|
| train | 0 .. N-1 (``--train-start S``: S .. S+N-1, added to the split) | main |
| val | 10_000_000 + i | main |
| test | 20_000_000 + i | main (held out: training never sees it) |
| cross | 30_000_000 + i | cross (a differently styled generator configuration) |
| dots | 20_000_000 + i | palette (test's scenes, each set light with its pips coloured by value in the colours of common colour-dot sets) |

``--train-style engraved`` adds training images whose sets have the divider only engraved (a groove,
not painted), and ``--train-style glossy`` images whose pips are glossy (a light spot in each where it
reflects the lamp, light pips a shadowed floor), and ``--train-style dots`` light sets whose pips are
coloured by value in drawn hues (pale ones too), and ``--train-style dim`` the main style's scenes in a dim
room (less light, the sensor's noise), from their own seeds (``--train-start``); every other split stays the same images.

Classes: 0 = a face-up tile, 1 = a face-down tile.  A tile is labelled when at least
half of it is visible (not under an arm) and 85 % of it is inside the frame; others
are listed in the metadata as ``ignore`` (neither to be found nor a false find).
Images go to ``datasets/generated/`` (never committed).
"""

from __future__ import annotations

import argparse
import json
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE), str(HERE.parent)]

import cv2  # noqa: E402
import numpy as np  # noqa: E402

from dominosynth.scenes import make_scene  # noqa: E402

SPLITS = {
    "train": (0, "main"),
    "val": (10_000_000, "main"),
    "test": (20_000_000, "main"),
    "cross": (30_000_000, "cross"),
    # The test split's scenes with their sets recoloured: pips coloured by value as common colour-dot sets are.
    "dots": (20_000_000, "palette"),
}
MIN_VISIBLE = 0.5
MIN_INSIDE = 0.85


def write_one(args: tuple[Path, str, int, str]) -> dict:
    out, split, seed, style = args
    scene, info = make_scene(seed, style)
    h, w = scene.image.shape[:2]
    name = f"{seed:08d}"
    cv2.imwrite(str(out / "images" / split / f"{name}.jpg"), scene.image, [cv2.IMWRITE_JPEG_QUALITY, 95])
    lines, tiles = [], []
    for label in scene.tiles:
        keep = label.visible >= MIN_VISIBLE and label.inside >= MIN_INSIDE
        corners = np.clip(label.corners, 0, [w - 1, h - 1])
        if keep:
            cls = 0 if label.values is not None else 1
            coords = " ".join(f"{x / w:.6f} {y / h:.6f}" for x, y in corners)
            lines.append(f"{cls} {coords}")
        tiles.append(
            {
                "corners": np.round(label.corners, 2).tolist(),
                "values": None if label.values is None else list(label.values),
                "visible": round(label.visible, 3),
                "inside": round(label.inside, 3),
                "ignore": not keep,
                "role": label.role,
            }
        )
    (out / "labels" / split / f"{name}.txt").write_text("\n".join(lines) + ("\n" if lines else ""))
    return {
        "image": f"images/{split}/{name}.jpg",
        "width": w,
        "height": h,
        "seed": seed,
        "style": style,
        "kind": info.kind,
        "tilted": info.tilted,
        "occluded": info.occluded,
        "touching": info.touching,
        "px_per_mm": round(scene.px_per_mm, 4),
        "blur_px": scene.blur_px,
        "motion_blur_px": scene.motion_blur_px,
        "board": None
        if info.board is None
        else {
            "every_double_spins": info.board.every_double_spins,
            "tiles": [t.as_list() for t in info.board.tiles],
            "spinners": [t.as_list() for t in info.board.spinners],
            "joins": [[j.tile.as_list(), j.side.value, j.new_tile.as_list(), j.new_side.value] for j in info.board.joins],
            "sum": info.board.end_sum(),
        },
        "tiles": tiles,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", type=Path, default=HERE / "generated" / "detector")
    for split, default in (("train", 3000), ("val", 200), ("test", 300), ("cross", 300), ("dots", 300)):
        parser.add_argument(f"--{split}", type=int, default=default, help=f"images in the {split} split")
    parser.add_argument(
        "--train-start",
        type=int,
        default=0,
        help="first training seed: above 0, new training images are added to those already written",
    )
    parser.add_argument("--train-style", choices=["main", "engraved", "glossy", "dots", "dim", "motion", "closeup", "stone", "far"], default="main",
                        help="the training images' style (engraved: dividers only cut into the face; glossy: pips "
                             "with a light spot where they reflect the lamp; dots: pips coloured by value, pale colours too; "
                             "dim: a dim room, the sensor's noise; motion: every frame blurred by motion, a 3-12 px streak; "
                             "closeup: a camera close over the table, tiles 180-800 px long per 1280, few, many cut by the edge, a third dim; "
                             "stone: busy stone-like tables, marble veins, blotches, granite speckles; "
                             "far: a camera far over the table, tiles 16-50 px long in the frame, sets of the other training styles)")
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    out: Path = args.out
    for split, (base, style) in SPLITS.items():
        if split == "train":
            style = args.train_style
        count = getattr(args, split)
        if not count:
            continue
        (out / "images" / split).mkdir(parents=True, exist_ok=True)
        (out / "labels" / split).mkdir(parents=True, exist_ok=True)
        first = args.train_start if split == "train" else 0
        jobs = [(out, split, base + i, style) for i in range(first, first + count)]
        with ProcessPoolExecutor(args.workers) as pool:
            metas = list(pool.map(write_one, jobs, chunksize=8))
        with open(out / f"{split}.jsonl", "a" if first else "w") as f:
            for meta in metas:
                f.write(json.dumps(meta) + "\n")
        print(f"{split}: {count} images, {sum(len([t for t in m['tiles'] if not t['ignore']]) for m in metas)} labelled tiles", flush=True)
    (out / "data.yaml").write_text(
        f"path: {out}\ntrain: images/train\nval: images/val\nnames:\n  0: tile\n  1: tile-down\n"
    )


if __name__ == "__main__":
    main()
