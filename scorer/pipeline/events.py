"""What the pipeline emits: the seam between the camera side and everything that shows or records it."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

from scorer.pipeline.announce import Announcement
from scorer.rules.events import Event
from scorer.rules.log import event_to_json
from scorer.rules.transcript import Step, record

if TYPE_CHECKING:
    from scorer.pipeline.notices import Said
    from scorer.vision.detector import TileDetection

Status = Literal["waiting", "reading", "confirm", "over"]


@dataclass(frozen=True)
class MoveEvent:
    """A rules event applied to the match (a play, draw, pass, round start or reveal)."""

    t: float
    step: Step
    announcement: Announcement | None = None
    rewritten: bool = False  # a move of a round written again (a draw the camera missed put in), not one just made
    redone: bool = False  # a move brought back by Redo, not one just made

    def to_json(self) -> dict[str, Any]:
        out = {"t": round(self.t, 2), **record(self.step)}
        if self.announcement is not None:
            out["say"] = {"fi": self.announcement.fi, "en": self.announcement.en}
        return out


@dataclass(frozen=True)
class NeedsConfirmation:
    """The table does not fix the move: the alternatives (each a list of rules events), or none that is legal."""

    t: float
    reason: str
    alternatives: tuple[tuple[Event, ...], ...] = ()
    problems: tuple[str, ...] = ()
    # The question as a typed value (scorer.pipeline.questions); the reason, Words, is what a front end says again.
    question: object = field(default=None, compare=False)

    def to_json(self) -> dict[str, Any]:
        return {
            "t": round(self.t, 2),
            "type": "needs-confirmation",
            "reason": self.reason,
            "alternatives": [[event_to_json(e) for e in alt] for alt in self.alternatives],
            "problems": list(self.problems),
        }


@dataclass(frozen=True)
class Notice:
    """Something worth telling that changes nothing: a reading that flipped, a camera that came back."""

    t: float
    message: str
    # What is told as a typed value (scorer.pipeline.notices); the message, Words, is what a front end says again.
    said: object = field(default=None, compare=False)

    def to_json(self) -> dict[str, Any]:
        return {"t": round(self.t, 2), "type": "notice", "message": self.message}


@dataclass(frozen=True)
class StatusChange:
    t: float
    status: Status

    def to_json(self) -> dict[str, Any]:
        return {"t": round(self.t, 2), "type": "status", "status": self.status}


def told(t: float, said: Said) -> Notice:
    """The notice telling ``said``."""
    return Notice(t, said.text(), said)


PipelineEvent = MoveEvent | NeedsConfirmation | Notice | StatusChange


@dataclass
class TableView:
    """The latest reading of the table, for overlays (the app draws it over the image)."""

    t: float = 0.0
    detections: list[TileDetection] = field(default_factory=list)
    board: Any = None
    problems: list[str] = field(default_factory=list)
