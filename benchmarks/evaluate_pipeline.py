"""Figures for the live/recorded pipeline on generated game videos (prints, asserts nothing).

    .venv/bin/python benchmarks/evaluate_pipeline.py [--rounds 2] [--memory-minutes 60] [--conditions main evening drift ...]
        [--renderer second]

Videos (1280x720, 30 fps) are made from the simulator with arms, draws, nudges, flicker and
hand reveals (datasets/dominosynth/video.py), into datasets/generated/videos/.  Each is
replayed three times: with a detector that knows the truth (which isolates the pipeline's
own logic); with the shipped model, nobody answering its questions; and with the model and a
player answering them (as at a table: the right alternative, or the move entered by hand).
`--conditions` films the same games under what a real evening adds (datasets/dominosynth/evening.py:
drift, shadow, hover, bump, lamp, lean, brush, focus; `evening` is the first four, `all` these eight; and
`dim`, the lights dimmed mid-game past reading), each set of conditions reported apart; `--renderer second` films them with the independent second renderer
(datasets/secondsynth/) instead.
Printed: events right / events total (plays, draws, passes, round starts, reveals, in order), confirmations asked, what keeps the
camera from reading well where it was told (a picture too dark, too grainy, tiles too small), replay speed, the latency
from a still table to its event, and the memory over a long replay.
"""

from __future__ import annotations

import argparse
import difflib
import json
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "datasets")]

from dominosynth.evening import conditions_name, parse_conditions  # noqa: E402
from dominosynth.truth import TruthDetector  # noqa: E402
from dominosynth.video import VideoSpec, make_video  # noqa: E402

from scorer.pipeline import NeedsConfirmation, Notice, PipelineConfig, TablePipeline, VideoFile  # noqa: E402
from scorer.pipeline.notices import CAMERA_UNFIT  # noqa: E402
from scorer.pipeline.replay import run  # noqa: E402
from scorer.pipeline.sources import Frame  # noqa: E402
from scorer.rules import Reveal  # noqa: E402
from scorer.rules.log import MatchHeader, event_to_json, parse_event  # noqa: E402
from scorer.rules.transcript import score_log  # noqa: E402
from scorer.vision import TileDetector  # noqa: E402

OUT = ROOT / "datasets" / "generated" / "videos"
TABLES = [
    ("horse-race", 2, False, 101),
    ("horse-race", 3, False, 102),
    ("horse-race", 4, False, 103),
    ("horse-race", 4, True, 104),
    ("seven-rocks", 4, True, 105),
    ("seven-rocks", 4, True, 106),
]


def key(d: dict) -> tuple:
    # (A round's starter too: a round credited to the wrong starter is scored wrong from its first tile.)
    return (d["type"], d.get("player") or d.get("starter"), tuple(d.get("tile", ())), d.get("count"))


def told(event) -> tuple:
    """What a player checks an answer offered by: the event's key, and for hands laid out, the tiles."""
    if isinstance(event, Reveal):
        return ("reveal", tuple(sorted((player, tuple(sorted(hand))) for player, hand in event.hands)))
    return key(event_to_json(event))


def merged_draws(keys: list[tuple]) -> list[tuple]:
    """The events' keys with a player's draws in a row as one (two draws of one tile are a draw of two)."""
    out: list[tuple] = []
    for k in keys:
        if out and k[0] == "draw" and out[-1][0] == "draw" and out[-1][1] == k[1]:
            out[-1] = (*out[-1][:3], out[-1][3] + k[3])
        else:
            out.append(k)
    return out


def truth_events(lines: list[str]) -> list[dict]:
    """The truth log's events, each round's starter named (the log leaves out one the rules name)."""
    _, steps = score_log(lines)
    out = []
    for line, step in zip(lines[1:], steps):
        d = json.loads(line)
        if d["type"] == "round" and "starter" not in d and step.before.next_starter is not None:
            d["starter"] = step.before.players[step.before.next_starter]
        out.append(d)
    return out


def rss_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


