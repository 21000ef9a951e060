"""The results contract: what executing a chapter leaves behind.

Executing chapter ``<id>`` writes

* ``results/<id>/metrics.json`` — every number the chapter reports under its own key, plus the
  reserved keys ``chapter``, ``parameters``, ``reproduction`` (the checks behind the
  reproducibility report) and ``deviations`` (from the paper);
* ``results/<id>/figures/<name>.png`` and ``.svg`` — every figure;
* ``results/<id>/tables/<name>.csv`` — every table.

The book runner executes a chapter into a fresh staging directory (``DPNET_RESULTS_DIR``) and swaps
it into place only on success. A notebook run by hand (no ``DPNET_RESULTS_DIR``) writes under
``results/_interactive/<id>`` so that it never mixes with, or overwrites, a build's results.
"""

from __future__ import annotations

import json
import math
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np

from dpnet.errors import ParameterError

__all__ = ["Results", "load_metrics", "repo_root", "results_root", "to_json"]

RESERVED = ("chapter", "parameters", "reproduction", "deviations")


def repo_root() -> Path:
    """The repository root (the directory holding ``_toc.yml``)."""
    return Path(__file__).resolve().parents[2]


def results_root() -> Path:
    """Where chapter results live: ``DPNET_RESULTS_ROOT`` (set by the book runner) or ``results/``."""
    override = os.environ.get("DPNET_RESULTS_ROOT")
    return Path(override) if override else repo_root() / "results"


def to_json(value: Any) -> Any:
    """Convert numpy scalars/arrays and tuples to JSON types; non-finite floats become ``None``."""
    if isinstance(value, Mapping):
        return {str(k): to_json(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [to_json(v) for v in value]
    if isinstance(value, np.ndarray):
        return to_json(value.tolist())
    if isinstance(value, (np.bool_, bool)):
        return bool(value)
    if isinstance(value, (np.integer, int)):
        return int(value)
    if isinstance(value, (np.floating, float)):
        x = float(value)
        return x if math.isfinite(x) else None
    if value is None or isinstance(value, str):
        return value
    raise TypeError(f"cannot store {type(value).__name__} in metrics.json")


def load_metrics(chapter_id: str, results_dir: Path | None = None) -> dict[str, Any] | None:
    """The metrics of a chapter's last successful run, or ``None`` if it has not run."""
    path = (results_dir or results_root()) / chapter_id / "metrics.json"
    if not path.exists():
        return None
    return json.loads(path.read_text())


class Results:
    """Collects a chapter's numbers, figures, tables and reproduction checks.

    Parameters
    ----------
    chapter_id
        The chapter id (``results/<id>/``).
    parameters
        The chapter's resolved parameters, stored in ``metrics.json``.
    """

    def __init__(self, chapter_id: str, parameters: Mapping[str, Any]) -> None:
        staging = os.environ.get("DPNET_RESULTS_DIR")
        self.chapter_id = chapter_id
        self.directory = Path(staging) if staging else results_root() / "_interactive" / chapter_id
        (self.directory / "figures").mkdir(parents=True, exist_ok=True)
        (self.directory / "tables").mkdir(parents=True, exist_ok=True)
        self.metrics: dict[str, Any] = {}
        self.parameters = to_json(dict(parameters))
        self.reproduction: dict[str, dict[str, Any]] = {}
        self.deviations: list[dict[str, str]] = []
        self._save()

    # numbers -------------------------------------------------------------------------------
    def metric(self, name: str, value: Any) -> Any:
        """Record ``value`` under ``name`` in metrics.json and return it unchanged."""
        if name in RESERVED:
            raise ParameterError(f"metric name {name!r} is reserved ({', '.join(RESERVED)})")
        self.metrics[name] = to_json(value)
        self._save()
        return value

    def glue(self, name: str, value: Any) -> Any:
        """Make a scalar available to the prose (``{glue:text}`name``) and record it as a metric.

        NumPy scalars are glued as the Python numbers they hold: their repr (``np.float64(0.5)``) is not
        a number that ``{glue:text}`name:.2f``` can format.
        """
        from myst_nb import glue

        if isinstance(value, np.generic):
            value = value.item()
        glue(name, value, display=False)
        return self.metric(name, value)

    def glue_text(self, name: str, text: str) -> str:
        """Make a sentence computed from the results available to the prose (``{glue:md}`name``)."""
        from IPython.display import Markdown
        from myst_nb import glue

        glue(name, Markdown(text), display=False)
        return self.metric(name, text)

    # files ---------------------------------------------------------------------------------
    def figure(self, fig: Any, name: str) -> None:
        """Save a Matplotlib figure as ``figures/<name>.png`` and ``.svg``, show it once, and close it."""
        _check_name(name)
        png = self.directory / "figures" / f"{name}.png"
        fig.savefig(png, dpi=150, bbox_inches="tight", metadata={"Software": None})
        fig.savefig(png.with_suffix(".svg"), bbox_inches="tight", metadata={"Date": None})
        _show(fig)

    def table(self, frame: Any, name: str) -> None:
        """Write a pandas DataFrame to ``tables/<name>.csv``."""
        _check_name(name)
        frame.to_csv(self.directory / "tables" / f"{name}.csv", index=False)

    # reproduction --------------------------------------------------------------------------
    def check(self, item: str, claim: str, passed: bool, detail: str = "") -> bool:
        """Record a check of a paper item (e.g. ``"003 Fig 1"``) for the reproducibility report."""
        entry = self.reproduction.setdefault(item, {"checks": [], "deviations": []})
        entry["checks"].append({"claim": claim, "passed": bool(passed), "detail": detail})
        self._save()
        return bool(passed)

    def deviation(self, item: str, title: str, explanation: str) -> None:
        """Record a documented deviation between the paper and what regenerates a published item."""
        entry = self.reproduction.setdefault(item, {"checks": [], "deviations": []})
        entry["deviations"].append(title)
        self.deviations.append({"item": item, "title": title, "explanation": explanation})
        self._save()

    def _save(self) -> None:
        payload = {
            "chapter": self.chapter_id,
            "parameters": self.parameters,
            "reproduction": self.reproduction,
            "deviations": self.deviations,
            **self.metrics,
        }
        path = self.directory / "metrics.json"
        tmp = path.with_suffix(".json.tmp")
        tmp.write_text(json.dumps(payload, indent=1, allow_nan=False) + "\n")
        tmp.replace(path)


def _show(fig: Any) -> None:
    """Display a figure in a running IPython kernel and close it (no second inline copy)."""
    import matplotlib.pyplot as plt

    try:
        from IPython import get_ipython
        from IPython.display import display
    except ImportError:  # pragma: no cover - IPython ships with the book's dependencies
        get_ipython = None
    if get_ipython is not None and get_ipython() is not None:
        display(fig)
    plt.close(fig)


def _check_name(name: str) -> None:
    if not name or any(c in name for c in "/\\ ") or name.startswith("."):
        raise ParameterError(f"file name {name!r} must be non-empty, without spaces or slashes")
