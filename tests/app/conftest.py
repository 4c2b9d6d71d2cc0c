import os
import sys
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
DATASETS = Path(__file__).resolve().parents[2] / "datasets"
if str(DATASETS) not in sys.path:
    sys.path.insert(0, str(DATASETS))


import pytest  # noqa: E402


@pytest.fixture(autouse=True)
def english_after_each_test():
    """A test that opens a window in Finnish sets the app's language for the process: put English back, so that
    no later test depends on the order the tests run in."""
    yield
    from scorer.app import i18n

    if i18n.language() != "en":
        i18n.set_language("en")
