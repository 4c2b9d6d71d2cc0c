"""Layout reconstruction: tiles seen on the table -> the joins -> the rules engine's board and moves.

``reconstruct``: the graph from tiles taken as read (geometry alone); ``reading``: one image's
detections, the reader's doubts weighed, to a board or the questions to ask (:func:`read_board`);
``moves``: from one table state to the next (:func:`read_move`)."""

from scorer.layout.moves import Change, MoveReading, Placement, infer_placements, read_move
from scorer.layout.reading import BoardReading, read_board, seen_from_detections
from scorer.layout.reconstruct import Layout, PhysJoin, SeenTile, attach_points, reconstruct, to_board

__all__ = [
    "BoardReading", "Change", "MoveReading", "Placement", "infer_placements", "read_move", "Layout", "PhysJoin", "SeenTile", "attach_points",
    "read_board", "reconstruct", "seen_from_detections", "to_board",
]
