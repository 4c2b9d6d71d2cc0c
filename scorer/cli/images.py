"""The commands that read pictures: ``detect``, ``board`` (with ``--before``: the move since), ``calibrate``."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import TYPE_CHECKING, Iterable, Iterator, Literal, Sequence, TextIO

from scorer.cli.common import CLI_WORDS, add_threads_argument, counted, sentences_in

if TYPE_CHECKING:
    import numpy as np

    from scorer.layout import Layout, Placement
    from scorer.pipeline.sources import Frame
    from scorer.rules import Board, GameRules
    from scorer.vision.calibration import Profile
    from scorer.vision.tile_detection import TileDetection


def _detect(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    import time

    import cv2

    from scorer.errors import ImageError
    from scorer.vision import TileDetector, load_image
    from scorer.vision.annotate import annotate
    from scorer.vision.plain_backs import backs_maybe_faces

    detector = TileDetector(threads=args.threads)
    failed = 0
    for index, name in enumerate(args.images):
        try:
            image = load_image(name)
        except ImageError as exc:
            err.write(f"{exc}\n")
            failed += 1
            continue
        start = time.perf_counter()
        tiles = detector.detect(image)
        ms = (time.perf_counter() - start) * 1000
        h, w = image.shape[:2]
        maybe_faces = set(backs_maybe_faces(image, tiles))
        if args.json:
            record = {"path": name, "width": w, "height": h, "ms": round(ms, 1),
                      "tiles": [dict(t.to_json(), **({"maybe_face": True} if k in maybe_faces else {})) for k, t in enumerate(tiles)]}
            out.write(json.dumps(record) + "\n")
        else:
            up = [t for t in tiles if t.face == "up"]
            out.write(f"{name}: {w}x{h}, {counted(len(up), 'tile')} face up, {len(tiles) - len(up)} face down ({ms:.0f} ms)\n")
            for k, t in sorted(enumerate(tiles), key=lambda kt: (kt[1].center[1], kt[1].center[0])):
                cx, cy = t.center
                if t.pips is None:
                    doubt = "  or a face whose pips do not show (no face here is read surely)" if k in maybe_faces else ""
                    out.write(f"  face down        at ({cx:.0f}, {cy:.0f}){doubt}\n")
                else:
                    a, b = t.pips
                    flag = "" if t.certain else f"  uncertain ({t.read_confidence:.2f})"
                    out.write(f"  [{min(a, b)}|{max(a, b)}] at ({cx:.0f}, {cy:.0f}){flag}\n")
        if args.annotate:
            target = Path(args.annotate)
            if len(args.images) > 1:
                target = target.with_name(f"{target.stem}-{index:03d}-{Path(name).stem}{target.suffix or '.png'}")
            if not cv2.imwrite(str(target), annotate(image, tiles)):
                err.write(f"{target}: could not write the annotated image\n")
                failed += 1
        out.flush()
    return 1 if failed else 0


def _for_seconds(frames: Iterable[Frame], seconds: float) -> Iterator[Frame]:
    """Frames until ``seconds`` have passed (a camera gives frames for ever)."""
    import time as _time

    end = _time.monotonic() + seconds
    for frame in frames:
        if _time.monotonic() > end:
            return
        yield frame


def _calibrate(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    from itertools import islice

    from scorer.pipeline.sources import Camera, VideoFile
    from scorer.vision import load_image
    from scorer.vision.calibration import calibrate, calibrate_frames, save_profile

    def taken(n: int) -> None:
        more = args.views - n
        err.write(f"view {n} taken" + (f"; lay the target somewhere else on the table ({more} more)\n" if more else "\n"))

    if args.image:
        profile = calibrate(load_image(args.image), args.name)
    elif args.video:
        frames = islice(VideoFile(args.video).frames(), 300 * args.views)
        profile = calibrate_frames((f.image for f in frames), args.name, args.views, taken)
    else:
        if args.views > 1:
            err.write(f"lay the target on the table and keep it still; then move it {args.views - 1} times, toward the corners\n")
        live = _for_seconds(Camera(args.camera).frames(), 10.0 * args.views)
        profile = calibrate_frames((f.image for f in live), args.name, args.views, taken)
    path = save_profile(profile, Path(args.dir) if args.dir else None)
    out.write(
        f"calibration profile {profile.name!r} saved to {path}\n"
        f"  target markers seen: {profile.markers} of 6, fit error {profile.error_mm:.2f} mm\n"
        f"  scale at the target: {profile.px_per_mm:.2f} px/mm; a tile should look {profile.tile_px[0]:.0f} x {profile.tile_px[1]:.0f} px\n"
    )
    fit = profile.lens_fit or {}
    if profile.lens is not None:
        out.write(f"  lens distortion corrected: k = {fit['k']:+.3f} over {counted(fit['views'], 'view')}; "
                  f"the target fits the plane to {fit['error_with_mm']:.2f} mm instead of {fit['error_without_mm']:.2f} mm\n")
    else:
        out.write(f"  lens distortion: none measurable from {counted(fit.get('views', 1), 'view')} "
                  "(for a wide lens, calibrate from a video with --views 5, the target laid near each corner)\n")
    if not args.image and fit.get("views", 1) < args.views:
        err.write(f"warning: only {counted(fit.get('views', 1), 'view')} of the {args.views} asked for "
                  f"{'was' if fit.get('views', 1) == 1 else 'were'} seen (the target still, each in a new place) "
                  f"in the {'video' if args.video else 'time given'}: calibrate again to correct a wide lens\n")
    from scorer.pipeline.core import LIVE_SMALL_TILE_PX

    if profile.tile_px[0] < LIVE_SMALL_TILE_PX:  # (where live play would tell the players so too)
        out.write(f"  warning: tiles will be small in the image (under {LIVE_SMALL_TILE_PX} px); move the camera closer "
                  "for reliable pip reading\n")
    return 0


def _board(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    from scorer.layout import read_board
    from scorer.rules.board_json import board_record
    from scorer.rules import GAMES, describe_board
    from scorer.vision import TileDetector, load_image
    from scorer.vision.calibration import load_profile

    rules = GAMES[args.game]
    image = load_image(args.image)
    profile = load_profile(args.calibration) if args.calibration else None
    before = _board_before(args.before, rules.every_double_spins) if args.before else None
    # One image, read with care: at two input sizes, each tile also read turned round (over twice a live frame's time).
    detections = TileDetector.thorough(threads=args.threads).detect(image)
    if before is not None:
        return _move(args, before, detections, image, profile, rules, out, err)
    reading = read_board(detections, rules.every_double_spins, profile.to_table if profile else None,
                         image=image)
    layout, board = reading.layout, reading.board
    if args.json:
        problems = reading.problems + [f"note: {n}" for n in reading.notes]
        record = {"path": args.image, **board_record(board), "loose": [list(layout.tiles[i].pips) for i in layout.loose()],
                  "problems": problems}
        out.write(json.dumps(record) + "\n")
    else:
        out.write(describe_board(board, args.lang) + "\n")
        terms = " + ".join(str(e.value) for e in board.scoring_ends()) or "0"
        out.write(CLI_WORDS[args.lang]["sum"].format(terms=terms, sum=board.end_sum(), raw=board.points()) + "\n")
        _write_problems(reading.problems, reading.notes, out, args.lang)
    return _annotated(args, image, detections, layout, board, profile, reading.unseen_ends, err)


def _write_problems(problems: Sequence[str], notes: Sequence[str], out: TextIO, lang: Literal["fi", "en"] = "en") -> None:
    """Problems, then notes (what the rules settled), one a line, each said as what it is, in ``lang``."""
    say, words = sentences_in(lang), CLI_WORDS[lang]
    for label, sentences in ((words["problem"], problems), (words["note"], notes)):
        for sentence in sentences:
            out.write(f"{label}: {say(sentence)}\n")


def _annotated(args: argparse.Namespace, image: np.ndarray, detections: Sequence[TileDetection], layout: Layout, board: Board,
               profile: Profile | None, unseen_ends: Sequence[tuple[float, float]], err: TextIO) -> int:
    """With ``--annotate``, the image with what was read drawn on it, written; the exit status."""
    import cv2

    from scorer.layout.annotate import annotate_board

    if args.annotate:
        drawn = annotate_board(image, detections, layout, board, profile.to_image if profile else None, unseen_ends)
        if not cv2.imwrite(args.annotate, drawn):
            err.write(f"{args.annotate}: could not write the annotated image\n")
            return 1
    return 0


def _board_before(path: str, every_double_spins: bool) -> Board:
    """The board a ``board --json`` record holds (its first line), rebuilt and checked by the rules."""
    from scorer.errors import IllegalMove, TableError
    from scorer.rules.board_json import board_from_parts, board_parts

    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise TableError(f"{path}: cannot read the board before: {exc}") from exc
    first = next((line for line in text.splitlines() if line.strip()), "")
    try:
        tiles, joins = board_parts(json.loads(first))
    except (ValueError, KeyError, TypeError) as exc:
        raise TableError(f"{path}: expected a board as `board --json` writes it (\"tiles\" and \"joins\"), found {first[:80]!r}") from exc
    try:
        return board_from_parts(tiles, joins, every_double_spins)
    except IllegalMove as exc:
        raise TableError(f"{path}: the board before does not follow the rules of this game: {exc}") from exc


def _move(args: argparse.Namespace, before: Board, detections: list[TileDetection], image: np.ndarray, profile: Profile | None,
          rules: GameRules, out: TextIO, err: TextIO) -> int:
    """``board IMAGE --before BOARD.json``: the tile(s) laid since that board, where, and the sum after."""
    from scorer.layout import read_move
    from scorer.rules.board_json import board_record

    reading = read_move(before, detections, to_table=profile.to_table if profile else None, image=image)
    change = reading.change
    board = change.board if change.board is not None else before
    if args.json:
        problems = reading.problems + [f"note: {n}" for n in reading.notes]
        placements = [{"tile": p.tile.as_list(), "at": None if p.at is None else [p.at.tile.as_list(), p.at.side.value, p.at.value]}
                      for p in change.placements]
        record = {"path": args.image, "placements": placements, **board_record(board), "problems": problems}
        out.write(json.dumps(record) + "\n")
    else:
        _describe_move(before, change.placements, reading.problems, reading.notes, rules, args.lang, out)
    return _annotated(args, image, detections, reading.layout, board, profile, [], err)


def _describe_move(before: Board, placements: Sequence[Placement], problems: Sequence[str], notes: Sequence[str], rules: GameRules,
                   lang: Literal["fi", "en"], out: TextIO) -> None:
    from scorer.rules import describe_placement
    from scorer.rules.describe import side_name

    words = CLI_WORDS[lang]
    if not placements:
        out.write(words["no-move"] + "\n")
    step = before
    for p in placements:
        step = step.place(p.tile, p.at)
        head = words["new"] if p.at is None else words["new-at"].format(tile=p.at.tile, side=side_name(p.at.side, lang), value=p.at.value)
        out.write(f"{head}\n{describe_placement(p.tile, step, rules, lang)}\n")
    _write_problems(problems, notes, out, lang)


# -- the commands' arguments (scorer/cli/__init__.py adds them in the order --help lists them)


def add_detect_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    detect = sub.add_parser("detect", help="find every tile and read its pips in images")
    detect.add_argument("images", nargs="+", metavar="IMAGE", help="pictures of the table (JPEG, PNG, ...)")
    detect.add_argument("--json", action="store_true", help="one JSON object per image")
    detect.add_argument("--annotate", metavar="OUT.png", help="draw what was read")
    add_threads_argument(detect)
    detect.set_defaults(run=_detect)


def add_board_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    board = sub.add_parser("board", help="rebuild the layout in an image as the game's spinner graph")
    board.add_argument("image", metavar="IMAGE", help="a picture of the table from above")
    board.add_argument("--game", choices=("horse-race", "seven-rocks"), required=True, help="the game played")
    board.add_argument("--calibration", metavar="NAME", help="a calibration profile (name or .json path)")
    board.add_argument("--json", action="store_true", help="the board as one JSON object (its tiles, joins, sum; --before reads it)")
    board.add_argument("--before", metavar="BOARD.json",
                       help="the board before the move (as `board --json` writes it): name the tile(s) laid since, and where")
    board.add_argument("--annotate", metavar="OUT.png", help="draw what was read and the layout rebuilt")
    board.add_argument("--lang", choices=("fi", "en"), default="en",
                       help="language of the board's description, its sums and problems (--json stays in English)")
    add_threads_argument(board)
    board.set_defaults(run=_board)


def add_calibrate_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    cal = sub.add_parser("calibrate", help="find the printed target and save a table calibration profile")
    source = cal.add_mutually_exclusive_group(required=True)
    source.add_argument("--camera", type=int, metavar="N", help="a camera by its index (0: the first)")
    source.add_argument("--video", metavar="FILE", help="a recording of the target on the table")
    source.add_argument("--image", metavar="FILE", help="a picture of the target on the table")
    cal.add_argument("--name", default="default", help="profile name (default: default)")
    cal.add_argument("--views", type=int, default=1, metavar="N",
                     help="views of the target in different places (video or camera), to measure the lens (default 1)")
    cal.add_argument("--dir", help="where to save profiles (default: the user's config folder)")
    cal.set_defaults(run=_calibrate)
