"""The board as JSON: the record ``board --json`` writes, and the board read back from one (``--before``)."""

from __future__ import annotations

from typing import Any, Mapping

from scorer.rules.board import Board
from scorer.rules.game_rules import GameRules
from scorer.rules.tiles import Side, Tile

BoardJoins = list[tuple[Tile, Side, Tile]]


def board_record(board: Board, rules: GameRules) -> dict[str, Any]:
    """A board as the ``board --json`` record gives it (the tiles and joins also read back by :func:`board_parts`):
    ``points`` the raw points its end sum scores, ``game_points`` those in ``rules``' points (Horse Race: a fifth)."""
    return {
        "tiles": [t.as_list() for t in board.tiles],
        "spinners": [t.as_list() for t in board.spinners],
        "joins": [[j.tile.as_list(), j.side.value, j.new_tile.as_list(), j.new_side.value] for j in board.joins],
        "free": [[p.tile.as_list(), p.side.value, p.value] for p in board.free_points()],
        "ends": [[e.tile.as_list(), e.value] for e in board.scoring_ends()],
        "sum": board.end_sum(),
        "points": board.points(),
        "game_points": rules.game_points(board.points()),
        "game": rules.key,
    }


def board_parts(record: Mapping[str, Any]) -> tuple[list[Tile], BoardJoins]:
    """The tiles and joins of a :func:`board_record` (ValueError, KeyError or TypeError where it is not one)."""
    tiles = [Tile.of(*t) for t in record["tiles"]]
    joins = [(Tile.of(*t), Side(side), Tile.of(*new)) for t, side, new, _ in record["joins"]]
    return tiles, joins


def board_from_parts(tiles: list[Tile], joins: BoardJoins, every_double_spins: bool) -> Board:
    """The board the tiles and joins make, every step checked by the rules (:class:`IllegalMove` where one cannot be)."""
    if not tiles:
        return Board(every_double_spins)
    return Board.replayed(every_double_spins, tiles[0], joins)
