"""The detector's channel splits folded into the convolutions before them (models/fold_splits.py): the same outputs,
no Split left where onnxruntime would turn the layout, and the shipped detectors folded."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

onnx = pytest.importorskip("onnx")
ort = pytest.importorskip("onnxruntime")
from onnx import TensorProto, helper, numpy_helper  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "models"))

from fold_splits import fold_splits  # noqa: E402


def _block(path: Path, constant_sizes: bool) -> None:
    """A C2f block's start: a 3x3 convolution to 8 channels, its SiLU, split 3 + 5, one part convolved again, the
    parts concatenated."""
    rng = np.random.default_rng(1)
    weights = [numpy_helper.from_array(rng.normal(size=(8, 3, 3, 3)).astype(np.float32), "w"),
               numpy_helper.from_array(rng.normal(size=8).astype(np.float32), "b"),
               numpy_helper.from_array(rng.normal(size=(4, 5, 1, 1)).astype(np.float32), "w2")]
    sizes = numpy_helper.from_array(np.array([3, 5], np.int64), "sizes")
    nodes = [
        helper.make_node("Conv", ["images", "w", "b"], ["c"], name="conv", pads=[1, 1, 1, 1]),
        helper.make_node("Sigmoid", ["c"], ["s"], name="sigmoid"),
        helper.make_node("Mul", ["c", "s"], ["act"], name="mul"),
        helper.make_node("Split", ["act", "sizes"], ["a", "rest"], name="split", axis=1),
        helper.make_node("Conv", ["rest", "w2"], ["d"], name="conv2"),
        helper.make_node("Concat", ["a", "rest", "d"], ["out"], name="concat", axis=1),
    ]
    if constant_sizes:
        nodes.insert(0, helper.make_node("Constant", [], ["sizes"], name="sizes_constant", value=sizes))
    graph = helper.make_graph(
        nodes, "block",
        [helper.make_tensor_value_info("images", TensorProto.FLOAT, [1, 3, "h", "w"])],
        [helper.make_tensor_value_info("out", TensorProto.FLOAT, [1, 12, "h", "w"])],
        weights + ([] if constant_sizes else [sizes]),
    )
    onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)]), str(path))


def _run(path: Path, blob: np.ndarray) -> np.ndarray:
    session = ort.InferenceSession(str(path), providers=["CPUExecutionProvider"])
    return session.run(None, {"images": blob})[0]


@pytest.mark.parametrize("constant_sizes", [False, True])
def test_a_split_after_a_silu_convolution_is_folded_with_the_same_outputs(tmp_path: Path, constant_sizes: bool) -> None:
    source, target = tmp_path / "block.onnx", tmp_path / "folded.onnx"
    _block(source, constant_sizes)
    assert fold_splits(source, target) == 1
    folded = onnx.load(str(target))
    ops = [node.op_type for node in folded.graph.node]
    assert "Split" not in ops and "Constant" not in ops
    assert ops.count("Conv") == 3 and ops.count("Sigmoid") == 2
    assert {init.name for init in folded.graph.initializer} == {"w2", "c/part0/W", "c/part0/B", "c/part1/W", "c/part1/B"}
    blob = np.random.default_rng(2).random((1, 3, 32, 64), dtype=np.float32)
    np.testing.assert_allclose(_run(target, blob), _run(source, blob), rtol=1e-5, atol=1e-5)


def test_nodes_without_names_are_folded_too(tmp_path: Path) -> None:
    source, target = tmp_path / "block.onnx", tmp_path / "folded.onnx"
    _block(source, constant_sizes=False)
    model = onnx.load(str(source))
    for node in model.graph.node:
        node.name = ""  # (the names are optional in ONNX)
    onnx.save(model, str(source))
    assert fold_splits(source, target) == 1
    blob = np.random.default_rng(2).random((1, 3, 16, 16), dtype=np.float32)
    np.testing.assert_allclose(_run(target, blob), _run(source, blob), rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("change", ["not a SiLU", "grouped"])
def test_a_split_of_anything_else_is_left_alone(tmp_path: Path, change: str) -> None:
    source, target = tmp_path / "block.onnx", tmp_path / "folded.onnx"
    _block(source, constant_sizes=False)
    model = onnx.load(str(source))
    for node in model.graph.node:
        if node.op_type == "Mul" and change == "not a SiLU":
            node.op_type = "Add"  # (the split's parts are not each a convolution's own)
        if node.name == "conv" and change == "grouped":  # (each output channel reads its own group of inputs)
            node.attribute.append(helper.make_attribute("group", 1))
            node.attribute[-1].i = 2
    if change == "grouped":
        model.graph.node[0].input[0] = "wide"
        model.graph.input[0].CopyFrom(helper.make_tensor_value_info("wide", TensorProto.FLOAT, [1, 6, "h", "w"]))
        weights = {init.name: init for init in model.graph.initializer}
        weights["w"].CopyFrom(numpy_helper.from_array(np.ones((8, 3, 3, 3), np.float32), "w"))
    onnx.save(model, str(source))
    assert fold_splits(source, target) == 0
    assert "Split" in [node.op_type for node in onnx.load(str(target)).graph.node]
    assert not (tmp_path / "folded.onnx.folding").exists()


@pytest.mark.parametrize("name", ["detector.onnx", "detector-far.onnx"])
def test_the_shipped_detectors_are_folded(name: str) -> None:
    """An export that skipped the fold runs 3-4 % slower (onnxruntime turns the layout at every split): none is left
    but the attention block's, which splits heads, not channels after a convolution."""
    model = onnx.load(str(ROOT / "models" / name))
    splits = [node for node in model.graph.node if node.op_type == "Split"]
    assert [next(a.i for a in node.attribute if a.name == "axis") for node in splits] == [2]
