"""The shipped models through the commands: detect, board and replay on rendered tables and the demo."""

from __future__ import annotations

import io
import json
import random
import sys
from pathlib import Path

import cv2
import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "datasets"))

from dominosynth.layout import lay_out  # noqa: E402
from dominosynth.render import CameraParams, random_tileset, render_scene  # noqa: E402

from scorer.cli import main  # noqa: E402
from scorer.rules import Board, Side, Tile  # noqa: E402
from scorer.vision.detector import default_models_dir  # noqa: E402

pytestmark = pytest.mark.skipif(not (default_models_dir() / "detector.onnx").exists(), reason="no shipped model")


def run(*args: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(args), out=out, err=err)
    return code, out.getvalue(), err.getvalue()


def clean_table(path: Path, board: Board, seed: int = 1, length: float = 90) -> None:
    """A plain overhead view: ivory tiles ``length`` px long (90: a webcam close above) on a dark table."""
    rng = random.Random(seed)
    scale = length / 48  # (px per mm: a tile is 48 mm long)
    geoms = lay_out(board, rng, tuple(v * 90 / length for v in (60, 60, 580, 380)))  # (the same part of the view)
    cam = CameraParams(1280, 720, scale, 0.0, 0.0, 0.0)
    style = random.Random(3)
    ts = random_tileset(style)
    ts.body, ts.back = (215, 232, 240), (215, 232, 240)
    ts.pip_colors = {v: (20, 20, 20) for v in range(7)}
    ts.divider, ts.pip_style = (20, 20, 20), "filled"
    scene = render_scene(geoms, ts, cam, random.Random(seed), (1280 / scale / 2, 720 / scale / 2), occlude=False, effects=False)
    cv2.imwrite(str(path), scene.image)


def sample_board() -> Board:
    b = Board(True).place(Tile(1, 4))
    b = b.place(Tile(4, 4), b.point(Tile(1, 4), Side.HIGH))
    b = b.place(Tile(1, 6), b.point(Tile(1, 4), Side.LOW))
    return b.place(Tile(3, 4), b.point(Tile(4, 4), Side.LINE_B))


def test_detect_reads_a_clean_table_and_reports_bad_files(tmp_path: Path) -> None:
    image = tmp_path / "table.png"
    clean_table(image, sample_board())
    empty = tmp_path / "empty.jpg"
    empty.write_bytes(b"")
    text = tmp_path / "notes.png"
    text.write_text("hello")
    code, out, err = run("detect", str(empty), str(image), str(text), "--json", "--annotate", str(tmp_path / "ann.png"))
    assert code == 1  # some files could not be read
    assert "empty" in err and "not an image" in err
    (record,) = [json.loads(line) for line in out.splitlines()]
    assert record["width"] == 1280 and record["height"] == 720 and record["ms"] > 0
    read = sorted(tuple(sorted(t["pips"])) for t in record["tiles"] if t["face"] == "up")
    assert read == [(1, 4), (1, 6), (3, 4), (4, 4)]
    tile = record["tiles"][0]
    assert len(tile["corners"]) == 4 and len(tile["halves"]) == 2 and 0 < tile["confidence"] <= 1
    assert (tmp_path / "ann-001-table.png").exists() and f"annotated picture written to {tmp_path / 'ann-001-table.png'}" in err
    assert tile["certain"] and tile["read_confidence"] >= 0.9 and record["problems"] == []


def test_detect_says_where_tiles_are_too_small_to_read_in_the_language_asked(tmp_path: Path) -> None:
    image = tmp_path / "far.png"
    clean_table(image, sample_board(), length=28)
    code, out, err = run("detect", str(image), "--lang", "fi")
    assert code == 0, err
    assert out.splitlines()[-1].startswith("ongelma: laatat ovat kuvassa noin 2")  # (about 28 px: under the 30 px needed)
    assert "silmäpuoli ylöspäin" in out.splitlines()[0]


