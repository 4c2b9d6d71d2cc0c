"""A phone streaming the table over Wi-Fi that drops out: figures for live play through it (prints, asserts nothing).

    .venv/bin/python benchmarks/camera_dropout.py [--drops 0 22:5 22:12] [--seed 201]

A recorded game (a generated film, made into datasets/generated/videos/ where missing) is served as a network
camera would serve it -- MJPEG over HTTP at its own pace on the wall clock, so that after a drop the stream goes
on where the game is by then (the phone kept filming) -- and scored live by ``scorer record --camera URL``, which
takes every question on the camera's best guess.  A drop ``AT:FOR`` refuses the stream from AT seconds of the game
for FOR seconds (the camera reopens itself while it can: 30 s).  Printed per run: the final scores against the
truth, the plays scored as in the truth (player and tile, in order), the questions asked, and the scores of the
recording ``record`` wrote, replayed (``scorer replay``).
"""

from __future__ import annotations

import argparse
import re
import signal
import subprocess
import sys
import tempfile
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import cv2

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "datasets")]

from dominosynth.video import VideoSpec, make_video  # noqa: E402

from scorer.rules import Play, RoundStart  # noqa: E402
from scorer.rules.transcript import read_log  # noqa: E402
from scorer.sessions import read_session  # noqa: E402

FILMS = ROOT / "datasets" / "generated" / "videos"


class Phone:
    """The film served at http://127.0.0.1:PORT/video.mjpg, its clock started at the first request."""

    def __init__(self, video: Path, drops: list[tuple[float, float]]) -> None:
        self.frames = _frames(video)
        self.fps = cv2.VideoCapture(str(video)).get(cv2.CAP_PROP_FPS)
        self.drops = drops
        self.started: float | None = None
        phone = self

        class Stream(BaseHTTPRequestHandler):
            def log_message(self, *args) -> None:  # (quiet)
                pass

            def do_GET(self) -> None:  # noqa: N802 (the handler's name)
                phone.serve(self)

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Stream)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/video.mjpg"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def now(self) -> float:
        return 0.0 if self.started is None else time.monotonic() - self.started

    def down(self) -> bool:
        return any(at <= self.now() < at + length for at, length in self.drops)

    def serve(self, handler: BaseHTTPRequestHandler) -> None:
        if self.started is None:
            self.started = time.monotonic()
        if self.down():
            handler.send_error(503)
            return
        handler.send_response(200)
        handler.send_header("Content-Type", "multipart/x-mixed-replace; boundary=frame")
        handler.end_headers()
        try:
            while not self.down():
                index = min(int(self.now() * self.fps), len(self.frames) - 1)
                jpeg = self.frames[index]
                handler.wfile.write(b"--frame\r\nContent-Type: image/jpeg\r\nContent-Length: %d\r\n\r\n" % len(jpeg)
                                    + jpeg + b"\r\n")
                time.sleep(max(0.0, (index + 1) / self.fps - self.now()))
        except (BrokenPipeError, ConnectionResetError):
            pass

    @property
    def seconds(self) -> float:
        return len(self.frames) / self.fps


def _frames(video: Path) -> list[bytes]:
    capture = cv2.VideoCapture(str(video))
    frames = []
    while True:
        ok, image = capture.read()
        if not ok:
            return frames
        frames.append(cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, 90])[1].tobytes())


def film(seed: int) -> tuple[Path, Path]:
    """A two-player Horse Race of two rounds, filmed (made where missing)."""
    video = FILMS / f"dropout-horse-race-2-{seed}.mp4"
    truth = video.with_suffix(".truth.jsonl")
    if not video.exists() or not truth.exists():
        FILMS.mkdir(parents=True, exist_ok=True)
        make_video(VideoSpec("horse-race", 2, False, seed, max_rounds=2), video, truth, video.with_suffix(".labels.jsonl"))
    return video, truth


def run(video: Path, truth: Path, drops: list[tuple[float, float]]) -> str:
    expected = read_log(truth.read_text(encoding="utf-8").splitlines())
    phone = Phone(video, drops)
    header = expected.header
    with tempfile.TemporaryDirectory() as folder:
        record = subprocess.Popen(
            [sys.executable, "-m", "scorer", "record", "--camera", phone.url, "--game", header.game, "--players",
             ",".join(header.players), "--starter", next(s.event.starter for s in expected.steps
                                                          if isinstance(s.event, RoundStart) and s.event.starter),
             "--out", f"{folder}/film", "--sessions", folder],
            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        while phone.started is None or phone.now() < phone.seconds + 8:
            time.sleep(0.5)
        record.send_signal(signal.SIGINT)
        try:
            said, _ = record.communicate(timeout=60)
        except subprocess.TimeoutExpired:  # (behind on a busy host: its session file holds every move written)
            record.kill()
            said, _ = record.communicate()
        phone.server.shutdown()
        logs = list(Path(folder).glob("*.jsonl"))
        scored = read_session(logs[0]).log if logs else None
        # The recording `record` wrote, replayed: the camera's gaps as the live scoring met them.
        subprocess.run([sys.executable, "-m", "scorer", "replay", f"{folder}/film", "--quiet", "--out", f"{folder}/replayed"],
                       cwd=ROOT, capture_output=True, text=True, timeout=600)
        again = list(Path(folder, "replayed").glob("*.jsonl"))
        replayed = read_session(again[0]).log.match.scores() if again else {}
    plays = [(s.event.player, s.event.tile) for s in expected.steps if isinstance(s.event, Play)]
    got = [(s.event.player, s.event.tile) for s in scored.steps if isinstance(s.event, Play)] if scored else []
    same = next((i for i, (a, b) in enumerate(zip(plays, got)) if a != b), min(len(plays), len(got)))
    questions = len(re.findall(r"^\s+[\d.]+s \? ", said, flags=re.MULTILINE))
    final = scored.match.scores() if scored else {}
    return (f"{', '.join(f'{at:g} s for {length:g} s' for at, length in drops) or 'no drop':<22} "
            f"scores {final} (truth {expected.match.scores()}): {'right' if final == expected.match.scores() else 'WRONG'}; "
            f"plays as in the truth, in order, before the first that is not: {same} of {len(plays)}; questions {questions}; "
            f"the recording replayed: {replayed} ({'the same' if replayed == final else 'NOT the same'})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--drops", nargs="+", default=["0", "22:5", "22:12"],
                        help="runs: 0 (no drop) or AT:FOR (seconds of the game), several joined by +")
    parser.add_argument("--seed", type=int, default=201)
    args = parser.parse_args()
    video, truth = film(args.seed)
    for spec in args.drops:
        drops = [] if spec == "0" else [tuple(map(float, part.split(":"))) for part in spec.split("+")]
        print(run(video, truth, drops), flush=True)  # type: ignore[arg-type]


if __name__ == "__main__":
    main()
