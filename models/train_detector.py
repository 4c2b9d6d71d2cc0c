"""Train the tile detector (YOLO oriented boxes) with ultralytics, offline on a CPU, and export it to ONNX.

    # once: the training environment (see README, "Training")
    python models/train_detector.py --data datasets/generated/detector/data.yaml --hours 1.5
    python models/train_detector.py --resume          # go on after an interruption
    python models/train_detector.py --export-only     # best weights -> models/detector.onnx

Start weights: ``--init models/detector-last.pt`` continues from the small committed
checkpoint of an earlier session (fine-tuning); without it the model is built from
its yaml (no pretrained weights exist offline).  Runs go to ``models/training/`` (ignored).
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
TRAINING = HERE / "training"
RUN_NAME = "detector"
IMGSZ = 416
# Set before ultralytics is imported: no online checks, settings kept inside the project.
os.environ.setdefault("YOLO_OFFLINE", "1")
os.environ.setdefault("YOLO_CONFIG_DIR", str(TRAINING / "config"))


def _offline_setup() -> None:
    """Every train/val fetches Arial.ttf for plots unless a TTF is already in place."""
    font_dir = Path(os.environ["YOLO_CONFIG_DIR"]) / "Ultralytics"
    font_dir.mkdir(parents=True, exist_ok=True)
    for name in ("Arial.ttf", "Arial.Unicode.ttf"):
        target = font_dir / name
        if not target.exists():
            for candidate in ("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",):
                if Path(candidate).exists():
                    shutil.copy(candidate, target)
    from ultralytics import settings

    settings.update({"sync": False})


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data", type=Path, default=HERE.parent / "datasets" / "generated" / "detector" / "data.yaml")
    parser.add_argument("--model", default="yolo11n-obb.yaml", help="model yaml (trained from scratch)")
    parser.add_argument("--init", type=Path, help="weights to start from (e.g. models/detector-last.pt)")
    parser.add_argument("--hours", type=float, default=1.5, help="training time; the LR schedule fits it")
    parser.add_argument("--epochs", type=int, default=100, help="upper bound when --hours is 0")
    parser.add_argument("--batch", type=int, default=16)
    parser.add_argument("--imgsz", type=int, default=IMGSZ, help="training size (mosaic tiles of IMGSZ x IMGSZ)")
    parser.add_argument("--cache", default="ram", help="ultralytics image cache: ram (decoded once), disk or none")
    parser.add_argument("--lr0", type=float, help="fine-tune with plain SGD at this learning rate, no warm-up "
                        "(ultralytics' automatic choice, 0.01, first undoes much of a trained model)")
    parser.add_argument("--mosaic", type=float, default=0.5,
                        help="share of mosaic batches (0: whole scenes only, a finishing phase at a low learning rate)")
    parser.add_argument("--out", type=Path, default=HERE,
                        help="folder for detector.onnx and detector-last.pt (default models/: train elsewhere first, compare, then copy)")
    parser.add_argument("--rect", action="store_true",
                        help="whole frames as the detector runs on them: the long side IMGSZ, padded only to a multiple of 32 (no mosaic, batches in a fixed order)")
    parser.add_argument("--resume", action="store_true")
    parser.add_argument("--export-only", action="store_true")
    args = parser.parse_args()
    _offline_setup()
    import torch
    from ultralytics import YOLO

    torch.set_num_threads(2)
    run_dir = TRAINING / "runs" / RUN_NAME
    last = run_dir / "weights" / "last.pt"
    if not args.export_only:
        if args.resume:
            YOLO(str(last)).train(resume=True)
        else:
            model = YOLO(args.model)
            if args.init:
                model = YOLO(str(args.init))
            tuning = {"optimizer": "SGD", "lr0": args.lr0, "warmup_epochs": 0.0} if args.lr0 else {"warmup_epochs": 0.5}
            model.train(
                **tuning,
                data=str(args.data),
                imgsz=args.imgsz,
                epochs=args.epochs,
                time=args.hours or None,
                batch=args.batch,
                nbs=args.batch,  # no gradient accumulation to 64 on a CPU
                workers=0,
                cache=False if args.cache == "none" else args.cache,
                device="cpu",
                amp=False,
                plots=False,
                project=str(TRAINING / "runs"),
                name=RUN_NAME,
                exist_ok=True,
                patience=100,
                fliplr=0.5,
                flipud=0.5,
                degrees=0.0,  # the generator already turns tiles every way
                mosaic=0.0 if args.rect else args.mosaic,
                rect=args.rect,
                close_mosaic=0,
                seed=0,
                verbose=True,
            )
    best = run_dir / "weights" / "best.pt"
    export(best if best.exists() else last, args.out, args.imgsz)


def export(weights: Path, out: Path, imgsz: int = IMGSZ) -> None:
    """``weights`` as the scorer runs them (``out/detector.onnx``) and as the next step continues from
    (``out/detector-last.pt``, optimizer state stripped)."""
    from ultralytics import YOLO
    from ultralytics.utils.torch_utils import strip_optimizer

    # Dynamic input: scorer runs it at a larger size than trained (INPUT_SIZE), padded only to a
    # multiple of 32 -- small tiles are found far better, a wide frame costs no padding band.
    onnx_path = YOLO(str(weights)).export(format="onnx", imgsz=imgsz, opset=17, simplify=False, dynamic=True)
    out.mkdir(parents=True, exist_ok=True)
    # The head cut before it decodes every column's box: the scorer decodes only those it keeps (cut_head.py).
    from cut_head import cut
    from fold_splits import fold_splits
    cut(Path(onnx_path), out / "detector.onnx")
    fold_splits(out / "detector.onnx", out / "detector.onnx")  # (onnxruntime's blocked layout kept through each block)
    shutil.copy(weights, out / "detector-last.pt")
    strip_optimizer(str(out / "detector-last.pt"))
    print(f"exported {out / 'detector.onnx'} from {weights}", file=sys.stderr)


if __name__ == "__main__":
    main()
