"""The reproducibility report: every figure, table and experiment of the papers, with its status.

The catalogue (:mod:`dpnet.reference.catalogue`) lists what the book sets out to reproduce and which
chapter does it. A chapter records checks and deviations for the items it covers
(:meth:`dpnet.results.Results.checks`, :meth:`~dpnet.results.Results.deviation`); the report reads them
from ``results/*/metrics.json``.

The status of an item is one of :data:`~dpnet.report.STATUSES`; :data:`STATUS_MEANINGS` says what each means.
:func:`items_markdown` writes the report's entries as MyST: one anchored entry per item, linked to its
figure or table in the chapter and to the reproduction notes, and one anchored line per check, which
the chapters' badges link to.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd

from dpnet.formatting import times_ten
from dpnet.reference.catalogue import CATALOGUE, Item
from dpnet.results import BADGES, check_label, load_metrics, results_root

__all__ = [
    "CATALOGUE",
    "STATUSES",
    "STATUS_MEANINGS",
    "CheckCounts",
    "Item",
    "build_mode",
    "chapter_check_counts",
    "check_counts",
    "check_table",
    "deviation_table",
    "entries",
    "headline_verdict",
    "items_markdown",
    "report_label",
    "status_table",
]

#: What each status means, in the order the report lists them.
STATUS_MEANINGS: dict[str, str] = {
    "reproduced": (
        "the check of the item's headline claim passed under the paper's own mathematics, and every other "
        "check passed"
    ),
    "reproduced with documented deviation": (
        "the headline check and every other check passed, but the published item can only be regenerated "
        "with a deviation found in the authors' code; the chapter shows the paper-faithful result beside "
        "the as-published one"
    ),
    "not reproduced": (
        "the headline check or another check failed: the paper's claim does not hold as stated, or the "
        "computation does not regenerate the item (failures are shown, never hidden)"
    ),
    "headline not decided": (
        "every check this run decided passed, but not the one that tests the item's headline claim: it is "
        "undefined for these parameters, or was not recorded"
    ),
    "shown, nothing to compare": (
        "the chapter shows the item on the paper's setting, but the item publishes no number or claim that "
        "a computation could be checked against (its formulas are tested as identities in the unit tests)"
    ),
    "not checked in this run": "the chapter ran with parameters other than the paper's",
    "not yet": "the chapter has not been written, or has not been run",
}
#: The statuses, in the order of :data:`STATUS_MEANINGS`.
STATUSES: tuple[str, ...] = tuple(STATUS_MEANINGS)

#: How the report names what a check compares with.
_AGAINST_TEXT: dict[str, str] = {"paper": "published claim", "reference": "independent reference"}
#: A check recorded before checks said what they compare with (a stale run).
_UNCLASSIFIED = "not classified: re-run the chapter"


def _text(text: str) -> str:
    """Plain text made safe for MyST: characters that Markdown reads as markup are escaped."""
    return "".join(f"\\{c}" if c in "\\`*_[]<>$|{}#" else c for c in text)


def _role_text(text: str) -> str:
    """Text for the explicit title of a role: no backticks or angle brackets."""
    return text.replace("`", "'").replace("<", "‹").replace(">", "›")


def report_label(key: str) -> str:
    """The anchor of an item's entry in the report: ``report-p003-fig1``."""
    return f"report-{key}"


def headline_verdict(entry: Mapping[str, Any] | None, item: Item) -> bool | None:
    """The outcome of an item's headline check in a chapter's record of it (``reproduction[<key>]``):
    True, False, or None when the check is undefined or was not recorded."""
    for check in (entry or {}).get("checks", []):
        if item.check and check.get("name") == item.check:
            return check["passed"]
    return None


