"""Layout reconstruction: tiles seen on the table -> the joins -> the rules engine's board and moves."""

from scorer.layout.moves import Change, Placement, infer_placements
from scorer.layout.reconstruct import (
    BoardReading, Layout, PhysJoin, SeenTile, attach_points, read_board, reconstruct, seen_from_detections, to_board,
)

__all__ = [
    "BoardReading", "Change", "Placement", "infer_placements", "Layout", "PhysJoin", "SeenTile", "attach_points",
    "read_board", "reconstruct", "seen_from_detections", "to_board",
]
