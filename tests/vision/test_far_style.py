"""The generator's `far` training style (the small-tile reader's data): a camera far over the table, tiles 16-50 px
long in the frame whatever its size, sets of the other training styles."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[2]


def test_far_scenes_show_small_tiles_in_any_frame_size() -> None:
    sys.path.insert(0, str(ROOT / "datasets"))
    from dominosynth.scenes import make_scene

    lengths: list[float] = []
    sizes = set()
    for seed in range(200_000, 200_012):
        scene, _ = make_scene(seed, "far")
        sizes.add(scene.image.shape[:2])
        for tile in scene.tiles:
            corners = np.asarray(tile.corners, float)
            lengths.append(max(np.linalg.norm(corners[1] - corners[0]), np.linalg.norm(corners[2] - corners[1])))
    assert len(sizes) > 2 and len(lengths) > 50  # (frames of several sizes, a layout's worth of tiles)
    # (16-50 px on a level camera; a tilted one shrinks the far side a little)
    assert 10 <= min(lengths) and max(lengths) <= 52 and np.median(lengths) < 40
