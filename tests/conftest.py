"""Session-wide test environment, set at import time (before any test module imports dpnet).

- ``DPNET_DATA_MIRROR``: the byte-exact dataset mirror ``../shared/data`` beside the repository, when it
  exists and no mirror is configured already, so no test downloads anything.
- ``DPNET_PROGRESS=0``: no progress bars.
- ``MPLBACKEND=Agg``: Matplotlib never opens a window.

The whole book, built once in quick mode, is shared by the tests that need it (``quick_book``). Under
pytest-xdist (``make test`` runs two workers) those tests form one group, collected first: one worker
builds the book while the other runs the unit tests.
"""

from __future__ import annotations

import os
import shutil
from dataclasses import dataclass
from pathlib import Path

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

QUICK_BOOK_GROUP = "quick-book"


@pytest.hookimpl(tryfirst=True)  # before xdist's own hook reads the groups
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """The tests of the quick book first, in one xdist group (``--dist loadgroup``): its build starts at
    once, on one worker, and is made once. A test using the ``quick_book`` fixture joins the group; one
    that asks for it at run time (the browser test) is marked with the group itself."""
    for item in items:
        if "quick_book" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.xdist_group(QUICK_BOOK_GROUP))
    uses_book = [item for item in items if _group(item) == QUICK_BOOK_GROUP]
    items[:] = uses_book + [item for item in items if _group(item) != QUICK_BOOK_GROUP]


def _group(item: pytest.Item) -> str | None:
    marker = item.get_closest_marker("xdist_group")
    return str(marker.args[0]) if marker is not None and marker.args else None


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
