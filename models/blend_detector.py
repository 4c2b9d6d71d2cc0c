"""Blend two detector checkpoints weight by weight and export the blend as the scorer runs it.

    /tmp/train-venv/bin/python models/blend_detector.py models/detector-last.pt TUNED.pt --share 0.5 --out DIR

Each weight becomes ``(1 - share) * FROM + share * TO`` (integer buffers, batch-norm counters, are taken
from the side with the larger share).  A detector fine-tuned on new kinds of scene (busy stone tables)
gains there and loses a little of what the model it started from did well (a dim room's pale tiles);
the blend of the two, the fine-tuning's way taken half-way, keeps most of both (weight-space ensembling,
"WiSE-FT", Wortsman et al. 2022; measured in docs/experiments.md, session 47).  Both checkpoints must be
the same architecture.  Writes ``DIR/detector.onnx`` and ``DIR/detector-last.pt`` (the blend, to
continue from) -- never over either checkpoint blended; compare in DIR before copying to models/.
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
    import torch
    from ultralytics import YOLO

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
    # Loading prefers a checkpoint's EMA weights to its model: a start that carried them would come back
    # unblended, without a word, from an ultralytics whose save() keeps them.
    saved = YOLO(str(into)).model.state_dict()
    if not all(torch.allclose(saved[k].float(), v.float(), rtol=1e-2, atol=1e-3)
               for k, v in blended.items() if v.dtype.is_floating_point):
        raise SystemExit(f"{into} does not hold the blend: is {start} a checkpoint with EMA weights? "
                         "Strip it first (ultralytics.utils.torch_utils.strip_optimizer)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("start", type=Path, help="the checkpoint the fine-tuning started from")
    parser.add_argument("tuned", type=Path, help="the fine-tuned checkpoint")
    parser.add_argument("--share", type=float, default=0.5, help="the tuned checkpoint's share of each weight")
    parser.add_argument("--out", type=Path, required=True, help="folder for detector.onnx and detector-last.pt")
    args = parser.parse_args()
    if not 0.0 <= args.share <= 1.0:
        parser.error(f"--share is the tuned checkpoint's share of each weight, 0 to 1; got {args.share}")
    for given in (args.start, args.tuned):
        if not given.is_file():
            parser.error(f"no checkpoint at {given}")
    if (args.out / "detector-last.pt").resolve() in (args.start.resolve(), args.tuned.resolve()):
        parser.error(f"--out {args.out} would overwrite a checkpoint being blended: write elsewhere, compare, then copy")
    _offline_setup()
    with tempfile.TemporaryDirectory() as work:
        blended = Path(work) / "blend.pt"
        blend(args.start, args.tuned, args.share, blended)
        export(blended, args.out)


if __name__ == "__main__":
    main()
