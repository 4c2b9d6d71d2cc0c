"""The live and recorded pipeline: frames -> still tables -> tiles -> layout -> rules events."""

from scorer.pipeline.core import PipelineConfig, TablePipeline
from scorer.pipeline.events import MoveEvent, NeedsConfirmation, Notice, PipelineEvent, StatusChange, TableView
from scorer.pipeline.questions import pointed_at
from scorer.pipeline.session import open_table
from scorer.pipeline.sources import Camera, Frame, FrameSource, ImageFolder, SourceError, VideoFile

__all__ = [
    "PipelineConfig", "TablePipeline", "open_table", "MoveEvent", "NeedsConfirmation", "Notice", "PipelineEvent",
    "StatusChange", "TableView", "pointed_at", "Camera", "Frame", "FrameSource", "ImageFolder", "SourceError", "VideoFile",
]
