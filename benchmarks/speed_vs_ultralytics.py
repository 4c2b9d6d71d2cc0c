"""Detect-and-read per 1280x720 frame against ultralytics' own predict on the same weights and frames, in one
run (a benchmark: prints, asserts nothing).

    /tmp/train-venv/bin/python benchmarks/speed_vs_ultralytics.py [--frames 30] [--rounds 3] [--models DIR ...] [--order blocks]

Needs the training environment (ultralytics and torch: the ``train`` extra, docs/measuring.md); without it
only the scorer's own figures are printed.  The frames are the held-out ``test`` split's 1280x720 images
(``datasets/generated/detector``), read from their JPEG bytes.  Each frame, in turn: the scorer's
``detect`` (JPEG decode to the tile list with every tile's pips read: ``TileDetector``, 2 threads) with the
models in ``models/`` (and in each ``--models`` folder, e.g. quantised ones), then ultralytics' predict on
``models/detector-last.pt`` (the checkpoint ``detector.onnx`` was exported from) at the same input size and
score threshold (JPEG decode to boxes, no pips read; torch with 2 threads).  The order rotates each round
so no runner always follows the same one (``--order blocks``: all frames by one runner, then by the next).  Printed: each runner's median and p90 ms and its ratio to
ultralytics' median (and each timed round's own ratio: the host's load moves it), and the scorer's median
time per stage.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT))

import cv2  # noqa: E402
import numpy as np  # noqa: E402

from scorer.vision import TileDetector  # noqa: E402

DATA = ROOT / "datasets" / "generated" / "detector"


def frames(count: int) -> list[bytes]:
    lines = [json.loads(line) for line in (DATA / "test.jsonl").read_text().splitlines()]
    hd = [m for m in lines if (m["width"], m["height"]) == (1280, 720)][:count]
    return [(DATA / m["image"]).read_bytes() for m in hd]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--frames", type=int, default=30)
    parser.add_argument("--rounds", type=int, default=3, help="times each frame is read by each runner (the first round is a warm-up)")
    parser.add_argument("--models", type=Path, action="append", default=[], help="also the scorer with the models in this folder")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--order", choices=("interleaved", "blocks"), default="interleaved",
                        help="interleaved: each frame by every runner in turn (the default); blocks: every frame by one "
                             "runner, then by the next, the order rotating each round -- neither runner's threads still "
                             "busy (torch's OpenMP threads spin after each run) nor its data in the caches when the other runs")
    args = parser.parse_args()
    blobs = frames(args.frames)
    runners: dict[str, object] = {}
    stages: dict[str, dict[str, list[float]]] = {}
    for label, folder in [("scorer, models/", None), *((f"scorer, {d}", d) for d in args.models)]:
        detector = TileDetector(folder, threads=args.threads)
        stages[label] = {}

        def run(image: np.ndarray, detector=detector, label=label) -> None:
            detector.detect(image)
            for k, v in detector.last_timing.items():
                stages[label].setdefault(k, []).append(v)

        runners[label] = run
        size = detector.size
        conf = detector.conf
    try:
        os.environ.setdefault("YOLO_OFFLINE", "1")
        import torch
        from ultralytics import YOLO

        torch.set_num_threads(args.threads)
        model = YOLO(str(ROOT / "models" / "detector-last.pt"))

        def ultralytics_predict(image: np.ndarray) -> None:
            model.predict(image, imgsz=size, device="cpu", verbose=False, conf=conf)

        runners["ultralytics predict, detector-last.pt (boxes only)"] = ultralytics_predict
    except ImportError:
        print("ultralytics is not installed in this environment: its own predict is not measured")
    by_round: dict[str, list[list[float]]] = {name: [] for name in runners}  # (the timed rounds' times, ms)
    names = list(runners)
    for r in range(args.rounds):
        timed = r > 0 or args.rounds == 1
        for name in names:
            by_round[name] += [[]] if timed else []
        if args.order == "blocks":
            k = r % len(names)
            turns = [(name, i) for name in names[k:] + names[:k] for i in range(len(blobs))]
        else:
            turns = [(name, i) for i in range(len(blobs)) for name in names[(i + r) % len(names):] + names[:(i + r) % len(names)]]
        for name, i in turns:
            t0 = time.perf_counter()
            image = cv2.imdecode(np.frombuffer(blobs[i], np.uint8), cv2.IMREAD_COLOR)
            runners[name](image)
            if timed:
                by_round[name][-1].append((time.perf_counter() - t0) * 1000)
    times = {name: [t for one in rounds for t in one] for name, rounds in by_round.items()}
    peer_name = next((n for n in times if n.startswith("ultralytics")), "")
    peer = statistics.median(times[peer_name]) if peer_name else None
    print(f"{len(blobs)} frames 1280x720 (test split), input {size} px, {args.threads} threads, {args.rounds - 1 if args.rounds > 1 else 1} timed rounds, "
          f"{args.order}")
    for name, t in times.items():
        median = statistics.median(t)
        ratio = f", {median / peer:.2f}x ultralytics' predict" if peer else ""
        if peer and not name.startswith("ultralytics"):
            # (Each timed round's own ratio: how much the host's load moved the figure during the run.)
            rounds = [statistics.median(mine) / statistics.median(theirs) for mine, theirs in zip(by_round[name], by_round[peer_name])]
            ratio += " (by round: " + ", ".join(f"{x:.2f}x" for x in rounds) + ")"
        print(f"  {name:<52} median {median:6.1f} ms, p90 {sorted(t)[int(0.9 * len(t))]:6.1f} ms{ratio}")
    for label, st in stages.items():
        print(f"  {label} stages (median ms): " + ", ".join(f"{k} {statistics.median(v):.1f}" for k, v in st.items()))


if __name__ == "__main__":
    main()
