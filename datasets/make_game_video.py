"""Write synthetic game videos (and their ground-truth session logs) from the simulator.

    .venv/bin/python datasets/make_game_video.py --game horse-race --players 2 --seed 1 --out datasets/generated/videos
    .venv/bin/python datasets/make_game_video.py --demo        # the demo committed in scorer/data/
    .venv/bin/python datasets/make_game_video.py --find-demo 0 400   # seeds whose first round shows it all

Each video ``NAME.mp4`` comes with ``NAME.truth.jsonl``: the simulator's session log, every event
stamped with ``t``, the second it became visible.

The demo is one whole two-player Horse Race round (about a minute and a half, 15 fps: read every
frame, ``--step 1``): the opening, scoring plays, a player who scores and plays on, draws from the
boneyard, the last tile, the hands laid out and the rounded credit. ``--find-demo`` lists the seeds
whose first round holds all of it.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE), str(HERE.parent)]

from dominosynth.video import VideoSpec, make_video  # noqa: E402

from scorer.rules import Draw, Pass, Play, Reveal, RoundStart  # noqa: E402
from scorer.rules.log import dumps, event_to_json, header_to_json  # noqa: E402
from scorer.rules.simulate import simulate_match  # noqa: E402
from scorer.rules.transcript import Step, score_log  # noqa: E402

# Seed 203's first round (found by --find-demo): Ben opens with [5|5] for two points and plays on, scores
# again and plays on; 15 plays, 6 of them scoring, each followed by the same player's next tile; 3 draws
# from the boneyard (one in a turn that went on after a double); Ann plays her last tile, Ben's hand of
# 13 is rounded to 15: Ann +3. Five seconds a move leave time to hear each announcement; 15 fps, no lamp
# flicker and little sensor noise keep the file small (about 6 MB for 90 s); the hands stay on the
# table at the end, long enough to hear the count.
DEMO = VideoSpec("horse-race", 2, False, seed=203, fps=15.0, max_rounds=1, move_seconds=5.0, nudges=False,
                 flicker=False, noise=2.0, reveal_seconds=8.0, clear_last=False)
DEMO_STARTER = "Ben"  # who opens the demo's round (the app and the terminal demo say so)
DEMO_STEP = 1  # read every frame of the demo: 15 frames a second


def first_round(spec: VideoSpec) -> list[Step]:
    """The spec's first round, scored by the rules engine: every step from its start to its reveal."""
    names = ["Ann", "Ben", "Cid", "Dee"][: spec.players]
    sim = simulate_match(spec.game, spec.players, spec.partnership, seed=spec.seed, names=names)
    lines = [dumps(header_to_json(sim.header))]
    for n, step in enumerate(sim.events):
        if isinstance(step.event, RoundStart) and n:
            break
        lines.append(dumps(event_to_json(step.event)))
    _, steps = score_log(lines)
    return list(steps)


def what_it_shows(steps: list[Step]) -> dict[str, int]:
    """How often a round shows each thing the demo must show (0: missing)."""
    plays = [s for s in steps if isinstance(s.event, Play)]
    continued = sum(
        1 for a, b in zip(steps, steps[1:])
        if isinstance(a.event, Play) and a.outcome.raw_points and a.outcome.continues  # type: ignore[union-attr]
        and isinstance(b.event, Play) and b.event.player == a.event.player
    )
    last = steps[-1] if steps else None
    reveal = last is not None and isinstance(last.event, Reveal) and not last.outcome.blocked  # type: ignore[union-attr]
    rounded = 0
    if reveal:
        assert last is not None
        rounded = sum(1 for p, t in zip(last.outcome.hand_pips, last.outcome.hand_totals) if p and p != t)  # type: ignore[union-attr]
    return {
        "plays": len(plays),
        "scoring plays": sum(1 for s in plays if s.outcome.raw_points),  # type: ignore[union-attr]
        "scored and played on": continued,
        "draws": sum(1 for s in steps if isinstance(s.event, Draw)),
        "passes": sum(1 for s in steps if isinstance(s.event, Pass)),
        "domino and reveal": int(reveal),
        "hands rounded": rounded,
        "credit": sum(max(c, 0) for c in last.outcome.raw_changes) if reveal else 0,  # type: ignore[union-attr]
    }


def find_demo(start: int, stop: int, starter: str = DEMO_STARTER) -> None:
    for seed in range(start, stop):
        spec = VideoSpec("horse-race", 2, False, seed=seed)
        steps = first_round(spec)
        shows = what_it_shows(steps)
        if steps[0].after.next_player != starter or shows["passes"] or shows["plays"] > 16:
            continue
        if all(shows[k] for k in ("scoring plays", "scored and played on", "draws", "domino and reveal", "hands rounded", "credit")):
            print(seed, shows)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", default="horse-race", choices=("horse-race", "seven-rocks"))
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--partnership", action="store_true")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rounds", type=int, default=None, help="stop after this many rounds")
    parser.add_argument("--events", type=int, default=None, help="stop after this many events")
    parser.add_argument("--out", type=Path, default=HERE / "generated" / "videos")
    parser.add_argument("--demo", action="store_true", help="write the demo to scorer/data/")
    parser.add_argument("--find-demo", nargs=2, type=int, metavar=("START", "STOP"),
                        help="list the seeds from START to STOP whose first round would make a demo")
    args = parser.parse_args()
    if args.find_demo:
        find_demo(*args.find_demo)
        return
    if args.demo:
        out = HERE.parent / "scorer" / "data"
        make_video(DEMO, out / "demo.mp4", out / "demo.truth.jsonl")
        print(f"wrote {out / 'demo.mp4'}")
        return
    args.out.mkdir(parents=True, exist_ok=True)
    name = f"{args.game}-{args.players}{'p' if args.partnership else ''}-{args.seed}"
    spec = VideoSpec(args.game, args.players, args.partnership, args.seed, max_rounds=args.rounds, max_events=args.events)
    make_video(spec, args.out / f"{name}.mp4", args.out / f"{name}.truth.jsonl")
    print(f"wrote {args.out / name}.mp4")


if __name__ == "__main__":
    main()
