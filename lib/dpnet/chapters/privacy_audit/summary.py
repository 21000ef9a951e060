"""Chapter 9's summary: every audited row of the papers' mechanisms in one table, and the book's only
cross-paper figure, the stated ε against the audited ε (``privacy-audit-summary``). Paper 000, the earlier
version of 003, deploys no mechanism of its own; papers 001–004 are plotted.

A row audits either what a mechanism releases or a sensitivity lemma a paper states for an object it does
not release (``audits`` of :class:`~dpnet.audit.MechanismAudit`); the counts and the figure keep them
apart."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from dpnet.audit import MechanismAudit
from dpnet.chapters.privacy_audit._common import COMPACT, ItemAudit
from dpnet.params import Cost
from dpnet.plotting import SMALL, panel_row
from dpnet.results import Check

__all__ = ["MARKERS", "Summary", "audit_figure", "cost", "short_label", "summary"]

#: One marker and colour per paper.
MARKERS = {"003": ("o", "C0"), "001": ("s", "C1"), "002": ("D", "C2"), "004": ("^", "C3")}
#: Where the figure draws what it cannot place on a log axis: an unbounded implied ε (top edge) and a
#: certified bound of 0 (bottom edge).
_TOP, _BOTTOM = 300.0, 0.03
#: The labels: placed this factor right of their point, and stacked so that two labels of one stated ε
#: are at least this many decades of audited ε apart.
_LABEL_RIGHT, _LABEL_GAP = 1.35, 0.15
#: The opacity of a lemma row's markers (a release row's are opaque).
_LEMMA_ALPHA = 0.4


def cost(values: Mapping[str, Any]) -> Cost:
    """Nothing of its own: the table and the figure are part of the chapter's fixed seconds."""
    return Cost()


def short_label(key: str) -> str:
    """A row's label on the figure: ``"p003-sec12-actg"`` → ``"003 ACTG"``."""
    names = {"sec12-actg": "ACTG centres, lemma", "sec12-tmb": "cancer cohort, lemma",
             "sec12-stream": "ACTG stream, lemma", "sec12-actg-beliefs": "ACTG centres, beliefs",
             "sec12-tmb-beliefs": "cancer cohort, beliefs", "sec12-stream-beliefs": "ACTG stream, beliefs",
             "message-x": "messages, accountant", "message-state": "messages, released"}  # fmt: skip
    paper, rest = key[1:4], key[5:]
    if rest in names:
        return f"{paper} {names[rest]}"
    if "smooth" in rest:
        dataset = "US grid" if "us_power_grid" in rest else "households"
        return f"{paper} {dataset}, {'text' if rest.endswith('paper') else 'code'}"
    return f"{paper} {rest}"


def _labelled(r: MechanismAudit) -> bool:
    """The rows the figure names: the failing finite ones, and both sides of every lemma/release pair."""
    return math.isfinite(r.implied_eps) and (not r.holds or "sec12" in r.key or "message" in r.key)


def audit_figure(rows: Sequence[MechanismAudit]) -> Figure:
    """Stated ε (x) against audited ε (y) on log–log axes with the diagonal: per row, the ε implied by the
    measured sensitivity (filled) and the certified lower bound (open), one marker and colour per paper,
    faint for a row that audits a stated lemma rather than a release; an unbounded implied ε is drawn at
    the top edge. The failing rows and the lemma/release pairs are labelled (:func:`short_label`), the
    unbounded ones once."""
    fig, (ax,) = panel_row(1, width=7.6, height=5.0)
    stated = [r.stated_eps for r in rows]
    lo, hi = min([*stated, 0.5]) / 8, max([*stated, 10.0]) * 6  # room for the labels beside ε = 1 and 10
    ax.plot([_BOTTOM, _TOP], [_BOTTOM, _TOP], color="grey", lw=0.8, ls="--", label="audited = stated")
    seen: set[str] = set()
    labels: list[tuple[float, float, str, str, bool]] = []
    unbounded = [r for r in rows if math.isinf(r.implied_eps)]
    for k, r in enumerate(rows):
        marker, colour = MARKERS.get(r.paper, ("x", "k"))
        jitter = r.stated_eps * (1 + 0.05 * ((k % 5) - 2))
        implied = _TOP if math.isinf(r.implied_eps) else r.implied_eps
        label = None if r.paper in seen else f"paper {r.paper}"
        seen.add(r.paper)
        alpha = _LEMMA_ALPHA if r.audits == "lemma" else 1.0
        ax.plot([jitter], [implied], marker, color=colour, ms=7, label=label, alpha=alpha)
        ax.plot([jitter], [max(r.certified, _BOTTOM)], marker, mfc="none", color=colour, ms=7, alpha=alpha)
        if _labelled(r):
            labels.append((jitter, implied, short_label(r.key), colour, r.audits == "release"))
    _place_labels(ax, labels)
    if unbounded:
        which = short_label(unbounded[0].key).split(",")[0]
        ax.text(lo * 1.1, _TOP * 1.15, f"unbounded: {len(unbounded)} rows ({which})", fontsize=SMALL)
    ax.plot([], [], "o", color="grey", label="filled: ε implied\nby the measured Δ")
    ax.plot([], [], "o", mfc="none", color="grey", label="open: certified\nlower bound")
    ax.plot([], [], "o", color="grey", alpha=_LEMMA_ALPHA, label="faint: a stated lemma,\nnot the release")
    ax.axhline(_TOP, color="k", lw=0.5)
    ax.set(xscale="log", yscale="log", xlim=(lo, hi), ylim=(_BOTTOM, _TOP * 1.6), xlabel="stated ε",
           ylabel="audited ε", title="Stated against audited privacy, the papers' mechanisms")  # fmt: skip
    ax.legend(fontsize=SMALL, loc="center left", bbox_to_anchor=(1.02, 0.5))
    return fig


