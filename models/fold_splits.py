"""Fold an exported detector's channel splits into the convolutions before them (needs the ``onnx`` package: the
training environment).

    /tmp/train-venv/bin/python models/fold_splits.py SOURCE.onnx TARGET.onnx

Each of the YOLO blocks (C2f, C3k2) begins with a convolution and its SiLU whose output channels are then split in
two.  onnxruntime runs the convolutions in its blocked channel layout (NCHWc) on this CPU, but not the Split: every
split turns its input back to the plain layout and its outputs again to the blocked one -- a twelfth of the
detector's time.  Folded, the convolution is two, each computing one part of the channels with its own share of the
weights, and no layout turns remain: the same arithmetic, the same outputs to float rounding (the script checks
them on a random input of two sizes before writing), 3-4 % less time for the detector (docs/experiments.md,
"Session 65").
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np


def fold_splits(source: Path, target: Path) -> int:
    """``source`` with every channel Split after a convolution and its SiLU folded into two convolutions, written
    to ``target`` (may be ``source``) once it gives the same outputs; the number of splits folded."""
    import onnx
    from onnx import helper, numpy_helper

    model = onnx.load(str(source))
    graph = model.graph
    producers = {out: node for node in graph.node for out in node.output}
    consumers: dict[str, int] = {}
    for node in graph.node:
        for name in node.input:
            consumers[name] = consumers.get(name, 0) + 1
    constants = {init.name: numpy_helper.to_array(init) for init in graph.initializer}
    for node in graph.node:
        if node.op_type == "Constant" and node.attribute and node.attribute[0].name == "value":
            constants[node.output[0]] = numpy_helper.to_array(node.attribute[0].t)
    outputs = {value.name for value in graph.output}
    replacements: dict[int, list] = {}  # (the convolution, by id: the nodes that take the place of it, its SiLU and the split)
    folded: set[int] = set()
    for split in graph.node:
        parts = _silu_conv(split, producers, consumers, constants, outputs)
        if parts is None:
            continue
        conv, sigmoid, mul = parts
        sizes = [int(s) for s in constants[split.input[1]]]
        weight = constants[conv.input[1]]
        bias = constants[conv.input[2]] if len(conv.input) > 2 else None
        attributes = {a.name: helper.get_attribute_value(a) for a in conv.attribute}
        nodes, start = [], 0
        for k, (size, out) in enumerate(zip(sizes, split.output)):
            pre = f"{conv.output[0]}/part{k}"  # (named by the outputs, which are unique: a node's name may be empty)
            inputs = [conv.input[0], f"{pre}/W"]
            graph.initializer.append(numpy_helper.from_array(weight[start:start + size], inputs[1]))
            if bias is not None:
                inputs.append(f"{pre}/B")
                graph.initializer.append(numpy_helper.from_array(bias[start:start + size], inputs[2]))
            nodes += [
                helper.make_node("Conv", inputs, [pre], name=pre, **attributes),
                helper.make_node("Sigmoid", [pre], [f"{pre}/sigmoid"], name=f"{pre}/sigmoid"),
                helper.make_node("Mul", [pre, f"{pre}/sigmoid"], [out], name=f"{pre}/silu"),
            ]
            start += size
        replacements[id(conv)] = nodes
        folded |= {id(conv), id(sigmoid), id(mul), id(split)}
    kept = []
    for node in graph.node:
        kept += replacements.get(id(node), [])
        if id(node) not in folded:
            kept.append(node)
    used = {name for node in kept for name in node.input} | {out.name for out in graph.output}
    del graph.node[:]
    graph.node.extend(node for node in kept if node.op_type != "Constant" or node.output[0] in used)  # (the sizes split by)
    unused = [init for init in graph.initializer if init.name not in used]
    for init in unused:
        graph.initializer.remove(init)
    onnx.checker.check_model(model)
    # (Written beside the target and moved there only once checked: a failed fold leaves the target as it was.)
    trial = target.with_name(target.name + ".folding")
    onnx.save(model, str(trial))
    try:
        _check_same_outputs(source, trial)
    except BaseException:
        trial.unlink()
        raise
    trial.replace(target)
    return len(replacements)


def _silu_conv(split, producers: dict, consumers: dict[str, int], constants: dict, outputs: set[str]) -> tuple | None:
    """The convolution (not grouped), sigmoid and product (its SiLU) a channel Split of known sizes takes its input from,
    where nothing else uses them; else None."""
    if split.op_type != "Split" or len(split.input) < 2 or split.input[1] not in constants:
        return None
    if next((a.i for a in split.attribute if a.name == "axis"), 0) != 1:
        return None
    mul = producers.get(split.input[0])
    if mul is None or mul.op_type != "Mul" or consumers.get(mul.output[0]) != 1:
        return None
    conv, sigmoid = producers.get(mul.input[0]), producers.get(mul.input[1])
    if (conv is None or conv.op_type != "Conv" or sigmoid is None or sigmoid.op_type != "Sigmoid"
            or sigmoid.input[0] != conv.output[0] or consumers.get(conv.output[0]) != 2 or conv.input[1] not in constants):
        return None
    # (A grouped convolution's output channels each read their own group of inputs: not cut by channels alone.)
    if next((a.i for a in conv.attribute if a.name == "group"), 1) != 1 or {conv.output[0], mul.output[0]} & outputs:
        return None
    return conv, sigmoid, mul


def _check_same_outputs(source: Path, folded: Path) -> None:
    import onnxruntime as ort

    sessions = [ort.InferenceSession(str(p), providers=["CPUExecutionProvider"]) for p in (source, folded)]
    name, shape = sessions[0].get_inputs()[0].name, sessions[0].get_inputs()[0].shape
    channels = shape[1] if isinstance(shape[1], int) else 3
    rng = np.random.default_rng(0)
    for h, w in ((320, 544), (416, 704)):
        blob = rng.random((1, channels, h, w), dtype=np.float32)
        for k, (expected, got) in enumerate(zip(*(s.run(None, {name: blob}) for s in sessions))):
            # (The same sums in another order: agreement to float32's rounding.)
            if got.shape != expected.shape or not np.allclose(got, expected, atol=1e-4, rtol=1e-5):
                raise SystemExit(f"{folded}: output {k} differs from {source}'s at {w}x{h}"
                                 f" (largest difference {np.abs(got - expected).max():.4g})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("source", type=Path)
    parser.add_argument("target", type=Path)
    args = parser.parse_args()
    count = fold_splits(args.source, args.target)
    print(f"{args.target}: {count} splits folded into their convolutions; the same outputs as {args.source}")


if __name__ == "__main__":
    main()