class AnsweringPlayer:
    """A player at the table who answers the pipeline's questions as the app lets them: picks the
    alternative that is what happened, or, where none is, enters the moves made so far by hand;
    with nothing to enter yet, answers "later".  Once the scoring has gone wrong without a question
    the player does not step in (the figures then show it)."""

    def __init__(self, truth_lines: list[str]) -> None:
        self.truth = [(d["t"], parse_event(d)) for d in truth_events(truth_lines)]
        self.chosen = self.entered = self.later = self.off = 0

    def answer(self, ask: NeedsConfirmation, pipeline: TablePipeline) -> list:
        done = [key(event_to_json(s.event)) for s in pipeline.history.steps]
        i = len(done)
        if done != [key(event_to_json(e)) for _, e in self.truth[:i]]:
            self.off += 1
            return []
        for alternative in ask.alternatives:
            happened = [e for _, e in self.truth[i : i + len(alternative)]]
            if [told(e) for e in alternative] == [told(e) for e in happened]:
                self.chosen += 1
                return pipeline.confirm(alternative, ask.t)
        so_far = [e for t, e in self.truth[i:] if t <= ask.t]
        if not so_far:
            self.later += 1
            return []
        self.entered += 1
        return pipeline.confirm(so_far, ask.t)


def replay(video: Path, header: MatchHeader, detector, follow=None, player: AnsweringPlayer | None = None, step: int = 2):
    source = VideoFile(video, step=step)
    pipeline = TablePipeline(header.new_match(), detector, PipelineConfig(), fps=source.fps / step)
    asks = []
    unfit: list[Notice] = []  # (what keeps the camera from reading well, told: reported with the video)

    def on_event(e) -> None:
        if isinstance(e, Notice) and isinstance(e.said, CAMERA_UNFIT):
            unfit.append(e)
        if isinstance(e, NeedsConfirmation):
            asks.append(e)
            if player is not None:
                for answered in player.answer(e, pipeline):
                    on_event(answered)

    stats = run(follow(source) if follow else source, pipeline, on_event)
    return pipeline, asks, stats, unfit


