from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from scorer.rules import HorseRace, Match, Play, RoundStart, SevenRocks, Tile


def t(a: int, b: int) -> Tile:
    return Tile.of(a, b)


def write_log(path: Path, lines: list[dict[str, Any]]) -> Path:
    path.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    return path


@pytest.fixture
def hr2() -> Match:
    """A Horse Race match of two, round 1 started by Ann."""
    match, _ = Match.start(HorseRace(), ["Ann", "Ben"]).apply(RoundStart("Ann"))
    return match


@pytest.fixture
def sr4() -> Match:
    match, _ = Match.start(SevenRocks(), ["Ann", "Ben", "Cid", "Dee"], partnership=True).apply(RoundStart("Ann"))
    return match


def film(folder: Path, game: str, players: int, seed: int, rounds: int) -> tuple[Path, Path, Path]:
    """A small generated game film in ``folder`` (480x270): its video, truth and labels files."""
    from dominosynth.video import VideoSpec, make_video

    video, truth, labels = folder / "v.mp4", folder / "v.truth.jsonl", folder / "v.labels.jsonl"
    make_video(VideoSpec(game, players, False, seed, size=(480, 270), max_rounds=rounds, move_seconds=1.3), video, truth, labels)
    return video, truth, labels


def play(match: Match, player: str, tile: tuple[int, int], at: tuple[int, int] | None = None, **kw: Any):
    return match.apply(Play(player, t(*tile), None if at is None else t(*at), **kw))


@pytest.fixture(autouse=True)
def _private_user_folders(tmp_path_factory, monkeypatch):
    """No test touches the user's own config, sessions or club database."""
    home = tmp_path_factory.mktemp("home")
    monkeypatch.setenv("XDG_DATA_HOME", str(home / "data"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home / "config"))
    monkeypatch.delenv("SCORER_CLUB_DB", raising=False)
