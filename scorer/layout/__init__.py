"""Layout reconstruction: tiles seen on the table -> the joins -> the rules engine's board and moves."""

from scorer.layout.moves import Change, MoveReading, Placement, infer_placements, read_move
from scorer.layout.reconstruct import (
    BoardReading, Layout, PhysJoin, SeenTile, attach_points, read_board, reconstruct, seen_from_detections, to_board,
)

__all__ = [
    "BoardReading", "Change", "MoveReading", "Placement", "infer_placements", "read_move", "Layout", "PhysJoin", "SeenTile", "attach_points",
    "read_board", "reconstruct", "seen_from_detections", "to_board",
]
