"""The book's figure ``mle-errors-vs-gap`` and table ``gap_verdicts``: where the guarantees hold.

Error rates against the likelihood gap in Laplace noise scales (``T → ∞``, ``|Θ*| = 1``, ``b = 1``,
stream ``gap-sweep``): AM and GM with the paper's and the corrected round counts of Theorem 4.1, the
two-threshold sets of Theorem 4.3 as stated and with both its slips corrected (the win probabilities and
Hoeffding's factor p², :func:`~dpnet.inference.schedules.schedule_thm43_corrected`), and the single
threshold of Corollary 4.4; the table gives, per rule, the smallest gap from which its rate is within
its target: exactly, where the rate has a closed form in the per-round win probability (AM, GM and the
two-threshold sets, :func:`~dpnet.inference.rates.leader_probability`), and in the simulation, where the
whole 95 % interval of every rate from that gap on lies within it.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar

import numpy as np
import pandas as pd
from matplotlib.figure import Figure
from numpy.typing import NDArray
from scipy import stats

from dpnet import inference as inf
from dpnet.chapters.distributed_mle._common import (
    _CHUNK,
    CORRECTED_K_MAX,
    GAP_FLOOR,
    Record,
    _chunk_bytes,
    _corrected_rounds,
    _gap_table,
    _keyed_sweep,
    _record,
    _round_bounds,
    _sweep_seconds,
    _task,
)
from dpnet.chapters.distributed_mle.synthetic_instance import Instance
from dpnet.inference.rates import leader_probability
from dpnet.inference.rounds import rounds_thres2_exact
from dpnet.inference.schedules import ThresholdSchedule, schedule_thm43_corrected
from dpnet.params import Cost, Parameters
from dpnet.plotting import SMALL, error_rate_axes, guarantee_line, panel_grid, plot_error_rates
from dpnet.results import Check, Deviation

__all__ = ["GapSweep", "cost", "gap_sweep"]


def cost(values: Mapping[str, Any]) -> Cost:
    """Time and memory of the gap sweep: ``7G`` tasks of ``R`` replications, ``G = len(gap_values)``.

    Per gap, AM and GM with up to four round counts of Theorem 4.1, Theorem 4.3, Corollary 4.4 and the
    corrected Theorem 4.3 (``K_c`` rounds, at most ``CORRECTED_K_MAX``, else not run): at most
    ``4K_r + 2K_f + K_c`` rounds (the bounds of ``_common._round_bounds``), so
    ``R·n·|Θ|·G·(4K_r + 2K_f + K_c)`` draws; a chunk of ``min(R, 1000)·max(K_r, K_f, K_c)·n·|Θ|``
    draws is held at a time.
    """
    n, m, R = values["n_agents"], values["n_states"], values["replications"]
    G = len(values["gap_values"])
    K_r, K_f = _round_bounds(values)
    K_c = _corrected_rounds(values)
    task_rounds = G * (4 * K_r + 2 * K_f + K_c)
    return Cost(
        seconds=_sweep_seconds(R * n * m * task_rounds, R * 7 * G, task_rounds * math.ceil(R / _CHUNK)),
        peak=_chunk_bytes(R, max(K_r, K_f, K_c), n, m),
    )


def _none_reach(r_max: int, n_others: int, need: int) -> NDArray[np.float64]:
    """For ``r = 0 … r_max``: the probability that none of ``n_others`` equally likely states wins
    ``need`` of ``r`` rounds (their counts multinomial). Split state by state: the first takes
    ``Bin(r, 1/n_others)`` rounds, the rest share the remainder."""
    r = np.arange(r_max + 1)
    h = (r < need).astype(float)  # one state left: it wins all remaining rounds
    for k in range(2, n_others + 1):  # k states left; the first takes Bin(t, 1/k)
        j = np.arange(min(need, r_max + 1))
        pmf = stats.binom.pmf(j[None, :], r[:, None], 1.0 / k)  # (t, j), zero where j > t
        rest = np.where(r[:, None] - j[None, :] >= 0, h[np.clip(r[:, None] - j[None, :], 0, None)], 0.0)
        h = (pmf * rest).sum(axis=1)
    return h


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
    thm43, thm43_corrected, cor44, thm43_fixed
        Theorem 4.3's schedule with the paper's and the corrected ``p₂``, Corollary 4.4's, and Theorem
        4.3's with both its slips corrected (``p₁``, ``p₂`` and Hoeffding's factor ``p²``).
    records
        ``"AM, paper"``, …, ``"thres1"``, ``"thres2"``, ``"cor44"``, ``"thres1-corrected"``,
        ``"thres2-corrected"`` → one record per gap (none for the corrected rule when its K exceeds
        ``CORRECTED_K_MAX``).
    p_win
        Per gap, the fraction of rounds the MLE state wins (the rounds of ``"GM, paper"``).
    thm43_fixed
        Theorem 4.3's schedule with both its slips corrected.
    p_exact
        Per gap, the exact probability that the MLE state wins a round
        (:func:`~dpnet.inference.rates.leader_probability`).
    gm_exact
        Per K of GM, per gap: GM's exact Type I error.
    """

    gaps: tuple[float, ...]
    n_agents: int
    n_states: int
    alpha: float
    beta: float
    rounds: Mapping[str, int]
    thm43: ThresholdSchedule
    thm43_corrected: ThresholdSchedule
    cor44: ThresholdSchedule
    records: Mapping[str, list[Record]]
    p_win: tuple[float, ...]
    thm43_fixed: ThresholdSchedule
    p_exact: tuple[float, ...] = ()
    gm_exact: Mapping[int, tuple[float, ...]] = field(default_factory=dict)

    #: The book's own experiment: it checks nothing, departs from no paper and has no paper setting.
    checks: ClassVar[Mapping[str, list[Check]]] = {}
    deviations: ClassVar[tuple[Deviation, ...]] = ()
    paper_setting: ClassVar[bool] = True

    @property
    def rows(self) -> list[Record]:
        """Every record, rule by rule."""
        return [r for recs in self.records.values() for r in recs]

    def met_from(self, name: str, kind: str, target: float) -> float:
        """The smallest gap from which every rate of ``name`` lies within ``target`` beyond Monte Carlo
        error: the whole 95 % interval of each rate from that gap on is at or below it.

        ``nan`` when the interval at the largest gap reaches above the target, or when ``name`` was not
        simulated.
        """
        ok = [r[f"{kind}_hi"] <= target for r in self.records[name]]
        return next((g for i, g in enumerate(self.gaps) if ok and all(ok[i:])), math.nan)

    def _schedule(self, name: str) -> ThresholdSchedule:
        return {"thres1": self.thm43, "thres2": self.thm43, "thres1-corrected": self.thm43_fixed,
                "thres2-corrected": self.thm43_fixed}[name]  # fmt: skip

    def exact(self, name: str, kind: str) -> tuple[float, ...]:
        """Per gap, the exact rate ``kind`` of rule ``name`` (``nan`` where it has no closed form here).

        With ``p`` the exact per-round win probability of θ* and each of the ``|Θ| − 1`` other states
        winning with ``q = (1 − p)/(|Θ| − 1)``: AM's Type II error ``(1 − p)^K``; GM's Type I error from
        ``gm_exact``; Θ̂²'s (and Θ̂¹'s) Type II error ``P[Bin(K, p) < w]``, ``w`` the rounds the set
        asks for; Θ̂¹'s Type I error ``1 − p^K`` when ``w = 1`` and ``(|Θ| − 1) P[Bin(K, q) ≥ w]`` when
        ``2w > K`` (then at most one state can reach ``w``); Corollary 4.4's failure ``1 − P[θ* wins at
        least w rounds and every other state fewer]``, the other states' rounds multinomial
        (``_none_reach``).
        """
        p = np.array(self.p_exact, dtype=float)
        nan = tuple(math.nan for _ in self.gaps)
        if not self.records.get(name) or p.size != len(self.gaps):
            return nan
        if name.startswith("AM") and kind == "type2":
            return tuple((1 - p) ** self.rounds[name])
        if name.startswith("GM") and kind == "type1":
            return tuple(self.gm_exact.get(self.rounds[name], nan))
        if name == "cor44" and kind == "miss_exact":
            need = self.cor44_wins_needed()
            K = self.cor44.K
            others = _none_reach(K, self.n_states - 1, need)  # given r rounds won by false states
            w = np.arange(need, K + 1)
            return tuple(1 - float(np.sum(stats.binom.pmf(w, K, pk) * others[K - w])) for pk in p)
        if not name.startswith("thres"):
            return nan
        s = self._schedule(name)
        tau1, tau2 = inf.frequency_thresholds(s.freq_1, s.freq_2, s.K)
        need = inf.to_int_ceil((tau1 if name.startswith("thres1") else tau2) * s.K)
        if kind == "type2":
            return tuple(stats.binom.cdf(need - 1, s.K, p))
        if kind == "type1" and name.startswith("thres1") and (need == 1 or 2 * need > s.K):
            q = (1 - p) / (self.n_states - 1)
            one = 1 - p**s.K if need == 1 else (self.n_states - 1) * stats.binom.sf(need - 1, s.K, q)
            return tuple(one)
        return nan

    def exactly_from(self, name: str, kind: str, target: float) -> float:
        """The smallest gap from which the exact rate ``kind`` of ``name`` stays within ``target``
        (``nan`` when it has no closed form, or exceeds the target at the largest gap)."""
        values = self.exact(name, kind)
        if any(math.isnan(v) for v in values):
            return math.nan
        ok = [v <= target for v in values]
        return next((g for i, g in enumerate(self.gaps) if ok and all(ok[i:])), math.nan)

    @property
    def verdicts(self) -> pd.DataFrame:
        """Per rule: its K, the error it bounds, the target, and the smallest gap from which the rate is
        within the target: exactly (``"no closed form"`` where :meth:`exact` has none), and in the
        simulation with the whole 95 % interval of every rate from that gap on (``"at no gap tested"``
        when the largest gap's rate is not within the target, with the number of gaps at which the rule
        is above it, exactly or beyond Monte Carlo error; ``"not run"`` for the corrected two-threshold
        rule when its K exceeds ``CORRECTED_K_MAX``). The corrected Θ̂¹'s Type II error, which no theorem
        bounds, is shown against ``1 − β``; its Type I error is not: it is at most
        :meth:`thres1_type1_bound` at every gap, far below α, by construction."""
        a, miss, fail = self.alpha, 1 - self.beta, 1 - (self.beta - self.alpha)
        K_fixed = self.thm43_fixed.K
        rules = [
            ("AM, paper's K", "AM, paper", self.rounds["AM, paper"], "Type II", "type2", miss),
            ("AM, corrected K", "AM, corrected", self.rounds["AM, corrected"], "Type II", "type2", miss),
            ("GM, paper's K", "GM, paper", self.rounds["GM, paper"], "Type I", "type1", a),
            ("GM, corrected K", "GM, corrected", self.rounds["GM, corrected"], "Type I", "type1", a),
            ("two-threshold Θ̂¹ (Thm 4.3)", "thres1", self.thm43.K, "Type I", "type1", a),
            ("two-threshold Θ̂² (Thm 4.3)", "thres2", self.thm43.K, "Type II", "type2", miss),
            ("Θ̂², Thm 4.3 corrected", "thres2-corrected", K_fixed, "Type II", "type2", miss),
            ("Θ̂¹, Thm 4.3 corrected (misses θ*)", "thres1-corrected", K_fixed, "Type II (not bounded)",
             "type2", miss),
            ("single threshold (Cor 4.4)", "cor44", self.cor44.K, "Θ̂ ≠ Θ*", "miss_exact", fail),
        ]  # fmt: skip
        rows = []
        for label, name, K, error, kind, target in rules:
            recs = self.records[name]
            start, exact = self.met_from(name, kind, target), self.exactly_from(name, kind, target)
            failed = sum(inf.exceeds_target(r, kind, target) for r in recs)
            no_form = any(math.isnan(v) for v in self.exact(name, kind))
            above = sum(v > target for v in self.exact(name, kind))
            shown = (
                "not run" if not recs else f"{start:g}" if not math.isnan(start)
                else f"at no gap tested (above it beyond Monte Carlo error at {failed} of {len(recs)})"
            )  # fmt: skip
            shown_exact = (
                "not run" if not recs else "no closed form" if no_form
                else f"{exact:g}" if not math.isnan(exact)
                else f"at no gap tested (above it at {above} of {len(recs)})"
            )  # fmt: skip
            rows.append({"rule": label, "K": K, "error": error, "target": target,
                         "exactly within target from gap": shown_exact,
                         "simulated, whole interval within target from gap": shown})  # fmt: skip
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

    def thres2_zero_gap_exact(self) -> float:
        """The Type II error of Θ̂² (Theorem 4.3 as stated) when the gap vanishes, exactly: the probability
        that θ* wins fewer than :meth:`wins_needed` of K rounds, each with probability ``1/|Θ|``."""
        K, need = self.thm43.K, self.wins_needed(corrected=False)
        return float(stats.binom.cdf(need - 1, K, 1 / self.n_states))

    def thres2_zero_gap_miss(self, K: int, corrected: bool) -> tuple[int, float]:
        """With ``K`` rounds and Theorem 4.3's τ² (the paper's ``p₂``, or the corrected): the rounds θ* must
        win to enter Θ̂², and the exact probability that it wins fewer at zero gap."""
        need = inf.to_int_ceil(self.tau2(corrected) * K)
        return need, float(stats.binom.cdf(need - 1, K, 1 / self.n_states))

    def thres2_rounds_needed(self, corrected: bool) -> int:
        """The rounds Θ̂² needs at zero gap, exactly, with the paper's or the corrected τ²
        (:func:`~dpnet.inference.rounds.rounds_thres2_exact`)."""
        return rounds_thres2_exact(self.n_states, self.beta, self.tau2(corrected))

    def rate_at(self, name: str, kind: str, gap: float) -> float:
        """The rate ``kind`` of ``name`` at the gap tested nearest ``gap`` (``nan`` when not run)."""
        return self.at(name, gap)[kind] if self.records[name] else math.nan

    def exact_at(self, name: str, kind: str, gap: float) -> float:
        """The exact rate ``kind`` of ``name`` at the gap tested nearest ``gap`` (``nan`` when not run or
        without a closed form)."""
        if not self.records[name]:
            return math.nan
        i = min(range(len(self.gaps)), key=lambda j: abs(self.gaps[j] - gap))
        return self.exact(name, kind)[i]

    def cor44_wins_needed(self) -> int:
        """Rounds a state must win to pass Corollary 4.4's single threshold."""
        s = self.cor44
        return inf.to_int_ceil(s.freq_2 * s.K)

    def thres1_wins_needed(self) -> int:
        """Rounds a state must win to enter the corrected Θ̂¹ (``N ≥ τ¹``, N a multiple of 1/K)."""
        s = self.thm43_fixed
        return inf.to_int_ceil(inf.frequency_thresholds(s.freq_1, s.freq_2, s.K)[0] * s.K)

    def thres1_type1_bound(self) -> float:
        """An upper bound on the corrected Θ̂¹'s Type I error at every gap: a false state wins a round with
        probability at most 1/2 (it must beat θ*), and the set asks for ``w > K/2`` won rounds, which at
        most one state reaches, so the error is at most ``(|Θ| − 1) P[Bin(K, 1/2) ≥ w]``."""
        need = self.thres1_wins_needed()
        return float((self.n_states - 1) * stats.binom.sf(need - 1, self.thm43_fixed.K, 0.5))

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
        """AM's Type II, GM's Type I, the two-threshold errors (as stated and corrected) and the
        exact-recovery failure against the gap, in a 2 × 2 grid: the simulated rates as markers with their
        95 % intervals, the exact rates (where :meth:`exact` has them) as thin lines of the same colour."""
        gaps, rec, K, K43, K44 = self.gaps, self.records, self.rounds, self.thm43.K, self.cor44.K
        Kc = self.thm43_fixed.K
        curves = (  # panel, record, error, label, colour, marker (two thresholds: triangles as stated)
            (0, "AM, paper", "type2", f"paper's K = {K['AM, paper']}", "C1", "o"),
            (0, "AM, corrected", "type2", f"corrected K = {K['AM, corrected']}", "C5", "s"),
            (1, "GM, paper", "type1", f"paper's K = {K['GM, paper']}", "C0", "o"),
            (1, "GM, corrected", "type1", f"corrected K = {K['GM, corrected']}", "C9", "s"),
            (2, "thres1", "type1", f"Θ̂¹ Type I, K = {K43}", "C2", "^"),
            (2, "thres2", "type2", f"Θ̂² Type II, K = {K43}", "C3", "v"),
            (2, "thres1-corrected", "type2", f"Θ̂¹ misses θ*, K = {Kc}", "C7", "s"),
            (2, "thres2-corrected", "type2", f"Θ̂² Type II, K = {Kc}", "C3", "s"),
            (3, "cor44", "miss_exact", f"P[Θ̂ ≠ Θ*] (K = {K44})", "C4", "D"),
        )
        fig, axes = panel_grid(2, 2, height=3.9)
        ax = axes.flat
        with_exact = set()
        for j, name, kind, label, color, marker in curves:
            if not rec[name]:
                continue
            exact = self.exact(name, kind)
            closed = not any(math.isnan(v) for v in exact)
            bars = plot_error_rates(ax[j], gaps, rec[name], kind, label=label, color=color, marker=marker,
                                    ls="none" if closed else "-")  # fmt: skip
            for artist in (bars.lines[0], *bars.lines[1], *bars.lines[2]):  # markers at 0 show on the axis
                if artist is not None:
                    artist.set_clip_on(False)
            if closed:
                ax[j].plot(gaps, exact, color=color, lw=1.0, alpha=0.8)
                with_exact.add(j)
        for j in sorted(with_exact):
            ax[j].plot([], [], color="0.4", lw=1.0, label="exact")
        guarantee_line(ax[0], 1 - self.beta, "1 − β")
        guarantee_line(ax[1], self.alpha, "α")
        if math.isclose(self.alpha, 1 - self.beta):
            guarantee_line(ax[2], self.alpha, "α = 1 − β")
        else:
            guarantee_line(ax[2], self.alpha, "α")
            guarantee_line(ax[2], 1 - self.beta, "1 − β", ls=":")
        guarantee_line(ax[3], 1 - (self.beta - self.alpha), "1 − (β − α)", ls="-.")
        am_top = max(0.2, max(r["type2_hi"] for name in ("AM, paper", "AM, corrected") for r in rec[name]))
        frames = (
            ("type2", "AM, Type II (Thm 4.1)", am_top),
            ("type1", "GM, Type I (Thm 4.1)", 1.0),
            ("exact", "two thresholds (Thm 4.3)", 1.0),
            ("exact", "single threshold (Cor 4.4)", 1.0),
        )
        places = (  # the two-threshold panel's legend sits between its curves, left of the gap where Θ̂¹ fills
            {"loc": "upper right"},
            {"loc": "upper right"},
            {"loc": "upper left", "bbox_to_anchor": (0.0, 0.93)},
            {"loc": "upper right"},
        )
        for a, (kind, title, top), where in zip(ax, frames, places, strict=True):
            error_rate_axes(a, kind, top)
            a.set(xlabel="gap l/b (noise scales)", title=title)
            a.legend(fontsize=SMALL, **where)
        ax[2].set_ylabel("error (square-root scale)")
        ax[3].set_ylabel("P[Θ̂ ≠ Θ*]")
        fig.suptitle(
            f"Guarantees against the likelihood gap: n = {self.n_agents}, |Θ| = {self.n_states}, |Θ*| = 1"
        )
        return fig  # fmt: skip


