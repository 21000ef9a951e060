"""The reproducibility report: every figure, table and experiment of the papers, with its status.

The catalogue lists what the book sets out to reproduce and which chapter does it. A chapter records
checks and deviations for the items it covers (:meth:`dpnet.results.Results.check`,
:meth:`~dpnet.results.Results.deviation`); the report reads them from ``results/*/metrics.json``.

The status of an item is one of :data:`STATUSES`; :data:`STATUS_MEANINGS` says what each means.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from dpnet.results import load_metrics, results_root

__all__ = [
    "CATALOGUE",
    "STATUSES",
    "STATUS_MEANINGS",
    "Item",
    "check_table",
    "deviation_table",
    "status_table",
]

#: What each status means, in the order the report lists them.
STATUS_MEANINGS: dict[str, str] = {
    "reproduced": "every check passed, and the paper's own mathematics regenerates the item",
    "reproduced with documented deviation": (
        "every check passed, but the published item can only be regenerated with a deviation found in "
        "the authors' code; the chapter shows the paper-faithful result beside the as-published one"
    ),
    "not reproduced": "at least one check failed (failures are shown, never hidden)",
    "not checked in this run": "the chapter ran with parameters other than the paper's",
    "not yet": "the chapter has not been written, or has not been run",
}
STATUSES: tuple[str, ...] = tuple(STATUS_MEANINGS)


@dataclass(frozen=True)
class Item:
    """A published figure, table or (for papers without figures) planned experiment."""

    paper: str
    name: str
    title: str
    chapter: str

    @property
    def key(self) -> str:
        """``"<paper> <name>"``, e.g. ``"003 Fig 1"``: how chapters record checks of the item."""
        return f"{self.paper} {self.name}"


def _items(paper: str, chapter: str, entries: list[tuple[str, str]]) -> list[Item]:
    return [Item(paper, name, title, chapter) for name, title in entries]


CATALOGUE: tuple[Item, ...] = (
    *_items("003", "power-tradeoff", [
        ("Fig 1", "Randomized-response power and critical budget ε*"),
        ("Fig 2", "Laplace-mechanism power and critical budget ε*"),
    ]),
    *_items("003", "distributed-mle", [("Table 1", "Communication complexity of the private algorithms")]),
    *_items("000", "distributed-mle", [("Table 2", "Summary of estimators (earlier version)")]),
    *_items("003", "hypothesis-testing", [
        ("Fig 3", "ACTG 175 ZDV vs ddI: Kaplan–Meier curves and log hazard ratio"),
        ("Fig 4", "ACTG 175 all four arms: Kaplan–Meier curves and log hazard ratios"),
        ("Fig 14.1a-b", "ACTG 175 AM/GM and two-threshold beliefs and TVD"),
        ("§5 tests", "Private distributed hypothesis tests on ACTG 175 and their p-values"),
        ("Fig 14.3", "Cancer cohort: Kaplan–Meier curves by TMB group and Cox fits"),
        ("Fig 14.4", "Cancer cohort: AM/GM beliefs"),
        ("Fig 14.5", "Cancer cohort: two-threshold beliefs"),
    ]),
    *_items("003", "treatment-identification", [
        ("Fig 5", "Best-treatment identification over the four ACTG arms"),
        ("Fig 6", "TVD vs ε against the first-order DP baseline"),
        ("Fig 14.2", "Runtime vs number of providers"),
    ]),
    *_items("003", "online-learning", [
        ("§4.3", "Online learning: time-averaged limit, Cesàro averaging of the noise, horizon of Thm 4.7"),
        ("Fig 14.1c", "ACTG 175 private online learning"),
        ("Fig 14.6", "Cancer cohort private online learning"),
    ]),
    *_items("001", "distributed-estimation", [
        ("Table 1", "Total-error bounds, Signal/Network DP × MVUE/OL"),
        ("Fig 2", "Data overview: consumption distribution and the two networks"),
        ("Fig 3", "Sample paths, MVUE with Signal DP"),
        ("Fig 4", "Sample paths, MVUE with Network DP"),
        ("Fig 5", "Sample paths, online learning with Signal DP"),
        ("Fig 6", "Sample paths, online learning with Network DP"),
        ("Fig 7", "Final error vs privacy budget"),
    ]),
    *_items("002", "recommender-maxsense", [
        ("E0", "Mechanism checks"),
        ("E1", "Lower-bound curves vs N and w"),
        ("E2", "Exact mutual information"),
        ("E3", "Pairwise-Preference phase transition (information-rich)"),
        ("E4", "MaxSense phase transition (information-scarce)"),
        ("E5", "Rich vs scarce crossover"),
        ("E6", "Multi-MaxSense vs MaxSense across ε"),
        ("E7", "1-bit sketches"),
        ("E8", "Adaptive lower bound"),
        ("E9", "Distortion vs exact recovery"),
    ]),
    *_items("004", "functional-perturbation", [
        ("E0", "Hypothesis-testing view of ε"),
        ("E1", "Anatomy of the functional mechanism"),
        ("E2", "Calibration"),
        ("E3", "Privacy–accuracy trade-off"),
        ("E4", "2-D logistic regression case study"),
        ("E5", "Distributed execution"),
        ("E6", "Message perturbation: impossibility and baseline"),
        ("E7", "Record-level sensitivity"),
    ]),
)  # fmt: skip


def _item_status(entry: dict | None, chapter_ran: bool) -> str:
    if entry is None or not entry.get("checks"):
        return "not checked in this run" if chapter_ran else "not yet"
    if not all(check["passed"] for check in entry["checks"]):
        return "not reproduced"
    return "reproduced with documented deviation" if entry.get("deviations") else "reproduced"


def _chapter_metrics(results_dir: Path | None) -> dict[str, dict | None]:
    """Each catalogue chapter's metrics.json (None when it has not run), in catalogue order."""
    results_dir = results_dir or results_root()
    return {
        chapter: load_metrics(chapter, results_dir) for chapter in dict.fromkeys(i.chapter for i in CATALOGUE)
    }


