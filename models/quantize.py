"""int8 copies of the shipped models for measuring (onnxruntime's quantisation; needs the ``onnx`` package,
e.g. the training environment).

    /tmp/train-venv/bin/python models/quantize.py --out /tmp/int8 [--detector static|dynamic|none] [--reader static|dynamic|none] [--images 32]

``static``: QDQ int8 around the convolutions (and matrix products), weights per channel, activations calibrated (min-max) on generated images of the
training seeds (``dominosynth.make_scene``, seeds 0..N-1 -- never a held-out image), the detector at its
run-time input (544 px on the long side), the reader on the crops the shipped detector cuts from them;
``dynamic``: int8 weights, activations quantised at run time.  ``none`` copies the float model.  The
folder then holds ``detector.onnx`` and ``reader.onnx`` (and ``reader-small.onnx``, ``detector-far.onnx``, copied as they are), to measure
with ``SCORER_MODELS=DIR`` (models/evaluate_detector.py) and ``benchmarks/speed_vs_ultralytics.py --models DIR``.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE.parent), str(HERE.parent / "datasets")]

import numpy as np  # noqa: E402


def calibration_images(count: int) -> list[np.ndarray]:
    from dominosynth.scenes import make_scene

    return [make_scene(seed, "main", (1280, 720))[0].image for seed in range(count)]


class _Reader:
    def __init__(self, name: str, inputs: list[np.ndarray]) -> None:
        self.name, self.inputs = name, iter(inputs)

    def get_next(self):
        batch = next(self.inputs, None)
        return None if batch is None else {self.name: batch}


def _ends(model_path: Path) -> list[str]:
    """The names of a model's first convolution and of its last matrix product (the reader's head)."""
    import onnx

    nodes = onnx.load(str(model_path)).graph.node
    convs = [n.name for n in nodes if n.op_type == "Conv"]
    heads = [n.name for n in nodes if n.op_type in ("Gemm", "MatMul")]
    return convs[:1] + heads


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--detector", choices=["static", "dynamic", "none"], default="static")
    parser.add_argument("--reader", choices=["static", "dynamic", "none"], default="static")
    parser.add_argument("--images", type=int, default=32, help="calibration images (training seeds 0..N-1)")
    parser.add_argument("--reader-float-ends", action="store_true",
                        help="keep the reader's first convolution and its head in float (the rest int8)")
    args = parser.parse_args()
    from onnxruntime.quantization import CalibrationMethod, QuantFormat, QuantType, quantize_dynamic, quantize_static
    from onnxruntime.quantization.shape_inference import quant_pre_process

    from scorer.vision.detector import INPUT_SIZE, STRIDE, TileDetector
    from scorer.vision.obb import letterbox, rotated_nms
    from scorer.vision.reader import standardize, tile_crop

    args.out = args.out.resolve()
    args.out.mkdir(parents=True, exist_ok=True)
    os.chdir(args.out)  # (onnxruntime's quantisation leaves its temporary files in the working folder)
    images = calibration_images(args.images) if "static" in (args.detector, args.reader) else []
    shipped = TileDetector(HERE, search=False)
    for extra in ("reader-small.onnx", "detector-far.onnx"):  # (kept in float: the folder reads as the shipped one does)
        if (HERE / extra).exists():
            shutil.copyfile(HERE / extra, args.out / extra)
    for name, how in (("detector", args.detector), ("reader", args.reader)):
        source, target = HERE / f"{name}.onnx", args.out / f"{name}.onnx"
        if how == "none":
            shutil.copyfile(source, target)
            continue
        prepared = args.out / f"{name}.prepared.onnx"
        quant_pre_process(str(source), str(prepared), skip_symbolic_shape=True)
        if how == "dynamic":
            quantize_dynamic(str(prepared), str(target), weight_type=QuantType.QInt8, per_channel=True,
                             op_types_to_quantize=["Conv", "Gemm", "MatMul"])
        else:
            if name == "detector":
                inputs = [letterbox(image, INPUT_SIZE, STRIDE)[0] for image in images]
                input_name = shipped.input_name
            else:
                inputs = []
                for image in images:
                    grey = shipped.reader.picture(image)
                    boxes = rotated_nms(shipped.candidates(image), shipped.iou)
                    if boxes:
                        crops = np.stack([tile_crop(grey, b.corners) for b in boxes])
                        inputs.append(np.ascontiguousarray(standardize(crops)[:, None]))
                input_name = shipped.reader.input_name
            quantize_static(str(prepared), str(target), _Reader(input_name, inputs), quant_format=QuantFormat.QDQ,
                            per_channel=True, activation_type=QuantType.QUInt8, weight_type=QuantType.QInt8,
                            calibrate_method=CalibrationMethod.MinMax,
                            nodes_to_exclude=_ends(prepared) if name == "reader" and args.reader_float_ends else None,
                            # (Only the convolutions: the uncut export's head joined box sizes in pixels and
                            # class scores in one output, which one int8 scale cannot hold -- quantised whole,
                            # it found no tile.)
                            op_types_to_quantize=["Conv", "Gemm", "MatMul"])
        prepared.unlink()
        print(f"{target}: {how} int8, {target.stat().st_size / 1e6:.1f} MB")


if __name__ == "__main__":
    main()
