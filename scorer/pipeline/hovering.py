"""A hand held over a still table: the table it hides is not read until the hand is gone, or for a while."""

from __future__ import annotations

import numpy as np

from scorer.pipeline.arms import arm_in_view
from scorer.pipeline.places import shift_picture
from scorer.pipeline.still import StillTable
from scorer.vision.geometry import long_side

# An arm over a still table is waited for this long (seconds) before the table is read as it is (an
# elbow resting on the table's edge), looked at again meanwhile.
ARM_PATIENCE = 3.0


class HoverWatch:
    """The last still table acted on (with no arm over it), to tell an arm that reached over the table since."""

    def __init__(self) -> None:
        self.reference: StillTable | None = None
        self.reference_offset = np.zeros(2)  # the camera's offset then (CameraShift.offset)
        self.since: float | None = None  # an arm seen over the still table since then

    def keep(self, still: StillTable, offset: np.ndarray) -> None:
        """``still`` is acted on: the table an arm is looked for over next."""
        self.reference, self.reference_offset = still, offset.copy()

    def forget(self) -> None:
        """The frames go on from another moment: the table kept is not the one they show."""
        self.reference, self.since = None, None

    def arm_over(self, still: StillTable, offset: np.ndarray) -> bool:
        """Whether an arm that was not there reaches over the still table, since under ARM_PATIENCE
        (``offset``: the camera's now)."""
        reference = self.reference
        if reference is None or reference.image.shape != still.image.shape:
            return False
        dx, dy = offset - self.reference_offset
        before = reference.image if dx == dy == 0 else shift_picture(reference.image, (float(dx), float(dy)))
        tiles = [*still.up, *still.down]
        tile_area = float(np.median([long_side(d.corners) ** 2 / 2 for d in tiles])) if tiles else 0.0  # (tiles are 2:1)
        # (The boneyard's backs of then are not left out: a hand resting over them hides them.)
        seen = [np.asarray(d.corners) for d in [*tiles, *reference.up]]
        if not arm_in_view(before, still.image, tile_area, seen):
            self.since = None
            return False
        if self.since is None:
            self.since = still.t
        if still.t - self.since < ARM_PATIENCE:
            return True
        self.since = None  # (it stays: read as it is, and the view with it is the one compared with next)
        return False
