"""What the items of Chapter 9 share: the sampling audits, run as one sweep per item through
:func:`dpnet.sweep.sweep` (so they run on a Dask cluster when a scheduler is named, with the same results
for any number of workers), and the result type every item returns."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from dpnet import audit
from dpnet.audit import MechanismAudit
from dpnet.mechanisms import AuditResult
from dpnet.params import Parameters
from dpnet.results import Check
from dpnet.sweep import name_key, sweep

__all__ = [
    "AUDIT_SECONDS",
    "COMPACT",
    "FAMILY_ROWS",
    "NO_SENSITIVITY",
    "AuditTask",
    "ItemAudit",
    "row_confidence",
    "run_audit",
    "run_audits",
]

#: Seconds per million draws of one input of a one-coordinate sampling audit, measured on one core of this
#: machine (drawing, the statistic and the counts of the events): about 0.25 s; ``K`` coordinates cost
#: about ``K`` times as much.
AUDIT_SECONDS = 0.25e-6
#: What a dash in the Δ columns means: a discrete release (randomized response, the recommender's bits)
#: adds no noise to a number, so it has no sensitivity; its ε is read off the exact output law.
NO_SENSITIVITY = "a discrete release: no sensitivity, its ε read off the exact output law"
#: The columns of an audit table the chapter shows.
COMPACT = (
    "row", "audits", "mechanism", "data", "stated Δ", "measured Δ", "stated ε", "stated δ", "implied ε",
    "certified ε ≥", "verdict",
)  # fmt: skip
#: The rows of the chapter's table (2 + 6 + 16 + 3 + 3): the family over which the run's ``confidence``
#: holds at once. Each row's sampling audit runs at ``1 − (1 − confidence)/FAMILY_ROWS`` (Bonferroni), so
#: every certified bound of the chapter holds simultaneously with probability at least ``confidence``.
FAMILY_ROWS = 30


def row_confidence(P: Parameters) -> float:
    """The confidence of one row's sampling audit: the run's family-wise ``confidence`` split evenly over
    the :data:`FAMILY_ROWS` rows (Bonferroni)."""
    return 1.0 - (1.0 - P.confidence) / FAMILY_ROWS


@dataclass(frozen=True)
class AuditTask:
    """One sampling audit: a row's key, the kind of release (``"shift"``: Laplace coordinates whose means
    move by ``args[0]`` with scales ``args[1]``; ``"difference"``: the difference of two Laplace-noised
    coordinates, ``(shift, scale)``; ``"pair"``: two Laplace laws ``(m1, b1, m2, b2)``;
    ``"discrete"``: two output laws and the events), draws per input, confidence, and the δ of the
    guarantee audited (a ``"pair"`` of an (ε, δ) guarantee; ``0`` for pure ε-DP)."""

    key: str
    kind: str
    args: tuple[Any, ...] = field(repr=False)
    draws: int
    confidence: float
    delta: float = 0.0


def run_audit(task: AuditTask, rng: np.random.Generator) -> AuditResult:
    """The sweep's task function: :mod:`dpnet.audit`'s sampling audit of one row."""
    if task.kind == "shift":
        shift, scales = task.args
        return audit.laplace_shift_audit(shift, scales, task.draws, rng, task.confidence, delta=task.delta)
    if task.kind == "difference":
        shift, scale = task.args
        return audit.laplace_difference_audit(shift, scale, task.draws, rng, task.confidence)
    if task.kind == "pair":
        return audit.laplace_pair_audit(*task.args, task.draws, rng, task.confidence, delta=task.delta)
    p, q, events = task.args
    return audit.discrete_audit(p, q, task.draws, rng, events, task.confidence, delta=task.delta)


def run_audits(P: Parameters, item: str, tasks: Sequence[AuditTask]) -> dict[str, AuditResult]:
    """Run the sampling audits of an item's rows (stream ``<item>/audit``, each row's draws from its own
    child stream, named by the row's key), keyed by row."""
    out = sweep(run_audit, list(tasks), P.stream(f"{item}/audit"), key=lambda t: name_key(t.key))
    return {t.key: r for t, r in out.items()}


@dataclass(frozen=True)
class ItemAudit:
    """One item's audit: its rows (:class:`~dpnet.audit.MechanismAudit`), the numbers the chapter quotes
    beside them, and the checks against the paper and the independent references."""

    item: str
    rows: tuple[MechanismAudit, ...]
    extra: Mapping[str, float]
    checks: Mapping[str, list[Check]]
    deviations: tuple[tuple[str, str, str], ...] = ()
    #: The checks are of the papers' stated guarantees, made for any parameters.
    paper_setting: bool = True

    def row(self, key: str) -> MechanismAudit:
        """The row called ``key``."""
        return next(r for r in self.rows if r.key == key)

    @property
    def table(self) -> pd.DataFrame:
        """One line per mechanism: stated and measured Δ and ε, the certified bound and the verdict."""
        return pd.DataFrame([r.row() for r in self.rows])

    @property
    def compact(self) -> pd.DataFrame:
        """The columns the chapter shows: the row, the mechanism, Δ and ε stated and measured, the
        certified bound and the verdict."""
        return self.table[list(COMPACT)]

    def metrics(self) -> dict[str, Any]:
        """Per row, the measured Δ, the implied ε and the certified bound; and the quoted numbers."""
        out: dict[str, Any] = {
            r.key: {
                "measured_delta": r.measured_delta,
                "implied_eps": r.implied_eps,
                "certified": r.certified,
            }
            for r in self.rows
        }
        out.update({f"{self.item}/{k}": v for k, v in self.extra.items()})
        return out

    def tables(self) -> dict[str, pd.DataFrame]:
        """None recorded with the result: the chapter shows :attr:`table` under the item's key."""
        return {}

    def figure(self) -> Figure:
        """The item's rows on the chapter's summary axes (stated ε against audited ε)."""
        from dpnet.chapters.privacy_audit.summary import audit_figure

        return audit_figure(self.rows)
