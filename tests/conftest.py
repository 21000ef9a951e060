"""Session-wide test environment, set at import time (before any test module imports dpnet).

- ``DPNET_DATA_MIRROR``: the byte-exact dataset mirror ``../shared/data`` beside the repository, when it
  exists and no mirror is configured already, so no test downloads anything.
- ``DPNET_PROGRESS=0``: no progress bars.
- ``MPLBACKEND=Agg``: Matplotlib never opens a window.

The whole book, built once in quick mode, is shared by the tests that need it (``quick_book``). Under
pytest-xdist (``make test`` runs two workers) those tests are one unit of work: one worker builds the
book while the other runs the unit tests.
"""

from __future__ import annotations

import os
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd
import pytest

REPO_ROOT = Path(__file__).resolve().parents[1]
SHARED_DATA = (REPO_ROOT.parent / "shared" / "data").resolve()

if not os.environ.get("DPNET_DATA_MIRROR") and SHARED_DATA.is_dir():
    os.environ["DPNET_DATA_MIRROR"] = str(SHARED_DATA)
os.environ.setdefault("DPNET_PROGRESS", "0")
os.environ.setdefault("MPLBACKEND", "Agg")


# Data through the registry, skipped with a reason when no mirror, cache or network provides them.


def _load(loader_name: str, title: str) -> pd.DataFrame:
    from dpnet import survival  # dpnet is imported only after the environment above is set
    from dpnet.errors import DataError

    try:
        return getattr(survival, loader_name)()
    except DataError as exc:
        pytest.skip(f"{title} data unavailable (no mirror, cache or network): {exc}")


@pytest.fixture(scope="session")
def actg() -> pd.DataFrame:
    return _load("load_actg175", "ACTG 175")


@pytest.fixture(scope="session")
def samstein() -> pd.DataFrame:
    return _load("load_samstein2019", "Samstein et al. 2019")


# The book built in quick mode: by the build test (tests/test_book.py), read by the browser test.

#: The tests that use the quick book: its build, then the browser's visit of it.
QUICK_BOOK_TESTS = ("tests/test_book.py::test_quick_build_of_the_whole_book", "tests/test_browser.py::")
#: The tests that share one JupyterLab server and one run of a chapter in it (tests/test_lab.py).
LAB_TESTS = ("tests/test_lab.py::",)


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config: pytest.Config, log: Any) -> Any:
    """Under pytest-xdist's ``--dist loadgroup`` (``make test``), the quick book's tests are one unit of
    work: one worker builds the book, once, while the other runs the unit tests. The JupyterLab tests are
    another unit, so that one worker starts JupyterLab and runs the chapter in it, once.

    The unit is made here rather than with ``xdist_group`` marks, which pytest-xdist 3.8 applies by
    rewriting node ids, which pytest 9 no longer reads. The largest unit is handed out first.
    """
    if config.getvalue("dist") != "loadgroup":
        return None
    from xdist.scheduler import LoadGroupScheduling

    class QuickBookOnOneWorker(LoadGroupScheduling):
        def _split_scope(self, nodeid: str) -> str:
            if nodeid.startswith(QUICK_BOOK_TESTS):
                return "quick-book"
            return "lab" if nodeid.startswith(LAB_TESTS) else super()._split_scope(nodeid)

    return QuickBookOnOneWorker(config, log)


@dataclass(frozen=True)
class QuickBook:
    root: Path  # a temporary copy of the repository (sources, then results/ and _build/)
    html: Path  # root/_build/html


@pytest.fixture(scope="session")
def quick_book(tmp_path_factory: pytest.TempPathFactory) -> QuickBook:
    """Every chapter run in quick mode and the HTML built, in a copy of the repository; once a session."""
    from dpnet import book

    root = tmp_path_factory.mktemp("book") / "repo"
    root.mkdir()
    for name in ("_config.yml", "_toc.yml"):
        shutil.copy2(REPO_ROOT / name, root / name)
    for folder in ("book", "chapters"):
        shutil.copytree(REPO_ROOT / folder, root / folder)
    return QuickBook(root, book.build_book(mode="quick", jobs=2, root=root))
