"""The reader's training boxes on no tile are where they are meant to be (models/train_reader.py)."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "models"))

from train_reader import turned_over_a_half  # noqa: E402

from scorer.vision.geometry import long_side, polygon_iou  # noqa: E402


def upright_tile(x: float, y: float, width: float = 20.0) -> np.ndarray:
    """A tile standing upright (its length along y) with its top-left corner at (x, y), in the labels'
    corner order: a short side first."""
    return np.array([[x, y], [x + width, y], [x + width, y + 2 * width], [x, y + 2 * width]])


@pytest.mark.parametrize("rolled", (0, 1))
def test_the_turned_boxes_lie_over_two_tiles_side_by_side_as_the_detector_draws_them(rolled: int) -> None:
    left, middle, right = upright_tile(-20, 0), upright_tile(0, 0), upright_tile(20, 0)
    places = set()
    for end in (-1, 1):
        for side in (-1, 1):
            box = turned_over_a_half(np.roll(middle, -rolled, axis=0), end, side)
            # A tile's size, turned a quarter turn: its length runs across two tiles.
            xs, ys = box[:, 0], box[:, 1]
            assert long_side(box) == pytest.approx(40)
            assert (xs.max() - xs.min(), ys.max() - ys.min()) == pytest.approx((40, 20))
            # Half of it on the tile, half on the one beside it on one side, none on the other side.
            assert polygon_iou(box, middle) == pytest.approx(1 / 3, abs=1e-6)
            assert sorted((polygon_iou(box, left), polygon_iou(box, right))) == pytest.approx([0, 1 / 3], abs=1e-6)
            places.add(("top" if ys.mean() < 20 else "bottom", "left" if xs.mean() < 10 else "right"))
    # The four (end, side) are the four ways two halves beside each other make a turned tile.
    assert len(places) == 4


def test_the_turned_box_turns_and_moves_with_the_tile() -> None:
    angle = np.radians(37)
    turn = np.array([[np.cos(angle), -np.sin(angle)], [np.sin(angle), np.cos(angle)]])
    shift = np.array([300.0, 120.0])
    tile = upright_tile(0, 0)
    for end in (-1, 1):
        for side in (-1, 1):
            moved = turned_over_a_half(tile @ turn.T + shift, end, side)
            assert moved == pytest.approx(turned_over_a_half(tile, end, side) @ turn.T + shift)


def test_a_widened_reader_starts_reading_as_the_narrow_one_did() -> None:
    """``--width 2 --init`` from a width-1 reader: each channel repeated, so the wide reader begins where
    the narrow one was (up to the little noise that lets the copies learn apart)."""
    torch = pytest.importorskip("torch")
    from train_reader import _widened, build_tile_model

    torch.manual_seed(1)
    narrow, wide = build_tile_model(1, 1.0).eval(), build_tile_model(1, 2.0).eval()
    with torch.no_grad():  # BatchNorm statistics other than the identity, so that they are carried too
        for m in narrow.modules():
            if isinstance(m, torch.nn.BatchNorm2d):
                m.running_mean.uniform_(-0.5, 0.5)
                m.running_var.uniform_(0.5, 2.0)
    wide.load_state_dict(_widened(narrow.state_dict(), wide.state_dict()))
    tiles = torch.randn(16, 1, 32, 64)
    with torch.no_grad():
        assert torch.allclose(narrow(tiles).softmax(-1), wide(tiles).softmax(-1), atol=0.03)
    with pytest.raises(ValueError, match="whole multiple"):
        _widened(narrow.state_dict(), build_tile_model(1, 1.5).state_dict())


def test_an_epochs_batches_hold_every_crop_once_with_its_halves_labelled_as_the_flips_leave_them() -> None:
    from train_reader import AugmentedBatches

    rng = np.random.default_rng(3)
    count = 50
    crops = rng.integers(0, 255, (count, 32, 64), dtype=np.uint8)
    # Each crop's own pair of labels, the first half brighter: a flip end for end must swap the labels.
    crops[:, :, :32] = 250
    crops[:, :, 32:] = 5
    labels = np.stack([np.arange(count) % 7, (np.arange(count) + 3) % 7], axis=1).astype(np.int64)
    batches = AugmentedBatches(crops, labels, batch=16, whole_tile=True, low_res=0.0)
    assert len(batches) == 4
    seen = []
    for index in range(len(batches)):
        x, y = batches[index]
        assert x.shape == (len(y) // 2, 1, 32, 64) and x.dtype == np.float32
        pairs = y.reshape(-1, 2)
        bright_first = x[:, 0, :, :32].mean(axis=(1, 2)) > x[:, 0, :, 32:].mean(axis=(1, 2))
        for (a, b), first in zip(pairs, bright_first):
            seen.append((a, b) if first else (b, a))  # the crop's labels as they were before its flip
    assert sorted(seen) == sorted(map(tuple, labels.tolist()))
    # The same batch of the same epoch is the same wherever it is made (worker processes); another epoch differs.
    assert np.array_equal(batches[2][0], batches[2][0])
    first_epoch = batches[0][0]
    batches.epoch = 1
    assert not np.array_equal(batches[0][0], first_epoch)


def test_the_learning_rate_rises_for_a_third_then_falls_to_nearly_nothing() -> None:
    from train_reader import one_cycle

    assert one_cycle(0.0, 1e-3) == pytest.approx(1e-3 / 25)
    assert one_cycle(0.3, 1e-3) == pytest.approx(1e-3)
    assert one_cycle(1.0, 1e-3) == pytest.approx(1e-3 / 25 / 1e4)
    assert one_cycle(1.7, 1e-3) == one_cycle(1.0, 1e-3)  # a run past its time stays at the end
    rates = [one_cycle(f / 100, 1e-3) for f in range(101)]
    assert all(a <= b for a, b in zip(rates[:30], rates[1:31])) and all(a >= b for a, b in zip(rates[30:], rates[31:]))


def test_crops_kept_for_a_later_run_come_back_as_they_were(tmp_path: Path) -> None:
    from train_reader import load_crops, save_crops

    crops = {"train_crops": np.arange(2 * 32 * 64, dtype=np.uint8).reshape(2, 32, 64), "train_labels": np.array([[1, 2], [7, 7]]),
             "val_crops": np.zeros((1, 32, 64), np.uint8), "val_labels": np.array([[8, 8]])}
    save_crops(tmp_path / "crops", crops)
    back = load_crops(tmp_path / "crops")
    assert all(np.array_equal(back[name], value) for name, value in crops.items())
    (tmp_path / "crops" / "val_labels.npy").unlink()
    with pytest.raises(FileNotFoundError, match="missing.*val_labels"):
        load_crops(tmp_path / "crops")


def test_a_run_of_the_torch_trainer_on_a_few_crops_writes_a_reader_that_reads_them(tmp_path: Path) -> None:
    """The whole loop -- batches made by a worker process, a time limit, the weights and the ONNX model written."""
    pytest.importorskip("torch")
    import subprocess

    rng = np.random.default_rng(0)
    crops = {"train_crops": rng.integers(0, 255, (64, 32, 64), dtype=np.uint8), "train_labels": rng.integers(0, 9, (64, 2)),
             "val_crops": rng.integers(0, 255, (8, 32, 64), dtype=np.uint8), "val_labels": rng.integers(0, 9, (8, 2))}
    save_crops_dir = tmp_path / "crops"
    from train_reader import save_crops

    save_crops(save_crops_dir, crops)
    script = Path(__file__).resolve().parents[2] / "models" / "train_reader.py"
    done = subprocess.run([sys.executable, str(script), "--whole-tile", "--crops", str(save_crops_dir), "--minutes", "0.05",
                           "--loader-workers", "1", "--batch", "16", "--out", str(tmp_path / "reader")],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "stopped at the time limit" in done.stdout
    from scorer.vision.reader import PipReader

    reader = PipReader(tmp_path / "reader" / "reader.onnx", threads=1)
    assert reader.whole_tile and reader.classes == 9


def test_no_image_past_the_detectors_skip_cuts_no_crops_rather_than_failing(tmp_path: Path) -> None:
    """A GPU run whose image making was cut short by its deadline may leave none for the detector's boxes."""
    from train_reader import crops_from_detector

    (tmp_path / "train.jsonl").write_text('{"image": "images/train/0.jpg", "tiles": []}\n')
    crops, labels = crops_from_detector(tmp_path, "train", None, skip=1, whole_tile=True)
    assert crops.shape == (0, 32, 64) and labels.shape == (0, 2)
