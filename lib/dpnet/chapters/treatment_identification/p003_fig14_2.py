"""Paper 003, Figure 14.2, as a measurement: the private test timed against a homomorphic-encryption
(CKKS) baseline on one machine."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from dpnet import encrypted, runtime
from dpnet import survival as sv
from dpnet.params import Cost, Parameters
from dpnet.plotting import grouped_bars, panel_row
from dpnet.reference import identification as ref
from dpnet.results import Check
from dpnet.sweep import sweep

__all__ = ["RuntimeStudy", "cost", "runtime_study"]

#: Measured on this 2-core machine (one core): one centre of one timed point (the DP test and the CKKS
#: baseline); one patient of one timed point.
_CENTRE_SECONDS = 0.028
_ROW_SECONDS = 5e-6


def cost(values: Mapping[str, Any]) -> Cost:
    """Figure 14.2's timings: every number of centres at every cohort size, ``runtime_repeats`` times.

    * seconds: ``runtime_repeats·Σ_rows Σ_m (0.028·m + 5·10⁻⁶·rows)``, over ``m`` in
      ``runtime_n_values`` and ``rows`` in ``runtime_rows``;
    * peak: the CKKS contexts and the cohort, ``4.5·10⁵·max(runtime_n_values) + 270·max(runtime_rows)``
      bytes.

    Calibrated on this 2-core machine, one core (TenSEAL installed): the timings took 10.9 s at the
    defaults, 13.9 s and 0.22 GiB for one point at 500 centres, 1.1 s at 200 000 rows.
    """
    n_rt, rows = values["runtime_n_values"], values["runtime_rows"]
    seconds = values["runtime_repeats"] * (
        _CENTRE_SECONDS * len(rows) * sum(n_rt) + _ROW_SECONDS * len(n_rt) * sum(rows)
    )
    return Cost(seconds=seconds, peak=4.5e5 * max(n_rt) + 270.0 * max(rows))


def _runtime_setting(P: Parameters) -> bool:
    return P.is_paper("runtime_dataset", "runtime_n_values", "runtime_rows")


@dataclass(frozen=True, eq=False)
class RuntimeStudy:
    """Paper 003, Figure 14.2, as a measurement: the private test and a CKKS baseline on one machine.

    Attributes
    ----------
    dataset, name
        The cohort (``"cancer"`` or ``"actg"``) and its name for titles.
    n_values, rows
        The numbers of centres and the sizes of the resampled cohorts.
    records
        One row per method, n, rows and phase: the median seconds over the repeats, and under
        ``"result"`` what the method's last repeat computed.
    speedups
        HE total time over DP total time at every ``(n, rows)`` timed with both methods (empty when
        TenSEAL is absent).
    checks, paper_setting
        Against the paper, keyed by item; whether the run uses Figure 14.2's setting.
    """

    dataset: str
    name: str
    n_values: tuple[int, ...]
    rows: tuple[int, ...]
    records: pd.DataFrame
    speedups: Mapping[tuple[int, int], float]
    checks: Mapping[str, list[Check]]
    paper_setting: bool

    def _totals(self, method: str) -> pd.DataFrame:
        r = self.records
        return r[(r.method == method) & (r.phase == "total")]

    @property
    def dp_range(self) -> tuple[float, float]:
        """The DP test's smallest and largest total time."""
        dp = self._totals(runtime.METHODS[0]).seconds
        return float(dp.min()), float(dp.max())

    @property
    def dp_largest(self) -> float:
        """The DP test's total time for the most centres and the largest cohort."""
        dp = self._totals(runtime.METHODS[0])
        return float(dp[(dp.n == max(self.n_values)) & (dp.rows == max(self.rows))].seconds.iloc[0])

    @property
    def he_range(self) -> tuple[float, float]:
        """The HE baseline's smallest and largest total time (``nan`` when it was not timed)."""
        he = self._totals(runtime.METHODS[1]).seconds
        return (float(he.min()), float(he.max())) if len(he) else (np.nan, np.nan)

    @property
    def he_per_centre_ms(self) -> float:
        """The HE baseline's largest total over the most centres, in milliseconds (``nan`` when not timed)."""
        return self.he_range[1] / max(self.n_values) * 1e3

    @property
    def he_lrt(self) -> float:
        """The pooled likelihood-ratio statistic the HE baseline decrypted for the largest cohort."""
        he = self._totals(runtime.METHODS[1])
        return float(he.iloc[-1]["result"]["lrt"]) if len(he) else np.nan

    @property
    def speedup_range(self) -> tuple[float, float]:
        """The smallest and largest HE/DP total-time ratio (``nan`` when HE was not timed)."""
        values = list(self.speedups.values())
        return (min(values), max(values)) if values else (np.nan, np.nan)

    def metrics(self) -> dict[str, Any]:
        """The timings, under their metrics.json names (they vary from run to run)."""
        out: dict[str, Any] = {
            "runtime": self.records[["method", "n", "rows", "phase", "seconds"]].to_dict("records"),
            "runtime_dataset": self.dataset, "dp_total_min": self.dp_range[0],
            "dp_total_max": self.dp_range[1], "dp_total_big": self.dp_largest,
        }  # fmt: skip
        if self.speedups:
            out["runtime_speedup"] = [
                {"n": n, "rows": r, "he_over_dp": s} for (n, r), s in self.speedups.items()
            ]
        return out

    def tables(self) -> dict[str, pd.DataFrame]:
        """The table written to ``tables/``."""
        return {"p003-fig14-2": self.records[["method", "n", "rows", "phase", "seconds"]]}

    @property
    def deviations(self) -> tuple[tuple[str, str, str], ...]:
        """On the paper's setting: a measured baseline instead of quoted runtimes."""
        return (("p003-fig14-2", *ref.FIG142_DEVIATION),) if self.paper_setting else ()

    def pivot(self) -> pd.DataFrame:
        """Seconds per method, cohort size and phase (local, communication, total), one column per n."""
        r = self.records[self.records.phase.isin(["local", "communication", "total"])]
        return r.pivot_table(index=["method", "rows", "phase"], columns="n", values="seconds")

    def figure(self) -> Figure:
        """Three panels (one centre's local work, communication, total): bars per n, one per method and
        cohort size, on a log scale; HE hatched."""
        fig, axes = panel_row(3, height=3.2)
        methods = [m for m in runtime.METHODS if (self.records.method == m).any()]
        for ax, phase in zip(axes, ("local per centre", "communication", "total"), strict=True):
            series, colors, hatches = {}, {}, {}
            for m in methods:
                for j, rows in enumerate(self.rows):
                    part = self.records[(self.records.method == m) & (self.records.rows == rows)
                                        & (self.records.phase == phase)].sort_values("n")  # fmt: skip
                    label = f"{m.split()[0]}, {rows:,} rows"
                    series[label], colors[label] = part.seconds.tolist(), f"C{j}"
                    hatches[label] = "//" if m == runtime.METHODS[1] else None
            grouped_bars(ax, series, self.n_values, colors=colors, hatches=hatches)
            ax.set(yscale="log", xlabel="centres n", ylabel="seconds", title=phase)
        fig.legend(*axes[0].get_legend_handles_labels(), loc="outside lower center", ncol=3)
        fig.suptitle(f"{self.name}: DP belief propagation vs CKKS aggregation")
        return fig


