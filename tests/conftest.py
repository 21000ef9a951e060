"""Session-wide test environment, set at import time (before any test module imports dpnet).

- ``DPNET_DATA_MIRROR``: the byte-exact dataset mirror ``../shared/data`` beside the repository, when it
  exists and no mirror is configured already, so no test downloads anything.
- ``DPNET_PROGRESS=0``: no progress bars.
- ``MPLBACKEND=Agg``: Matplotlib never opens a window.
"""

from __future__ import annotations

import os
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