def gap_sweep(P: Parameters, inst: Instance) -> GapSweep:
    """The sweep over the gap (stream ``gap-sweep``; task ``(i, 0, K)`` AM/GM with K rounds at the i-th
    gap, ``(i, 1, K)`` Theorem 4.3, ``(i, 2, K)`` Corollary 4.4, ``(i, 3, K)`` Theorem 4.3 corrected,
    when its K is at most ``CORRECTED_K_MAX``).

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
    fixed = schedule_thm43_corrected(gap_prob, **target, pi1=P.pi, pi2=P.pi)
    rules = ((1, s43), (2, c44), *(((3, fixed),) if fixed.K <= CORRECTED_K_MAX else ()))
    opts = {"weights": inst.weights, "delta": 1.0, "reps": P.replications}
    tasks = {}
    for i, g in enumerate(gaps):
        table = _gap_table(n, m, g)
        for K in sorted(set(rounds.values())):
            tasks[(i, 0, K)] = _task(table, K * m, K, **opts)  # b = ΔK|Θ|/ε = 1
        for kind, s in rules:  # the threshold rules alone (AM and GM are the K tasks above)
            freq = (s.freq_1, s.freq_2)
            tasks[(i, kind, s.K)] = _task(table, s.K * m, s.K, freq=freq, thresholds_only=True, **opts)
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
        ("thres1-corrected", "two-threshold Θ̂¹ (Thm 4.3 corrected)", 3, "thres1", "4.3", fixed),
        ("thres2-corrected", "two-threshold Θ̂² (Thm 4.3 corrected)", 3, "thres2", "4.3", fixed),
    ):
        records[name] = [
            _record(out[(i, kind, s.K)], "gap", algorithm, est, gap=g, theorem=th)
            for i, g in enumerate(gaps)
            if (i, kind, s.K) in out
        ]
    for r in records["cor44"]:  # plot the failure probability P[Θ̂ ≠ Θ*] = 1 − exact
        r["miss_exact"], r["miss_exact_lo"], r["miss_exact_hi"] = (
            1 - r["exact"],
            1 - r["exact_hi"],
            1 - r["exact_lo"],
        )
    p_win = tuple(out[(i, 0, rounds["GM, paper"])]["am_belief_mle"] for i in range(len(gaps)))
    leads = [np.full(m - 1, max(g, GAP_FLOOR)) for g in gaps]
    p_exact = tuple(leader_probability(lead, n) for lead in leads)
    gm_exact = {  # GM's leader averages K rounds: n·K draws a state, the lead K times as many scales
        K: tuple(1 - leader_probability(K * lead, n * K) for lead in leads)
        for K in sorted({rounds["GM, paper"], rounds["GM, corrected"]})
    }
    return GapSweep(gaps, n, m, alpha, beta, rounds, s43, s43_fixed, c44, records, p_win, fixed, p_exact,
                    gm_exact)  # fmt: skip
