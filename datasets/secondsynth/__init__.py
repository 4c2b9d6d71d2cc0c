"""A second, independent renderer of domino game videos (Horse Race, Seven Rocks) seen by an overhead webcam.

``make_video(SecondSpec(...), video, log)`` acts out a simulated match on a drawn table and writes the video
(mp4) and its truth log (the session log, each event stamped with the second it became visible).  It shares
no code with ``dominosynth``: tiles, tables, arms, light and camera are drawn here from scratch.
"""

from .spec import CONDITIONS, SecondSpec
from .video import Plan, plan_video, make_video

__all__ = ["SecondSpec", "make_video", "plan_video", "Plan", "CONDITIONS"]
