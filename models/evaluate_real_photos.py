"""The shipped model on real overhead photographs (../shared/real-photos), never trained on (prints only).

    .venv/bin/python models/evaluate_real_photos.py [--photos ../shared/real-photos] [--annotate OUT_DIR] [--scale S] [--turn DEG] [--tilt DEG]
        [--light F [--exposure]] [--blur SIGMA] [--motion PX]

For the photos labelled by hand in models/real-photos-labels.json (all 33 since session 9): face-up
tiles found and read exactly (as a multiset per photo), face-up readings of no labelled tile (false or
misread), face-down tiles found, and how many readings the app would have asked about.
For all photos: the tiles found, face up and down, and the uncertain share.  Then the layouts, read
as the ``board`` command reads an image (horse-race rules): the chains the labels give as joined
tiles rebuilt with exactly those joins and nothing to ask, the chains the rules do not allow
reported as a problem, the photos of loose tiles rebuilt with no join -- and, for each chain, the
move of laying each of its end tiles last, read with the board before known (``read_move``: the
chain without that tile, from the labels).  ``--scale`` reads
each photo resized first (0.5: a 320x240 camera; 3: a high-resolution one seeing the same table);
``--turn`` turns it first by that many degrees about its centre (the camera turned over the table), and
``--tilt`` shows it as a camera tilted that many degrees further off overhead would see it, each on a
canvas grown to hold all of it, the photo fading at its edges into the colour of its border; ``--light``
scales its light (0.3: a dim room), with the noise of a sensor turned up to make up for it, and
``--exposure`` brightens that picture back, noise and all, as a webcam's automatic exposure does; ``--blur``
blurs the picture as read by a Gaussian of that sigma (px: a camera out of focus), ``--motion`` streaks it
that many px along its width (a camera or a hand moving).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

import cv2  # noqa: E402
import numpy as np  # noqa: E402

from scorer.layout import read_board, read_move  # noqa: E402
from scorer.rules import Board, Tile  # noqa: E402
from scorer.vision import TileDetector, load_image  # noqa: E402
from scorer.vision.annotate import annotate  # noqa: E402


@dataclass(frozen=True)
class Conditions:
    """How each photo is changed before it is read (the module's doc)."""

    scale: float = 1.0
    turn: float = 0.0
    tilt: float = 0.0
    light: float = 1.0
    exposure: bool = False
    blur: float = 0.0
    motion: int = 0


def _read(path: Path, conditions: Conditions) -> np.ndarray:
    """The photo as the camera of ``conditions`` gives it; the blur and the streak last, on the picture as
    read (so with ``--light`` they smooth the sensor's noise too)."""
    image = _as_seen(load_image(path), conditions)
    if conditions.blur:
        image = cv2.GaussianBlur(image, (0, 0), conditions.blur)
    if conditions.motion > 1:
        streak = np.zeros((conditions.motion, conditions.motion), np.float32)
        streak[conditions.motion // 2] = 1.0 / conditions.motion
        image = cv2.filter2D(image, -1, streak)
    return image


def _as_seen(image: np.ndarray, conditions: Conditions) -> np.ndarray:
    """The photo in the light, at the scale and from the view ``conditions`` give."""
    scale, turn, tilt, light = conditions.scale, conditions.turn, conditions.tilt, conditions.light
    if light != 1.0:
        # A dimmer (or brighter) room: the light scaled, and a dim sensor's noise -- its gain raised to
        # make up for the light -- grown as the light falls.  With ``exposure`` the camera brightens
        # the picture back (noise and all), as a webcam's automatic exposure does.
        noise = np.random.default_rng(0).normal(0.0, 2.0 / min(1.0, light), image.shape)
        image = (image.astype(np.float32) * light + noise) / (light if conditions.exposure else 1.0)
        image = np.clip(image, 0, 255).astype(np.uint8)
    if scale != 1.0:
        image = cv2.resize(image, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA if scale < 1.0 else cv2.INTER_CUBIC)
    h, w = image.shape[:2]
    view = np.eye(3)
    if tilt:
        # The camera turned about its own centre, tilting away from overhead: the photo seen through
        # the homography K R K^-1 (a webcam's field of view, about 50 degrees across).
        f = 1.1 * max(w, h)
        k = np.array([[f, 0, w / 2], [0, f, h / 2], [0, 0, 1]])
        t = np.radians(tilt)
        r = np.array([[1, 0, 0], [0, np.cos(t), -np.sin(t)], [0, np.sin(t), np.cos(t)]])
        view = k @ r @ np.linalg.inv(k)
    if turn % 360:
        view = np.vstack([cv2.getRotationMatrix2D((w / 2, h / 2), turn, 1.0), [0, 0, 1]]) @ view
    return image if np.allclose(view, np.eye(3)) else _seen_through(image, view)


def _seen_through(image: np.ndarray, view: np.ndarray) -> np.ndarray:
    """The photo mapped by ``view`` (3x3) onto a canvas grown to hold all of it, its corners clear of the
    canvas's edge, fading at its own edges into the colour of its border: a hard edge there would be
    one no camera sees, and a detector may take it for a tile's."""
    h, w = image.shape[:2]
    corners = cv2.perspectiveTransform(np.float64([[[0, 0], [w, 0], [w, h], [0, h]]]), view)[0]
    margin = 0.05 * max(w, h)
    low = corners.min(0) - margin
    size = np.ceil(corners.max(0) + margin - low).astype(int)
    view = np.array([[1, 0, -low[0]], [0, 1, -low[1]], [0, 0, 1]]) @ view
    border = np.concatenate([image[0], image[-1], image[:, 0], image[:, -1]])
    fill = np.median(border, axis=0).astype(np.float32)
    seen = cv2.warpPerspective(image, view, (int(size[0]), int(size[1])), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    inside = cv2.warpPerspective(np.ones((h, w), np.float32), view, (int(size[0]), int(size[1])), flags=cv2.INTER_LINEAR, borderValue=0.0)
    inside = cv2.GaussianBlur(inside, (0, 0), 0.02 * max(w, h))[..., None]
    return np.clip(seen.astype(np.float32) * inside + fill * (1 - inside), 0, 255).astype(np.uint8)


def check_layouts(photos: Path, layouts: dict, conditions: Conditions) -> None:
    """Each photo's layout as the ``board`` command reads it, against the labels (see the module's doc)."""
    detector = TileDetector.thorough()
    right = chains = refused = illegal = apart = loose = moves = moves_right = silent = moves_silent = 0
    for path in sorted(photos.glob("*.jpg")):
        image = _read(path, conditions)
        detections = detector.detect(image)
        reading = read_board(detections, every_double_spins=True, image=image)
        seen = {frozenset((j.tile, j.new_tile)) for j in reading.board.joins}
        said = ", ".join("-".join(str(t) for t in sorted(pair)) for pair in sorted(seen, key=sorted)) or "none"
        label = layouts.get(path.name, {"joins": []})
        if "skip" in label:
            print(f"  layout {path.name}: left out ({label['skip']}); joins read: {said}")
            continue
        if "not legal" in label:
            illegal += 1
            refused += not reading.sure
            verdict = "reported" if not reading.sure else "NOT reported"
        else:
            want = {frozenset((Tile.of(*a), Tile.of(*b))) for a, b in label["joins"]}
            ok = seen == want and (reading.sure or not want)  # (loose tiles: unsure ones are asked about, not joined)
            if want:
                chains += 1
                right += ok
                pairs = [(Tile.of(*a), Tile.of(*b)) for a, b in label["joins"]]
                for last, verdict in _moves_read(pairs, detections, image):
                    moves += 1
                    moves_right += verdict == "right"
                    moves_silent += verdict == "WRONG without a word"
                    if verdict != "right":
                        print(f"  layout {path.name}: the move laying {last} last {verdict}")
            else:
                loose += 1
                apart += ok
            if ok:
                verdict = "right"
            elif not reading.sure:
                what = "right, but asked about" if "joins" in label and seen == want else "wrong, asked about"
                verdict = f"{what} (joins read: {said}; problems {reading.problems[:2]})"
            else:
                silent += 1
                verdict = f"WRONG without a word (joins read: {said})"
        if path.name in layouts or seen:
            print(f"  layout {path.name}: {verdict}")
    print(f"layouts: {right}/{chains} chains rebuilt with exactly their joins and nothing asked; {refused}/{illegal} chains "
          f"the rules do not allow reported as a problem; {apart}/{loose} photos of loose tiles with no join found; "
          f"{silent + illegal - refused} read wrong without a word")
    print(f"moves (a chain's end tile laid last, the board before known): {moves_right}/{moves} named at the right free point,"
          f" with the right sum, nothing asked; {moves_silent} read wrong without a word")


def _chain_board(pairs: list[tuple[Tile, Tile]]) -> Board:
    """The horse-race board of a chain given as joined pairs: laid from its first pair's first tile, each
    tile on the line side of its neighbour that shows the value they share."""
    board = Board(True).place(pairs[0][0])
    pending = list(pairs)
    while pending:
        a, b = next((a, b) for a, b in pending if (a in board) != (b in board))
        old, new = (a, b) if a in board else (b, a)
        shared = {old.a, old.b} & {new.a, new.b}
        point = next(p for p in board.free_points() if p.tile == old and p.value in shared and not p.side.is_branch)
        board = board.place(new, point)
        pending.remove((a, b))
    return board


def _moves_read(pairs: list[tuple[Tile, Tile]], detections, image) -> list[tuple[Tile, str]]:
    """For each end tile of the chain, how ``read_move``, given the chain without it, reads laying it: "right"
    (named at its neighbour's free point with the whole chain's sum, nothing to ask), "asked about" (the
    players asked), or "WRONG without a word"."""
    truth = _chain_board(pairs)
    out = []
    for last in truth.tiles:
        joined = [pair for pair in pairs if last in pair]
        if len(joined) != 1:
            continue
        neighbour = next(t for t in joined[0] if t != last)
        rest = [pair for pair in pairs if last not in pair]
        before = _chain_board(rest) if rest else Board(True).place(neighbour)
        move = read_move(before, detections, image=image)
        placed = move.change.placements
        named = ([p.tile for p in placed] == [last] and placed[0].at.tile == neighbour and move.change.board is not None
                 and move.change.board.end_sum() == truth.end_sum())
        out.append((last, "asked about" if not move.sure else "right" if named else "WRONG without a word"))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--photos", type=Path, default=HERE.parent.parent / "shared" / "real-photos")
    parser.add_argument("--annotate", type=Path, help="write annotated copies here (outside the repo)")
    parser.add_argument("--scale", type=float, default=1.0, help="resize each photo by this factor before reading it")
    parser.add_argument("--turn", type=float, default=0.0, help="turn each photo by this many degrees before reading it")
    parser.add_argument("--light", type=float, default=1.0, help="scale each photo's light by this factor (with a dim sensor's noise) before reading it")
    parser.add_argument("--exposure", action="store_true",
                        help="with --light, the camera's exposure brightens the dim picture back, its noise too")
    parser.add_argument("--tilt", type=float, default=0.0, help="see each photo as a camera tilted this many degrees further off overhead would")
    parser.add_argument("--blur", type=float, default=0.0, help="blur each picture as read by a Gaussian of this sigma, px (out of focus)")
    parser.add_argument("--motion", type=int, default=0, help="streak each picture as read this many px along its width (moving)")
    args = parser.parse_args()
    if not args.photos.is_dir():
        print(f"{args.photos}: no photos folder; nothing to check")
        return
    labelled = json.loads((HERE / "real-photos-labels.json").read_text())
    conditions = Conditions(scale=args.scale, turn=args.turn, tilt=args.tilt, light=args.light, exposure=args.exposure,
                            blur=args.blur, motion=args.motion)
    labels, backs = labelled["photos"], labelled.get("backs", {})
    detector = TileDetector()
    right = total = found = asked = wrong = 0
    backs_found = backs_total = extra_backs = 0
    all_up = all_down = all_unsure = 0
    for path in sorted(args.photos.glob("*.jpg")):
        image = _read(path, conditions)
        tiles = detector.detect(image)
        up = [t for t in tiles if t.face == "up"]
        all_up += len(up)
        all_down += len(tiles) - len(up)
        all_unsure += sum(not t.certain for t in up)
        if args.annotate:
            args.annotate.mkdir(parents=True, exist_ok=True)
            cv2.imwrite(str(args.annotate / f"{path.stem}.png"), annotate(image, tiles))
        if path.name in labels:
            truth = Counter(Tile.of(*t) for t in labels[path.name])
            read = Counter(Tile.of(*t.pips) for t in up)
            hit = sum((truth & read).values())
            right += hit
            total += sum(truth.values())
            found += min(len(up), sum(truth.values()))
            wrong += len(up) - hit
            asked += sum(not t.certain for t in up)
            down = len(tiles) - len(up)
            backs_found += min(down, backs.get(path.name, 0))
            extra_backs += max(0, down - backs.get(path.name, 0))
            backs_total += backs.get(path.name, 0)
            print(f"{path.name}: truth {sorted(map(str, truth.elements()))}, read {sorted(map(str, read.elements()))}, "
                  f"{hit}/{sum(truth.values())} right, {sum(not t.certain for t in up)} unsure, "
                  f"{down} face down ({backs.get(path.name, 0)} labelled)")
    print(f"labelled photos: {right}/{total} tiles read exactly; {found}/{total} found; {wrong} face-up readings of no labelled tile; "
          f"{backs_found}/{backs_total} face-down tiles found, {extra_backs} backs seen where none lies; {asked} readings would be asked about")
    print(f"all {len(list(args.photos.glob('*.jpg')))} photos: {all_up} face-up and {all_down} face-down detections, "
          f"{all_unsure} face-up readings unsure")
    check_layouts(args.photos, {k: v for k, v in labelled.get("layouts", {}).items() if k != "about"}, conditions)


if __name__ == "__main__":
    main()
