r"""The Cox partial likelihood of a binary covariate, as risk-set counts.

With ``x ∈ {0, 1}`` every risk-set sum is ``Σ_{at risk} e^{xθ} = n₀ + n₁ e^θ``, where ``n₀`` and ``n₁``
count the control and treated patients at risk. The partial log-likelihood is then a function of a few
integer counts and of ``θ`` alone,

.. math::
   \Lambda(\theta) = d_1\,\theta - \sum_m w_m \log\bigl(n_{0,m} + n_{1,m} e^{\theta} + c\bigr),

with one term ``m`` per distinct event time (``w_m`` events there, ``d₁`` the events among treated
patients, ``c = 0``: eq. 3 with Breslow risk sets), or one term per patient in the authors' sorted order
(``w_m = 1``, ``c = 10⁻¹⁰``: the as-published likelihood, note ``note-ht-cox-likelihood``).
:class:`BinaryCox` holds these counts; its :meth:`~BinaryCox.loglik`, :meth:`~BinaryCox.score` and
:meth:`~BinaryCox.information` evaluate any array of ``θ`` in ``O(terms)`` each, which is what a
first-order method iterating over many replications needs (:mod:`dpnet.inference.first_order`).

The counts are also what centres can pool without sharing patients: :func:`risk_set_counts` gives one
centre's counts on a public grid of times, and their sum over centres determines the pooled likelihood
exactly (:func:`counts_likelihood`), which the homomorphic-encryption baseline of
:mod:`dpnet.encrypted` aggregates under encryption.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

import numpy as np
from numpy.typing import ArrayLike, NDArray

from dpnet.errors import ParameterError
from dpnet.params import choice
from dpnet.survival.centres import _labels
from dpnet.survival.cox import LEGACY_LOG_OFFSET, LegacyTies, check_cohort, legacy_order

__all__ = [
    "COUNT_COLUMNS",
    "BinaryCox",
    "CentreCox",
    "binary_cox",
    "centre_cox",
    "counts_likelihood",
    "risk_set_counts",
]

#: Columns of :func:`risk_set_counts`: at risk with x = 0, at risk with x = 1, events with x = 0, x = 1.
COUNT_COLUMNS: tuple[str, ...] = ("at_risk_0", "at_risk_1", "events_0", "events_1")


@dataclass(frozen=True, eq=False)
class BinaryCox:
    """A binary-covariate partial log-likelihood ``Λ(θ) = d₁θ − Σ_m w_m log(n₀ₘ + n₁ₘ e^θ + c)``.

    Attributes
    ----------
    at_risk_0, at_risk_1
        ``n₀ₘ`` and ``n₁ₘ`` of each term, shape ``(m,)``.
    weight
        ``w_m``: the number of events a term stands for (1 per patient for the as-published variant).
    events_1
        ``d₁``: the events among treated patients (``Σ_j δ_j x_j``).
    offset
        ``c``: 0 for the paper's likelihood, ``10⁻¹⁰`` for the authors' code.
    """

    at_risk_0: NDArray[np.float64]
    at_risk_1: NDArray[np.float64]
    weight: NDArray[np.float64]
    events_1: float
    offset: float = 0.0

    def _parts(self, theta: NDArray[np.float64]) -> tuple[NDArray[np.float64], ...]:
        """Scaled risk sums: with ``θ⁺ = max(θ, 0)``, ``S = n₀ + n₁e^θ + c = e^{θ⁺} D``, where
        ``D = n₀e^{−θ⁺} + n₁e^{θ−θ⁺} + c e^{−θ⁺}`` cannot overflow.

        Returns ``(D, n₁e^{θ−θ⁺}, c e^{−θ⁺})``, each of shape ``(*θ.shape, m)``.
        """
        t = theta[..., None]
        up = np.maximum(t, 0.0)
        down, treated = np.exp(-up), np.exp(t - up)
        a1 = self.at_risk_1 * treated
        c = self.offset * down
        return self.at_risk_0 * down + a1 + c, a1, c

    def _log_risk(self, theta: NDArray[np.float64]) -> NDArray[np.float64]:
        """``log(n₀ + n₁ e^θ + c)`` of every term, shape ``(*θ.shape, m)``, without overflow."""
        total, _, _ = self._parts(theta)
        if np.all(total > 0):
            return np.maximum(theta, 0.0)[..., None] + np.log(total)
        with np.errstate(divide="ignore"):  # an underflowed sum: the exact (slower) log-sum-exp
            out = np.logaddexp(np.log(self.at_risk_0), np.log(self.at_risk_1) + theta[..., None])
            return np.logaddexp(out, np.log(self.offset)) if self.offset else out

    def loglik(self, theta: ArrayLike) -> NDArray[np.float64] | float:
        """``Λ(θ)`` at every ``θ`` (any shape; a float for a scalar)."""
        t = _theta(theta)
        out = self.events_1 * t - (self.weight * self._log_risk(t)).sum(axis=-1)
        return float(out) if out.ndim == 0 else out

    def score(self, theta: ArrayLike) -> NDArray[np.float64] | float:
        r"""``Λ'(θ) = d₁ − Σ_m w_m π_m(θ)`` with ``π_m = n₁ₘ e^θ / (n₀ₘ + n₁ₘ e^θ + c)``."""
        t = _theta(theta)
        out = self.events_1 - (self.weight * self._share(t)).sum(axis=-1)
        return float(out) if out.ndim == 0 else out

    def information(self, theta: ArrayLike) -> NDArray[np.float64] | float:
        r"""``−Λ''(θ) = Σ_m w_m π_m (1 − π_m − c/S_m)`` with ``S_m = n₀ₘ + n₁ₘ e^θ + c``."""
        t = _theta(theta)
        total, treated, offset = self._parts(t)
        with np.errstate(invalid="ignore", divide="ignore"):
            share, rest = treated / total, offset / total
        share, rest = np.nan_to_num(share), np.nan_to_num(rest)  # an empty risk set carries no weight
        out = (self.weight * share * (1.0 - share - rest)).sum(axis=-1)
        return float(out) if out.ndim == 0 else out

    def lrt(self, *, tol: float = 1e-10, max_iter: int = 100) -> tuple[float, float]:
        """The unpenalised maximiser ``θ̂`` (Newton) and the likelihood-ratio statistic ``2[Λ(θ̂) − Λ(0)]``.

        Raises
        ------
        dpnet.errors.ParameterError
            If the likelihood is flat (no information) or ``θ̂`` is infinite (the covariate separates the
            events) or Newton does not converge.
        """
        theta, value = 0.0, float(self.loglik(0.0))
        null = value
        for _ in range(max_iter):
            info = float(self.information(theta))
            if not info > 0:
                if theta == 0.0:
                    raise ParameterError("the likelihood is flat: the covariate does not vary among events")
                raise ParameterError(
                    f"the Cox fit diverges (θ = {theta:.3g}): the covariate separates the events"
                )
            step = float(self.score(theta)) / info
            while float(self.loglik(theta + step)) < value and abs(step) > 1e-14:  # concave: halving ends
                step /= 2
            theta += step
            value = float(self.loglik(theta))
            if abs(theta) > 50:
                raise ParameterError("the Cox fit diverges (|θ̂| > 50): the covariate separates the events")
            if abs(step) < tol * max(1.0, abs(theta)):
                return theta, max(0.0, 2.0 * (value - null))
        raise ParameterError(f"the Cox fit did not converge in max_iter = {max_iter} Newton steps")

    def _share(self, t: NDArray[np.float64]) -> NDArray[np.float64]:
        """``π_m = n₁ₘ e^θ / S_m``, the treated share of each risk set."""
        total, treated, _ = self._parts(t)
        with np.errstate(invalid="ignore", divide="ignore"):
            return np.nan_to_num(treated / total)


