"""The training generator's added styles change only what they say they change, so the held-out
splits (made from the main and cross styles) stay the same images."""

from __future__ import annotations

import dataclasses
import random
import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "datasets"))

from dominosynth.render import COLOUR_DOT_SETS, random_tileset, render_tile_sprite  # noqa: E402

COLOUR_DOTS = ("body", "back", "divider", "pip_colors")
ADDED = {
    "engraved": ("engraved",),
    "glossy": ("spot", "spot_offset", "spot_strength"),
    "dots": COLOUR_DOTS,
    "palette": COLOUR_DOTS,
}


@pytest.mark.parametrize("style", sorted(ADDED))
@pytest.mark.parametrize("seed", range(6))
def test_an_added_style_is_the_main_style_with_only_its_own_fields_changed(style: str, seed: int) -> None:
    main = dataclasses.asdict(random_tileset(random.Random(seed), "main"))
    added = dataclasses.asdict(random_tileset(random.Random(seed), style))
    changed = {name for name in main if main[name] != added[name]}
    assert changed == set(ADDED[style])


@pytest.mark.parametrize("style", ["dots", "palette"])
def test_colour_dot_sets_are_light_with_a_colour_for_each_value(style: str) -> None:
    for seed in range(6):
        ts = random_tileset(random.Random(seed), style)
        assert min(ts.body) > 180
        assert len(set(ts.pip_colors.values())) == 7
    palette_colours = {c for seed in range(20) for c in random_tileset(random.Random(seed), "palette").pip_colors.values()}
    assert palette_colours <= set(COLOUR_DOT_SETS)


@pytest.mark.parametrize("light_body", [True, False])
def test_glossy_dark_pips_show_a_light_spot_and_light_pips_a_dark_one(light_body: bool) -> None:
    def fitting(seed: int) -> bool:
        return (np.mean(random_tileset(random.Random(seed), "glossy").body) > 150) == light_body

    seed = next(s for s in range(100) if fitting(s))
    looks = {}
    for style in ("main", "glossy"):
        ts = dataclasses.replace(random_tileset(random.Random(seed), style), pin=False, pip_style="filled")
        image, _ = render_tile_sprite(ts, (1, 0), 8.0, random.Random(0))  # a one: a single pip mid right half
        h, w = image.shape[:2]
        r = ts.pip_radius * 8.0
        x, y = int(round(w * 0.75 + ts.spot_offset[0] * r)), int(round(h / 2 + ts.spot_offset[1] * r))
        looks[style] = image[y - 1 : y + 2, x - 1 : x + 2].mean()
    if light_body:  # dark pips
        assert looks["main"] < 80 and looks["glossy"] > looks["main"] + 60
    else:
        assert looks["main"] > 180 and looks["glossy"] < looks["main"] - 60


@pytest.mark.parametrize("style", ["main", "cross"])
def test_a_tile_hidden_in_a_filmed_table_leaves_the_rest_of_the_picture_as_it_was(style: str) -> None:
    # A game is filmed by rendering one table again and again, showing more of its tiles: the light and
    # the table must stay the same (a camera sees no jump in the light when a tile is put down).
    from dominosynth.layout import PlacedGeom
    from dominosynth.render import CameraParams, render_scene

    from scorer.rules import Tile

    geoms = [PlacedGeom(Tile(1, 4), (60.0, 60.0), 0.0, (1, 4)), PlacedGeom(Tile(2, 6), (160.0, 90.0), 0.5, (2, 6))]
    cam = CameraParams(320, 240, 1.3, 0.0, 0.0, 0.0)
    ts = random_tileset(random.Random(5), style)

    def seen(show):
        return render_scene(geoms, ts, cam, random.Random(9), (120.0, 90.0), style=style, occlude=False, show=show, effects=False).image

    both, first_only = seen([True, True]), seen([True, False])
    assert np.array_equal(both[:, :100], first_only[:, :100])  # far from the hidden tile: the same pixels
    assert not np.array_equal(both, first_only)


@pytest.mark.parametrize("style", ["dim", "motion"])
@pytest.mark.parametrize("seed", range(4))
def test_a_camera_style_is_the_main_scene_seen_otherwise(style: str, seed: int) -> None:
    # dim: a dim room's sensor; motion: every frame streaked by motion.  The table and tiles stay.
    from dominosynth.scenes import make_scene

    main, main_info = make_scene(seed, "main")
    seen, seen_info = make_scene(seed, style)
    assert seen_info == main_info
    assert [(t.corners.tolist(), t.values) for t in seen.tiles] == [(t.corners.tolist(), t.values) for t in main.tiles]
    if style == "dim":  # the light falls to 0.15-0.5 and the exposure makes up for part of it, with noise
        difference = seen.image.astype(np.float32) - main.image.astype(np.float32)
        assert seen.image.mean() < main.image.mean() - 1 or difference.std() > 4
    else:
        assert 3 <= seen.motion_blur_px <= 12 and seen.blur_px == main.blur_px
        if main.motion_blur_px == 0:  # (a main frame streaked by chance may look like the moving one)
            assert not np.array_equal(seen.image, main.image)


@pytest.mark.parametrize("seed", range(3))
def test_the_stone_style_is_the_main_scene_on_a_busy_top(seed: int) -> None:
    import cv2

    from dominosynth.render import render_table
    from dominosynth.scenes import make_scene

    main, main_info = make_scene(seed, "main")
    stone, stone_info = make_scene(seed, "stone")
    assert stone_info == main_info
    assert [(t.corners.tolist(), t.values) for t in stone.tiles] == [(t.corners.tolist(), t.values) for t in main.tiles]
    # Busy at the scale of pips and tiles' edges (a band of 2-8 px) wherever the top is.
    for top in range(4):
        grey = cv2.cvtColor(np.clip(render_table(320, 240, random.Random(top), "stone"), 0, 255).astype(np.uint8), cv2.COLOR_BGR2GRAY)
        band = cv2.GaussianBlur(grey.astype(np.float32), (0, 0), 2) - cv2.GaussianBlur(grey.astype(np.float32), (0, 0), 8)
        assert float(np.abs(band).mean()) > 3
