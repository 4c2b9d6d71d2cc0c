"""The desktop app (the only package that imports PySide6)."""

import os as _os


def _use_qt_plugins_of_pyside6() -> None:
    """opencv-python points QT_QPA_PLATFORM_PLUGIN_PATH at its own Qt plugins when imported; those
    do not load into PySide6's Qt, and the app would not start on a real display.  Point it back."""
    import cv2  # noqa: F401  (its import is what sets the variable)
    from PySide6.QtCore import QLibraryInfo

    plugins = QLibraryInfo.path(QLibraryInfo.LibraryPath.PluginsPath)
    if "cv2" in _os.environ.get("QT_QPA_PLATFORM_PLUGIN_PATH", ""):
        _os.environ["QT_QPA_PLATFORM_PLUGIN_PATH"] = _os.path.join(plugins, "platforms")


_use_qt_plugins_of_pyside6()
