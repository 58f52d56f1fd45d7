"""Make the plain-Python oracles in tests/ importable by the test modules."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
