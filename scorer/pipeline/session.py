"""A running table session: the one way the CLI and the app build the pipeline that scores a match."""

from __future__ import annotations

from scorer.pipeline.core import PipelineConfig, TablePipeline
from scorer.pipeline.sources import FrameSource
from scorer.rules.history import MatchHistory
from scorer.vision.calibration import Profile, load_profile
from scorer.vision.detector import Detector, TileDetector


def open_table(history: MatchHistory, source: FrameSource, profile: Profile | None = None, *, starter: str | None = None,
               detector: Detector | None = None, threads: int = 2,
               still_seconds: float = PipelineConfig.still_seconds, uncalibrated: bool = False) -> TablePipeline:
    """The pipeline that scores ``history``'s match (a session's file, or memory) from ``source``'s frames.

    ``profile``: the table's calibration (by default the one the match's header names, if any);
    ``starter``: who opens the first round, where known (else the arm that lays the opening tile
    tells); ``detector``: what reads the tiles (by default the shipped models, as for live frames,
    on ``threads`` threads); ``still_seconds``: how long the table must be still to be read.
    ``uncalibrated``: read without a calibration, though the header names one (it is lost).  Every event goes through
    ``history``."""
    if profile is None and history.header.calibration and not uncalibrated:
        profile = load_profile(history.header.calibration)
    fps = getattr(source, "fps", 30.0) / getattr(source, "step", 1)
    config = PipelineConfig(starter=starter, profile=profile, still_seconds=still_seconds)
    return TablePipeline(history, detector if detector is not None else TileDetector.live(threads=threads), config, fps=fps)
