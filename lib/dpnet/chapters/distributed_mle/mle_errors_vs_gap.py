"""The book's figure ``mle-errors-vs-gap`` and table ``gap_verdicts``: where the guarantees hold.

Error rates against the likelihood gap in Laplace noise scales (``T → ∞``, ``|Θ*| = 1``, ``b = 1``,
stream ``gap-sweep``): AM and GM with the paper's and the corrected round counts of Theorem 4.1, the
two-threshold sets of Theorem 4.3 and the single threshold of Corollary 4.4; the table gives, per rule,
the smallest gap from which every rate stays within its target.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

import pandas as pd
from matplotlib.figure import Figure

from dpnet import inference as inf
from dpnet.chapters.distributed_mle._common import (
    _CHUNK,
    Record,
    _chunk_bytes,
    _gap_table,
    _keyed_sweep,
    _record,
    _round_bounds,
    _sweep_seconds,
    _task,
)
from dpnet.chapters.distributed_mle.synthetic_instance import Instance
from dpnet.params import Cost, Parameters
from dpnet.plotting import SMALL, error_rate_axes, guarantee_line, panel_row, plot_error_rates
from dpnet.results import Check, Deviation

__all__ = ["GapSweep", "cost", "gap_sweep"]


def cost(values: Mapping[str, Any]) -> Cost:
    """Time and memory of the gap sweep: ``6G`` tasks of ``R`` replications, ``G = len(gap_values)``.

    Per gap, AM and GM with up to four round counts of Theorem 4.1, Theorem 4.3 and Corollary 4.4: at
    most ``4K_r + 2K_f`` rounds (the bounds of ``_common._round_bounds``), so
    ``R·n·|Θ|·G·(4K_r + 2K_f)`` draws; a chunk of ``min(R, 1000)·max(K_r, K_f)·n·|Θ|`` draws is held
    at a time.
    """
    n, m, R = values["n_agents"], values["n_states"], values["replications"]
    G = len(values["gap_values"])
    K_r, K_f = _round_bounds(values)
    task_rounds = G * (4 * K_r + 2 * K_f)
    return Cost(
        seconds=_sweep_seconds(R * n * m * task_rounds, R * 6 * G, task_rounds * math.ceil(R / _CHUNK)),
        peak=_chunk_bytes(R, max(K_r, K_f), n, m),
    )


@dataclass(frozen=True)
class GapSweep:
    """Error rates against the likelihood gap in Laplace noise scales (``T → ∞``, ``|Θ*| = 1``, ``b = 1``).

    Attributes
    ----------
    gaps, n_agents, n_states, alpha, beta
        The gaps (increasing) and the setting.
    rounds
        The round counts of Theorem 4.1: ``"AM, paper"``, ``"AM, corrected"``, ``"GM, paper"``,
        ``"GM, corrected"``.
    thm43, thm43_corrected, cor44
        Theorem 4.3's schedule with the paper's and the corrected ``p₂``, and Corollary 4.4's.
    records
        ``"AM, paper"``, …, ``"thres1"``, ``"thres2"``, ``"cor44"`` → one record per gap.
    p_win
        Per gap, the fraction of rounds the MLE state wins (the rounds of ``"GM, paper"``).
    """

    gaps: tuple[float, ...]
    n_agents: int
    n_states: int
    alpha: float
    beta: float
    rounds: Mapping[str, int]
    thm43: Any
    thm43_corrected: Any
    cor44: Any
    records: Mapping[str, list[Record]]
    p_win: tuple[float, ...]

    #: The book's own experiment: it checks nothing, departs from no paper and has no paper setting.
    checks: ClassVar[Mapping[str, list[Check]]] = {}
    deviations: ClassVar[tuple[Deviation, ...]] = ()
    paper_setting: ClassVar[bool] = True

    @property
    def rows(self) -> list[Record]:
        """Every record, rule by rule."""
        return [r for recs in self.records.values() for r in recs]

    def met_from(self, name: str, kind: str, target: float) -> float:
        """The smallest gap from which every rate of ``name`` meets ``target`` within Monte Carlo error.

        The first gap when every rate meets it; ``nan`` when the rate at the largest gap does not.
        """
        ok = [not inf.exceeds_target(r, kind, target) for r in self.records[name]]
        return next((g for i, g in enumerate(self.gaps) if all(ok[i:])), math.nan)

    @property
    def verdicts(self) -> pd.DataFrame:
        """Per rule: its K, the error it bounds, the target, and the smallest gap from which every rate
        stays within the target (within Monte Carlo error; "none tested" when the largest gap fails)."""
        a, miss, fail = self.alpha, 1 - self.beta, 1 - (self.beta - self.alpha)
        rules = [
            ("AM, paper's K", "AM, paper", self.rounds["AM, paper"], "Type II", "type2", miss),
            ("AM, corrected K", "AM, corrected", self.rounds["AM, corrected"], "Type II", "type2", miss),
            ("GM, paper's K", "GM, paper", self.rounds["GM, paper"], "Type I", "type1", a),
            ("GM, corrected K", "GM, corrected", self.rounds["GM, corrected"], "Type I", "type1", a),
            ("two-threshold Θ̂¹ (Thm 4.3)", "thres1", self.thm43.K, "Type I", "type1", a),
            ("two-threshold Θ̂² (Thm 4.3)", "thres2", self.thm43.K, "Type II", "type2", miss),
            ("single threshold (Cor 4.4)", "cor44", self.cor44.K, "Θ̂ ≠ Θ*", "miss_exact", fail),
        ]  # fmt: skip
        rows = []
        for label, name, K, error, kind, target in rules:
            start = self.met_from(name, kind, target)
            shown = "none tested" if math.isnan(start) else f"{start:g}"
            rows.append(
                {"rule": label, "K": K, "error": error, "target": target, "within target from gap": shown}
            )
        return pd.DataFrame(rows)

    def at(self, name: str, gap: float) -> Record:
        """The record of ``name`` at the gap tested nearest ``gap``."""
        return min(self.records[name], key=lambda r: abs(r["gap"] - gap))

    def p_win_at(self, gap: float) -> float:
        """The fraction of rounds the MLE state wins at ``gap`` (a gap of the sweep; ``nan`` for ``nan``)."""
        return math.nan if math.isnan(gap) else self.p_win[self.gaps.index(gap)]

    @property
    def exact_from(self) -> float:
        """The smallest gap at which Corollary 4.4 recovers Θ* with probability at least β − α (``nan``:
        none)."""
        ok = [r["gap"] for r in self.records["cor44"] if r["exact"] >= self.beta - self.alpha]
        return min(ok) if ok else math.nan

    def tau2(self, corrected: bool) -> float:
        """Theorem 4.3's τ² with the paper's ``p₂ = 1/|Θ̄|`` or the corrected ``1/|Θ|``."""
        s = self.thm43_corrected if corrected else self.thm43
        return inf.frequency_thresholds(s.freq_1, s.freq_2, s.K)[1]

    def wins_needed(self, corrected: bool) -> int:
        """Rounds a state must win to enter Θ̂² (``N ≥ τ²``, N a multiple of 1/K)."""
        s = self.thm43_corrected if corrected else self.thm43
        return inf.to_int_ceil(self.tau2(corrected) * s.K)

    @property
    def headline(self) -> dict[str, Any]:
        """The numbers the chapter's summary quotes, under the metrics.json name ``headline``."""
        gm_half = self.at("GM, paper", 0.5)
        am_zero = min(self.records["AM, paper"], key=lambda r: r["gap"])
        exact_from = self.exact_from
        return {
            "gm_type1_gap_half": gm_half["type1"], "gm_gap": gm_half["gap"], "gm_K": gm_half["K"],
            "am_type2_gap_zero": am_zero["type2"], "am_K": am_zero["K"],
            "am_type2_gap_zero_corrected": min(self.records["AM, corrected"], key=lambda r: r["gap"])[
                "type2"
            ],
            "thres1_type1_gap_2": self.at("thres1", 2)["type1"],
            "cor44_exact_recovery_from_gap": None if math.isnan(exact_from) else exact_from,
        }  # fmt: skip

    def metrics(self) -> dict[str, Any]:
        """The win probability against the gap, under its metrics.json name."""
        return {"win_probability_vs_gap": {"gap": self.gaps, "p_win": self.p_win}}

    def tables(self) -> dict[str, pd.DataFrame]:
        """Where each rule meets its target, written to ``tables/``."""
        return {"gap_verdicts": self.verdicts}

    def figure(self) -> Figure:
        """AM's Type II, GM's Type I, and the two-threshold and exact-recovery errors against the gap."""
        gaps, rec, K, K43, K44 = self.gaps, self.records, self.rounds, self.thm43.K, self.cor44.K
        curves = (  # panel, record, error, label, colour, marker
            (0, "AM, paper", "type2", f"AM, paper: K = {K['AM, paper']}", "C1", "o"),
            (0, "AM, corrected", "type2", f"AM, corrected: K = {K['AM, corrected']}", "C5", "s"),
            (1, "GM, paper", "type1", f"GM, paper: K = {K['GM, paper']}", "C0", "o"),
            (1, "GM, corrected", "type1", f"GM, corrected: K = {K['GM, corrected']}", "C9", "s"),
            (2, "thres1", "type1", f"Θ̂¹ Type I (K = {K43})", "C2", "^"),
            (2, "thres2", "type2", f"Θ̂² Type II (K = {K43})", "C3", "v"),
            (2, "cor44", "miss_exact", f"Cor 4.4: Θ̂ ≠ Θ* (K = {K44})", "C4", "D"),
        )
        fig, ax = panel_row(3, height=4.2)
        for j, name, kind, label, color, marker in curves:
            plot_error_rates(ax[j], gaps, rec[name], kind, label=label, color=color, marker=marker)
        guarantee_line(ax[0], 1 - self.beta, "1 − β")
        guarantee_line(ax[1], self.alpha, "α")
        guarantee_line(ax[2], self.alpha, "α")
        guarantee_line(ax[2], 1 - (self.beta - self.alpha), "1 − (β − α)", ls="-.")
        am_top = max(0.2, max(r["type2_hi"] for name in ("AM, paper", "AM, corrected") for r in rec[name]))
        frames = (("type2", "AM (Thm 4.1)", am_top), ("type1", "GM (Thm 4.1)", 1.0),
                  ("exact", "two thresholds\n(Thm 4.3, Cor 4.4)", 1.0))  # fmt: skip
        for a, (kind, title, top) in zip(ax, frames, strict=True):
            error_rate_axes(a, kind, top)
            a.set(xlabel="gap l/b (noise scales)", title=title)
            a.legend(loc="upper center", bbox_to_anchor=(0.5, -0.2), fontsize=SMALL)
        ax[2].set_ylabel("error")
        fig.suptitle(
            f"Guarantees against the likelihood gap: n = {self.n_agents}, |Θ| = {self.n_states}, |Θ*| = 1"
        )
        return fig  # fmt: skip


