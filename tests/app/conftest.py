import os
import sys
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
DATASETS = Path(__file__).resolve().parents[2] / "datasets"
if str(DATASETS) not in sys.path:
    sys.path.insert(0, str(DATASETS))
