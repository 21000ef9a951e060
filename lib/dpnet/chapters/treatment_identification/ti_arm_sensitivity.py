"""The book's table ``ti-arm-sensitivity``: how far one patient moves an entry of Figure 5's four-arm table,
on the run's centres and on a centre built for the purpose, against §12's ``Δ = 2B_θ`` with which the
entries are released."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import pandas as pd

from dpnet.chapters.treatment_identification._common import CONTROL
from dpnet.chapters.treatment_identification.p003_fig5 import _fig5_setting, centres
from dpnet.params import Cost, Parameters
from dpnet.reference import identification as ref
from dpnet.results import Check
from dpnet.survival import cox_sensitivity, treatments

__all__ = ["ArmSensitivity", "arm_sensitivity", "cost"]

#: Measured on this 2-core machine (one core): the neighbours of one entry, per (patient of the entry's
#: cohort)² (the removals and the added patients each cost O(N·E·grid) with E ∝ N events).
_PAIR_SECONDS = 2.2e-6
#: The ACTG 175 patients of the largest of the three comparisons (ZDV with ZDV+ddI, ZDV+Zal or ddI).
_LARGEST_COMPARISON = 1093


def cost(values: Mapping[str, Any]) -> Cost:
    """The neighbours of every entry of the four-arm table.

    With ``n = n_centers`` and ``N = 1093/n`` the patients of a centre's largest comparison:

    * seconds: ``3·n·2.2·10⁻⁶·N²`` (three arms, ``n`` centres);
    * peak: the changes of a centre's removals and additions at 201 values of θ, with their temporaries,
      ``3·8·201·N·(N/4)`` bytes (``N/4`` events).

    Calibrated on this 2-core machine, one core: 1.4 s at the default five centres, 0.7 s at 10.
    """
    n = values["n_centers"]
    N = _LARGEST_COMPARISON / n
    return Cost(seconds=3 * n * _PAIR_SECONDS * N**2, peak=3 * 8.0 * 201 * N * N / 4)


@dataclass(frozen=True, eq=False)
class ArmSensitivity:
    """How far one patient moves an entry of the four-arm table.

    Attributes
    ----------
    frame
        One row per arm, centre and kind of neighbour (:data:`~dpnet.survival.treatments.GLRT_NEIGHBOURS`):
        the largest change of that entry over every neighbour of the kind
        (:func:`~dpnet.survival.treatments.glrt_changes`).
    delta
        The sensitivity ``Δ = 2B_θ`` the entries are released with.
    worst, worst_patients
        The change of one treatment on the worst-case centre of ``worst_patients`` patients, the size of
        the run's largest comparison at one centre (:func:`~dpnet.survival.treatments.glrt_worst_case`).
    checks, paper_setting
        Against §12, keyed by item (:func:`~dpnet.reference.identification.arm_entry_checks`); whether the
        run uses Figure 5's setting.
    """

    frame: pd.DataFrame
    delta: float
    worst: float
    worst_patients: int
    checks: Mapping[str, list[Check]]
    paper_setting: bool

    @property
    def deviations(self) -> tuple[tuple[str, str, str], ...]:
        """None: the table is the book's own."""
        return ()

    @property
    def largest(self) -> dict[str, float]:
        """Per kind of neighbour, the largest change of any entry."""
        return self.frame.groupby("neighbour", sort=False)["change"].max().to_dict()

    def pivot(self) -> pd.DataFrame:
        """The largest change per arm (rows) and kind of neighbour (columns), over the centres, in nats."""
        return self.frame.pivot_table(
            index="arm", columns="neighbour", values="change", aggfunc="max", sort=False
        )

    def metrics(self) -> dict[str, Any]:
        """The largest changes and the worst case, under their metrics.json names."""
        return {"arm_entry_changes": self.largest, "arm_entry_worst": self.worst,
                "arm_entry_worst_patients": self.worst_patients}  # fmt: skip

    def tables(self) -> dict[str, pd.DataFrame]:
        """The table written to ``tables/``."""
        return {"ti-arm-sensitivity": self.frame}


def arm_sensitivity(P: Parameters, actg: pd.DataFrame) -> ArmSensitivity:
    """Every neighbour of every entry of the four-arm table of :func:`~.p003_fig5.four_arms` (the same
    centres), and the worst-case centre of the largest comparison's size."""
    rows, sizes = [], []
    for _, arm, i, x, t, e in treatments.arm_cohorts(actg, centres(P, actg), control=CONTROL):
        sizes.append(len(x))
        changes = treatments.glrt_changes(x, t, e, penalizer=P.penalizer, b_theta=P.b_theta)
        rows += [{"arm": arm, "centre": i, "neighbour": k, "change": v} for k, v in changes.items()]
    frame = pd.DataFrame(rows)
    delta = cox_sensitivity(P.b_theta)
    before, after = treatments.glrt_worst_case(max(sizes), penalizer=P.penalizer, b_theta=P.b_theta)
    largest = frame.groupby("neighbour", sort=False)["change"].max().to_dict()
    checks = ref.arm_entry_checks(largest, delta, worst=abs(before - after), worst_patients=max(sizes))
    return ArmSensitivity(
        frame, delta, abs(before - after), max(sizes), {"p003-fig5": checks}, _fig5_setting(P)
    )