def gap_sweep(P: Parameters, inst: Instance) -> GapSweep:
    """The sweep over the gap (stream ``gap-sweep``; task ``(i, 0, K)`` AM/GM with K rounds at the i-th
    gap, ``(i, 1, K)`` Theorem 4.3, ``(i, 2, K)`` Corollary 4.4).

    The instance only lends its weights (unused by the ``T → ∞`` oracle); ``ε = K|Θ|`` and ``Δ = 1`` make
    the Laplace scale 1, so a gap of g is g noise scales.
    """
    n, m, alpha, beta = P.n_agents, P.n_states, P.alpha, P.beta
    gaps = tuple(sorted(P.gap_values))
    gap_prob = inf.problem_constants(_gap_table(n, m, 1.0))
    rounds = {
        "AM, paper": inf.to_int_ceil(inf.rounds_am(m, 1, beta), minimum=1),
        "AM, corrected": inf.to_int_ceil(inf.rounds_am(m, 1, beta, corrected=True), minimum=1),
        "GM, paper": inf.to_int_ceil(inf.rounds_gm(m, 1, alpha), minimum=1),
        "GM, corrected": inf.to_int_ceil(inf.rounds_gm(m, 1, alpha, corrected=True), minimum=1),
    }
    target = {"delta": 1.0, "eps": 1.0, "alpha": alpha, "beta": beta}
    s43 = inf.schedule_thm43(gap_prob, **target, pi1=P.pi, pi2=P.pi)
    s43_fixed = inf.schedule_thm43(gap_prob, **target, pi1=P.pi, pi2=P.pi, corrected=True)
    c44 = inf.schedule_cor44(gap_prob, **target, pi2=P.pi)
    opts = {"weights": inst.weights, "delta": 1.0, "reps": P.replications}
    tasks = {}
    for i, g in enumerate(gaps):
        table = _gap_table(n, m, g)
        for K in sorted(set(rounds.values())):
            tasks[(i, 0, K)] = _task(table, K * m, K, **opts)  # b = ΔK|Θ|/ε = 1
        for kind, s in ((1, s43), (2, c44)):
            tasks[(i, kind, s.K)] = _task(table, s.K * m, s.K, freq=(s.freq_1, s.freq_2), **opts)
    out = _keyed_sweep(tasks, P.stream("gap-sweep"), "gap sweep")
    records: dict[str, list[Record]] = {}
    for name, K in rounds.items():
        algorithm = f"{name.split(',')[0]} (K {name.split(', ')[1]})"
        est = "am" if name.startswith("AM") else "gm"
        records[name] = [
            _record(out[(i, 0, K)], "gap", algorithm, est, gap=g, theorem="4.1") for i, g in enumerate(gaps)
        ]
    for name, algorithm, kind, est, th, s in (
        ("thres1", "two-threshold Θ̂¹ (Thm 4.3)", 1, "thres1", "4.3", s43),
        ("thres2", "two-threshold Θ̂² (Thm 4.3)", 1, "thres2", "4.3", s43),
        ("cor44", "single threshold (Cor 4.4)", 2, "thres2", "4.4", c44),
    ):
        records[name] = [
            _record(out[(i, kind, s.K)], "gap", algorithm, est, gap=g, theorem=th) for i, g in enumerate(gaps)
        ]
    for r in records["cor44"]:  # plot the failure probability P[Θ̂ ≠ Θ*] = 1 − exact
        r["miss_exact"], r["miss_exact_lo"], r["miss_exact_hi"] = (
            1 - r["exact"],
            1 - r["exact_hi"],
            1 - r["exact_lo"],
        )
    p_win = tuple(out[(i, 0, rounds["GM, paper"])]["am_belief_mle"] for i in range(len(gaps)))
    return GapSweep(gaps, n, m, alpha, beta, rounds, s43, s43_fixed, c44, records, p_win)  # fmt: skip