def test_board_rebuilds_the_graph_and_the_sum(tmp_path: Path) -> None:
    image = tmp_path / "table.png"
    truth = sample_board()
    clean_table(image, truth)
    code, out, err = run("board", str(image), "--game", "horse-race", "--json")
    assert code == 0, err
    record = json.loads(out)
    assert sorted(map(tuple, record["tiles"])) == sorted((t.a, t.b) for t in truth.tiles)
    assert record["sum"] == truth.end_sum() and record["points"] == truth.points()
    assert record["spinners"] == [[4, 4]] and record["problems"] == []
    assert record["game_points"] == truth.points() // 5 and record["loose"] == []
    code, out, _ = run("board", str(image), "--game", "horse-race")
    raw = truth.points()
    assert f"; scores {raw} raw points ({raw // 5} display points)" in out
    code, out, _ = run("board", str(image), "--game", "seven-rocks", "--lang", "fi")
    assert "Laatat:" in out and f"= {truth.end_sum()}" in out


def test_board_with_the_board_before_names_the_move(tmp_path: Path) -> None:
    image = tmp_path / "table.png"
    truth = sample_board()
    clean_table(image, truth)
    before = Board.replayed(True, truth.tiles[0], [(j.tile, j.side, j.new_tile) for j in truth.joins[:-1]])
    record = {"tiles": [t.as_list() for t in before.tiles],
              "joins": [[j.tile.as_list(), j.side.value, j.new_tile.as_list(), j.new_side.value] for j in before.joins]}
    (tmp_path / "before.json").write_text(json.dumps(record) + "\n")
    code, out, err = run("board", str(image), "--game", "horse-race", "--before", str(tmp_path / "before.json"), "--json")
    assert code == 0, err
    move = json.loads(out)
    # Each tile laid, where, and what the board scored once it lay there (raw, and in the game's points).
    raw = truth.points()
    assert move["placements"] == [{"tile": [3, 4], "at": [[4, 4], truth.joins[-1].side.value, 4], "sum": truth.end_sum(),
                                   "points": raw, "game_points": raw // 5}]
    assert move["sum"] == truth.end_sum() and move["problems"] == []
    # The move's record is the next move's board before: the same table again shows nothing new.
    (tmp_path / "after.json").write_text(out)
    code, again, err = run("board", str(image), "--game", "horse-race", "--before", str(tmp_path / "after.json"), "--json")
    assert code == 0, err
    assert json.loads(again)["placements"] == [] and json.loads(again)["sum"] == truth.end_sum()
    code, out, _ = run("board", str(image), "--game", "horse-race", "--before", str(tmp_path / "before.json"))
    assert code == 0 and "New tile at [4|4]" in out and "Played [3|4]" in out
    code, out, _ = run("board", str(image), "--game", "horse-race", "--before", str(tmp_path / "before.json"), "--lang", "fi")
    assert code == 0 and "Uusi laatta kiinni laatassa [4|4]" in out and "Pelattu [3|4]" in out
    code, out, _ = run("board", str(image), "--game", "horse-race", "--before", str(tmp_path / "after.json"), "--lang", "fi")
    assert code == 0 and out.startswith("Edelliseen tilanteeseen liitettyä uutta laattaa ei näy.")
    # A board before that the rules do not allow is an error, not a guess.
    record["joins"][0][1] = "branch-a"
    (tmp_path / "bad.json").write_text(json.dumps(record))
    code, _, err = run("board", str(image), "--game", "horse-race", "--before", str(tmp_path / "bad.json"))
    assert code != 0 and "bad.json" in err and "does not follow the rules" in err


def test_replay_of_the_bundled_demo(tmp_path: Path) -> None:
    """The demo (a whole Horse Race round, 15 fps) read at every frame: every event the simulator's, in
    order, scored alike -- the plays, the continuations, the draws, the reveal with the rounded hand
    totals and the credit -- and no question asked."""
    from scorer.rules.transcript import record, score_log

    demo = ROOT / "scorer" / "data" / "demo.mp4"
    _, steps = score_log((ROOT / "scorer" / "data" / "demo.truth.jsonl").read_text().splitlines())
    truth = [record(step) for step in steps]
    code, out, err = run("replay", str(demo), "--game", "horse-race", "--players", "Ann,Ben", "--starter", "Ben",
                         "--step", "1", "--json", "--quiet")
    assert code == 0, err
    events = [json.loads(l) for l in out.splitlines()]
    assert [e for e in events if e["type"] in ("needs-confirmation", "notice")] == []
    assert [{k: v for k, v in e.items() if k not in ("t", "say")} for e in events] == truth
    assert all("t" in e and "scores" in e for e in events)
    # The round's end: the hands, their totals rounded to 5, the credit, the match's scores after it.
    reveal = events[-1]
    assert reveal["type"] == "reveal" and reveal["scores"] == truth[-1]["scores"]
    assert reveal["credited"] == truth[-1]["credited"] and reveal["changes"] == truth[-1]["changes"]
    (credit,) = reveal["credited"].values()  # (two players: the one hand left, rounded, is the credit)
    for player, pips in reveal["hand_pips"].items():
        if pips:
            total = credit["raw"]
            assert credit["hands"] == pips and f"{player}'s hand {pips} → {total}" in reveal["say"]["en"]
            assert f"käsi {pips} → {total}" in reveal["say"]["fi"]
    for player, gain in reveal["changes"].items():
        if gain:
            assert f"{player} +{gain}" in reveal["say"]["en"] and f"{player} +{gain}" in reveal["say"]["fi"]


def test_replay_tells_the_round_in_finnish_when_asked() -> None:
    code, out, err = run("replay", str(ROOT / "scorer" / "data" / "demo.mp4"), "--game", "horse-race", "--players", "Ann,Ben",
                         "--starter", "Ben", "--quiet", "--lang", "fi")
    assert code == 0, err
    assert "Ann pelasi viimeisen laattansa: kierros 1 päättyi" in out and "Kädet: Ann 0, Ben 13" in out
    assert out.splitlines()[-1] == "Pisteet: Ann 9, Ben 5"
    assert "s videota toistettu " in err and "× reaaliaika" in err  # (its own words in Finnish too)


def test_a_replay_says_how_many_questions_it_could_not_ask() -> None:
    # Told the wrong starter, the replay meets arms from the other seat: it asks, no one answers, it goes on.
    code, out, err = run("replay", str(ROOT / "scorer" / "data" / "demo.mp4"), "--game", "horse-race", "--players", "Ann,Ben",
                         "--starter", "Ann", "--quiet")
    asked = out.count("? needs confirmation")
    assert code == 0 and asked > 0
    assert out.splitlines()[-1].startswith(f"Questions asked with no one to answer them: {asked}. Where the camera did not settle")


def test_the_detector_takes_any_input_size_and_merges_several(tmp_path: Path) -> None:
    from scorer.errors import ModelError
    from scorer.vision import TileDetector, load_image

    image = tmp_path / "table.png"
    clean_table(image, sample_board())
    frame = load_image(str(image))
    tiles = {}
    for sizes in (416, 544, (544, 704)):
        detector = TileDetector(threads=1, input_size=sizes)
        found = detector.detect(frame)
        tiles[sizes] = sorted(Tile.of(*d.pips) for d in found if d.pips is not None)
        # Merged over sizes, a tile is still one box.
        assert len(found) == len(tiles[sizes])
    assert tiles[416] == tiles[544] == tiles[(544, 704)] == sorted(sample_board().tiles)
    # Read with care, each tile also turned half round: the same pips, each half where it lies.
    plain = sorted((d.center, d.pips) for d in TileDetector(threads=1, input_size=(544, 704)).detect(frame))
    careful = sorted((d.center, d.pips) for d in TileDetector.thorough(threads=1).detect(frame))
    assert [p for _, p in careful] == [p for _, p in plain] and any(a != b for _, (a, b) in careful)
    with pytest.raises(ModelError, match="multiples of 32"):
        TileDetector(threads=1, input_size=500)


def test_the_live_detector_reads_far_tables_at_an_input_fitted_to_the_tiles(tmp_path: Path) -> None:
    from scorer.errors import ModelError
    from scorer.vision import TileDetector, load_image

    image = tmp_path / "far.png"
    clean_table(image, sample_board(), length=40)
    frame = load_image(str(image))
    live = TileDetector.live(threads=1)
    assert live.size == 544
    first = live.detect(frame)
    # The tiles are ~17 px in a 544 px input: the frame is read again, and the next frames read, where
    # they come to ~26 px (832 for the 40 px drawn, a stride either way as the boxes measure them).
    fitted = live.size
    assert fitted in (800, 832, 864) and len(first) == 4
    again = live.detect(frame)
    assert live.size == fitted
    assert sorted(Tile.of(*d.pips) for d in again if d.pips is not None) == sorted(sample_board().tiles)
    with pytest.raises(ModelError, match="one input size"):
        TileDetector(threads=1, input_size=(544, 704), follow_tiles=True)


def test_faces_with_an_engraved_divider_and_backs_beside_them_are_told_apart(tmp_path: Path) -> None:
    from dominosynth.layout import scatter

    from scorer.rules.tiles import Tile as T
    from scorer.vision import TileDetector

    rng = random.Random(5)
    board = Board(True).place(Tile(0, 0))
    board = board.place(Tile(0, 1), board.point(Tile(0, 0), Side.LINE_A))
    geoms = lay_out(board, rng, (60, 60, 400, 380))
    geoms += scatter([T(2, 5), T(3, 6), T(1, 1)], rng, (420, 60, 660, 380), [g.corners() for g in geoms], face_up=False)
    cam = CameraParams(1280, 720, 90 / 48, 0.0, 0.0, 0.0)
    ts = random_tileset(random.Random(3), "engraved")
    ts.body, ts.back = (215, 232, 240), (205, 225, 236)
    ts.pip_colors = {v: (20, 20, 20) for v in range(7)}
    ts.pip_style, ts.pin = "filled", False
    scene = render_scene(geoms, ts, cam, random.Random(2), (1280 / (90 / 48) / 2, 720 / (90 / 48) / 2), occlude=False, effects=False)
    tiles = TileDetector(threads=1).detect(np.clip(scene.image, 0, 255).astype(np.uint8))
    faces = sorted(tuple(sorted(t.pips)) for t in tiles if t.face == "up")
    assert faces == [(0, 0), (0, 1)]
    assert sum(t.face == "down" for t in tiles) == 3


def test_the_detectors_threads_spin_between_its_steps_for_a_bounded_time_and_the_readers_sleep() -> None:
    # (Spinning for onnxruntime's default time, milliseconds, the detector's threads would keep a core from
    # the reader's run that follows; asleep, each of the detector's hundreds of small steps waits for its
    # second thread to wake.)
    import onnxruntime

    from scorer.vision import TileDetector
    from scorer.vision.reader import SPIN_US

    # (An onnxruntime before 1.26 takes the setting and ignores it.)
    assert tuple(int(x) for x in onnxruntime.__version__.split(".")[:2]) >= (1, 26), onnxruntime.__version__
    detector = TileDetector(threads=2)
    mine = detector.session.get_session_options()
    assert mine.get_session_config_entry("session.intra_op.allow_spinning") == "1"
    assert mine.get_session_config_entry("session.intra_op.spin_duration_us") == str(SPIN_US)
    readers = detector.reader.session.get_session_options()
    assert readers.get_session_config_entry("session.intra_op.allow_spinning") == "0"