def status_table(results_dir: Path | None = None) -> pd.DataFrame:
    """One row per catalogue item: paper, item, title, chapter, status, checks passed, deviations."""
    metrics = _chapter_metrics(results_dir)
    rows = []
    for item in CATALOGUE:
        chapter_metrics = metrics[item.chapter]
        entry = (chapter_metrics or {}).get("reproduction", {}).get(item.key)
        checks = entry["checks"] if entry else []
        rows.append({
            "paper": item.paper,
            "item": item.name,
            "title": item.title,
            "chapter": item.chapter,
            "status": _item_status(entry, chapter_metrics is not None),
            "checks passed": f"{sum(c['passed'] for c in checks)}/{len(checks)}" if checks else "",
            "deviations": "; ".join(entry["deviations"]) if entry else "",
        })  # fmt: skip
    return pd.DataFrame(rows)


def check_table(results_dir: Path | None = None) -> pd.DataFrame:
    """Every recorded check: item, claim, passed, detail."""
    rows = []
    for chapter, data in _chapter_metrics(results_dir).items():
        for key, entry in (data or {}).get("reproduction", {}).items():
            for check in entry["checks"]:
                rows.append({"item": key, "chapter": chapter, **check})
    return pd.DataFrame(rows, columns=["item", "chapter", "claim", "passed", "detail"])


def deviation_table(results_dir: Path | None = None) -> pd.DataFrame:
    """Every documented deviation between a paper and what regenerates its published item."""
    rows = []
    for chapter, data in _chapter_metrics(results_dir).items():
        rows.extend({"chapter": chapter, **d} for d in (data or {}).get("deviations", []))
    return pd.DataFrame(rows, columns=["chapter", "item", "title", "explanation"])
