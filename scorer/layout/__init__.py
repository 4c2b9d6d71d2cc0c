"""Layout reconstruction: tiles seen on the table -> the joins -> the rules engine's board and moves.

``joins``: where tiles seen meet (geometry alone); ``reconstruct``: the played layout from the joins;
``engine_board``: the rules engine's board for it; ``reading``: one image's detections, the reader's
doubts weighed (``reread``), to a board or the questions to ask (:func:`read_board`); ``moves``: from
one table state to the next (:func:`read_move`)."""

from scorer.layout.engine_board import attach_points, to_board
from scorer.layout.joins import Layout, PhysJoin, SeenTile
from scorer.layout.moves import Change, MoveReading, Placement, infer_placements, read_move
from scorer.layout.reading import BoardReading, read_board, seen_from_detections
from scorer.layout.reconstruct import reconstruct

__all__ = [
    "BoardReading", "Change", "MoveReading", "Placement", "infer_placements", "read_move", "Layout", "PhysJoin", "SeenTile", "attach_points",
    "read_board", "reconstruct", "seen_from_detections", "to_board",
]
