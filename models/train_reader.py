"""Train the pip reader: a small CNN that reads the pips of one rectified tile half (0-6, or "not a
half"), or, with ``--whole-tile``, of both halves of a whole tile at once (0-6, "no tile" or "back").

    python models/train_reader.py --epochs 8 --out /tmp/reader    # then measure, and copy into models/
    python models/train_reader.py --whole-tile --epochs 4 --out /tmp/tile-reader
    python models/train_reader.py --whole-tile --colour --init models/reader.pt --lr 1e-3 --epochs 2 --out /tmp/colour-reader
    python models/train_reader.py --export-only

Half crops come from the detector dataset's images and metadata: every labelled
face-up tile is rectified from corners jittered like a detector's (three boxes per tile, one
of them twice as sloppy, so the reader learns the boxes it will really get), and split into
its two halves.  Class 7,
"not a half", is table background and crops that straddle the divider or two
touching tiles: a box in the wrong place is then flagged instead of read.
The whole-tile reader sees the tile with a margin (:func:`scorer.vision.reader.tile_crop`), so it
can find the divider and the tile's ends itself where a box is a few pixels off, and tell a box
straddling two tiles (a gap where the divider should be) from a tile; its "no tile" crops are boxes
half a tile off along or across a tile, and table background (with ``--turned-negatives`` also a box
turned across a tile, over one half and beside it, as the detector draws over tiles lying side by side).
The crops are cut on both cores; each epoch's weights and ONNX model are written to ``--out``.
The exported ``reader.onnx`` takes crops standardised by :func:`scorer.vision.reader.standardize`,
[N, 1, 32, 32] halves -> [N, 9] logits, or [N, 1, 32, 64] whole tiles -> [N, 2, 9]
(:class:`scorer.vision.reader.PipReader` reads either).  With ``--colour`` the whole-tile reader reads
the crop in colour, [N, 3, 32, 64] standardised by :func:`scorer.vision.reader.standardize_colour`; from a
grey reader's weights (``--init``) it starts as that reader exactly (its first layer reads the grey the
three channels make) and learns what colour adds.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

import cv2  # noqa: E402
import numpy as np  # noqa: E402

from scorer.vision.geometry import HALF, long_first, rectify  # noqa: E402
from scorer.vision.reader import BACK, GREY_OF_BGR, NOT_A_HALF, N_CLASSES, standardize, standardize_colour, tile_crop  # noqa: E402


def jitter(corners: np.ndarray, rng: random.Random, strength: float = 1.0) -> np.ndarray:
    center = corners.mean(0)
    long = np.linalg.norm(corners[1] - corners[2])
    shift = np.array([rng.gauss(0, 0.025), rng.gauss(0, 0.025)]) * long * strength
    scale = np.array([rng.gauss(1, 0.04 * strength), rng.gauss(1, 0.04 * strength)])
    ang = math.radians(rng.gauss(0, 2.0 * strength))
    rot = np.array([[math.cos(ang), -math.sin(ang)], [math.sin(ang), math.cos(ang)]])
    # Scale along the tile's own axes.
    axis = (corners[1] + corners[2] - corners[0] - corners[3]) / 2
    axis /= np.linalg.norm(axis) + 1e-9
    perp = np.array([-axis[1], axis[0]])
    rel = corners - center
    a, p = rel @ axis, rel @ perp
    rel = np.outer(a * scale[0], axis) + np.outer(p * scale[1], perp)
    return rel @ rot.T + center + shift


def _images(root: Path, split: str, limit: int | None, skip: int) -> list[dict]:
    """The split's image records, the first ``skip`` left out, at most ``limit``."""
    lines = (root / f"{split}.jsonl").read_text().splitlines()[skip:]
    return [json.loads(line) for line in lines[:limit] if line]


