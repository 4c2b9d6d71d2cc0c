"""`scorer replay` with bad input: a clear message and a non-zero exit, never a traceback."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from scorer.cli import main


def run(*args: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(args), out=out, err=err)
    return code, out.getvalue(), err.getvalue()


@pytest.mark.parametrize(
    "name, content, message",
    [("missing.mp4", None, "no such video file"), ("empty.mp4", b"", "empty"), ("text.mp4", b"not a video", "not a video")],
)
def test_bad_videos(tmp_path: Path, name: str, content: bytes | None, message: str) -> None:
    path = tmp_path / name
    if content is not None:
        path.write_bytes(content)
    code, _, err = run("replay", str(path), "--game", "horse-race", "--players", "Ann,Ben", "--quiet")
    assert code == 2 and message in err and "Traceback" not in err


def test_bad_players_and_starter(tmp_path: Path) -> None:
    video = Path(__file__).resolve().parents[2] / "scorer" / "data" / "demo.mp4"
    code, _, err = run("replay", str(video), "--game", "seven-rocks", "--players", "Ann,Ben", "--quiet")
    assert code == 2 and "exactly 4 players" in err
    code, _, err = run("replay", str(video), "--game", "horse-race", "--players", "Ann,Ben", "--starter", "Zed", "--quiet")
    assert code == 2 and "--starter 'Zed'" in err
