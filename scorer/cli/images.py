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
    from scorer.vision.tile_detection import too_small_to_read

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
        small = too_small_to_read(tiles)
        if args.json:
            record = {"path": name, "width": w, "height": h, "ms": round(ms, 1),
                      "tiles": [dict(t.to_json(), **({"maybe_face": True} if k in maybe_faces else {})) for k, t in enumerate(tiles)],
                      "problems": [] if small is None else [small]}
            out.write(json.dumps(record) + "\n")
        else:
            _write_tiles(name, (w, h), ms, tiles, maybe_faces, args.lang, out)
            if small is not None:
                out.write(f"{CLI_WORDS[args.lang]['problem']}: {sentences_in(args.lang)(small)}\n")
        if args.annotate:
            target = Path(args.annotate)
            if len(args.images) > 1:
                target = target.with_name(f"{target.stem}-{index:03d}-{Path(name).stem}{target.suffix or '.png'}")
            failed += not _written(target, annotate(image, tiles, lang=args.lang), args.lang, err)
        out.flush()
    return 1 if failed else 0


def _write_tiles(name: str, size: tuple[int, int], ms: float, tiles: Sequence[TileDetection], maybe_faces: set[int],
                 lang: Literal["fi", "en"], out: TextIO) -> None:
    """One picture's tiles, a line each, row by row across the picture (a row a tile's width high), in ``lang``."""
    import numpy as np

    from scorer.vision.geometry import short_side
    from scorer.words import decimal

    words = CLI_WORDS[lang]
    up = sum(t.face == "up" for t in tiles)
    out.write(words["detected"].format(name=name, width=size[0], height=size[1], up=up, down=len(tiles) - up, ms=f"{ms:.0f}")
              + "\n")
    row = float(np.median([short_side(t.corners) for t in tiles])) if tiles else 0.0
    # Row by row: a row starts at its highest tile and takes the tiles less than a tile's width below it.
    rows: list[list[int]] = []
    for k in sorted(range(len(tiles)), key=lambda k: tiles[k].center[1]):
        if rows and tiles[k].center[1] - tiles[rows[-1][0]].center[1] < row:
            rows[-1].append(k)
        else:
            rows.append([k])
    for k in (k for r in rows for k in sorted(r, key=lambda k: tiles[k].center[0])):
        t = tiles[k]
        place = f"({t.center[0]:.0f}, {t.center[1]:.0f})"
        if t.pips is None:
            out.write(f"  {words['face-down'].format(place=place)}{words['maybe-face'] if k in maybe_faces else ''}\n")
        else:
            a, b = t.pips
            flag = "" if t.certain else "  " + words["uncertain"].format(confidence=decimal(t.read_confidence, 2, lang=lang))
            out.write(f"  {words['face-up'].format(tile=f'[{min(a, b)}|{max(a, b)}]', place=place)}{flag}\n")


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
    from scorer.vision.calibration import CalibrationError, calibrate, calibrate_frames, profile_path, save_profile

    name = args.name[:-5] if args.name.endswith(".json") else args.name
    there = profile_path(name, Path(args.dir) if args.dir else None, new=True)  # (a name refused before the camera is opened)
    if there.exists() and not args.replace:
        raise CalibrationError(f"a profile {name!r} exists already ({there}): give another name, or --replace it "
                               "(a saved match that names it is read through the new one)")

    def taken(n: int) -> None:
        more = args.views - n
        err.write(f"view {n} taken" + (f"; lay the target somewhere else on the table ({more} more)\n" if more else "\n"))

    if args.image:
        if args.views > 1:
            err.write(f"one picture is one view: --views {args.views} counts views in a video or from a camera\n")
        profile = calibrate(load_image(args.image), name)
    elif args.video:
        frames = islice(VideoFile(args.video).frames(), 300 * args.views)
        profile = calibrate_frames((f.image for f in frames), name, args.views, taken)
    else:
        camera = Camera(args.camera)
        camera.connect()  # (a missing camera said before what to do with it)
        if args.views > 1:
            err.write(f"lay the target on the table and keep it still; then move it {args.views - 1} times, toward the corners\n")
        live = _for_seconds(camera.frames(), 10.0 * args.views)
        profile = calibrate_frames((f.image for f in live), name, args.views, taken)
    path = save_profile(profile, Path(args.dir) if args.dir else None)
    out.write(
        f"calibration profile {profile.name!r} saved to {path}\n"
        f"  target markers seen: {profile.markers} of 6, fit error {profile.error_mm:.2f} mm\n"
        f"  scale at the target: {profile.px_per_mm:.2f} px/mm; a tile should look {profile.tile_px[0]:.0f} x {profile.tile_px[1]:.0f} px\n"
        "  (all of it as printed: check with a ruler that the tile outline in the middle of the page is 48 x 24 mm --\n"
        "  printed at 100 %, not fitted to the page)\n"
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
    from scorer.layout.reading import spinner_untold
    from scorer.rules.board_json import board_record
    from scorer.rules import GAMES, describe_board
    from scorer.rules.describe import points_phrase
    from scorer.vision import TileDetector, load_image
    from scorer.vision.calibration import load_profile

    rules = GAMES[args.game]
    image = load_image(args.image)
    profile = load_profile(args.calibration) if args.calibration else None
    if profile is not None:  # (fitted to the photo's size, or refused for another shape: as a camera's frames)
        profile = profile.fitted(image.shape[1], image.shape[0])
    before = _board_before(args.before, rules) if args.before else None
    # One image, read with care: at two input sizes, each tile also read turned round (over twice a live frame's time).
    detections = TileDetector.thorough(threads=args.threads).detect(image)
    if before is not None:
        return _move(args, before, detections, image, profile, rules, out, err)
    reading = read_board(detections, rules.every_double_spins, profile.to_table if profile else None,
                         image=image)
    layout, board = reading.layout, reading.board
    spinner = spinner_untold(board, layout)
    notes = reading.notes + ([spinner] if spinner else [])
    if args.json:
        record = {"path": args.image, **board_record(board, rules), "loose": _loose(layout),
                  "problems": reading.problems, "notes": notes}
        out.write(json.dumps(record) + "\n")
    else:
        out.write(describe_board(board, args.lang) + "\n")
        terms = " + ".join(str(e.value) for e in board.scoring_ends()) or "0"
        points = points_phrase(board.points(), rules, args.lang)
        out.write(CLI_WORDS[args.lang]["sum"].format(terms=terms, sum=board.end_sum(), points=points) + "\n")
        _write_loose(layout, _picture(image, profile), out, args.lang)
        _write_problems(reading.problems, notes, out, args.lang, _picture(image, profile), _numbered(args, profile))
    return _annotated(args, image, detections, layout, board, rules, profile, reading.unseen_ends, reading.problems, err)


def _picture(image: np.ndarray, profile: Profile | None) -> tuple[int, int] | None:
    """The picture's size, for its places to be told as parts of it too -- none where a calibration profile puts the
    layout's tiles in table millimetres (a place may then be either)."""
    return None if profile is not None else (image.shape[1], image.shape[0])


def _numbered(args: argparse.Namespace, profile: Profile | None) -> bool:
    """Whether the problems are numbered, as the annotated picture marks them (not where its places may be millimetres)."""
    return bool(args.annotate) and profile is None


def _loose(layout: Layout) -> list[list[int]]:
    """The tiles seen but not joined to the layout, as the JSON gives tiles: low end first."""
    return [layout.tiles[i].tile.as_list() for i in layout.loose()]


def _write_loose(layout: Layout, picture: tuple[int, int] | None, out: TextIO, lang: Literal["fi", "en"]) -> None:
    """The tiles seen but not joined to the layout, and where they lie, on a line (none: no line)."""
    from scorer.layout.joins import _where
    from scorer.words import Listed

    if layout.loose():
        tiles = Listed([_where(layout.tiles[i]) for i in layout.loose()], ", ")
        out.write(CLI_WORDS[lang]["loose"].format(tiles=sentences_in(lang, picture)(tiles)) + "\n")


def _write_problems(problems: Sequence[str], notes: Sequence[str], out: TextIO, lang: Literal["fi", "en"] = "en",
                    picture: tuple[int, int] | None = None, numbered: bool = False) -> None:
    """Problems, then notes (what the rules settled), one a line, each said as what it is, in ``lang`` (``picture``: the
    size of the picture they are about, its places told in words too; ``numbered``: the problems numbered from 1, as
    the annotated picture marks them)."""
    say, words = sentences_in(lang, picture), CLI_WORDS[lang]
    for number, sentence in enumerate(problems, 1):
        out.write(f"{words['problem']}{f' {number}' if numbered else ''}: {say(sentence)}\n")
    for sentence in notes:
        out.write(f"{words['note']}: {say(sentence)}\n")


def _annotated(args: argparse.Namespace, image: np.ndarray, detections: Sequence[TileDetection], layout: Layout, board: Board,
               rules: GameRules, profile: Profile | None, unseen_ends: Sequence[tuple[float, float]], problems: Sequence[str],
               err: TextIO) -> int:
    """With ``--annotate``, the image with what was read drawn on it (each problem's places marked with its number),
    written; the exit status."""
    from scorer.layout.annotate import annotate_board

    if args.annotate:
        drawn = annotate_board(image, detections, layout, board, rules, profile.to_image if profile else None, unseen_ends,
                               problems if profile is None else (), args.lang)
        return 0 if _written(Path(args.annotate), drawn, args.lang, err) else 1
    return 0


def _written(target: Path, picture: np.ndarray, lang: str, err: TextIO) -> bool:
    """Whether ``picture`` was written to ``target``; said on ``err`` either way (the output stays the reading's)."""
    import cv2

    try:
        written = cv2.imwrite(str(target), picture)
    except cv2.error:  # (a name with no picture format it knows)
        written = False
    err.write(CLI_WORDS[lang]["annotated" if written else "not-annotated"].format(target=target) + "\n")
    return written


def _board_before(path: str, rules: GameRules) -> Board:
    """The board a ``board --json`` record holds (its first line), rebuilt and checked by ``rules``."""
    from scorer.errors import IllegalMove, TableError
    from scorer.rules.board_json import board_from_parts, board_parts

    try:
        text = Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        raise TableError(f"{path}: no such file (the board before: a file `board --json` wrote)") from None
    except IsADirectoryError:
        raise TableError(f"{path}: is a folder, not a board (the board before: a file `board --json` wrote)") from None
    except UnicodeDecodeError:
        raise TableError(f"{path}: not a board but a binary file (a picture?): the board before is the file "
                         "`board --json` wrote for the picture before") from None
    except OSError as exc:
        raise TableError(f"{path}: cannot read the board before: {exc.strerror or exc}") from None
    first = next((line for line in text.splitlines() if line.strip()), "")
    try:
        record = json.loads(first)
        tiles, joins = board_parts(record)
    except (ValueError, KeyError, TypeError) as exc:
        raise TableError(f"{path}: expected a board as `board --json` writes it (\"tiles\" and \"joins\"), found {first[:80]!r}") from exc
    if record.get("game", rules.key) != rules.key:
        raise TableError(f"{path}: the board before was read for {record['game']}, this picture is read for {rules.key} "
                         "(the same --game for both)")
    try:
        return board_from_parts(tiles, joins, rules.every_double_spins)
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
        record = {"path": args.image, "placements": _placements(before, change.placements, rules), **board_record(board, rules),
                  "loose": _loose(reading.layout), "problems": reading.problems, "notes": reading.notes}
        out.write(json.dumps(record) + "\n")
    else:
        _describe_move(before, change.placements, rules, args.lang, out)
        _write_loose(reading.layout, _picture(image, profile), out, args.lang)
        _write_problems(reading.problems, reading.notes, out, args.lang, _picture(image, profile), _numbered(args, profile))
    return _annotated(args, image, detections, reading.layout, board, rules, profile, [], reading.problems, err)


def _placements(before: Board, placements: Sequence[Placement], rules: GameRules) -> list[dict[str, object]]:
    """Each tile laid since ``before``, where (the tile it was put at, that tile's side and the value there) and what the
    board scored once it lay there (raw, and in the game's points)."""
    return [{"tile": p.tile.as_list(), "at": None if p.at is None else [p.at.tile.as_list(), p.at.side.value, p.at.value],
             "sum": after.end_sum(), "points": after.points(), "game_points": rules.game_points(after.points())}
            for p, after in _laid(before, placements)]


def _laid(before: Board, placements: Sequence[Placement]) -> list[tuple[Placement, Board]]:
    """Each placement since ``before`` with the board once it was laid, in order."""
    laid, board = [], before
    for p in placements:
        board = board.place(p.tile, p.at)
        laid.append((p, board))
    return laid


def _describe_move(before: Board, placements: Sequence[Placement], rules: GameRules, lang: Literal["fi", "en"], out: TextIO) -> None:
    from scorer.rules import describe_placement
    from scorer.rules.describe import side_name

    words = CLI_WORDS[lang]
    if not placements:
        out.write(words["no-move"] + "\n")
    for p, after in _laid(before, placements):
        head = words["new"] if p.at is None else words["new-at"].format(tile=p.at.tile, side=side_name(p.at.side, lang), value=p.at.value)
        out.write(f"{head}\n{describe_placement(p.tile, after, rules, lang)}\n")


# -- the commands' arguments (scorer/cli/__init__.py adds them in the order --help lists them)


def add_detect_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    detect = sub.add_parser(
        "detect", help="find every tile and read its pips in images",
        description="Find every tile in pictures of the table and read its pips. Each tile is listed with where it lies in "
                    "the picture (x, y in pixels from the top left): [low|high] face up, 'face down' for a back; 'uncertain "
                    "(0.62)' where the pips are not read surely (the confidence of the half read less surely): check that tile.",
        epilog="example: detect table.jpg --annotate table-read.png")
    detect.add_argument("images", nargs="+", metavar="IMAGE", help="pictures of the table from above (JPEG, PNG, BMP, TIFF, WebP)")
    detect.add_argument("--json", action="store_true",
                        help="one JSON object per image: its tiles (pips in the order of the box's corners, each half's "
                             "centre and confidence, the box's corners) and problems")
    detect.add_argument("--annotate", metavar="OUT.png",
                        help="draw what was read (with several images: OUT-000-NAME.png, ... one per image)")
    detect.add_argument("--lang", choices=("fi", "en"), default="en", help="language of the problems said (--json stays in English)")
    add_threads_argument(detect)
    detect.set_defaults(run=_detect)


def add_board_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    board = sub.add_parser(
        "board", help="rebuild the layout in an image as the game's spinner graph",
        description="Read one picture of the table and rebuild the layout as the game's rules see it: which tile is joined "
                    "to which (line A/B: a double's long sides, branch A/B: a spinner's short ends), the doubles that "
                    "spin, the open ends and the end sum with what it scores (raw points; in Horse Race also the game's "
                    "points, a fifth of them). Problems say what the players should check; with --annotate they are "
                    "numbered on the picture.",
        epilog="example: board table.jpg --game horse-race --annotate table-board.png --json > board.json; "
               "then, after the next move: board next.jpg --game horse-race --before board.json")
    board.add_argument("image", metavar="IMAGE", help="one picture of the table from above")
    board.add_argument("--game", choices=("horse-race", "seven-rocks"), required=True, help="the game played")
    board.add_argument("--calibration", metavar="NAME", help="a calibration profile (name or .json path)")
    board.add_argument("--json", action="store_true", help="the board as one JSON object (its tiles, joins, sum; --before reads it)")
    board.add_argument("--before", metavar="BOARD.json",
                       help="the board before the move (as `board --json` writes it): name the tile(s) laid since, and where")
    board.add_argument("--annotate", metavar="OUT.png",
                       help="draw what was read and the layout rebuilt, with a key (the picture's words in English)")
    board.add_argument("--lang", choices=("fi", "en"), default="en",
                       help="language of the board's description, its sums and problems (--json stays in English)")
    add_threads_argument(board)
    board.set_defaults(run=_board)


def _at_least_one(text: str) -> int:
    if not text.isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"expected a whole number of views, 1 or more; found {text!r}")
    return int(text)


def add_calibrate_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    cal = sub.add_parser("calibrate", help="find the printed target and save a table calibration profile")
    source = cal.add_mutually_exclusive_group(required=True)
    source.add_argument("--camera", type=int, metavar="N", help="a camera by its index (0: the first)")
    source.add_argument("--video", metavar="FILE", help="a recording of the target on the table")
    source.add_argument("--image", metavar="FILE", help="a picture of the target on the table")
    cal.add_argument("--name", default="default", help="profile name (default: default)")
    cal.add_argument("--views", type=_at_least_one, default=1, metavar="N",
                     help="views of the target in different places (video or camera), to measure the lens (default 1)")
    cal.add_argument("--replace", action="store_true", help="replace a profile of that name (else refused)")
    cal.add_argument("--dir", help="where to save profiles (default: the user's config folder)")
    cal.set_defaults(run=_calibrate)