def _item_status(entry: dict | None, chapter_ran: bool, item: Item) -> str:
    outcomes = [c["passed"] for c in (entry or {}).get("checks", []) if c["passed"] is not None]
    if entry is not None and entry.get("paper_setting", True) and not entry.get("checks"):
        return "shown, nothing to compare"
    if entry is None or not outcomes or not entry.get("paper_setting", True):
        return "not checked in this run" if chapter_ran else "not yet"
    if not all(outcomes):
        return "not reproduced"
    if not headline_verdict(entry, item):
        return "headline not decided"
    return "reproduced with documented deviation" if entry.get("deviations") else "reproduced"


@dataclass(frozen=True)
class CheckCounts:
    """How many checks passed, failed, and were undecided (undefined for the run's parameters)."""

    passed: int = 0
    failed: int = 0
    undecided: int = 0

    @property
    def decided(self) -> int:
        """The checks that passed or failed."""
        return self.passed + self.failed

    @property
    def total(self) -> int:
        """Every check, decided or not."""
        return self.decided + self.undecided


def check_counts(checks: Iterable[Mapping[str, Any]]) -> CheckCounts:
    """Count recorded checks (as :meth:`dpnet.results.Results.checks` stores them) by outcome.

    Parameters
    ----------
    checks
        Checks of ``metrics.json``: mappings whose ``"passed"`` is True, False or None (undecided).

    Returns
    -------
    CheckCounts
        How many passed, failed and were undecided.
    """
    outcomes = [check["passed"] for check in checks]
    decided = [bool(o) for o in outcomes if o is not None]
    return CheckCounts(passed=sum(decided), failed=decided.count(False), undecided=outcomes.count(None))


def chapter_check_counts(metrics: Mapping[str, Any] | None) -> CheckCounts:
    """Count every check a chapter recorded, over all its catalogue items.

    Parameters
    ----------
    metrics
        The chapter's ``metrics.json`` (:func:`dpnet.results.load_metrics`); None when it has not run.

    Returns
    -------
    CheckCounts
        The chapter's checks by outcome (all zero when it has none, or has not run).
    """
    entries = (metrics or {}).get("reproduction", {}).values()
    return check_counts(check for entry in entries for check in entry["checks"])


def _passed(checks: list[dict[str, Any]]) -> str:
    counts = check_counts(checks)
    return f"{counts.passed}/{counts.decided}" if counts.decided else ""


def _chapter_metrics(results_dir: Path | None) -> dict[str, dict | None]:
    """Each catalogue chapter's metrics.json (None when it has not run), in catalogue order."""
    results_dir = results_dir or results_root()
    return {
        chapter: load_metrics(chapter, results_dir) for chapter in dict.fromkeys(i.chapter for i in CATALOGUE)
    }


def status_table(results_dir: Path | None = None) -> pd.DataFrame:
    """One row per catalogue item: paper, item, title, chapter, status, the verdict of its headline
    check (✓, ✗, or – when undecided), checks passed, deviations."""
    metrics = _chapter_metrics(results_dir)
    rows = []
    for item in CATALOGUE:
        chapter_metrics = metrics[item.chapter]
        entry = (chapter_metrics or {}).get("reproduction", {}).get(item.key)
        checks = entry["checks"] if entry else []
        rows.append({
            "key": item.key,
            "paper": item.paper,
            "item": item.name,
            "title": item.title,
            "chapter": item.chapter,
            "status": _item_status(entry, chapter_metrics is not None, item),
            "headline": BADGES[headline_verdict(entry, item)] if entry else "",
            "checks passed": _passed(checks),
            "deviations": "; ".join(entry["deviations"]) if entry else "",
        })  # fmt: skip
    return pd.DataFrame(rows)


def check_table(results_dir: Path | None = None) -> pd.DataFrame:
    """Every recorded check: item, chapter, name, claim, passed, detail, and what it compares with.

    ``against`` is ``"paper"`` for a comparison with a claim the paper publishes and ``"reference"``
    for one with an independent reference (see :class:`dpnet.results.Check`).
    """
    rows = []
    for chapter, data in _chapter_metrics(results_dir).items():
        for key, entry in (data or {}).get("reproduction", {}).items():
            for check in entry["checks"]:
                rows.append({"item": key, "chapter": chapter, **check})
    return pd.DataFrame(rows, columns=["item", "chapter", "name", "claim", "passed", "detail", "against"])


