"""Reading the pips of each tile half with a small ONNX classifier on rectified crops."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from scorer.errors import ModelError

N_PIP_CLASSES = 7  # 0..6 pips
NOT_A_HALF = 7  # background, a box straddling the divider or two tiles
N_CLASSES = 8


def standardize(crops: np.ndarray) -> np.ndarray:
    """Per-crop contrast normalisation, the same in training and at run time."""
    crops = crops.astype(np.float32)
    mean = crops.mean(axis=(-2, -1), keepdims=True)
    std = crops.std(axis=(-2, -1), keepdims=True)
    return (crops - mean) / np.maximum(std, 10.0)


def softmax(logits: np.ndarray) -> np.ndarray:
    z = logits - logits.max(axis=1, keepdims=True)
    e = np.exp(z)
    return e / e.sum(axis=1, keepdims=True)


def onnx_session(path: Path, threads: int, what: str):
    """An onnxruntime CPU session with ``threads`` threads, or a :class:`ModelError` saying why not."""
    import onnxruntime as ort

    if not Path(path).is_file():
        raise ModelError(f"{what} model not found: {path} (set SCORER_MODELS to the folder holding it)")
    options = ort.SessionOptions()
    options.intra_op_num_threads = threads
    options.inter_op_num_threads = 1
    try:
        return ort.InferenceSession(str(path), options, providers=["CPUExecutionProvider"])
    except Exception as exc:  # onnxruntime raises its own types
        raise ModelError(f"{path} is not a usable ONNX model: {exc}") from None


class HalfReader:
    """Classifies [N, 32, 32] grey half crops into pip counts 0..6 (or "not a half")."""

    def __init__(self, path: Path, threads: int = 2) -> None:
        self.session = onnx_session(path, threads, "half reader")
        inp = self.session.get_inputs()[0]
        if list(inp.shape[1:]) != [1, 32, 32]:
            raise ModelError(f"{path}: expected input [N, 1, 32, 32], found {inp.shape}")
        self.input_name = inp.name

    def read(self, halves: np.ndarray) -> np.ndarray:
        """Class probabilities [N, 8] for grey crops [N, 32, 32]."""
        if len(halves) == 0:
            return np.zeros((0, N_CLASSES), np.float32)
        x = standardize(halves)[:, None]
        (logits,) = self.session.run(None, {self.input_name: x})
        return softmax(logits)


# A face with a line across its middle this much darker than the face (grey levels, and times the
# face's own variation) shows a divider: a tile face up, not a back.
DIVIDER_DEPTH = 25.0
DIVIDER_CONTRAST = 5.0


def shows_divider(image: np.ndarray, corners: np.ndarray) -> bool:
    """Whether a plain-looking tile has a divider across its middle: the double blank, which a
    detector may take for a back (measured on generated tables: a blank double's line 90 grey
    levels deep, backs' middles within 4 of their faces)."""
    import cv2

    from scorer.vision.geometry import HALF, rectify

    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY) if image.ndim == 3 else image
    crop, _ = rectify(grey, np.asarray(corners, np.float64))
    columns = crop[HALF // 4 : 3 * HALF // 4].astype(np.float32).mean(axis=0)  # across the long axis
    middle = columns[HALF - 3 : HALF + 3].min()
    face = np.concatenate([columns[HALF // 5 : 3 * HALF // 4], columns[5 * HALF // 4 : 9 * HALF // 5]])
    depth = float(np.median(face) - middle)
    return depth >= DIVIDER_DEPTH and depth >= DIVIDER_CONTRAST * float(face.std())