def _runtime_cohort(dataset: str) -> tuple[pd.DataFrame, str]:
    if dataset == "cancer":
        return sv.tmb_cohort(sv.load_samstein2019(), "top10"), "cancer cohort (top-10 % TMB)"
    return sv.arm_cohort(sv.load_actg175(), "ddI"), "ACTG 175 (ddI vs ZDV)"


def runtime_study(P: Parameters) -> RuntimeStudy:
    """Time the DP test and, when TenSEAL is installed, the CKKS baseline, for every cohort size of
    ``runtime_rows`` and number of centres of ``runtime_n_values`` (stream ``p003-fig14-2``, one worker,
    pinned to one core while timing)."""
    cohort, name = _runtime_cohort(P.runtime_dataset)
    tasks = [
        runtime.RuntimeTask(
            x=cohort.x.to_numpy(float), time=cohort.time.to_numpy(float), event=cohort.event.to_numpy(float),
            rows=rows, n_values=tuple(P.runtime_n_values), repeats=P.runtime_repeats,
            theta_alt=ref.RUNTIME_THETA_ALT[P.runtime_dataset], with_he=encrypted.tenseal_available(),
        )
        for rows in P.runtime_rows
    ]  # fmt: skip
    out = sweep(runtime.runtime_task, tasks, P.stream("p003-fig14-2"), key=lambda t: (t.rows,), n_jobs=1,
                desc="Figure 14.2 timings")  # fmt: skip
    records = pd.DataFrame([r for t in tasks for r in out[t]])
    speedups = runtime.speedups(records.to_dict("records"))
    point_n, point_rows = ref.RUNTIME_POINT
    dp = records[(records.method == runtime.METHODS[0]) & (records.phase == "total")]
    at_point = dp[(dp.n == point_n) & (dp.rows == point_rows)].seconds
    checks = ref.runtime_checks(float(at_point.iloc[0]) if len(at_point) else None, speedups)
    return RuntimeStudy(
        P.runtime_dataset, name, tuple(P.runtime_n_values), tuple(P.runtime_rows), records, speedups,
        {"p003-fig14-2": checks}, _runtime_setting(P),
    )  # fmt: skip
