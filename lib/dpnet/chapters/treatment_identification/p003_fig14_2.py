"""Paper 003, Figure 14.2, as a measurement: the private test timed on both cohorts of the paper's figure
(panel (a) the cancer cohort, panel (b) ACTG 175), and against a homomorphic-encryption (CKKS) baseline
on the cancer cohort, the one FAMHE was timed on, on one machine; and the operation counts of §14.2.

The DP test of the authors' runtime notebook is the simple one (θ = 0 against one alternative); §14.3
describes the composite one (θ ≠ 0), which needs a Cox fit per centre. Both are timed on the cancer
cohort, the simple one on ACTG 175 too."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import matplotlib.ticker as mticker
import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from dpnet import encrypted, runtime
from dpnet import survival as sv
from dpnet.params import Cost, Parameters
from dpnet.plotting import panel_grid
from dpnet.reference import identification as ref
from dpnet.results import Check
from dpnet.sweep import sweep

__all__ = ["COHORT_NAMES", "RuntimeStudy", "cost", "runtime_study"]

#: The cohorts of Figure 14.2, as titles name them.
COHORT_NAMES: dict[str, str] = {
    "cancer": "(a) cancer cohort (top-10 % TMB)",
    "actg": "(b) ACTG 175 (ddI vs ZDV)",
}
#: The cohorts, as a sentence names them.
_SHORT_NAMES: dict[str, str] = {"cancer": "cancer", "actg": "ACTG 175"}
#: The number of states of the runtime study's test, Θ = {0, θ₁}.
_STATES = 2

#: Measured on this 2-core machine (one core): one centre of one timed point of the DP test, and of the
#: CKKS baseline; one patient of one timed point.
_DP_CENTRE_SECONDS = 0.0015
_HE_CENTRE_SECONDS = 0.026
_ROW_SECONDS = 5e-6
#: The composite DP test's local Cox fit: per centre, and per patient.
_FIT_CENTRE_SECONDS = 0.0021
_FIT_ROW_SECONDS = 2.3e-6


def cost(values: Mapping[str, Any]) -> Cost:
    """Figure 14.2's timings: every number of centres at every cohort size of every cohort,
    ``runtime_repeats`` times, the CKKS baseline and the composite DP test on the cancer cohort only.

    With ``R = runtime_repeats``, ``C`` the cohorts, ``H`` = 1 when the cancer cohort is timed (else 0),
    ``Σm`` the sum of ``runtime_n_values``, ``N`` their number and ``S`` the number of cohort sizes:

    * seconds: ``R·(S·Σm·(0.0015·|C| + (0.026 + 0.0036)·H) + N·Σrows·(5·10⁻⁶·|C| + 2.3·10⁻⁶·H))``;
    * peak: the CKKS contexts and the cohort, ``4.5·10⁵·max(runtime_n_values) + 270·max(runtime_rows)``
      bytes.

    Calibrated on this 2-core machine, one core (TenSEAL installed): the timings of the cancer cohort
    took 10.9 s at the defaults without the composite test, 13.9 s and 0.22 GiB for one point at 500
    centres, 1.1 s at 200 000 rows; the DP test alone, 0.25 s per cohort at the defaults (one repeat);
    the composite test's Cox fits 1.8 s at the defaults (one repeat).
    """
    n_rt, rows, cohorts = values["runtime_n_values"], values["runtime_rows"], values["runtime_cohorts"]
    he = 1.0 if ref.HE_COHORT in cohorts else 0.0
    per_centre = (
        _DP_CENTRE_SECONDS * len(cohorts)
        + (_HE_CENTRE_SECONDS + _FIT_CENTRE_SECONDS + _DP_CENTRE_SECONDS) * he
    )
    per_row = _ROW_SECONDS * len(cohorts) + _FIT_ROW_SECONDS * he
    seconds = values["runtime_repeats"] * (
        per_centre * len(rows) * sum(n_rt) + per_row * len(n_rt) * sum(rows)
    )
    return Cost(seconds=seconds, peak=4.5e5 * max(n_rt) + 270.0 * max(rows))


def _runtime_setting(P: Parameters) -> bool:
    return P.is_paper("runtime_cohorts", "runtime_n_values", "runtime_rows")


def _point(cohort: str, n: int, rows: int) -> str:
    return f"{cohort}, n = {n}, {rows:,} rows"


_TEST = {runtime.METHODS[0]: "", runtime.METHODS[2]: ", composite"}


@dataclass(frozen=True, eq=False)
class RuntimeStudy:
    """Paper 003, Figure 14.2, as a measurement: the private test on each cohort, and a CKKS baseline on
    the cancer cohort, on one machine.

    Attributes
    ----------
    cohorts
        The cohorts timed (``"cancer"``, ``"actg"``), in the order of the figure's panels.
    n_values, rows
        The numbers of centres and the sizes of the resampled cohorts.
    records
        One row per cohort, method, n, rows and phase: the median seconds over the repeats, and under
        ``"result"`` what the method's last repeat computed.
    speedups
        HE total time over DP total time at every ``(n, rows)`` of the cancer cohort timed with both
        methods, for each DP test and with or without HE's key generation (``RATIOS``; each empty
        when TenSEAL is absent or the cancer cohort is not timed).
    checks, paper_setting
        Against the paper, keyed by item; whether the run uses Figure 14.2's setting.
    """

    cohorts: tuple[str, ...]
    n_values: tuple[int, ...]
    rows: tuple[int, ...]
    records: pd.DataFrame
    speedups: Mapping[str, Mapping[tuple[int, int], float]]
    checks: Mapping[str, list[Check]]
    paper_setting: bool

    def _totals(self, method: str) -> pd.DataFrame:
        r = self.records
        return r[(r.method == method) & (r.phase == "total")]

    @property
    def dp_range(self) -> tuple[float, float]:
        """The simple DP test's smallest and largest total time, over every cohort
        (:meth:`total_range`)."""
        dp = self._totals(runtime.METHODS[0]).seconds
        return float(dp.min()), float(dp.max())

    def total_range(self, test: str = "simple") -> tuple[float, float]:
        """The smallest and largest total time of one DP test, ``"simple"`` (θ = 0 against one
        alternative, timed on every cohort) or ``"composite"`` (θ ≠ 0, timed on the cancer cohort), over
        every point it was timed at (``nan`` when it was not timed)."""
        method = runtime.METHODS[0] if test == "simple" else runtime.METHODS[2]
        dp = self._totals(method).seconds
        return (float(dp.min()), float(dp.max())) if len(dp) else (np.nan, np.nan)

    def slowest_total(self) -> dict[str, Any]:
        """The slowest total of either DP test: ``{"seconds", "test", "cohort", "n", "rows"}``, with
        ``test`` ``"simple"`` or ``"composite"`` and ``cohort`` ``"cancer"`` or ``"ACTG 175"`` (the point
        ``under-1s`` decides on; ``seconds`` is ``nan`` when nothing was timed)."""
        r = self.records
        dp = r[r.method.isin([runtime.METHODS[0], runtime.METHODS[2]]) & (r.phase == "total")]
        if not len(dp):
            return {"seconds": np.nan, "test": None, "cohort": None, "n": None, "rows": None}
        top = dp.loc[dp.seconds.idxmax()]
        test = "composite" if top.method == runtime.METHODS[2] else "simple"
        return {"seconds": float(top.seconds), "test": test, "cohort": _SHORT_NAMES[str(top.cohort)],
                "n": int(top.n), "rows": int(top.rows)}  # fmt: skip

    @property
    def dp_largest(self) -> float:
        """The DP test's largest total time for the most centres and the largest cohort size."""
        dp = self._totals(runtime.METHODS[0])
        return float(dp[(dp.n == max(self.n_values)) & (dp.rows == max(self.rows))].seconds.max())

    @property
    def he_range(self) -> tuple[float, float]:
        """The HE baseline's smallest and largest total time (``nan`` when it was not timed)."""
        he = self._totals(runtime.METHODS[1]).seconds
        return (float(he.min()), float(he.max())) if len(he) else (np.nan, np.nan)

    @property
    def he_local_per_centre_ms(self) -> float:
        """The HE baseline's largest local time of one centre (counting and encrypting), in milliseconds
        (``nan`` when it was not timed)."""
        r = self.records
        he = r[(r.method == runtime.METHODS[1]) & (r.phase == "local per centre")].seconds
        return float(he.max()) * 1e3 if len(he) else np.nan

    @property
    def he_lrt(self) -> float:
        """The pooled likelihood-ratio statistic the HE baseline decrypted for the largest cohort size
        (the same for every n: the pooled counts are exact; ``nan`` when HE was not timed)."""
        he = self._totals(runtime.METHODS[1])
        largest = he[he.rows == max(self.rows)]
        return float(largest.iloc[0]["result"]["lrt"]) if len(largest) else np.nan

    def speedup_range(self, kind: str = "composite") -> tuple[float, float]:
        """The smallest and largest HE/DP total-time ratio of ``kind`` (``RATIOS``; ``nan`` when HE was
        not timed)."""
        values = list(self.speedups.get(kind, {}).values())
        return (min(values), max(values)) if values else (np.nan, np.nan)

    def slowest_ratio(self, kind: str = "composite") -> dict[str, float]:
        """Where the HE/DP ratio of ``kind`` is smallest: ``{"n", "rows", "ratio", "below"}``, with
        ``below`` the number of points under the claimed 10× (all ``nan`` when HE was not timed)."""
        ratios = self.speedups.get(kind, {})
        if not ratios:
            return {"n": np.nan, "rows": np.nan, "ratio": np.nan, "below": np.nan}
        (n, rows), ratio = min(ratios.items(), key=lambda kv: kv[1])
        below = sum(r < ref.CLAIMED_SPEEDUP[0] for r in ratios.values())
        return {"n": n, "rows": rows, "ratio": ratio, "below": below, "points": len(ratios)}

    def seconds(self, method: str, phase: str, n: int, rows: int, cohort: str = ref.HE_COHORT) -> float:
        """The median seconds of one method, phase and point (``nan`` when it was not timed)."""
        r = self.records
        hit = r[
            (r.cohort == cohort) & (r.method == method) & (r.phase == phase) & (r.n == n) & (r.rows == rows)
        ]
        return float(hit.seconds.iloc[0]) if len(hit) else np.nan

    def operations(self) -> pd.DataFrame:
        """§14.2's counts for every DP point: ``K``, ``T``, a centre's patients ``n_i`` (the largest
        share), its belief updates ``|Θ|·K·T·deg(i)`` on the complete graph (``deg(i) = n − 1``) and the
        numbers it stores during communication, ``K·|Θ|``."""
        dp = self._totals(runtime.METHODS[0])
        rows = []
        for r in dp.itertuples():
            K, T = int(r.result["K"]), int(r.result["T"])
            rows.append({
                "cohort": r.cohort, "n": r.n, "rows": r.rows, "n_i": -(-r.rows // r.n), "K": K, "T": T,
                "belief updates per centre": _STATES * K * T * (r.n - 1), "numbers stored": K * _STATES,
            })  # fmt: skip
        return pd.DataFrame(rows)

    def iterations(self) -> pd.DataFrame:
        """The DP test's iterations per round ``T``, per cohort and cohort size, one column per n."""
        return self.operations().pivot_table(index=["cohort", "rows"], columns="n", values="T")

    def growth(self, cohort: str, rows: int) -> dict[str, float]:
        """From the fewest centres to the most, at one cohort and size: how many times the belief
        updates grow, per centre and over the network, and how many times the measured communication
        time of all centres grows (``nan`` when those points were not timed)."""
        return _growth(self.records, self.operations(), cohort, rows, self.n_values)

    def metrics(self) -> dict[str, Any]:
        """The timings, under their metrics.json names (they vary from run to run): ``runtime`` for the
        cancer cohort (panel a), ``runtime_actg`` for ACTG 175 (panel b)."""
        columns = ["method", "n", "rows", "phase", "seconds"]
        out: dict[str, Any] = {
            ("runtime" if c == "cancer" else f"runtime_{c}"): self.records[self.records.cohort == c][
                columns
            ].to_dict("records")
            for c in self.cohorts
        }
        out.update({
            "runtime_cohorts": list(self.cohorts), "dp_total_min": self.dp_range[0],
            "dp_total_max": self.dp_range[1], "dp_total_big": self.dp_largest,
            "runtime_operations": self.operations().to_dict("records"),
        })  # fmt: skip
        for kind, ratios in self.speedups.items():
            if ratios:
                out[f"runtime_speedup_{kind.replace(' ', '_')}"] = [
                    {"n": n, "rows": r, "he_over_dp": v} for (n, r), v in ratios.items()
                ]
        return out

    def tables(self) -> dict[str, pd.DataFrame]:
        """The tables written to ``tables/``."""
        return {
            "p003-fig14-2": self.records[["cohort", "method", "n", "rows", "phase", "seconds"]],
            "p003-fig14-2-operations": self.operations(),
        }

    @property
    def deviations(self) -> tuple[tuple[str, str, str], ...]:
        """On the paper's setting: a measured baseline instead of quoted runtimes."""
        return (("p003-fig14-2", *ref.FIG142_DEVIATION),) if self.paper_setting else ()

    def pivot(self) -> pd.DataFrame:
        """Seconds per cohort, method, cohort size and phase (local, communication, total), one column
        per n."""
        r = self.records[self.records.phase.isin(["local", "communication", "total"])]
        return r.pivot_table(index=["cohort", "method", "rows", "phase"], columns="n", values="seconds")

    def figure(self) -> Figure:
        """One row per cohort, three panels (one centre's local work, communication, total): seconds
        against n on log–log axes, one line per method and cohort size (colour: size; DP test against one
        alternative solid, composite DP test dash-dotted, HE dashed)."""
        phases = ("local per centre", "communication", "total")
        styles = {runtime.METHODS[0]: ("o", "-", "DP"), runtime.METHODS[2]: ("^", "-.", "DP composite"),
                  runtime.METHODS[1]: ("s", "--", "HE")}  # fmt: skip
        fig, axes = panel_grid(len(self.cohorts), len(phases), height=3.0,
                               row_titles=[COHORT_NAMES[c] for c in self.cohorts])  # fmt: skip
        for row, cohort in zip(axes, self.cohorts, strict=True):
            here = self.records[self.records.cohort == cohort]
            for ax, phase in zip(row, phases, strict=True):
                for method, (marker, line, short) in styles.items():
                    for j, rows in enumerate(self.rows):
                        part = here[(here.method == method) & (here.rows == rows) & (here.phase == phase)]
                        if len(part):
                            part = part.sort_values("n")
                            ax.plot(part.n, part.seconds, marker=marker, ls=line, ms=4, color=f"C{j}",
                                    label=f"{short}, {rows:,} rows")  # fmt: skip
                ax.set(xscale="log", yscale="log", xlabel="centres n", ylabel="seconds", title=phase)
                ax.set_xticks(self.n_values, [str(n) for n in self.n_values])
                ax.xaxis.set_minor_locator(mticker.NullLocator())  # the n ticks only; y keeps its labels
                ax.grid(alpha=0.3)
        widest = max(axes[:, 0], key=lambda ax: len(ax.get_legend_handles_labels()[0]))
        fig.legend(*widest.get_legend_handles_labels(), loc="outside lower center", ncol=3)
        return fig


def _growth(
    records: pd.DataFrame, operations: pd.DataFrame, cohort: str, rows: int, n_values: tuple[int, ...]
) -> dict[str, float]:
    ops = operations[(operations.cohort == cohort) & (operations.rows == rows)]
    per_centre = ops.set_index("n")["belief updates per centre"]
    dp = records[(records.cohort == cohort) & (records.rows == rows) & (records.method == runtime.METHODS[0])]
    comm = dp[dp.phase == "communication"].set_index("n").seconds
    lo, hi = min(n_values), max(n_values)
    if lo == hi or lo not in per_centre.index or hi not in per_centre.index:
        return {"updates": np.nan, "network updates": np.nan, "communication": np.nan}
    ratio = float(per_centre[hi] / per_centre[lo])
    return {"updates": ratio, "network updates": ratio * hi / lo, "communication": float(comm[hi] / comm[lo])}


def _runtime_cohort(cohort: str) -> pd.DataFrame:
    if cohort == "cancer":
        return sv.tmb_cohort(sv.load_samstein2019(), "top10")
    return sv.arm_cohort(sv.load_actg175(), "ddI")


def _tasks(P: Parameters, cohort: str, with_he: bool) -> list[runtime.RuntimeTask]:
    data = _runtime_cohort(cohort)
    return [
        runtime.RuntimeTask(
            x=data.x.to_numpy(float), time=data.time.to_numpy(float), event=data.event.to_numpy(float),
            rows=rows, n_values=tuple(P.runtime_n_values), repeats=P.runtime_repeats,
            theta_alt=ref.RUNTIME_THETA_ALT[cohort], with_he=with_he,
            with_composite=cohort == ref.HE_COHORT, penalizer=P.penalizer,
        )
        for rows in P.runtime_rows
    ]  # fmt: skip


#: The HE/DP ratios a runtime study records: against the composite DP test (θ ≠ 0, §14.3) and the simple
#: one (the authors' runtime notebook), each with HE's key generation and without it.
RATIOS: dict[str, tuple[str, bool]] = {
    "composite": (runtime.METHODS[2], False),
    "simple": (runtime.METHODS[0], False),
    "composite without key generation": (runtime.METHODS[2], True),
    "simple without key generation": (runtime.METHODS[0], True),
}


def runtime_study(P: Parameters) -> RuntimeStudy:
    """Time the DP test on every cohort of ``runtime_cohorts`` and, when TenSEAL is installed, the CKKS
    baseline on the cancer cohort, for every cohort size of ``runtime_rows`` and number of centres of
    ``runtime_n_values`` (one worker, pinned to one core while timing). The cancer cohort's resamples
    come from stream ``p003-fig14-2`` (task key: the size), ACTG's from ``p003-fig14-2/actg``."""
    frames = []
    for cohort in P.runtime_cohorts:
        he = cohort == ref.HE_COHORT and encrypted.tenseal_available()
        tasks = _tasks(P, cohort, he)
        stream = P.stream("p003-fig14-2" if cohort == "cancer" else f"p003-fig14-2/{cohort}")
        out = sweep(runtime.runtime_task, tasks, stream, key=lambda t: (t.rows,), n_jobs=1,
                    desc=f"Figure 14.2 timings, {cohort}")  # fmt: skip
        frames.append(pd.DataFrame([{"cohort": cohort, **r} for t in tasks for r in out[t]]))
    records = pd.concat(frames, ignore_index=True)
    cancer = records[records.cohort == ref.HE_COHORT].to_dict("records")
    speedups = {
        kind: runtime.speedups(cancer, dp=method, without_setup=bare)
        for kind, (method, bare) in RATIOS.items()
    }
    dp = records[records.method.isin([runtime.METHODS[0], runtime.METHODS[2]]) & (records.phase == "total")]
    totals = {_point(r.cohort, r.n, r.rows) + _TEST[r.method]: float(r.seconds) for r in dp.itertuples()}
    checks = ref.runtime_checks(totals, speedups["composite"], published_speedups=speedups["simple"])
    study = RuntimeStudy(
        tuple(P.runtime_cohorts), tuple(P.runtime_n_values), tuple(P.runtime_rows), records, speedups,
        {"p003-fig14-2": checks}, _runtime_setting(P),
    )  # fmt: skip
    grow = study.growth(P.runtime_cohorts[0], max(P.runtime_rows))
    checks.append(ref.overhead_check(grow["network updates"], grow["communication"]))
    return study
