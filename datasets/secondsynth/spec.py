from __future__ import annotations

from dataclasses import dataclass, field

CONDITIONS = frozenset({"drift", "shadow", "hover", "bump", "lamp", "lean", "brush", "focus"})


@dataclass(frozen=True)
class SecondSpec:
    game: str  # "horse-race" | "seven-rocks"
    players: int  # 2, 3 or 4
    partnership: bool
    seed: int
    max_rounds: int | None = 2
    fps: float = 30.0
    size: tuple[int, int] = (1280, 720)
    conditions: frozenset[str] = field(default_factory=frozenset)  # empty: a calm evening

    def __post_init__(self) -> None:
        unknown = set(self.conditions) - CONDITIONS
        if unknown:
            raise ValueError(f"unknown condition(s) {sorted(unknown)}; known: {sorted(CONDITIONS)}")