def deviation_table(results_dir: Path | None = None) -> pd.DataFrame:
    """Every documented deviation between a paper and what regenerates its published item."""
    rows = []
    for chapter, data in _chapter_metrics(results_dir).items():
        rows.extend({"chapter": chapter, **d} for d in (data or {}).get("deviations", []))
    return pd.DataFrame(rows, columns=["chapter", "item", "title", "explanation", "note"])


def items_markdown(results_dir: Path | None = None) -> str:
    """The report's entries, as MyST Markdown (rendered by the report page).

    Each item gets an anchored entry (:func:`report_label`) naming its status and linking to its
    figure or table in the chapter (the label is the item key) and to the reproduction-notes entry of
    each deviation; each check gets an anchored line (:func:`dpnet.results.check_label`) with its
    badge, claim and detail.
    """
    metrics = _chapter_metrics(results_dir)
    status = status_table(results_dir).set_index("key")
    blocks = []
    for item in CATALOGUE:
        entry = ((metrics[item.chapter] or {}).get("reproduction") or {}).get(item.key) or {}
        notes = {d["title"]: d.get("note", "") for d in (metrics[item.chapter] or {}).get("deviations", [])}
        row = status.loc[item.key]
        name = f"{{ref}}`{item.caption} <{item.key}>`" if metrics[item.chapter] else item.caption
        head = f"({report_label(item.key)})=\n**{name}**: {_text(item.title)}."
        head += f" Chapter `{item.chapter}`. Status: **{row['status']}**"
        head += f" ({row['checks passed']} checks passed)." if row["checks passed"] else "."
        if item.headline:
            recorded = any(check["name"] == item.check for check in entry.get("checks", []))
            label = check_label(item.key, item.check)
            target = f"{{ref}}`{item.check} <{label}>`" if recorded else f"`{item.check}`, not recorded"
            head += f" Headline claim: {_text(item.headline)} ({row['headline'] or BADGES[None]} {target})."
        deviations = [
            f"{{ref}}`{_role_text(title)} <{notes[title]}>`" if notes.get(title) else _text(title)
            for title in entry.get("deviations", [])
        ]
        if deviations:
            head += " Deviations: " + "; ".join(deviations) + "."
        blocks.append(head)
        for check in entry.get("checks", []):
            # claims and details are written by code with :g formats: no exponent notation for people
            line = f"{BADGES[check['passed']]} {times_ten(check['claim'])}" + (
                f": {times_ten(check['detail'])}" if check["detail"] else ""
            )
            line += f" *({_AGAINST_TEXT.get(check.get('against', ''), _UNCLASSIFIED)})*"
            if check.get("name"):
                line = f"({check_label(item.key, check['name'])})=\n{line}"
            blocks.append(line)
    return "\n\n".join(blocks) + "\n"


def entries(results_dir: Path | None = None) -> Any:
    """:func:`items_markdown`, for display in the report page (rendered as MyST)."""
    from IPython.display import Markdown

    return Markdown(items_markdown(results_dir))


def build_mode(results_dir: Path | None = None) -> str:
    """The mode the chapters ran in: ``"quick"``, ``"full"``, or which chapters ran in which."""
    modes = {c: m["parameters"]["mode"] for c, m in _chapter_metrics(results_dir).items() if m}
    if len(set(modes.values())) == 1:
        return next(iter(modes.values()))
    if not modes:
        return "no"
    by_mode = {
        mode: ", ".join(c for c, m in modes.items() if m == mode) for mode in sorted(set(modes.values()))
    }
    return "mixed (" + "; ".join(f"{mode}: {chapters}" for mode, chapters in by_mode.items()) + ")"
