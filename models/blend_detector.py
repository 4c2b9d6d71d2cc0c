"""Blend two detector checkpoints weight by weight and export the blend as the scorer runs it.

    /tmp/train-venv/bin/python models/blend_detector.py models/detector-last.pt TUNED.pt --share 0.5 --out DIR

Each weight becomes ``(1 - share) * FROM + share * TO`` (integer buffers, batch-norm counters, are taken
from the side with the larger share).  A detector fine-tuned on new kinds of scene (busy stone tables)
gains there and loses a little of what the model it started from did well (a dim room's pale tiles);
the blend of the two, the fine-tuning's way taken half-way, keeps most of both (weight-space ensembling,
"WiSE-FT", Wortsman et al. 2022; measured in docs/experiments.md, session 47).  Both checkpoints must be
the same architecture.  Writes ``DIR/detector.onnx`` and ``DIR/detector-last.pt`` (the blend, to
continue from); compare in DIR before copying to models/.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from train_detector import _offline_setup, export  # noqa: E402  (sets ultralytics' offline settings first)


def blend(start: Path, tuned: Path, share: float, into: Path) -> None:
    """Write the checkpoint ``(1 - share) * start + share * tuned`` to ``into``."""
    from ultralytics import YOLO

    if not 0.0 <= share <= 1.0:
        raise SystemExit(f"--share is the tuned checkpoint's share of each weight, 0 to 1; got {share}")
    start_model, tuned_model = YOLO(str(start)), YOLO(str(tuned))
    start_weights, tuned_weights = start_model.model.state_dict(), tuned_model.model.state_dict()
    if start_weights.keys() != tuned_weights.keys() or any(
            start_weights[k].shape != tuned_weights[k].shape for k in start_weights):
        raise SystemExit(f"{start} and {tuned} are not the same architecture: their weights differ in name or shape")
    blended = {}
    for name, first in start_weights.items():
        second = tuned_weights[name]
        if first.dtype.is_floating_point:
            blended[name] = ((1.0 - share) * first.float() + share * second.float()).to(first.dtype)
        else:
            blended[name] = second if share >= 0.5 else first
    start_model.model.load_state_dict(blended)
    start_model.save(str(into))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("start", type=Path, help="the checkpoint the fine-tuning started from")
    parser.add_argument("tuned", type=Path, help="the fine-tuned checkpoint")
    parser.add_argument("--share", type=float, default=0.5, help="the tuned checkpoint's share of each weight")
    parser.add_argument("--out", type=Path, required=True, help="folder for detector.onnx and detector-last.pt")
    args = parser.parse_args()
    _offline_setup()
    with tempfile.TemporaryDirectory() as work:
        blended = Path(work) / "blend.pt"
        blend(args.start, args.tuned, args.share, blended)
        export(blended, args.out)


if __name__ == "__main__":
    main()
