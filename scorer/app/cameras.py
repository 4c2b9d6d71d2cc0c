"""The cameras on this computer, found by opening each of the first few."""

from __future__ import annotations

CAMERAS_PROBED = 4


def camera_available(index: int = 0) -> bool:
    import cv2
    from cv2.utils import logging as cv_logging

    # (A camera that is not there is no error: OpenCV's own complaints about it stay out of the terminal.)
    level = cv_logging.getLogLevel()
    cv_logging.setLogLevel(cv_logging.LOG_LEVEL_SILENT)
    try:
        cap = cv2.VideoCapture(index)
        ok = cap.isOpened() and cap.read()[0]
        cap.release()
    finally:
        cv_logging.setLogLevel(level)
    return bool(ok)


def cameras_found() -> list[int]:
    return [i for i in range(CAMERAS_PROBED) if camera_available(i)]