def game_video(game: str, n: int, partnership: bool, seed: int, rounds: int, style: str = "main",
               distance: float = 1.0, conditions: frozenset[str] = frozenset(),
               renderer: str = "dominosynth") -> tuple[str, Path, Path, Path]:
    """The game's video, truth log and labels, made if missing.  A game whose layout would run off
    the table is taken with the seed 1000 on (and so on): the same game for every run."""
    for _ in range(10):
        name = (f"{game}-{n}{'p' if partnership else ''}-{seed}-r{rounds}" + ("" if style == "main" else f"-{style}")
                + ("" if distance == 1.0 else f"-far{distance:g}")
                + ("" if not conditions else f"-{conditions_name(conditions)}")
                + ("" if renderer == "dominosynth" else f"-{renderer}"))
        video, truth_log, labels = OUT / f"{name}.mp4", OUT / f"{name}.truth.jsonl", OUT / f"{name}.labels.jsonl"
        if video.exists() and truth_log.exists():
            return name, video, truth_log, labels
        try:
            if renderer == "second":
                from secondsynth import SecondSpec, make_video as make_second

                make_second(SecondSpec(game, n, partnership, seed, max_rounds=rounds, conditions=conditions), video, truth_log)
            else:
                make_video(VideoSpec(game, n, partnership, seed, max_rounds=rounds, style=style, distance=distance,
                                     conditions=conditions), video, truth_log, labels)
            return name, video, truth_log, labels
        except RuntimeError as exc:
            if "does not fit" not in str(exc):
                raise
            seed += 1000
    raise RuntimeError(f"no {game} game laid out on the table from ten seeds")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--memory-minutes", type=float, default=60)
    parser.add_argument("--tables", type=int, default=len(TABLES))
    parser.add_argument("--only", type=int, nargs="+", default=[],
                        help="only these tables, by their set 0 seed (101-106), to look again at one game")
    parser.add_argument("--set", type=int, default=0, help="another set of games: the same tables, seeds offset by 100 x SET")
    parser.add_argument("--style", default="main", choices=("main", "cross"),
                        help="the videos' look: main, or cross (the detector's held-out other style: sets and tables it was not trained on)")
    parser.add_argument("--distance", type=float, default=1.0,
                        help="the camera this many times further from the table than usual (1.6: tiles about 39 px long, not 62)")
    parser.add_argument("--detectors", default="truth,model,answered",
                        help="which runs: truth (a detector that knows the truth), model (the shipped model, nobody "
                             "answering its questions), answered (the model, with a player answering them)")
    parser.add_argument("--step", type=int, default=2,
                        help="read every STEP-th frame (1: every frame, as a camera at 30 fps under a flickering lamp)")
    parser.add_argument("--conditions", nargs="+", default=["main"],
                        help="sets of conditions, each reported apart: main (none), evening (drift+shadow+hover+bump), "
                             "all (the eight before dim), or names joined by + (drift, shadow, hover, bump, lamp, lean, brush, focus, dim)")
    parser.add_argument("--renderer", default="dominosynth", choices=("dominosynth", "second"),
                        help="which renderer films the games: the generator's own, or the independent second one")
    args = parser.parse_args()
    tables = [t for t in TABLES[: args.tables] if not args.only or t[3] in args.only]
    if unknown := set(args.only) - {t[3] for t in tables}:
        parser.error(f"--only {sorted(unknown)}: expected set 0 seeds of the tables run, {[t[3] for t in TABLES[: args.tables]]}")
    OUT.mkdir(parents=True, exist_ok=True)
    labels_wanted = args.detectors.split(",")
    # A new detector for every replay, as every session at a table starts with one: the live detector
    # follows the tiles' size from frame to frame, and a film must not start at the size the last one ended at.
    def model() -> TileDetector:
        return TileDetector.live(threads=2)

    players: list[AnsweringPlayer] = []
    speeds, latencies = [], []
    summary = []
    for condition_text in args.conditions:
        conditions = parse_conditions(condition_text)
        title = conditions_name(conditions) or "main"
        totals = {label: [0, 0, 0, 0, 0] for label in labels_wanted}
        for game, n, partnership, seed in tables:
            name, video, truth_log, labels = game_video(game, n, partnership, seed + 100 * args.set, args.rounds, args.style,
                                                        args.distance, conditions, args.renderer)
            names = ("Ann", "Ben", "Cid", "Dee")[:n]
            header = MatchHeader(game, names, partnership)
            truth = merged_draws([key(d) for d in truth_events(truth_log.read_text().splitlines())])
            _, truth_steps = score_log(truth_log.read_text().splitlines())
            truth_scores = list(truth_steps)[-1].after.scores()
            results = {}
            for label in labels_wanted:
                if label == "truth":
                    if not labels.exists():
                        continue  # (the second renderer writes no labels)
                    det = TruthDetector(labels)
                    pipeline, asks, stats, unfit = replay(video, header, det, det.follow, step=args.step)
                elif label == "answered":
                    players.append(AnsweringPlayer(truth_log.read_text().splitlines()))
                    pipeline, asks, stats, unfit = replay(video, header, model(), player=players[-1], step=args.step)
                else:
                    pipeline, asks, stats, unfit = replay(video, header, model(), step=args.step)
                    speeds.append(stats.speed)
                    latencies += stats.latencies
                # The match as its log holds it (a draw found missed at a round's end rewrites the round).
                got = merged_draws([key(event_to_json(s.event)) for s in pipeline.history.steps])
                matcher = difflib.SequenceMatcher(a=truth, b=got, autojunk=False)
                right = sum(b.size for b in matcher.get_matching_blocks())
                # Exact prefix: how far the match is scored exactly as the simulator did.
                prefix = next((i for i, (a, b) in enumerate(zip(truth, got)) if a != b), min(len(truth), len(got)))
                same = pipeline.match.scores() == truth_scores
                plays = sum(1 for k in truth if k[0] == "play")
                for i, v in enumerate((right, len(truth), len(asks), same, plays)):
                    totals[label][i] += v
                told_unfit = "".join(f", told at {n.t:.1f} s: {type(n.said).__name__}" for n in unfit)
                results[label] = (f"{right}/{len(truth)} right ({prefix} in a row from the start), {len(asks)} asked, "
                                  f"final scores {'equal' if same else 'differ'}{told_unfit}")
            speed = f" | {speeds[-1]:.1f}x real time" if speeds else ""
            print(f"{name}: video {stats.video_seconds:.0f} s | " + " | ".join(f"{k}: {v}" for k, v in results.items()) + speed,
                  flush=True)
        for label in labels_wanted:
            r, t, a, same, plays = totals[label]
            line = (f"{title} ({args.renderer}), {label:<8}: events right {r}/{t} ({100 * r / max(1, t):.1f}%; passes of a "
                    f"blocked round are not visible and are proved by the revealed hands instead), confirmations asked {a} "
                    f"({50 * a / max(1, plays):.2f} per 50 plays), videos ending with the simulator's scores "
                    f"{same}/{len(tables)}")
            print(line, flush=True)
            summary.append(line)
    if len(summary) > len(labels_wanted):
        print("\nall sets of conditions:")
        print("\n".join(summary))
    if players:
        print(f"the answering player: chose the right alternative {sum(p.chosen for p in players)} times, entered moves by hand "
              f"{sum(p.entered for p in players)}, answered later {sum(p.later for p in players)}, "
              f"found the scoring already wrong {sum(p.off for p in players)}")
    if speeds:
        print(f"replay speed (model, 1280x720 30 fps, one frame in {args.step} read): median {statistics.median(speeds):.1f}x real time")
    if latencies:
        ms = sorted(1000 * x for x in latencies)
        print(f"processing of the still frame that gives a move's event: median {statistics.median(ms):.0f} ms, "
              f"p90 {ms[int(0.9 * len(ms))]:.0f} ms, max {ms[-1]:.0f} ms; plus the {PipelineConfig().still_seconds:.1f} s of stillness waited for")
        wait = PipelineConfig().still_seconds * 1000
        print(f"latency from the table becoming still to the move's event (the wait plus that processing): "
              f"median {(wait + statistics.median(ms)) / 1000:.2f} s, p90 {(wait + ms[int(0.9 * len(ms))]) / 1000:.2f} s, "
              f"max {(wait + ms[-1]) / 1000:.2f} s")
    if args.memory_minutes and {"model", "answered"} & set(labels_wanted):
        memory(OUT / sorted(p.name for p in OUT.glob("*.mp4"))[0], model(), args.memory_minutes)