def _crops_of_image(args: tuple[Path, dict, int, bool, bool]) -> tuple[list[np.ndarray], list[int]]:
    """One image's half crops and labels (its own seed, so the images can be cut in parallel)."""
    root, meta, seed, _, _ = args
    rng = random.Random(seed)
    xs: list[np.ndarray] = []
    ys: list[int] = []
    image = cv2.imread(str(root / meta["image"]), cv2.IMREAD_GRAYSCALE)
    if image is None:
        return xs, ys
    h, w = image.shape
    for tile in meta["tiles"]:
        corners = np.array(tile["corners"], np.float64)
        if tile["ignore"] or tile["values"] is None:
            continue
        # Label corners start at the +axis end, whose half holds values[0]; rectify's first half is that end.
        # One box of three is as sloppy as the detector's worst (which the reader must still read).
        for strength in (1.0, 1.0, 2.0):
            crop, _ = rectify(image, jitter(corners, rng, strength))
            xs += [crop[:, :HALF], crop[:, HALF:]]
            ys += [tile["values"][0], tile["values"][1]]
        # A box shifted by half a tile along its axis straddles the divider or two tiles.
        axis = (corners[1] + corners[2] - corners[0] - corners[3]) / 2
        shifted = corners + axis * rng.choice([-0.5, 0.5]) * rng.uniform(0.8, 1.2)
        crop, _ = rectify(image, jitter(shifted, rng))
        xs.append(crop[:, HALF // 2 : HALF // 2 + HALF])
        ys.append(NOT_A_HALF)
    for box in _table_boxes(meta, w, h, rng, 3):
        crop, _ = rectify(image, box)
        xs.append(crop[:, :HALF])
        ys.append(NOT_A_HALF)
    return xs, ys


def _table_boxes(meta: dict, w: int, h: int, rng: random.Random, tries: int):
    """Up to ``tries`` tile-sized boxes on bare table (a tile's size away from every tile)."""
    tiles = [np.array(t["corners"]) for t in meta["tiles"]]
    if not tiles:
        return
    size = np.linalg.norm(tiles[0][1] - tiles[0][2]) / 2
    for _ in range(tries):
        cx, cy = rng.uniform(size, w - size), rng.uniform(size, h - size)
        if any(cv2.pointPolygonTest(t.astype(np.float32), (cx, cy), True) > -size for t in tiles):
            continue
        yield np.array([[cx - size, cy - size / 2], [cx + size, cy - size / 2], [cx + size, cy + size / 2], [cx - size, cy + size / 2]])


def _axes(corners: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """A tile's length and width as vectors: end to end, and side to side."""
    quad = long_first(corners)
    return (quad[1] + quad[2] - quad[0] - quad[3]) / 2, (quad[0] + quad[1] - quad[2] - quad[3]) / 2


def turned_over_a_half(corners: np.ndarray, end: int, side: int) -> np.ndarray:
    """A tile-sized box turned square to the tile, over its half at one ``end`` (-1 or 1) and the same
    square beside it on one ``side`` (-1 or 1).

    Two tiles lying side by side show, end for end, two halves that together pass for a tile turned
    across them -- pips on both sides of a seam that may not show, and a divider along the box's edge
    instead of across its middle.  The detector draws such boxes over hands laid out tight (test 20000025:
    17 of the split's 43 false tiles); the reader must call them no tile.  Where no tile lies beside, the
    box is half a tile and half table: no tile either."""
    length, width = _axes(corners)
    middle = np.asarray(corners, np.float64).mean(0) + end * length / 4 + side * width / 2
    # Its long sides run with the tile's width (twice as long), its short ones with the tile's length (half).
    return np.array([middle - width - length / 4, middle + width - length / 4,
                     middle + width + length / 4, middle - width + length / 4])


def _tile_crops_of_image(args: tuple[Path, dict, int, bool, bool]) -> tuple[list[np.ndarray], list[tuple[int, int]]]:
    """One image's whole-tile crops [32, 64] (or in colour [32, 64, 3]) with both halves' labels (whole-tile
    reader); with ``turned``, also a box turned across one in two face-up tiles (:func:`turned_over_a_half`)."""
    root, meta, seed, colour, turned = args
    rng = random.Random(seed)
    xs: list[np.ndarray] = []
    ys: list[tuple[int, int]] = []
    image = cv2.imread(str(root / meta["image"]), cv2.IMREAD_COLOR if colour else cv2.IMREAD_GRAYSCALE)
    if image is None:
        return xs, ys
    h, w = image.shape[:2]
    nothing = (NOT_A_HALF, NOT_A_HALF)
    for tile in meta["tiles"]:
        corners = np.array(tile["corners"], np.float64)
        if tile["ignore"]:
            continue
        # A back is its own class: the reader checks the detector's backs as it checks its faces.
        label = (BACK, BACK) if tile["values"] is None else (tile["values"][0], tile["values"][1])
        for strength in (1.0, 2.0):
            xs.append(tile_crop(image, jitter(corners, rng, strength)))
            ys.append(label)
        if tile["values"] is None:
            continue
        # A box half a tile off, across the tile (straddling two tiles lying side by side) or along it
        # (straddling its neighbour in a line, or the table): no tile.
        length, width = _axes(corners)
        step = width * rng.uniform(0.4, 0.6) if rng.random() < 0.6 else length * rng.uniform(0.45, 0.65)
        xs.append(tile_crop(image, jitter(corners + step * rng.choice([-1, 1]), rng)))
        ys.append(nothing)
        if turned and rng.random() < 0.5:
            xs.append(tile_crop(image, jitter(turned_over_a_half(corners, rng.choice([-1, 1]), rng.choice([-1, 1])), rng)))
            ys.append(nothing)
    for box in _table_boxes(meta, w, h, rng, 2):
        xs.append(tile_crop(image, box))
        ys.append(nothing)
    return xs, ys


def crops_from_split(root: Path, split: str, seed: int, limit: int | None, skip: int = 0, workers: int = 2,
                     whole_tile: bool = False, colour: bool = False, turned: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """Half crops [N, 32, 32] and their labels [N] (or, ``whole_tile``, tile crops [N, 32, 64] -- ``colour``:
    [N, 32, 64, 3] -- and labels [N, 2]) from a split's labelled tiles, cut on ``workers`` cores."""
    from multiprocessing import Pool

    jobs = [(root, meta, seed * 1_000_003 + i, colour, turned) for i, meta in enumerate(_images(root, split, limit, skip))]
    xs: list[np.ndarray] = []
    ys: list = []
    with Pool(workers) as pool:
        for x, y in pool.imap(_tile_crops_of_image if whole_tile else _crops_of_image, jobs, chunksize=32):
            xs += x
            ys += y
    return np.stack(xs).astype(np.uint8), np.array(ys, np.int64)


_DETECTOR = None  # each cutting process's own detector (see crops_from_detector)


def _start_detector(sizes: tuple[int, ...]) -> None:
    from scorer.vision import TileDetector

    global _DETECTOR
    # Boxes from a score lower than the detector's own threshold too: the reader is the check that
    # lets the detector keep weaker boxes, so it must have seen the false ones among them.
    _DETECTOR = TileDetector(threads=2, conf=0.2, input_size=sizes)


def _detector_crops_of_image(args: tuple[Path, dict, bool, bool]) -> tuple[list[np.ndarray], list]:
    """One image's crops cut by the detector's boxes, labelled as :func:`crops_from_detector` says."""
    from scorer.vision.detector import CLASS_FACES
    from scorer.vision.geometry import half_centers, long_first, polygon_iou

    root, meta, whole_tile, colour = args
    xs: list[np.ndarray] = []
    ys: list = []

    def add(image: np.ndarray, corners: np.ndarray, first: int, second: int) -> None:
        if whole_tile:
            xs.append(tile_crop(image, corners))
            ys.append((first, second))
        else:
            crop, _ = rectify(image, corners)
            xs.extend([crop[:, :HALF], crop[:, HALF:]])
            ys.extend([first, second])

    picture = cv2.imread(str(root / meta["image"]))
    if picture is None:
        return xs, ys
    # (The picture the crops are cut from: in colour for a colour reader, else grey.)
    image = picture if colour else cv2.cvtColor(picture, cv2.COLOR_BGR2GRAY)
    tiles = [(np.array(t["corners"], np.float64), t) for t in meta["tiles"]]
    for box in _DETECTOR.boxes(picture):
        down = CLASS_FACES[box.cls] == "down"
        ious = np.array([polygon_iou(corners, box.corners) for corners, _ in tiles])
        order = np.argsort(-ious) if len(ious) else np.array([], int)
        best_iou = float(ious[order[0]]) if len(order) else 0.0
        second_iou = float(ious[order[1]]) if len(order) > 1 else 0.0
        near = [tiles[k][1] for k in order if ious[k] >= 0.1]
        on_table = best_iou < 0.2
        straddling = whole_tile and best_iou < 0.45 and second_iou >= 0.1
        if on_table or (straddling and not down):
            if not any(t["ignore"] or t["values"] is None for t in near):
                add(image, box.corners, NOT_A_HALF, NOT_A_HALF)
            continue
        corners, tile = tiles[order[0]]
        if best_iou < 0.5 or tile["ignore"]:
            continue
        if tile["values"] is None:
            if whole_tile:
                add(image, box.corners, BACK, BACK)
            continue
        # The label's first value is the half at its corners' first end; the crop's first half is
        # the box's c0/c3 end (tile_crop and rectify both start there).
        first_truth, _ = half_centers(long_first(corners))
        first_box, second_box = half_centers(box.corners)
        same = np.linalg.norm(first_box - first_truth) <= np.linalg.norm(second_box - first_truth)
        a, b = tile["values"] if same else tile["values"][::-1]
        add(image, box.corners, a, b)
    return xs, ys


def crops_from_detector(root: Path, split: str, limit: int | None, skip: int = 0,
                        whole_tile: bool = False, sizes: tuple[int, ...] = (544,), colour: bool = False,
                        workers: int = 1) -> tuple[np.ndarray, np.ndarray]:
    """Crops cut by the shipped detector's own face-up boxes (the boxes the reader really gets).

    A box on a labelled face-up tile (IoU >= 0.5) gives its two halves (or, ``whole_tile``, the tile
    crop), labelled by which end of the tile each half lies at.  A box on bare table (IoU < 0.2 with
    every tile) is "not a half" / "no tile".  For the whole-tile reader, a box lying across two tiles
    (IoU under 0.45 with the best, 0.1 or more with a second) is "no tile" too: these are most of the
    detector's false tiles.  The whole-tile reader also gets the boxes the detector takes for backs:
    on a back "back", on a face its pips (a face taken for a back), on bare table "no tile".  Other
    boxes (a poor box on one tile, boxes near a tile cut by the frame or hidden) are left out: their
    label is unsure.  ``sizes``: the detector's input sizes (the ``board`` command's two give it other
    boxes than a live frame's one).  ``workers`` processes, each running the detector on two threads."""
    from multiprocessing import Pool

    jobs = [(root, meta, whole_tile, colour) for meta in _images(root, split, limit, skip)]
    xs: list[np.ndarray] = []
    ys: list = []
    with Pool(workers, initializer=_start_detector, initargs=(sizes,)) as pool:
        for x, y in pool.imap(_detector_crops_of_image, jobs, chunksize=8):
            xs += x
            ys += y
    if not xs:  # (no image past --detector-skip: none cut)
        crop = (HALF, 2 * HALF) if whole_tile else (HALF, HALF)
        return np.zeros((0, *crop, 3) if colour else (0, *crop), np.uint8), np.zeros((0, 2) if whole_tile else (0,), np.int64)
    return np.stack(xs).astype(np.uint8), np.array(ys, np.int64)


def build_model():
    import torch.nn as nn

    def block(cin: int, cout: int) -> list:
        return [nn.Conv2d(cin, cout, 3, padding=1, bias=False), nn.BatchNorm2d(cout), nn.ReLU(inplace=True)]

    return nn.Sequential(
        *block(1, 24), *block(24, 24), nn.MaxPool2d(2),
        *block(24, 48), *block(48, 48), nn.MaxPool2d(2),
        *block(48, 96), *block(96, 96), nn.MaxPool2d(2),
        nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Dropout(0.2), nn.Linear(96, N_CLASSES),
    )


def build_tile_model(channels: int = 1, width: float = 1.0):
    """The whole-tile reader: one CNN over the tile (grey, or ``channels`` 3: colour), each half's pips
    read from its own side of the feature map by one shared head (so the two ends are read alike);
    logits [N, 2, 9].  ``width`` scales every layer's channels (2: four times the compute)."""
    import torch
    import torch.nn as nn

    def block(cin: int, cout: int) -> list:
        return [nn.Conv2d(cin, cout, 3, padding=1, bias=False), nn.BatchNorm2d(cout), nn.ReLU(inplace=True)]

    class TileReader(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            a, b, c, d = (round(n * width) for n in (24, 48, 96, 128))
            self.features = nn.Sequential(
                *block(channels, a), *block(a, a), nn.MaxPool2d(2),
                *block(a, b), *block(b, b), nn.MaxPool2d(2),
                *block(b, c), *block(c, c), nn.MaxPool2d(2),
                *block(c, d),
            )
            self.head = nn.Sequential(nn.Flatten(), nn.Dropout(0.2), nn.Linear(d, N_CLASSES))

        def forward(self, x):
            f = self.features(x)  # [N, d, 4, 8]
            first = self.head(f[:, :, :, :4].mean(dim=(2, 3), keepdim=True))
            second = self.head(f[:, :, :, 4:].mean(dim=(2, 3), keepdim=True))
            return torch.stack([first, second], dim=1)

    return TileReader()


def _grown_to_classes(state: dict, fresh: dict) -> dict:
    """Weights of a reader with fewer classes (the 8 before "back") for this one: the last layer's
    new rows start as the fresh model's, with a low bias (a class not seen yet is unlikely)."""
    out = dict(state)
    for name, value in fresh.items():
        old = state.get(name)
        if old is not None and old.shape != value.shape and old.shape[1:] == value.shape[1:]:
            grown = value.clone()
            grown[: old.shape[0]] = old
            if name.endswith("bias"):
                grown[old.shape[0] :] = -2.0
            out[name] = grown
            print(f"{name}: grown from {old.shape[0]} to {value.shape[0]} classes", flush=True)
    return out


def _in_colour(state: dict) -> dict:
    """A grey reader's weights for the colour one: its first layer reads the grey the three channels
    make (:data:`~scorer.vision.reader.GREY_OF_BGR`), so the colour reader starts as the grey one exactly
    (:func:`~scorer.vision.reader.standardize_colour` keeps that sum the grey crop standardised)."""
    import torch

    out = dict(state)
    first = "features.0.weight"
    if out[first].shape[1] == 1:
        out[first] = out[first] * torch.from_numpy(GREY_OF_BGR)[None, :, None, None]
        print(f"{first}: from grey to colour", flush=True)
    return out


def _widened(state: dict, fresh: dict) -> dict:
    """A reader's weights for one a whole number of times wider (``--width`` 2 from a width-1 ``--init``),
    computing the same function at first: each channel repeated, the layer after it reading each copy
    at the share of one, a little noise on the copies so that they can learn apart."""
    import torch

    generator = torch.Generator().manual_seed(0)
    out = {}
    for name, new in fresh.items():
        t = state[name]
        for dim, (n_old, n_new) in enumerate(zip(t.shape, new.shape)):
            if n_new == n_old:
                continue
            if n_new % n_old:
                raise ValueError(f"{name}: {n_old} channels cannot be widened to {n_new} (a whole multiple is needed)")
            copies = n_new // n_old
            t = torch.cat([t] * copies, dim=dim)
            if dim == 1:  # the input side of a layer: each copy reads a share
                t = t / copies
        if t.shape != new.shape:
            raise ValueError(f"{name}: widened to {tuple(t.shape)}, the wide reader has {tuple(new.shape)}")
        if t.ndim == 4 and t.shape != state[name].shape:
            t = t + torch.randn(t.shape, generator=generator) * 0.01 * float(t.std())
        out[name] = t
    return out


def augment(batch: np.ndarray, rng: np.random.Generator, labels: np.ndarray | None = None,
            low_res: float = 0.0) -> np.ndarray:
    """Half crops turned and mirrored every way; tile crops (``labels`` [N, 2] given, swapped in place
    where the halves change ends) mirrored end for end and side for side; a share ``low_res`` of them
    shrunk and enlarged again (as a tile 18-40 px long in the frame is seen); then light, blur, noise and glare.
    Colour crops [N, H, W, 3] also get the light's tint (each channel's gain) and, one in ten, lose
    their colour (a washed-out camera); they come back as [N, 3, H, W]."""
    colour = batch.ndim == 4
    out = np.empty_like(batch, dtype=np.float32)
    for i, x in enumerate(batch):
        if rng.random() < low_res:
            # Most misread tiles are small in the frame (a far camera): make more of them from big ones.
            # The crop is 1 + 2/32 tile lengths long, so a scale of s shows a tile s * 60 px long.
            scale = rng.uniform(0.3, 0.67)
            h, w = x.shape[:2]
            small = cv2.resize(x, (max(2, round(w * scale)), max(2, round(h * scale))), interpolation=cv2.INTER_AREA)
            x = cv2.resize(small, (w, h), interpolation=cv2.INTER_LINEAR)
        if labels is None:
            x = np.rot90(x, rng.integers(4))
            if rng.random() < 0.5:
                x = x[:, ::-1]
        else:
            if rng.random() < 0.5:  # end for end: the halves swap
                x = x[:, ::-1]
                labels[i] = labels[i][::-1].copy()
            if rng.random() < 0.5:  # side for side
                x = x[::-1]
        x = x.astype(np.float32) * rng.uniform(0.6, 1.4) + rng.uniform(-40, 40)
        if colour:
            x = x * rng.uniform(0.85, 1.15, 3).astype(np.float32)
            if rng.random() < 0.1:
                x = np.repeat((x @ GREY_OF_BGR)[..., None], 3, axis=-1)
        if rng.random() < 0.3:
            x = cv2.GaussianBlur(x, (0, 0), rng.uniform(0.3, 1.0))
        x = x + rng.normal(0, rng.uniform(0, 8), x.shape)
        if rng.random() < 0.15:  # glare blob
            yy, xx = np.mgrid[0 : x.shape[0], 0 : x.shape[1]]
            cx, cy, r = rng.uniform(0, x.shape[1]), rng.uniform(0, x.shape[0]), rng.uniform(2, 8)
            spot = 150 * np.exp(-((xx - cx) ** 2 + (yy - cy) ** 2) / (2 * r * r))
            x = x + (spot[..., None] if colour else spot)
        out[i] = np.clip(x, 0, 255)
    return standardize_colour(out) if colour else standardize(out)[:, None]


class AugmentedBatches:
    """An epoch's batches, each augmented afresh (:func:`augment`) from its own seed -- a map-style dataset,
    so that a ``torch.utils.data.DataLoader`` can make them in worker processes while the model trains."""

    def __init__(self, crops: np.ndarray, labels: np.ndarray, batch: int, whole_tile: bool, low_res: float) -> None:
        self.crops, self.labels, self.batch = crops, labels, batch
        self.whole_tile, self.low_res = whole_tile, low_res
        self.epoch = 0
        self._order: tuple[int, np.ndarray] | None = None

    def __len__(self) -> int:
        return math.ceil(len(self.crops) / self.batch)

    def __getitem__(self, index: int) -> tuple[np.ndarray, np.ndarray]:
        if self._order is None or self._order[0] != self.epoch:
            self._order = (self.epoch, np.random.default_rng((0, self.epoch)).permutation(len(self.crops)))
        # Sorted, so that crops kept on disk (np.load's mmap) are read in order.
        chosen = np.sort(self._order[1][index * self.batch : (index + 1) * self.batch])
        rng = np.random.default_rng((1, self.epoch, index))
        labels = np.array(self.labels[chosen])
        crops = augment(np.asarray(self.crops[chosen]), rng, labels if self.whole_tile else None, self.low_res)
        return crops, labels.reshape(-1)


def one_cycle(fraction: float, peak: float) -> float:
    """The learning rate at ``fraction`` of a run (of its steps, or of its time): a third spent rising
    from a 25th of ``peak``, the rest falling along a cosine to a ten-thousandth of it (PyTorch's OneCycleLR)."""
    fraction = min(max(fraction, 0.0), 1.0)
    start, end, rise = peak / 25, peak / 25 / 1e4, 0.3
    if fraction < rise:
        return start + (peak - start) * (1 - math.cos(math.pi * fraction / rise)) / 2
    return end + (peak - end) * (1 + math.cos(math.pi * (fraction - rise) / (1 - rise))) / 2


def save_crops(folder: Path, crops: dict[str, np.ndarray]) -> None:
    """Cut crops kept for later runs (``--crops``): one .npy file each, so a run can map them from disk."""
    folder.mkdir(parents=True, exist_ok=True)
    for name, array in crops.items():
        np.save(folder / f"{name}.npy", array)


def load_crops(folder: Path) -> dict[str, np.ndarray]:
    names = ("train_crops", "train_labels", "val_crops", "val_labels")
    missing = [name for name in names if not (folder / f"{name}.npy").exists()]
    if missing:
        raise FileNotFoundError(f"{folder} should hold {', '.join(n + '.npy' for n in names)} (--save-crops); missing {missing}")
    return {name: np.load(folder / f"{name}.npy", mmap_mode="r") for name in names}


def export(model, out: Path, whole_tile: bool = False, channels: int = 1) -> None:
    import torch

    model.eval()
    dummy = torch.zeros(1, channels, HALF, 2 * HALF if whole_tile else HALF)
    name = "tiles" if whole_tile else "halves"
    torch.onnx.export(
        model, dummy, str(out / "reader.onnx"), input_names=[name], output_names=["logits"],
        dynamic_axes={name: {0: "n"}, "logits": {0: "n"}}, opset_version=17, dynamo=False,
    )


def cut_crops(args: argparse.Namespace) -> dict[str, np.ndarray]:
    """The training and validation crops with their labels, cut from the images as ``args`` say."""
    t0 = time.time()
    workers = args.cut_workers or args.threads
    xtr, ytr = crops_from_split(args.data, "train", 0, args.limit, args.skip, workers=workers, whole_tile=args.whole_tile,
                                colour=args.colour, turned=args.turned_negatives)
    if args.detector_boxes:
        xdet, ydet = crops_from_detector(args.data, "train", args.detector_limit or args.limit, args.detector_skip, args.whole_tile,
                                         tuple(args.detector_sizes), args.colour, workers=max(1, workers // 2))
        none = (ydet.reshape(len(ydet), -1) == NOT_A_HALF).all(axis=1)
        print(f"crops cut by the detector's boxes: {len(xdet)}, of them on no tile {int(none.sum())}", flush=True)
        # The boxes on no tile are few (about one in 40) but they are the detector's false tiles:
        # seen several times an epoch, each time augmented differently.
        extra = np.repeat(np.flatnonzero(none), max(args.negatives_repeat - 1, 0))
        xtr, ytr = np.concatenate([xtr, xdet, xdet[extra]]), np.concatenate([ytr, ydet, ydet[extra]])
    xva, yva = crops_from_split(args.data, "val", 1, None, workers=workers, whole_tile=args.whole_tile, colour=args.colour)
    print(f"crops: train {len(xtr)}, val {len(xva)} ({time.time() - t0:.0f} s); per class {np.bincount(ytr.reshape(-1))}", flush=True)
    return {"train_crops": xtr, "train_labels": ytr, "val_crops": xva, "val_labels": yva}


def train(model, crops: dict[str, np.ndarray], args: argparse.Namespace, weights: Path, channels: int) -> None:
    """Train ``model`` for ``args.epochs`` (or ``args.minutes``), keeping each epoch's weights and model in ``args.out``."""
    import torch
    import torch.nn as nn
    from torch.utils.data import DataLoader

    device = torch.device(args.device)
    model.to(device)
    xva, yva = crops["val_crops"], crops["val_labels"]
    batches = AugmentedBatches(crops["train_crops"], crops["train_labels"], args.batch, args.whole_tile, args.low_res)
    loader = DataLoader(batches, batch_size=None, shuffle=False, num_workers=args.loader_workers,
                        pin_memory=device.type == "cuda", prefetch_factor=4 if args.loader_workers else None)
    opt = torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=1e-4)
    loss_fn = nn.CrossEntropyLoss(label_smoothing=0.05)
    xva_t = torch.from_numpy(standardize_colour(xva) if args.colour else standardize(np.asarray(xva, np.float32))[:, None]).to(device)
    budget = args.minutes * 60 if args.minutes else None
    total_steps = args.epochs * len(batches)
    started, step, epoch = time.time(), 0, 0
    out_of_time = False
    while not out_of_time and (budget is not None or epoch < args.epochs):
        batches.epoch = epoch
        model.train()
        t0, total, seen = time.time(), 0.0, 0
        for batch, (xb, yb) in enumerate(loader):
            fraction = (time.time() - started) / budget if budget else step / total_steps
            if budget and fraction >= 1:
                out_of_time = True
                break
            for group in opt.param_groups:
                group["lr"] = one_cycle(fraction, args.lr)
            xb, yb = xb.to(device, non_blocking=True), yb.to(device, non_blocking=True)
            opt.zero_grad()
            loss = loss_fn(model(xb).reshape(-1, N_CLASSES), yb)
            loss.backward()
            opt.step()
            step += 1
            seen += len(xb)
            total += float(loss.detach()) * len(xb)
            if (batch + 1) % 200 == 0 and device.type == "cpu":
                left = (time.time() - t0) / (batch + 1) * (len(batches) - batch - 1)
                print(f"  epoch {epoch + 1} batch {batch + 1}/{len(batches)}: loss {total / seen:.4f}, "
                      f"{left / 60:.0f} min left in the epoch", flush=True)
        epoch += 1
        model.eval()
        with torch.no_grad():
            pred = torch.cat([model(xva_t[i : i + 1024]).argmax(-1) for i in range(0, len(xva_t), 1024)]).cpu().numpy()
        acc = (pred == yva).mean()
        whole = f", whole tiles {(pred == yva).all(axis=1).mean():.4f}" if args.whole_tile else ""
        print(f"epoch {epoch}{'' if budget else f'/{args.epochs}'}: loss {total / max(seen, 1):.4f}, val accuracy {acc:.4f}{whole} "
              f"({time.time() - t0:.0f} s{', stopped at the time limit' if out_of_time else ''})", flush=True)
        # Each epoch's weights are kept, so a stopped run can be measured or continued (--init).
        torch.save({name: value.cpu() for name, value in model.state_dict().items()}, weights)
        if device.type == "cpu":
            export(model, args.out, args.whole_tile, channels)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data", type=Path, default=HERE.parent / "datasets" / "generated" / "detector")
    parser.add_argument("--out", type=Path, default=HERE,
                        help="folder for reader.pt and reader.onnx (default models/: train elsewhere first, compare, then copy)")
    parser.add_argument("--epochs", type=int, default=8)
    parser.add_argument("--limit", type=int, default=None, help="use only the first N training images")
    parser.add_argument("--skip", type=int, default=0, help="leave out the first N training images (fine-tune on new ones)")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--export-only", action="store_true")
    parser.add_argument("--init", type=Path, help="weights to continue from (e.g. models/reader.pt)")
    parser.add_argument("--lr", type=float, default=3e-3)
    parser.add_argument("--detector-boxes", action="store_true",
                        help="add crops cut by the shipped detector's own boxes on the training images")
    parser.add_argument("--detector-skip", type=int, default=0,
                        help="with --detector-boxes, leave out the first N images (those the detector was trained on)")
    parser.add_argument("--detector-limit", type=int, default=None,
                        help="with --detector-boxes, at most this many images (after --detector-skip)")
    parser.add_argument("--detector-sizes", type=int, nargs="+", default=[544],
                        help="with --detector-boxes, the detector's input sizes (544 704: the board command's boxes)")
    parser.add_argument("--negatives-repeat", type=int, default=4,
                        help="with --detector-boxes, how many times each box on no tile is used an epoch")
    parser.add_argument("--low-res", type=float, default=0.0,
                        help="share of crops shrunk and enlarged again, as a tile 18-40 px long is seen (0.3: about a third)")
    parser.add_argument("--whole-tile", action="store_true",
                        help="train the whole-tile reader ([N, 1, 32, 64] tile crops with a margin -> [N, 2, 9])")
    parser.add_argument("--turned-negatives", action="store_true",
                        help="with --whole-tile, also a box turned across one in two tiles, over one half and beside it, "
                             "as no tile (session 25: fewer false tiles, more questions; not in the shipped reader's recipe)")
    parser.add_argument("--colour", action="store_true",
                        help="with --whole-tile, read the crop in colour ([N, 3, 32, 64]; --init from a grey reader starts as it)")
    parser.add_argument("--width", type=float, default=1.0,
                        help="with --whole-tile, every layer's channels times this (2: four times the compute); "
                             "--init from a narrower reader starts as it (each channel repeated)")
    parser.add_argument("--save-crops", type=Path,
                        help="only cut the crops (with --detector-boxes too) and keep them in this folder, for --crops")
    parser.add_argument("--crops", type=Path, help="train on the crops kept by --save-crops instead of cutting them")
    parser.add_argument("--cut-workers", type=int, default=None,
                        help="processes cutting crops (default --threads); with --detector-boxes each runs the detector on 2 threads")
    parser.add_argument("--device", default="cpu", help="where the model trains: cpu, or cuda")
    parser.add_argument("--batch", type=int, default=256)
    parser.add_argument("--loader-workers", type=int, default=0,
                        help="processes augmenting the next batches while the model trains (0: between its steps)")
    parser.add_argument("--minutes", type=float,
                        help="train for this long instead of --epochs: the learning rate's cycle is spread over the time")
    args = parser.parse_args()
    if args.width != 1 and not args.whole_tile:
        parser.error("--width is for the whole-tile reader (--whole-tile)")
    if args.colour and not args.whole_tile:
        parser.error("--colour is for the whole-tile reader (--whole-tile)")
    if args.turned_negatives and not args.whole_tile:
        parser.error("--turned-negatives is for the whole-tile reader (--whole-tile)")
    channels = 3 if args.colour else 1
    import torch

    torch.set_num_threads(args.threads)
    torch.manual_seed(0)
    model = build_tile_model(channels, args.width) if args.whole_tile else build_model()
    args.out.mkdir(parents=True, exist_ok=True)
    weights = args.out / "reader.pt"
    if args.init:
        state = torch.load(args.init)
        state = _in_colour(state) if args.colour else state
        if args.width != 1:
            model.load_state_dict(_widened(state, model.state_dict()))
        else:
            model.load_state_dict(_grown_to_classes(state, model.state_dict()))
    if args.save_crops:
        save_crops(args.save_crops, cut_crops(args))
        print(f"crops kept in {args.save_crops}")
        return
    if args.export_only:
        model.load_state_dict(torch.load(weights))
    else:
        crops = load_crops(args.crops) if args.crops else cut_crops(args)
        train(model, crops, args, weights, channels)
        model.to("cpu")
    export(model, args.out, args.whole_tile, channels)
    print(f"exported {args.out / 'reader.onnx'}")


if __name__ == "__main__":
    main()
