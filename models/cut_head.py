"""Cut an exported ultralytics OBB detector before its head decodes the box distances (needs the ``onnx``
package: the training environment).

    /tmp/train-venv/bin/python models/cut_head.py FULL.onnx CUT.onnx

The full export ends by turning every anchor column's distance distributions into a box (a softmax over
16 steps per side, their mean, the box turned by its angle): a tenth of the model's time on this CPU, for
the few columns above the score threshold that any frame holds.  The cut model stops before that and
gives three outputs -- ``distances`` [1, 64, A] (the distributions' logits), ``scores`` [1, nc, A]
(sigmoided) and ``angles`` [1, 1, A] (radians) -- which ``scorer/vision/obb.py`` decodes for the
columns it keeps.  The weights are not touched; the script checks that the two models give the same
boxes on a random input of two sizes before writing.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

import numpy as np  # noqa: E402

from scorer.vision.obb import DFL_BINS, full_rows  # noqa: E402

OUTPUTS = ("distances", "scores", "angles")


def cut(source: Path, target: Path) -> None:
    import onnx
    import onnx.utils

    model = onnx.load(str(source))
    graph = model.graph
    if len(graph.output) != 1:
        raise SystemExit(f"{source}: expected a full export with one output, found {len(graph.output)} (cut already?)")
    producers = {out: node for node in graph.node for out in node.output}
    final = producers[graph.output[0].name]
    # The distance decoding's softmax: the one whose mean is taken by a 1x1 convolution of 16 fixed weights.
    weights = {init.name: tuple(init.dims) for init in graph.initializer}
    means = {node.input[0] for node in graph.node if node.op_type == "Conv" and weights.get(node.input[1]) == (1, DFL_BINS, 1, 1)}
    softmaxes = [node for node in graph.node if node.op_type == "Softmax" and node.output[0] in means]
    if final.op_type != "Concat" or len(final.input) != 3 or len(softmaxes) != 1:
        raise SystemExit(f"{source}: expected the OBB head's last Concat of boxes, scores and angles and one softmax"
                         f" averaged over {DFL_BINS} steps (the distance decoding), found a {final.op_type} of"
                         f" {len(final.input)} and {len(softmaxes)} such softmaxes")
    # Softmax <- Transpose <- Reshape(distributions): the head's distance logits, before the decoding.
    reshape = producers[producers[softmaxes[0].input[0]].input[0]]
    names = [reshape.input[0], final.input[1], final.input[2]]
    inputs = [i.name for i in graph.input if i.name not in {init.name for init in graph.initializer}]
    # (Written beside the target and moved there only once checked: a failed cut leaves the target as it was.)
    trial = target.with_name(target.name + ".cutting")
    onnx.utils.extract_model(str(source), str(trial), inputs, names)
    cut_model = onnx.load(str(trial))
    renamed = dict(zip(names, OUTPUTS))
    for node in cut_model.graph.node:
        node.output[:] = [renamed.get(o, o) for o in node.output]
        node.input[:] = [renamed.get(i, i) for i in node.input]
    for value in cut_model.graph.output:
        value.name = renamed[value.name]
    onnx.checker.check_model(cut_model)
    onnx.save(cut_model, str(trial))
    try:
        _check_same_boxes(source, trial)
    except SystemExit:
        trial.unlink()
        raise
    trial.replace(target)


def _check_same_boxes(full: Path, cut_path: Path) -> None:
    import onnxruntime as ort

    sessions = [ort.InferenceSession(str(p), providers=["CPUExecutionProvider"]) for p in (full, cut_path)]
    name = sessions[0].get_inputs()[0].name
    rng = np.random.default_rng(0)
    for h, w in ((320, 544), (416, 704)):
        blob = rng.random((1, 3, h, w), dtype=np.float32)
        (expected,) = sessions[0].run(None, {name: blob})
        outputs = sessions[1].run(None, {name: blob})
        got = full_rows(outputs, outputs[1].shape[1], (h, w))
        # (float32 in the graph, float64 here: agreement to a thousandth of a pixel and of a radian.)
        if got.shape != expected.shape or not np.allclose(got, expected, atol=1e-3, rtol=1e-5):
            raise SystemExit(f"{cut_path}: the cut head's boxes differ from the full model's at {w}x{h}"
                             f" (largest difference {np.abs(got - expected).max():.4g})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("full", type=Path)
    parser.add_argument("cut", type=Path)
    args = parser.parse_args()
    cut(args.full, args.cut)
    print(f"{args.cut}: the head cut before its distance decoding; the same boxes as {args.full}")


if __name__ == "__main__":
    main()
