"""Paper 003, Theorem 4.7: the horizon of private online learning against what the privacy sweep's runs
need (table ``p003-thm4-7``); the checks of the theorem's promise, of the smallest budget's probability
at its horizon, of the horizon's order in 1/ε, and of the horizon that the proof's own inequalities give.

The experiment reads the curves of :func:`~dpnet.chapters.online_learning.p003_sec4_3.privacy_sweep`: it
draws nothing. The checks of the theorem's factors for mixing and arrivals are built with the curves that
vary them (:mod:`~dpnet.chapters.online_learning.p003_sec4_3_mixing`).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from dpnet import inference as inf
from dpnet.chapters.online_learning.p003_sec4_3 import PrivacySweep
from dpnet.chapters.online_learning.p003_sec4_3_mixing import EARLIEST, LATEST, REACH
from dpnet.chapters.online_learning.p003_sec4_3_signals import Signals
from dpnet.inference.online import reach_interval
from dpnet.params import Cost, Parameters
from dpnet.reference import online as ref
from dpnet.results import Check


def cost(values: Mapping[str, Any]) -> Cost:
    """Reads the privacy sweep's curves and evaluates closed forms: negligible."""
    return Cost()


#: The table's column of the horizon that the proof's own inequalities give (``version="003-steps"``).
STEPS = "T of the proof's steps"


def fit_in_eps(eps: Sequence[float], periods: Sequence[float]) -> tuple[float, float]:
    """``(a, c)`` in the least-squares fit ``log T = a log(1/ε) + c``; ``(nan, nan)`` with fewer than two
    budgets."""
    if len(set(eps)) < 2:
        return math.nan, math.nan
    a, c = np.polyfit(np.log(1 / np.asarray(eps, dtype=float)), np.log(periods), 1)
    return float(a), float(c)


def exponent_se(eps: Sequence[float], early: Sequence[float], late: Sequence[float]) -> float:
    """The standard error of ``a`` in :func:`fit_in_eps`, propagated from each budget's crossing interval:
    ``[early, late]`` spans about ±2 standard errors of the crossing, so ``log T`` has a standard error of
    ``(log late − log early)/4``, and ``a`` is a linear combination of the ``log T``. ``nan`` with fewer
    than two budgets or an incomplete interval."""
    x = np.log(1 / np.asarray(eps, dtype=float))
    lo, hi = np.asarray(early, dtype=float), np.asarray(late, dtype=float)
    if len(set(eps)) < 2 or not np.all(np.isfinite(lo) & np.isfinite(hi)):
        return math.nan
    weights = (x - x.mean()) / np.sum((x - x.mean()) ** 2)
    return float(np.sqrt(np.sum((weights * (np.log(hi) - np.log(lo)) / 4) ** 2)))


def predicted_periods(fit: tuple[float, float], eps: float | None) -> float:
    """``e^c ε^−a``: the periods a fit ``(a, c)`` of :func:`fit_in_eps` predicts at ``eps`` (``nan`` without
    privacy, ``eps = None``, or without a fit)."""
    a, c = fit
    return math.nan if eps is None else math.exp(c) * eps**-a


def order_in_eps(eps: Sequence[float], periods: Sequence[float]) -> float:
    """``a`` in the least-squares fit ``log T = a log(1/ε) + c`` (:func:`fit_in_eps`); ``nan`` with fewer
    than two budgets."""
    return fit_in_eps(eps, periods)[0]


