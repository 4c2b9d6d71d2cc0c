"""Write synthetic game videos (and their ground-truth session logs) from the simulator.

    .venv/bin/python datasets/make_game_video.py --game horse-race --players 2 --seed 1 --out datasets/generated/videos
    .venv/bin/python datasets/make_game_video.py --demo        # the short demo committed in scorer/data/

Each video ``NAME.mp4`` comes with ``NAME.truth.jsonl``: the simulator's session log, every event
stamped with ``t``, the second it became visible.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE), str(HERE.parent)]

from dominosynth.video import VideoSpec, make_video  # noqa: E402

DEMO = VideoSpec("horse-race", 2, False, seed=7, max_events=7, move_seconds=1.5, nudges=False)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", default="horse-race", choices=("horse-race", "seven-rocks"))
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--partnership", action="store_true")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rounds", type=int, default=None, help="stop after this many rounds")
    parser.add_argument("--events", type=int, default=None, help="stop after this many events")
    parser.add_argument("--out", type=Path, default=HERE / "generated" / "videos")
    parser.add_argument("--demo", action="store_true", help="write the short demo to scorer/data/")
    args = parser.parse_args()
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