def _theta(theta: ArrayLike) -> NDArray[np.float64]:
    t = np.asarray(theta, dtype=float)
    if not np.all(np.isfinite(t)):
        raise ParameterError("theta must hold finite real numbers")
    return t


def _binary(x: ArrayLike, time: ArrayLike, event: ArrayLike) -> tuple[NDArray[np.float64], ...]:
    xs, ts, ev = check_cohort(x, time, event)
    if not np.all((xs == 0) | (xs == 1)):
        raise ParameterError(
            "x must be a binary covariate (0 = control, 1 = treated); use cox_partial_loglik"
        )
    return xs, ts, ev


def binary_cox(
    x: ArrayLike,
    time: ArrayLike,
    event: ArrayLike,
    *,
    variant: Literal["paper", "as_published"] = "paper",
    ties: LegacyTies = "row",
) -> BinaryCox:
    """The counts of one cohort's (or one centre's) partial likelihood, for a binary covariate ``x``.

    ``variant="paper"``: eq. (3), one term per distinct event time with the Breslow risk set ``t ≥ t_m``
    (equals :func:`~dpnet.survival.cox.cox_partial_loglik`); ``"as_published"``: the authors' notebook, one
    term per patient in increasing time (tied times ordered by ``ties``,
    :func:`~dpnet.survival.cox.legacy_order`), with the notebook's ``+10⁻¹⁰``. An empty cohort has ``Λ ≡ 0``.

    Raises
    ------
    dpnet.errors.ParameterError
        On bad arrays (see :func:`~dpnet.survival.cox.cox_partial_loglik`) or a covariate other than 0/1.
    """
    variant = choice("paper", "as_published")("variant", variant)
    xs, ts, ev = _binary(x, time, event)
    d1 = float((ev * xs).sum())
    if variant == "as_published":
        order = legacy_order(ts, xs, ties)
        treated = xs[order][::-1].cumsum()[::-1]  # treated patients at positions ≥ r
        total = np.arange(len(xs), 0, -1, dtype=float)
        return BinaryCox(total - treated, treated, np.ones(len(xs)), d1, LEGACY_LOG_OFFSET)
    counts = risk_set_counts(xs, ts, ev, np.unique(ts[ev == 1]))
    return counts_likelihood(counts)