def memory(video: Path, model, minutes: float) -> None:
    """Replay one video over and over (a long evening), printing the resident memory at 10 and 60 minutes."""

    class Looped:
        def __init__(self, path: Path, until_s: float) -> None:
            self.inner = VideoFile(path, step=2)
            self.fps = self.inner.fps
            self.until = until_s

        def frames(self):
            offset, index = 0.0, 0
            while offset < self.until:
                last = 0.0
                for f in self.inner.frames():
                    yield Frame(index, offset + f.t, f.image)
                    index += 1
                    last = f.t
                offset += last + 1 / self.fps

    header = MatchHeader("horse-race", ("Ann", "Ben", "Cid", "Dee")[: 2], False)
    pipeline = TablePipeline(header.new_match(), model, PipelineConfig(), fps=15)
    marks = {600.0: None, minutes * 60: None}
    start = time.perf_counter()
    for frame in Looped(video, minutes * 60).frames():
        pipeline.feed(frame)
        for mark in marks:
            if marks[mark] is None and frame.t >= mark:
                marks[mark] = rss_mb()
    wall = time.perf_counter() - start
    for mark, mb in marks.items():
        print(f"memory after {mark / 60:.0f} min of video: {mb:.0f} MB resident")
    print(f"({minutes:.0f} min of video replayed in {wall / 60:.1f} min)")


if __name__ == "__main__":
    main()
