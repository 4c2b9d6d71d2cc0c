"""The README's pictures of the app, made from the app as it is: the bundled demo scored to its end.

    QT_QPA_PLATFORM=offscreen .venv/bin/python scripts/make_screenshots.py      # or on a (virtual) display
    .venv/bin/python scripts/make_screenshots.py --lang fi --out /tmp/shots      # the Finnish app

Writes app-demo.png (the main window after the demo's round), app-table-mode.png (F11), app-start.png
(the start screen) and app-picker.png (a play entered by hand) into docs/ (or --out). The user's own
sessions and settings are not touched: everything runs in a temporary data and config folder.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs")
    parser.add_argument("--lang", choices=("en", "fi"), default="en")
    args = parser.parse_args()
    home = Path(tempfile.mkdtemp(prefix="screenshots-"))
    os.environ.update(XDG_DATA_HOME=str(home / "data"), XDG_CONFIG_HOME=str(home / "config"), SCORER_SPEECH="off")
    sys.path.insert(0, str(ROOT))

    from PySide6.QtWidgets import QApplication

    from scorer.app.corrections import TilePicker
    from scorer.app.i18n import set_language
    from scorer.app.settings import Settings
    from scorer.app.start import DEMO, StartDialog, open_window
    from scorer.rules import Play
    from scorer.rules.log import MatchHeader, MatchSource
    from scorer.sessions import Session, list_sessions

    app = QApplication.instance() or QApplication(sys.argv[:1])
    set_language(args.lang)
    settings = Settings(lang=args.lang, voice=False)
    header = MatchHeader(DEMO["game"], DEMO["players"], DEMO["partnership"], source=MatchSource("demo", "", 1))
    window = open_window(Session.create(header), DEMO["starter"], args.lang, settings, realtime=False)
    window.resize(1280, 760)
    window.show()
    window.start()
    deadline = time.monotonic() + 600
    while not window.finished and time.monotonic() < deadline:
        app.processEvents()
        time.sleep(0.02)
    for _ in range(20):
        app.processEvents()
        time.sleep(0.02)
    if not window.finished:
        print("the demo did not finish within 10 minutes", file=sys.stderr)
        return 1
    args.out.mkdir(parents=True, exist_ok=True)
    shots = {"app-demo.png": window.grab()}
    window.last_announcement = window.banner.text()
    window.toggle_table_mode()
    window.resize(1280, 720)
    app.processEvents()
    shots["app-table-mode.png"] = window.grab()
    window.toggle_table_mode()
    steps = window.snapshot.steps
    mid = next(s.before for s in steps[len(steps) // 2:] if isinstance(s.event, Play))
    picker = TilePicker(None, mid)
    picker.show()
    app.processEvents()
    laid = next(s.event for s in steps[len(steps) // 2:] if isinstance(s.event, Play))
    picker.tile_buttons[laid.tile].click()
    app.processEvents()
    shots["app-picker.png"] = picker.grab()
    start = StartDialog(settings, cameras=[0], sessions=list_sessions())
    start.show()
    app.processEvents()
    shots["app-start.png"] = start.grab()
    for name, pixmap in shots.items():
        path = args.out / name
        if not pixmap.save(str(path)):
            print(f"{path}: could not be written", file=sys.stderr)
            return 1
        print(f"wrote {path} ({pixmap.width()}x{pixmap.height()})")
    window.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