def _place_labels(ax: Any, labels: Sequence[tuple[float, float, str, str, bool]]) -> None:
    """Write each label ``(x, y, text, colour, left)`` beside its point with a thin leader: left of it for a
    release row (``left``), right of it for the others, moving a label up when it would overlap the one
    below it on the same side of the points of the same stated ε (one decade apart)."""
    below: dict[tuple[int, bool], float] = {}
    for x, y, text, colour, left in sorted(labels, key=lambda lab: (round(math.log10(lab[0])), lab[1])):
        column = (round(math.log10(x)), left)
        height = math.log10(y)
        if column in below:
            height = max(height, below[column] + _LABEL_GAP)
        below[column] = height
        ax.annotate(
            text, (x, y), xytext=(x / _LABEL_RIGHT if left else x * _LABEL_RIGHT, 10**height),
            textcoords="data", va="center", ha="right" if left else "left", fontsize=SMALL, color=colour,
            arrowprops={"arrowstyle": "-", "lw": 0.8, "color": colour},
        )  # fmt: skip


@dataclass(frozen=True)
class Summary:
    """Every row of the chapter's items, and how many hold."""

    rows: tuple[MechanismAudit, ...]
    checks: Mapping[str, list[Check]]
    #: The book's own summary: it checks nothing of its own and leaves no paper setting.
    paper_setting = True
    deviations = ()

    @property
    def table(self) -> pd.DataFrame:
        """One line per mechanism (:meth:`dpnet.audit.MechanismAudit.row`)."""
        return pd.DataFrame([r.row() for r in self.rows])

    @property
    def compact(self) -> pd.DataFrame:
        """The columns the chapter shows (``COMPACT``)."""
        return self.table[list(COMPACT)]

    def of(self, audits: str) -> tuple[MechanismAudit, ...]:
        """The rows that audit a ``"release"`` or a stated ``"lemma"``."""
        return tuple(r for r in self.rows if r.audits == audits)

    def failing(self, audits: str) -> tuple[MechanismAudit, ...]:
        """The rows of :meth:`of` whose implied ε exceeds the stated one."""
        return tuple(r for r in self.of(audits) if not r.holds)

    def certified(self, audits: str) -> tuple[MechanismAudit, ...]:
        """The rows of :meth:`of` whose certified lower bound exceeds the stated ε."""
        return tuple(r for r in self.of(audits) if r.certifies_violation)

    def metrics(self) -> dict[str, Any]:
        """How many rows, and per kind (release, lemma) how many fail and how many are certified."""
        out: dict[str, Any] = {"rows": len(self.rows)}
        for kind in ("release", "lemma"):
            out |= {f"{kind}_rows": len(self.of(kind)), f"{kind}_failing": len(self.failing(kind)),
                    f"{kind}_certified": len(self.certified(kind))}  # fmt: skip
        return out

    def tables(self) -> dict[str, pd.DataFrame]:
        """None recorded with the result: the chapter shows :attr:`table`."""
        return {}

    def figure(self) -> Figure:
        """The summary figure (:func:`audit_figure`)."""
        return audit_figure(self.rows)

    def largest_factor(self) -> float:
        """The largest finite implied ε over stated ε."""
        factors = [r.implied_eps / r.stated_eps for r in self.rows if np.isfinite(r.implied_eps)]
        return float(max(factors))


def summary(*items: ItemAudit) -> Summary:
    """Gather the rows of the items, in the order given."""
    return Summary(tuple(r for item in items for r in item.rows), {})