def risk_set_counts(x: ArrayLike, time: ArrayLike, event: ArrayLike, grid: ArrayLike) -> NDArray[np.float64]:
    """One cohort's counts on a grid of times: at risk (``t ≥ g``) and events (``t = g``) by covariate.

    Returns an array of shape ``(len(grid), 4)`` with the columns :data:`COUNT_COLUMNS`. Counts of
    centres on the same grid add up to the pooled cohort's counts, and with every event time on the
    grid they determine the pooled partial likelihood (:func:`counts_likelihood`).

    Raises
    ------
    dpnet.errors.ParameterError
        If ``grid`` is not strictly increasing and finite, or an event time is not on it.
    """
    xs, ts, ev = _binary(x, time, event)
    g = np.asarray(grid, dtype=float)
    if g.ndim != 1 or not np.all(np.isfinite(g)) or np.any(np.diff(g) <= 0):
        raise ParameterError("grid must be a strictly increasing 1-D array of finite times")
    events = ev == 1
    pos = np.searchsorted(g, ts[events])
    if np.any(pos >= len(g)) or np.any(g[np.minimum(pos, len(g) - 1)] != ts[events]):
        raise ParameterError("every event time must be on the grid (the grid must include the event times)")
    out = np.empty((len(g), 4))
    for k, treated in enumerate((False, True)):
        group = np.sort(ts[(xs == 1) == treated])
        out[:, k] = len(group) - np.searchsorted(group, g, side="left")  # #{t ≥ g}
        hit = events & ((xs == 1) == treated)
        out[:, 2 + k] = np.bincount(np.searchsorted(g, ts[hit]), minlength=len(g))
    return out


def counts_likelihood(counts: ArrayLike) -> BinaryCox:
    """The partial likelihood (eq. 3, Breslow) determined by counts from :func:`risk_set_counts`.

    Grid times without events contribute nothing; the counts may come from a sum over centres, possibly
    decrypted (they are rounded to integers first, so a CKKS decryption error below ½ is harmless).

    Raises
    ------
    dpnet.errors.ParameterError
        If ``counts`` is not ``(G, 4)``, holds negative values, or an event has nobody at risk.
    """
    arr = np.rint(np.asarray(counts, dtype=float))
    if arr.ndim != 2 or arr.shape[1] != 4 or not np.all(np.isfinite(arr)) or np.any(arr < 0):
        raise ParameterError(f"counts must be a (G, 4) array of non-negative counts (got shape {arr.shape})")
    weight = arr[:, 2] + arr[:, 3]
    keep = weight > 0
    if np.any(arr[keep, 0] + arr[keep, 1] < weight[keep]):
        raise ParameterError("counts are inconsistent: an event time has fewer patients at risk than events")
    return BinaryCox(arr[keep, 0], arr[keep, 1], weight[keep], float(arr[:, 3].sum()))


@dataclass(frozen=True, eq=False)
class CentreCox:
    """One :class:`BinaryCox` per centre, evaluated with the centres on the last axis of ``θ``.

    ``θ`` of shape ``(..., n)`` holds each centre's own parameter (as in a first-order method, where
    every agent has its iterate); ``loglik`` and ``score`` return the same shape.
    """

    models: tuple[BinaryCox, ...]

    def _apply(self, method: str, theta: ArrayLike) -> NDArray[np.float64]:
        t = _theta(theta)
        if t.ndim < 1 or t.shape[-1] != len(self.models):
            raise ParameterError(
                f"theta must have the {len(self.models)} centres on its last axis (got {t.shape})"
            )
        return np.stack([getattr(m, method)(t[..., i]) for i, m in enumerate(self.models)], axis=-1)

    def loglik(self, theta: ArrayLike) -> NDArray[np.float64]:
        """``Λ_i(θ_i)`` for every centre ``i``."""
        return self._apply("loglik", theta)

    def score(self, theta: ArrayLike) -> NDArray[np.float64]:
        """``Λ_i'(θ_i)`` for every centre ``i``."""
        return self._apply("score", theta)


def centre_cox(
    x: ArrayLike,
    time: ArrayLike,
    event: ArrayLike,
    centres: ArrayLike,
    *,
    variant: Literal["paper", "as_published"] = "paper",
) -> CentreCox:
    """Each centre's binary-covariate likelihood (:func:`binary_cox`) on its own patients."""
    xs, ts, ev = _binary(x, time, event)
    labels, n_centres = _labels(centres, len(xs))
    masks = [labels == i for i in range(n_centres)]
    return CentreCox(tuple(binary_cox(xs[m], ts[m], ev[m], variant=variant) for m in masks))
