r"""Auditing a stated privacy guarantee: the row of an audit table, and sampling audits of the
mechanisms the papers deploy (Chapter 9).

A paper states, for a mechanism, an adjacency (which inputs count as neighbours), a sensitivity ``Δ``,
a noise scale ``b`` and a budget ``ε``. An audit measures two things against that statement:

* the **sensitivity on the data**: the largest change one neighbour makes to what the mechanism
  releases, exhaustive over every single-record neighbour where the data allow it, else the worst pair a
  stated search found. For a Laplace mechanism the ε the noise actually buys is then
  ``ε_implied = Δ_measured / b`` (for a vector release with ℓ1 shift ``Σ_k |c_k|/b_k``); for a discrete
  release it is exact, ``log max P[y | x]/P[y | x′]``;
* an **empirical lower bound** on ε (:func:`dpnet.mechanisms.audit_epsilon`): draws of the release under
  the worst neighbouring pair found, with events fixed before sampling, and Clopper–Pearson bounds at a
  stated confidence. A bound above the stated ε certifies, at that confidence, that the guarantee fails.

An audit can refute a guarantee, never prove one: its lower bound depends on the pairs and events tried,
and a measured sensitivity is a lower bound on the supremum over every neighbour unless the search is
exhaustive.

This is a topic module: it knows no paper and no chapter (:mod:`dpnet.chapters.privacy_audit` builds
the rows of the five papers on it).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import ArrayLike, NDArray

from dpnet.errors import ParameterError
from dpnet.mechanisms import AuditResult, audit_epsilon

__all__ = [
    "AUDITS",
    "HOLDS",
    "HOLDS_RTOL",
    "MechanismAudit",
    "discrete_audit",
    "laplace_difference_audit",
    "laplace_pair_audit",
    "laplace_pair_epsilon",
    "laplace_shift_audit",
    "shift_loss",
    "verdict",
]

#: A measured ε within this relative distance of the stated one counts as meeting it (rounding).
HOLDS_RTOL = 1e-9
#: The statistic of :func:`laplace_shift_audit` is rounded to this many decimals (its rounding errors
#: differ between the two inputs and are not information).
_DECIMALS = 9
#: How many noise values :func:`laplace_shift_audit` draws at once (16 MB).
_CHUNK_VALUES = 2_000_000
#: The thresholds of :func:`laplace_shift_audit`, as fractions of the largest privacy loss ``L``.
SHIFT_FRACTIONS = (-0.999, -0.9, -0.75, -0.5, -0.25, 0.0, 0.25, 0.5, 0.75, 0.9, 0.999)
#: The offsets (in units of the smaller scale) and widths (in units of each law's scale) of the events
#: of :func:`laplace_pair_audit`.
PAIR_OFFSETS = (-8.0, -4.0, -2.0, -1.0, 0.0, 1.0, 2.0, 4.0, 8.0)
PAIR_WIDTHS = (0.5, 1.0, 2.0, 4.0, 8.0)


#: The verdict of a row whose implied ε meets the stated one. A measurement on one data set can refute a
#: guarantee, never confirm it (the guarantee is a supremum over every neighbouring pair of the domain):
#: the verdict says only that the data did not refute it.
HOLDS = "holds on the data"
#: What a row audits: the object the mechanism really releases, or a sensitivity lemma the paper states
#: for an object it does not release (a failing lemma is not a release that fails to be ε-DP).
AUDITS = ("release", "lemma")


def verdict(stated: float, implied: float) -> str:
    """:data:`HOLDS` (``"holds on the data"``) when ``implied ≤ stated`` (within :data:`HOLDS_RTOL`), else
    ``"fails by ×k"`` with the factor ``k = implied/stated`` (``"fails (unbounded)"`` when ``implied`` is
    infinite)."""
    if math.isnan(implied) or math.isnan(stated):
        return "undecided"
    if implied <= stated * (1 + HOLDS_RTOL):
        return HOLDS
    if math.isinf(implied):
        return "fails (unbounded)"
    return f"fails by ×{implied / stated:.2g}"


@dataclass(frozen=True)
class MechanismAudit:
    """One row of an audit table: what a paper states for a mechanism, and what the audit measured.

    Attributes
    ----------
    key
        The row's name (``"p003-sec12-actg"``).
    paper, section, mechanism
        Whose mechanism, where the paper states it, and what it releases.
    adjacency
        The neighbours the guarantee covers, as the paper states it or the book assumes.
    stated_delta, scale, stated_eps
        The paper's sensitivity, the noise scale it implies (``nan`` for a discrete release) and the budget.
    measured_delta, measured_how
        The largest change one neighbour makes to the release on the data, and how it was found
        ("exhaustive over N neighbours" or "worst of a stated search").
    implied_eps
        The ε the noise buys against the measured sensitivity (exact for a discrete release).
    certified, confidence, draws
        The lower bound of :func:`dpnet.mechanisms.audit_epsilon` on the worst pair found, its
        simultaneous confidence and the draws per input.
    privacy_delta
        The δ of the stated guarantee when it is (ε, δ)-DP, else ``0``. The certified bound is then the
        δ-aware one (``audit_epsilon(..., delta=privacy_delta)``): the largest ε whose (ε, δ) guarantee
        the draws refute, so it certifies a violation of the guarantee as stated.
    audits
        ``"release"`` when the row measures what the mechanism really releases, ``"lemma"`` when it
        measures the object of a sensitivity lemma the paper states but the mechanism does not publish
        (:data:`AUDITS`).
    data
        Where the data measured come from (real, synthetic, a toy instance): the row's provenance.
    """

    key: str
    paper: str
    section: str
    mechanism: str
    adjacency: str
    stated_delta: float
    scale: float
    stated_eps: float
    measured_delta: float
    measured_how: str
    implied_eps: float
    certified: float
    confidence: float
    draws: int
    privacy_delta: float = 0.0
    audits: str = "release"
    data: str = ""

    def __post_init__(self) -> None:
        if self.audits not in AUDITS:
            raise ParameterError(f"audits must be one of {AUDITS} (got {self.audits!r})")

    @property
    def verdict(self) -> str:
        """``"holds on the data"`` or ``"fails by ×k"`` (:func:`verdict` of the stated and the implied ε)."""
        return verdict(self.stated_eps, self.implied_eps)

    @property
    def holds(self) -> bool:
        """Whether the implied ε meets the stated one on the data (which cannot confirm the guarantee)."""
        return self.verdict == HOLDS

    @property
    def certifies_violation(self) -> bool:
        """Whether the certified lower bound exceeds the stated ε: a violation of the stated (ε, δ)
        guarantee at the stated confidence (the bound is δ-aware, see ``privacy_delta``)."""
        return self.certified > self.stated_eps

    def row(self) -> dict[str, Any]:
        """The row as a table shows it."""
        return {
            "row": self.key, "paper": self.paper, "section": self.section, "audits": self.audits,
            "mechanism": self.mechanism, "data": self.data, "adjacency": self.adjacency,
            "stated Δ": self.stated_delta, "noise scale": self.scale, "stated ε": self.stated_eps,
            "stated δ": self.privacy_delta, "measured Δ": self.measured_delta,
            "how measured": self.measured_how, "implied ε": self.implied_eps, "certified ε ≥": self.certified,
            "confidence": self.confidence, "verdict": self.verdict,
        }  # fmt: skip


def shift_loss(shift: ArrayLike, scales: ArrayLike) -> float:
    """The privacy loss ``Σ_k |c_k|/b_k`` of a Laplace release of scales ``b`` whose means move by ``c``."""
    c, b = np.broadcast_arrays(np.asarray(shift, float), np.asarray(scales, float))
    if np.any(b <= 0):
        raise ParameterError("scales must be > 0")
    return float(np.sum(np.abs(c) / b))


def laplace_shift_audit(
    shift: ArrayLike,
    scales: ArrayLike,
    draws: int,
    rng: np.random.Generator,
    confidence: float = 0.95,
    *,
    delta: float = 0.0,
) -> AuditResult:
    """Audit a Laplace release of independent coordinates, scales ``b_k``, between two inputs whose means
    differ by ``c_k``.

    The release is drawn ``draws`` times under each input; each draw is reduced to the likelihood-ratio
    statistic ``T(y) = Σ_k (|y_k| − |y_k − c_k|)/b_k`` (``y`` measured from the first input's mean), which
    the most powerful tests threshold. The events are ``{T > t}`` and ``{T < t}`` for ``t = f·L``, ``L =
    Σ|c_k|/b_k`` and ``f`` in ``SHIFT_FRACTIONS``: fixed by the stated mechanism and the pair, before
    any draw. A one-coordinate release gives thresholds on the release itself. ``delta``: the δ of the
    guarantee audited (pure ε-DP when 0; :func:`dpnet.mechanisms.audit_epsilon`).
    """
    c, b = (np.atleast_1d(np.asarray(v, dtype=float)) for v in np.broadcast_arrays(shift, scales))
    if c.ndim != 1 or draws < 1 or np.any(b <= 0) or not np.all(np.isfinite(c)):
        raise ParameterError("shift and scales must be finite (K,) arrays, scales > 0, draws ≥ 1")
    loss = shift_loss(c, b)
    chunk = max(1, _CHUNK_VALUES // c.size)

    def statistic(mean: NDArray[np.float64]) -> NDArray[np.float64]:
        # drawn in blocks of at most _CHUNK_VALUES values, the same draws for any block size
        out = []
        for start in range(0, draws, chunk):
            y = mean + rng.laplace(0.0, 1.0, (min(chunk, draws - start), c.size)) * b
            out.append(np.round(np.sum((np.abs(y) - np.abs(y - c)) / b, axis=1), _DECIMALS))
        return np.concatenate(out)

    null = statistic(np.zeros_like(c))
    alternative = statistic(c)
    thresholds = np.round(np.array(SHIFT_FRACTIONS) * loss, _DECIMALS)
    return audit_epsilon(null, alternative, np.unique(thresholds), confidence, delta=delta)


def laplace_difference_audit(
    shift: float, scale: float, draws: int, rng: np.random.Generator, confidence: float = 0.95
) -> AuditResult:
    """Audit the release of ``f₁ − f₀ + d₁ − d₀`` with ``d₀, d₁`` independent ``Lap(scale)``, between two
    inputs whose difference ``f₁ − f₀`` moves by ``shift``: what a normalised belief over two states
    reveals when each state's log-likelihood carries its own Laplace noise (``log ν(θ₁)/ν(θ₀)``).

    The noise ``d₁ − d₀`` has density ``(1 + |y|/b) e^{−|y|/b}/(4b)``, whose log is ``1/b``-Lipschitz, so the
    privacy loss is at most ``|shift|/scale`` (approached in the tails). Events, fixed by the pair before
    any draw: half-lines ``{y > t}`` and ``{y < t}`` at the midpoint plus ``PAIR_OFFSETS`` times the
    scale, and at both means.
    """
    if not (scale > 0 and draws >= 1 and math.isfinite(shift)):
        raise ParameterError("need a finite shift, scale > 0 and draws ≥ 1")
    x = scale * (rng.laplace(0.0, 1.0, draws) - rng.laplace(0.0, 1.0, draws))
    y = shift + scale * (rng.laplace(0.0, 1.0, draws) - rng.laplace(0.0, 1.0, draws))
    events: list[Callable[[NDArray], NDArray]] = []
    for t in sorted({0.5 * shift + o * scale for o in PAIR_OFFSETS} | {0.0, float(shift)}):
        events += [lambda v, t=t: v > t, lambda v, t=t: v < t]
    return audit_epsilon(x, y, events, confidence)


def _pair_events(m1: float, b1: float, m2: float, b2: float) -> list[Callable[[NDArray], NDArray]]:
    mid, unit = 0.5 * (m1 + m2), min(b1, b2)
    events: list[Callable[[NDArray], NDArray]] = []
    for t in sorted({mid + o * unit for o in PAIR_OFFSETS} | {m1, m2}):
        events += [lambda y, t=t: y > t, lambda y, t=t: y < t]
    for m, b in ((m1, b1), (m2, b2)):
        events += [lambda y, m=m, w=w * b: np.abs(y - m) < w for w in PAIR_WIDTHS]
    return events


def laplace_pair_audit(
    m1: float, b1: float, m2: float, b2: float, draws: int, rng: np.random.Generator,
    confidence: float = 0.95, *, delta: float = 0.0,
) -> AuditResult:  # fmt: skip
    """Audit two Laplace laws ``Lap(m1, b1)`` and ``Lap(m2, b2)`` (a release whose scale depends on the
    data, as with a smooth sensitivity), against an (ε, ``delta``) guarantee (pure ε-DP when ``delta``
    is 0; see :func:`dpnet.mechanisms.audit_epsilon`).

    Events, fixed by the four numbers before any draw: half-lines ``{y > t}`` and ``{y < t}`` at the
    midpoint plus ``PAIR_OFFSETS`` times the smaller scale and at both means, and intervals
    ``|y − m| < w·b`` around each mean for ``w`` in ``PAIR_WIDTHS`` (a law much wider than the other
    puts little mass on the other's interval).
    """
    if not (b1 > 0 and b2 > 0 and draws >= 1 and math.isfinite(m1) and math.isfinite(m2)):
        raise ParameterError("need finite means, scales > 0 and draws ≥ 1")
    x = m1 + b1 * rng.laplace(0.0, 1.0, draws)
    y = m2 + b2 * rng.laplace(0.0, 1.0, draws)
    return audit_epsilon(x, y, _pair_events(m1, b1, m2, b2), confidence, delta=delta)


def discrete_audit(
    p: ArrayLike, q: ArrayLike, draws: int, rng: np.random.Generator, events: Sequence[Sequence[int]],
    confidence: float = 0.95, *, delta: float = 0.0,
) -> AuditResult:  # fmt: skip
    """Audit a discrete release with output laws ``p`` and ``q`` (over the same outputs) on two inputs,
    against an (ε, ``delta``) guarantee (pure ε-DP when ``delta`` is 0).

    ``events`` are sets of output indices, fixed before sampling (for instance the output of the largest
    exact ratio, found from the laws, and its complement).
    """
    pp, qq = np.asarray(p, dtype=float), np.asarray(q, dtype=float)
    if pp.shape != qq.shape or pp.ndim != 1 or np.any(pp < 0) or np.any(qq < 0) or draws < 1 or not events:
        raise ParameterError("p and q must be non-negative laws of one shape, draws ≥ 1, events non-empty")
    x = rng.choice(pp.size, size=draws, p=pp / pp.sum())
    y = rng.choice(qq.size, size=draws, p=qq / qq.sum())
    sets = [np.asarray(sorted(e), dtype=np.int64) for e in events]
    return audit_epsilon(x, y, [lambda out, s=s: np.isin(out, s) for s in sets], confidence, delta=delta)


def laplace_pair_epsilon(
    m1: ArrayLike, b1: ArrayLike, m2: ArrayLike, b2: ArrayLike, delta: float, *, upper: float = 100.0
) -> NDArray[np.float64]:
    """The smallest ε for which ``Lap(m1, b1)`` and ``Lap(m2, b2)`` are (ε, δ)-indistinguishable, both ways.

    Bisection on the hockey-stick divergence ``E_{e^ε}`` in closed form
    (:func:`~dpnet.estimation.guarantee.laplace_hockey_stick`), elementwise; ``inf`` where even ``upper``
    does not reach ``δ``.
    """
    from dpnet.estimation import laplace_hockey_stick

    a1, s1, a2, s2 = np.broadcast_arrays(*(np.asarray(v, dtype=float) for v in (m1, b1, m2, b2)))

    def excess(eps: NDArray[np.float64]) -> NDArray[np.float64]:
        return np.maximum(
            laplace_hockey_stick(a1, s1, a2, s2, eps), laplace_hockey_stick(a2, s2, a1, s1, eps)
        )

    lo, hi = np.zeros(a1.shape), np.full(a1.shape, float(upper))
    out_of_reach = excess(hi) > delta
    for _ in range(60):
        mid = 0.5 * (lo + hi)
        above = excess(mid) > delta
        lo, hi = np.where(above, mid, lo), np.where(above, hi, mid)
    return np.where(out_of_reach, np.inf, hi)
