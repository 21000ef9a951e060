"""The chapters written to the book's pattern meet the house targets for a chapter's shape.

The shape tool (``../shared/tools/chapter_shape.py``, beside the repository on the project's machines)
measures code share, cell sizes, hidden cells, sentences glued from code, mentions of material readers
lack, objectives, labelled equations and exercises; ``--strict`` fails on a miss.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from book_checks import PATTERN_CHAPTERS

from dpnet import book

ROOT = Path(__file__).resolve().parents[1]
TOOL = ROOT.parent / "shared" / "tools" / "chapter_shape.py"


@pytest.mark.skipif(not TOOL.exists(), reason=f"the chapter-shape tool is not at {TOOL}")
@pytest.mark.parametrize("cid", PATTERN_CHAPTERS)
def test_chapter_meets_the_house_targets(cid: str) -> None:
    source = book.get_chapter(cid).source
    command = [sys.executable, str(TOOL), "--strict", str(source)]
    proc = subprocess.run(command, capture_output=True, text=True, check=False)
    assert proc.returncode == 0, proc.stdout + proc.stderr
