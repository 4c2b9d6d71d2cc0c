"""The independent renderer's played layouts (the ``shaded-layouts`` split) are labelled truly: the
corners and pips it records rebuild, by the geometry alone, exactly the board its metadata names."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "datasets"))

import make_shaded_split  # noqa: E402

from scorer.layout import SeenTile, reconstruct, to_board  # noqa: E402
from scorer.rules import Board, Side, Tile  # noqa: E402
from scorer.vision.geometry import long_first  # noqa: E402


def _board_of(meta: dict) -> Board:
    b = meta["board"]
    return Board.replayed(b["every_double_spins"], Tile.of(*b["tiles"][0]), [(Tile.of(*t), Side(side), Tile.of(*new)) for t, side, new, _ in b["joins"]])


@pytest.mark.parametrize("index", [0, 1, 2])
def test_a_rendered_layout_rebuilds_the_board_its_labels_name(index: int, tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setattr(make_shaded_split, "OUT", tmp_path)
    (tmp_path / "images" / "shaded-layouts").mkdir(parents=True)
    meta = make_shaded_split.render(index, kind="shaded-layouts")
    assert meta is not None and (tmp_path / meta["image"]).stat().st_size > 0
    json.dumps(meta)  # the metadata line is plain JSON
    layout_tiles = [t for t in meta["tiles"] if t["role"] == "layout"]
    assert len(layout_tiles) == len(meta["board"]["tiles"]) >= 2
    # Label corners start at the half holding values[0] (as the main generator's do).
    seen = [SeenTile(tuple(map(tuple, long_first(t["corners"]))), tuple(t["values"])) for t in meta["tiles"]]
    layout = reconstruct(seen)
    board, problems = to_board(layout, meta["board"]["every_double_spins"])
    truth = _board_of(meta)
    assert not problems and not layout.problems
    assert sorted(board.tiles) == sorted(truth.tiles) and board.end_sum() == truth.end_sum() == meta["board"]["sum"]
    assert {frozenset((j.tile, j.new_tile)) for j in board.joins} == {frozenset((j.tile, j.new_tile)) for j in truth.joins}
    # The loose tiles lie apart: none joins the layout.
    assert len(layout.component) == len(layout_tiles)