@dataclass(frozen=True)
class Theorem47:
    """Theorem 4.7's horizon at every ε of the privacy sweep, against the run.

    Attributes
    ----------
    table
        Per ε (``no DP`` first): the Laplace scale, Theorem 4.7's horizon (the constant of its proof's last
        display), the probability measured there and its standard error (``nan`` beyond the simulated
        periods), the first recorded period at which the probability reaches 1 − 2η, the first at which
        it plausibly does and by which it plausibly has, within two standard errors (``nan``: not within
        the simulated periods; :func:`~dpnet.inference.online.reach_interval`), the horizon that the
        proof's own inequalities give, and the horizon of the earlier version's Theorem 3.6.
    exponent, horizon_exponent
        ``a`` in ``T ∝ ε^−a``: fitted to the periods the private runs need (those that reach 1 − 2η), and
        Theorem 4.7's between the smallest and the largest ε.
    intercept
        ``c`` of the same fit, ``log T = a log(1/ε) + c`` (``nan`` without a fit).
    exponent_se
        The standard error of ``exponent``, from the budgets' crossing intervals (:func:`exponent_se`).
    level
        1 − 2η.
    checks
        The promise, the smallest budget, the order in 1/ε and the horizon of the proof's own steps
        (``p003-thm4-7``).
    """

    table: pd.DataFrame
    exponent: float
    intercept: float
    exponent_se: float
    horizon_exponent: float
    level: float
    checks: Mapping[str, list[Check]]

    #: The synthetic streams are the book's own: there is no setting of the paper to leave.
    paper_setting = True

    @property
    def deviations(self) -> tuple[tuple[str, str, str], ...]:
        return ()

    def metrics(self) -> dict[str, Any]:
        return {}

    def tables(self) -> dict[str, pd.DataFrame]:
        """Per ε, the horizons and the probability there (``p003-thm4-7``; the chapter shows it with
        ``labels=["ε"]`` and a dash, explained, where a value lies beyond the simulated periods)."""
        return {"p003-thm4-7": self.table}

    @property
    def lowest_at_horizon(self) -> tuple[str | None, float, float]:
        """Which run (``"ε = 2"``, ``"the non-private run"``) has the lowest probability at Theorem 4.7's
        horizon, the first of them on a tie, that probability and its standard error (``(None, nan,
        nan)`` when no horizon falls inside the simulated periods)."""
        inside = self.table.dropna(subset=["P at that T"])
        if inside.empty:
            return None, math.nan, math.nan
        row = inside.loc[inside["P at that T"].idxmin()]
        label = "the non-private run" if row["ε"] == "no DP" else f"ε = {row['ε']}"
        return label, float(row["P at that T"]), float(row["s.e."])

    def predicted_need(self, eps: float) -> float:
        """The periods the fitted power law ``T = e^c ε^−a`` predicts the runs need at ``eps`` (``nan``
        without a fit; :func:`predicted_periods`)."""
        return predicted_periods((self.exponent, self.intercept), eps)

    @property
    def unreached(self) -> tuple[str | None, float]:
        """The smallest private budget whose curve does not reach 1 − 2η within the simulated periods, as
        (its ε label, the periods the fitted law predicts it needs); ``(None, nan)`` when every curve
        reaches it."""
        rows = self.table[(self.table["ε"] != "no DP") & self.table[REACH].isna()]
        if rows.empty:
            return None, math.nan
        label = str(rows.iloc[0]["ε"])
        return label, self.predicted_need(float(label))

    @property
    def steps_factor(self) -> tuple[float, float]:
        """The smallest and largest ratio of the horizon of the proof's own steps to its last display's,
        over ε."""
        ratios = self.table[STEPS] / self.table["T of Thm 4.7"]
        return float(ratios.min()), float(ratios.max())

    @property
    def earlier_factor(self) -> tuple[float, float]:
        """The smallest and largest ratio of the earlier version's horizon to Theorem 4.7's, over ε."""
        ratios = self.table["T of 000's Thm 3.6"] / self.table["T of Thm 4.7"]
        return float(ratios.min()), float(ratios.max())


def theorem_4_7(P: Parameters, sig: Signals, sweep: PrivacySweep) -> Theorem47:
    """Theorem 4.7's horizon (that of its proof's last display, that of the proof's own inequalities and
    the earlier version's) at every ε of ``sweep``, the probability measured there and the periods at which
    the probability reaches 1 − 2η; the checks of the promise, of the smallest budget, of the order in 1/ε
    and of the horizon of the proof's own steps."""
    level, times = 1 - 2 * sig.eta, list(sweep.times)
    rows = []
    for s, (e, label) in enumerate(zip(sweep.eps, sweep.labels, strict=True)):
        h = math.ceil(sweep.horizons[s])
        j = times.index(h) if h <= times[-1] else None
        early, late = reach_interval(sweep.probability[s], sweep.se[s], times, level)
        rows.append({"ε": label, "Laplace scale": sig.scale(e), "T of Thm 4.7": h,
                     "P at that T": math.nan if j is None else float(sweep.probability[s, j]),
                     "s.e.": math.nan if j is None else float(sweep.se[s, j]),
                     REACH: inf.first_reach(sweep.probability[s], times, level),
                     EARLIEST: early, LATEST: late,
                     STEPS: math.ceil(sig.horizon(e, version="003-steps")),
                     "T of 000's Thm 3.6": math.ceil(sig.horizon(e, version="000"))})  # fmt: skip
    table = pd.DataFrame(rows)
    inside = table.dropna(subset=["P at that T"])
    at_horizon = {("no DP" if r["ε"] == "no DP" else f"ε = {r['ε']}"): (r["P at that T"], r["s.e."])
                  for _, r in inside.iterrows()}  # fmt: skip
    private = table.iloc[1:].dropna(subset=[REACH])
    eps = [sweep.eps[i] for i in private.index]
    fit = fit_in_eps(eps, private[REACH].tolist())  # type: ignore[arg-type]
    fit_se = exponent_se(eps, private[EARLIEST].tolist(), private[LATEST].tolist())  # type: ignore[arg-type]
    e1, e2 = sweep.eps[1], sweep.eps[-1]
    slope = math.log(sweep.horizons[1] / sweep.horizons[-1]) / math.log(e2 / e1)  # type: ignore[operator]
    steps = []
    for e, (_, r) in zip(sweep.eps, table.iterrows(), strict=True):
        late, guess = _period(r[LATEST]), predicted_periods(fit, e)  # nan: the run does not count
        need = float(late) if late is not None else (max(guess, times[-1]) if math.isfinite(guess) else guess)
        steps.append(("no DP" if e is None else f"ε = {r['ε']}", float(r[STEPS]), need, late is not None))
    checks = [
        *ref.theorem47_checks(at_horizon=at_horizon, eta=sig.eta, smallest=f"ε = {sweep.labels[1]}",
                              exponent=fit[0], exponent_se=fit_se, budgets=len(eps)),
        *ref.proof_steps_checks(steps),
    ]  # fmt: skip
    return Theorem47(table, *fit, fit_se, slope if e1 != e2 else math.nan, level, {"p003-thm4-7": checks})


def _period(value: Any) -> int | None:
    """A period read from a table column (``None`` where the column holds none)."""
    return None if value is None or (isinstance(value, float) and math.isnan(value)) else int(value)
